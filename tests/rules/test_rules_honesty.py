"""Issue 30, item 2: /rules answers only what the rulebooks Bombardier holds answer.

- A rule the held rulebooks do not describe (Terror, Poisoned Attacks, Regeneration...) is said
  to be not in them, in the title, with the nearest entries offered as suggestions.
- A question mixing a topic and a machine reaches the machine's own entry first.
- An entry is never chosen for words its text does not use.
- The held-out question set (questions_heldout.tsv), never used to tune the ranking, is scored
  and reported beside the tuned set."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cogs.rules.words import NOT_HELD, rules_reply
from config.rules import outside_rules, rule_entries
from storage.rules_index import RulesIndex, fold, normalise
from tests.rules.scoring import HELD_OUT, NOT_HELD as NOT_HELD_KEY, TUNED, questions, score

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def index() -> RulesIndex:
    return RulesIndex(rule_entries())


@pytest.mark.parametrize("term", ["poisoned attacks", "terror", "skirmishers", "regeneration", "ward saves",
                                  "how does terror work", "Stubborn", "look out sir"])
def test_a_rule_the_rulebooks_do_not_hold_says_so_and_suggests(index, term):
    found = index.search(term)
    assert not found.matched and found.outside and found.entries
    reply = rules_reply(found, [])
    assert NOT_HELD in reply.embed.title and found.outside in reply.embed.title
    assert reply.fields["matched"] is False and reply.fields["not_held"] == found.outside
    assert "suggestions" in reply.embed.description
    glance = reply.glance()
    assert NOT_HELD in glance.title and "•" in glance.description  # the suggestions reach the channel


def test_the_suggestions_for_a_rule_not_held_mention_it_first(index):
    found = index.search("poisoned attacks")
    assert {"warhammer-fantasy:immunity"} <= {e.key for e in found.entries[:3]}


@pytest.mark.parametrize("term", ["x", "qq", "how many points does my general cost in a tournament"])
def test_nothing_matching_well_is_not_passed_off_as_an_answer(index, term):
    found = index.search(term)
    assert not found.matched
    assert rules_reply(found, []).embed.title.endswith(NOT_HELD)


def test_every_rule_the_seeds_hold_is_answered_not_refused(index):
    """No held entry's own name is refused as outside the rulebooks."""
    for e in index.entries:
        found = index.search(e.name, game=e.game)
        assert found.matched and found.outside is None, e.key


def test_no_outside_name_is_a_held_entrys_name():
    held = {normalise(n) for e in rule_entries() for n in (e.name, *e.aliases)}
    for out in outside_rules().values():
        assert not held & {normalise(r) for r in out.rules}


@pytest.mark.parametrize("question, key", [
    ("does armour save work against a cannon", "warhammer-fantasy:cannon"),
    ("can I move my cannon and still shoot", "warhammer-fantasy:cannon"),
    ("can a stone thrower move and shoot", "warhammer-fantasy:stone-thrower"),
])
def test_a_topic_and_a_machine_reach_the_machines_own_entry_first(index, question, key):
    found = index.search(question, preferred="warhammer-fantasy")
    assert found.matched and found.entries[0].key == key
    uses = set(fold(w) for w in re.findall(r"[a-z0-9]+", found.entries[0].summary.lower()))
    assert {"armour", "mov"} & uses  # and its text speaks of what was asked


def test_a_machines_named_chart_still_comes_before_the_machine(index):
    assert index.search("what happens when the cannon misfires").entries[0].key == "warhammer-fantasy:black-powder-misfire-chart"


def test_an_answer_always_uses_the_words_asked(index):
    """For every question of both sets that is answered, the answer's own text (name, aliases,
    keywords, summary) uses at least half the question's words (as typed, typos aside), or is
    named by it."""
    for path in (TUNED, HELD_OUT):
        for question, _, game in questions(path):
            found = index.search(question, preferred=game)
            if found.matched:
                i = index.entries.index(found.entries[0])
                assert not index._unused(i, index._content(normalise(question))) or \
                    index._named_share(i, index._words(question)) > 0.5 or found.entries[0].name.lower() in question.lower() \
                    or i in index._phrases_in(index._words(question)) or i in index._fuzzy(question), question


def test_both_question_sets_are_scored_and_reported(index):
    tuned, held = score(index, questions(TUNED)), score(index, questions(HELD_OUT))
    print(tuned.line("/rules tuned set"))
    print(held.line("/rules held-out set"))
    assert held.n >= 50 and sum(k == NOT_HELD_KEY for _, k, _ in questions(HELD_OUT)) >= 8
    assert tuned.first / tuned.n >= 0.95
    # the held-out set is never tuned on: its floor is what it scored when the ranking changed (84%)
    assert held.first / held.n >= 0.80, "\n".join(held.misses)


def test_every_rules_reply_says_where_to_report_a_mistake_with_a_link(index, monkeypatch):
    from config.rules import help_page

    monkeypatch.setenv("BOMBARDIER_REPORT_URL", "https://example.org/bombardier/issues")
    help_page.cache_clear()
    try:
        for term in ("bounce", "terror", "x"):
            found = index.search(term)
            glance = rules_reply(found, index.related(found.entries[0]) if found.matched else []).glance()
            assert "[Report it](https://example.org/bombardier/issues)" in glance.description, term
    finally:
        help_page.cache_clear()
    monkeypatch.setenv("BOMBARDIER_REPORT_URL", "not-a-url")
    with pytest.raises(ValueError):
        help_page()
    help_page.cache_clear()
