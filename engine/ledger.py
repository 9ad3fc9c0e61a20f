"""The verifiable roll log: commit to a secret, derive every bot die from it, chain the entries.

How it proves the bot did not cheat (issue 9):

1. **Commitment.** A chain (a channel, or a battle) starts with a secret of 32 random bytes, drawn
   by the caller (the engine does no I/O); the bot posts ``commitment(secret)``, its SHA-256.
2. **Deriving the dice.** Roll number N of the chain rolls its bot dice from
   ``RandomDice(HMAC-SHA256(secret, N))`` (:func:`dice_for_roll`). N counts 1, 2, 3 ...
3. **The log.** Each entry holds the roll number, time, user, command, options, every die (kind,
   face, purpose, bot- or player-rolled) and the result summary, plus ``previous``: the hash of
   the entry appended before it (the commitment for the first). Its ``hash`` is the SHA-256 of all of that as
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
VERSION = 2
"""2: entries stand in append order with unique roll numbers (concurrent commands may append out
of number order; a command that failed after drawing leaves its number unused); ``reserved``
says how many numbers were drawn; a re-run's given-back dice point at their entry (``replay_of``).
Version 1 exports (numbers 1, 2, 3 ... in order) read and verify under the same rules."""
READS = (1, 2)
REPLAY_OF = "replay_of"
"""The option naming the entry whose dice a re-run was given back (Resolve wounds): its roll
number in the same chain and epoch, or ``"<chain> epoch <E> roll <N>"`` for another log."""
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


def export(
    *, chain: str, commitment_hex: str, secret: bytes | None, entries: Iterable[Entry], reserved: int | None = None,
) -> dict[str, Any]:
    """The export: a JSON object anyone can check with :func:`verify` (``python bot.py verify``).
    `reserved`: how many roll numbers were drawn (the highest), so unused ones at the end show."""
    entries = list(entries)
    return {
        "format": FORMAT, "version": VERSION, "chain": chain, "commitment": commitment_hex,
        "secret": secret.hex() if secret is not None else None,
        "reserved": max([reserved or 0, *(e.number for e in entries)]),
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
    given_back: int = 0
    """Dice a re-run was given back (Resolve wounds), found among the dice of the entry it names."""
    given_back_elsewhere: tuple[str, ...] = ()
    """Re-runs whose first run is in another log (named): their given-back dice are checked there."""
    unused: tuple[int, ...] = ()
    """Roll numbers drawn but never logged (a command that failed after drawing): not failures."""

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
            player = self.player_dice - self.given_back
            lines.append(f"{player} dice were entered by players: shown as such, not checked.")
            if self.given_back:
                lines.append(f"{self.given_back} dice given back to a re-run (Resolve wounds) are those of the entry it names.")
            for where in self.given_back_elsewhere:
                lines.append(f"A re-run gives back dice of {where}, outside this log: check them in that log's export.")
            if self.unused:
                lines.append(f"Roll numbers drawn but not logged (a command that failed after drawing): "
                             f"{_ranges(self.unused)}.")
        else:
            where = f"roll {self.failed_roll}" if self.failed_roll is not None else "the log"
            lines.append(f"FAILED at {where}: {self.reason}")
        return "\n".join(lines)


def _ranges(numbers: Iterable[int]) -> str:
    """``3, 7-9``."""
    out: list[str] = []
    for n in sorted(numbers):
        if out and out[-1][1] == n - 1:
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in out)


def read_entries(data: Any) -> tuple[str, str, bytes | None, list[Entry]]:
    """The chain id, commitment, secret and entries of an export, or LedgerFormatError."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LedgerFormatError(f"This is not a Bombardier roll log (no \"format\": \"{FORMAT}\").")
    if data.get("version") not in READS:
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
        int(data.get("reserved") or 0)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise LedgerFormatError(f"The roll log is missing a field or has one of the wrong type ({e}).") from None
    return chain, commitment_hex, secret, entries


