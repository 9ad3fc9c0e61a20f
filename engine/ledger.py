"""The verifiable roll log: commit to a secret, derive every bot die from it, chain the entries.

How it proves the bot did not cheat (issue 9):

1. **Commitment.** A chain (a channel, or a battle) starts with a secret of 32 random bytes, drawn
   by the caller (the engine does no I/O); the bot posts ``commitment(secret)``, its SHA-256.
2. **Deriving the dice.** Die i of roll number N of the chain comes from
   HMAC-SHA256(secret, "bombardier-die\\n<chain>\\n<N>\\n<i>\\n<block>") by rejection sampling
   (:class:`~engine.dice.RandomDice`; docs/roll-derivation.md is the specification, with test
   vectors in docs/roll-derivation-vectors.json). Versions 1 and 2 derived them from numpy's PCG64
   (:class:`~engine.dice.PcgDice`), still checked for their exports.
3. **The log.** Each entry holds the roll number, time, user, command, options, every die (kind,
   face, purpose, bot- or player-rolled) and the result summary, plus ``previous``: the hash of
   the entry appended before it (the commitment for the first). From version 3 a random salt goes
   with the content and the entry's ``seal`` is the SHA-256 of content and salt; its ``hash`` is
   the SHA-256 of roll, time, user, seal and previous (:func:`canonical` JSON). So a private entry
   can be exported *sealed* (roll, time, user and seal only) and the chain still verifies, and
   changing, dropping or reordering an entry breaks it. (Versions 1 and 2 hashed the content
   directly.) The last hash is the chain's *head*: posted with the entry count at a battle's end
   and at /log reveal, it shows an export that was cut short.
4. **Reveal and check.** Once the secret is revealed, :func:`verify` checks an export: the secret
   against the commitment, the chain link by link, each unsealed entry against its seal, every
   bot-rolled die by deriving it again, and the head against the one posted. Player-entered dice
   are counted, not checked.

This module needs only Python's standard library (numpy for version 1 and 2 dice only), so
``python bot.py verify`` and ``python -m console.verify`` run with nothing installed.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.dice import DERIVATION, MAX_SIDES, DieKind, DieRoll, PcgDice, RandomDice, split_faces
from engine.errors import DiceError, RulesError

FORMAT = "bombardier-roll-log"
VERSION = 4
"""4: as 3, and each entry's hash covers whether it is a private roll (``private`` in its link; a
sealed entry says ``"private": true``), so a sealed entry is proven to be a private roll: a public
roll cannot be passed off as sealed to hide it.
3: bot dice from docs/roll-derivation.md (HMAC-SHA256, rejection sampling); each entry salted
and sealed, so private entries can be exported sealed; the export names its ``head`` and ``count``.
2: entries stand in append order with unique roll numbers (concurrent commands may append out
of number order; a command that failed after drawing leaves its number unused); ``reserved``
says how many numbers were drawn; a re-run's given-back dice point at their entry (``replay_of``).
Version 1 exports (numbers 1, 2, 3 ... in order) read and verify under the same rules."""
READS = (1, 2, 3, 4)
SEALED = 3
"""The first version whose entries carry a salt and a seal."""
FLAGGED = 4
"""The first version whose link hash covers the private flag."""
SALT_BYTES = 16
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
    """Version 3: SHA-256 of the canonical JSON of roll, time, user, :attr:`seal` and previous.
    Versions 1 and 2: of everything above."""
    salt: str | None = None
    """Version 3: 16 random bytes (hex) sealed with the content, so a sealed entry's content
    cannot be guessed from its seal; None in versions 1 and 2."""
    flagged: bool = False
    """Version 4: the link hash covers :attr:`private` too."""

    def content(self) -> dict[str, Any]:
        """What a version 1 or 2 hash covers."""
        return {
            "roll": self.number, "time": self.time, "user": self.user, "command": self.command,
            "options": dict(self.options), "dice": [d.json() for d in self.dice],
            "summary": list(self.summary), "previous": self.previous,
        }

    def body(self) -> dict[str, Any]:
        """What a version 3 seal covers: the content and the salt (not the link)."""
        return {
            "roll": self.number, "time": self.time, "user": self.user, "command": self.command,
            "options": dict(self.options), "dice": [d.json() for d in self.dice],
            "summary": list(self.summary), "salt": self.salt,
        }

    @property
    def seal(self) -> str | None:
        """SHA-256 of :meth:`body` (version 3); None for older entries."""
        return None if self.salt is None else content_hash(self.body())

    @property
    def private(self) -> bool:
        return dict(self.options).get("private") is True

    def computed_hash(self) -> str:
        """The hash this entry's content gives (what :attr:`hash` must be)."""
        if self.salt is None:
            return content_hash(self.content())
        return link_hash(self.number, self.time, self.user, self.seal, self.previous,
                         self.private if self.flagged else None)

    def json(self) -> dict[str, Any]:
        if self.salt is None:
            return {**self.content(), "hash": self.hash}
        return {**self.body(), "seal": self.seal, "previous": self.previous, "hash": self.hash}

    def sealed(self) -> SealedEntry:
        """The entry as an export shows it to one who may not see its content."""
        return SealedEntry(self.number, self.time, self.user, self.seal, self.previous, self.hash,
                           self.private if self.flagged else None)


