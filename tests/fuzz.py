"""The fuzz of every command and option (issue 19, part 5), shared by the test
(tests/console/test_fuzz_every_command.py, a CI-sized and derandomized run) and the larger run
(``make fuzz``, benchmarks/bench_fuzz.py).

Each example is what Discord could send for one command: a choice for an option with choices, a
number within an option's bounds, and for typed free text (autocompleted options included, since
Discord does not check those) anything a player can type, up to Discord's 6,000 characters:
printable text, control characters, markdown, mentions, huge and non-ASCII numbers, and long
runs of list syntax. The command runs through the reply path (``call_command``, the tree's one
error handler, ``send_reply`` / ``send_error``) as the console runs it, and what it sent is
checked against Discord's limits (tests/discord_limits.py, which the e2e stand-in enforces).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import AppCommandOptionType, app_commands
from hypothesis import strategies as st

from cogs.common.dice_source import call_command
from cogs.common.replies import ERROR_KEY, ERROR_LIMIT, FAILURE_KEY, REPLY_KEY
from console.offline import OfflineInteraction
from tests import discord_limits as limits

STRING_LIMIT = 6000
"""The longest value Discord sends for a string option."""

QUOTED = 121
"""An error may quote about 100 characters of what was typed; a run this long is too much."""

_NASTY = [
    "", " ", "0", "-0", "1e309", "inf", "NaN", "²", "³²¹", "٣", "１２", "½", "9" * 309, "9" * 4301, "-" + "9" * 400,
    "**bold** __under__ ~~gone~~ `code` ||spoiler||", "<@123456789012345678>", "<@&123456789012345678>", "@everyone",
    "@here", "<#123456789012345678>", "\x00", "\x1b[31m", "\u202e", "\ufeff", "a\nb\r\nc\t", "'", '"', "\\", ";;;;",
    "friend line 2 @ 0,9", "enemy column 12 @ -60,-20 engaged", "friend line 2 @ " + "9" * 309 + ",1",
    "0,1 4,1 2,3", "H 4 8", "@90 M 4", "3d6+2", "1000d1000", "d6k²", "13 11 10", "1 2.5 4",
]
_REPEATED = ["x", "9", "²", "**a** ", "<@1> ", "@everyone ", "friend line 2 @ 4,12; ", "0,1 ", "H ", "1 ", "\x00", "é"]


def typed_text(max_size: int = STRING_LIMIT) -> st.SearchStrategy[str]:
    """Anything a player can type into a free-text option."""
    return st.one_of(
        st.sampled_from(_NASTY),
        st.text(max_size=60),
        st.text(st.characters(min_codepoint=0, max_codepoint=0x7F), max_size=200),
        st.builds(lambda s, n: (s * n)[:max_size], st.sampled_from(_REPEATED), st.integers(1, max_size)),
        st.builds(lambda a, b: a + b, st.sampled_from(_NASTY), st.text(max_size=30)),
    )


def option_strategy(param: app_commands.Parameter) -> st.SearchStrategy[Any] | None:
    """What Discord could send for `param`; None for a type the fuzz leaves out (attachments)."""
    if param.choices:
        return st.sampled_from([c.value for c in param.choices])
    kind = param.type
    if kind is AppCommandOptionType.string:
        low, high = param.min_value or 0, min(param.max_value or STRING_LIMIT, STRING_LIMIT)
        return typed_text(high).map(lambda s: (s + "x" * low)[:high] if len(s) < low else s[:high])
    if kind is AppCommandOptionType.integer:
        low = int(param.min_value) if param.min_value is not None else -(2**53)
        high = int(param.max_value) if param.max_value is not None else 2**53
        return st.one_of(st.sampled_from([low, high]), st.integers(low, high))
    if kind is AppCommandOptionType.number:
        low = float(param.min_value) if param.min_value is not None else -1e300
        high = float(param.max_value) if param.max_value is not None else 1e300
        return st.one_of(st.sampled_from([low, high]), st.floats(low, high, allow_nan=False, allow_infinity=False))
    if kind is AppCommandOptionType.boolean:
        return st.booleans()
    if kind in (AppCommandOptionType.user, AppCommandOptionType.role, AppCommandOptionType.mentionable,
                AppCommandOptionType.channel):
        return st.integers(1, 2**63 - 1).map(lambda i: discord.Object(id=i))
    if kind is AppCommandOptionType.attachment:  # a file a member sends: any bytes, or a roster's start
        head = st.sampled_from([b"", b"<roster>", b'{"roster": ', b"PK\x03\x04", b"<?xml version='1.0'?><!DOCTYPE r ["])
        return st.tuples(head, st.binary(max_size=400)).map(lambda parts: BytesAttachment(parts[0] + parts[1]))
    return None


class BytesAttachment:
    """An attachment option's value as a command reads it (discord.Attachment's size and read())."""

    def __init__(self, data: bytes, filename: str = "list.ros") -> None:
        self.data, self.filename, self.size = data, filename, len(data)

    async def read(self) -> bytes:
        return self.data

    def __repr__(self) -> str:
        return f"BytesAttachment({self.data[:40]!r}, {self.size} bytes)"


def options_strategy(command: app_commands.Command) -> st.SearchStrategy[dict[str, Any]]:
    """Every required option and any of the optional ones, by parameter name."""
    required, optional = {}, {}
    for p in command.parameters:
        s = option_strategy(p)
        if s is None:
            continue
        (required if p.required else optional)[p.name] = s
    return st.fixed_dictionaries(required, optional=optional)


def every_command(tree: app_commands.CommandTree) -> list[app_commands.Command]:
    return sorted((c for c in tree.walk_commands() if isinstance(c, app_commands.Command)), key=lambda c: c.qualified_name)


@dataclass
class Outcome:
    """What one example did."""

    kind: str
    """``reply``, ``error`` (one sentence to the user) or ``apology`` (our fault)."""
    problems: list[str] = field(default_factory=list)
    """Why Discord would refuse what was sent, or why the answer is not one clear sentence."""
    logged: list[str] = field(default_factory=list)


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


def sent_messages(interaction: OfflineInteraction) -> list[tuple[dict[str, Any], dict[str, bytes]]]:
    """What the command sent, as Discord would receive each message."""
    out = []
    for m in interaction.sent:
        files = [m["file"]] if m.get("file") else list(m.get("files") or [])
        data: dict[str, Any] = {"content": m.get("content")}
        if m.get("embed") is not None:
            data["embeds"] = [m["embed"].to_dict()]
        if m.get("view") is not None:
            data["components"] = m["view"].to_components()
        blobs = {f.filename: f.fp.getvalue() if hasattr(f.fp, "getvalue") else b"" for f in files}
        data["attachments"] = [{"filename": n} for n in blobs]
        out.append((data, blobs))
    return out


def quoted_too_much(message: str, values: list[str]) -> bool:
    long = [v for v in values if len(v) >= QUOTED]
    return any(message[i:i + QUOTED] in v for v in long for i in range(0, max(0, len(message) - QUOTED) + 1))


async def run_one(bot: discord.Client, command: app_commands.Command, kwargs: dict[str, Any]) -> Outcome:
    """Run `command` with `kwargs` as the console does and judge what it sent."""
    interaction = OfflineInteraction(bot, command)
    interaction.namespace = tuple((p.display_name, kwargs[p.name]) for p in command.parameters if p.name in kwargs)
    capture = _Capture()
    root = logging.getLogger()
    root.addHandler(capture)
    try:
        await call_command(command, interaction, kwargs)
    finally:
        root.removeHandler(capture)
    extras = interaction.extras
    if FAILURE_KEY in extras:
        return Outcome("apology", [f"the apology for {kwargs!r}"], capture.lines)
    problems = []
    messages = sent_messages(interaction)
    if len(messages) != 1:
        problems.append(f"{len(messages)} messages sent, not one")
    for data, files in messages:
        problems += [str(r) for r in limits.message_problems(data, files)]
    if ERROR_KEY in extras:
        message = extras[ERROR_KEY]
        if not message or len(message) > ERROR_LIMIT:
            problems.append(f"an error of {len(message)} characters")
        if quoted_too_much(message, [v for v in kwargs.values() if isinstance(v, str)]):
            problems.append(f"the error quotes more than {QUOTED - 1} characters of the input: {message[:200]!r}")
        return Outcome("error", problems, capture.lines)
    if REPLY_KEY not in extras:
        problems.append("neither a reply nor an error")
    return Outcome("reply", problems, capture.lines)
