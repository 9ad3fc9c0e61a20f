"""Every ``dice:`` example the bot shows (the option's own description, and /help's page) is
accepted by the command it is shown for."""

from __future__ import annotations

import re

from cogs.common.replies import ERROR_KEY, FAILURE_KEY, REPLY_KEY
from config.rules import help_page
from console import offline as console

EXAMPLE = re.compile(r'e\.g\. "([^"]+)"')
BASE = {
    "fire cannon": "/fire cannon distance:30",
    "fire great-cannon": "/fire great-cannon distance:30",
    "fire stone-thrower": "/fire stone-thrower distance:30",
    "fire grapeshot": "/fire grapeshot distance:6 bs:3",
    "fire bolt-thrower": "/fire bolt-thrower distance:20 bs:3",
    "fire fire-thrower": "/fire fire-thrower distance:8 toughness:3",
    "breath": "/breath distance:4 strength:4 toughness:3",
    "40k penetrate": "/40k penetrate strength:9 armour:13",
    "40k ordnance": "/40k ordnance distance:30 strength:8",
    "40k damage": "/40k damage table:glancing",
    "roll": '/roll expression:"2d6"',
}
"""The options each command needs besides its dice (the examples are tried on these)."""
EVERY = {
    "40k damage": ["/40k damage table:penetrating", "/40k damage table:ordnance"],
    "fire stone-thrower": ["/fire stone-thrower distance:30 toughness:3"],
    "fire fire-thrower": ["/fire fire-thrower distance:8"],
}
"""Other ways the same example must work (each damage table; with and without a profile)."""


async def accepted(bot, line: str) -> None:
    interaction = await console.invoke(bot, line)
    assert ERROR_KEY not in interaction.extras and FAILURE_KEY not in interaction.extras, (
        line, interaction.extras.get(ERROR_KEY) or interaction.extras.get(FAILURE_KEY))
    assert REPLY_KEY in interaction.extras, line


async def test_every_dice_option_example_is_accepted_by_its_command(bot):
    tried = 0
    for command in console._commands(bot.tree):
        for p in command.parameters:
            if p.name != "dice":
                continue
            for example in EXAMPLE.findall(p.description):
                assert command.qualified_name in BASE, f"/{command.qualified_name} shows {example!r}: add it to BASE"
                for base in [BASE[command.qualified_name]] + EVERY.get(command.qualified_name, []):
                    await accepted(bot, f'{base} dice:"{example}"')
                    tried += 1
    assert tried >= 10


async def test_the_help_pages_dice_examples_are_accepted(bot):
    page = help_page()
    for example in re.findall(r'dice:\\?"([^"\\]+)\\?"', page.dice):
        await accepted(bot, f'{BASE["fire cannon"]} dice:"{example}"')
    for name, line in page.examples.items():
        if "dice:" in line:
            await accepted(bot, line)


async def test_help_is_private_unless_posted(bot):
    private = await console.invoke(bot, "/help")
    assert private.sent[-1].get("ephemeral") is True
    posted = await console.invoke(bot, "/help post:true")
    assert not posted.sent[-1].get("ephemeral")
