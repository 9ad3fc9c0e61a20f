"""Hypothesis properties of fire_grapeshot: any valid input with the bot's dice gives a record
that keeps the rulebook's invariants; any invalid input raises RulesError.

The expected figures are worked out here, independently of engine/fantasy/shooting.py and
wounding.py: the to-hit score from the Ballistic Skill chart (7 - BS, one worse per point of
penalty, never better than 2+; 7+ to 9+ a 6 then 4+ to 6+; 10+ impossible), Strength 5 against
each Toughness typed in, armour saves 3 worse (S5 -2, AP1 -1).
"""

from __future__ import annotations

import math
import re
import string
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from config.gamedata import fantasy
from tests.engine.replay import assert_replays
from engine.dice import Dice, DieKind, DieRoll, EnteredDice, RandomDice, Roller, split_faces
from engine.errors import DiceError, RulesError
from engine.fantasy.grapeshot import GrapeshotShot, fire_grapeshot
from engine.fantasy.shooting import Cover
from engine.fantasy.wounding import Profile

DATA = fantasy()
GRAPESHOT = DATA.grapeshot
CHART = DATA.misfire_charts["black-powder"]
PENALTIES = DATA.to_hit_penalties

PROPERTY = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
QUICK = settings(max_examples=100, deadline=None)

# The book's numbers, typed in (War Machines: Grapeshot; core rules: Shooting).
RANGE, HALF_RANGE, STRENGTH, AP = 12, 6, 5, 1
COVER_PENALTY = {Cover.NONE: 0, Cover.SOFT: 1, Cover.HARD: 2}
LONG_RANGE_PENALTY = 1
# Strength 5 against Toughness 1-10: the score to wound, None = cannot wound.
S5_TO_WOUND = {1: 2, 2: 2, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 6, 9: None, 10: None}
# An armour save against S5 AP1 (3 worse): None = no save left.
S5_AP1_SAVE = {None: None, 1: 4, 2: 5, 3: 6, 4: None, 5: None, 6: None}


class Recorder(Dice):
    """Passes every request to `inner` and keeps each die it hands back, in order."""

    def __init__(self, inner: Dice) -> None:
        self.inner = inner
        self.rolled: list[DieRoll] = []

    def roll(self, kind: DieKind, purpose: str, *, small_arrow: bool = False) -> DieRoll:
        die = self.inner.roll(kind, purpose, small_arrow=small_arrow)
        assert die.kind is kind and die.purpose == purpose and not small_arrow
        self.rolled.append(die)
        return die

    def finish(self) -> None:
        self.inner.finish()


@dataclass(frozen=True)
class Blast:
    distance: float
    ballistic_skill: int
    cover: Cover
    modifier: int
    profile: Profile | None
    seed: int

    def fire(self, dice: Dice) -> GrapeshotShot:
        return fire_grapeshot(GRAPESHOT, CHART, PENALTIES, self.distance, dice, ballistic_skill=self.ballistic_skill,
                              cover=self.cover, modifier=self.modifier, profile=self.profile)


profiles = st.none() | st.builds(
    Profile,
    toughness=st.integers(1, 10),
    wounds=st.integers(1, 20),
    save=st.none() | st.integers(1, 6),
    ward=st.none() | st.integers(2, 6),
)

distances = (
    st.floats(0, RANGE, allow_nan=False, exclude_min=True)
    | st.integers(1, RANGE)
    | st.sampled_from([HALF_RANGE, math.nextafter(HALF_RANGE, 7), RANGE, 5e-324])
)

valid_blasts = st.builds(
    Blast,
    distance=distances,
    ballistic_skill=st.integers(1, 10),
    cover=st.sampled_from(list(Cover)),
    modifier=st.integers(-3, 3),
    profile=profiles,
    seed=st.integers(0, 2**64 - 1),
)


def expected_needed(b: Blast) -> int:
    penalty = (LONG_RANGE_PENALTY if b.distance > HALF_RANGE else 0) + COVER_PENALTY[b.cover] - b.modifier
    return max(2, 7 - b.ballistic_skill + penalty)


def wound_dice(wound) -> list[DieRoll]:
    return [d for d in (wound.to_wound, wound.save, wound.ward, wound.multiple_wounds) if d is not None]


# --- valid input: the invariants ------------------------------------------------------------------------


