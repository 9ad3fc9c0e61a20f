"""The shooting sequence for any missile weapon (Warhammer Fantasy core rules, with seed 000's
Shooting at War Machines and seed 003's special rules).

:func:`fire_missiles` follows the sequence: roll each shot to hit with Ballistic Skill and the
to-hit modifiers (long range, cover, others), then for the hits roll to wound (Strength against
Toughness), take armour saves (worse by the Strength modifier and Armour Piercing), then ward
saves, then Multiple Wounds; the special rules change those rolls (engine/fantasy/special_rules).

Shooting at a war machine (`crew` given): the attack uses the machine's Toughness and the crew's
armour save; each wound removes a crew model, and when the last one goes the machine is removed.

A crew with models of other profiles (an engineer, a character: `characters` given): seed 000 says
to allocate the hits among the crew as for shooting at characters in a unit (the core rulebook's
Characters chapter). A crew is never five rank-and-file models strong, so each hit is randomised
among the crew models standing, one die per hit with a face for each model (docs/choices.md). A
model takes its hits with its own Wounds and saves against the machine's Toughness; wounds beyond
a character's Wounds are lost, and the ordinary crew lose one model per wound as before.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.dice import Dice, DieRoll, RecordingDice
from engine.errors import RulesError
from engine.fantasy.profiles import ToHitPenalties, TroopType
from engine.fantasy.shooting import MAX_MODIFIER, MAX_SHOTS, Cover, Shot, ToHit, Volley, shoot, to_hit_needed
from engine.fantasy.special_rules import Applied, AttackRules, TargetRules, apply_rules
from engine.fantasy.wounding import Profile, WoundRoll, resolve_hits
from engine.inputs import quote, read_int

MAX_STRENGTH = 10
MAX_CREW = 10
MAX_CHARACTERS = 3
"""Crew models with profiles of their own, at most (an engineer, a character or two)."""
MAX_NAME = 20
CREW = "crew"
"""The name the ordinary crew go by in an allocation."""


@dataclass(frozen=True, slots=True)
class CrewModel:
    """A crew model with a profile of its own (an engineer, a character with the crew): its
    Wounds and saves. Against shooting the machine's Toughness stands for every crew model."""

    name: str
    wounds: int = 1
    save: int | None = None
    """Its armour save (4 for 4+); None: the same as the crew's."""
    ward: int | None = None
    no_save: bool = False
    """It has no armour save even though the crew have one."""


@dataclass(frozen=True, slots=True)
class CrewHit:
    """Which crew model one hit was allocated to, and the die that chose it (None: one model)."""

    shot: int
    model: str
    die: DieRoll | None


@dataclass(frozen=True, slots=True)
class CrewShare:
    """The hits allocated to the ordinary crew together, or to one crew model of its own profile,
    and what they did."""

    model: str
    """:data:`CREW` for the ordinary crew, else the model's name."""
    models: int
    """How many models this share stands for (the ordinary crew's number, or 1)."""
    profile: Profile
    shots: tuple[int, ...]
    wounds: tuple[WoundRoll, ...]
    rules: tuple[str, ...]

    @property
    def unsaved(self) -> int:
        return sum(w.wounds for w in self.wounds)

    @property
    def lost(self) -> int:
        """Models removed: the ordinary crew one per wound; a model of its own profile when its
        Wounds are gone (wounds beyond them are lost)."""
        if self.model == CREW:
            return min(self.models, self.unsaved)
        return int(self.unsaved >= self.profile.wounds)


