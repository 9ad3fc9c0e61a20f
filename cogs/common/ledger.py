"""Every roll of every command in the roll log, through the two paths every command already takes.

1. ``bot.new_dice()`` calls :func:`draw`: the first call while serving an interaction checks a
   private roll is allowed here and hands out :class:`SeededDice`: at the first die the bot
   actually draws, it picks the chain (the channel's battle's while one is in progress, else the
   channel's), reserves the next roll number in one short transaction
   (:func:`storage.roll_log.next_roll`: two indexed statements, run on the event loop since the
   procedures roll synchronously) and rolls ``RandomDice(HMAC(secret, N))``, recorded. A command
   refused for its options before it rolls uses no number.
   Later calls in the same command get the same source, so a command that asks several times
   still rolls one stream under one number. A "Resolve wounds" re-run gets the first run's dice
   back first (:class:`~engine.dice.ReplayDice`), the rest from that stream.
2. ``send_reply`` keeps the reply (``replies.keep``, in a store thread: hashing a thousand dice
   takes milliseconds), which calls :func:`record_now`: the entry (user, command, options, every die
   marked bot or player, the summary) is appended in one transaction, and the reply shows its roll
   number and hash.

A command that never asks for dice logs nothing; one that fails after drawing a die leaves its
number unused (``bot.py verify`` reports such numbers). Commands answered at once in one channel may
append out of number order: the chain is in append order.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass
from collections.abc import Callable
from typing import Any

import discord

from cogs.common.dice_source import REPLAY_KEY, command_options
from engine.dice import Dice, DieKind, DieRoll, ReplayDice, Roller
from engine.errors import RulesError
from engine.ledger import REPLAY_OF, Entry
from storage import roll_log
from storage.settings import settings_for

log = logging.getLogger(__name__)

DRAWN_KEY = "bombardier.drawn"
"""``interaction.extras`` key: the roll number this command drew and its dice."""
ENTRY_KEY = "bombardier.entry"
"""``interaction.extras`` key: where the command's entry was logged (chain, epoch, roll number)."""
REPLAY_OF_KEY = "bombardier.replay_of"
"""``interaction.extras`` key: where the entry of the result being re-run was logged."""

PRIVATE = "private"
PRIVATE_HELP = "Only you see the answer"
PRIVATE_REFUSED = ("Private rolls are not allowed in this channel: a server manager can allow them with "
                   "/settings private-rolls allowed:true.")


battle_chain = roll_log.battle_chain


def chain_here(store, guild_id: int | None, channel_id: int | None) -> str:
    """Where a roll made in this channel goes: the battle in progress here, else the channel."""
    if guild_id is not None:
        rows = store.read("SELECT id FROM battles WHERE guild_id = ? AND channel_id = ? AND ended_at IS NULL",
                          (guild_id, channel_id))
        if rows:
            return battle_chain(rows[0]["id"])
    return roll_log.channel_chain(guild_id, channel_id)


def log_store(bot):
    """Where the roll log is kept: the bot's database, or the throwaway one of a console run with
    ``--seed`` (``bot.roll_store``), so a seed gives the same dice on every run."""
    return getattr(bot, "roll_store", None) or bot.store


ANSWER_PRIVATELY_KEY = "bombardier.answer_privately"
"""``interaction.extras`` key: answer only the user (an export holding private rolls in full)."""


def is_private(interaction: discord.Interaction) -> bool:
    """The command was asked for with ``private:true`` (or its answer holds what only its user may
    see: :data:`ANSWER_PRIVATELY_KEY`)."""
    return command_options(interaction).get(PRIVATE) is True or interaction.extras.get(ANSWER_PRIVATELY_KEY) is True


class SeededDice(Dice):
    """One command's dice from the roll log: the roll number is reserved, and the dice seeded
    from it, at the first die the bot actually draws. A command refused for its options before
    it rolls anything (a bad aim, a range out of bounds) so leaves no gap in the log."""

    def __init__(self, reserve: Callable[[], roll_log.RollSlot]) -> None:
        self._reserve = reserve
        self.slot: roll_log.RollSlot | None = None
        self.rolled: list[DieRoll] = []
        """Every die drawn from the roll's seed, in order."""

    def reserved(self) -> roll_log.RollSlot:
        """The roll number, reserved now if no die has been drawn yet (a command whose dice
        were all entered by the players still takes its place in the log)."""
        if self.slot is None:
            self.slot = self._reserve()
        return self.slot

    def roll(self, kind: DieKind, purpose: str, *, small_arrow: bool = False, sides: int | None = None) -> DieRoll:
        seeded = self.reserved().dice
        if kind is DieKind.DX:
            die = seeded.roll(kind, purpose, small_arrow=small_arrow, sides=sides)
        else:
            die = seeded.roll(kind, purpose, small_arrow=small_arrow)
        self.rolled.append(die)
        return die


@dataclass
class Drawn:
    """The dice one command was handed, and the seeded source behind them."""

    seeded: SeededDice
    dice: Dice


def draw(bot, interaction: discord.Interaction) -> Dice:
    """The dice of the command serving `interaction` (see the module's docstring)."""
    drawn: Drawn | None = interaction.extras.get(DRAWN_KEY)
    if drawn is None:
        store = bot.store
        if (is_private(interaction) and interaction.guild_id is not None
                and not settings_for(store, interaction.guild_id, interaction.channel_id).private_rolls):
            raise RulesError(PRIVATE_REFUSED)
        seeded = SeededDice(lambda: roll_log.next_roll(
            log_store(bot), chain_here(store, interaction.guild_id, interaction.channel_id), bot.new_secret))
        dice: Dice = seeded
        if REPLAY_KEY in interaction.extras:
            dice = ReplayDice(interaction.extras[REPLAY_KEY], seeded)
        drawn = interaction.extras[DRAWN_KEY] = Drawn(seeded, dice)
    return drawn.dice


