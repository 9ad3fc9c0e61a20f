"""What every command sends back, and the one path it is sent by.

A command builds a :class:`Reply` (an embed, a picture, the console's ``--json`` fields) and hands
it to :func:`send_reply`; user mistakes go through :func:`send_error`. Both work whether or not
the interaction was already answered (Red-DiscordBot's pattern), and both leave what they sent in
``interaction.extras`` so the offline console prints exactly what Discord would show.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextvars import ContextVar, copy_context
from dataclasses import dataclass, field
from typing import Any, TypeVar

import discord

from cogs.common import ledger
from cogs.common.dice_source import command_options
from engine.dice import DieRoll, Roller
from engine.inputs import QUOTE_LIMIT, quote

log = logging.getLogger(__name__)

REPLY_KEY = "bombardier.reply"
ERROR_KEY = "bombardier.error"
FAILURE_KEY = "bombardier.failure"

DEFER_AFTER = 1.5
"""Seconds after an interaction's arrival by which a command that is not yet answered defers:
Discord wants a first answer within 3 seconds of the interaction's arrival, not of the callback."""

ARRIVED_KEY = "bombardier.arrived"
"""``interaction.extras`` key: the event loop's clock when the interaction arrived."""

received: ContextVar[float | None] = ContextVar("bombardier_received", default=None)
"""The event loop's clock when the gateway event being handled was received. bot.py sets it around
discord.py's INTERACTION_CREATE parser, and the tasks discord.py starts from it (the command tree's,
a button's) inherit it."""

WORKERS = max(2, min(4, os.cpu_count() or 2))
"""Engine calls and pictures run in this many threads at most: a burst queues for them instead of
every command fighting the event loop for the interpreter at once."""

_work_pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="bombardier-work")
_queued = 0
"""Jobs handed to the pool and not finished (read and written on the event loop only)."""

T = TypeVar("T")

APOLOGY = "Sorry, something went wrong on our side. It has been logged; please try again."

COLOUR_OK = discord.Colour(0x2E7D32)
COLOUR_MISS = discord.Colour(0x546E7A)
COLOUR_BAD = discord.Colour(0xC62828)


@dataclass(frozen=True)
class Reply:
    """A command's answer, ready for Discord and for the console."""

    embed: discord.Embed
    image: bytes | None
    """PNG bytes, attached and shown in the embed."""
    filename: str
    """The attachment's name (``cannon.png``)."""
    command: str
    """The full command name, ``fire cannon``."""
    system: str
    """The game: ``warhammer-fantasy``, ``warmaster``, ``wh40k``."""
    dice: tuple[DieRoll, ...]
    summary: tuple[str, ...]
    """The answer as plain lines: outcome first, then dice, then details."""
    fields: dict[str, Any] = field(default_factory=dict)
    """The command's own result fields for ``--json``."""
    awaits_profile: bool = field(default=False, kw_only=True)
    """Hits were scored but no target profile was given, so wounds are left to the players (the
    reply then offers a "Resolve wounds" button)."""
    awaits_chart: bool = field(default=False, kw_only=True)
    """The machine misfired on dice the players entered, and the chart waits for their D6 (the
    reply then offers a "Roll the misfire chart" button)."""
    attachments: tuple[tuple[str, bytes], ...] = field(default=(), kw_only=True)
    """Further files sent with the answer, as (filename, bytes): a report, an export."""
    private: bool = field(default=False, kw_only=True)
    """Answered to its user alone (ephemeral), whatever the options: e.g. what the bot deleted about them."""

    def json(self, image_path: str | None) -> dict[str, Any]:
        """The console's ``--json`` object (DESIGN.md, offline console)."""
        return {
            "command": self.command,
            "system": self.system,
            "dice": [dice_json(d) for d in self.dice],
            "summary": list(self.summary),
            "image": image_path,
            **self.fields,
        }


