"""No input makes a reply Discord would refuse: every command driven with worst-case but valid
options (every bound at its largest, the longest names, the biggest units, the most dice, full
logs, long rosters) through the reply path, and every message it sends (the glance, its
buttons, its files) and its Details checked against Discord's limits (tests/discord_limits.py).
What does not fit is shortened with a count of what is left out, never cut mid-word."""

from __future__ import annotations

import discord
import pytest
from discord import AppCommandOptionType

from cogs.common.replies import REPLY_KEY
from console import offline as console
from tests import discord_limits as limits


def problems(interaction) -> list[limits.Refusal]:
    """Everything Discord would refuse in what `interaction` sent, and in its Details."""
    out: list[limits.Refusal] = []
    for m in interaction.sent:
        embeds = [m["embed"]] if m.get("embed") is not None else list(m.get("embeds") or [])
        data = {"content": m.get("content"), "embeds": [e.to_dict() for e in embeds]}
        if m.get("view") is not None:
            data["components"] = m["view"].to_components()
        files = [m["file"]] if m.get("file") is not None else list(m.get("files") or [])
        out += limits.message_problems(data, {f.filename: f.fp.getvalue() for f in files})
    reply = interaction.extras.get(REPLY_KEY)
    if reply is not None:
        out += limits.message_problems({"embeds": [reply.details().to_dict()]}, path=("details",))
        out += limits.message_problems({"embeds": [reply.glance().to_dict()]}, path=("glance",))
    return out


async def run(bot, line: str, **who):
    try:
        interaction = await console.invoke(bot, line, **who)
    except console.ConsoleError:
        return None
    limits.assert_accepted(problems(interaction), line)
    return interaction


def _value(p, *, everything: bool):
    if p.choices:
        return p.choices[-1].value
    if p.type in (AppCommandOptionType.integer, AppCommandOptionType.number) and p.max_value is not None:
        return int(p.max_value) if p.type is AppCommandOptionType.integer else p.max_value
    if p.type is AppCommandOptionType.boolean:
        return "true" if everything else None
    if p.type is AppCommandOptionType.string and p.required:
        return "x" * 100
    return None


def _line(command, *, everything: bool) -> str:
    words = [f"/{command.qualified_name}"]
    for p in command.parameters:
        if not (p.required or everything) or p.name in ("private", "dice", "machine"):
            continue
        value = _value(p, everything=everything)
        if value is not None:
            words.append(f'{p.display_name}:"{value}"')
    return " ".join(words)


async def test_every_command_at_its_bounds_answers_within_discords_limits(bot):
    """Each command twice: its required options at their largest, then every option at its
    largest (switches on); an answer or a one-sentence error, never a refusal."""
    answered = 0
    for command in console._commands(bot.tree):
        for everything in (False, True):
            interaction = await run(bot, _line(command, everything=everything))
            answered += interaction is not None and REPLY_KEY in interaction.extras
    assert answered >= 40


WORST = [
    # the biggest units and the most hits
    '/fire cannon distance:30 ranks:{R} files:{F} toughness:3 wounds:1 dice:"H 4 10"',
    '/fire great-cannon distance:30 ranks:{R} files:{F} toughness:3 dice:"H 4 10"',
    '/fire stone-thrower distance:30 ranks:{R} files:{F} toughness:3 dice:"H 10"',
    '/fire stone-thrower distance:30 ranks:{R} files:{F} dice:"H 10"',
    '/fire fire-thrower distance:8 ranks:{R} files:{F} toughness:3 leadership:7 dice:"4"',
    '/fire bolt-thrower distance:10 bs:10 ranks:{R} files:{F} toughness:2',
    '/fire grapeshot distance:6 bs:10 toughness:3 dice:"10 6"',
    '/breath distance:6 strength:5 ranks:{R} files:{F} toughness:3',
    # the longest names
    '/machine add name:"{N}" kind:cannon',
    '/fire cannon distance:30 machine:"{N}" dice:"@90 M 3"',
    '/siege structure kind:wall section:"{N}" hits:40 dice:"1 1 1 1 1 1"',
]


async def test_worst_cases_by_hand_answer_within_discords_limits(bot):
    from engine.fantasy.formation import MAX_FILES, MAX_RANKS

    name = "Thunder " * 12
    for line in WORST:
        await run(bot, line.format(R=MAX_RANKS, F=MAX_FILES, N=name.strip()[:90]))


async def test_a_full_log_of_cannon_shots_with_profiles_fits(bot):
    """Issue 18's known breaker: /log show count:10 after ten shots with a profile (6,800
    characters of embed before)."""
    for i in range(10):
        await run(bot, f'/fire cannon distance:{30 + i} ranks:4 files:5 toughness:3 wounds:2 save:5 ward:6 dice:"H 4 10"')
    shown = await run(bot, "/log show count:10")
    reply = shown.extras[REPLY_KEY]
    assert len(reply.fields["entries"]) == 10  # the record keeps every entry
    assert "#10" in reply.glance().description or "more" in reply.glance().description


async def test_a_long_roster_and_a_long_battle_fit(bot):
    for i in range(30):
        await run(bot, f'/machine add name:"Great Cannon of the Northern Reach {i:02d}" kind:great-cannon')
    await run(bot, "/machine list")
    await run(bot, "/battle start")
    for i in range(25):
        await run(bot, f'/fire great-cannon distance:40 machine:"Great Cannon of the Northern Reach {i:02d}" dice:"H 4 10"')
    await run(bot, "/battle status")
    await run(bot, "/battle end")


async def test_the_most_dice_fit(bot):
    await run(bot, '/roll expression:"100d6+100d8+100d10"')
    await run(bot, '/roll expression:"100d6 r1"')
    # explosions and re-rolls at their bounds, ten expressions, a label at its longest
    await run(bot, '/roll expression:"' + ", ".join(["100d2ie2ir1"] * 10) + ' ! ' + "label " * 20 + '"')
    await run(bot, '/roll expression:"250d66, 500d10!"')


async def test_glance_shortens_on_a_word_with_a_count():
    from cogs.common.replies import Reply, shorten

    long = "word " * 400
    assert shorten(long, 50).endswith("…") and not shorten(long, 50)[:-1].endswith("wor")
    embed = discord.Embed(title="t", description="**Answer**")
    embed.add_field(name="Hits", value="\n".join(f"R1 F{i}: line {i} unlike the others" for i in range(1, 30)))
    reply = Reply(embed=embed, image=None, filename="", command="x", system="any", dice=(), summary=())
    lines = reply.glance().description.splitlines()
    assert len(lines) <= 7 and lines[-1].startswith("and ") and lines[-1].endswith("more: see Details")


def test_models_are_grouped_as_the_pictures_group_them():
    from cogs.common.replies import group_models

    assert group_models(["R2 F1: S4, 1 wound", "R2 F2: S4, 1 wound", "R2 F3: S4, 1 wound", "Next line"]) == [
        "R2 F1-F3: S4, 1 wound each", "Next line"]
    assert group_models(["R1 F2 bounce: S10", "R2 F2 bounce: S10", "R3 F2 bounce: S10"]) == ["R1-R3 F2 bounce: S10 each"]
    wounds = ["R1 F1 under the template: to wound 5 (needs 3+), no armour save: 1 wound, slain",
              "R1 F2 under the template: to wound 1 (needs 3+), no wound",
              "R1 F3 under the template: to wound 6 (needs 3+), no armour save: 1 wound, slain"]
    assert group_models(wounds) == ["R1 F1-F3 under the template: 2 slain, 1 no wound"]
    assert group_models(wounds[:1]) == wounds[:1]  # one model keeps its whole line
