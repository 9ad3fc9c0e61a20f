"""Siege equipment lists (seed 001, Siege & Fortresses: General siege rules, Siege equipment
lists): a whole siege army's fortifications, siege equipment and siege artillery checked
against the lists' points and limits.

:func:`check_list`, in the book's order:

1. Each item's points, from the list it is in (the army lists' own wall-breachers, cannons and
   rock lobbers, are counted but priced by their army list).
2. Who may buy it: fortifications are the defender's (earthworks either side's); boiling oil the
   defender's; rams, ladders, sows, mantlets and siege towers the attacker's; siege artillery
   either side's.
3. The armies that may not field it: no bombard for Elves of any kindred or Bretonnians.
4. Min/max per 1000 points: the minimums of the army's whole thousands, the maximums of the same
   for an attacker and of the next 1000 up for a defender (General siege rules). The gateway's
   minimum is one gateway (or gateway tower) for a defender who buys fortifications.
5. Wall-breaching artillery: at most two per whole 1000 points, every army.
6. The scenario's own buying rules (Scenarios): the watchtower is played at 2000 points or less a
   side; the attacker may buy only sows or mantlets; the defender may put up to two units inside
   the tower, at three times their points, and may spend up to a quarter of his points on the
   tower's defence (those units, its boiling oil; the units placed within 20 cm count too, but
   they are the army list's and not listed here). Into the breach: the defender should spend
   about half his points on fortifications and pays only for the front side (a guide, given as a
   note, not a broken limit).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from engine.errors import RulesError
from engine.warmaster.profiles import Equipment, Scenario, SiegeRules

MAX_COUNT = 50
MIN_POINTS, MAX_POINTS = 100, 20000


@dataclass(frozen=True, slots=True)
class ListLine:
    item: Equipment
    count: int

    @property
    def cost(self) -> int:
        return self.item.cost * self.count


@dataclass(frozen=True, slots=True)
class ListCheck:
    points: int
    defender: bool
    army: str | None
    lines: tuple[ListLine, ...]
    minimum_limits: int
    """The army size (points) whose minimum limits apply."""
    maximum_limits: int
    """The army size (points) whose maximum limits apply."""
    breaching: int
    breaching_allowed: int
    problems: tuple[str, ...]
    """Each broken limit: what, and which limit."""
    scenario: Scenario | None = None
    garrison: tuple[int, ...] = ()
    """The army-list points of each unit placed inside the watchtower."""
    garrison_cost: int = 0
    """What those units cost in this scenario (three times their points)."""
    notes: tuple[str, ...] = ()
    """The scenario's guides that are not limits (into the breach: about half on fortifications)."""

    @property
    def cost(self) -> int:
        """Points the listed items cost (the army lists' own machines not included)."""
        return sum(line.cost for line in self.lines)

    @property
    def ok(self) -> bool:
        return not self.problems


def kindred(rules: SiegeRules, army: str) -> str | None:
    """The kindred an army name belongs to ("Dark Elf", "Sea Elves": elves; "Bretonnia": bretonnians),
    or None for an army the rules know outside any kindred; a name it cannot place is refused."""
    words = re.findall(r"[a-z]+", army.lower())
    for kin, forms in rules.kindreds:
        if any(w in forms for w in words):
            return kin
    known = {" ".join(re.findall(r"[a-z]+", a.lower())) for a in rules.armies}
    if " ".join(words) not in known and " ".join(w for w in words if w != "and") not in known:
        raise RulesError(f"Army '{army.strip()[:40]}': not an army the bot can place; give one of: {', '.join(rules.armies)}.")
    return None


