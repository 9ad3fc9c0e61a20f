"""``/roll`` (any dice of the games, logged) and ``/log show|export|reveal`` (the channel's
verifiable roll log). The grammar is engine/roll.py; the log's proof engine/ledger.py; its
storage storage/roll_log.py."""

from typing import Optional

import discord
from discord import app_commands
from discord.app_commands import Range
from discord.ext import commands

from cogs.common.dice_source import private_option
from cogs.common.ledger import ANSWER_PRIVATELY_KEY, battle_chain, chain_here, log_store
from cogs.dice.words.log import battle_words, battles_reply, export_reply, hidden, reveal_reply, show_reply, unseal_reply
from cogs.common.replies import defer, keep, off_the_loop, send_error, send_reply, stored
from cogs.dice.words.roll import roll_reply
from engine.dice import EnteredDice
from engine.errors import RulesError
from engine.roll import MAX_LENGTH, read, roll_parsed
from storage import roll_log
from storage.settings import settings_for

MAX_SHOWN = 10
"""Entries `/log show` lists at most (one embed field each)."""


def chain_of(interaction: discord.Interaction) -> str:
    """The chain of the channel the command was typed in (outside battles)."""
    return roll_log.channel_chain(interaction.guild_id, interaction.channel_id)


def log_here(interaction: discord.Interaction) -> str:
    """The chain rolls here go to now: the battle's in progress here, else the channel's."""
    return chain_here(interaction.client.store, interaction.guild_id, interaction.channel_id)


def sees_private(interaction: discord.Interaction) -> bool:
    """The GM role and server managers see every private roll's result in /log show."""
    if may_manage(interaction):
        return True
    gm = settings_for(interaction.client.store, interaction.guild_id, interaction.channel_id).gm_role_id
    return gm is not None and any(r.id == gm for r in getattr(interaction.user, "roles", ()) or ())


def may_manage(interaction: discord.Interaction) -> bool:
    """Server managers (Manage Server) in a server; anyone in a DM or the offline console."""
    if interaction.guild is None:
        return True
    perms = getattr(interaction, "permissions", None)
    return bool(perms and perms.manage_guild)


