"""Every way a procedure's dice can fall, each with its exact chance.

A procedure is any function of a :class:`~engine.dice.Dice` source (a command's engine call).
:func:`enumerate_outcomes` runs it once per leaf of its tree of dice: :class:`EnumeratingDice`
replays a path of faces and, past its end, takes the first face of each new die and notes how many
faces that die has; every other face of every new die is then a path still to run. A leaf's chance
is the product of one over the faces of each die on its path, so the chances are exact fractions
summing to one, and a die the procedure only rolls on some paths (a bounce after a hit, the damage
roll after a penetration, a misfire chart) counts only there.

The scatter die is a face of six, two of them the hit, and a direction: one of 360 whole degrees,
each as likely (docs/roll-derivation.md: the bot's scatter die draws ``d`` below 360). So it too
is enumerated exactly: a hit (one chance in three) and an arrow (two in three), and on an arrow (or
a hit whose small arrow the procedure reads: indirect fire) each of the 360 directions. No
quadrature and no error bound are needed: the sum over the 360 directions is the exact answer for
the dice the bot rolls. A tree too big for the budget is estimated by :func:`simulate` (seeded
throws of the bot's own dice, with the standard error of each chance).

Dice a procedure reads as a pool (their highest, their sum, how many succeed: the engine names
such purposes, e.g. ``engine.warmaster.structure.POOLED``) may be enumerated as a pool: a run of
D6s of one pooled purpose takes its faces in non-decreasing order only, each multiset once,
weighted by the number of orders it can come in (n! over the product of each face's count
factorial, over 6 to the n). Three structure-test dice are then 56 ways, not 216; the chances are
the same fractions (a test enumerates both ways and compares)."""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

from engine.dice import SCATTER_HIT_FACES, DieKind, DieRoll, RandomDice, Roller
from engine.errors import RulesError

T = TypeVar("T")

BUDGET = 8_000
"""Leaves enumerated at most before the caller is told to estimate instead."""
DICE_BUDGET = 60_000
"""Dice thrown at most for one price, enumerated or simulated (counted, so the same on every machine)."""
ADDING_BUDGET = 2_000_000
"""Products added at most when a volley's odds are built from one shot's (cogs/odds/commands.py,
``volley_odds``): past it the volley is estimated from throws, decided by the count alone (100
shots at BS 3 take 515,100; 100 at BS 10 with D6 multiple wounds 8,039,600, 4 s here)."""
THROWS = 4_000
"""Seeded throws for an estimate: a chance near one half is then known to about ±0.8% (one
standard error); fewer when the throws would pass :data:`DICE_BUDGET` dice."""
SECONDS = 5.0
"""The safety net, not the measure: the engine's time (thread CPU) one price may take enumerating,
and again throwing. What is counted or thrown is fixed by the dice alone (:data:`BUDGET` ways,
:data:`DICE_BUDGET` dice, :data:`THROWS` throws from a seed derived from the shot), so the same
line gives the same digits on any machine; every shot in benchmarks/bench_odds.py finishes in well
under half of this on the project's 2-core machine. Should a much slower machine reach it, the
count or the throws stop there and the answer says so (:attr:`Sample.cut`, :class:`TimeCut`).
None: no net at all (the docs' pictures)."""


def seed_of(line: str) -> int:
    """The seed of a shot's throws, derived from the shot itself (its command and options as
    written back by /odds, in the command's own order): the same shot throws the same dice on
    every machine and in every run, and the answer states it so anyone can repeat them."""
    return int.from_bytes(hashlib.sha256(b"bombardier-odds\n" + line.encode("utf-8")).digest()[:4], "big")


class TooMany(Exception):
    """The procedure's tree of dice has more leaves than the budget."""


class TimeCut(TooMany):
    """The count was cut by the time bound (:data:`SECONDS`), not by the budget: only on a machine
    far slower than the one the bounds were set on; the answer says so."""


_D6: dict[tuple[str, int], DieRoll] = {}
"""The records of D6 faces handed out, by purpose and face (a bounded cache)."""

DIRECTIONS = 360
"""The scatter die's directions: whole degrees, each as likely."""
HIT = Fraction(SCATTER_HIT_FACES, 6)
"""The scatter die's chance of the hit symbol."""