@PROPERTY
@given(valid_blasts)
def test_any_valid_blast_keeps_the_invariants(b: Blast):
    recorder = Recorder(RandomDice(b.seed))
    shot = b.fire(recorder)

    # Every die the procedure rolled is in the record, in order, and the bot rolled them all.
    assert shot.dice == tuple(recorder.rolled)
    assert all(d.by is Roller.BOT for d in shot.dice)
    assert [(d.kind, d.purpose) for d in shot.dice[:2]] == [
        (DieKind.ARTILLERY, "shots (artillery die)"), (DieKind.D6, "shots (D6)")]
    assert shot.artillery is shot.dice[0] and shot.shots_die is shot.dice[1]

    # What was asked, and the to-hit score.
    assert shot.weapon is GRAPESHOT and shot.unit == "in"
    assert (shot.distance, shot.ballistic_skill, shot.cover, shot.modifier, shot.profile) == (
        b.distance, b.ballistic_skill, b.cover, b.modifier, b.profile)
    assert shot.long_range is (b.distance > HALF_RANGE)
    needed = expected_needed(b)
    assert shot.to_hit.needed == needed
    event(f"needs {needed}+" if needed <= 9 else "cannot hit")

    if shot.artillery.is_misfire:
        event("misfire")
        assert not shot.fired and shot.shots == 0 and shot.volley is None
        assert len(shot.dice) == 3
        assert (shot.dice[2].kind, shot.dice[2].purpose) == (DieKind.D6, "Black Powder Misfire Chart")
        assert shot.misfire.roll is shot.dice[2] and shot.misfire.chart is CHART
        assert shot.misfire.row.low <= shot.misfire.roll.value <= shot.misfire.row.high
        return
    assert shot.fired and shot.misfire is None

    # Shots: the artillery die plus the D6.
    v = shot.volley
    assert shot.shots == shot.artillery.value + shot.shots_die.value
    assert 3 <= shot.shots <= 16 and len(v.shots) == shot.shots
    assert (v.strength, v.armour_piercing, v.to_hit, v.profile) == (STRENGTH, AP, shot.to_hit, b.profile)

    # To hit, shot by shot.
    for n, s in enumerate(v.shots, 1):
        faces = [d.value for d in s.to_hit]
        assert all(d.kind is DieKind.D6 for d in s.to_hit)
        assert [d.purpose for d in s.to_hit] == [f"to hit shot {n}", f"to hit shot {n}, after the 6"][:len(s.to_hit)]
        if needed >= 10:
            assert faces == [] and not s.hit
        elif needed <= 6:
            assert len(faces) == 1 and s.hit is (faces[0] >= needed and faces[0] != 1)
        elif faces[0] == 6:
            assert len(faces) == 2 and s.hit is (faces[1] >= needed - 3)
        else:
            assert len(faces) == 1 and not s.hit
    assert v.hits == sum(s.hit for s in v.shots) <= shot.shots
    event("some hits" if v.hits else "no hits")

    # Every die in phase order: the shots, every to-hit die, then the wounding steps for all hits.
    # The first die of every shot, then the second dice (after 6s, when more than 6 is needed).
    to_hit_dice = [s.to_hit[0] for s in v.shots if s.to_hit] + [s.to_hit[1] for s in v.shots if len(s.to_hit) > 1]
    assert list(shot.dice[2:2 + len(to_hit_dice)]) == to_hit_dice
    rest = list(shot.dice[2 + len(to_hit_dice):])
    if b.profile is None:
        assert rest == [] and all(s.wound is None for s in v.shots)
        assert (v.unsaved, v.models_slain) == (0, 0)
        return
    wounds = [s.wound for s in v.shots if s.hit]
    assert all(s.wound is None for s in v.shots if not s.hit)
    steps = [[w.to_wound for w in wounds], [w.save for w in wounds], [w.ward for w in wounds],
             [w.multiple_wounds for w in wounds]]
    assert rest == [d for step in steps for d in step if d is not None]
    hit_shots = [n for n, s in enumerate(v.shots, 1) if s.hit]
    for n, w in zip(hit_shots, wounds):
        assert [d.purpose.rsplit(" shot ", 1)[1] for d in wound_dice(w)] == [str(n)] * len(wound_dice(w))

    # Each hit: S5 against the Toughness, the save 3 worse, the ward as it is, no Multiple Wounds.
    p = b.profile
    for w in wounds:
        assert w.strength == STRENGTH and w.multiple_wounds is None
        assert w.to_wound_needed == S5_TO_WOUND[p.toughness]
        if w.to_wound_needed is None:
            assert w.to_wound is None and not w.wounded
        else:
            assert w.wounded is (w.to_wound.value >= w.to_wound_needed)
        if not w.wounded:
            assert (w.save, w.ward, w.saved, w.wounds) == (None, None, False, 0)
            continue
        assert w.save_needed == S5_AP1_SAVE[p.save]
        assert (w.save is None) is (w.save_needed is None)
        by_armour = w.save is not None and w.save.value >= w.save_needed
        assert (w.ward is not None) is (not by_armour and p.ward is not None)
        by_ward = w.ward is not None and w.ward.value >= p.ward
        assert w.saved is (by_armour or by_ward)
        assert w.wounds == (0 if w.saved else 1)
        assert w.slain is (w.wounds == p.wounds)
    # At most one wound a hit: grapeshot has no Multiple Wounds.
    assert v.unsaved == sum(w.wounds for w in wounds) <= v.hits
    assert v.models_slain == v.unsaved // p.wounds
    event("some unsaved" if v.unsaved else "none unsaved")


@PROPERTY
@given(valid_blasts)
def test_entering_the_bots_faces_replays_the_same_blast(b: Blast):
    assert_replays(b.fire, b.seed)


# --- invalid input: RulesError --------------------------------------------------------------------------


def valid_other(draw) -> dict:
    return {
        "ballistic_skill": draw(st.integers(1, 10)), "cover": draw(st.sampled_from(list(Cover))),
        "modifier": draw(st.integers(-3, 3)),
    }


