"""Damage Rolls (Warhammer 40,000 trial vehicle rules): a D6 on the Glancing Hit, Penetrating Hit
or Ordnance Hit table, with the tables' fine print and the Notes.

:func:`roll_damage` reads in the book's order: the damage roll (+1 against an open-topped
vehicle), the row it reads; the fine print (no main weapon left, already immobilised, a fast
skimmer that crashes, a slow skimmer that lands, stuns that do not add up); then what a destroyed
vehicle does: the wreck
slews D6" by the scatter die (a HIT flips it), or debris flies over the explosion's reach and
each model in reach takes a wound on a 4+ (saves allowed); then the passengers: a wound on a 4+
each (saves allowed) and pinned when the vehicle is destroyed, all killed when it is annihilated,
out at once when the row makes them get out.

Dice order: the damage roll; the wreck's scatter die and then its D6 (only for an arrow: a HIT
flips the wreck where it lies), or the explosion's D6 reach; each model in reach, nearest first
(the wound D6, then its save when wounded and a save is given); each passenger likewise.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.dice import Dice, DieRoll, RecordingDice
from engine.wh40k.profiles import DamageRow, DamageTable, Outcome, WoundRules
from engine.wh40k.vehicle import VehicleState

OPEN_TOPPED_BONUS = 1


@dataclass(frozen=True, slots=True)
class WoundTest:
    """One model's roll against an exploding or destroyed vehicle."""

    who: str
    """``passenger 3`` or ``model at 2.5"``."""
    distance: float | None
    """The model's inches from the hull's edge (models nearby); None for a passenger."""
    wound: DieRoll
    wounded: bool
    save: DieRoll | None
    """The armour save when it was wounded and a save was given."""
    saved: bool

    @property
    def unsaved(self) -> bool:
        return self.wounded and not self.saved


@dataclass(frozen=True, slots=True)
class Passengers:
    """What happened to the models aboard."""

    models: int
    killed_all: bool
    """Annihilated: every passenger dies, no saves of any kind."""
    must_get_out: bool
    """They must disembark at once (or are placed by the wreck)."""
    pinned: bool
    """Survivors of a destroyed vehicle are pinned for their whole next turn."""
    tests: tuple[WoundTest, ...]
    """Each passenger's wound roll (and save) when the vehicle was destroyed."""

    @property
    def unsaved(self) -> int:
        return self.models if self.killed_all else sum(t.unsaved for t in self.tests)


@dataclass(frozen=True, slots=True)
class Damage:
    """A damage roll and everything it did."""

    table: DamageTable
    die: DieRoll
    modifier: int
    """+1 against an open-topped vehicle."""
    roll: int
    """The roll after the modifier (a 7 reads the last row)."""
    row: DamageRow
    """The row read."""
    counts_as: str | None
    """The row the fine print turns it into ("crew stunned" for an already immobilised vehicle's
    glancing immobilised; "vehicle destroyed" for a fast skimmer that crashes); None when the
    row stands."""
    also: tuple[str, ...]
    """Results on top of the row (``crew stunned`` when no main weapon is left)."""
    notes: tuple[str, ...]
    """The fine print that applied, in our words."""
    destroyed: bool
    wreck_scatter: DieRoll | None
    """The scatter die for a slewing wreck."""
    wreck_die: DieRoll | None
    """The D6 inches it slews (an arrow only)."""
    radius_die: DieRoll | None
    """The D6 of an explosion's reach."""
    radius: int | None
    """The explosion's reach from the hull's edge, inches; None without one."""
    debris: tuple[WoundTest, ...]
    """The models in reach, nearest first."""
    passengers: Passengers | None
    """None when nobody was aboard."""
    landed: bool = False
    """A skimmer that moved 6" or less, immobilised by this roll: it lands where it is and may not
    move again in the game (004:128-130, 004:416); from now on an assault hits it by the distance
    it moved, not only on 6s (004:494)."""
    crew_stunned: bool = False
    """The crew are stunned by this roll (the row, the fine print, or no main weapon left): the
    result a skimmer drifts after (004:386)."""

    @property
    def result(self) -> str:
        """The row's name: ``crew shaken`` ... ``vehicle annihilated``."""
        return self.row.name

    @property
    def flipped(self) -> bool:
        return self.wreck_scatter is not None and self.wreck_scatter.is_hit

    @property
    def slew(self) -> float | None:
        """Inches the wreck slewed; 0 when it flipped; None when it did not slew."""
        if self.wreck_scatter is None:
            return None
        return 0.0 if self.wreck_die is None else float(self.wreck_die.value)