@dataclass(frozen=True, slots=True)
class SealedEntry:
    """A private entry in an export made for someone who may not see it: roll number, user and
    time, and the seal that commits to its content; the chain runs through it all the same."""

    number: int
    time: str
    user: str
    seal: str
    """SHA-256 of the entry's content and salt (:meth:`Entry.body`)."""
    previous: str
    hash: str
    private: bool | None = None
    """Version 4: that it is a private roll (its hash covers it, so it must be True); None in
    version 3, whose hashes do not say."""

    def computed_hash(self) -> str:
        return link_hash(self.number, self.time, self.user, self.seal, self.previous, self.private)

    def json(self) -> dict[str, Any]:
        out = {"roll": self.number, "time": self.time, "user": self.user, "sealed": True, "seal": self.seal,
               "previous": self.previous, "hash": self.hash}
        if self.private is not None:
            out["private"] = self.private
        return out


def link_hash(number: int, time: str, user: str, seal: str, previous: str, private: bool | None = None) -> str:
    """A version 3 or 4 entry's hash: SHA-256 of the canonical JSON of its link fields (version 4:
    with ``private``, whether it is a private roll; `private` None for version 3)."""
    link = {"roll": number, "time": time, "user": user, "seal": seal, "previous": previous}
    if private is not None:
        link["private"] = private
    return content_hash(link)


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


def dice_for_roll(secret: bytes, number: int, chain: str = "", version: int = VERSION) -> RandomDice:
    """The bot's dice for roll `number` of `chain` whose secret is `secret`: docs/roll-derivation.md
    (version 3); numpy's PCG64 seeded with :func:`roll_seed` in versions 1 and 2."""
    if version < SEALED:
        return PcgDice(roll_seed(secret, number))
    return RandomDice(secret, chain=chain, roll=number)


def make_entry(
    *, previous: str, number: int, time: str, user: str, command: str, options: Mapping[str, Any],
    dice: Iterable[DieRoll | LoggedDie], summary: Iterable[str], salt: bytes | None = None, flagged: bool = False,
) -> Entry:
    """The entry for a finished command, hashed and chained to `previous`: sealed with `salt`
    (version 3, :data:`SALT_BYTES` random bytes from the caller), or hashed as versions 1 and 2
    did without one (an epoch begun before version 3)."""
    logged = tuple(d if isinstance(d, LoggedDie) else LoggedDie.of(d) for d in dice)
    opts = tuple(sorted((str(k), _scalar(k, v)) for k, v in options.items() if v is not None))
    draft = Entry(number, time, str(user), command, opts, logged, tuple(summary), previous, "",
                  None if salt is None else salt.hex(), flagged and salt is not None)
    return dataclasses.replace(draft, hash=draft.computed_hash())


