"""How the odds of a shot read: each result of the procedure named as the table would name it, the
chances added up, and the reply (embed, summary, ``--json`` fields).

:func:`outcome` names one result: a misfire and its chart row, a penetration's damage row, a
structure that falls or holds, a chart result, or how many models a shot slew; and counts its
hits, wounds and models slain where it has them. :func:`tally` adds the chances of every way the
dice fell (exact fractions) or of seeded throws (estimates with their standard error)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import discord

from cogs.common.replies import COLOUR_OK, Reply
from engine.fantasy.formation import Formation
from engine.fantasy.misfire import Misfire
from engine.geometry import Point
from engine.odds.enumeration import common_denominator
from engine.roll import RollResult
from engine.fantasy.close_combat import CombatResult
from engine.warmaster.assault import Assault
from engine.warmaster.battering import BatterAttempt
from engine.warmaster.earthworks import DigOut
from engine.warmaster.scenarios import SallyGate, ScenarioRoll
from engine.warmaster.structure import StructureTest
from engine.wh40k.assault import Assault as VehicleAssault
from engine.wh40k.damage import DamageOnly
from engine.wh40k.penetration import VehicleHit
from engine.wh40k.terrain import TerrainTest
from renders.odds.picture import OddsPicture

NUMBERS = ("hits", "wounds", "unsaved", "slain", "stands_lost", "crew_lost", "total")
"""What a result is counted in, in the order shown."""
SHOWN_OUTCOMES = 12
SHOWN_VALUES = 12


@dataclass(frozen=True, slots=True)
class Outcome:
    """One result of a procedure as the table names it, and what it counts."""

    label: str
    numbers: Mapping[str, int]


def _count(x: Any, name: str) -> int | None:
    v = getattr(x, name, None)
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    if isinstance(v, tuple):
        return len(v)
    return None


def numbers(x: Any) -> dict[str, int]:
    """The counts a result carries: hits, wounds, models slain, stands lost, crew lost."""
    out: dict[str, int] = {}
    for name in ("hits", "unsaved", "slain", "models_slain", "stands_lost", "crew_lost"):
        n = _count(x, name)
        if n is not None:
            out.setdefault("slain" if name == "models_slain" else name, n)
    hits = getattr(x, "hits", None)
    profiled = getattr(getattr(x, "target", None), "profile", None) is not None
    if isinstance(hits, tuple) and hits and hasattr(hits[0], "conditional"):
        # a bolt or a ball with no profile: a model struck only if the one before is slain is no
        # certain hit (seed 000:48, 000:84); only the certain ones count
        out["hits"] = sum(1 for h in hits if not h.conditional)
    if isinstance(hits, tuple) and (profiled or (hits and hasattr(hits[0], "wound"))):
        # a template's or a ball's models; with the target's profile, no hit is none slain
        wounds = [h.wound for h in hits if getattr(h, "wound", None) is not None]
        if wounds or profiled:
            out["wounds"] = sum(w.wounds for w in wounds)
            pooled = getattr(x, "casualties", None)  # the wounds pooled on the unit (templates, a ball)
            out["slain"] = pooled if isinstance(pooled, int) else sum(1 for w in wounds if w.slain)
    units = getattr(x, "units", None)
    if isinstance(units, tuple) and units and hasattr(units[0], "result"):
        x = units[0]  # a Warmaster battery's or bolt's path: the counts are its target's (the first unit)
    for inner in ("volley", "result"):  # a volley inside a shot, a Warmaster attack's result
        y = getattr(x, inner, None)
        if y is not None and hasattr(y, "__dataclass_fields__"):
            for k, v in numbers(y).items():
                out.setdefault(k, v)
    if _unprofiled(x):  # nothing is rolled to wound: only the hits are certain
        for k in ("unsaved", "slain", "wounds"):
            out.pop(k, None)
    return out


def _unprofiled(x: Any) -> bool:
    """A Fantasy shot given no target profile: the players roll to wound, so it says only its hits."""
    volley = getattr(x, "volley", None)
    if volley is not None and hasattr(volley, "profile"):
        return volley.profile is None and getattr(x, "crew", None) is None
    if hasattr(x, "profile") and hasattr(x, "shots") and hasattr(x, "to_hit"):
        return x.profile is None  # a volley on its own
    target = getattr(x, "target", None)
    return hasattr(target, "profile") and hasattr(target, "ranks") and target.profile is None


def profile_note(result: Any) -> str | None:
    """What giving the target's profile would add, for a shot priced without one (issue 28 item 7):
    the models slain, and for a bolt (or a ball at a monster) the models behind the first."""
    if not _unprofiled(result):
        return None
    if getattr(result, "undone_by", ()) or "flaming" in getattr(getattr(result, "target_rules", None), "immune", ()):
        return None  # an Immunity undoes the flame or breath whatever the profile (003:246): nothing to add
    hits = getattr(result, "hits", None)
    # a ball at monstrous models: whether it goes on is the target's, not one throw's (the note is read
    # from the first throw priced, which may have missed)
    monstrous = hasattr(result, "stopped_by") and getattr(getattr(getattr(result, "target", None), "troop", None), "monstrous", False)
    behind = isinstance(hits, tuple) and any(getattr(h, "conditional", False) for h in hits) or hasattr(result, "ranked") or monstrous
    more = ("; and how far the bolt goes on: each model behind is struck only if the one before it is slain"
            if hasattr(result, "ranked") else
            "; and whether the ball goes on past a monster it hits" if behind else "")
    return ("No target profile: only the hits are certain. Give toughness (with wounds, save, ward) to price the "
            f"wounds and the models slain{more}.")


CLASSES = ("misfire", "out of breath", "miss", "no hit", "no effect (Immune)", "hit", "hit, none slain", "one or more slain",
           "hit, no stand lost", "stands lost", "hit, no crew lost", "crew lost", "machine destroyed",
           "no effect", "glancing", "penetrating", "hit, no damage", "damaged", "vehicle destroyed",
           "it holds", "it falls", "the battering fails",
           "no section destroyed", "some sections destroyed", "every section destroyed")
"""The outcome classes a player names first, in the order the answer gives them."""


def _out_of_breath(result: Any) -> bool:
    """A breath used before that failed its 4+ (shooting or in combat)."""
    if getattr(result, "breathed", True) is False:
        return True
    breath = getattr(result, "out_of_breath", None)  # a breath in combat that needed its 4+
    return getattr(breath, "value", 6) < 4


def _undone(result: Any) -> bool:
    """Something was struck and an Immunity undid it (an attack that is not physical, 003:246).
    A flame that lands on nobody is a miss whatever the target is Immune to."""
    applied = getattr(result, "applied", None)
    if getattr(result, "rolled_hits", 0) and getattr(result, "no_effect", None) is not False and getattr(result, "hits", None) == 0:
        return True  # a breath in combat: hits rolled, none left
    if not (getattr(result, "no_effect", False) is True or getattr(applied, "no_effect", False) is True):
        return False
    hits = getattr(result, "hits", None)
    return not isinstance(hits, tuple) or bool(hits) or getattr(result, "undone_by", None) is not None


def outcome_class(result: Any) -> str:
    """The class of outcome a player asks about first: hit or miss, glancing or penetrating, holds
    or falls, slain or not; the outcome's own name where it is already one (a chart, a test)."""
    if isinstance(result, VehicleHit):
        return result.penetration.counts_as.value
    if isinstance(result, VehicleAssault):
        if result.destroyed:
            return "vehicle destroyed"
        if any(h.damage is not None for h in result.results):
            return "damaged"
        return "hit, no damage" if result.hits else "no hit"
    if isinstance(result, DamageOnly):
        return "vehicle destroyed" if result.damage.destroyed else "damaged"
    if isinstance(result, StructureTest):
        return "it falls" if result.destroyed else "it holds"
    if isinstance(result, BatterAttempt):
        if result.failed:
            return "the battering fails"
        return "it falls" if result.test.destroyed else "it holds"
    if isinstance(result, DigOut):  # earthworks dug at: the sections destroyed, not the 6s rolled (001:280)
        gone, dug = len(result.destroyed), len(result.sections)
        if dug == 1:
            return "it falls" if gone else "it holds"
        return "no section destroyed" if not gone else ("every section destroyed" if gone == dug else "some sections destroyed")
    vehicle_hits = getattr(result, "vehicle_hits", None)
    if isinstance(vehicle_hits, tuple) and getattr(result, "vehicle", None) is not None:  # 40k ordnance at a vehicle
        if any(h.damage is not None and h.damage.destroyed for h in vehicle_hits):
            return "vehicle destroyed"
        found = {h.penetration.counts_as.value for h in vehicle_hits}
        for name in ("penetrating", "glancing", "no effect"):
            if name in found:
                return name
        return "miss"
    misfire = getattr(result, "misfire", None)
    if isinstance(misfire, Misfire):
        return "misfire"
    if _out_of_breath(result):
        return "out of breath"
    if _undone(result):
        return "no effect (Immune)"
    counts = numbers(result)
    if "hits" not in counts:
        return outcome(result).label
    if counts["hits"] == 0:
        return "no hit"  # the outcome's own name for it too: one name for a miss
    if "crew_lost" in counts:
        if getattr(result, "machine_destroyed", False) is True:
            return "machine destroyed"
        return "crew lost" if counts["crew_lost"] else "hit, no crew lost"
    if "stands_lost" in counts:
        return "stands lost" if counts["stands_lost"] else "hit, no stand lost"
    if "slain" in counts:
        return "one or more slain" if counts["slain"] else "hit, none slain"
    return "hit"


