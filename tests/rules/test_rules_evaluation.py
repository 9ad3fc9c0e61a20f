"""/rules answers the question asked: the evaluation set (tests/rules/questions.tsv, 200 questions
typed as players type them, the last 20 written after the ranking was tuned and kept as they first
scored) must give its entry first at least 95% of the time, and within the first three 98%.
A weak match is offered as "did you mean", never as the answer."""

from __future__ import annotations

from pathlib import Path

import pytest

from config.rules import rule_entries
from cogs.rules.words import rules_reply
from storage.rules_index import RulesIndex

QUESTIONS = Path(__file__).with_name("questions.tsv")
GAME = {"fantasy": "warhammer-fantasy", "warmaster": "warmaster", "40k": "wh40k"}


def questions() -> list[tuple[str, str, str | None]]:
    rows = []
    for line in QUESTIONS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            question, key, *game = line.split("\t")
            rows.append((question, key, GAME[game[0]] if game else None))
    return rows


@pytest.fixture(scope="module")
def index() -> RulesIndex:
    return RulesIndex(rule_entries())


def test_every_question_names_a_real_entry_once(index):
    rows = questions()
    assert len(rows) >= 120 and len({(q, g) for q, _, g in rows}) == len(rows)
    assert all(key in index.by_key for _, key, _ in rows)
    assert {index.by_key[key].game for _, key, _ in rows} == set(GAME.values())


def test_top_1_is_at_least_95_percent_and_top_3_98(index):
    first = within_three = 0
    misses = []
    for question, key, game in questions():
        found = index.search(question, preferred=game)
        got = [e.key for e in found.entries]
        if found.matched and got[:1] == [key]:
            first += 1
        else:
            misses.append(f"{question!r}: {got[:3]}")
        within_three += key in got[:3]
    n = len(questions())
    print(f"/rules evaluation: top-1 {first}/{n} = {first / n:.1%}, top-3 {within_three}/{n} = {within_three / n:.1%}")
    assert first / n >= 0.95, "\n".join(misses)
    assert within_three / n >= 0.98, "\n".join(misses)


@pytest.mark.parametrize("question, key", [
    ("what does killing blow do", "warhammer-fantasy:killing-blow"),
    ("stone thrower minimum range", "warhammer-fantasy:stone-thrower"),
    ("how do I knock down a wall", "warmaster:structure-test"),
    ("dwarf flame cannon", "warhammer-fantasy:fire-thrower"),
])
def test_the_misses_the_issue_names_now_answer(index, question, key):
    found = index.search(question)
    assert found.matched and found.entries[0].key == key


def test_a_weak_match_is_offered_as_did_you_mean_never_as_the_answer(index):
    found = index.search("how many points does my general cost in a tournament")
    assert not found.matched and found.weak and found.entries
    reply = rules_reply(found, [])
    assert reply.fields["matched"] is False and reply.fields["did_you_mean"] is True
    assert reply.embed.title.endswith("not in the rulebooks Bombardier holds") and "suggestions" in reply.embed.description


def test_the_fire_thrower_entry_shows_its_profile_from_the_engines_data(index):
    from config.gamedata import fantasy
    from config.rules import resolve

    entry = index.search("fire thrower").entries[0]
    assert entry.key == "warhammer-fantasy:fire-thrower" and "not in the bot's data" not in entry.summary
    table = resolve(entry.profile)
    profile = fantasy().fire_throwers["fire-thrower"]
    assert table.rows[0][1] == str(profile.strength) and "Flaming Attacks" in table.rows[0][2]