def _scalar(name: str, value: Any) -> Any:
    if isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"option {name} is {type(value).__name__}, not a JSON scalar")  # the caller's bug


def export(
    *, chain: str, commitment_hex: str, secret: bytes | None, entries: Iterable[Entry | SealedEntry],
    reserved: int | None = None, version: int = VERSION,
) -> dict[str, Any]:
    """The export: a JSON object anyone can check with :func:`verify` (``python bot.py verify``,
    or the page of :mod:`engine.verifier_page`). `reserved`: how many roll numbers were drawn (the
    highest), so unused ones at the end show. ``head`` (the last hash) and ``count`` say where it
    ends; a check against the head posted in the channel shows an export cut short."""
    entries = list(entries)
    out = {
        "format": FORMAT, "version": version, "chain": chain, "commitment": commitment_hex,
        "secret": secret.hex() if secret is not None else None,
        "reserved": max([reserved or 0, *(e.number for e in entries)]),
        "head": entries[-1].hash if entries else commitment_hex, "count": len(entries),
        "entries": [e.json() for e in entries],
    }
    if version >= SEALED:
        out["derivation"] = DERIVATION
    return out


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


def replay(secret: bytes, number: int, dice: Iterable[LoggedDie], chain: str = "", version: int = VERSION) -> list[str | None]:
    """The faces the secret gives for each logged die: its face for bot dice, None for the players'.
    Bot dice are numbered 0, 1, 2 ... in the order logged (players' dice take no number)."""
    source = dice_for_roll(secret, number, chain, version)
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
    head: str | None = None
    """The hash the export ends with (the commitment when it has no entries)."""
    count: int = 0
    """How many entries the export holds."""
    sealed: tuple[int, ...] = ()
    """Roll numbers of private entries exported sealed: in the chain, their content not shown."""
    version: int = VERSION
    head_checked: bool = False
    """The head was checked against the one posted in the channel (``--head``)."""
    legacy_dice: bool = False
    """Version 1 or 2 dice that could not be derived here (numpy is not installed)."""

    def report(self) -> str:
        """Plain text for ``python bot.py verify``."""
        lines = [f"Roll log {self.chain}: {self.entries} entr{'y' if self.entries == 1 else 'ies'} checked."]
        if self.head is not None:
            lines.append(f"Head hash {self.head} after {self.count} entr{'y' if self.count == 1 else 'ies'}"
                         + (": the same as the head posted in the channel." if self.head_checked and self.ok else
                            "; compare it with the head posted at /battle end or /log reveal (--head)."
                            if self.ok else "."))
        if self.ok:
            lines.append("OK: the chain is unbroken" + (
                " and the secret matches the commitment." if self.secret_revealed else "."))
            if self.secret_revealed and self.legacy_dice:
                lines.append(f"This is a version {self.version} export: its bot dice come from numpy's PCG64, "
                             "which is not installed here, so they were not checked (pip install numpy).")
            elif self.secret_revealed:
                lines.append(f"{self.bot_dice} bot-rolled dice are exactly what the secret gives.")
            else:
                lines.append("The secret is not revealed yet, so the bot's dice cannot be checked; "
                             "check again with the export made after the reveal.")
            player = self.player_dice - self.given_back
            lines.append(f"{player} dice were entered by players: shown as such, not checked.")
            if self.given_back:
                lines.append(f"{self.given_back} dice given back to a re-run (Resolve wounds) are those of the entry it names.")
            for where in self.given_back_elsewhere:
                lines.append(f"A re-run gives back dice of {where}, outside this log: check them in that log's export.")
            if self.sealed:
                lines.append(f"Private rolls sealed (in the chain, content not shown to you): {_ranges(self.sealed)}.")
                if self.version < FLAGGED:
                    lines.append(UNPROVEN_PRIVATE.format(version=self.version))
            if self.unused:
                lines.append(f"Roll numbers drawn but not logged (a command that failed after drawing): "
                             f"{_ranges(self.unused)}.")
        else:
            where = f"roll {self.failed_roll}" if self.failed_roll is not None else "the log"
            lines.append(f"FAILED at {where}: {self.reason}")
        return "\n".join(lines)