@QUICK
@given(
    st.floats(max_value=0) | st.floats(min_value=RANGE, exclude_min=True) | st.just(math.nan)
    | st.integers(max_value=0) | st.integers(min_value=RANGE + 1),
    st.data(),
)
def test_a_target_out_of_range_is_a_rules_error(distance, data):
    with pytest.raises(RulesError, match=f"outside grapeshot's range: the target must be within {RANGE}\""):
        fire_grapeshot(GRAPESHOT, CHART, PENALTIES, distance, RandomDice(0), **valid_other(data.draw))


@QUICK
@given(st.integers(max_value=0) | st.integers(min_value=11) | st.booleans() | st.floats(1, 10), st.data())
def test_an_impossible_ballistic_skill_is_a_rules_error(bs, data):
    other = valid_other(data.draw) | {"ballistic_skill": bs}
    with pytest.raises(RulesError, match="Ballistic Skill .* is not possible: give 1 to 10"):
        fire_grapeshot(GRAPESHOT, CHART, PENALTIES, data.draw(distances), RandomDice(0), **other)


@QUICK
@given(st.integers(max_value=-4) | st.integers(min_value=4) | st.booleans() | st.floats(-3, 3), st.data())
def test_an_impossible_modifier_is_a_rules_error(modifier, data):
    other = valid_other(data.draw) | {"modifier": modifier}
    with pytest.raises(RulesError, match=r"To-hit modifier .* is not possible here: give -3 to \+3"):
        fire_grapeshot(GRAPESHOT, CHART, PENALTIES, data.draw(distances), RandomDice(0), **other)


def is_face(token: str) -> bool:
    try:
        return split_faces(token) == (token.upper(),)
    except DiceError:
        return False


junk = st.text(alphabet=string.ascii_letters + string.digits + "@.#-+!?/", min_size=1, max_size=6).filter(
    lambda t: not is_face(t)
)


@QUICK
@given(valid_blasts, junk, st.integers(0, 2))
def test_a_token_that_is_no_face_is_a_dice_error(b: Blast, token, where):
    faces = ["4", "2"]
    faces.insert(where, token)
    with pytest.raises(DiceError, match="is not a die face"):
        b.fire(EnteredDice(" ".join(faces), RandomDice(0)))


@QUICK
@given(valid_blasts, st.sampled_from(["1", "3", "5", "7", "9", "H", "@90", "h@10", "12"]))
def test_a_face_the_artillery_die_lacks_is_a_dice_error(b: Blast, face):
    with pytest.raises(DiceError, match=r"does not fit the artillery die rolled for shots \(artillery die\)"):
        b.fire(EnteredDice(f"{face} 4", RandomDice(0)))


@QUICK
@given(valid_blasts, st.sampled_from(["0", "7", "10", "M", "H", "@0"]), st.integers(0, 40))
def test_a_face_a_d6_lacks_is_a_dice_error_wherever_it_comes(b: Blast, face, at):
    # Replace one D6 of a shot the bot rolled with a face no D6 shows.
    dice = b.fire(RandomDice(b.seed)).dice
    d6s = [i for i, d in enumerate(dice) if d.kind is DieKind.D6]
    i = d6s[at % len(d6s)]
    faces = [d.face for d in dice]
    faces[i] = face
    expected = f"'{face}' (die {i + 1}) does not fit the D6 rolled for {dice[i].purpose}; faces that fit: 1 to 6"
    with pytest.raises(DiceError, match=re.escape(expected)):
        b.fire(EnteredDice(" ".join(faces), RandomDice(0)))


@QUICK
@given(valid_blasts, st.lists(st.sampled_from(["1", "2", "3", "4", "5", "6"]), min_size=1, max_size=4))
def test_faces_left_over_are_a_dice_error(b: Blast, extra):
    faces = [d.face for d in b.fire(RandomDice(b.seed)).dice]
    with pytest.raises(DiceError, match=f"{len(extra)} left over"):
        b.fire(EnteredDice(" ".join(faces + extra), RandomDice(0)))


@QUICK
@given(st.one_of(
    st.fixed_dictionaries({"toughness": st.integers(max_value=0) | st.integers(min_value=11)}),
    st.fixed_dictionaries({"toughness": st.just(4), "wounds": st.integers(max_value=0) | st.integers(min_value=21)}),
    st.fixed_dictionaries({"toughness": st.just(4), "save": st.integers(max_value=0) | st.integers(min_value=7)}),
    st.fixed_dictionaries({"toughness": st.just(4), "ward": st.integers(max_value=1) | st.integers(min_value=7)}),
))
def test_an_impossible_target_profile_is_a_rules_error(bad):
    with pytest.raises(RulesError):
        Profile(**bad)


def test_errors_are_raised_before_any_die_is_rolled(no_dice):
    for kwargs in ({"ballistic_skill": 0}, {"ballistic_skill": 3, "modifier": 5}):
        with pytest.raises(RulesError):
            fire_grapeshot(GRAPESHOT, CHART, PENALTIES, 4, no_dice, **kwargs)