def read_crew(text: str) -> tuple[int, tuple[CrewModel, ...]]:
    """A crew as players write it: ``3`` (three crew), or ``3, engineer W2 4+`` (three crew and an
    engineer with 2 Wounds and a 4+ save); each model of its own profile after a comma, with
    ``W<n>``, an armour save ``<n>+`` (or ``no save``) and ``ward <n>+``."""
    crew: int | None = None
    characters: list[CrewModel] = []
    for part in (p.strip() for p in text.replace("+,", "+ ,").split(",")):
        if not part:
            continue
        if part.isascii() and part.isdigit():
            if crew is not None:
                raise RulesError(f"Crew: '{quote(text)}' gives the number of ordinary crew twice.")
            crew = read_int(part, "Crew")
            continue
        characters.append(_crew_model(part))
    if crew is None:
        crew = 0
    if len(characters) > MAX_CHARACTERS:
        raise RulesError(f"Crew: {len(characters)} models of their own profile given; at most {MAX_CHARACTERS} fit one command.")
    if not 1 <= crew + len(characters) <= MAX_CREW:
        raise RulesError(f"Crew: '{quote(text)}' is {crew + len(characters)} models; give 1 to {MAX_CREW} crew models left.")
    names = [c.name.lower() for c in characters]
    if len(set(names)) != len(names) or CREW in names:
        raise RulesError(f"Crew: '{quote(text)}': give each model of its own profile a name of its own (not 'crew').")
    return crew, tuple(characters)


def _crew_model(part: str) -> CrewModel:
    words = part.split()
    name: list[str] = []
    wounds, save, ward, no_save = 1, None, None, False
    i = 0
    while i < len(words):
        w = words[i].lower()
        if w.startswith("w") and w[1:].isascii() and w[1:].isdigit():
            wounds = read_int(w[1:], f"Crew: {quote(part)}: Wounds")
        elif w in ("ward", "ward:") and i + 1 < len(words):
            i += 1
            ward = read_int(words[i].rstrip("+"), f"Crew: {quote(part)}: ward save")
        elif w.endswith("++") and w[:-2].isascii() and w[:-2].isdigit():
            ward = read_int(w[:-2], f"Crew: {quote(part)}: ward save")
        elif w.endswith("+") and w[:-1].isascii() and w[:-1].isdigit():
            save = read_int(w[:-1], f"Crew: {quote(part)}: armour save")
        elif w in ("save", "sv") and i + 1 < len(words) and words[i + 1].rstrip("+").isascii() and words[i + 1].rstrip("+").isdigit():
            i += 1
            save = read_int(words[i].rstrip("+"), f"Crew: {quote(part)}: armour save")
        elif w == "no" and i + 1 < len(words) and words[i + 1].lower() in ("save", "armour", "armor"):
            i += 1
            no_save = True
        elif w.isalpha() and w.isascii():
            name.append(words[i])
        else:
            raise RulesError(f"Crew: '{quote(part)}': '{quote(words[i], 20)}' is not a name, W<n>, a save like 4+, "
                             f"'no save' or 'ward 5+'. Example: crew:\"3, engineer W2 4+\".")
        i += 1
    if not name:
        raise RulesError(f"Crew: '{quote(part)}' has no name: write e.g. 'engineer W2 4+'.")
    label = " ".join(name)
    if len(label) > MAX_NAME:
        raise RulesError(f"Crew: the name '{quote(label, 30)}' is too long: at most {MAX_NAME} letters.")
    Profile(1, wounds, save, ward)  # the same bounds as any profile, with the same sentences
    return CrewModel(label, wounds, save, ward, no_save)


@dataclass(frozen=True, slots=True)
class MissileFire:
    """Everything a volley did, in the order it happened."""

    ballistic_skill: int
    long_range: bool
    cover: Cover
    modifier: int
    penalty: int
    """All to-hit penalties together, in points (positive is worse)."""
    to_hit: ToHit
    strength: int
    profile: Profile
    """The target's: for a war machine, the machine's Toughness, its crew as Wounds, the crew's save."""
    troop: TroopType | None
    attack: AttackRules
    target_rules: TargetRules
    applied: Applied
    crew: int | None
    """Crew models left before the volley, when shooting at a war machine (every model, those
    of their own profile included)."""
    dice: tuple[DieRoll, ...]
    volley: Volley
    characters: tuple[CrewModel, ...] = ()
    """Crew models of their own profile, when the crew is mixed."""
    allocation: tuple[CrewHit, ...] = ()
    """Which crew model each hit went to, in the order of the shots (a mixed crew only)."""
    shares: tuple[CrewShare, ...] = ()
    """What the hits did to the ordinary crew and to each model of its own profile (a mixed crew)."""

    @property
    def crew_lost(self) -> int | None:
        """Crew models removed, one per wound; None when the target is not a war machine."""
        if self.crew is None:
            return None
        if self.shares:
            return sum(s.lost for s in self.shares)
        return crew_removed(self.crew, self.volley.unsaved)

    @property
    def machine_destroyed(self) -> bool:
        return self.crew is not None and self.crew_lost >= self.crew