UNPROVEN_PRIVATE = ("This is a version {version} export: its hashes do not say which entries are private rolls, so it "
                    "cannot prove that each sealed entry was one (a public roll could have been passed off as sealed). "
                    "Exports from version 4 on prove it.")
"""What a version 3 export with sealed entries cannot prove (the verifier page says the same)."""


def _ranges(numbers: Iterable[int]) -> str:
    """``3, 7-9``."""
    out: list[str] = []
    for n in sorted(numbers):
        if out and out[-1][1] == n - 1:
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in out)


_HEX64 = re.compile(r"^[0-9a-f]{64}$")


def read_entries(data: Any) -> tuple[str, str, bytes | None, list[Entry | SealedEntry]]:
    """The chain id, commitment, secret and entries of an export, or LedgerFormatError."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LedgerFormatError(f"This is not a Bombardier roll log (no \"format\": \"{FORMAT}\").")
    version = data.get("version")
    if version not in READS or isinstance(version, bool):
        raise LedgerFormatError(f"Roll log version {version!r} is not one this bot reads ({', '.join(map(str, READS))}).")
    try:
        chain = str(data["chain"])
        commitment_hex = str(data["commitment"])
        secret = None if data["secret"] is None else bytes.fromhex(data["secret"])
        entries = [_read_entry(e, version) for e in data["entries"]]
        int(data.get("reserved") or 0)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise LedgerFormatError(f"The roll log is missing a field or has one of the wrong type ({e}).") from None
    return chain, commitment_hex, secret, entries


def _read_entry(e: Mapping[str, Any], version: int) -> Entry | SealedEntry:
    if version >= SEALED and e.get("sealed") is True:
        private = e.get("private") if version >= FLAGGED else None
        if version >= FLAGGED and not isinstance(private, bool):
            private = False  # a version 4 sealed entry that does not say it is private: verify refuses it
        return SealedEntry(int(e["roll"]), str(e["time"]), str(e["user"]), str(e["seal"]), str(e["previous"]),
                           str(e["hash"]), private)
    salt = None
    if version >= SEALED:
        salt = str(e["salt"])
        bytes.fromhex(salt)
    return Entry(
        number=int(e["roll"]), time=str(e["time"]), user=str(e["user"]), command=str(e["command"]),
        options=tuple(sorted(dict(e["options"]).items())),
        dice=tuple(LoggedDie(str(d["die"]), str(d["face"]), str(d["purpose"]), str(d["by"])) for d in e["dice"]),
        summary=tuple(str(s) for s in e["summary"]), previous=str(e["previous"]), hash=str(e["hash"]), salt=salt,
        flagged=version >= FLAGGED,
    )


def _marks_problem(e: Entry, earlier: Mapping[int, Entry | SealedEntry]) -> str | None:
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
        if isinstance(earlier[replay_of], SealedEntry):
            return None  # a private roll's re-run: its given-back dice are checked once it is unsealed
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


def verify(data: Mapping[str, Any], head: str | None = None) -> Verification:
    """Check an export (:func:`export`'s shape, as read back from JSON). Raises LedgerFormatError
    when it is not a roll log at all; otherwise reports the first failure, or that all is well.
    `head`: the head hash posted in the channel (at /battle end, /log reveal): the export must end
    with it, so one cut short fails.

    The rules: entries stand in the order they were appended, each chained to the one before by
    its hash (the first to the commitment), each with its own roll number (concurrent commands
    may append out of number order); each unsealed entry matches its seal; each bot die derives
    from its own entry's number; numbers never logged are reported, not failures; players' dice
    are the `dice` option's faces, or for a re-run the dice of the entry it names."""
    chain, commitment_hex, secret, entries = read_entries(data)
    version = data["version"]
    bot = player = given_back = 0
    elsewhere: list[str] = []
    sealed: list[int] = []
    legacy = False
    if secret is not None and version < SEALED:
        try:
            import numpy  # noqa: F401  (versions 1 and 2 need it for their dice)
        except ImportError:
            legacy = True
    expected = None if head is None else head.strip().lower()

    def failed(roll: int | None, checked: int, reason: str) -> Verification:
        return Verification(False, chain, checked, bot, player, secret is not None, roll, reason, given_back,
                            head=entries[-1].hash if entries else commitment_hex, count=len(entries),
                            version=version, head_checked=expected is not None)

    if expected is not None and not _HEX64.match(expected):
        return failed(None, 0, f"the head to check against, '{head}', is not a SHA-256 hash (64 hex digits).")
    if secret is not None and commitment(secret) != commitment_hex:
        return failed(None, 0, "the revealed secret does not match the commitment (its SHA-256 differs).")
    previous = commitment_hex
    seen: dict[int, Entry | SealedEntry] = {}
    for i, e in enumerate(entries):
        if e.number < 1:
            return failed(e.number, i, "roll numbers count from 1.")
        if e.number in seen:
            return failed(e.number, i, f"roll {e.number} is logged twice: each roll number is drawn once.")
        if e.previous != previous:
            before = "the commitment" if i == 0 else f"the hash of the entry before it (roll {entries[i - 1].number})"
            return failed(e.number, i, f"its previous hash is not {before}: the chain is broken here "
                          "(an entry was changed, dropped, added or moved).")
        if isinstance(e, SealedEntry):
            if e.computed_hash() != e.hash:
                return failed(e.number, i, "its hash does not match its seal: it was changed after it was logged.")
            if version >= FLAGGED and e.private is not True:
                return failed(e.number, i, "it is sealed, but its hash says it is not a private roll: only private "
                              "rolls are sealed, so a public roll was hidden here.")
            sealed.append(e.number)
            seen[e.number] = e
            previous = e.hash
            continue
        if e.computed_hash() != e.hash:
            what = "its content does not match its seal" if e.salt is not None else "its hash does not match its content"
            return failed(e.number, i, f"{what}: it was changed after it was logged.")
        if e.salt is not None and data["entries"][i].get("seal") not in (None, e.seal):
            return failed(e.number, i, "its content does not match its seal: it was changed after it was logged.")
        marks = _marks_problem(e, seen)
        if marks:
            return failed(e.number, i, marks)
        if secret is not None and not legacy:
            try:
                derived = replay(secret, e.number, e.dice, chain, version)
            except LedgerFormatError as err:
                return failed(e.number, i, f"{err}.")
            for n, (d, face) in enumerate(zip(e.dice, derived), 1):
                if face is None:
                    continue
                if face != d.face:
                    return failed(e.number, i, f"die {n} ({d.die}, {d.purpose}) shows {d.face}, but the secret "
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
    if expected is not None and previous != expected:
        return failed(None, len(entries), f"the export ends at hash {previous} after {len(entries)} entries, not at the "
                      f"head posted in the channel ({expected}): entries were cut off, added or changed.")
    top = max([int(data.get("reserved") or 0), *seen])
    unused = tuple(n for n in range(1, top + 1) if n not in seen)
    return Verification(True, chain, len(entries), bot, player, secret is not None, None, None, given_back,
                        tuple(elsewhere), unused, previous, len(entries), tuple(sealed), version,
                        expected is not None, legacy)
