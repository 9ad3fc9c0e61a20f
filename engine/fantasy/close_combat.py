"""Close combat rolls that special rules change (Warhammer Fantasy; Special Rules, seed 003; War
Machines in Close Combat, seed 000).

* :func:`strike_order`: Always Strikes First and Always Strikes Last, how they meet and cancel,
  and their Initiative re-roll clauses.
* :func:`make_attacks`: close combat attacks: to hit on the Weapon Skill chart (core rulebook, not
  a seed: 3+ against a lower WS, 5+ against more than double, 4+ otherwise), the re-rolls of
  Hatred and the strike order, then the wounding sequence with the attacks' special rules;
  Devastating Charge's extra Attack; charge bonuses lost against a war machine.
* :func:`impact_hits`, :func:`breath_in_combat`: automatic hits resolved like shooting.
* :func:`combat_result`: the combat result with Fear's bonus and a war machine's lack of flanks
  and rear; the loser's Break test; a war machine never pursues and is destroyed when it breaks.
* :func:`assault_party`: how many models may fight a war machine (Unit Strength 6, never fewer
  than one).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.dice import Dice, DieKind, DieRoll, RecordingDice
from engine.errors import RulesError
from engine.fantasy.profiles import TroopType
from engine.fantasy.psychology import LeadershipTest, check_leadership, take_leadership_test
from engine.fantasy.special_rules import AttackRules, TargetRules, apply_rules
from engine.fantasy.wounding import Profile, WoundRoll, resolve_hits

MAX_STAT = 10
MAX_ATTACKS = 50
ASSAULT_PARTY_UNIT_STRENGTH = 6
"""Seed 000, War Machines in Close Combat: the attackers fight with models worth up to this."""


def _stat(name: str, value: object, low: int = 1, high: int = MAX_STAT) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesError(f"{name} {value!r} is not possible: give {low} to {high}.")


class Strikes(enum.Enum):
    """A side's strike-order special rules."""

    NORMAL = "normal"
    FIRST = "first"
    """Always Strikes First."""
    LAST = "last"
    """Always Strikes Last."""
    BOTH = "both"
    """Both: they cancel out and the model strikes in Initiative order."""

    @property
    def effective(self) -> Strikes:
        return Strikes.NORMAL if self is Strikes.BOTH else self


class Reroll(enum.Enum):
    NONE = "none"
    FAILED = "re-roll failed hits"
    SUCCESSFUL = "must re-roll successful hits"


@dataclass(frozen=True, slots=True)
class Fighter:
    initiative: int
    strikes: Strikes = Strikes.NORMAL

    def __post_init__(self) -> None:
        _stat("Initiative", self.initiative)


@dataclass(frozen=True, slots=True)
class StrikeOrder:
    """Who strikes first, and the re-roll clauses that come with Always Strikes First or Last."""

    first: str | None
    """"attacker" or "defender", or None when both strike at once."""
    reason: str
    attacker_reroll: Reroll
    defender_reroll: Reroll
    notes: tuple[str, ...]


