"""``/rules`` (look up any rule, profile or chart of the three games) and ``/help``.

No ``from __future__ import annotations`` here: discord.py reads the option types from the
callbacks' annotations.

The rules index (storage/rules_index.py) is built once per process, in a worker thread: on Discord
as soon as the bot is connected (``on_ready``), so the first lookup finds it ready; in the offline
console, which runs one command per process, only when a command needs it, so ``/fire`` does not
pay for it (sqlite-utils, rapidfuzz and the entries take about 0.3 s to load). A channel's default
game, when the bot knows one, ranks that game's entries first: the cog asks the bot's
``channel_game(interaction)`` (bot.py: the channel's ``/settings game``, read off the event loop).
"""

import asyncio
import dataclasses
import inspect
import logging
import threading
from typing import TYPE_CHECKING, Optional

import discord
from discord import app_commands
from discord.app_commands import Choice, Range
from discord.ext import commands

from cogs.campaign.words import SYSTEMS
from cogs.common.replies import send_reply
from cogs.rules.words import HelpTopic, help_reply, rules_reply
from config.rules import GAMES, help_page, rule_entries

if TYPE_CHECKING:
    from storage.rules_index import RulesIndex

log = logging.getLogger(__name__)

TERM_LENGTH = 100
"""Discord's limit on an autocomplete choice's value, and so on the term."""

GAME_CHOICES = [Choice(name=GAMES[key], value=value) for value, key in SYSTEMS.items()]
"""The same values /settings game takes (fantasy, warmaster, 40k), each naming an index game."""


def help_topics(tree: app_commands.CommandTree) -> list[HelpTopic]:
    """Every top-level command and group of the live tree, with its example from help.toml."""
    examples = help_page().examples
    topics = []
    for c in sorted(tree.get_commands(), key=lambda c: c.name):
        subs = tuple(s.name for s in c.commands) if isinstance(c, app_commands.Group) else ()
        topics.append(HelpTopic(c.name, c.description, subs, examples.get(c.name)))
    return topics


class RulesCog(commands.Cog):
    """Rules lookup and help."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._index: "RulesIndex | None" = None
        self._building = threading.Lock()

    def build_index(self) -> "RulesIndex":
        """The rules index, built on the first call (thread-safe; slow the first time)."""
        with self._building:
            if self._index is None:
                from storage.rules_index import RulesIndex  # sqlite-utils and rapidfuzz load here

                self._index = RulesIndex(rule_entries())
                log.info("rules index: %d entries built in %.1f ms", len(self._index.entries),
                         self._index.build_seconds * 1000)
            return self._index

    async def index(self) -> "RulesIndex":
        """The rules index, built off the event loop if it is not ready yet."""
        return self._index if self._index is not None else await asyncio.to_thread(self.build_index)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        await self.index()

    async def preferred_game(self, interaction: discord.Interaction) -> str | None:
        """The channel's default game, when the bot keeps one (``channel_game`` may be a plain or
        an async function)."""
        channel_game = getattr(self.bot, "channel_game", None)
        game = channel_game(interaction) if callable(channel_game) else None
        return await game if inspect.isawaitable(game) else game

    async def term_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        game = SYSTEMS.get(getattr(interaction.namespace, "game", None) or "")
        index = await self.index()
        return [Choice(name=label, value=key) for label, key in
                index.autocomplete(current, game=game, preferred=await self.preferred_game(interaction))]

    @app_commands.command(name="rules", description="Look up a rule, machine or chart: summary, profile, chart, source, related")
    @app_commands.describe(term="A rule, machine, chart or question, e.g. bounce; pick from the list",
                           game="Only this game's rules (default: all three)")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.autocomplete(term=term_autocomplete)
    async def rules(self, interaction: discord.Interaction, term: Range[str, 1, TERM_LENGTH],
                    game: Optional[str] = None) -> None:
        index = await self.index()
        found = index.lookup(term, game=SYSTEMS.get(game or ""), preferred=await self.preferred_game(interaction))
        related = index.related(found.entries[0]) if found.matched else []
        await send_reply(interaction, rules_reply(found, related))

    @app_commands.command(name="help", description="What Bombardier does, every command with an example, entering your own dice")
    @app_commands.describe(post="Post it in the channel for everyone (default: only you see it)")
    async def help(self, interaction: discord.Interaction, post: bool = False) -> None:
        """Answered privately unless `post`: a player looking something up does not fill the table's channel."""
        page = help_page()
        texts = {"intro": page.intro, "dice": page.dice, "report": page.report}
        reply = help_reply(help_topics(self.bot.tree), texts)
        await send_reply(interaction, dataclasses.replace(reply, private=not post))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RulesCog(bot))
