"""Dice: the only way chance enters the engine.

Procedures ask a :class:`Dice` source for each die in the order the rulebook rolls them and keep
the :class:`DieRoll` it returns. Two sources share that one path (as pokerkit does for chance):

* :class:`RandomDice` rolls for the bot, each die from HMAC-SHA256 of its key, chain, roll and index
  (docs/roll-derivation.md);
* :class:`EnteredDice` takes the faces players rolled at the table, in DESIGN.md's notation, and
  lets a fallback source roll whatever they did not give.
"""

from __future__ import annotations

import abc
import dataclasses
import enum
import hashlib
import os
import re
import struct
from collections.abc import Iterable
from dataclasses import dataclass

from engine.errors import DiceError
from engine.inputs import quote


class DieKind(enum.Enum):
    """The dice the three games roll."""

    D6 = "D6"
    D3 = "D3"
    ARTILLERY = "artillery"
    SCATTER = "scatter"
    DX = "dX"
    """A die of any number of sides (``/roll 1d20``); the roll carries its :attr:`DieRoll.sides`."""

    @property
    def label(self) -> str:
        return {"D6": "D6", "D3": "D3", "artillery": "artillery die", "scatter": "scatter die", "dX": "die"}[self.value]

    @property
    def faces_that_fit(self) -> str:
        return {
            "D6": "1 to 6",
            "D3": "1 to 3",
            "artillery": "2, 4, 6, 8, 10 or M (misfire)",
            "scatter": "H (hit) or @DEG (an arrow DEG degrees clockwise from the line of fire)",
            "dX": "1 to the number of sides",
        }[self.value]


class Roller(enum.Enum):
    """Who rolled a die."""

    PLAYER = "player"
    BOT = "bot"


ARTILLERY_FACES = ("2", "4", "6", "8", "10", "M")
"""The artillery die's six faces."""
SCATTER_HIT_FACES = 2
"""Of the scatter die's six faces, two show the hit symbol and four an arrow."""


@dataclass(frozen=True, slots=True)
class DieRoll:
    """One die as it fell."""

    kind: DieKind
    """Which die."""
    face: str
    """The face as written in the dice notation: ``"4"``, ``"M"``, ``"H"``, ``"@135"``, ``"H@30"``."""
    value: int | None
    """The number it shows (D6, D3, artillery); None for a misfire and for the scatter die."""
    direction: int | None
    """Scatter die only: the arrow's direction, or the hit symbol's small arrow when it was
    needed, in whole degrees clockwise from the line of fire; otherwise None."""
    purpose: str
    """What the procedure rolled it for, in its words ("scatter", "bounce", "misfire chart")."""
    by: Roller
    """Whether a player entered it or the bot rolled it."""
    sides: int | None = None
    """:attr:`DieKind.DX` only: how many sides the die has; otherwise None."""

    @property
    def die(self) -> str:
        """The die's name in the notation and the roll log: ``D6``, ``artillery``, ``d20``."""
        return f"d{self.sides}" if self.kind is DieKind.DX else self.kind.value

    @property
    def is_misfire(self) -> bool:
        """The artillery die's misfire face."""
        return self.kind is DieKind.ARTILLERY and self.face == "M"

    @property
    def is_hit(self) -> bool:
        """The scatter die's hit symbol."""
        return self.kind is DieKind.SCATTER and self.face.startswith("H")


MAX_SIDES = 1000
"""The most sides a :attr:`DieKind.DX` die may have."""

MAX_ENTERED = 200
"""More faces than any procedure rolls: a longer list is a mistake, refused before reading it."""

_TOKEN = re.compile(r"^(?:\d{1,4}|M|H|H@-?\d{1,4}|@-?\d{1,4})$", re.ASCII)
"""A face of some die, in ASCII digits only (``²`` and ``٣`` are no face)."""


