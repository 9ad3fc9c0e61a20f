"""The offline console: the bot's slash commands without Discord.

It walks the same ``app_commands`` tree the bot registers with Discord, checks options the way
Discord does (types, choices, bounds, required), calls the same callbacks with a stand-in
interaction, and prints what Discord would show: the embed as text and the picture as a PNG file.
``--json`` prints one object per command (DESIGN.md); errors print ``{"error": ...}`` and exit 2.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import logging
import re
import sys
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from cogs.common.command_line import (  # noqa: F401  (the console's names for them, kept for callers)
    CommandLineError as ConsoleError, commands as _commands, find_command, parse_options,
    split_line,
)
from cogs.common.dice_source import call_command
from cogs.common.replies import APOLOGY, ERROR_KEY, FAILURE_KEY, REPLY_KEY, Reply
from cogs.common.replies import glance_of

log = logging.getLogger(__name__)

USER_ERROR = 2
OUR_FAULT = 1


class _Response:
    def __init__(self, sent: list[dict[str, Any]]) -> None:
        self._sent = sent
        self._done = False

    def is_done(self) -> bool:
        return self._done

    async def send_message(self, content: str | None = None, **kwargs: Any) -> None:
        self._done = True
        self._sent.append({"content": content, **kwargs})

    async def defer(self, **kwargs: Any) -> None:
        self._done = True


class _Followup:
    def __init__(self, sent: list[dict[str, Any]]) -> None:
        self._sent = sent

    async def send(self, content: str | None = None, **kwargs: Any) -> None:
        self._sent.append({"content": content, **kwargs})


OFFLINE_USER_ID = 100
OFFLINE_GUILD_ID = 200
OFFLINE_CHANNEL_ID = 300
"""The console's stable identity: one user, in one server and one channel, with every permission
(a server manager), so a console user can run a whole campaign on their own; the store keeps it
between runs (docs/architecture.md, "The offline identity")."""


class OfflineUser:
    """The console's user: a server member with no roles."""

    def __init__(self, user_id: int, roles: tuple[int, ...] = ()) -> None:
        self.id = user_id
        self.name = self.display_name = "console" if user_id == OFFLINE_USER_ID else f"user {user_id}"
        self.mention = f"<@{user_id}>"
        self.roles = [discord.Object(id=r) for r in roles]


class OfflineChannel:
    """The console's channel: its id and the name a report gives it (Discord's channel has both)."""

    def __init__(self, channel_id: int) -> None:
        self.id = channel_id
        self.name = "console"


class OfflineInteraction:
    """What a command callback sees of an interaction, for one console command. By default the
    offline identity; tests pass another user, server, channel, roles or permissions."""

    _ids = itertools.count(1)

    def __init__(self, client: discord.Client, command: app_commands.Command, *, user_id: int = OFFLINE_USER_ID,
                 guild_id: int | None = OFFLINE_GUILD_ID, channel_id: int = OFFLINE_CHANNEL_ID,
                 roles: tuple[int, ...] = (), permissions: discord.Permissions | None = None) -> None:
        self.id = next(self._ids)
        self.client = client
        self.command = command
        self.user = OfflineUser(user_id, roles)
        self.guild = None if guild_id is None else discord.Object(id=guild_id)
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.channel = OfflineChannel(channel_id)
        self.permissions = discord.Permissions.all() if permissions is None else permissions
        self.extras: dict[str, Any] = {}
        self.namespace: tuple[tuple[str, Any], ...] = ()
        self.sent: list[dict[str, Any]] = []
        self.response = _Response(self.sent)
        self.followup = _Followup(self.sent)


class PathAttachment:
    """An attachment option typed in the console: a path to a file on this machine, read when the
    command reads it (``/army import file:lists/host.rosz``), like a Discord attachment's bytes."""

    def __init__(self, path: str) -> None:
        self.path = Path(path).expanduser()
        self.filename = self.path.name
        self.url = self.path.as_uri() if self.path.is_absolute() else str(self.path)
        self.content_type = None
        try:
            self.size = self.path.stat().st_size
        except OSError:
            raise ConsoleError(f"file: cannot read '{path}': give the path of a file on this machine.") from None
        if not self.path.is_file():
            raise ConsoleError(f"file: '{path}' is not a file.")

    async def read(self) -> bytes:
        return await asyncio.to_thread(self.path.read_bytes)


async def invoke(bot: discord.Client, line: str, **who: Any) -> OfflineInteraction:
    """Run one command line through the tree as Discord would; the interaction holds the reply.
    `who` overrides the offline identity (see :class:`OfflineInteraction`)."""
    command, rest = find_command(bot.tree, split_line(line))
    kwargs = parse_options(command, rest)
    for p in command.parameters:  # an attachment is a path in the console
        if p.type is discord.AppCommandOptionType.attachment and p.name in kwargs:
            kwargs[p.name] = PathAttachment(kwargs[p.name])
    interaction = OfflineInteraction(bot, command, **who)
    interaction.namespace = tuple((p.display_name, kwargs[p.name]) for p in command.parameters if p.name in kwargs)
    await call_command(command, interaction, kwargs)
    return interaction


