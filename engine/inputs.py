"""Numbers and words as players type them into free-text options, read one way everywhere.

Every command's free text (``near:``, ``at:``, ``dice:``, armour values, roll expressions...)
reads its numbers through :func:`read_int` and :func:`read_float`, and quotes what was typed back
through :func:`quote`, so that

- only plain ASCII digits count as a number: ``²`` or ``٣`` pass ``str.isdigit()`` (and ``int()``
  takes the second), and neither is a number a player meant;
- a number is short: twelve digits before the point and six after is more than any table needs,
  and it keeps a number of 309 digits from becoming ``inf`` or one of 4,300 from breaking
  ``int()``;
- the result is finite;
- an error quotes at most about :data:`QUOTE_LIMIT` characters of what was typed, with control
  characters shown as ``\\ufffd``, so the sentence always fits a Discord message.
"""

from __future__ import annotations

import math
import re

from engine.errors import RulesError

QUOTE_LIMIT = 100
"""The most characters of a player's input an error quotes back."""

MAX_WHOLE_DIGITS = 12
MAX_FRACTION_DIGITS = 6

_INT = re.compile(r"[+-]?[0-9]{1,%d}" % MAX_WHOLE_DIGITS)
_FLOAT = re.compile(r"[+-]?(?:[0-9]{1,%d}(?:\.[0-9]{0,%d})?|\.[0-9]{1,%d})"
                    % (MAX_WHOLE_DIGITS, MAX_FRACTION_DIGITS, MAX_FRACTION_DIGITS))


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """`text` to quote in an error: control characters shown as ``\\ufffd``, and cut to about
    `limit` characters with a count of what was left out."""
    shown = "".join(c if c.isprintable() else "\ufffd" for c in str(text))
    if len(shown) <= limit:
        return shown
    return f"{shown[: limit - 20]}\u2026 ({len(shown) - limit + 20} more characters)"


def is_int(text: str) -> bool:
    """`text` is a whole number in plain ASCII digits (an optional sign), short enough to read."""
    return _INT.fullmatch(text.strip()) is not None


def read_int(text: str, what: str) -> int:
    """A whole number typed by a player; RulesError naming `what` and quoting the text otherwise."""
    token = text.strip()
    if _INT.fullmatch(token) is None:
        raise RulesError(f"{what}: '{quote(token)}' is not a whole number: use the digits 0-9, at most {MAX_WHOLE_DIGITS} of them.")
    return int(token)


def read_float(text: str, what: str) -> float:
    """A number typed by a player (``12``, ``-4.5``, ``.5``); RulesError naming `what` and quoting
    the text when it is not plain ASCII digits, too long, or not finite."""
    token = text.strip()
    if _FLOAT.fullmatch(token) is None:
        raise RulesError(f"{what}: '{quote(token)}' is not a number: use the digits 0-9 and one point, "
                         f"at most {MAX_WHOLE_DIGITS} digits before it and {MAX_FRACTION_DIGITS} after.")
    value = float(token)
    if not math.isfinite(value):  # cannot happen within the digit limits; kept as the contract
        raise RulesError(f"{what}: '{quote(token)}' is not a finite number.")
    return value


def check_list(items: int, cap: int, what: str) -> None:
    """Refuse a free-text list longer than a real table could hold, saying the cap."""
    if items > cap:
        raise RulesError(f"{what}: {items} given; at most {cap} fit one command.")