def split_faces(text: str) -> tuple[str, ...]:
    """Split the `dice:` option into faces (spaces or commas between them), checking each one is
    a face of some die; which die it must fit is checked when the procedure rolls it."""
    tokens = tuple(t for t in re.split(r"[\s,]+", text.strip().upper()) if t)
    if len(tokens) > MAX_ENTERED:
        raise DiceError(f"Dice: {len(tokens)} faces is more than any shot rolls; give at most {MAX_ENTERED}.")
    for i, token in enumerate(tokens, 1):
        if not _TOKEN.match(token):
            raise DiceError(
                f"Dice: '{quote(token)}' (die {i}) is not a die face: use 1-6 for a D6, 2/4/6/8/10/M for "
                "the artillery die, H or @DEG for the scatter die."
            )
    return tokens


class Dice(abc.ABC):
    """A source of dice. Procedures call :meth:`d6`, :meth:`d3`, :meth:`artillery` and
    :meth:`scatter` in the rulebook's order, then :meth:`finish` once the procedure is done."""

    def d6(self, purpose: str) -> DieRoll:
        return self.roll(DieKind.D6, purpose)

    def d3(self, purpose: str) -> DieRoll:
        return self.roll(DieKind.D3, purpose)

    def artillery(self, purpose: str) -> DieRoll:
        return self.roll(DieKind.ARTILLERY, purpose)

    def scatter(self, purpose: str, *, small_arrow: bool = False) -> DieRoll:
        """The scatter die. With `small_arrow` the hit symbol's small arrow is read too (indirect
        fire), so a hit comes back with a direction."""
        return self.roll(DieKind.SCATTER, purpose, small_arrow=small_arrow)

    def dx(self, sides: int, purpose: str) -> DieRoll:
        """A die of `sides` sides (2 to :data:`MAX_SIDES`); a D6 or D3 is rolled as one."""
        if sides == 6:
            return self.d6(purpose)
        if sides == 3:
            return self.d3(purpose)
        if not 2 <= sides <= MAX_SIDES:
            raise ValueError(f"a die of {sides} sides")  # the roll grammar bounds it first: a bug
        return self.roll(DieKind.DX, purpose, sides=sides)

    @abc.abstractmethod
    def roll(self, kind: DieKind, purpose: str, *, small_arrow: bool = False, sides: int | None = None) -> DieRoll:
        """The next die of `kind`, rolled for `purpose` (`sides` for :attr:`DieKind.DX` only)."""

    def finish(self) -> None:
        """Called when a procedure has rolled its last die."""

    def players_roll_next(self) -> bool:
        """True when the players are rolling this procedure's dice at the table and have given
        no more faces: a chart the procedure turns to then waits for their roll instead of the
        bot rolling it (see :func:`engine.fantasy.misfire.roll_on_misfire_chart`)."""
        return False


DERIVATION = "hmac-sha256-1"
"""The name of how :class:`RandomDice` derives each die (docs/roll-derivation.md)."""
_PREFIX = b"bombardier-die\n"
_WORDS = struct.Struct(">8I")
_LIMITS = {n: (1 << 32) - (1 << 32) % n for n in (2, 3, 4, 6, 8, 10, 12, 20, 100)}
"""Rejection limits of the common dice, worked out once (0 for others: worked out per die)."""


_IPAD = bytes(b ^ 0x36 for b in range(256))
_OPAD = bytes(b ^ 0x5C for b in range(256))
"""HMAC's inner and outer pads as translation tables, as the standard library's hmac builds them."""


