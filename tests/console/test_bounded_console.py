"""Free-text lists are capped at what a real table holds, the cap is said in the option's
description and in the error, and numbers typed in free text are plain, short and finite
(issue 19, parts 1 and 5): every such input is one clear sentence, never the apology."""

import pytest

from cogs.warmaster.options import MAX_NEAR
from engine.warmaster.shooting import MAX_STANDS
from engine.wh40k.vehicle import MAX_NEARBY


def near(n: int) -> str:
    """`n` lines of 12 stands, clear of each other and of the target."""
    return "; ".join(f"{'enemy' if i % 2 else 'friend'} line 12 @ {-60 if i % 2 else 60},{-20 + (i // 2) * 3}" for i in range(n))


def option(bot, path: str, name: str):
    group, sub = path.split()
    command = bot.tree.get_command(group).get_command(sub)
    return next(p for p in command.parameters if p.display_name == name)


@pytest.mark.parametrize("path", ["wm cannon", "wm bone-thrower", "siege artillery"])
async def test_near_is_capped_and_says_so(bot, play, path):
    assert f"(max {MAX_NEAR})" in option(bot, path, "near").description
    extra = " weapon:bombard" if path == "siege artillery" else ""
    code, out = await play(f'/{path}{extra} distance:30 near:"{near(MAX_NEAR + 1)}"')
    assert code == 2 and out["error"] == f"Near: units: {MAX_NEAR + 1} given; at most {MAX_NEAR} fit one command."
    code, out = await play(f'/{path}{extra} distance:30 near:"{near(MAX_NEAR)}"')  # the worst case allowed answers
    assert code == 0, out


async def test_other_lists_say_their_cap(bot, play):
    assert f"(max {MAX_STANDS})" in option(bot, "wm cannon", "at").description
    assert f"Up to {MAX_NEARBY}" in option(bot, "40k penetrate", "nearby").description
    code, out = await play('/40k penetrate weapon:normal strength:9 armour:12 nearby:"' + " ".join(["1"] * (MAX_NEARBY + 1)) + '"')
    assert code == 2 and f"at most {MAX_NEARBY}" in out["error"]
    code, out = await play("/wm cannon distance:30 at:\"" + " ".join(f"{4 * i},1" for i in range(MAX_STANDS + 1)) + '"')
    assert code == 2 and f"give 1 to {MAX_STANDS}" in out["error"]


@pytest.mark.parametrize("typed", [
    "friend line 2 @ " + "9" * 309 + ",3",           # became inf
    "friend line 2 @ " + "9" * 4301 + ",3",          # beyond int()'s digits
    "friend line 2 @ ²,3",                           # superscript: isdigit() but no number
    "friend line 2 @ ٣,3",                           # Arabic-Indic: int() takes it
    "friend line 2 @ 4,3 hits ²",
    "friend line 2 @ 4,3 turn " + "9" * 400,
])
async def test_numbers_in_free_text_are_plain_short_and_finite(play, typed):
    code, out = await play(f'/wm cannon distance:30 near:"{typed}"')
    assert code == 2 and "Sorry" not in out["error"]
    assert len(out["error"]) < 300, out["error"]


async def test_long_input_is_quoted_short(play):
    code, out = await play('/wm cannon distance:30 near:"' + "x" * 6000 + '"')
    assert code == 2 and len(out["error"]) < 300 and "more characters" in out["error"]
    code, out = await play('/siege structure kind:wall section:"' + "y" * 3000 + '"')
    assert code == 2 and len(out["error"]) < 300
    code, out = await play('/fire cannon distance:30 dice:"' + "H" * 2100 + '"')
    assert code == 2 and len(out["error"]) < 300