class EnumeratingDice(RandomDice):
    """Dice that replay `path` (each die's face index, 0 to faces-1) and then take face 0 of every
    new die, noting each die's number of faces in :attr:`faces` and the chance of the face taken
    (as a numerator in :attr:`shares` over the die's :attr:`faces`, or over 3 for the scatter die's
    hit or arrow: a fraction is made once per leaf, not per die). The scatter die is two choices,
    hit (1/3) or arrow (2/3), then, on an arrow or a hit read with its small arrow, a die of 360
    directions; with `directions` given (a fixed direction: a test's, or one the outcome never
    turns on) every arrow points that way."""

    __slots__ = ("path", "faces", "shares", "directions", "_over", "pools", "_run")

    def __init__(self, path: tuple[int, ...], *, directions: int | None = None, pools: frozenset[str] = frozenset()) -> None:
        self.path = path
        self.faces: list[int] = []
        self.shares: list[int] = []
        self._over: list[int] = []
        self.directions = directions
        self.pools = pools
        """Purposes whose consecutive D6s are read as a pool: taken as multisets (module docstring)."""
        self._run: tuple[str, int, int, dict[int, int]] | None = None
        """The pool being rolled: its purpose, the last face index taken, how many dice so far, and
        how many of each face."""

    @property
    def chance(self) -> Fraction:
        """The chance of the faces taken: the product of each die's."""
        return Fraction(math.prod(self.shares), math.prod(self._over))

    def _pick(self, n: int) -> int:
        i = len(self.faces)
        self.faces.append(n)
        self.shares.append(1)
        self._over.append(n)
        return self.path[i] if i < len(self.path) else 0

    def _pooled(self, purpose: str) -> int:
        """The next die of a pool of `purpose`: a face no lower than the pool's last, its share of
        the multiset's orders (the j-th die of the pool, its face now held c times: j over 6c)."""
        run = self._run
        low, j, counts = (0, 1, {}) if run is None or run[0] != purpose else (run[1], run[2] + 1, run[3])
        i = len(self.faces)
        self.faces.append(6 - low)
        face = low + (self.path[i] if i < len(self.path) else 0)
        counts[face] = counts.get(face, 0) + 1
        self.shares.append(j)
        self._over.append(6 * counts[face])
        self._run = (purpose, face, j, counts)
        return face

    def roll(self, kind: DieKind, purpose: str, *, small_arrow: bool = False, sides: int | None = None) -> DieRoll:
        if kind is DieKind.D6:  # most dice of most trees: each face's record made once and shared (they are frozen)
            if purpose in self.pools:
                face = self._pooled(purpose)
            else:
                self._run = None
                face = self._pick(6)
            die = _D6.get((purpose, face))
            if die is None:
                if len(_D6) > 4096:
                    _D6.clear()
                die = _D6[(purpose, face)] = DieRoll(kind, str(face + 1), face + 1, None, purpose, Roller.BOT)
            return die
        self._run = None
        if kind is not DieKind.SCATTER:
            return super().roll(kind, purpose, small_arrow=small_arrow, sides=sides)
        i = len(self.faces)
        self.faces.append(2)
        hit = (self.path[i] if i < len(self.path) else 0) == 0
        self.shares.append(HIT.numerator if hit else HIT.denominator - HIT.numerator)
        self._over.append(HIT.denominator)
        if hit and not small_arrow:
            return DieRoll(kind, "H", None, None, purpose, Roller.BOT)
        direction = self._pick(DIRECTIONS) if self.directions is None else self.directions
        if hit:
            return DieRoll(kind, f"H@{direction}", None, direction, purpose, Roller.BOT)
        return DieRoll(kind, f"@{direction}", None, direction, purpose, Roller.BOT)


@dataclass(frozen=True, slots=True)
class Leaf(Generic[T]):
    """One way the dice can fall: its exact chance and what the procedure made of it."""

    chance: Fraction
    result: T


def enumerate_outcomes(procedure: Callable[[EnumeratingDice], T], *, budget: int = BUDGET,
                       directions: int | None = None, seconds: float | None | str = "default",
                       pools: frozenset[str] = frozenset()) -> tuple[Leaf[T], ...]:
    """Every leaf of `procedure`'s tree of dice, depth first (the dice of `pools` purposes as
    multisets: module docstring). Raises :class:`TooMany` past `budget` leaves (or the dice and
    time bounds); a RulesError the procedure raises for the options themselves (on its first run)
    goes to the caller."""
    leaves: list[Leaf[T]] = []
    paths: list[tuple[int, ...]] = [()]
    thrown = 0
    seconds = SECONDS if seconds == "default" else seconds
    stop = None if seconds is None else time.thread_time() + seconds
    every = 1 if budget <= PROBE_AFTER else 64  # how many leaves between looks at the clock: a small tree's
    # bound is tight (a price on the event loop), a big one's is not worth a clock call a leaf
    while paths:
        path = paths.pop()
        dice = EnumeratingDice(path, directions=directions, pools=pools)
        result = procedure(dice)
        faces = dice.faces
        thrown += len(faces)
        if len(faces) > 16:  # one path of 17 dice already means more than 2**17 ways
            raise TooMany(f"more than {budget:,} ways the dice can fall")
        taken = path + (0,) * (len(faces) - len(path))
        leaves.append(Leaf(dice.chance, result))
        if len(leaves) + len(paths) > budget or thrown > DICE_BUDGET:
            raise TooMany(f"more than {min(budget, len(leaves) + len(paths)):,} ways the dice can fall")
        if stop is not None and not len(leaves) % every and time.thread_time() > stop:
            raise TimeCut(f"the count of every way was cut by the time bound after {len(leaves):,} ways")
        if len(leaves) == PROBE_AFTER and tree_size(procedure, directions=directions, pools=pools) > PROBE_FACTOR * budget:
            raise TooMany(f"about {PROBE_FACTOR * budget:,} ways the dice can fall or more")
        for i in range(len(faces) - 1, len(path) - 1, -1):  # the new dice's other faces, still to run
            for other in range(faces[i] - 1, 0, -1):
                paths.append(taken[:i] + (other,))
    total = exact_sum(leaf.chance for leaf in leaves)
    if total != 1:  # the tree is the procedure's: a die rolled on one path and not another is fine, a lost leaf is not
        raise RulesError(f"The odds came to {total}, not 1: a bug in the enumeration.")
    return tuple(leaves)


