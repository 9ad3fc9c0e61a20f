"""Where a command's dice come from, for every command through one path: ``bot.new_dice()``.

The bot needs to know which interaction it is rolling for (a command re-run by a reply's
"Resolve wounds" button gets the first run's dice back, so the shot stays the same shot and only
the new rolls are new). Command callbacks do not pass the interaction down to their dice, so the
interaction being served is kept in a context variable: each interaction runs in its own asyncio
task, so concurrent commands never see each other's.
"""

from __future__ import annotations

import functools
import inspect
from contextvars import ContextVar
from typing import Any

import discord
from discord import app_commands

from engine.dice import Dice

REPLAY_KEY = "bombardier.replay"
"""``interaction.extras`` key: the dice of the reply being replayed."""
OPTIONS_KEY = "bombardier.options"
"""``interaction.extras`` key: the options of a command re-run from a button (a button press
has no options of its own)."""

serving: ContextVar[discord.Interaction | None] = ContextVar("bombardier_serving", default=None)
odds_dice: ContextVar[Dice | None] = ContextVar("bombardier_odds_dice", default=None)
"""While ``/odds`` prices a command, the dice its procedure is driven with (every way they can fall,
or seeded throws): ``bot.new_dice()`` hands them out instead of the roll log's, and nothing is logged."""
"""The interaction the current task is answering (set by the command tree, the console and the
buttons before a command's callback runs)."""


def command_options(interaction: discord.Interaction) -> dict[str, Any]:
    """The options the command ran with, by their displayed names."""
    if OPTIONS_KEY in interaction.extras:
        return dict(interaction.extras[OPTIONS_KEY])
    namespace = getattr(interaction, "namespace", None) or ()
    return {name: value for name, value in namespace if isinstance(value, (str, int, float, bool))}


PRIVATE_DESCRIPTION = "Only you see it"


def private_option(callback):
    """Give a rolling command the ``private`` option (Discord: "Only you see it") without
    touching its callback: the option reaches the roll log and the reply through the interaction
    (:func:`command_options`), so the callback never sees it. Put it right under the
    ``@...command(...)`` decorator."""

    @functools.wraps(callback)
    async def with_private(*args: Any, private: bool = False, **kwargs: Any) -> Any:
        return await callback(*args, **kwargs)

    signature = inspect.signature(callback)
    extra = inspect.Parameter("private", inspect.Parameter.KEYWORD_ONLY, default=False, annotation=bool)
    with_private.__signature__ = signature.replace(parameters=[*signature.parameters.values(), extra])
    del with_private.__wrapped__  # discord.py reads the signature above, not the wrapped one's
    described = dict(getattr(callback, "__discord_app_commands_param_description__", {}))
    with_private.__discord_app_commands_param_description__ = {**described, "private": PRIVATE_DESCRIPTION}
    return with_private


async def call_command(command, interaction: discord.Interaction, kwargs: dict[str, Any]) -> None:
    """Run a command's callback for `interaction` as the command tree does: the interaction is
    the one being served (so its dice know it), and any failure goes to the tree's one error
    handler. The offline console and the buttons' re-runs call commands through this."""
    serving.set(interaction)
    try:
        if command.binding is not None:
            await command.callback(command.binding, interaction, **kwargs)
        else:
            await command.callback(interaction, **kwargs)
    except Exception as e:  # the same handler a slash command's failure goes to
        await interaction.client.tree.on_error(interaction, app_commands.CommandInvokeError(command, e))