def dice_json(d: DieRoll) -> dict[str, Any]:
    return {"die": d.die, "face": d.face, "purpose": d.purpose, "by": d.by.value}


def die_words(d: DieRoll) -> str:
    """What a die was rolled for, flagging a misfire: ``bounce (misfire)``."""
    return f"{d.purpose} (misfire)" if d.is_misfire else d.purpose


def dice_lines(dice: tuple[DieRoll, ...], limit: int = 1000) -> str:
    """Every die in order, one per line, within an embed field's 1024 characters."""
    lines = [f"`{d.face}` {die_words(d)} · {'entered' if d.by is Roller.PLAYER else 'bot'}" for d in dice]
    return clip_lines(lines, limit) or "no dice"


def dice_summary(dice: tuple[DieRoll, ...]) -> str:
    """The dice on one plain line: ``Dice: scatter H (player); bounce M (misfire, bot)``."""
    return "Dice: " + "; ".join(
        f"{d.purpose} {d.face} ({'misfire, ' if d.is_misfire else ''}{d.by.value})" for d in dice
    )


def clip_lines(lines: list[str], limit: int = 1000) -> str:
    """Join lines, dropping the tail with a count when Discord's field limit would be passed."""
    out: list[str] = []
    used = 0
    for i, line in enumerate(lines):
        if used + len(line) + 1 > limit - 20:
            out.append(f"... and {len(lines) - i} more")
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(out)


async def _send(interaction: discord.Interaction, **kwargs: Any) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
        interaction.extras[_FOLLOWED_KEY] = True
    else:
        await interaction.response.send_message(**kwargs)


def arrived(interaction: discord.Interaction) -> float:
    """The event loop's clock when `interaction` arrived: when its gateway event was received
    (:data:`received`), or, where the interaction carries no such stamp (the console, a test's
    fake), the first time this is asked. Kept in ``interaction.extras``."""
    stamp = interaction.extras.get(ARRIVED_KEY)
    if stamp is None:
        stamp = received.get()
        if stamp is None:
            stamp = asyncio.get_running_loop().time()
        interaction.extras[ARRIVED_KEY] = stamp
    return stamp


def defers_privately(interaction: discord.Interaction) -> bool:
    """The answer will be private (``private:true``), so a defer must be too: Discord shows a
    deferred interaction's follow-up as the defer was, public or ephemeral."""
    return ledger.is_private(interaction)


async def defer(interaction: discord.Interaction) -> None:
    """Answer "thinking..." now if nothing has answered yet: ephemeral exactly when the reply
    will be private."""
    if interaction.response.is_done():
        return
    try:
        await interaction.response.defer(thinking=True, ephemeral=defers_privately(interaction))
    except discord.InteractionResponded:  # answered meanwhile by another path
        pass


async def off_the_loop(interaction: discord.Interaction, work: Callable[..., T], *args: Any) -> T:
    """Run `work` (an engine call, a render) in the bounded work pool, keeping the event loop
    free. The command defers ("thinking...", ephemeral when its answer will be) as soon as it is
    clear the answer cannot come by :data:`DEFER_AFTER` seconds after the interaction's arrival:
    at once when the pool is already busy (a burst queues), else when that moment passes.
    The caller's context (the interaction being served, for its dice) goes with the work."""
    global _queued
    loop = asyncio.get_running_loop()
    deadline = arrived(interaction) + DEFER_AFTER
    busy = _queued >= WORKERS
    _queued += 1
    future = loop.run_in_executor(_work_pool, copy_context().run, work, *args)
    try:
        if not interaction.response.is_done():
            if busy or loop.time() >= deadline:
                await defer(interaction)
            else:
                done, _ = await asyncio.wait({future}, timeout=deadline - loop.time())
                if not done:
                    await defer(interaction)
        return await future
    finally:
        _queued -= 1


