"""A command line as players type it (``/fire cannon distance:30 dice:"H 4 8"``), read against the
same app_commands tree the bot registers with Discord: the command named by the leading words, and
its ``name:value`` options checked as Discord would check them (choices, bounds, types).

The offline console reads every line through this, and so does ``/odds``, which prices the shot a
command line describes."""

from __future__ import annotations

import difflib
import re
import shlex
from typing import Any

from discord import AppCommandOptionType, app_commands

from cogs.common.choices import RETIRED
from engine.inputs import quote


class CommandLineError(Exception):
    """A command line that cannot be read: the message says what to write instead."""


def commands(tree: app_commands.CommandTree) -> list[app_commands.Command]:
    return [c for c in tree.walk_commands() if isinstance(c, app_commands.Command)]


def find_command(tree: app_commands.CommandTree, words: list[str]) -> tuple[app_commands.Command, list[str]]:
    """The command named by the leading words (``/fire cannon``) and the words left."""
    if not words:
        raise CommandLineError("Type a slash command, e.g. /fire cannon distance:30.")
    known = {c.qualified_name: c for c in commands(tree)}
    path: list[str] = []
    for i, word in enumerate(words):
        path.append(word.lstrip("/").lower() if i == 0 else word.lower())
        name = " ".join(path)
        if name in known:
            return known[name], words[i + 1 :]
        if not any(k.startswith(name + " ") for k in known):
            break
    typed = "/" + " ".join(path)
    under = sorted(k for k in known if k.startswith(" ".join(path) + " "))
    if under:
        subs = ", ".join(k.split(" ", len(path))[-1] for k in under)
        raise CommandLineError(f"{typed} needs one of: {subs} (e.g. /{under[0]} ...).")
    typed_words = " ".join(w.lstrip("/").lower() for w in words[: len(path) + 1])
    close = (difflib.get_close_matches(typed_words, list(known), n=3, cutoff=0.6)
             or difflib.get_close_matches(" ".join(path), list(known), n=3, cutoff=0.5) or nearest(typed_words, list(known)))
    hint = f" Did you mean {', '.join('/' + c for c in close)}?" if close else ""
    raise CommandLineError(f"There is no command {typed}.{hint} /help lists them all.")


def nearest(typed: str, names: list[str], n: int = 3) -> list[str]:
    """The `n` names nearest `typed` (by difflib's ratio, ties in name order): a suggestion even
    when none is close, never the whole list."""
    ratio = lambda name: difflib.SequenceMatcher(None, typed, name).ratio()  # noqa: E731
    return sorted(names, key=lambda name: (-ratio(name), name))[:n]


_WHOLE = re.compile(r"^[+-]?\d+$")
_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)$")
QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2018": "'", "\u2019": "'"})
"""Curly quotes (what phones type) read as straight ones."""


def _convert(command: app_commands.Command, param: app_commands.Parameter, raw: str) -> Any:
    where = f"{param.display_name}"
    if param.choices:
        for choice in param.choices:
            if raw.lower() in (str(choice.value).lower(), choice.name.lower()):
                return choice.value
        fits = ", ".join(str(c.value) for c in param.choices)
        close = difflib.get_close_matches(raw.lower(), [str(c.value) for c in param.choices], n=1, cutoff=0.6)
        hint = f" Did you mean {close[0]}?" if close else ""
        raise CommandLineError(f"{where}: '{raw}' is not one of the choices: {fits}.{hint}")
    kind = param.type
    try:
        if kind is AppCommandOptionType.integer:
            if not _WHOLE.match(raw):
                raise ValueError
            value: Any = int(raw)
        elif kind is AppCommandOptionType.number:
            if not _NUMBER.match(raw):
                raise ValueError
            value = float(raw)
        elif kind is AppCommandOptionType.boolean:
            lowered = raw.lower()
            if lowered not in ("true", "false", "yes", "no"):
                raise ValueError
            value = lowered in ("true", "yes")
        else:
            value = raw
    except ValueError:
        noun = {AppCommandOptionType.integer: "a whole number", AppCommandOptionType.number: "a number",
                AppCommandOptionType.boolean: "true or false"}.get(kind, "a value")
        raise CommandLineError(f"{where}: '{raw}' is not {noun}.") from None
    if kind in (AppCommandOptionType.integer, AppCommandOptionType.number):
        low, high = param.min_value, param.max_value
        if (low is not None and value < low) or (high is not None and value > high):
            raise CommandLineError(f"{where}: {raw} is out of bounds: give {low:g} to {high:g}.")
    return value


