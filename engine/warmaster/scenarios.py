"""Siege helpers (seed 001, Siege & Fortresses): the sally gate, the two scenarios' dice, and the
army check for a siege list.

* Sally gate: when a unit leaves or comes back through it, roll 3 dice; a total at least the
  distance (cm) to the nearest enemy leaves the gate open (it then needs a successful order to
  close, and counts as defended while open).
* Into the breach: from the end of turn 7 the game ends on a 4+; it always ends after turn 10.
* The watchtower: from the start of the defender's second turn, the relief force arrives on 5+,
  +1 for each dispatch unit that reached the relief force's table edge. The game lasts 8 turns.
* Army check: the defender's minimum unit limits are those of its points rounded down to the
  1000, its maximum limits those of the points rounded up to the next 1000 (1500 points: the
  minimums of 1000, the maximums of 2000). No army has more than two wall-breaching artillery per
  1000 points (our reading: per whole 1000, at least one 1000); cannons and rock lobbers count.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.dice import Dice, DieRoll, RecordingDice
from engine.errors import RulesError
from engine.warmaster.profiles import UNIT, Scenario, SiegeRules


@dataclass(frozen=True, slots=True)
class SallyGate:
    distance: float
    """cm to the nearest enemy."""
    dice: tuple[DieRoll, ...]
    total: int
    open: bool
    unit: str = UNIT


def sally_gate(rules: SiegeRules, dice: Dice, distance: float) -> SallyGate:
    if not 0 < distance <= 500:
        raise RulesError(f"Distance {distance:g} cm to the nearest enemy: give more than 0, up to 500.")
    rec = RecordingDice(dice)
    rolled = tuple(rec.d6("sally gate") for _ in range(rules.sally_gate_dice))
    rec.finish()
    total = sum(d.value for d in rolled)
    return SallyGate(float(distance), rolled, total, total >= distance)


@dataclass(frozen=True, slots=True)
class ScenarioRoll:
    scenario: Scenario
    turn: int
    roll: DieRoll | None
    """None when no roll is due this turn."""
    bonus: int
    needed: int | None
    happens: bool
    """The game ends (into the breach) or the relief force arrives (the watchtower)."""
    why: str
    dice: tuple[DieRoll, ...]


def into_the_breach_end(scenario: Scenario, dice: Dice, turn: int) -> ScenarioRoll:
    """At the end of `turn`: does the game end?"""
    if not 1 <= turn <= scenario.last_turn:
        raise RulesError(f"Turn {turn}: {scenario.name} lasts at most {scenario.last_turn} turns.")
    rec = RecordingDice(dice)
    if turn < scenario.ends_from_turn:
        rec.finish()
        return ScenarioRoll(scenario, turn, None, 0, None, False, f"the game goes on: no roll before the end of turn {scenario.ends_from_turn}", ())
    if turn == scenario.last_turn:
        rec.finish()
        return ScenarioRoll(scenario, turn, None, 0, None, True, f"the game always ends after turn {scenario.last_turn}", ())
    roll = rec.d6("game end")
    rec.finish()
    ends = roll.value >= scenario.ends_on
    return ScenarioRoll(scenario, turn, roll, 0, scenario.ends_on, ends,
                        f"{roll.value} {'reaches' if ends else 'misses'} {scenario.ends_on}+", (roll,))


def watchtower_relief(scenario: Scenario, dice: Dice, turn: int, dispatches: int = 0) -> ScenarioRoll:
    """At the start of the defender's `turn`: does the relief force arrive?"""
    if not 1 <= turn <= scenario.last_turn:
        raise RulesError(f"Turn {turn}: {scenario.name} lasts {scenario.last_turn} turns.")
    if not 0 <= dispatches <= 10:
        raise RulesError(f"{dispatches} dispatch units: give 0 to 10.")
    bonus = dispatches * scenario.dispatch_bonus
    rec = RecordingDice(dice)
    if turn < scenario.relief_from_turn:
        rec.finish()
        return ScenarioRoll(scenario, turn, None, bonus, None, False,
                            f"no roll before the defender's turn {scenario.relief_from_turn}", ())
    roll = rec.d6("relief force")
    rec.finish()
    arrives = roll.value + bonus >= scenario.relief_on
    return ScenarioRoll(scenario, turn, roll, bonus, scenario.relief_on, arrives,
                        f"{roll.value}{f' + {bonus}' if bonus else ''} {'reaches' if arrives else 'misses'} {scenario.relief_on}+", (roll,))


@dataclass(frozen=True, slots=True)
class ArmyCheck:
    points: int
    defender: bool
    minimum_limits: int
    """The army size whose minimum unit limits apply."""
    maximum_limits: int
    """The army size whose maximum unit limits apply."""
    breaching: int
    breaching_allowed: int
    ok: bool


def army_check(rules: SiegeRules, points: int, *, defender: bool, breaching: int) -> ArmyCheck:
    if not 100 <= points <= 20000:
        raise RulesError(f"{points} points: give 100 to 20000.")
    if not 0 <= breaching <= 100:
        raise RulesError(f"{breaching} wall-breaching artillery: give 0 to 100.")
    thousands = max(1, points // 1000)
    minimum = thousands * 1000
    maximum = max(1, math.ceil(points / 1000)) * 1000 if defender else minimum
    allowed = rules.breaching_per_1000 * thousands
    return ArmyCheck(points, defender, minimum, maximum, breaching, allowed, breaching <= allowed)