def outcome(result: Any) -> Outcome:
    """What one run of a procedure came to, named as the players would name it."""
    if isinstance(result, VehicleHit):
        p, d = result.penetration, result.damage
        if d is None:
            return Outcome(p.counts_as.value, {"destroyed": 0})
        return Outcome(f"{p.counts_as.value}: {d.counts_as or d.result}", {"destroyed": int(d.destroyed)})
    if isinstance(result, VehicleAssault):  # a squad's attacks on a vehicle: its hits, and whether it is destroyed
        n, kill = result.hits, result.destroyed
        words = "no hit" if n == 0 else f"{n} hit{'s' * (n != 1)}"
        return Outcome(words + (", vehicle destroyed" if kill else ""), {"hits": n, "destroyed": int(kill)})
    if isinstance(result, DamageOnly):
        d = result.damage
        return Outcome(d.counts_as or d.result, {"destroyed": int(d.destroyed)})
    vehicle_hits = getattr(result, "vehicle_hits", None)
    if isinstance(vehicle_hits, tuple) and getattr(result, "vehicle", None) is not None:
        # 40k ordnance at a vehicle: each hit's penetration and damage (two on an open-topped one)
        if not vehicle_hits:
            return Outcome("no shot" if getattr(result, "miss", None) else "the marker misses the vehicle", {"destroyed": 0})
        words = [outcome(h).label for h in vehicle_hits]
        kill = any(h.damage is not None and h.damage.destroyed for h in vehicle_hits)
        return Outcome("; ".join(words), {"destroyed": int(kill)})
    if isinstance(result, StructureTest):
        return Outcome(_structure(result), {})
    if isinstance(result, CombatResult):
        if result.winner is None:
            return Outcome("a draw", {})
        test = result.break_test
        after = "" if test is None else (", the loser holds" if test.passed else ", the loser breaks")
        return Outcome(f"the {result.winner} wins{after}", {})
    if isinstance(result, Assault):
        fell = ", the defenders destroyed" if result.defenders_destroyed else ""
        return Outcome(f"{result.outcome.value}{fell}", {})
    if isinstance(result, SallyGate):
        return Outcome("the gate is left open" if result.open else "the gate shuts", {})
    if isinstance(result, ScenarioRoll):
        if result.scenario.ends_on:  # into the breach: does the game end
            return Outcome("the game ends" if result.happens else "the game goes on", {})
        return Outcome("the relief force arrives" if result.happens else "no relief yet", {})  # the watchtower
    if isinstance(result, TerrainTest):
        if result.crashed:
            return Outcome("crashes: destroyed", {})
        if result.immobilised:
            return Outcome("immobilised", {})
        if result.walker_move is not None:
            return Outcome(f"moves up to {result.walker_move}\"", {})
        return Outcome("gets through", {})
    if isinstance(result, DigOut):
        gone = result.destroyed
        words = ("no section destroyed" if not gone else
                 f"section{'s' * (len(gone) > 1)} {', '.join(map(str, gone))} destroyed")
        return Outcome(words, {"sections_destroyed": len(gone)})
    if isinstance(result, BatterAttempt):
        if result.failed:
            return Outcome("the battering fails" + (": it still tests at the end of the phase" if result.test_due else ""), {})
        return Outcome(_structure(result.test), {"stands_lost": result.stands_lost})
    if isinstance(result, Misfire):
        return Outcome(result.row.title if result.row else "awaiting the chart roll", {})
    if isinstance(result, RollResult):
        e = result.expressions[0]
        total = e.total
        return Outcome("misfire" if e.misfire else f"{e.expression.text} = {total}", {} if total is None else {"total": total})
    counts = numbers(result)
    misfire = getattr(result, "misfire", None)
    if isinstance(misfire, Misfire):
        return Outcome(f"misfire: {misfire.row.title}" if misfire.row else "misfire", counts)
    if getattr(result, "exploded", False) is True:
        return Outcome("it explodes", counts)
    if _out_of_breath(result):  # the class's own name, so the lead line and the detail agree
        return Outcome("out of breath", counts)
    if _undone(result):
        return Outcome("no effect (Immune)", counts)
    if counts.get("hits") == 0:
        return Outcome("no hit", counts)
    if "crew_lost" in counts:  # a war machine's crew: the models it lost, and whether the machine went with them
        removed = ", the machine removed" if getattr(result, "machine_destroyed", False) is True else ""
        return Outcome(f"{counts['crew_lost']} crew lost{removed}", counts)
    for name, one, many in (("slain", "slain", "slain"), ("stands_lost", "stand lost", "stands lost"),
                            ("crew_lost", "crew lost", "crew lost"), ("hits", "hit", "hits")):
        if name in counts:
            return Outcome(f"{counts[name]} {one if counts[name] == 1 else many}", counts)
    restrained = getattr(result, "restrained", None)
    if isinstance(restrained, bool):
        return Outcome("restrained" if restrained else "pursues", {})
    passed = getattr(result, "passed", None)
    if isinstance(passed, bool):
        return Outcome("passed" if passed else "failed", {})
    return Outcome(type(result).__name__, counts)