class RandomDice(Dice):
    """The bot's dice: die `i` of roll `roll` in chain `chain` comes from
    HMAC-SHA256(key, "bombardier-die\\n<chain>\\n<roll>\\n<i>\\n<block>"), read as eight 32-bit
    words and turned into faces by rejection sampling, so every face of any die is exactly equally
    likely (docs/roll-derivation.md specifies it for other implementations). The roll log passes
    the epoch's secret as the key; any other caller a seed (an int or bytes; None: fresh from the
    OS). The same key, chain and roll give the same dice."""

    __slots__ = ("_inner", "_outer", "_index")

    def __init__(self, seed: int | bytes | None = None, *, chain: str = "", roll: int = 0) -> None:
        if seed is None:
            seed = os.urandom(32)
        elif isinstance(seed, int):
            seed = str(seed).encode("ascii")
        # HMAC-SHA256 (RFC 2104) by hand, its two SHA-256 states kept after the key pads and the
        # message's fixed start: each die copies them and adds "<i>\n<block>" (half the cost of
        # copying an hmac object).
        key = bytes(seed)
        if len(key) > 64:
            key = hashlib.sha256(key).digest()
        key = key.ljust(64, b"\0")
        self._inner = hashlib.sha256(key.translate(_IPAD) + _PREFIX + chain.encode("utf-8") + b"\n"
                                     + str(roll).encode("ascii") + b"\n")
        self._outer = hashlib.sha256(key.translate(_OPAD))
        self._index = 0

    def _block(self, tail: bytes) -> bytes:
        """HMAC-SHA256(key, prefix + tail)."""
        inner = self._inner.copy()
        inner.update(tail)
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()

    def _draws(self):
        """The words of the next die, block after block (almost always the first word is used)."""
        stem = str(self._index).encode("ascii") + b"\n"
        self._index += 1
        block = 0
        while True:
            yield from _WORDS.unpack(self._block(stem + str(block).encode("ascii")))
            block += 1

    def _pick(self, n: int) -> int:
        """One die of `n` faces: 0 to n-1, each exactly equally likely."""
        # The common case inline (the first word is under the limit): one HMAC, no generator.
        inner = self._inner.copy()
        inner.update(b"%d\n0" % self._index)
        outer = self._outer.copy()
        outer.update(inner.digest())
        w = int.from_bytes(outer.digest()[:4], "big")
        if w < _LIMITS.get(n, 0) or w < (1 << 32) - (1 << 32) % n:
            self._index += 1
            return w % n
        return _below(self._draws(), n)

    def _scatter(self) -> tuple[bool, int]:
        """The scatter die: hit or arrow (a face of six), then the direction, from one die's words."""
        words = self._draws()
        return _below(words, 6) < SCATTER_HIT_FACES, _below(words, 360)

    def roll(self, kind: DieKind, purpose: str, *, small_arrow: bool = False, sides: int | None = None) -> DieRoll:
        if kind is DieKind.DX:
            v = self._pick(sides) + 1
            return DieRoll(kind, str(v), v, None, purpose, Roller.BOT, sides)
        if kind is DieKind.D6:
            v = self._pick(6) + 1
            return DieRoll(kind, str(v), v, None, purpose, Roller.BOT)
        if kind is DieKind.D3:
            v = self._pick(3) + 1
            return DieRoll(kind, str(v), v, None, purpose, Roller.BOT)
        if kind is DieKind.ARTILLERY:
            face = ARTILLERY_FACES[self._pick(6)]
            value = None if face == "M" else int(face)
            return DieRoll(kind, face, value, None, purpose, Roller.BOT)
        hit, direction = self._scatter()
        if hit:
            face = f"H@{direction}" if small_arrow else "H"
            return DieRoll(kind, face, None, direction if small_arrow else None, purpose, Roller.BOT)
        return DieRoll(kind, f"@{direction}", None, direction, purpose, Roller.BOT)


def _below(words, n: int) -> int:
    """The first word under the largest multiple of `n` that fits in 32 bits, modulo `n`
    (rejection sampling: no face is favoured, whatever `n`)."""
    limit = (1 << 32) - (1 << 32) % n
    for w in words:
        if w < limit:
            return w % n
    raise AssertionError("unreachable")  # the words never run out


