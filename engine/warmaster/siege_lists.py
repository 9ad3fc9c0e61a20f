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
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.errors import RulesError
from engine.warmaster.profiles import Equipment, SiegeRules

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

    @property
    def cost(self) -> int:
        """Points the listed items cost (the army lists' own machines not included)."""
        return sum(line.cost for line in self.lines)

    @property
    def ok(self) -> bool:
        return not self.problems


def limits(points: int, defender: bool) -> tuple[int, int]:
    """The army sizes whose minimum and maximum limits apply (General siege rules)."""
    thousands = max(1, points // 1000)
    maximum = max(1, math.ceil(points / 1000)) if defender else thousands
    return thousands * 1000, maximum * 1000


def check_list(rules: SiegeRules, points: int, items: tuple[tuple[Equipment, int], ...], *, defender: bool,
               army: str | None = None, extra_breaching: int = 0) -> ListCheck:
    """Check `items` ((item, how many), each item once) for a `points` army on the defender's or
    the attacker's side; `army` names the army (for the bombard); `extra_breaching` counts
    wall-breachers not listed."""
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
    side = "defender" if defender else "attacker"
    low, high = limits(points, defender)
    problems: list[str] = []
    lines = tuple(ListLine(item, n) for item, n in items)
    for line in lines:
        item, n = line.item, line.count
        # 2. Who may buy it.
        if item.side not in ("both", side):
            problems.append(f"{item.name}: the {item.side}'s only, not the {side}'s.")
        # 3. Armies that may not field it.
        if army is not None and army.strip().lower() in item.not_for:
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
    return ListCheck(points, defender, army, lines, low, high, breaching, allowed, tuple(problems))