def _structure(t: StructureTest) -> str:
    if t.destroyed:
        return "it falls"
    if t.token_added:
        return "it holds, with a Destruction Token"
    return "it holds"


@dataclass(frozen=True, slots=True)
class Chance:
    value: float
    exact: Fraction | None
    """The exact fraction (enumerated); None for an estimate."""
    error: float | None
    """The standard error of an estimate; None when exact."""


@dataclass(frozen=True, slots=True)
class Odds:
    """A shot's odds: each outcome's chance, the average counts, and their distributions."""

    line: str
    exact: bool
    ways: int
    """Ways the dice can fall (exact), or throws (an estimate)."""
    reason: str | None
    """Why an estimate: the scatter die's direction, or too many ways."""
    outcomes: tuple[tuple[str, Chance], ...]
    expected: tuple[tuple[str, float], ...]
    distributions: tuple[tuple[str, tuple[tuple[int, Chance], ...]], ...]
    grid: tuple[tuple[float, ...], ...] = ()
    """For a shot at a ranked unit: each model's chance of being hit, front rank first."""
    exact_how: str | None = None
    """How an exact answer was counted when not leaf by leaf ("one shot's 81 ways, added up 10 times")."""
    landing: tuple[float, float, float] | None = None
    """The centre of landing on the target, in the grid's own measure: (ranks from the unit's front
    edge, files from its left edge, the chance the shot lands at all); None for a shot with no
    landing point (a bolt, a penetration) or one that never lands."""
    seed: int | None = None
    """An estimate's seed, derived from the shot (engine/odds/enumeration.py ``seed_of``): the same
    line throws the same dice on any machine."""
    planned: int | None = None
    """An estimate's throws planned (:attr:`ways` are those made: fewer only when :attr:`cut`)."""
    cut: bool = False
    """The time bound (a safety net a much slower machine might reach) stopped the throws early."""
    classes: tuple[tuple[str, Chance], ...] = ()
    """The outcome classes a player names first (hit or miss, glancing or penetrating, holds or
    falls, slain), each with its chance, in :data:`CLASSES` order: the one list of outcome names
    and numbers the words lead with and the picture may read."""
    note: str | None = None
    """What the answer cannot say and what would let it (a shot priced with no target profile)."""