def _plain(text: str) -> str:
    return re.sub(r"\*\*|`", "", text)


def embed_text(embed: discord.Embed) -> str:
    lines = [_plain(embed.title or "")]
    if embed.description:
        lines.append(_plain(embed.description))
    for f in embed.fields:
        lines += ["", f"{f.name}:"] + [f"  {_plain(v)}" for v in f.value.splitlines()]
    if embed.footer and embed.footer.text:
        lines += ["", embed.footer.text]
    return "\n".join(lines)


def save_picture(reply: Reply, folder: Path) -> str | None:
    if reply.image is None:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    stem = Path(reply.filename).stem
    path = folder / f"{stem}-{hashlib.sha256(reply.image).hexdigest()[:10]}.png"
    if not path.exists():
        path.write_bytes(reply.image)
    return str(path)


def save_glance(reply: Reply, folder: Path) -> str | None:
    """The glance picture the channel's embed shows (a portrait picture's landscape top), beside
    the full picture; None when the picture is its own glance."""
    glance = glance_of(reply.image)
    if glance is None:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{Path(reply.filename).stem}-glance-{hashlib.sha256(glance).hexdigest()[:10]}.png"
    if not path.exists():
        path.write_bytes(glance)
    return str(path)


def save_attachments(reply: Reply, folder: Path) -> list[str]:
    """The reply's further files (reports, exports), written under `folder` with the names Discord
    would show (a reply's text may name them, e.g. ``bot.py verify battle-1-2-rolls.json``), each in
    a subfolder named by its content's hash so no earlier file is overwritten; their paths."""
    paths = []
    for name, data in reply.attachments:
        path = folder / hashlib.sha256(data).hexdigest()[:10] / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        paths.append(str(path))
    return paths


async def run_line(bot: discord.Client, line: str, *, as_json: bool, out=sys.stdout, details: bool = False,
                   **who: Any) -> int:
    """Run one command line and print its answer, the glance the channel would see (and with
    `details` the full breakdown "Details" shows); returns the exit code."""
    try:
        interaction = await invoke(bot, line, **who)
    except ConsoleError as e:
        return _fail(str(e), USER_ERROR, as_json, out)
    except Exception:  # a bug of ours: logged with its traceback, never shown
        log.exception("console line failed: %r", line)
        return _fail(APOLOGY, OUR_FAULT, as_json, out)
    if ERROR_KEY in interaction.extras:
        return _fail(interaction.extras[ERROR_KEY], USER_ERROR, as_json, out)
    if FAILURE_KEY in interaction.extras:
        return _fail(interaction.extras[FAILURE_KEY], OUR_FAULT, as_json, out)
    reply: Reply = interaction.extras[REPLY_KEY]
    path = save_picture(reply, bot.settings.data_dir / "console")
    glance = save_glance(reply, bot.settings.data_dir / "console")
    files = save_attachments(reply, bot.settings.data_dir / "console")
    if as_json:
        print(json.dumps({**reply.json(path), **({"glance_image": glance} if glance else {}),
                          **({"files": files} if files else {})}, ensure_ascii=False), file=out)
    else:
        print(embed_text(reply.glance()), file=out)
        if details and reply.has_details():
            print("\nDetails:\n" + embed_text(reply.details()), file=out)
        if glance:  # the channel's landscape glance; the full picture last, as ever (the console's contract)
            print(f"\nGlance picture (the embed shows it; the full picture is its thumbnail): {glance}", file=out)
        if path:
            print(("" if glance else "\n") + f"Picture: {path}", file=out)
        for f in files:
            print(f"File: {f}", file=out)
    return 0


def _fail(message: str, code: int, as_json: bool, out) -> int:
    print(json.dumps({"error": message}, ensure_ascii=False) if as_json else message, file=out)
    return code


def top_level_name(line: str) -> str | None:
    """``fire`` for ``/fire cannon distance:30``: the command whose cog a one-shot run loads."""
    words = line.strip().lstrip("/").split(maxsplit=1)
    return words[0].lower() if words else None


BANNER = (
    "Bombardier offline console. Type a slash command, e.g.\n"
    '  /fire cannon distance:30 ranks:4 files:5 dice:"H 4 8"\n'
    "'commands' lists them all; 'quit' leaves."
)


async def _session(bot, command: str | None, as_json: bool, details: bool = False) -> int:
    if command is not None:
        await bot.load_cogs(top_level_name(command))  # a one-shot command loads only its own cog
        return await run_line(bot, command, as_json=as_json, details=details)
    await bot.load_cogs()
    interactive = sys.stdin.isatty()
    if interactive:
        print(BANNER)
    while True:
        try:
            line = input("bombardier> " if interactive else "").strip()
        except (EOFError, KeyboardInterrupt):
            print()
            return 0
        if line in ("quit", "exit"):
            return 0
        if line in ("commands", "help"):
            for c in _commands(bot.tree):
                print(f"  /{c.qualified_name}: {c.description}")
            continue
        if line:
            await run_line(bot, line, as_json=as_json, details=details)