def _retired(command: app_commands.Command, words: list[str]) -> list[str]:
    """Options the command no longer offers Discord (``Command.extras[RETIRED]``), said the new
    way: ``war_machine:true`` becomes ``troop:war-machine``; ``false`` says nothing."""
    retired = getattr(command, "extras", {}).get(RETIRED, {})
    if not retired:
        return words
    out: list[str] = []
    given = {w.partition(":")[0].lower() for w in words}
    for word in words:
        name, colon, raw = word.partition(":")
        if not colon or name.lower() not in retired:
            out.append(word)
            continue
        new_name, new_value = retired[name.lower()]
        switch = raw.strip().lower()
        if switch not in ("true", "false", "yes", "no", "1", "0", "on", "off"):
            raise CommandLineError(f"{name}: '{quote(raw)}' is not true or false (or write {new_name}:{new_value}).")
        if switch in ("false", "no", "0", "off"):
            continue
        if new_name in given:
            raise CommandLineError(f"{name}:true and {new_name}: say the same thing twice: give {new_name}:{new_value} alone.")
        out.append(f"{new_name}:{new_value}")
    return out


def parse_options(command: app_commands.Command, words: list[str]) -> dict[str, Any]:
    """``name:value`` words into the callback's keyword arguments, checked as Discord would."""
    params = {p.display_name: p for p in command.parameters}
    merged: list[str] = []
    for word in words:  # "distance: 30" typed with a space after the colon
        if merged and merged[-1].endswith(":") and ":" not in word:
            merged[-1] += word
        elif merged and ":" not in word and _free_text(params.get(merged[-1].partition(":")[0].lower())):
            merged[-1] += " " + word  # "expression:2d6 x2": free text runs on to the next option, as in Discord's box
        else:
            merged.append(word)
    values: dict[str, Any] = {}
    merged = _leading_text(command, _retired(command, merged))
    into = getattr(command.callback, "__bombardier_target_into__", None)  # cogs/common/target.py
    for word in merged:
        name, colon, raw = word.partition(":")
        if into and colon and name.lower() == "target" and "target" not in params:
            name = into  # a command with no room for target: takes the unit in this option
        if not colon:
            known = word.split("=")[0].lower()
            first = next((p.display_name for p in command.parameters if p.required), None)
            example = f"{known}:VALUE" if known in params else f"{first}:VALUE" if first else "name:value"
            raise CommandLineError(f"'{word}' is not an option: write options as name:value with a colon, e.g. {example}.")
        name = name.lower()
        if name not in params:
            close = difflib.get_close_matches(name, list(params), n=1)
            if not params:
                raise CommandLineError(f"/{command.qualified_name} takes no options.")
            hint = f" Did you mean {close[0]}?" if close else f" Options: {', '.join(params)}."
            raise CommandLineError(f"/{command.qualified_name} has no option '{name}'.{hint}")
        if params[name].name in values:
            if into and name == into and any(w.lower().startswith("target:") for w in merged):
                raise CommandLineError(f"target: and {into}: both name the target on /{command.qualified_name} "
                                       f"({into}: takes a unit too): give one of them.")
            raise CommandLineError(f"{name} is given twice.")
        if raw == "":
            raise CommandLineError(f"{name}: give a value after the colon.")
        values[params[name].name] = _convert(command, params[name], raw)
    missing = [p.display_name for p in command.parameters if p.required and p.name not in values]
    if missing:
        raise CommandLineError(f"/{command.qualified_name} needs {', '.join(missing)}.")
    return values


def _free_text(param: app_commands.Parameter | None) -> bool:
    return param is not None and param.type is AppCommandOptionType.string and not param.choices


def _leading_text(command: app_commands.Command, words: list[str]) -> list[str]:
    """Words typed before any ``name:value`` option, for a command whose first option is free text
    (``/roll 2d6+1 adv``, ``/rules bounce``): that option's value, as Discord's client puts what is
    typed first into the first option."""
    first = command.parameters[0] if command.parameters else None
    if first is None or first.type is not AppCommandOptionType.string or first.choices or not words:
        return words
    names = {p.display_name for p in command.parameters}
    lead = 0
    while lead < len(words) and not (":" in words[lead] and words[lead].partition(":")[0].lower() in names):
        lead += 1
    if lead == 0:
        return words
    return [f"{first.display_name}:{' '.join(words[:lead])}", *words[lead:]]


def split_line(line: str) -> list[str]:
    """A line into words, curly quotes read as straight ones, quoted values kept whole."""
    try:
        return shlex.split(line.translate(QUOTES))
    except ValueError as e:
        raise CommandLineError(f"Cannot read that line: {e} (check the quotes).") from None