def strike_order(attacker: Fighter, defender: Fighter) -> StrikeOrder:
    """Seed 003: Always Strikes First strikes before everything else; against the same rule, the
    higher Initiative first. Always Strikes Last strikes after everything else; against the same
    rule, the higher Initiative first. A model with both: they cancel, and it uses its
    Initiative. With Always Strikes First and a higher Initiative than the enemy, a model
    re-rolls failed hits; with Always Strikes Last and a lower one, it must re-roll successful
    hits."""
    a, d = attacker.strikes.effective, defender.strikes.effective
    notes = [f"{who}: Always Strikes First and Last cancel out; Initiative order" for who, f in
             (("attacker", attacker), ("defender", defender)) if f.strikes is Strikes.BOTH]

    def by_initiative(why: str) -> tuple[str | None, str]:
        if attacker.initiative == defender.initiative:
            return None, f"{why}: equal Initiative ({attacker.initiative}), both strike at once"
        side = "attacker" if attacker.initiative > defender.initiative else "defender"
        return side, f"{why}: higher Initiative strikes first (I{attacker.initiative} against I{defender.initiative})"

    if a is d:
        why = {Strikes.FIRST: "both Always Strike First", Strikes.LAST: "both Always Strike Last",
               Strikes.NORMAL: "Initiative order"}[a]
        first, reason = by_initiative(why)
    elif Strikes.FIRST in (a, d):
        first = "attacker" if a is Strikes.FIRST else "defender"
        reason = f"the {first} Always Strikes First"
    else:  # one strikes last, the other normally
        first = "defender" if a is Strikes.LAST else "attacker"
        last = "attacker" if first == "defender" else "defender"
        reason = f"the {last} Always Strikes Last"

    def clause(me: Strikes, mine: int, theirs: int) -> Reroll:
        if me is Strikes.FIRST and mine > theirs:
            return Reroll.FAILED
        if me is Strikes.LAST and mine < theirs:
            return Reroll.SUCCESSFUL
        return Reroll.NONE

    ar = clause(a, attacker.initiative, defender.initiative)
    dr = clause(d, defender.initiative, attacker.initiative)
    for who, r in (("attacker", ar), ("defender", dr)):
        if r is Reroll.FAILED:
            notes.append(f"{who}: Always Strikes First with the higher Initiative: re-rolls failed hits")
        elif r is Reroll.SUCCESSFUL:
            notes.append(f"{who}: Always Strikes Last with the lower Initiative: must re-roll successful hits")
    return StrikeOrder(first, reason, ar, dr, tuple(notes))


def to_hit_in_combat(weapon_skill: int, enemy_weapon_skill: int) -> int:
    """The Weapon Skill chart (core rulebook): 3+ against a lower WS, 5+ against more than double
    the attacker's, 4+ otherwise."""
    _stat("Weapon Skill", weapon_skill)
    _stat("Enemy Weapon Skill", enemy_weapon_skill)
    if weapon_skill > enemy_weapon_skill:
        return 3
    if enemy_weapon_skill > 2 * weapon_skill:
        return 5
    return 4


@dataclass(frozen=True, slots=True)
class Blow:
    """One attack's to-hit roll."""

    roll: DieRoll
    reroll: DieRoll | None
    hit: bool


@dataclass(frozen=True, slots=True)
class CombatAttacks:
    """A model's (or unit's) attacks in one round, as rolled."""

    attacks: int
    """Attacks made, Devastating Charge's included."""
    to_hit: int
    reroll: Reroll
    """The to-hit re-roll that applied."""
    blows: tuple[Blow, ...]
    wounds: tuple[WoundRoll, ...]
    """One per hit, in order."""
    profile: Profile
    dice: tuple[DieRoll, ...]
    rules: tuple[str, ...]

    @property
    def hits(self) -> int:
        return sum(b.hit for b in self.blows)

    @property
    def unsaved(self) -> int:
        return sum(w.wounds for w in self.wounds)

    @property
    def slain(self) -> int:
        return self.unsaved // self.profile.wounds


def _to_hit_rolls(dice: Dice, attacks: int, needed: int, reroll: Reroll) -> tuple[Blow, ...]:
    """Every attack's to-hit die, then the re-rolls the rules call for (a die is re-rolled once)."""
    firsts = [dice.d6(f"to hit attack {n}") for n in range(1, attacks + 1)]
    blows = []
    for n, die in enumerate(firsts, 1):
        hit = die.value >= needed
        again = None
        if (reroll is Reroll.FAILED and not hit) or (reroll is Reroll.SUCCESSFUL and hit):
            again = dice.d6(f"to hit attack {n}, re-roll")
            hit = again.value >= needed
        blows.append(Blow(die, again, hit))
    return tuple(blows)