def roll_damage(table: DamageTable, vehicle: VehicleState, dice: Dice, wounds: WoundRules) -> Damage:
    """Roll on `table` against `vehicle` and apply everything the row and its fine print say."""
    die = dice.d6(f"{table.key} damage")
    modifier = OPEN_TOPPED_BONUS if vehicle.open_topped else 0
    roll = die.value + modifier
    row = table.row(roll)
    counts_as: str | None = None
    also: list[str] = []
    notes: list[str] = []
    if modifier:
        notes.append(f"Open-topped: +{modifier} to the damage roll ({die.value} reads {roll}).")
    outcome = row.outcome
    stuns = outcome is Outcome.STUNNED or (outcome is Outcome.ARMAMENT and table.key != "glancing")

    # The fine print.
    if outcome is Outcome.ARMAMENT and table.key == "glancing" and not vehicle.main_weapons:
        also.append("crew stunned")
        stuns = True
        notes.append("No main weapon (S6+) left: a defensive weapon (S5 or less) is destroyed and the crew are stunned too.")
    landed = False
    if outcome is Outcome.IMMOBILISED:
        if vehicle.skimmer_fast:
            counts_as = "vehicle destroyed"
            notes.append("A skimmer moving fast that is immobilised crashes and is destroyed.")
        elif vehicle.skimmer and not vehicle.immobilised:
            landed = True
            notes.append("A skimmer that moved 6\" or less lands where it is and may not move again this game; "
                         "from now on an assault hits it by how far it moved, not only on 6s.")
        elif vehicle.immobilised and table.key == "glancing":
            counts_as = "crew stunned"
            stuns = True
            notes.append("Already immobilised: this counts as crew stunned instead.")
        elif vehicle.immobilised:
            notes.append("Already immobilised: no further effect, but it still may not fire next turn and passengers get out.")
    if stuns and vehicle.stunned:
        notes.append("Stuns do not add up: the crew still miss only their next turn.")
    # A skimmer drifts only when its crew are stunned (Notes: Stun results), not after a penetrating
    # "armament destroyed", which stops it moving and shooting without stunning the crew (004:427).
    crew_stunned = outcome is Outcome.STUNNED or counts_as == "crew stunned" or "crew stunned" in also
    if crew_stunned and vehicle.immobilised:
        # An immobilised skimmer landed and "may not move again in the game" (004:128-130, 004:416):
        # it does not drift; nor does any other immobilised vehicle.
        if vehicle.is_skimmer:
            notes.append("Immobilised, the skimmer has landed and may not move again: it does not drift.")
    elif crew_stunned and vehicle.is_skimmer:  # any skimmer, not only one moving fast
        notes.append("A skimmer with stunned crew drifts D6\" by the scatter die in its next Movement phase, keeping its facing.")
    elif crew_stunned:
        notes.append("If it is a skimmer, however fast it moved, it drifts D6\" by the scatter die in its next Movement phase.")
    destroyed = outcome.destroys or counts_as == "vehicle destroyed"

    # A destroyed vehicle: the wreck slews, or it explodes.
    wreck_scatter = wreck_die = radius_die = None
    radius: int | None = None
    if outcome is Outcome.SLEWS:
        wreck_scatter = dice.scatter("wreck slews")
        if not wreck_scatter.is_hit:
            wreck_die = dice.d6("wreck slew distance")
    if row.radius is not None:
        if row.radius == "D6":
            radius_die = dice.d6("explosion reach")
            radius = radius_die.value
        else:
            radius = int(row.radius)
    debris: list[WoundTest] = []
    if radius is not None:
        for distance in sorted(vehicle.nearby):
            if distance <= radius:
                debris.append(_wound_test(dice, f"model at {distance:g}\"", distance, wounds.debris, vehicle.nearby_save))

    # The passengers.
    passengers = None
    if vehicle.passengers:
        killed_all = outcome is Outcome.ANNIHILATED
        tests: list[WoundTest] = []
        if destroyed and not killed_all:
            for n in range(1, vehicle.passengers + 1):
                tests.append(_wound_test(dice, f"passenger {n}", None, wounds.passenger, vehicle.passenger_save))
        must_get_out = destroyed or (outcome in (Outcome.ARMAMENT, Outcome.IMMOBILISED) and table.key != "glancing")
        passengers = Passengers(vehicle.passengers, killed_all, must_get_out, destroyed and not killed_all, tuple(tests))
    return Damage(
        table, die, modifier, roll, row, counts_as, tuple(also), tuple(notes), destroyed, wreck_scatter, wreck_die,
        radius_die, radius, tuple(debris), passengers, landed, crew_stunned,
    )


def _wound_test(dice: Dice, who: str, distance: float | None, needed: int, save: int | None) -> WoundTest:
    wound = dice.d6(f"wound, {who}")
    wounded = wound.value >= needed
    save_die = dice.d6(f"save, {who}") if wounded and save is not None else None
    saved = save_die is not None and save_die.value >= save
    return WoundTest(who, distance, wound, wounded, save_die, saved)


@dataclass(frozen=True, slots=True)
class DamageOnly:
    """A damage roll made on its own (the ``/40k damage`` command), with every die."""

    damage: Damage
    dice: tuple[DieRoll, ...]
    after: VehicleState | None = None
    """The vehicle after the roll (:func:`state_after`)."""


def damage_roll(table: DamageTable, vehicle: VehicleState, dice: Dice, wounds: WoundRules) -> DamageOnly:
    """Roll on `table` alone, for a hit worked out at the table. Calls ``dice.finish()``."""
    recorded = RecordingDice(dice)
    damage = roll_damage(table, vehicle, recorded, wounds)
    dice.finish()
    return DamageOnly(damage, tuple(recorded.rolled), state_after(vehicle, damage))


def state_after(vehicle: VehicleState, damage: Damage | None) -> VehicleState:
    """The vehicle as the next hit finds it (a second blast hit on an open-topped vehicle, a
    squad's next attack), and as the players should note it: immobilised after an immobilised
    result (a slow skimmer landed: 004:128-130, 004:416); its crew stunned after a stun or a
    result that rocks it (stuns do not add up: 004:386); no passengers aboard once they had to get
    out or were killed. A bounced shot or a destroyed vehicle leaves it as it was (nothing is left
    to damage: the callers stop)."""
    if damage is None or damage.destroyed:
        return vehicle
    changes: dict = {}
    if damage.row.outcome is Outcome.IMMOBILISED and damage.counts_as is None:
        changes["immobilised"] = True
    if damage.crew_stunned or (damage.row.outcome is Outcome.ARMAMENT and damage.table.key != "glancing"):
        changes["stunned"] = True
    p = damage.passengers
    if p is not None and (p.must_get_out or p.killed_all):
        changes.update(passengers=0, passenger_save=None)
    return replace(vehicle, **changes) if changes else vehicle
