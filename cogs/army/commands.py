"""``/army``: a member's army lists in this server, imported from BattleScribe or New Recruit.

Thin: the attachment's bytes (refused past 1 MB before they are fetched), the roster read in the
work pool (engine/roster.py), one store call (storage/armies.py), a reply (cogs/army/words.py).

No ``from __future__ import annotations`` here: discord.py reads the option types from the
callbacks' annotations.
"""

import asyncio

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from cogs.army.words import import_reply, list_reply, remove_reply, show_reply
from cogs.common.access import in_store
from cogs.common.replies import defer, off_the_loop, send_reply
from cogs.common.target import find_unit, lists_in_play, unit_choices
from engine.errors import RulesError
from engine.roster import MAX_FILE, RosterError, read_roster
from storage import armies


DOWNLOAD_PATIENCE = 1.0
"""Seconds the attachment's download may take before the command answers "thinking..."."""


def _in_server(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise RulesError("Army lists are kept per server: use /army in a server channel.")
    return interaction.guild_id


async def _own_lists(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    if interaction.guild_id is None:
        return []
    try:
        rows = await asyncio.wait_for(asyncio.to_thread(
            armies.list_names, interaction.client.store, interaction.guild_id, interaction.user.id), 2.0)
    except Exception:  # an autocomplete never fails for the store
        return []
    typed = current.strip().casefold()
    return [Choice(name=n[:100], value=n[:100]) for n, *_ in rows if typed in n.casefold()][:25]


async def _units_in_play(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    if interaction.guild_id is None:
        return []
    def choices():
        lists = lists_in_play(interaction.client.store, interaction.guild_id, interaction.channel_id, interaction.user.id)
        return unit_choices(lists, current)

    try:  # off the event loop
        return await asyncio.wait_for(asyncio.to_thread(choices), 2.0)
    except Exception:  # an autocomplete never fails for the store
        return []


async def fetch_roster(interaction: discord.Interaction, attachment) -> bytes:
    """The attachment's bytes, refused past :data:`MAX_FILE` before anything is fetched; a download
    that takes a while answers "thinking..." first, so Discord's 3 seconds are never missed."""
    size = getattr(attachment, "size", None)
    if size is not None and size > MAX_FILE:
        raise RosterError(f"That file is {size:,} bytes: a roster is at most {MAX_FILE:,} (1 MB).")
    download = asyncio.ensure_future(attachment.read())
    done, _ = await asyncio.wait({download}, timeout=DOWNLOAD_PATIENCE)
    if not done:
        await defer(interaction)
    data = await download
    if len(data) > MAX_FILE:
        raise RosterError(f"That file is {len(data):,} bytes: a roster is at most {MAX_FILE:,} (1 MB).")
    return data


class ArmyCog(commands.Cog):
    """Army lists: import, list, show, remove."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    army = app_commands.Group(name="army", description="Your BattleScribe/New Recruit lists: shoot units by name in troop: (40k: armour:)")

    @army.command(name="import", description="Import a BattleScribe (.ros, .rosz) or New Recruit list")
    @app_commands.describe(file="The roster file: .ros, .rosz or New Recruit's .json export")
    async def import_(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        guild_id = _in_server(interaction)
        data = await fetch_roster(interaction, file)
        roster = await off_the_loop(interaction, read_roster, data)
        army, replaced = await in_store(armies.save_army, self.bot.store, guild_id, interaction.user.id, roster)
        await send_reply(interaction, import_reply(army, replaced))

    @army.command(name="list", description="Your army lists in this server")
    async def list_(self, interaction: discord.Interaction) -> None:
        guild_id = _in_server(interaction)
        rows = await in_store(armies.list_names, self.bot.store, guild_id, interaction.user.id)
        await send_reply(interaction, list_reply(rows, "You have"))

    @army.command(name="show", description="A unit of a list in play: its profiles, rules, target values")
    @app_commands.describe(unit="A unit of your lists (or of the battle's players' here)")
    @app_commands.autocomplete(unit=_units_in_play)
    async def show(self, interaction: discord.Interaction, unit: str) -> None:
        guild_id = _in_server(interaction)
        army, found, _ = await in_store(lambda: find_unit(
            lists_in_play(self.bot.store, guild_id, interaction.channel_id, interaction.user.id), unit, option="unit"))
        await send_reply(interaction, show_reply(army, found))

    @army.command(name="remove", description="Remove one of your army lists from this server")
    @app_commands.describe(list="The list's name")
    @app_commands.autocomplete(list=_own_lists)
    async def remove(self, interaction: discord.Interaction, list: str) -> None:
        guild_id = _in_server(interaction)
        army = await in_store(armies.remove_army, self.bot.store, guild_id, interaction.user.id, list)
        await send_reply(interaction, remove_reply(army))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ArmyCog(bot))