def hit_models(result: Any) -> tuple[int, int, set[tuple[int, int]]] | None:
    """The target's ranks and files and the models (rank, file) a result hit, when it shot at a
    ranked unit (cannon balls, templates, bolts, breath)."""
    target = getattr(result, "target", None)
    hits = getattr(result, "hits", None)
    ranks, files = getattr(target, "ranks", None), getattr(target, "files", None)
    if not isinstance(ranks, int) or not isinstance(files, int) or not isinstance(hits, tuple):
        return None
    return ranks, files, {(h.rank, h.file) for h in hits if hasattr(h, "rank") and hasattr(h, "file")}


def landing_point(result: Any) -> tuple[float, float] | None:
    """Where a shot at a ranked unit came down (a template's centre, a cannon ball's first strike),
    in the unit's own measure: (ranks back from its front edge, files across from its left edge),
    both fractional; None for a shot with no landing point or one that misfired."""
    formation = getattr(result, "formation", None)
    point = getattr(result, "centre", None) if hasattr(result, "centre") else getattr(result, "landing", None)
    if not isinstance(formation, Formation) or not isinstance(point, Point):
        return None
    return formation.in_ranks_and_files(point)


def tally(line: str, weighted: Iterable[tuple[Fraction | None, Any]], *, ways: int, reason: str | None = None,
          how: str | None = None, seed: int | None = None, planned: int | None = None, cut: bool = False) -> Odds:
    """Add up `weighted` (each result with its exact chance, or None for one of `ways` equally
    likely throws) into :class:`Odds`."""
    exact = reason is None
    # Every chance as an integer over one common denominator while adding up (Fraction's own
    # addition reduces at every step), made a fraction again at the end.
    weighted = list(weighted)
    common = common_denominator([c for c, _ in weighted if c is not None]) if exact else ways
    if not exact:
        weighted = [(None, r) for _, r in weighted]
    by_label: dict[str, int] = defaultdict(int)
    by_class: dict[str, int] = defaultdict(int)
    note = None
    by_value: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    grid: list[list[int]] | None = None
    landed = 0
    rank_sum = file_sum = 0.0
    for chance, result in weighted:
        w = 1 if chance is None else chance.numerator * (common // chance.denominator)
        where = landing_point(result)
        if where is not None:
            landed += w
            rank_sum += float(w) * where[0]
            file_sum += float(w) * where[1]
        o = outcome(result)
        by_label[o.label] += w
        by_class[outcome_class(result)] += w
        note = note or profile_note(result)
        for name, n in o.numbers.items():
            by_value[name][n] += w
        models = hit_models(result)
        if models is not None:
            ranks, files, hit = models
            if grid is None:
                grid = [[0] * files for _ in range(ranks)]
            for rank, file in hit:
                if 1 <= rank <= len(grid) and 1 <= file <= len(grid[0]):
                    grid[rank - 1][file - 1] += w

    def chance(p: Fraction) -> Chance:
        if exact:
            return Chance(float(p), p, None)
        return Chance(float(p), None, math.sqrt(float(p) * (1 - float(p)) / ways))

    def share(n: int) -> Fraction:
        return Fraction(n, common)

    outcomes = tuple((label, chance(share(n))) for label, n in sorted(by_label.items(), key=lambda kv: (-kv[1], kv[0])))
    names = [n for n in (*NUMBERS, "destroyed") if n in by_value]
    expected = tuple((name, float(share(sum(v * n for v, n in by_value[name].items())))) for name in names)
    distributions = tuple((name, tuple((v, chance(share(n))) for v, n in sorted(by_value[name].items())))
                          for name in names if name != "destroyed")
    cells = tuple(tuple(n / common for n in row) for row in grid) if grid else ()
    landing = (rank_sum / landed, file_sum / landed, landed / common) if landed else None
    order = {name: i for i, name in enumerate(CLASSES)}
    classes = tuple((name, chance(share(n))) for name, n in sorted(
        by_class.items(), key=lambda kv: (order.get(kv[0], len(order)), -kv[1], kv[0])))
    return Odds(line, exact, ways, reason, outcomes, expected, distributions, cells, how, landing,
                None if exact else seed, None if exact else (planned or ways), cut and not exact, classes, note)


def percent(c: Chance) -> str:
    text = f"{c.value * 100:.1f}%"
    if c.exact is not None and c.exact.denominator <= 1296 and c.exact not in (0, 1):
        text += f" ({c.exact.numerator}/{c.exact.denominator})"
    if c.error is not None:
        text += f" ± {c.error * 100:.1f}"
    return text


def method_line(o: Odds) -> str:
    if o.exact and o.exact_how:
        return f"Exact: {o.exact_how}, through the same procedure the referee runs."
    if o.exact:
        return f"Exact: every way the dice can fall ({o.ways:,}), through the same procedure the referee runs."
    return (f"Estimated: {throws(o)} of the bot's dice through the referee's own procedure ({o.reason}); "
            "each chance ± its standard error" + ("; the time bound cut the throws short, so on a faster machine "
                                                  "the digits differ." if o.cut else "."))


def throws(o: Odds) -> str:
    """An estimate's throws and their seed: anyone can repeat them, on any machine."""
    made = f"{o.ways:,} of {o.planned:,} throws" if o.cut and o.planned else f"{o.ways:,} throws"
    return made if o.seed is None else f"{made} (seed {o.seed})"


SHOWN_CLASSES = 6


def classes_line(o: Odds) -> str:
    """``No effect 50.0% (1/2) · glancing 16.7% (1/6) · penetrating 33.3% (1/3)``: the outcome
    classes, in the order a player asks about them."""
    shown = [f"{name} {percent(c)}" for name, c in o.classes[:SHOWN_CLASSES]]
    if len(o.classes) > SHOWN_CLASSES:
        shown.append(f"and {len(o.classes) - SHOWN_CLASSES} more")
    text = " · ".join(shown)
    return text[:1].upper() + text[1:]


def picture_classes(o: Odds) -> str:
    """:func:`classes_line` as the picture's title writes it: the percentages alone, no fractions."""
    shown = [f"{name} {c.value * 100:.1f}%" for name, c in o.classes[:SHOWN_CLASSES]]
    if len(o.classes) > SHOWN_CLASSES:
        shown.append(f"and {len(o.classes) - SHOWN_CLASSES} more")
    text = " · ".join(shown) or f"Odds: /{o.line}"
    return text[:1].upper() + text[1:]


def outcome_lines(o: Odds) -> list[str]:
    lines = [f"{label}: {percent(c)}" for label, c in o.outcomes[:SHOWN_OUTCOMES]]
    if len(o.outcomes) > SHOWN_OUTCOMES:
        rest = sum(c.value for _, c in o.outcomes[SHOWN_OUTCOMES:])
        lines.append(f"and {len(o.outcomes) - SHOWN_OUTCOMES} more outcomes: {rest * 100:.1f}% together")
    return lines


def distribution_line(values: tuple[tuple[int, Chance], ...]) -> str:
    shown = " · ".join(f"{v}: {c.value * 100:.1f}%" for v, c in values[:SHOWN_VALUES])
    if len(values) > SHOWN_VALUES:
        shown += f" · and {len(values) - SHOWN_VALUES} more"
    return shown


def odds_json(o: Odds) -> dict[str, Any]:
    def c(ch: Chance) -> dict[str, Any]:
        return {"chance": ch.value, "exact": None if ch.exact is None else f"{ch.exact.numerator}/{ch.exact.denominator}",
                "error": ch.error}

    return {
        "line": o.line, "method": "exact" if o.exact else "estimated", "ways": o.ways, "reason": o.reason,
        "how": o.exact_how, "seed": o.seed, "throws_planned": o.planned, "cut": o.cut,
        "classes": [{"class": name, **c(ch)} for name, ch in o.classes],
        "note": o.note,
        "outcomes": [{"outcome": label, **c(ch)} for label, ch in o.outcomes],
        "expected": dict(o.expected),
        "distributions": {name: [{"value": v, **c(ch)} for v, ch in values] for name, values in o.distributions},
        "landing_centre": None if o.landing is None else {
            "ranks_from_front": round(o.landing[0], 4), "files_from_left": round(o.landing[1], 4),
            "lands": o.landing[2]},
    }


def how(o: Odds) -> str:
    if o.exact and o.exact_how:
        return f"exact: {o.exact_how}"
    if o.exact:
        return f"exact: every way the dice can fall ({o.ways:,})"
    worst = max((c.error or 0.0) for _, c in o.outcomes)
    return f"estimated: {throws(o)}, each chance within ±{worst * 100:.1f}% (one standard error)"


def picture_of(first: Odds, second: Odds | None = None) -> OddsPicture:
    """What the /odds picture shows: the first shot's target shaded by each model's chance of
    being hit, and a bar per outcome, named and numbered as the words name them (``no hit``,
    ``misfire: Malfunction``, ``0 slain`` apart: never folded together), the second shot's
    beside; in count order (outcomes that are not a count first, in the words' order)."""
    labels = [label for label, _ in first.outcomes] + (
        [label for label, _ in second.outcomes if label not in dict(first.outcomes)] if second else [])
    a = {label: c.value for label, c in first.outcomes}
    b = {label: c.value for label, c in second.outcomes} if second else {}
    bars = [(label, a.get(label, 0.0), b.get(label, 0.0) if second else None) for label in labels]
    title = "Outcomes"
    if len(bars) > BARS_IN_PICTURE:  # the likeliest, still shown in count order
        kept = {bar[0] for bar in sorted(bars, key=lambda bar: -(bar[1] + (bar[2] or 0)))[:BARS_IN_PICTURE]}
        title += f" (the {BARS_IN_PICTURE} likeliest of {len(bars)})"
        bars = [bar for bar in bars if bar[0] in kept]
    bars.sort(key=lambda bar: _count_order(bar[0], labels))
    grid_title = "Chance each model is hit (darker: likelier)"
    if second is not None:
        grid_title += f", by /{first.line}"
    # The picture leads as the words do (issue 28 item 8): one shot's title is its outcome classes
    # (hit or miss, glancing or penetrating, holds or falls, slain), the line it prices under it.
    return OddsPicture(
        title=picture_classes(first) if second is None else f"Odds: /{first.line} and /{second.line}",
        subtitle=f"Odds of /{first.line} · {how(first)}" if second is None else f"first {how(first)}; second {how(second)}",
        bars_title=title, bars=tuple(bars), grid=first.grid, grid_title=grid_title,
        landing=None if first.landing is None or not first.grid else first.landing[:2],
        legend=() if second is None else (f"/{first.line}", f"/{second.line}"),
    )


def _count_order(label: str, labels: list[str]) -> tuple:
    """Outcomes that are not a count (no hit, misfire) first in the words' order, then counts
    (``0 slain``, ``1 slain``, ``2 hits``) from the least."""
    words = label.split(" ", 1)
    if words[0].isdigit():
        return (1, words[1] if len(words) > 1 else "", int(words[0]))
    return (0, "", labels.index(label))


BARS_IN_PICTURE = 10


def odds_reply(first: Odds, second: Odds | None = None, image: bytes | None = None) -> Reply:
    """The odds of one shot, or of two side by side (``compare``)."""
    both = (first,) if second is None else (first, second)
    title = f"Odds: /{first.line}" if second is None else f"Odds: /{first.line} against /{second.line}"
    # The classes a player names first (hit or miss, glancing or penetrating, holds or falls,
    # slain), then the likeliest outcome in detail.
    lead = "; ".join(f"/{o.line}: {classes_line(o)}" for o in both)
    likeliest = "; ".join(f"/{o.line}: most likely {o.outcomes[0][0]}, {percent(o.outcomes[0][1])}" for o in both)
    if second is None:
        lead = classes_line(first)
        likeliest = f"Most likely: {first.outcomes[0][0]}, {percent(first.outcomes[0][1])}"
    notes = list(dict.fromkeys(o.note for o in both if o.note))
    description = "\n".join([f"**{lead}**", likeliest, method_line(first), *notes])
    embed = discord.Embed(title=title[:256], description=description[:4096], colour=COLOUR_OK)
    summary = [f"{title}: {lead}" if second is None else lead, likeliest, *notes]
    for i, o in enumerate(both):
        tag = "" if second is None else f" ({'first' if i == 0 else 'second'}: /{o.line})"
        lines = outcome_lines(o)
        embed.add_field(name=f"Outcomes{tag}"[:256], value="\n".join(lines)[:1024], inline=second is not None)
        summary += [f"Outcomes{tag}:", *[f"  {x}" for x in lines]]
        if o.expected:
            avg = " · ".join(f"{name} {value:.2f}" for name, value in o.expected)
            embed.add_field(name=f"On average{tag}"[:256], value=avg[:1024], inline=False)
            summary.append(f"On average{tag}: {avg}")
        for name, values in o.distributions:
            if name in ("slain", "hits", "stands_lost", "total") and len(values) > 1:
                text = distribution_line(values)
                embed.add_field(name=f"{name.replace('_', ' ').capitalize()}{tag}"[:256], value=text[:1024], inline=False)
                summary.append(f"{name.replace('_', ' ').capitalize()}{tag}: {text}")
                break
    if second is not None:
        summary.insert(2, method_line(first))
        summary.append(method_line(second))
    else:
        summary.insert(2, method_line(first))
    fields: dict[str, Any] = {"odds": odds_json(first)}
    if second is not None:
        fields["compare"] = odds_json(second)
    embed.set_footer(text="Odds from the same engine that referees the shot: /odds shot:\"...\"")
    if image is not None:
        embed.set_image(url="attachment://odds.png")
    if first.grid:
        fields["odds"]["hit_chance"] = [list(row) for row in first.grid]
    return Reply(embed=embed, image=image, filename="odds.png" if image is not None else "", command="odds",
                 system="any", dice=(), summary=tuple(summary), fields=fields)
