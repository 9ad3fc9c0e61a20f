"""Where a command's dice come from, for every command through one path: ``bot.new_dice()``.

The bot needs to know which interaction it is rolling for (a command re-run by a reply's
"Resolve wounds" button gets the first run's dice back, so the shot stays the same shot and only
the new rolls are new). Command callbacks do not pass the interaction down to their dice, so the
interaction being served is kept in a context variable: each interaction runs in its own asyncio
task, so concurrent commands never see each other's.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

import discord

REPLAY_KEY = "bombardier.replay"
"""``interaction.extras`` key: the dice of the reply being replayed."""
OPTIONS_KEY = "bombardier.options"
"""``interaction.extras`` key: the options of a command re-run from a button (a button press
has no options of its own)."""

serving: ContextVar[discord.Interaction | None] = ContextVar("bombardier_serving", default=None)
"""The interaction the current task is answering (set by the command tree, the console and the
buttons before a command's callback runs)."""


def command_options(interaction: discord.Interaction) -> dict[str, Any]:
    """The options the command ran with, by their displayed names."""
    if OPTIONS_KEY in interaction.extras:
        return dict(interaction.extras[OPTIONS_KEY])
    namespace = getattr(interaction, "namespace", None) or ()
    return {name: value for name, value in namespace if isinstance(value, (str, int, float, bool))}