class RollCog(commands.Cog):
    """Dice for every other roll of the game, and the log that proves them."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="roll", description="Roll dice: 2d6+1, 10d6 4+, 4d6k3, 1d20 adv, d66, 3d6!, 1a, 1s; logged")
    @private_option
    @app_commands.describe(
        expression="Dice, e.g. 2d6+1 to hit, 10d6 4+ r1, (1d6+2)*2; several at once, comma-separated",
        dice='Your dice in order, e.g. "4 6"; the bot rolls the rest',
    )
    async def roll(self, interaction: discord.Interaction, expression: Range[str, 1, MAX_LENGTH], dice: Optional[str] = None) -> None:
        expressions, label = read(expression)  # a typo is refused before any roll number is drawn

        def work():  # off the event loop: the roll number is reserved in the store at the first die
            source = self.bot.new_dice()
            return roll_parsed(expression, expressions, EnteredDice(dice, source) if dice else source, label=label)

        # One round trip to a thread for the whole command: the roll, its words, its log entry and
        # its buttons (keep); send_reply then only sends.
        reply = await off_the_loop(interaction, work, then=lambda result: keep(interaction, roll_reply(result)))
        await send_reply(interaction, reply)

    log = app_commands.Group(name="log", description="This channel's roll log: every roll, hashed in a chain anyone can check")

    @log.command(name="show", description="The last rolls in this channel's log (its battle's during one), with hashes")
    @app_commands.describe(count=f"How many of the last rolls (1-{MAX_SHOWN}, default 5)")
    async def show(self, interaction: discord.Interaction, count: Range[int, 1, MAX_SHOWN] = 5) -> None:
        store = log_store(self.bot)
        main = self.bot.store

        def work():  # every read in the store's thread: a store that is away never holds the event loop
            chain = log_here(interaction)
            viewer = None if sees_private(interaction) else str(interaction.user.id)
            current = roll_log.current_chain(store, chain)
            battles = [] if current is not None else channel_battles(main, store, interaction.guild_id, interaction.channel_id)
            return viewer, current, roll_log.last_entries(store, chain, count), battles

        viewer, current, entries, battles = await stored(interaction, work)
        if any(dict(e.options).get("private") is True and not hidden(e, viewer) for e in entries):
            # a private roll's result, shown to its roller, the GM role or a manager: for their eyes alone
            interaction.extras[ANSWER_PRIVATELY_KEY] = True
        await send_reply(interaction, show_reply(current, entries, count, viewer=viewer, battles=battles))

    @log.command(name="export", description="This channel's roll log (a battle's: battle:N) as JSON, CSV and a page that checks it")
    @app_commands.describe(epoch="Which secret's rolls (default: the current); earlier ones include the secret",
                           battle="One of this channel's battles (by number: /log export lists them)")
    async def export(self, interaction: discord.Interaction, epoch: Optional[Range[int, 1, 100_000]] = None,
                     battle: Optional[Range[int, 1, 2**53]] = None) -> None:
        await defer(interaction)  # a long log takes a while to read and pack: "thinking..." first
        store, main = log_store(self.bot), self.bot.store

        def work():
            viewer = None if sees_private(interaction) else str(interaction.user.id)
            battles = channel_battles(main, store, interaction.guild_id, interaction.channel_id)
            if battle is not None:
                if battle not in {b["id"] for b in battles}:
                    raise RulesError(f"Battle {battle} has no roll log in this channel"
                                     + (f": its battles are {battle_words(battles)}." if battles else "."))
                chain = battle_chain(battle)
            else:
                chain = log_here(interaction)
            return battles, chain, roll_log.export_log(store, chain, epoch, viewer=viewer)

        battles, chain, data = await stored(interaction, work)
        if data is None:
            if epoch is not None:
                where = f"Battle {battle}'s log" if battle is not None else "This channel's log"
                raise RulesError(f"{where} has no epoch {epoch}: /log show gives the current one.")
            if battles:
                await send_reply(interaction, battles_reply(battles))
                return
            raise RulesError("Nothing has been rolled in this channel yet, so there is no log to export.")
        if any(e.get("options", {}).get("private") is True for e in data["entries"] if not e.get("sealed")):
            interaction.extras[ANSWER_PRIVATELY_KEY] = True  # private rolls in full: for the asker's eyes
        others = [b for b in battles if battle_chain(b["id"]) != chain]
        await send_reply(interaction, await off_the_loop(interaction, export_reply, data, others))  # files built in the pool

    @log.command(name="reveal", description="Managers: disclose this channel's secret and start a new one")
    async def reveal(self, interaction: discord.Interaction) -> None:
        if not may_manage(interaction):
            await send_error(interaction, "Only server managers (Manage Server permission) can reveal the roll log's secret.")
            return
        await defer(interaction)  # the whole epoch is read and packed: "thinking..." first

        def work():
            if log_here(interaction) != chain_of(interaction):
                raise RulesError("A battle is in progress here: its roll log's secret is revealed by /battle end, "
                                 "and /log reveal discloses the channel's own log once the battle is over.")
            return roll_log.reveal(log_store(self.bot), chain_of(interaction), self.bot.new_secret)

        revealed = await stored(interaction, work)
        if revealed is None:
            raise RulesError("Nothing has been rolled in this channel yet, so there is no secret to reveal.")
        await send_reply(interaction, await off_the_loop(interaction, reveal_reply, revealed))  # files built in the pool

    @log.command(name="unseal", description="Show one of your private rolls (GM: anyone's) in full in every later export")
    @app_commands.describe(roll="The roll's number (/log show lists them)", epoch="Its epoch (default: the current)",
                           battle="Its battle, when it was rolled in one of this channel's battles")
    async def unseal(self, interaction: discord.Interaction, roll: Range[int, 1, 2**53],
                     epoch: Optional[Range[int, 1, 100_000]] = None, battle: Optional[Range[int, 1, 2**53]] = None) -> None:
        store, main = log_store(self.bot), self.bot.store

        def work():
            see_all = sees_private(interaction)
            if battle is not None:
                if battle not in {b["id"] for b in channel_battles(main, store, interaction.guild_id, interaction.channel_id)}:
                    raise RulesError(f"Battle {battle} has no roll log in this channel.")
                chain = battle_chain(battle)
            else:
                chain = log_here(interaction)
            return chain, roll_log.unseal(store, chain, epoch, roll, user=str(interaction.user.id), may_see_all=see_all)

        chain, entry = await stored(interaction, work)
        await send_reply(interaction, unseal_reply(chain, entry))


def channel_battles(main, store, guild_id: int | None, channel_id: int | None) -> list[dict]:
    """This channel's battles that have a roll log, oldest first: id, ended (bool), rolls."""
    if guild_id is None:
        return []
    rows = main.read("SELECT id, ended_at FROM battles WHERE guild_id = ? AND channel_id = ? ORDER BY id",
                     (guild_id, channel_id))
    out = []
    for r in rows:
        chain = roll_log.current_chain(store, battle_chain(r["id"]))
        if chain is not None:
            out.append({"id": r["id"], "ended": r["ended_at"] is not None, "rolls": chain.logged or 0,
                        "chain": chain.chain})
    return out


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RollCog(bot))