def limits(points: int, defender: bool) -> tuple[int, int]:
    """The army sizes whose minimum and maximum limits apply (General siege rules)."""
    thousands = max(1, points // 1000)
    maximum = max(1, math.ceil(points / 1000)) if defender else thousands
    return thousands * 1000, maximum * 1000


def check_list(rules: SiegeRules, points: int, items: tuple[tuple[Equipment, int], ...], *, defender: bool,
               army: str | None = None, extra_breaching: int = 0, scenario: Scenario | None = None,
               garrison: tuple[int, ...] = ()) -> ListCheck:
    """Check `items` ((item, how many), each item once) for a `points` army on the defender's or
    the attacker's side; `army` names the army (for the bombard); `extra_breaching` counts
    wall-breachers not listed; `scenario` adds its buying rules, `garrison` the army-list points of
    the units the defender places inside the watchtower."""
    if not MIN_POINTS <= points <= MAX_POINTS:
        raise RulesError(f"{points} points: give {MIN_POINTS} to {MAX_POINTS}.")
    keys = [item.key for item, _ in items]
    if len(set(keys)) != len(keys):
        raise RulesError(f"{', '.join(sorted({k for k in keys if keys.count(k) > 1}))}: name each item once, with its count.")
    for item, n in items:
        if not 1 <= n <= MAX_COUNT:
            raise RulesError(f"{item.name} x{n}: give 1 to {MAX_COUNT}.")
    if not 0 <= extra_breaching <= 100:
        raise RulesError(f"{extra_breaching} wall-breaching artillery: give 0 to 100.")
    kin = kindred(rules, army) if army is not None else None
    side = "defender" if defender else "attacker"
    low, high = limits(points, defender)
    problems: list[str] = []
    lines = tuple(ListLine(item, n) for item, n in items)
    for line in lines:
        item, n = line.item, line.count
        # 2. Who may buy it.
        if item.side not in ("both", side):
            problems.append(f"{item.name}: the {item.side}'s only, not the {side}'s.")
        # 3. Armies that may not field it: by kindred ("Elves of any kindred").
        if kin is not None and kin in item.not_for:
            problems.append(f"{item.name}: {army.strip().title()} may not field one.")
        # 4. Maximums per 1000 points.
        if item.max is not None and n > item.max * (high // 1000):
            problems.append(f"{item.name} x{n}: at most {item.max} per 1000 points, {item.max * (high // 1000)} "
                            f"for a {high}-point {side}'s maximums.")
    # 4. Minimums: the gateway for a fortified defender.
    fortified = any(line.item.list == "fortification" and line.item.key != "earthwork" for line in lines)
    gates = sum(line.count for line in lines if line.item.key in ("gateway", "gateway-tower"))
    minimums = [item for item, _ in items if item.min]
    for item in minimums:
        have = sum(line.count for line in lines if line.item.key == item.key)
        if have < item.min and item.key != "gateway":
            problems.append(f"{item.name} x{have}: at least {item.min * (low // 1000)} for a {low}-point army.")
    if defender and fortified and gates == 0:
        problems.append("Gateway: a defender who buys fortifications needs at least one gateway (or gateway tower).")
    # 5. Wall-breaching artillery.
    breaching = sum(line.count for line in lines if line.item.breaching) + extra_breaching
    allowed = rules.breaching_per_1000 * (low // 1000)
    if breaching > allowed:
        problems.append(f"Wall-breaching artillery x{breaching}: at most {rules.breaching_per_1000} per whole 1000 points, "
                        f"{allowed} for {points} points.")
    # 6. The scenario's buying rules.
    garrison_cost, notes = scenario_rules(scenario, points, lines, defender, garrison, problems)
    return ListCheck(points, defender, army, lines, low, high, breaching, allowed, tuple(problems), scenario, tuple(garrison),
                     garrison_cost, notes)


def scenario_rules(scenario: Scenario | None, points: int, lines: tuple[ListLine, ...], defender: bool,
                   garrison: tuple[int, ...], problems: list[str]) -> tuple[int, tuple[str, ...]]:
    """The scenario's buying rules: broken ones added to `problems`; returns the garrison's cost
    and the scenario's notes."""
    if garrison and (scenario is None or not scenario.garrison_units):
        raise RulesError("Units inside the tower are bought only in the watchtower scenario: give scenario watchtower, or leave them out.")
    if garrison and not defender:
        raise RulesError("Only the defender places units inside the watchtower: leave them out for the attacker.")
    for n in garrison:
        if not 1 <= n <= MAX_POINTS:
            raise RulesError(f"A unit of {n} points inside the tower: give its army-list points, 1 to {MAX_POINTS}.")
    if scenario is None:
        return 0, ()
    notes: list[str] = []
    if scenario.max_points and points > scenario.max_points:
        problems.append(f"{scenario.name}: played with {scenario.max_points} points or less a side, not {points}.")
    if not defender and scenario.attacker_buys:
        names = " or ".join(f"{k.replace('-', ' ')}s" if not k.endswith("s") else k for k in scenario.attacker_buys)
        for line in lines:
            if line.item.list != "army" and line.item.key not in scenario.attacker_buys:
                problems.append(f"{line.item.name}: in {scenario.name.lower()} the attacker may only buy {names}.")
    cost = sum(garrison) * scenario.garrison_cost
    if scenario.garrison_units and defender:
        if len(garrison) > scenario.garrison_units:
            problems.append(f"{len(garrison)} units inside the tower: at most {scenario.garrison_units}.")
        oil = sum(line.cost for line in lines if line.item.key == "boiling-oil")
        share = points // scenario.contingent_share
        if cost + oil > share:
            problems.append(f"The tower's defence costs {cost + oil} points (units inside at {scenario.garrison_cost} times "
                            f"their points: {cost}; boiling oil: {oil}): at most a quarter of {points}, {share}.")
        notes.append(f"The watchtower itself is free; units inside cost {scenario.garrison_cost} times their points; the "
                     "contingent needs a character, and its other units stand within 20 cm (they count in the quarter too).")
    if scenario.fortification_share and defender:
        spent = sum(line.cost for line in lines if line.item.list == "fortification")
        notes.append(f"{scenario.name}: fortifications cost {spent} points; the defender should spend about "
                     f"{points // scenario.fortification_share} (half of {points}) on them and pays only for the front side, "
                     "the one facing the enemy.")
    return cost, tuple(notes)