def make_attacks(
    dice: Dice,
    *,
    attacks: int,
    weapon_skill: int,
    enemy_weapon_skill: int,
    strength: int,
    profile: Profile,
    troop: TroopType | None = None,
    attack: AttackRules = AttackRules(),
    target_rules: TargetRules = TargetRules(),
    strike_reroll: Reroll = Reroll.NONE,
    hatred: bool = False,
    devastating_charge: bool = False,
    against_war_machine: bool = False,
    frenzy: bool = False,
) -> CombatAttacks:
    """`attacks` close combat attacks. `strike_reroll` is the clause of the strike order
    (:func:`strike_order`); `hatred` is Hatred in the first round of combat (re-roll failed
    hits); `devastating_charge` a Devastating Charge model charging this turn (+1 Attack), lost
    when charging a war machine (seed 000: chargers lose every charge bonus)."""
    _stat("Attacks", attacks, 1, MAX_ATTACKS)
    _stat("Strength", strength)
    rules: list[str] = []
    made = attacks
    if frenzy:
        made += 1
        rules.append("Frenzy: +1 Attack")
    if devastating_charge:
        if against_war_machine:
            rules.append("Devastating Charge: lost, charging a war machine loses all charge bonuses")
        else:
            made += 1
            rules.append("Devastating Charge: +1 Attack on the charge")
    needed = to_hit_in_combat(weapon_skill, enemy_weapon_skill)
    reroll = strike_reroll
    if hatred:
        rules.append("Hatred: failed hits re-rolled in the first round")
        if reroll is Reroll.SUCCESSFUL:
            rules.append("Hatred and Always Strikes Last's re-roll of successful hits oppose each other: neither applies")
            reroll = Reroll.NONE
        else:
            reroll = Reroll.FAILED
    if strike_reroll is Reroll.FAILED:
        rules.append("Always Strikes First with the higher Initiative: failed hits re-rolled")
    elif strike_reroll is Reroll.SUCCESSFUL and reroll is Reroll.SUCCESSFUL:
        rules.append("Always Strikes Last with the lower Initiative: successful hits re-rolled")
    dice = RecordingDice(dice)
    blows = _to_hit_rolls(dice, made, needed, reroll)
    applied = apply_rules(attack, target_rules, profile, troop)
    hits = [n for n, b in enumerate(blows, 1) if b.hit]
    wounds = resolve_hits(
        dice, names=[f"attack {n}" for n in hits], strength=strength, profile=profile,
        armour_piercing=applied.armour_piercing, multiple_wounds=applied.multiple_wounds,
        reroll_failed_wounds=applied.reroll_failed_wounds, ignores_armour=applied.ignores_armour,
        killing_blow=applied.killing_blow, killing_blow_slays=applied.killing_blow_slays, ward=applied.ward,
    )
    dice.finish()
    return CombatAttacks(made, needed, reroll, blows, wounds, profile, tuple(dice.rolled), (*rules, *applied.rules))


@dataclass(frozen=True, slots=True)
class AutomaticHits:
    """Impact Hits or a Breath Weapon in combat: hits without a to-hit roll, resolved like
    shooting."""

    kind: str
    """"Impact Hits" or "Breath Weapon"."""
    roll: tuple[DieRoll, ...]
    """The dice for the number of hits (D3, D6 or 2D6), or none for a fixed number."""
    out_of_breath: DieRoll | None
    """The D6 a breath weapon used before must roll 4+ on; None when not rolled."""
    rolled_hits: int
    hits: int
    """After the caps: no model hit twice by a breath weapon; none on a charge at a war machine."""
    wounds: tuple[WoundRoll, ...]
    profile: Profile
    dice: tuple[DieRoll, ...]
    rules: tuple[str, ...]
    no_effect: bool = False
    """Immune to a rule of a breath (not a physical attack, 003:70, 003:246): its hits did nothing."""

    @property
    def unsaved(self) -> int:
        return sum(w.wounds for w in self.wounds)

    @property
    def slain(self) -> int:
        return self.unsaved // self.profile.wounds