async def send_reply(interaction: discord.Interaction, reply: Reply) -> None:
    """Send a command's answer: the embed, with the picture attached and shown in it, and the
    buttons the reply offers (when the buttons extension is loaded: ``bot.reply_buttons``).
    A command that drew dice is logged first (cogs/common/ledger.py), and a private one (``private:true``)
    is answered only to its user."""
    interaction.extras[REPLY_KEY] = reply
    await ledger.record(interaction, reply)
    extra: dict[str, Any] = {}
    if reply.private or ledger.is_private(interaction):
        extra["ephemeral"] = True
    make_buttons = getattr(interaction.client, "reply_buttons", None)
    view = make_buttons(interaction, reply) if make_buttons is not None else None
    if view is not None:
        extra["view"] = view
    files = [discord.File(io.BytesIO(data), filename=name) for name, data in reply.attachments]
    if reply.image is not None:
        reply.embed.set_image(url=f"attachment://{reply.filename}")
        files.insert(0, discord.File(io.BytesIO(reply.image), filename=reply.filename))
    if not files:
        await _send(interaction, embed=reply.embed, **extra)
    elif len(files) == 1:
        await _send(interaction, embed=reply.embed, file=files[0], **extra)
    else:
        await _send(interaction, embed=reply.embed, files=files, **extra)


def short_error(message: str, values: tuple[str, ...] = ()) -> str:
    """An error fit to show: every quoted run (``'...'`` or ``"..."``) and every typed option
    value in `values` longer than about :data:`QUOTE_LIMIT` characters cut to that, control
    characters made visible, and the whole kept to one short paragraph."""
    for value in sorted((v for v in values if len(v) > QUOTE_LIMIT), key=len, reverse=True):
        message = message.replace(value, quote(value))
    message = re.sub(r"'([^'\n]{%d,})'" % (QUOTE_LIMIT + 1), lambda m: f"'{quote(m[1])}'", message)
    message = re.sub(r'"([^"\n]{%d,})"' % (QUOTE_LIMIT + 1), lambda m: f'"{quote(m[1])}"', message)
    message = "".join(c if c.isprintable() or c == "\n" else "\ufffd" for c in message)
    return message if len(message) <= ERROR_LIMIT else message[: ERROR_LIMIT - 1] + "\u2026"


ERROR_LIMIT = 600
"""The longest error sent: a sentence or two, far inside a message's 2,000 characters."""


async def send_error(interaction: discord.Interaction, message: str, *, failure: bool = False) -> None:
    """Tell only the user what went wrong: one ephemeral message, whether or not the interaction
    was already answered. `failure` marks our fault rather than theirs. The message is kept short
    (:func:`short_error`: what the user typed is quoted to about 100 characters). After a public
    defer Discord would show a follow-up publicly, so the "thinking..." message is deleted first
    and the error follows up on its own, ephemerally."""
    typed = tuple(str(v) for v in _typed_values(interaction))
    message = short_error(message, typed)
    interaction.extras[FAILURE_KEY if failure else ERROR_KEY] = message
    try:
        if interaction.response.is_done() and _deferred_publicly(interaction):
            try:
                await interaction.delete_original_response()
            except discord.HTTPException:
                log.warning("could not delete the public 'thinking...' of interaction %s", interaction.id)
        await _send(interaction, content=message, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error message to interaction %s", interaction.id, exc_info=True)


def _typed_values(interaction: discord.Interaction) -> list[str]:
    return [v for v in command_options(interaction).values() if isinstance(v, str)]


def _deferred_publicly(interaction: discord.Interaction) -> bool:
    """The interaction was answered with a public "thinking..." (a deferred command that is not
    private); Discord would show its first follow-up publicly whatever its flags."""
    response = getattr(interaction.response, "type", None)
    deferred = response == discord.InteractionResponseType.deferred_channel_message
    return deferred and not defers_privately(interaction) and not interaction.extras.get(_FOLLOWED_KEY)


_FOLLOWED_KEY = "bombardier.followed_up"
