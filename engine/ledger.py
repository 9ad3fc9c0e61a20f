"""The verifiable roll log: commit to a secret, derive every bot die from it, chain the entries.

How it proves the bot did not cheat (issue 9):

1. **Commitment.** A chain (a channel, or a battle) starts with a secret of 32 random bytes, drawn
   by the caller (the engine does no I/O); the bot posts ``commitment(secret)``, its SHA-256.
2. **Deriving the dice.** Roll number N of the chain rolls its bot dice from
   ``RandomDice(HMAC-SHA256(secret, N))`` (:func:`dice_for_roll`). N counts 1, 2, 3 ...
3. **The log.** Each entry holds the roll number, time, user, command, options, every die (kind,
   face, purpose, bot- or player-rolled) and the result summary, plus ``previous``: the hash of
   the entry before it (the commitment for roll 1). Its ``hash`` is the SHA-256 of all of that as
   canonical JSON (:func:`canonical`), so changing, dropping or reordering an entry breaks the chain.
4. **Reveal and check.** Once the secret is revealed, :func:`verify` checks an export: the secret
   against the commitment, the chain link by link, and every bot-rolled die by rolling the same
   kinds of dice, in the logged order, from the roll's seed. Player-entered dice are counted, not
   checked.

Why replaying the kinds in order is enough: :class:`RandomDice` turns one uniform draw into each
die (two for the scatter die: hit or arrow, then the direction) from one numpy generator, drawn in
batches of 64 that only cache the same stream; entered dice never draw from it. So the same kinds
in the same order from the same seed give the same faces, whatever the procedure that asked.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.dice import MAX_SIDES, DieKind, DieRoll, RandomDice, split_faces
from engine.errors import DiceError, RulesError

FORMAT = "bombardier-roll-log"
VERSION = 1
SECRET_BYTES = 32


class LedgerFormatError(RulesError):
    """An export that cannot be read as a roll log (not a check that failed: a wrong file)."""


@dataclass(frozen=True, slots=True)
class LoggedDie:
    """One die as the log keeps it."""

    die: str
    """``D6``, ``D3``, ``artillery``, ``scatter`` or ``dN`` (any other number of sides)."""
    face: str
    purpose: str
    by: str
    """``bot`` or ``player``."""

    @classmethod
    def of(cls, d: DieRoll) -> LoggedDie:
        return cls(d.die, d.face, d.purpose, d.by.value)

    def json(self) -> dict[str, str]:
        return {"die": self.die, "face": self.face, "purpose": self.purpose, "by": self.by}


@dataclass(frozen=True, slots=True)
class Entry:
    """One command that rolled, as logged."""

    number: int
    """The roll number in its chain: 1, 2, 3 ..."""
    time: str
    """When, ISO 8601 in UTC."""
    user: str
    """Who ran the command (a Discord user id, or a name offline)."""
    command: str
    """The command: ``roll``, ``fire cannon``."""
    options: tuple[tuple[str, Any], ...]
    """The options it was given, by name (JSON scalars), sorted."""
    dice: tuple[LoggedDie, ...]
    """Every die, in the order rolled."""
    summary: tuple[str, ...]
    """The result, as the reply's plain lines."""
    previous: str
    """The hash of the entry before (the commitment for roll 1)."""
    hash: str
    """SHA-256 of the canonical JSON of everything above."""

    def content(self) -> dict[str, Any]:
        """What the hash covers."""
        return {
            "roll": self.number, "time": self.time, "user": self.user, "command": self.command,
            "options": dict(self.options), "dice": [d.json() for d in self.dice],
            "summary": list(self.summary), "previous": self.previous,
        }

    def json(self) -> dict[str, Any]:
        return {**self.content(), "hash": self.hash}


def canonical(value: Any) -> bytes:
    """One byte string for one JSON value: sorted keys, no spaces, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


def content_hash(content: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical(dict(content))).hexdigest()


def commitment(secret: bytes) -> str:
    """The SHA-256 of the secret, posted before any roll it seeds."""
    return hashlib.sha256(secret).hexdigest()


def roll_seed(secret: bytes, number: int) -> bytes:
    """HMAC-SHA256(secret, roll number), the roll number as 8 bytes big-endian."""
    return hmac.new(secret, number.to_bytes(8, "big"), hashlib.sha256).digest()


def dice_for_roll(secret: bytes, number: int) -> RandomDice:
    """The bot's dice for roll `number` of the chain whose secret is `secret`."""
    return RandomDice(roll_seed(secret, number))