def _resolve_automatic(dice, kind, count, strength, profile, troop, attack, target_rules, rules, roll, breath=None,
                       cap=None) -> AutomaticHits:
    hits = count if cap is None else min(count, cap)
    if cap is not None and count > cap:
        rules.append(f"{count} hits but only {cap} models: no model is hit twice, the rest are lost")
    applied = apply_rules(attack, target_rules, profile, troop)
    if applied.no_effect:
        hits = 0  # Immune to a rule of an attack that is not physical: it does nothing
    wounds = resolve_hits(
        dice, names=[f"hit {n}" for n in range(1, hits + 1)], strength=strength, profile=profile,
        armour_piercing=applied.armour_piercing, multiple_wounds=applied.multiple_wounds,
        reroll_failed_wounds=applied.reroll_failed_wounds, ignores_armour=applied.ignores_armour,
        killing_blow=applied.killing_blow, killing_blow_slays=applied.killing_blow_slays, ward=applied.ward,
    )
    dice.finish()
    return AutomaticHits(kind, roll, breath, count, hits, wounds, profile, tuple(dice.rolled), (*rules, *applied.rules),
                         applied.no_effect and count > 0)


def impact_hits(
    dice: Dice, *, hits: int | DieKind, strength: int, profile: Profile, troop: TroopType | None = None,
    target_rules: TargetRules = TargetRules(), against_war_machine: bool = False,
) -> AutomaticHits:
    """Impact Hits (n) on the charge: n hits (or D3/D6 rolled), wounding at the model's Strength,
    armour as in close combat; the model's other special rules do not apply. Charging a war
    machine loses every charge bonus, Impact Hits among them (our reading of seed 000)."""
    _stat("Strength", strength)
    dice = RecordingDice(dice)
    rules = ["Impact Hits: automatic hits at the start of the combat, counted in the combat result"]
    if against_war_machine:
        rules.append("Impact Hits: lost, charging a war machine loses all charge bonuses")
        return _resolve_automatic(dice, "Impact Hits", 0, strength, profile, troop, AttackRules(automatic=True),
                                  target_rules, rules, ())
    if isinstance(hits, DieKind):
        die = dice.roll(hits, f"Impact Hits ({hits.value})")
        count, roll = die.value, (die,)
    else:
        _stat("Impact Hits", hits, 1, MAX_ATTACKS)
        count, roll = hits, ()
    return _resolve_automatic(dice, "Impact Hits", count, strength, profile, troop, AttackRules(automatic=True),
                              target_rules, rules, roll)


def breath_in_combat(
    dice: Dice, *, strength: int, models: int, profile: Profile, troop: TroopType | None = None,
    target_rules: TargetRules = TargetRules(), breath_rules: AttackRules = AttackRules(), used_before: bool = False,
) -> AutomaticHits:
    """A Breath Weapon instead of the model's attacks: 2D6 automatic hits on one enemy unit in
    base contact, resolved like shooting at the breath's own Strength and rules (the model's
    other rules do not apply); no model is hit twice, so at most `models` hits. A breath used
    before needs a D6 of 4+ first (1-3: out of breath)."""
    _stat("Strength", strength)
    _stat("Models", models, 1, 200)
    dice = RecordingDice(dice)
    rules = ["Breath Weapon: 2D6 automatic hits, resolved like shooting; counted in the combat result"]
    attack = AttackRules(armour_piercing=breath_rules.armour_piercing, multiple_wounds=breath_rules.multiple_wounds,
                         ignores_armour=breath_rules.ignores_armour, flaming=breath_rules.flaming,
                         killing_blow=breath_rules.killing_blow, magical=breath_rules.magical, automatic=True,
                         physical=False)
    breath = None
    if used_before:
        breath = dice.d6("breath again (4+)")
        if breath.value < 4:
            rules.append(f"Out of breath: rolled {breath.value}, needs 4+; the model may attack normally instead")
            return _resolve_automatic(dice, "Breath Weapon", 0, strength, profile, troop, attack, target_rules,
                                      rules, (), breath)
    first, second = dice.d6("Breath Weapon hits (first D6)"), dice.d6("Breath Weapon hits (second D6)")
    return _resolve_automatic(dice, "Breath Weapon", first.value + second.value, strength, profile, troop, attack,
                              target_rules, rules, (first, second), breath, cap=models)


