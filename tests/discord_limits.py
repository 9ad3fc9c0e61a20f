"""What Discord refuses, in one place: the e2e stand-in answers with it, and the cog, console and
fuzz tests check replies against it.

Each check takes the JSON Discord would receive and returns the :class:`Refusal` list (empty when
Discord would accept it); :func:`error_body` turns refusals into Discord's own error answer
(HTTP 400, code 50035, "Invalid Form Body", the failing field's path under ``errors``).

The numbers are Discord's documented limits (developer docs: Message, Embed limits, Message
Components, Application Commands, Receiving and Responding):

- a message: content 2,000 characters; up to 10 embeds, and their titles, descriptions, field
  names and values, footers and authors together at most 6,000; up to 10 attachments, together
  within the upload size limit; up to 5 action rows of up to 5 buttons (custom_id 100, label 80),
  a select menu alone in its row with up to 25 options;
- an embed: title 256, description 4,096, up to 25 fields, field name 256 and value 1,024 (and
  neither empty), footer 2,048, author name 256;
- autocomplete: up to 25 choices, each name 1-100 and a string value at most 100;
- a modal: title 1-45, custom_id 1-100, 1-5 rows of one text input each (label 1-45, custom_id
  1-100, placeholder 100, value and lengths up to 4,000);
- a command: up to 100 top-level commands; names 1-32 lowercase letters, digits, ``-`` and ``_``;
  descriptions 1-100; up to 25 options and 25 choices (name 1-100, string value 100); required
  options before optional ones; and at most 4,000 characters per top-level command, counting every
  name, description and choice name and value of its whole tree (:func:`command_size`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

CONTENT = 2000
EMBEDS = 10
EMBED_TOTAL = 6000
TITLE = 256
DESCRIPTION = 4096
FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
ATTACHMENTS = 10
UPLOAD_LIMIT = 25 * 1024 * 1024
"""Bytes a message's files may hold together without a boosted server or Nitro."""
ACTION_ROWS = 5
ROW_BUTTONS = 5
CUSTOM_ID = 100
LABEL = 80
SELECT_OPTIONS = 25
CHOICES = 25
CHOICE_TEXT = 100
MODAL_TITLE = 45
MODAL_ROWS = 5
INPUT_LABEL = 45
INPUT_PLACEHOLDER = 100
INPUT_VALUE = 4000
COMMANDS = 100
OPTIONS = 25
COMMAND_DESCRIPTION = 100
COMMAND_SIZE = 4000
HEADROOM = 3000
"""The project's own ceiling per top-level command: a quarter under Discord's 4,000, so an option
can be added without breaking the sync (issue 18)."""
NAME = re.compile(r"^[-_\w]{1,32}$")
"""Discord's pattern for a command or option name (chat-input names must also be lowercase)."""

SUBCOMMAND, GROUP = 1, 2
BUTTON, SELECT, TEXT_INPUT = 2, 3, 4
SELECTS = (3, 5, 6, 7, 8)


@dataclass(frozen=True, slots=True)
class Refusal:
    """One reason Discord would refuse a request."""

    path: tuple[str | int, ...]
    """The failing field, as Discord's ``errors`` nests it: ``("embeds", 0, "description")``."""
    code: str
    """Discord's error code for it: ``BASE_TYPE_MAX_LENGTH``, ``MAX_EMBED_SIZE_EXCEEDED``..."""
    message: str

    def __str__(self) -> str:
        return f"{'.'.join(map(str, self.path)) or '(body)'}: {self.message}"


class Refused(AssertionError):
    """Raised by :func:`assert_accepted`: Discord would refuse this."""