def make_entry(
    *, previous: str, number: int, time: str, user: str, command: str, options: Mapping[str, Any],
    dice: Iterable[DieRoll | LoggedDie], summary: Iterable[str],
) -> Entry:
    """The entry for a finished command, hashed and chained to `previous`."""
    logged = tuple(d if isinstance(d, LoggedDie) else LoggedDie.of(d) for d in dice)
    opts = tuple(sorted((str(k), _scalar(k, v)) for k, v in options.items() if v is not None))
    draft = Entry(number, time, str(user), command, opts, logged, tuple(summary), previous, "")
    return Entry(number, time, str(user), command, opts, logged, tuple(summary), previous, content_hash(draft.content()))


def _scalar(name: str, value: Any) -> Any:
    if isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"option {name} is {type(value).__name__}, not a JSON scalar")  # the caller's bug


def export(*, chain: str, commitment_hex: str, secret: bytes | None, entries: Iterable[Entry]) -> dict[str, Any]:
    """The export: a JSON object anyone can check with :func:`verify` (``python bot.py verify``)."""
    return {
        "format": FORMAT, "version": VERSION, "chain": chain, "commitment": commitment_hex,
        "secret": secret.hex() if secret is not None else None,
        "entries": [e.json() for e in entries],
    }


# ---------------------------------------------------------------------------------------- checking

_DX = re.compile(r"^d(\d{1,4})$")


def die_kind(name: str) -> tuple[DieKind, int | None]:
    """A logged die's kind and sides from its name; LedgerFormatError for a name we never log."""
    for kind in (DieKind.D6, DieKind.D3, DieKind.ARTILLERY, DieKind.SCATTER):
        if name == kind.value:
            return kind, None
    m = _DX.match(name)
    if m and 2 <= int(m.group(1)) <= MAX_SIDES:
        return DieKind.DX, int(m.group(1))
    raise LedgerFormatError(f"'{name}' is not a die the log knows")


def replay(secret: bytes, number: int, dice: Iterable[LoggedDie]) -> list[str | None]:
    """The faces the seed gives for each logged die: its face for bot dice, None for the players'."""
    source = dice_for_roll(secret, number)
    out: list[str | None] = []
    for d in dice:
        if d.by != "bot":
            out.append(None)
            continue
        kind, sides = die_kind(d.die)
        small_arrow = d.face.upper().startswith("H@")
        if kind is DieKind.DX:
            out.append(source.roll(kind, d.purpose, sides=sides).face)
        else:
            out.append(source.roll(kind, d.purpose, small_arrow=small_arrow).face)
    return out


@dataclass(frozen=True, slots=True)
class Verification:
    """What :func:`verify` found."""

    ok: bool
    chain: str
    entries: int
    """Entries checked (all of them when ok; up to the failing one otherwise)."""
    bot_dice: int
    """Bot-rolled dice re-derived from the seed (0 while the secret is not revealed)."""
    player_dice: int
    """Player-entered dice: shown as such, not checked."""
    secret_revealed: bool
    failed_roll: int | None
    """The roll number of the first entry that failed (None when the failure is not one entry's)."""
    reason: str | None

    def report(self) -> str:
        """Plain text for ``python bot.py verify``."""
        lines = [f"Roll log {self.chain}: {self.entries} entr{'y' if self.entries == 1 else 'ies'} checked."]
        if self.ok:
            lines.append("OK: the chain is unbroken" + (
                " and the secret matches the commitment." if self.secret_revealed else "."))
            if self.secret_revealed:
                lines.append(f"{self.bot_dice} bot-rolled dice are exactly what the seed gives.")
            else:
                lines.append("The secret is not revealed yet, so the bot's dice cannot be checked; "
                             "check again with the export made after the reveal.")
            lines.append(f"{self.player_dice} dice were entered by players: shown as such, not checked.")
        else:
            where = f"roll {self.failed_roll}" if self.failed_roll is not None else "the log"
            lines.append(f"FAILED at {where}: {self.reason}")
        return "\n".join(lines)