@dataclass(frozen=True, slots=True)
class CombatSide:
    """One side's combat result score parts (core rulebook's combat resolution, plus Fear)."""

    wounds: int = 0
    ranks: int = 0
    """Rank bonus, 0 to 3."""
    standard: bool = False
    flank: bool = False
    """Fighting the enemy in the flank (+1)."""
    rear: bool = False
    """Fighting the enemy in the rear (+2)."""
    other: int = 0
    causes_fear: bool = False
    fear_double: bool = False
    """Its Fear-causing models' Unit Strength is double the enemy's or more (+2 instead of +1)."""
    immune_to_fear: bool = False
    """Most of its models cause Fear (or it has Immunity (Fear)): the enemy's Fear bonus is ignored."""
    war_machine: bool = False

    def __post_init__(self) -> None:
        _stat("Wounds caused", self.wounds, 0, 200)
        _stat("Rank bonus", self.ranks, 0, 3)
        if isinstance(self.other, bool) or not isinstance(self.other, int) or abs(self.other) > 10:
            raise RulesError(f"Other combat result bonus {self.other!r} is not possible here: give -10 to 10.")


@dataclass(frozen=True, slots=True)
class CombatResult:
    parts: tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]
    """Each side's score, part by part."""
    scores: tuple[int, int]
    winner: str | None
    """"attacker", "defender", or None for a draw."""
    break_test: LeadershipTest | None
    outcome: str
    """What happens next, in words."""
    dice: tuple[DieRoll, ...]


def combat_result(dice: Dice, attacker: CombatSide, defender: CombatSide, *, loser_leadership: int | None = None) -> CombatResult:
    """Score both sides; the loser takes a Break test (2D6 against Leadership less the
    difference) when its Leadership is given. A war machine has no flanks or rear for the
    result, never pursues, and is destroyed when it fails its Break test."""
    check_leadership(loser_leadership)
    if attacker.war_machine and defender.war_machine:
        raise RulesError("Two war machines cannot fight each other: a war machine never charges.")

    def score(me: CombatSide, enemy: CombatSide) -> tuple[tuple[str, int], ...]:
        parts = [("wounds caused", me.wounds)]
        if me.ranks:
            parts.append(("rank bonus", me.ranks))
        if me.standard:
            parts.append(("standard", 1))
        if me.flank:
            parts.append(("flank (none against a war machine)" if enemy.war_machine else "flank", 0 if enemy.war_machine else 1))
        if me.rear:
            parts.append(("rear (none against a war machine)" if enemy.war_machine else "rear", 0 if enemy.war_machine else 2))
        if me.causes_fear:
            if enemy.immune_to_fear:
                parts.append(("Fear (ignored: the enemy is immune)", 0))
            else:
                parts.append(("Fear, double the Unit Strength" if me.fear_double else "Fear", 2 if me.fear_double else 1))
        if me.other:
            parts.append(("other", me.other))
        return tuple(parts)

    a, d = score(attacker, defender), score(defender, attacker)
    sa, sd = sum(v for _, v in a), sum(v for _, v in d)
    dice = RecordingDice(dice)
    winner = None if sa == sd else ("attacker" if sa > sd else "defender")
    test = None
    if winner is None:
        outcome = "A draw: no Break tests; fight on next round."
    else:
        loser = "defender" if winner == "attacker" else "attacker"
        losing, winning = (defender, attacker) if loser == "defender" else (attacker, defender)
        diff = abs(sa - sd)
        words = [f"The {winner} wins by {diff}."]
        if winning.war_machine:
            words.append("A war machine never pursues: its crew hold their ground.")
        if loser_leadership is not None:
            test = take_leadership_test(dice, "Break test", loser_leadership, (("lost the combat by", -diff),))
            if test.passed:
                words.append(f"The {loser} holds.")
            elif losing.war_machine:
                words.append(f"The {loser} fails its Break test: the war machine is destroyed (the crew sabotage it and flee).")
            else:
                words.append(f"The {loser} fails its Break test and flees.")
        else:
            verdict = "; failed, the war machine is destroyed" if losing.war_machine else ""
            words.append(f"The {loser} takes a Break test at Leadership -{diff}{verdict} (give leadership to roll it).")
        outcome = " ".join(words)
    dice.finish()
    return CombatResult((a, d), (sa, sd), winner, test, outcome, tuple(dice.rolled))