def logged_dice(reply_dice: tuple[DieRoll, ...], drawn: list[DieRoll]) -> tuple[DieRoll, ...]:
    """The dice to log: the reply's, in order, when its bot dice are exactly those drawn from the
    seed (every command's case); otherwise the players' dice then every die drawn, so the log
    never misstates what the seed gave."""
    bots = [d for d in reply_dice if d.by is Roller.BOT]
    if [(d.kind, d.face, d.sides) for d in bots] == [(d.kind, d.face, d.sides) for d in drawn]:
        return reply_dice
    log.warning("a reply lists its bot dice otherwise than they were drawn; logging the draws")
    return tuple(d for d in reply_dice if d.by is Roller.PLAYER) + tuple(drawn)


def _replay_of(interaction: discord.Interaction, slot: roll_log.RollSlot) -> int | str:
    ref = interaction.extras.get(REPLAY_OF_KEY)
    if ref is None:
        return "a result logged before re-runs were"
    chain, epoch, number = ref
    if (chain, epoch) == (slot.chain.chain, slot.chain.epoch):
        return number
    return f"{chain} epoch {epoch} roll {number}"


def commit_state(reply: Any) -> None:
    """Run the store change the reply carries (``Reply.commit_with_log``), once; inside the roll
    log's transaction when the command drew dice (:func:`record_now`), alone otherwise."""
    while reply.commit_with_log:
        reply.commit_with_log.pop(0)()


async def mark_undelivered(interaction: discord.Interaction) -> None:
    """The reply of a logged roll could not be sent: say so in the log (beside the chain, so the
    chain still verifies), rather than keep the roll as if the player had seen it."""
    ref = interaction.extras.get(ENTRY_KEY)
    if ref is None:
        return
    try:
        await asyncio.to_thread(roll_log.mark_undelivered, log_store(interaction.client), *ref)
    except Exception:
        log.exception("a roll could not be marked as not delivered: %s", ref)


def record_now(interaction: discord.Interaction, reply: Any) -> Entry | None:
    """Log the reply of a command that drew dice (once), in the calling thread (a store thread's,
    never the event loop's: ``replies.keep`` calls it): the roll number
    (reserved already when the bot drew a die), the entry appended with the state the reply changes,
    in one transaction, and the entry shown on the reply."""
    drawn: Drawn | None = interaction.extras.pop(DRAWN_KEY, None)
    if drawn is None:
        return None
    options: dict[str, Any] = {k: v for k, v in command_options(interaction).items() if v is not None}
    slot = drawn.seeded.reserved()
    if REPLAY_KEY in interaction.extras:
        options[REPLAY_OF] = _replay_of(interaction, slot)
    store = log_store(interaction.client)
    # The state the reply changes (a roster machine's, recorded with its shot) commits with the
    # roll's entry, or neither does: a crash between them can no longer leave one without the other.
    with store.transaction():
        commit_state(reply)
        entry = roll_log.append(
            store, slot, user=str(interaction.user.id), command=reply.command, options=options,
            dice=logged_dice(reply.dice, drawn.seeded.rolled), summary=reply.summary,
        )
    interaction.extras[ENTRY_KEY] = (slot.chain.chain, slot.chain.epoch, entry.number)
    show(reply, slot.chain, entry)
    return entry


def chain_words(chain: str) -> str:
    if chain.startswith("battle:"):
        return f"the battle here ({chain})"
    return "this channel" if chain.startswith("channel:") else chain


def started_line(chain: roll_log.Chain) -> str:
    """Shown with the first roll of an epoch: what the bot committed to."""
    return (f"New roll log for {chain_words(chain.chain)} (epoch {chain.epoch}): the bot committed to secret "
            f"SHA-256 {chain.commitment}; " + ("/battle end discloses it." if chain.chain.startswith("battle:")
                                               else "/log reveal discloses it."))


def show(reply: Any, chain: roll_log.Chain, entry: Entry) -> None:
    """The entry's roll number and hash in the footer and ``--json`` (``log``); the commitment
    with a channel epoch's first entry (a battle posts its own at /battle start)."""
    embed: discord.Embed = reply.embed
    mark = f"Roll #{entry.number} in the log · hash {entry.hash[:12]}"
    old = embed.footer.text if embed.footer else None
    embed.set_footer(text=f"{mark} · {old}"[:2048] if old else mark)
    reply.fields["log"] = {"chain": chain.chain, "epoch": chain.epoch, "roll": entry.number, "hash": entry.hash}
    if entry.previous == chain.commitment and not chain.chain.startswith("battle:"):
        line = started_line(chain)
        reply.fields["log"]["commitment"] = chain.commitment
        if len(embed.fields) < 25 and len(embed) + len(line) + 10 < 6000:
            embed.add_field(name="Roll log", value=line, inline=False)


def entry_ref(interaction: discord.Interaction) -> str | None:
    """Where the command's entry was logged, as the buttons keep it (JSON)."""
    ref = interaction.extras.get(ENTRY_KEY)
    return None if ref is None else json.dumps(list(ref))