def read_entries(data: Any) -> tuple[str, str, bytes | None, list[Entry]]:
    """The chain id, commitment, secret and entries of an export, or LedgerFormatError."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LedgerFormatError(f"This is not a Bombardier roll log (no \"format\": \"{FORMAT}\").")
    if data.get("version") != VERSION:
        raise LedgerFormatError(f"Roll log version {data.get('version')!r} is not one this bot reads ({VERSION}).")
    try:
        chain = str(data["chain"])
        commitment_hex = str(data["commitment"])
        secret = None if data["secret"] is None else bytes.fromhex(data["secret"])
        entries = [
            Entry(
                number=int(e["roll"]), time=str(e["time"]), user=str(e["user"]), command=str(e["command"]),
                options=tuple(sorted(dict(e["options"]).items())),
                dice=tuple(LoggedDie(str(d["die"]), str(d["face"]), str(d["purpose"]), str(d["by"])) for d in e["dice"]),
                summary=tuple(str(s) for s in e["summary"]), previous=str(e["previous"]), hash=str(e["hash"]),
            )
            for e in data["entries"]
        ]
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise LedgerFormatError(f"The roll log is missing a field or has one of the wrong type ({e}).") from None
    return chain, commitment_hex, secret, entries


def _marks_problem(e: Entry) -> str | None:
    """Players' dice are exactly the faces of the command's `dice` option, taken first (that is
    how :class:`~engine.dice.EnteredDice` takes them), so a bot die cannot be passed off as a
    player's to escape the check."""
    given = dict(e.options).get("dice")
    try:
        n = len(split_faces(given)) if isinstance(given, str) else 0
    except DiceError:
        return "its dice option is not a list of faces."
    marks = [d.by for d in e.dice]
    if any(m not in ("bot", "player") for m in marks):
        return "a die is marked neither bot nor player."
    if marks[:n] != ["player"] * n or "player" in marks[n:]:
        entered = marks.count("player")
        return (f"{entered} of its dice are marked as entered by players, but its dice option gives {n} "
                "faces, which come first: a bot die was passed off as a player's.")
    return None


def verify(data: Mapping[str, Any]) -> Verification:
    """Check an export (:func:`export`'s shape, as read back from JSON). Raises LedgerFormatError
    when it is not a roll log at all; otherwise reports the first failure, or that all is well."""
    chain, commitment_hex, secret, entries = read_entries(data)
    bot = player = 0

    def failed(roll: int | None, checked: int, reason: str) -> Verification:
        return Verification(False, chain, checked, bot, player, secret is not None, roll, reason)

    if secret is not None and commitment(secret) != commitment_hex:
        return failed(None, 0, "the revealed secret does not match the commitment (its SHA-256 differs).")
    previous = commitment_hex
    for i, e in enumerate(entries):
        position = i + 1
        if e.number != position:
            return failed(e.number, i, f"it stands at position {position} of the log, where roll {position} "
                          "belongs: entries are missing, added or out of order.")
        if e.previous != previous:
            before = "the commitment" if i == 0 else f"roll {position - 1}'s hash"
            return failed(e.number, i, f"its previous hash is not {before}: the chain is broken here.")
        if content_hash(e.content()) != e.hash:
            return failed(e.number, i, "its hash does not match its content: it was changed after it was logged.")
        marks = _marks_problem(e)
        if marks:
            return failed(e.number, i, marks)
        if secret is not None:
            try:
                derived = replay(secret, e.number, e.dice)
            except LedgerFormatError as err:
                return failed(e.number, i, f"{err}.")
            for n, (d, face) in enumerate(zip(e.dice, derived), 1):
                if face is None:
                    continue
                if face != d.face:
                    return failed(e.number, i, f"die {n} ({d.die}, {d.purpose}) shows {d.face}, but the seed "
                                  f"gives {face}: it was not rolled from the committed secret.")
                bot += 1
        player += sum(1 for d in e.dice if d.by != "bot")
        previous = e.hash
    return Verification(True, chain, len(entries), bot, player, secret is not None, None, None)