def _marks_problem(e: Entry, earlier: Mapping[int, Entry]) -> str | None:
    """Players' dice are exactly the faces of the command's `dice` option, taken first (that is
    how :class:`~engine.dice.EnteredDice` takes them), so a bot die cannot be passed off as a
    player's to escape the check. A re-run (``replay_of``) has no `dice` option: its players'
    dice are the given-back ones, and they must be dice of the entry it names, in that entry's
    order (as :class:`~engine.dice.ReplayDice` hands them back)."""
    options = dict(e.options)
    given = options.get("dice")
    try:
        n = len(split_faces(given)) if isinstance(given, str) else 0
    except DiceError:
        return "its dice option is not a list of faces."
    marks = [d.by for d in e.dice]
    if any(m not in ("bot", "player") for m in marks):
        return "a die is marked neither bot nor player."
    replay_of = options.get(REPLAY_OF)
    if replay_of is not None:
        if n:
            return "a re-run gets its first run's dice back, not a dice option."
        if isinstance(replay_of, str):
            return None  # the first run is in another log: checked there
        if not isinstance(replay_of, int) or isinstance(replay_of, bool) or replay_of not in earlier:
            return f"it is a re-run of roll {replay_of!r}, which does not stand before it in this log."
        original = earlier[replay_of].dice
        at = 0
        for k, d in enumerate(e.dice, 1):
            if d.by != "player":
                continue
            while at < len(original) and (original[at].die, original[at].face, original[at].purpose) != (d.die, d.face, d.purpose):
                at += 1
            if at == len(original):
                return (f"die {k} ({d.die}, {d.purpose}, {d.face}) is marked as given back from roll {replay_of}, "
                        "but that roll has no such die in that order.")
            at += 1
        return None
    if marks[:n] != ["player"] * n or "player" in marks[n:]:
        entered = marks.count("player")
        return (f"{entered} of its dice are marked as entered by players, but its dice option gives {n} "
                "faces, which come first: a bot die was passed off as a player's.")
    return None


def verify(data: Mapping[str, Any]) -> Verification:
    """Check an export (:func:`export`'s shape, as read back from JSON). Raises LedgerFormatError
    when it is not a roll log at all; otherwise reports the first failure, or that all is well.

    The rules: entries stand in the order they were appended, each chained to the one before by
    its hash (the first to the commitment), each with its own roll number (concurrent commands
    may append out of number order); each bot die replays from its own entry's number; numbers
    never logged are reported, not failures; players' dice are the `dice` option's faces, or for
    a re-run the dice of the entry it names."""
    chain, commitment_hex, secret, entries = read_entries(data)
    bot = player = given_back = 0
    elsewhere: list[str] = []

    def failed(roll: int | None, checked: int, reason: str) -> Verification:
        return Verification(False, chain, checked, bot, player, secret is not None, roll, reason, given_back)

    if secret is not None and commitment(secret) != commitment_hex:
        return failed(None, 0, "the revealed secret does not match the commitment (its SHA-256 differs).")
    previous = commitment_hex
    seen: dict[int, Entry] = {}
    for i, e in enumerate(entries):
        if e.number < 1:
            return failed(e.number, i, "roll numbers count from 1.")
        if e.number in seen:
            return failed(e.number, i, f"roll {e.number} is logged twice: each roll number is drawn once.")
        if e.previous != previous:
            before = "the commitment" if i == 0 else f"the hash of the entry before it (roll {entries[i - 1].number})"
            return failed(e.number, i, f"its previous hash is not {before}: the chain is broken here "
                          "(an entry was changed, dropped, added or moved).")
        if content_hash(e.content()) != e.hash:
            return failed(e.number, i, "its hash does not match its content: it was changed after it was logged.")
        marks = _marks_problem(e, seen)
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
        replay_of = dict(e.options).get(REPLAY_OF)
        players = sum(1 for d in e.dice if d.by != "bot")
        player += players
        if isinstance(replay_of, int):
            given_back += players
        elif isinstance(replay_of, str):
            elsewhere.append(replay_of)
        seen[e.number] = e
        previous = e.hash
    top = max([int(data.get("reserved") or 0), *seen])
    unused = tuple(n for n in range(1, top + 1) if n not in seen)
    return Verification(True, chain, len(entries), bot, player, secret is not None, None, None, given_back,
                        tuple(elsewhere), unused)