PROBE_AFTER = 256
"""Leaves enumerated before a tree not yet finished is sized by :func:`tree_size`: a small tree never
pays for the probes."""
PROBE_FACTOR = 20
"""A tree the probes size at this many times the budget or more is given up at once (rather than
after the time bound), and estimated."""
PROBES = 8


def tree_size(procedure: Callable[[EnumeratingDice], object], *, directions: int | None = None,
              pools: frozenset[str] = frozenset(), probes: int = PROBES, cap: float = PROBE_FACTOR * BUDGET) -> float:
    """An estimate of how many leaves `procedure`'s tree of dice has (Knuth's estimator: down a
    path of random faces, the product of the number of faces of each die met, averaged over
    `probes` seeded paths; each path stops once its product passes `cap`). Unbiased, and a
    cheap way to tell a tree of thousands from one of billions: :func:`enumerate_outcomes` asks
    it once a tree runs past :data:`PROBE_AFTER` leaves, and gives up on a huge one at once."""
    picker = RandomDice(17)  # the bot's own seeded dice pick each probe's faces
    total = 0.0
    for _ in range(probes):
        path: tuple[int, ...] = ()
        size = 1.0
        while size <= cap:
            dice = EnumeratingDice(path, directions=directions, pools=pools)
            procedure(dice)
            if len(dice.faces) == len(path):
                break
            n = dice.faces[len(path)]
            size *= n
            path += (picker.dx(n, "probe").value - 1 if n > 1 else 0,)
        total += size
    return total / probes


def common_denominator(chances) -> int:
    """One denominator all `chances` (fractions) can be written over: adding their numerators over
    it in integers is exact and much faster than Fraction's addition, which reduces at every step."""
    return math.lcm(*(c.denominator for c in chances)) if chances else 1


def exact_sum(chances) -> Fraction:
    """The sum of fractions, over their :func:`common_denominator`."""
    chances = list(chances)
    common = common_denominator(chances)
    return Fraction(sum(c.numerator * (common // c.denominator) for c in chances), common)


@dataclass(frozen=True, slots=True)
class Sample(Generic[T]):
    results: tuple[T, ...]
    runs: int
    """Throws made."""
    planned: int = 0
    """Throws planned: the runs asked for, fewer when they would pass the dice budget."""
    seed: int = 17
    """The seed the throws came from (throw `n` rolls ``RandomDice(seed * 1_000_003 + n)``)."""
    cut: bool = False
    """The time bound (the safety net) stopped the throws before :attr:`planned`."""


class _Counting(RandomDice):
    """The bot's dice, counted."""

    __slots__ = ("drawn",)

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.drawn = 0

    def roll(self, kind: DieKind, purpose: str, *, small_arrow: bool = False, sides: int | None = None) -> DieRoll:
        self.drawn += 1
        return super().roll(kind, purpose, small_arrow=small_arrow, sides=sides)


MIN_THROWS = 100


def simulate(procedure: Callable[[RandomDice], T], *, runs: int = THROWS, seed: int = 17,
             seconds: float | None | str = "default") -> Sample[T]:
    """`runs` throws of the bot's own dice from `seed` (throw `n` from ``seed * 1_000_003 + n``:
    the same throws every time), or fewer when they would pass :data:`DICE_BUDGET` dice (never
    fewer than :data:`MIN_THROWS`). How many is decided by the dice alone, never by the clock:
    `seconds` of thread time (:data:`SECONDS`) is only a safety net, and a sample it stopped says
    so (:attr:`Sample.cut`)."""
    seconds = SECONDS if seconds == "default" else seconds
    stop = None if seconds is None else time.thread_time() + seconds
    results: list[T] = []
    thrown = 0
    planned = max(1, runs)
    for n in range(planned):
        dice = _Counting(seed * 1_000_003 + n)
        results.append(procedure(dice))
        thrown += dice.drawn
        if len(results) >= MIN_THROWS and thrown >= DICE_BUDGET:
            planned = len(results)  # the dice budget spent: decided by the dice alone, the same everywhere
            break
        if stop is not None and time.thread_time() > stop and len(results) >= min(MIN_THROWS, planned):
            return Sample(tuple(results), len(results), planned, seed, len(results) < planned)
    return Sample(tuple(results), len(results), planned, seed, False)