class PcgDice(RandomDice):
    """The bot's dice as roll log versions 1 and 2 derived them (before docs/roll-derivation.md):
    numpy's PCG64 seeded with HMAC-SHA256(secret, roll number) as a big-endian integer, one uniform
    draw per die (two for the scatter die), ``int(u * faces)``. Kept to verify those exports (and
    an int seed gives what ``RandomDice(seed)`` gave before, for the golden pictures of
    tests/renders); numpy is imported when one is made, so the verifier runs without it otherwise."""

    __slots__ = ("_rng", "_uniforms")
    _BATCH = 64

    def __init__(self, seed: int | bytes) -> None:
        import numpy as np  # only old exports need it

        self._rng = np.random.default_rng(int.from_bytes(seed, "big") if isinstance(seed, bytes) else seed)
        self._uniforms: list[float] = []

    def _uniform(self) -> float:
        if not self._uniforms:
            self._uniforms = self._rng.random(self._BATCH).tolist()[::-1]
        return self._uniforms.pop()

    def _pick(self, n: int) -> int:
        return int(self._uniform() * n)

    def _scatter(self) -> tuple[bool, int]:
        return self._pick(6) < SCATTER_HIT_FACES, self._pick(360)


class EnteredDice(Dice):
    """Dice the players rolled at the table, given in the order the procedure rolls them.

    Each face is checked against the die the procedure asks for when it asks; once the given
    faces run out, `fallback` rolls the rest. Faces left over when the procedure finishes are an
    error, as is a face the die cannot show."""

    def __init__(self, faces: str | Iterable[str], fallback: Dice) -> None:
        self._faces = split_faces(faces if isinstance(faces, str) else " ".join(faces))
        self._next = 0
        self._fallback = fallback

    @property
    def given(self) -> int:
        """How many faces the players entered."""
        return len(self._faces)

    def roll(self, kind: DieKind, purpose: str, *, small_arrow: bool = False, sides: int | None = None) -> DieRoll:
        if self._next >= len(self._faces):
            if kind is DieKind.DX:
                return self._fallback.roll(kind, purpose, small_arrow=small_arrow, sides=sides)
            return self._fallback.roll(kind, purpose, small_arrow=small_arrow)
        token = self._faces[self._next]
        self._next += 1
        return _read_face(token, self._next, kind, purpose, small_arrow, sides)

    def players_roll_next(self) -> bool:
        return self._next >= len(self._faces)

    def finish(self) -> None:
        left = self._faces[self._next :]
        if left and self._next == 0:
            raise DiceError(f"Dice: {len(left)} left over ({quote(' '.join(left))}): this needs no dice here, so leave dice: out.")
        if left:
            raise DiceError(
                f"Dice: {len(left)} left over ({quote(' '.join(left))}); only {self._next} of the "
                f"{len(self._faces)} given were needed."
            )


class RecordingDice(Dice):
    """Another source's dice, each kept in :attr:`rolled` in the order rolled: for procedures
    whose dice come from several steps (to hit, to wound, saves) and must be listed in order."""

    def __init__(self, inner: Dice) -> None:
        self._inner = inner
        self.rolled: list[DieRoll] = []

    def roll(self, kind: DieKind, purpose: str, *, small_arrow: bool = False, sides: int | None = None) -> DieRoll:
        if kind is DieKind.DX:
            die = self._inner.roll(kind, purpose, small_arrow=small_arrow, sides=sides)
        else:
            die = self._inner.roll(kind, purpose, small_arrow=small_arrow)
        self.rolled.append(die)
        return die

    def finish(self) -> None:
        self._inner.finish()

    def players_roll_next(self) -> bool:
        return self._inner.players_roll_next()