def assault_party(models: int, unit_strength: int) -> int:
    """How many of the attackers' models may fight a war machine: models worth up to Unit
    Strength 6 in all, never fewer than one (seed 000)."""
    _stat("Models", models, 1, 200)
    _stat("Unit Strength per model", unit_strength, 1, 10)
    return max(1, min(models, ASSAULT_PARTY_UNIT_STRENGTH // unit_strength))


@dataclass(frozen=True, slots=True)
class WarMachinePanic:
    test: LeadershipTest
    outcome: str
    dice: tuple[DieRoll, ...]


def war_machine_panic(dice: Dice, leadership: int) -> WarMachinePanic:
    """A war machine's Panic test (seed 000): failed, the machine does not flee; the crew dive
    for cover and cannot shoot in their next Shooting phase, though they may still clear a
    misfire."""
    dice = RecordingDice(dice)
    test = take_leadership_test(dice, "Panic test", leadership)
    dice.finish()
    if test.passed:
        outcome = "Passed: the crew carry on."
    else:
        outcome = ("Failed: the war machine does not flee. The crew dive for cover and cannot shoot in their next "
                   "Shooting phase; they may still clear jams and other misfire results.")
    return WarMachinePanic(test, outcome, tuple(dice.rolled))


@dataclass(frozen=True, slots=True)
class Restraint:
    """A unit that beat its foe trying to restrain its pursuit: a Leadership test (core rules),
    with Frenzy's and Hatred's say (seed 003, Frenzy: Berserk Rage; Hatred)."""

    test: LeadershipTest
    reroll: LeadershipTest | None
    """Hatred: a passed test is re-rolled (the second roll stands)."""
    rules: tuple[str, ...]
    dice: tuple[DieRoll, ...]

    @property
    def final(self) -> LeadershipTest:
        return self.reroll if self.reroll is not None else self.test

    @property
    def restrained(self) -> bool:
        return self.final.passed


def restrain_pursuit(dice: Dice, leadership: int, *, won_by: int = 0, frenzy: bool = False, hatred: bool = False) -> Restraint:
    """A victorious unit tests Leadership to hold back from pursuing a fleeing foe. Frenzy: -1
    Leadership for each point the combat was won by. Hatred: a successful test must be re-rolled."""
    _stat("Won by", won_by, 0, 50)
    mods: list[tuple[str, int]] = []
    rules: list[str] = []
    if frenzy and won_by:
        mods.append(("Frenzy, won by " + str(won_by), -won_by))
        rules.append(f"Frenzy: -{won_by} Leadership, the combat was won by {won_by}")
    elif frenzy:
        rules.append("Frenzy: the combat was won by 0, no modifier")
    rec = RecordingDice(dice)
    test = take_leadership_test(rec, "Restraint test", leadership, tuple(mods))
    again = None
    if hatred and test.passed:
        again = take_leadership_test(rec, "Restraint test, Hatred re-roll", leadership, tuple(mods))
        rules.append("Hatred: the passed test is re-rolled")
    elif hatred:
        rules.append("Hatred: only a passed test is re-rolled")
    rec.finish()
    return Restraint(test, again, tuple(rules), tuple(rec.rolled))
