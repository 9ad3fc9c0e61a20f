"""What every command sends back, and the one path it is sent by.

A command builds a :class:`Reply` (an embed, a picture, the console's ``--json`` fields) and hands
it to :func:`send_reply`; user mistakes go through :func:`send_error`.

A reply reads in three layers (DESIGN.md):

- **the glance** (:meth:`Reply.glance`), what the channel sees: the answer as the title, its lines
  (a words module's ``glance_lines``, else the lines of its embed: rule and chart text whole, lists
  of models or stands cut past :data:`GLANCE_LINES` with how many more), ONE compact dice line
  (:func:`dice_line`) and the picture as the embed's image;
- **the details** (:meth:`Reply.details`): the words module's full embed (every die with its
  purpose, each model's line, the rule per step), sent privately to whoever presses "Details";
- **the record**: ``--json``, the roll log and the report files, which keep everything.

Nothing sent passes Discord's limits (:func:`fit`): what does not fit is shortened on a line or
word boundary and says how many more there are and where they are, never cut silently. Both work whether or not
the interaction was already answered (Red-DiscordBot's pattern), and both leave what they sent in
``interaction.extras`` so the offline console prints exactly what Discord would show.
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
import re
from collections.abc import Callable
from contextvars import ContextVar, copy_context
from dataclasses import dataclass, field
from typing import Any, TypeVar

import discord

from cogs.common import from_list, ledger, render_pool, work
from cogs.common.dice_source import command_options, serving
from engine.dice import DieRoll, Roller
from engine.inputs import QUOTE_LIMIT, quote
from renders.canvas import glance_of

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

WORKERS = work.WORKERS
"""Engine calls and pictures run in this many threads at most (cogs/common/work.py: the work lane,
served fairly between servers and members; cheap commands take the quick lane)."""

_queued = 0
"""Jobs handed to the lanes and not finished (read and written on the event loop only)."""

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
    commit_with_log: list[Callable[[], None]] = field(default_factory=list, kw_only=True, repr=False, compare=False)
    """Store changes the answer makes (a roster machine's new state and its shot), run once, in the
    same transaction as the roll's log entry (cogs/common/ledger.py): both commit or neither does."""
    private: bool = field(default=False, kw_only=True)
    """Answered to its user alone (ephemeral), whatever the options: e.g. what the bot deleted about them."""

    glance_lines: tuple[str, ...] = field(default=(), kw_only=True)
    """The glance's few short lines (who is hit, grouped; what the players roll next), when the
    words module words them itself; otherwise the glance takes its embed's first lines."""

    def glance(self) -> discord.Embed:
        """What the channel sees: the answer in the title, a few short lines, one dice line, the
        picture as the image (``attachment://`` its filename)."""
        full = self.embed
        answer, context = _answer(full)
        body = group_models(list(self.glance_lines) or _first_lines(full))
        after = [] if self.glance_lines else _next_lines(full)
        body = cut_lists(body, GLANCE_LINES - len(after) - bool(context))
        lines = ([context] if context else []) + body + after
        if self.dice:
            lines.append(dice_line(self.dice))
        embed = discord.Embed(title=shorten(answer, 256), description=shorten("\n".join(lines), GLANCE_TEXT, lines=True) or None,
                              colour=full.colour)
        if full.footer and full.footer.text:
            embed.set_footer(text=shorten(full.footer.text, 300))
        if self.image is not None and glance_of(self.image) is not None:
            # a portrait picture: its landscape top (title, target area, names) in the embed, and the
            # full diagram (list of hits, key, inset) as the thumbnail, which opens full size on a tap
            embed.set_image(url=f"attachment://{glance_name(self.filename)}")
            embed.set_thumbnail(url=f"attachment://{self.filename}")
        elif self.image is not None:
            embed.set_image(url=f"attachment://{self.filename}")
        return embed

    def details(self) -> discord.Embed:
        """The full breakdown, answered privately on "Details": the words module's own embed,
        fitted to Discord's limits."""
        return fit(self.embed, more="in the record: /log export, or --json in the console")

    def has_details(self) -> bool:
        """Whether the details say more than the glance (an embed with fields does)."""
        return bool(self.embed.fields)

    def json(self, image_path: str | None) -> dict[str, Any]:
        """The console's ``--json`` object (DESIGN.md, offline console); ``glance`` is what the
        channel sees, ``summary`` keeps every line."""
        glance = self.glance()
        return {
            "command": self.command,
            "system": self.system,
            "dice": [dice_json(d) for d in self.dice],
            "summary": list(self.summary),
            "image": image_path,
            "glance": {"title": glance.title, "lines": (glance.description or "").splitlines()},
            **self.fields,
        }


def glance_name(filename: str) -> str:
    """The glance picture's attachment name beside the full diagram's: ``cannon-glance.png``."""
    stem, dot, ext = filename.rpartition(".")
    return f"{stem}-glance.{ext}" if dot else f"{filename}-glance"


GLANCE_LINES = 6
"""The glance's lines at most when it lists models, stands or entries (the dice line comes on top):
a list is cut past it, saying how many more; rule and chart text is never cut (:func:`cut_lists`)."""
GLANCE_TEXT = 4000
"""The glance description's characters at most: Discord's 4,096 less room to spare. Only a reply
whose rule text alone passes it (none of the rulebook's entries does) loses whole lines, counted."""

_LIST_ITEM = re.compile(
    r"^(?:R\d+(?:-R\d+)? F\d+|#\d+\b|[•·*-] |(?:stand|model|unit|machine|squad|entry|roll)s? #?\d+\b)", re.I)
"""A line that is one item of a list (a model ``R2 F3 ...``, a stand, an entry ``#4 ...``, a bullet):
the only lines the glance leaves out when there are many."""


def is_list_item(line: str) -> bool:
    """Whether `line` is one item of a list (models, stands, entries), which the glance may cut."""
    return bool(_LIST_ITEM.match(line))


_CLIPPED = re.compile(r"^\.\.\. and (\d+) more$")
"""The line :func:`clip_lines` ends a field's list with when the field is full (``... and 6 more``)."""


def cut_lists(lines: list[str], room: int) -> list[str]:
    """The glance's body within `room` lines where it can be: rule and chart text, and every other
    line that is not a list item, is kept whole; list items past what fits are left out, a line
    saying how many more (``and 12 more: see Details``) in their place. Never a line cut short. A
    full field's own tail (``... and 6 more``, :func:`clip_lines`) is the end of its list: left out
    with it, its count joining the one line that says how many more."""
    if len(lines) <= room:
        return list(lines)
    items = [i for i, line in enumerate(lines) if is_list_item(line) or _CLIPPED.match(line)]
    keep = max(room - (len(lines) - len(items)) - 1, 2)
    if len(items) <= keep + 1:
        return list(lines)
    dropped = set(items[keep:])
    more = sum(int(m[1]) if (m := _CLIPPED.match(lines[i])) else 1 for i in dropped)
    out: list[str] = []
    for i, line in enumerate(lines):
        if i in dropped:
            if i == items[keep]:
                out.append(f"and {more} more: see Details")
            continue
        out.append(line)
    return out
DICE_LINE = 300
"""Characters the glance's one dice line may take."""


def _plain(text: str | None) -> str:
    return (text or "").replace("**", "").strip()


def _answer(embed: discord.Embed) -> tuple[str, str]:
    """The glance's title and its context line: a words module's embed carries its outcome as the
    description's first (bold) line and what was done as its title (``Cannon: 30" at the
    target``); the glance leads with the outcome."""
    description = embed.description or ""
    title = _plain(embed.title)
    if _bold_outcome(description):
        return _plain(description.split("\n", 1)[0]), title
    return title or _plain(description.split("\n", 1)[0]), ""


def _bold_outcome(description: str) -> bool:
    """Whether the description's first line is the outcome, wholly in bold."""
    first = description.split("\n", 1)[0]
    return len(first) > 4 and first.startswith("**") and first.endswith("**") and first.count("**") == 2


def _first_lines(embed: discord.Embed) -> list[str]:
    """A glance's lines when the words module gives none: the rest of the description, then each
    field's lines (the dice field aside: the dice line says them)."""
    description = embed.description or ""
    if _bold_outcome(description):
        rest = description.split("\n")[1:]
    elif embed.title:
        rest = description.split("\n")
    else:
        rest = description.split("\n")[1:]
    lines = [_plain(line) for line in rest if line.strip()]
    for f in embed.fields:
        if f.name in DETAILS_ONLY or f.name in NEXT:
            continue
        values = [_plain(v) for v in (f.value or "").split("\n") if v.strip()]
        name = _plain(f.name)
        if len(values) == 1 and values[0].startswith(f"{name}:"):
            lines.append(values[0])  # the value names itself already: said once
        elif len(values) == 1 and len(name) + len(values[0]) < 120:
            lines.append(f"{name}: {values[0]}")
        elif 1 < len(values) <= 8 and not any(map(is_list_item, values)) and sum(map(len, values)) < 240 \
                and not any(v[:1].isdigit() for v in values):  # a chart's rows stay rows
            lines.append(f"{name}: " + " · ".join(values))  # a side's or a step's few parts: its name leads
        else:
            lines += values
    return lines  # whole: rule and chart text is never cut in the glance (cut_lists cuts only lists)


DETAILS_ONLY = frozenset({"Dice", "Shot", "Target", "Rules applied", "Roll log", "Source", "Related", "Also matching",
                          "Remember", "Note"})
"""Fields the glance leaves to Details: the dice (the dice line says them), the geometry, the
target's description, the rules applied step by step, references."""
NEXT = ("Your rolls",)
"""Fields saying what the players roll next: always on the glance, last."""


def _next_lines(embed: discord.Embed) -> list[str]:
    return [_plain(f.value) for f in embed.fields if f.name in NEXT]


_MODEL = re.compile(r"^R(\d+) F(\d+)((?: [a-z]+)*): (.+)$")


def group_models(lines: list[str]) -> list[str]:
    """Lines about single models (``R2 F1: S4, 1 wound``) grouped as the pictures group them:
    neighbours in a rank with the same words become one line, ``R2 F1-F5: S4, 1 wound each``,
    and such lines for neighbouring ranks over the same files become ``R1-R2 F1-F5 ...``. Other
    lines pass as they are."""
    runs: list[list] = []  # [rank0, rank1, file0, file1, words, count] or [None, text]
    for line in _wound_groups(lines):
        m = _MODEL.match(line)
        if not m:
            runs.append([None, line])
            continue
        rank, file, words = int(m[1]), int(m[2]), f"{m[3]}: {m[4]}"
        last = runs[-1] if runs else None
        if last and last[0] is not None and last[4] == words and last[0] == last[1] == rank and last[3] + 1 == file:
            last[3] = file
            last[5] += 1
        else:
            runs.append([rank, rank, file, file, words, 1])
    merged: list[list] = []
    for run in runs:
        last = merged[-1] if merged else None
        if (run[0] is not None and last and last[0] is not None and last[4] == run[4]
                and (last[2], last[3]) == (run[2], run[3]) and last[1] + 1 == run[0]):
            last[1] = run[0]
            last[5] += run[5]
        else:
            merged.append(list(run))
    out = []
    for run in merged:
        if run[0] is None:
            out.append(run[1])
            continue
        r0, r1, f0, f1, words, count = run
        ranks = f"R{r0}" if r0 == r1 else f"R{r0}-R{r1}"
        files = f"F{f0}" if f0 == f1 else f"F{f0}-F{f1}"
        out.append(f"{ranks} {files}{words}" + (" each" if count > 1 else ""))
    return out


_OUTCOMES = ("slain", "survives", "saved", "no wound", "cannot wound")


def _outcome(words: str) -> str:
    """A wound roll's outcome at the end of its line: ``slain``, ``saved``, ``no wound``, ``2 wounds``..."""
    text = words.rstrip(". ")
    for o in _OUTCOMES:
        if text.endswith(o):
            return o
    return text.rsplit(": ", 1)[-1].rsplit(", ", 1)[-1]


def _counted(n: int, outcome: str) -> str:
    """`n` models with one outcome: ``3 slain``, ``1 no wound``; for a count of wounds, who took them
    (``2 took 2 wounds``, not ``2 2 wounds``)."""
    return f"{n} took {outcome}" if _WOUNDS_TAKEN.fullmatch(outcome) else f"{n} {outcome}"


_WOUNDS_TAKEN = re.compile(r"\d+ wounds?")


def _wound_groups(lines: list[str]) -> list[str]:
    """Neighbouring models whose wound rolls differ, counted by outcome: along one rank
    (``R1 F1-F5 under the template: 3 slain, 1 saved, 1 no wound``) or down one file, as a cannon
    ball bounces (``R2-R9 F5 bounce: 6 slain, 2 no wound``). Details has each roll."""
    out: list[str] = []
    group: dict = {}  # kind, the rank and file of its first and last model, along "rank" or "file", {outcome: n}, the lines

    def flush() -> None:
        if group:
            kept = group["lines"]
            if len(kept) == 1:
                out.append(kept[0])
            else:
                (r0, f0), (r1, f1) = group["first"], group["last"]
                where = f"R{r0} F{f0}-F{f1}" if group["along"] == "rank" else f"R{r0}-R{r1} F{f0}"
                counts = sorted(group["counts"].items(), key=lambda on: _OUTCOMES.index(on[0]) if on[0] in _OUTCOMES else 9)
                out.append(f"{where}{group['kind']}: " + ", ".join(_counted(n, o) for o, n in counts))
            group.clear()

    for line in lines:
        m = _MODEL.match(line)
        if not m or "to wound" not in m[4]:
            flush()
            out.append(line)
            continue
        rank, file, kind, outcome = int(m[1]), int(m[2]), m[3], _outcome(m[4])
        along = None
        if group and group["kind"] == kind:
            last_rank, last_file = group["last"]
            if rank == last_rank and file == last_file + 1 and group["along"] in (None, "rank"):
                along = "rank"
            elif file == last_file and rank == last_rank + 1 and group["along"] in (None, "file"):
                along = "file"
        if along is not None:
            group["along"], group["last"] = along, (rank, file)
            group["counts"][outcome] = group["counts"].get(outcome, 0) + 1
            group["lines"].append(line)
        else:
            flush()
            group.update(kind=kind, first=(rank, file), last=(rank, file), along=None, counts={outcome: 1}, lines=[line])
    flush()
    return out


def shorten(text: str, limit: int, *, lines: bool = False) -> str:
    """`text` within `limit` characters, cut at a line (`lines`) or word boundary; never mid-word,
    and never silently: a cut line ends in "…", cut lines are counted."""
    if len(text) <= limit:
        return text
    if lines:
        kept: list[str] = []
        all_lines = text.split("\n")
        for i, line in enumerate(all_lines):
            tail = f"and {len(all_lines) - i} more lines: see Details"
            if sum(len(k) + 1 for k in kept) + len(line) + len(tail) + 1 > limit:
                return "\n".join(kept + [tail])
            kept.append(line)
        return "\n".join(kept)
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:· ")
    return cut + "…"


_PER_ONE = re.compile(r"\s*\(?\b(?:shot|rank|file|model|hit|attack|stand|die|dice|no\.?)\s*#?\d+\b.*$", re.I)
"""What a die's purpose adds to say which one of a kind it is (``to hit shot 3``, ``to wound rank 2
file 3``): the dice line groups by the kind alone, and Details names each."""
_ONE_FIRST = re.compile(r"^(?:shot|rank|file|model|hit|attack|stand|die|dice|no\.?)\s*#?\d+\s+", re.I)
"""The same said first (``model 2 partly under``): the kind is what follows it."""


def dice_line(dice: tuple[DieRoll, ...], limit: int = DICE_LINE) -> str:
    """Every die on ONE line, grouped by purpose in the order rolled, the players' own marked:
    ``Dice: scatter @45 · artillery 4 · bounce 8 (yours)``, ``to hit 6 5 2 · to wound 4 4``; a
    misfire face ends in ``!``. Past `limit` it ends with how many more dice there are (Details
    has each one)."""
    groups: list[tuple[str, list[str], bool]] = []
    for d in dice:
        face = f"{d.face}{'!' if d.is_misfire and d.face != 'M' else ''}"
        mine = d.by is Roller.PLAYER
        purpose = _PER_ONE.sub("", d.purpose) or _ONE_FIRST.sub("", d.purpose)
        if groups and groups[-1][0] == purpose and groups[-1][2] == mine:
            groups[-1][1].append(face)
        else:
            groups.append((purpose, [face], mine))
    everyone = {mine for _, _, mine in groups}
    mark = everyone != {True, False}  # all the players' or all the bot's: said once at the end
    text = "Dice: "
    shown = 0
    for i, (purpose, faces, mine) in enumerate(groups):
        part = f"{purpose} {' '.join(faces)}{' (yours)' if mine and not mark else ''}"
        sep = " · " if i else ""
        if len(text) + len(sep) + len(part) > limit - 30:
            return text + f"{sep}and {len(dice) - shown} more dice: see Details"
        text += sep + part
        shown += len(faces)
    return text + (" (all yours)" if everyone == {True} else "")


def _fit_value(value: str) -> str:
    return value if len(value) <= 1024 else clip_lines(value.split("\n"), 1024) or "-"


def fit(embed: discord.Embed, *, more: str = "see Details") -> discord.Embed:
    """A copy of `embed` within Discord's limits: each field value within 1,024 (cut at a line),
    at most 25 fields, and the whole within 6,000; fields that do not fit are left out with one
    last field saying how many and where they are (`more`)."""
    title = shorten(embed.title or "", 256) or None
    description = shorten(embed.description or "", 4096, lines=True) or None
    out = discord.Embed(title=title, description=description, colour=embed.colour)
    footer = shorten((embed.footer and embed.footer.text) or "", 2048)
    if footer:
        out.set_footer(text=footer)
    used = len(title or "") + len(description or "") + len(footer)
    fields = [(shorten(f.name or "-", 256), _fit_value(f.value or "-"), f.inline) for f in embed.fields]
    whole = len(fields) <= 25 and used + sum(len(n) + len(v) for n, v, _ in fields) <= 6000
    budget = 6000 if whole else 6000 - 150  # room for the last field that counts what is left out
    for i, (name, value, inline) in enumerate(fields):
        if not whole and (i == 24 or used + len(name) + len(value) > budget):
            left = len(fields) - i
            out.add_field(name=f"and {left} more", value=f"{left} more part{'s' * (left != 1)}: {more}", inline=False)
            break
        out.add_field(name=name, value=value, inline=inline)
        used += len(name) + len(value)
    return out


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
            if not out:  # one line longer than the field: shortened at a word
                out.append(shorten(line, limit - 40))
                if len(lines) > 1:
                    out.append(f"... and {len(lines) - 1} more")
                break
            out.append(f"... and {len(lines) - i} more")
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(out)


async def _send(interaction: discord.Interaction, **kwargs: Any) -> None:
    if interaction.response.is_done():
        if kwargs.get("ephemeral") and _deferred_publicly(interaction):
            # Discord shows the first follow-up of a public "thinking..." in its place, publicly,
            # whatever its flags: the "thinking..." goes, and the private answer follows on its own
            delete = getattr(interaction, "delete_original_response", None)  # (the console has nothing to delete)
            try:
                if delete is not None:
                    await delete()
            except discord.HTTPException:
                log.warning("could not delete the public 'thinking...' of interaction %s", interaction.id)
            interaction.extras[_FOLLOWED_KEY] = True
        await interaction.followup.send(**kwargs)
        interaction.extras[_FOLLOWED_KEY] = True
    else:
        await interaction.response.send_message(**kwargs)
        _first_response(interaction)


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


STARTED_KEY = "bombardier.started"
"""``interaction.extras`` key: the event loop's clock when the command first asked for its work."""


def defer_by(interaction: discord.Interaction) -> float:
    """The latest moment the command may defer, by the event loop's clock: :data:`DEFER_AFTER` after
    its arrival, less how late the command began after it arrived (issue 26). The arrival stamp is
    when the gateway event was read, and on a loop busy enough to start a command late, reading the
    event was most likely late too, by about as much, and unseen: Discord's 3 seconds run from
    before it. So a command begun 0.5 s after its arrival defers 1 s after it at the latest (and at
    once when its work is expected to end later); one begun 1.5 s late, at once."""
    started = interaction.extras.get(STARTED_KEY)
    if started is None:
        started = interaction.extras[STARTED_KEY] = asyncio.get_running_loop().time()
    stamp = arrived(interaction)
    return stamp + DEFER_AFTER - min(max(0.0, started - stamp), DEFER_AFTER)


def defers_privately(interaction: discord.Interaction) -> bool:
    """The answer will be private (``private:true``), so a defer must be too: Discord shows a
    deferred interaction's follow-up as the defer was, public or ephemeral."""
    return ledger.is_private(interaction)


DEFERRED_KEY = "bombardier.deferred"
"""``interaction.extras`` key: how the command deferred ("thinking..."): ``{"ephemeral": bool, "at":
the loop's clock}``; a later private answer to a public defer deletes the "thinking..." first."""
FIRST_RESPONSE_KEY = "bombardier.first_response"
"""``interaction.extras`` key: the event loop's clock at the interaction's first response (a defer or
the answer), to hold against its arrival (:func:`arrived`)."""


def _first_response(interaction: discord.Interaction) -> None:
    if FIRST_RESPONSE_KEY not in interaction.extras:
        try:
            interaction.extras[FIRST_RESPONSE_KEY] = asyncio.get_running_loop().time()
        except RuntimeError:
            pass


async def defer(interaction: discord.Interaction) -> None:
    """Answer "thinking..." now if nothing has answered yet: ephemeral exactly when the reply
    will be private."""
    if interaction.response.is_done():
        return
    ephemeral = defers_privately(interaction)
    try:
        await interaction.response.defer(thinking=True, ephemeral=ephemeral)
    except discord.InteractionResponded:  # answered meanwhile by another path
        return
    interaction.extras[DEFERRED_KEY] = {"ephemeral": ephemeral, "at": asyncio.get_running_loop().time()}
    _first_response(interaction)


pricing: ContextVar[bool] = ContextVar("bombardier_pricing", default=False)
"""Set while ``/odds`` runs a command's callback to find its procedure: the command's first
:func:`off_the_loop` work (its engine call, built from the options exactly as for a real shot) is
handed back in :class:`Priced` instead of run."""


class Priced(Exception):
    """A command's engine call, caught before it ran (see :data:`pricing`)."""

    def __init__(self, work: Callable[..., Any], args: tuple[Any, ...]) -> None:
        super().__init__("priced")
        self.work = work
        self.args = args


async def off_the_loop(interaction: discord.Interaction, work_fn: Callable[..., Any], *args: Any,
                       then: Callable[[Any], T] | None = None) -> T:
    """Run `work_fn` (an engine call, a render, an export) in the work pool, keeping the event loop
    free: the work lane, where each server and member waits its fair turn, or for a cheap command
    the quick lane (cogs/common/work.py). The command defers ("thinking...", ephemeral when its
    answer will be) only when its answer cannot come by :data:`DEFER_AFTER` seconds after the
    interaction's arrival: at once when the work is expected to end later (the queue ahead of it in
    seconds, from the recent service times of each kind of work: ``FairLane.expected_wait``), else
    when that moment passes with the work not done (the safety net). A command whose work ends in
    time answers with one request, not a defer and a follow-up.
    The caller's context (the interaction being served, for its dice) goes with the work.
    `then(result)` runs after it in the same thread (its words and :func:`keep`: one round trip
    for the whole command). While ``/odds`` prices the command (:data:`pricing`), the work (not
    `then`) is handed back unrun."""
    if pricing.get():
        raise Priced(work_fn, args)
    kind = work.kind_of(work_fn)  # its service time is that code's (cogs/common/work.py)
    work_fn = render_pool.elsewhere(work_fn)  # a picture: drawn in a worker process when the bot runs them
    global _queued
    deadline = defer_by(interaction)
    _queued += 1
    try:
        job = work_fn if then is None else (lambda *a: then(work_fn(*a)))
        queued = work.lane_for(interaction).enqueue(interaction, job, *args, kind=kind)
        return await work.in_time(interaction, queued.future, expected=queued.expected, defer=defer, deadline=deadline)
    finally:
        _queued -= 1


async def shot_answered(interaction: discord.Interaction, engine: Callable[[], Any], render: Callable[[Any], bytes] | None,
                        words: Callable[[Any, bytes | None], Reply], *,
                        after: Callable[[Any, Reply], None] | None = None) -> tuple[Any, Reply]:
    """A shot and its answer in one job of the work lane (issue 26: one round trip from the event
    loop for the whole shot, none to the store's threads; :func:`send_reply` then only sends): the
    shot (``engine()``), its picture (none for a misfire, nor without a `render`; drawn in a worker
    process when the bot runs them), its reply (``words(shot, image)``), `after(shot, reply)` (a
    roster machine's state after the shot: cogs/fantasy/fire.py), and what the reply keeps in the
    store (:func:`keep`). While /odds prices the command, the engine call is what it catches."""
    draw = None if render is None else render_pool.elsewhere(render)

    def finish(shot: Any) -> tuple[Any, Reply]:
        image = None if draw is None or getattr(shot, "misfire", None) is not None else draw(shot)
        reply = words(shot, image)
        if after is not None:
            after(shot, reply)
        return shot, keep(interaction, reply)

    return await off_the_loop(interaction, engine, then=finish)


async def stored(interaction: discord.Interaction | None, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """A store call off the event loop (a thread of the store's: never behind the engine's work),
    for `interaction` (by default the one this task serves): if it has not answered by
    :data:`DEFER_AFTER` seconds after the interaction's arrival, the command defers, so a store
    that is slow or away (its calls give up after about 2 s) still gets the interaction its first
    response inside Discord's 3 seconds."""
    if interaction is None:
        interaction = serving.get()
    context = copy_context()  # as asyncio.to_thread does, without its task
    future = asyncio.get_running_loop().run_in_executor(None, functools.partial(context.run, call, *args, **kwargs))
    if interaction is None or not hasattr(interaction, "response"):
        return await future
    try:
        return await work.in_time(interaction, future, defer=defer, deadline=defer_by(interaction))
    except BaseException:
        future.cancel()
        raise


KEPT_KEY = "bombardier.kept"
"""``interaction.extras`` key: the reply whose store work :func:`keep` has done, its buttons, and
its glance (:meth:`Reply.glance`, put together there too: off the event loop)."""


def keep(interaction: discord.Interaction, reply: Reply) -> Reply:
    """Everything a reply keeps in the store, in the calling thread (never the event loop's): its
    roll log entry, with the state it changes (cogs/common/ledger.py), or that change alone when it
    drew no dice, then its buttons' action (cogs/common/buttons.py). :func:`send_reply` runs it in
    one round trip to a thread; a command whose work already runs in one may end it with
    ``keep(interaction, reply)``, and send_reply then only sends. Raises as the store refuses the
    change (nothing logged); buttons that cannot be kept are left off. The glance the reply is sent
    with is put together here too, after the state the reply keeps has added its lines."""
    reply = from_list.annotate(interaction, reply)  # a target: from an army list says what it filled (once)
    if ledger.record_now(interaction, reply) is None and reply.commit_with_log:
        ledger.commit_state(reply)  # no dice drawn: the change alone
    keep_buttons = getattr(interaction.client, "keep_buttons", None)
    buttons = keep_buttons(interaction, reply) if keep_buttons is not None else None
    interaction.extras[KEPT_KEY] = (reply, buttons, reply.glance())  # the glance after the kept state's lines
    return reply


async def send_reply(interaction: discord.Interaction, reply: Reply) -> None:
    """Send a command's answer: its glance, with the picture attached and shown in it, and the
    buttons the reply offers ("Details" among them) (when the buttons extension is loaded). What it
    keeps (its roll log entry, the state it changes, its buttons) is kept first, in one round trip
    to a thread (:func:`keep`, unless the command's work did it), and a private one
    (``private:true``) is answered only to its user."""
    reply = from_list.annotate(interaction, reply)  # as keep() does: the same reply kept and sent
    interaction.extras[REPLY_KEY] = reply
    kept = interaction.extras.get(KEPT_KEY)
    if kept is None or kept[0] is not reply:
        try:
            await stored(interaction, keep, interaction, reply)
        except BaseException:  # the change was refused (a shot raced another): no answer, nothing logged
            interaction.extras.pop(REPLY_KEY, None)
            raise
        kept = interaction.extras[KEPT_KEY]
    extra: dict[str, Any] = {}
    if reply.private or ledger.is_private(interaction):
        extra["ephemeral"] = True
    button_view = getattr(interaction.client, "button_view", None)
    if kept[1] is not None and button_view is not None:
        extra["view"] = button_view(*kept[1])
    files = [discord.File(io.BytesIO(data), filename=name) for name, data in reply.attachments]
    if reply.image is not None:
        files.insert(0, discord.File(io.BytesIO(reply.image), filename=reply.filename))
        if (glance_png := glance_of(reply.image)) is not None:  # the embed's landscape picture (Reply.glance)
            files.insert(0, discord.File(io.BytesIO(glance_png), filename=glance_name(reply.filename)))
    glance = kept[2]
    try:
        if not files:
            await _send(interaction, embed=glance, **extra)
        elif len(files) == 1:
            await _send(interaction, embed=glance, file=files[0], **extra)
        else:
            await _send(interaction, embed=glance, files=files, **extra)
    except BaseException:
        await ledger.mark_undelivered(interaction)  # logged, but nobody saw it: the log says so
        raise


def short_error(message: str, values: tuple[str, ...] = ()) -> str:
    """An error fit to show: every quoted run (``'...'`` or ``"..."``) and every typed option
    value in `values` longer than about :data:`QUOTE_LIMIT` characters cut to that, control
    characters made visible, and the whole kept to one short paragraph."""
    for value in sorted((v for v in values if len(v) > QUOTE_LIMIT), key=len, reverse=True):
        message = message.replace(value, quote(value))
    message = re.sub(r"'([^'\n]{%d,})'" % (QUOTE_LIMIT + 1), lambda m: f"'{quote(m[1])}'", message)
    message = re.sub(r'"([^"\n]{%d,})"' % (QUOTE_LIMIT + 1), lambda m: f'"{quote(m[1])}"', message)
    message = "".join(c if c.isprintable() or c in "\n\u200b" else "\ufffd" for c in message)  # \u200b: an escaped mention
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
        await _send(interaction, content=message, ephemeral=True)  # after a public defer: _send deletes it first
    except discord.HTTPException:
        log.warning("could not deliver an error message to interaction %s", interaction.id, exc_info=True)


def _typed_values(interaction: discord.Interaction) -> list[str]:
    return [v for v in command_options(interaction).values() if isinstance(v, str)]


def _deferred_publicly(interaction: discord.Interaction) -> bool:
    """The interaction was answered with a public "thinking..." (a deferred command that is not
    private); Discord would show its first follow-up publicly whatever its flags."""
    if interaction.extras.get(_FOLLOWED_KEY):
        return False
    how = interaction.extras.get(DEFERRED_KEY)
    if how is not None:  # deferred here: as it was then, whatever the answer turned out to be
        return not how["ephemeral"]
    response = getattr(interaction.response, "type", None)
    deferred = response == discord.InteractionResponseType.deferred_channel_message
    return deferred and not defers_privately(interaction)


_FOLLOWED_KEY = "bombardier.followed_up"