def run(bot, command: str | None, *, as_json: bool = False, details: bool = False) -> int:
    """``python bot.py play``: one command, or a prompt when none is given."""
    try:
        import readline  # noqa: F401  (line editing and history at the prompt)
    except ImportError:
        pass
    try:
        return asyncio.run(_session(bot, command, as_json, details))
    except KeyboardInterrupt:
        print()
        return 130
    except Exception:  # a bug of ours outside any one command (loading the cogs): logged, never shown
        log.exception("the console failed")
        return _fail(APOLOGY, OUR_FAULT, as_json, sys.stdout)


def _command_record(c: app_commands.Command) -> dict[str, Any]:
    options = []
    for p in c.parameters:
        offered = getattr(c._params[p.name].autocomplete, "offered", ())  # cogs/common/choices.py
        options.append({
            "name": p.display_name,
            "description": p.description,
            "type": p.type.name,
            "required": p.required,
            "choices": [{"name": ch.name, "value": ch.value} for ch in p.choices or offered],
            "min_value": p.min_value,
            "max_value": p.max_value,
            "autocomplete": p.autocomplete,
        })
    return {"name": c.qualified_name, "description": c.description, "options": options}


def command_tree(tree: app_commands.CommandTree) -> list[dict[str, Any]]:
    """Every command with its options, as ``commands --json`` prints them."""
    return [_command_record(c) for c in _commands(tree)]


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _bounds(o: dict[str, Any]) -> str:
    parts = []
    if o["min_value"] is not None or o["max_value"] is not None:
        lo = "" if o["min_value"] is None else f"{o['min_value']:g}"
        hi = "" if o["max_value"] is None else f"{o['max_value']:g}"
        parts.append(f"{lo}-{hi}" if o["type"] != "string" else f"{lo}-{hi} characters")
    if o["choices"]:
        parts.append(", ".join(
            f"`{ch['value']}`" if ch["name"] == str(ch["value"]) else f"`{ch['value']}` ({ch['name']})"
            for ch in o["choices"]))
    if o["autocomplete"]:
        parts.append("autocompleted")
    return _cell("; ".join(parts))


def _markdown_command(record: dict[str, Any], level: str) -> list[str]:
    lines = [f"{level} `/{record['name']}`", "", _cell(record["description"]), ""]
    if not record["options"]:
        return lines + ["No options.", ""]
    lines += ["| option | type | required | values | what it is |", "| --- | --- | --- | --- | --- |"]
    for o in record["options"]:
        lines.append(f"| `{o['name']}` | {o['type']} | {'yes' if o['required'] else 'no'} | {_bounds(o)} | {_cell(o['description'])} |")
    return lines + [""]


def command_markdown(tree: app_commands.CommandTree) -> str:
    """docs/commands.md: every top-level command or group (with its description), then each
    command with its options, from the same walk as ``commands --json``."""
    records = {r["name"]: r for r in command_tree(tree)}
    lines = [
        "# Command reference",
        "",
        "Every slash command with every option, as the bot registers them with Discord. This page is",
        "generated from the command tree by `python bot.py commands --markdown > docs/commands.md`;",
        "do not edit it by hand (`tests/console/test_commands_doc.py` fails when it is stale). What",
        "each command does is told in the game pages: [fantasy.md](fantasy.md),",
        "[warmaster.md](warmaster.md), [wh40k.md](wh40k.md), [dice.md](dice.md),",
        "[roll-log.md](roll-log.md), [campaigns.md](campaigns.md), [rules.md](rules.md),",
        "[privacy.md](privacy.md).",
        "",
    ]
    top = tree.get_commands()
    lines.append(" · ".join(f"[/{c.name}](#{c.name})" for c in top))
    lines.append("")
    for c in top:
        if isinstance(c, app_commands.Group):
            lines += [f"## `/{c.name}`", "", _cell(c.description), ""]
            for name, record in records.items():
                if name.startswith(c.name + " "):
                    lines += _markdown_command(record, "###")
        else:
            lines += _markdown_command(records[c.name], "##")
    return "\n".join(lines).rstrip("\n") + "\n"


def list_commands(bot, *, as_json: bool, as_markdown: bool = False) -> int:
    """``python bot.py commands`` (``--json``, ``--markdown``: docs/commands.md)."""
    try:
        asyncio.run(bot.load_cogs())
    except Exception:
        log.exception("loading the commands failed")
        return _fail(APOLOGY, OUR_FAULT, as_json, sys.stdout)
    if as_markdown:
        sys.stdout.write(command_markdown(bot.tree))
        return 0
    tree = command_tree(bot.tree)
    if as_json:
        print(json.dumps(tree, indent=2, ensure_ascii=False))
        return 0
    for c in tree:
        print(f"/{c['name']}: {c['description']}")
        for o in c["options"]:
            bounds = f" [{o['min_value']:g}-{o['max_value']:g}]" if o["min_value"] is not None else ""
            choices = f" ({', '.join(str(ch['value']) for ch in o['choices'])})" if o["choices"] else ""
            need = "required" if o["required"] else "optional"
            print(f"    {o['name']} ({o['type']}, {need}){bounds}{choices}: {o['description']}")
    return 0