def _long(path: tuple, text: Any, limit: int, *, least: int = 0) -> list[Refusal]:
    if text is None:
        return [] if least == 0 else [Refusal(path, "BASE_TYPE_REQUIRED", "This field is required")]
    n = len(str(text))
    if n > limit:
        return [Refusal(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length (is {n}).")]
    if n < least:
        return [Refusal(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {least} and {limit} in length.")]
    return []


def _many(path: tuple, items: Iterable | None, limit: int) -> list[Refusal]:
    n = len(list(items or ()))
    return [Refusal(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length (has {n}).")] if n > limit else []


# -- messages -------------------------------------------------------------------------------
def embed_size(embed: dict[str, Any]) -> int:
    """The characters Discord counts towards the 6,000 of a message's embeds."""
    size = len(embed.get("title") or "") + len(embed.get("description") or "")
    size += sum(len(f.get("name") or "") + len(f.get("value") or "") for f in embed.get("fields") or ())
    size += len((embed.get("footer") or {}).get("text") or "") + len((embed.get("author") or {}).get("name") or "")
    return size


def embed_problems(embed: dict[str, Any], path: tuple = ()) -> list[Refusal]:
    out = _long(path + ("title",), embed.get("title"), TITLE)
    out += _long(path + ("description",), embed.get("description"), DESCRIPTION)
    fields = embed.get("fields") or []
    out += _many(path + ("fields",), fields, FIELDS)
    for i, f in enumerate(fields):
        out += _long(path + ("fields", i, "name"), f.get("name"), FIELD_NAME, least=1)
        out += _long(path + ("fields", i, "value"), f.get("value"), FIELD_VALUE, least=1)
    if embed.get("footer"):
        out += _long(path + ("footer", "text"), embed["footer"].get("text"), FOOTER)
    if embed.get("author"):
        out += _long(path + ("author", "name"), embed["author"].get("name"), AUTHOR)
    return out


def components_problems(rows: list[dict[str, Any]] | None, path: tuple = ("components",)) -> list[Refusal]:
    rows = rows or []
    out = _many(path, rows, ACTION_ROWS)
    for i, row in enumerate(rows):
        items = row.get("components") or []
        where = path + (i, "components")
        if not items:
            out.append(Refusal(where, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."))
        out += _many(where, items, ROW_BUTTONS)
        if any(c.get("type") in SELECTS for c in items) and len(items) > 1:
            out.append(Refusal(where, "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "A select menu must be alone in its row."))
        for j, c in enumerate(items):
            at = where + (j,)
            if c.get("type") == BUTTON:
                if c.get("style") != 5:  # a link button has a url instead
                    out += _long(at + ("custom_id",), c.get("custom_id"), CUSTOM_ID, least=1)
                out += _long(at + ("label",), c.get("label"), LABEL)
            elif c.get("type") in SELECTS:
                out += _long(at + ("custom_id",), c.get("custom_id"), CUSTOM_ID, least=1)
                out += _many(at + ("options",), c.get("options"), SELECT_OPTIONS)
                for k, o in enumerate(c.get("options") or []):
                    out += _long(at + ("options", k, "label"), o.get("label"), 100, least=1)
                    out += _long(at + ("options", k, "value"), o.get("value"), 100, least=1)
                    out += _long(at + ("options", k, "description"), o.get("description"), 100)
                out += _long(at + ("placeholder",), c.get("placeholder"), 150)
    return out


def message_problems(data: dict[str, Any] | None, files: dict[str, bytes] | None = None, *,
                     upload_limit: int = UPLOAD_LIMIT, path: tuple = ()) -> list[Refusal]:
    """A message Discord would post: content, embeds, components and the files sent with it."""
    data = data or {}
    out = _long(path + ("content",), data.get("content"), CONTENT)
    embeds = data.get("embeds") or []
    out += _many(path + ("embeds",), embeds, EMBEDS)
    for i, e in enumerate(embeds):
        out += embed_problems(e, path + ("embeds", i))
    total = sum(embed_size(e) for e in embeds)
    if total > EMBED_TOTAL:
        out.append(Refusal(path + ("embeds",), "MAX_EMBED_SIZE_EXCEEDED",
                           f"Embed size exceeds maximum size of {EMBED_TOTAL} (is {total})."))
    out += components_problems(data.get("components"), path + ("components",))
    attached = list(data.get("attachments") or []) or [{"filename": n} for n in (files or {})]
    out += _many(path + ("attachments",), attached, ATTACHMENTS)
    size = sum(len(b) for b in (files or {}).values())
    if size > upload_limit:
        out.append(Refusal(path + ("files",), "FILE_UPLOAD_TOO_LARGE",
                           f"Request entity too large: {size} bytes of files, the limit is {upload_limit}."))
    return out


# -- interaction callbacks: messages, autocomplete, modals --------------------------------
def autocomplete_problems(choices: list[dict[str, Any]] | None, path: tuple = ("choices",)) -> list[Refusal]:
    choices = choices or []
    out = _many(path, choices, CHOICES)
    for i, c in enumerate(choices):
        out += _long(path + (i, "name"), c.get("name"), CHOICE_TEXT, least=1)
        if isinstance(c.get("value"), str):
            out += _long(path + (i, "value"), c["value"], CHOICE_TEXT)
    return out


def modal_problems(data: dict[str, Any] | None, path: tuple = ()) -> list[Refusal]:
    data = data or {}
    out = _long(path + ("title",), data.get("title"), MODAL_TITLE, least=1)
    out += _long(path + ("custom_id",), data.get("custom_id"), CUSTOM_ID, least=1)
    rows = data.get("components") or []
    if not 1 <= len(rows) <= MODAL_ROWS:
        out.append(Refusal(path + ("components",), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MODAL_ROWS} in length."))
    for i, row in enumerate(rows):
        items = row.get("components") or []
        if len(items) != 1:
            out.append(Refusal(path + ("components", i, "components"), "BASE_TYPE_BAD_LENGTH", "Must be 1 in length."))
        for j, c in enumerate(items):
            at = path + ("components", i, "components", j)
            out += _long(at + ("custom_id",), c.get("custom_id"), CUSTOM_ID, least=1)
            if c.get("type") == TEXT_INPUT:
                out += _long(at + ("label",), c.get("label"), INPUT_LABEL, least=1)
                out += _long(at + ("placeholder",), c.get("placeholder"), INPUT_PLACEHOLDER)
                out += _long(at + ("value",), c.get("value"), INPUT_VALUE)
                for bound in ("min_length", "max_length"):
                    if c.get(bound) is not None and not 0 <= c[bound] <= INPUT_VALUE:
                        out.append(Refusal(at + (bound,), "NUMBER_TYPE_MAX", f"Must be between 0 and {INPUT_VALUE}."))
    return out


def callback_problems(body: dict[str, Any] | None, files: dict[str, bytes] | None = None, *,
                      upload_limit: int = UPLOAD_LIMIT) -> list[Refusal]:
    """An interaction callback: a message (types 4 and 7), autocomplete choices (8) or a modal (9)."""
    body = body or {}
    kind, data = body.get("type"), body.get("data")
    if kind in (4, 7):
        return message_problems(data, files, upload_limit=upload_limit, path=("data",))
    if kind == 8:
        return autocomplete_problems((data or {}).get("choices"), ("data", "choices"))
    if kind == 9:
        return modal_problems(data, ("data",))
    return []


# -- command schemas ----------------------------------------------------------------------
def command_size(command: dict[str, Any]) -> int:
    """The characters Discord counts towards a top-level command's 4,000: every name and
    description, and every choice's name and value, through the whole tree of subcommands."""
    def size(o: dict[str, Any]) -> int:
        n = len(o.get("name") or "") + len(o.get("description") or "")
        n += sum(len(str(c["name"])) + len(str(c["value"])) for c in o.get("choices") or ())
        return n + sum(size(sub) for sub in o.get("options") or ())
    return size(command)


def _option_problems(options: list[dict[str, Any]], path: tuple, depth: int) -> list[Refusal]:
    out = _many(path, options, OPTIONS)
    names = [o.get("name") for o in options]
    if len(set(names)) != len(names):
        out.append(Refusal(path, "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option names must be unique."))
    leaves = [o for o in options if o.get("type") not in (SUBCOMMAND, GROUP)]
    required = [bool(o.get("required")) for o in leaves]
    if required != sorted(required, reverse=True):
        out.append(Refusal(path, "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "Required options must be placed before non-required options."))
    if leaves and len(leaves) != len(options):
        out.append(Refusal(path, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Subcommands cannot sit beside options."))
    for i, o in enumerate(options):
        at = path + (i,)
        out += _name_problems(at, o)
        out += _long(at + ("description",), o.get("description"), COMMAND_DESCRIPTION, least=1)
        choices = o.get("choices") or []
        out += _many(at + ("choices",), choices, CHOICES)
        for j, c in enumerate(choices):
            out += _long(at + ("choices", j, "name"), c.get("name"), CHOICE_TEXT, least=1)
            if isinstance(c.get("value"), str):
                out += _long(at + ("choices", j, "value"), c["value"], CHOICE_TEXT)
        if choices and o.get("autocomplete"):
            out.append(Refusal(at + ("autocomplete",), "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_CHOICES", "Autocomplete cannot be set with choices."))
        if o.get("type") in (SUBCOMMAND, GROUP):
            if o.get("type") == GROUP and depth > 0 or o.get("type") == SUBCOMMAND and depth > 1:
                out.append(Refusal(at, "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Subcommands nest at most a group deep."))
            out += _option_problems(o.get("options") or [], at + ("options",), depth + 1)
    return out


def _name_problems(path: tuple, o: dict[str, Any]) -> list[Refusal]:
    name = o.get("name") or ""
    if not NAME.match(name) or name != name.lower():
        return [Refusal(path + ("name",), "APPLICATION_COMMAND_INVALID_NAME", f"Command name '{name}' is invalid.")]
    return []


def command_problems(command: dict[str, Any], path: tuple = ()) -> list[Refusal]:
    """One top-level command as the bot syncs it."""
    out = _name_problems(path, command)
    if command.get("type", 1) == 1:
        out += _long(path + ("description",), command.get("description"), COMMAND_DESCRIPTION, least=1)
    out += _option_problems(command.get("options") or [], path + ("options",), 0)
    size = command_size(command)
    if size > COMMAND_SIZE:
        out.append(Refusal(path, "APPLICATION_COMMAND_TOO_LARGE",
                           f"Command exceeds maximum size ({COMMAND_SIZE}): /{command.get('name')} is {size}."))
    return out


def commands_problems(commands: list[dict[str, Any]]) -> list[Refusal]:
    """The whole list a bulk overwrite (PUT .../commands) sends."""
    out = _many((), commands, COMMANDS)
    for i, c in enumerate(commands):
        out += command_problems(c, (i,))
    return out


# -- Discord's answer ---------------------------------------------------------------------
def error_body(refusals: list[Refusal]) -> dict[str, Any]:
    """Discord's 400 answer: ``{"code": 50035, "message": "Invalid Form Body", "errors": {...}}``
    with each refusal nested under its field's path."""
    errors: dict[str, Any] = {}
    for r in refusals:
        node = errors
        for key in r.path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": r.code, "message": r.message})
    return {"code": 50035, "message": "Invalid Form Body", "errors": errors}


def assert_accepted(refusals: list[Refusal], what: str = "this") -> None:
    """Fail a test with every reason Discord would refuse `what`."""
    if refusals:
        raise Refused(f"Discord would refuse {what}: " + "; ".join(map(str, refusals)))


def reply_message(reply: Any, *, with_details: bool = False) -> list[tuple[dict[str, Any], dict[str, bytes]]]:
    """The message(s) a command's :class:`~cogs.common.replies.Reply` becomes, as Discord
    receives them: the glance (its embed, picture and attachments) and, with `with_details`, the
    private details message a "Details" press sends."""
    files = {name: data for name, data in getattr(reply, "attachments", ())}
    if reply.image is not None:
        files = {reply.filename: reply.image, **files}
    out = [({"embeds": [reply.embed.to_dict()], "attachments": [{"filename": n} for n in files]}, files)]
    details = getattr(reply, "details", None)
    if with_details and details:
        out.append(({"embeds": [e.to_dict() for e in details]}, {}))
    return out


def reply_problems(reply: Any, *, with_details: bool = True) -> list[Refusal]:
    """Everything Discord would refuse in a reply and its details."""
    out: list[Refusal] = []
    for data, files in reply_message(reply, with_details=with_details):
        out += message_problems(data, files)
    return out