class ReplayDice(Dice):
    """A finished procedure's dice handed back to the same procedure run again with more known
    (the target's profile added after the shot). Each die the new run asks for is the first
    recorded die still unused, at or after the last one used, of the same kind and purpose; it
    comes back marked as given (the players did not roll it anew). Any other die is rolled by
    `fallback`. Recorded dice the new run never asks for are dropped: they belonged to a branch
    the fuller procedure did not take (a bolt that no longer goes on into the next rank)."""

    def __init__(self, recorded: Iterable[DieRoll], fallback: Dice) -> None:
        self._recorded = tuple(recorded)
        self._next = 0
        self._fallback = fallback

    def roll(self, kind: DieKind, purpose: str, *, small_arrow: bool = False, sides: int | None = None) -> DieRoll:
        for i in range(self._next, len(self._recorded)):
            die = self._recorded[i]
            if die.kind is kind and die.purpose == purpose and (kind is not DieKind.DX or die.sides == sides):
                self._next = i + 1
                return dataclasses.replace(die, by=Roller.PLAYER)
        if kind is DieKind.DX:
            return self._fallback.roll(kind, purpose, small_arrow=small_arrow, sides=sides)
        return self._fallback.roll(kind, purpose, small_arrow=small_arrow)

    def finish(self) -> None:
        self._fallback.finish()


def _read_face(token: str, position: int, kind: DieKind, purpose: str, small_arrow: bool, sides: int | None = None) -> DieRoll:
    def unfit(extra: str = "") -> DiceError:
        return DiceError(
            f"Dice: '{token}' (die {position}) does not fit the {kind.label} rolled for {purpose}; "
            f"faces that fit: {kind.faces_that_fit}{extra}."
        )

    if kind is DieKind.DX:
        if not (token.isdigit() and token.isascii()) or not 1 <= int(token) <= sides:
            raise DiceError(
                f"Dice: '{token}' (die {position}) does not fit the d{sides} rolled for {purpose}; "
                f"faces that fit: 1 to {sides}."
            )
        return DieRoll(kind, str(int(token)), int(token), None, purpose, Roller.PLAYER, sides)
    if kind is DieKind.SCATTER:
        if token == "H":
            if small_arrow:
                raise DiceError(
                    f"Dice: '{token}' (die {position}) is a hit on the scatter die rolled for {purpose}, "
                    "but this shot needs the hit symbol's small arrow too: enter it as H@DEG."
                )
            return DieRoll(kind, "H", None, None, purpose, Roller.PLAYER)
        if token.startswith("H@"):
            direction = int(token[2:]) % 360
            if small_arrow:
                return DieRoll(kind, f"H@{direction}", None, direction, purpose, Roller.PLAYER)
            # A direct shot ignores the small arrow: keep the hit, drop what does not apply.
            return DieRoll(kind, "H", None, None, purpose, Roller.PLAYER)
        if token.startswith("@"):
            direction = int(token[1:]) % 360
            return DieRoll(kind, f"@{direction}", None, direction, purpose, Roller.PLAYER)
        raise unfit()
    if kind is DieKind.ARTILLERY:
        face = token if token == "M" or not (token.isdigit() and token.isascii()) else str(int(token))
        if face not in ARTILLERY_FACES:
            raise unfit()
        return DieRoll(kind, face, None if face == "M" else int(face), None, purpose, Roller.PLAYER)
    top = 6 if kind is DieKind.D6 else 3
    if not (token.isdigit() and token.isascii()) or not 1 <= int(token) <= top:
        raise unfit()
    return DieRoll(kind, str(int(token)), int(token), None, purpose, Roller.PLAYER)


def pick_at_random(dice: Dice, n: int, purpose: str) -> tuple[int, tuple[DieRoll, ...]]:
    """Choose one of `n` things (1 to 6) with a D6, as players do at the table: split the faces
    evenly when 6 divides by `n` (1-3 / 4-6 for two), otherwise roll again above `n`. Returns
    the index chosen and every die rolled; one thing needs no die."""
    if not 1 <= n <= 6:
        raise ValueError(f"cannot pick among {n} with a D6")  # callers pass at most 6: a bug
    if n == 1:
        return 0, ()
    rolled: list[DieRoll] = []
    while True:
        die = dice.d6(purpose)
        rolled.append(die)
        if 6 % n == 0:
            return (die.value - 1) // (6 // n), tuple(rolled)
        if die.value <= n:
            return die.value - 1, tuple(rolled)