def crew_removed(crew: int, unsaved: int) -> int:
    """An ordinary crew's models removed by a volley's unsaved wounds: one per wound, while any are
    left (the machine goes with the last)."""
    return min(crew, unsaved)


def to_hit_penalty_of(penalties: ToHitPenalties, long_range: bool, cover: Cover, modifier: int) -> int:
    """All the to-hit penalties together, in points (positive is worse): long range, cover, and
    the other modifiers given."""
    return ((penalties.long_range if long_range else 0)
            + {Cover.NONE: 0, Cover.SOFT: penalties.soft_cover, Cover.HARD: penalties.hard_cover}[cover]
            - modifier)


def fire_missiles(
    dice: Dice,
    penalties: ToHitPenalties,
    *,
    shots: int,
    ballistic_skill: int,
    strength: int,
    profile: Profile,
    long_range: bool = False,
    cover: Cover = Cover.NONE,
    modifier: int = 0,
    troop: TroopType | None = None,
    attack: AttackRules = AttackRules(),
    target_rules: TargetRules = TargetRules(),
    crew: int | None = None,
    characters: tuple[CrewModel, ...] = (),
) -> MissileFire:
    """`shots` at BS `ballistic_skill` and Strength `strength` at a target with `profile` (or at a
    war machine of `crew` models: `profile` then holds the machine's Toughness and the crew's
    save, and its Wounds are the crew). `characters`: crew models of their own profile besides
    the `crew` ordinary ones (then `crew` may be 0)."""
    if isinstance(strength, bool) or not isinstance(strength, int) or not 1 <= strength <= MAX_STRENGTH:
        raise RulesError(f"Strength {strength!r} is not possible: give 1 to {MAX_STRENGTH}.")
    if isinstance(shots, bool) or not isinstance(shots, int) or not 1 <= shots <= MAX_SHOTS:
        raise RulesError(f"{shots!r} shots is not possible here: give 1 to {MAX_SHOTS}.")
    if isinstance(modifier, bool) or not isinstance(modifier, int) or abs(modifier) > MAX_MODIFIER:
        raise RulesError(f"To-hit modifier {modifier!r} is not possible here: give -{MAX_MODIFIER} to +{MAX_MODIFIER}.")
    if characters:
        if crew is None:
            crew = 0
        if len(characters) > MAX_CHARACTERS or not 1 <= crew + len(characters) <= MAX_CREW:
            raise RulesError(f"Crew {crew} and {len(characters)} of their own profile is not possible here: "
                             f"give 1 to {MAX_CREW} crew models left, at most {MAX_CHARACTERS} of their own profile.")
        return _fire_at_mixed_crew(dice, penalties, shots=shots, ballistic_skill=ballistic_skill, strength=strength,
                                   profile=profile, long_range=long_range, cover=cover, modifier=modifier, troop=troop,
                                   attack=attack, target_rules=target_rules, crew=crew, characters=characters)
    if crew is not None:
        if not 1 <= crew <= MAX_CREW:
            raise RulesError(f"Crew {crew} is not possible here: give 1 to {MAX_CREW} crew models left.")
        profile = Profile(profile.toughness, crew, profile.save, profile.ward)
    penalty = to_hit_penalty_of(penalties, long_range, cover, modifier)
    to_hit = to_hit_needed(ballistic_skill, penalty)
    applied = apply_rules(attack, target_rules, profile, troop)
    dice = RecordingDice(dice)
    volley = shoot(
        dice, shots=shots, to_hit=to_hit, strength=strength, profile=profile,
        armour_piercing=applied.armour_piercing, multiple_wounds=applied.multiple_wounds,
        reroll_failed_wounds=applied.reroll_failed_wounds, ignores_armour=applied.ignores_armour,
        killing_blow=applied.killing_blow, killing_blow_slays=applied.killing_blow_slays, ward=applied.ward,
    )
    dice.finish()
    return MissileFire(ballistic_skill, long_range, cover, modifier, penalty, to_hit, strength, profile, troop, attack,
                       target_rules, applied, crew, tuple(dice.rolled), volley)


def _fire_at_mixed_crew(
    dice: Dice, penalties: ToHitPenalties, *, shots: int, ballistic_skill: int, strength: int, profile: Profile,
    long_range: bool, cover: Cover, modifier: int, troop: TroopType | None, attack: AttackRules,
    target_rules: TargetRules, crew: int, characters: tuple[CrewModel, ...],
) -> MissileFire:
    """A volley at a war machine whose crew mix profiles: roll to hit; randomise each hit among
    the crew models standing (one die per hit, a face per model: the ordinary crew first, then
    each model of its own profile); then each model's hits to wound against the machine's
    Toughness and saved with its own saves (the ordinary crew's together, then each other model's
    in the order given)."""
    penalty = to_hit_penalty_of(penalties, long_range, cover, modifier)
    to_hit = to_hit_needed(ballistic_skill, penalty)
    dice = RecordingDice(dice)
    rolled = shoot(dice, shots=shots, to_hit=to_hit, strength=strength, profile=None)
    # The models a hit can go to: each ordinary crew model, then each model of its own profile.
    faces = [CREW] * crew + [c.name for c in characters]
    who = ", ".join(([f"1-{crew} crew" if crew > 1 else "1 crew"] if crew else [])
                    + [f"{crew + i + 1} {c.name}" for i, c in enumerate(characters)])
    allocation: list[CrewHit] = []
    for n, s in enumerate(rolled.shots, 1):
        if s.hit:
            die = dice.dx(len(faces), f"crew model hit by shot {n} ({who})") if len(faces) > 1 else None
            allocation.append(CrewHit(n, faces[die.value - 1] if die else faces[0], die))
    shares: list[CrewShare] = []
    wound_of: dict[int, WoundRoll] = {}
    main_applied = None
    groups: list[tuple[str, int, Profile]] = []
    if crew:
        groups.append((CREW, crew, Profile(profile.toughness, crew, profile.save, profile.ward)))
    for c in characters:
        save = None if c.no_save else (c.save if c.save is not None else profile.save)
        groups.append((c.name, 1, Profile(profile.toughness, c.wounds, save, c.ward if c.ward is not None else profile.ward)))
    for name, models, model_profile in groups:
        applied = apply_rules(attack, target_rules, model_profile, troop)
        main_applied = main_applied or applied
        mine = tuple(h.shot for h in allocation if h.model == name)
        wounds: tuple[WoundRoll, ...] = ()
        if mine and not applied.no_effect:
            wounds = resolve_hits(
                dice, names=[f"shot {n} ({name})" for n in mine], strength=strength, profile=model_profile,
                multiple_wounds=applied.multiple_wounds, armour_piercing=applied.armour_piercing,
                reroll_failed_wounds=applied.reroll_failed_wounds, ignores_armour=applied.ignores_armour,
                killing_blow=applied.killing_blow, killing_blow_slays=applied.killing_blow_slays, ward=applied.ward,
            )
            if name != CREW:  # wounds beyond the model's own are lost
                wounds = _cap_wounds(wounds, model_profile.wounds)
        wound_of.update(zip(mine, wounds))
        shares.append(CrewShare(name, models, model_profile, mine, wounds, applied.rules))
    dice.finish()
    volley = Volley(tuple(Shot(s.to_hit, s.hit, wound_of.get(n)) for n, s in enumerate(rolled.shots, 1)),
                    to_hit, strength, main_applied.armour_piercing, groups[0][2])
    return MissileFire(ballistic_skill, long_range, cover, modifier, penalty, to_hit, strength, groups[0][2], troop,
                       attack, target_rules, main_applied, crew + len(characters), tuple(dice.rolled), volley,
                       characters, tuple(allocation), tuple(shares))


def _cap_wounds(wounds: tuple[WoundRoll, ...], has: int) -> tuple[WoundRoll, ...]:
    """A model of its own profile loses at most its Wounds: later unsaved wounds are lost. The
    wound that takes its last Wound slays it."""
    out, left = [], has
    for w in wounds:
        taken = min(w.wounds, left)
        left -= taken
        out.append(replace(w, wounds=taken, slain=bool(taken) and left == 0))
    return tuple(out)
