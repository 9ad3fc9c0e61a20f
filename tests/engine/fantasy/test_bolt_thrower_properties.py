"""Hypothesis properties of fire_bolt_thrower: any valid input with the bot's dice gives a record
that keeps the rulebook's invariants; any invalid input raises RulesError.

The expected figures are worked out here, independently of engine/fantasy/shooting.py,
wounding.py and formation.py: the to-hit score from the Ballistic Skill chart (7 - BS, one worse
per point of penalty, never better than 2+; 7+ to 9+ a 6 then 4+ to 6+; 10+ impossible), the
wound chart for Strength 1-6 typed in as players print it, armour saves worse by one per point
of Strength above 3 and one more for Armour Piercing (1), Multiple Wounds (D3) capped at the
model's Wounds, and the rows and columns a unit shows from each side.
"""

from __future__ import annotations

import math
import re
import string
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from config.gamedata import fantasy
from tests.engine.replay import assert_replays
from engine.dice import Dice, DieKind, DieRoll, EnteredDice, RandomDice, Roller, split_faces
from engine.errors import DiceError, RulesError
from engine.fantasy.bolt_thrower import BoltShot, fire_bolt_thrower
from engine.fantasy.formation import BASE_WIDTHS, MAX_BASE_DEPTH, MAX_FILES, MAX_RANKS, MIN_BASE_DEPTH, Facing, TargetUnit
from engine.fantasy.shooting import Cover
from engine.fantasy.wounding import Profile

DATA = fantasy()
BOLT = DATA.bolt_throwers["bolt-thrower"]
PENALTIES = DATA.to_hit_penalties

PROPERTY = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
QUICK = settings(max_examples=100, deadline=None)

# The book's numbers, typed in (War Machines: Bolt Throwers; core rules: Shooting).
RANGE, HALF_RANGE, STRENGTH, AP, RANKED = 48, 24, 6, 1, 5
COVER_PENALTY = {Cover.NONE: 0, Cover.SOFT: 1, Cover.HARD: 2}
LONG_RANGE_PENALTY = 1

# The wound chart, Strength 1-6 (rows) against Toughness 1-10 (columns); "-" = cannot wound.
WOUND_CHART = """
S1  4 5 6 6 - - - - - -
S2  3 4 5 6 6 - - - - -
S3  2 3 4 5 6 6 - - - -
S4  2 2 3 4 5 6 6 - - -
S5  2 2 2 3 4 5 6 6 - -
S6  2 2 2 2 3 4 5 6 6 -
"""
TO_WOUND = {
    (int(label[1:]), t): None if cell == "-" else int(cell)
    for label, *cells in (line.split() for line in WOUND_CHART.strip().splitlines())
    for t, cell in enumerate(cells, 1)
}


def save_needed(save: int | None, strength: int) -> int | None:
    if save is None:
        return None
    needed = save + max(0, strength - 3) + AP
    return None if needed > 6 else needed


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


class NoDice(Dice):
    def roll(self, kind: DieKind, purpose: str, *, small_arrow: bool = False) -> DieRoll:
        raise AssertionError(f"a {kind.label} was rolled ({purpose}) before the bad input was refused")


@dataclass(frozen=True)
class Bolt:
    target: TargetUnit
    distance: float
    ballistic_skill: int
    cover: Cover
    modifier: int
    seed: int

    def fire(self, dice: Dice) -> BoltShot:
        return fire_bolt_thrower(BOLT, PENALTIES, self.target, self.distance, dice,
                                 ballistic_skill=self.ballistic_skill, cover=self.cover, modifier=self.modifier)


profiles = st.none() | st.builds(
    Profile,
    toughness=st.integers(1, 10),
    wounds=st.integers(1, 4) | st.integers(1, 20),
    save=st.none() | st.integers(1, 6),
    ward=st.none() | st.integers(2, 6),
) | st.builds(  # soft targets, so the bolt often goes deep
    Profile,
    toughness=st.integers(1, 3),
    wounds=st.sampled_from([1, 1, 2]),
    save=st.none() | st.integers(4, 6),
)

# Every shape of fewer than five models.
SMALL = [(r, f) for r in range(1, 5) for f in range(1, 5) if r * f < RANKED]


@st.composite
def targets(draw) -> TargetUnit:
    troop = DATA.troops[draw(st.sampled_from(sorted(DATA.troops)))]
    small = draw(st.booleans())  # half the time fewer than five models, to pick at random
    if small:
        ranks, files = draw(st.sampled_from(SMALL))
    else:
        ranks = draw(st.integers(1, MAX_RANKS))
        files = draw(st.integers(1, MAX_FILES))
    return TargetUnit(
        ranks, files, troop,
        draw(st.sampled_from(BASE_WIDTHS)), draw(st.integers(MIN_BASE_DEPTH, MAX_BASE_DEPTH)),
        draw(st.sampled_from(list(Facing))), draw(profiles),
    )


distances = (
    st.floats(0, RANGE, allow_nan=False, exclude_min=True)
    | st.integers(1, RANGE)
    | st.sampled_from([HALF_RANGE, math.nextafter(HALF_RANGE, 25), RANGE, 5e-324])
)

valid_bolts = st.builds(
    Bolt,
    target=targets(),
    distance=distances,
    ballistic_skill=st.integers(1, 10) | st.integers(3, 10),  # hits more often than misses
    cover=st.sampled_from(list(Cover)),
    modifier=st.integers(-3, 3) | st.integers(0, 3),
    seed=st.integers(0, 2**64 - 1),
)


def expected_needed(b: Bolt) -> int:
    penalty = (LONG_RANGE_PENALTY if b.distance > HALF_RANGE else 0) + COVER_PENALTY[b.cover] - b.modifier
    return max(2, 7 - b.ballistic_skill + penalty)


def wound_dice(wound) -> list[DieRoll]:
    return [d for d in (wound.to_wound, wound.save, wound.ward, wound.multiple_wounds) if d is not None]


def shown(target: TargetUnit) -> tuple[int, int]:
    """(rows, columns) as the machine sees the unit: from a flank the files are the rows."""
    return (target.files, target.ranks) if target.facing is Facing.FLANK else (target.ranks, target.files)


def rank_file(target: TargetUnit, row: int, col: int) -> tuple[int, int]:
    """The unit's own (rank, file) at row `row`, column `col` (from 0) as the machine sees it."""
    if target.facing is Facing.FRONT:
        return row + 1, col + 1
    if target.facing is Facing.REAR:
        return target.ranks - row, col + 1
    return col + 1, row + 1


# --- valid input: the invariants ------------------------------------------------------------------------


@PROPERTY
@given(valid_bolts)
def test_any_valid_shot_keeps_the_invariants(b: Bolt):
    recorder = Recorder(RandomDice(b.seed))
    shot = b.fire(recorder)
    t = b.target

    # Every die the procedure rolled is in the record, in order, and the bot rolled them all.
    assert shot.dice == tuple(recorder.rolled)
    assert all(d.by is Roller.BOT for d in shot.dice)

    # What was asked, and the to-hit score.
    assert shot.weapon is BOLT and shot.target is t and shot.unit == "in"
    assert (shot.distance, shot.ballistic_skill, shot.cover, shot.modifier) == (
        b.distance, b.ballistic_skill, b.cover, b.modifier)
    assert shot.long_range is (b.distance > HALF_RANGE)
    needed = expected_needed(b)
    assert shot.to_hit.needed == needed
    rows, cols = shown(t)
    assert (shot.formation.rows, shot.formation.cols) == (rows, cols)
    assert shot.aimed_model == rank_file(t, 0, (cols - 1) // 2)  # the centre of the facing row

    # To hit: one D6, a second after a 6 when more than 6 is needed, none at 10+.
    faces = [d.value for d in shot.to_hit_dice]
    assert shot.dice[:len(faces)] == shot.to_hit_dice
    assert [d.purpose for d in shot.to_hit_dice] == ["to hit the bolt", "to hit the bolt, after the 6"][:len(faces)]
    if needed >= 10:
        assert faces == [] and not shot.hit
    elif needed <= 6:
        assert len(faces) == 1 and shot.hit is (faces[0] >= needed and faces[0] != 1)
    elif faces[0] == 6:
        assert len(faces) == 2 and shot.hit is (faces[1] >= needed - 3)
    else:
        assert len(faces) == 1 and not shot.hit

    # A miss strikes nobody and rolls no more dice.
    if not shot.hit:
        event("miss")
        assert shot.hits == () and shot.pick == () and shot.dice == shot.to_hit_dice
        return

    # Which column the bolt travels down: the centre for a ranked unit, else picked with a D6.
    ranked = t.ranks * t.files >= RANKED
    assert shot.ranked is ranked
    pick = [d.value for d in shot.pick]
    assert shot.dice[len(faces):len(faces) + len(pick)] == shot.pick
    assert all(d.kind is DieKind.D6 and d.purpose == "which model in the rank is hit" for d in shot.pick)
    if ranked:
        assert pick == []
        col = (cols - 1) // 2
    elif cols == 1:
        assert pick == []
        col = 0
    elif 6 % cols == 0:
        assert len(pick) == 1
        col = (pick[0] - 1) // (6 // cols)
    else:
        assert all(v > cols for v in pick[:-1]) and pick[-1] <= cols
        col = pick[-1] - 1
    event("ranked" if ranked else f"picked among {cols}")

    # Hits: consecutive rows from the facing row, one per row, all in one column, Strength 6 and
    # one less for each, never more rows than the unit has nor more than six.
    hits = shot.hits
    assert 1 <= len(hits) <= min(rows, STRENGTH)
    for i, h in enumerate(hits):
        assert h.row == i + 1
        assert (h.rank, h.file) == rank_file(t, i, col)
        assert shot.formation.cell_of(h.rank, h.file) == (i, col)
        assert h.strength == STRENGTH - i >= 1
    if ranked:
        assert (hits[0].rank, hits[0].file) == shot.aimed_model
    through = len(hits) == min(rows, STRENGTH)  # ranks ran out, or the Strength would fall below 1
    event(f"{len(hits)} struck" + (", all the way" if through else ""))

    p = t.profile
    if p is None:
        # The players roll the wounds: the first model is struck for sure, the rest only if every
        # one before it is slain, so the bolt is followed as far as it could go.
        assert all(h.wound is None for h in hits)
        assert [h.conditional for h in hits] == [i > 0 for i in range(len(hits))]
        assert through
        assert shot.dice == shot.to_hit_dice + shot.pick
        return

    # With a profile: every hit but the last slain; the last slain only if it could go no further.
    assert not any(h.conditional for h in hits)
    assert all(h.wound.slain for h in hits[:-1])
    if hits[-1].wound.slain:
        assert through
    event("last slain" if hits[-1].wound.slain else "last stands")

    # Every die in order: to hit, pick, then each model's to wound, armour, ward, Multiple Wounds.
    assert list(shot.dice) == list(shot.to_hit_dice + shot.pick) + [d for h in hits for d in wound_dice(h.wound)]
    for h in hits:
        who = f"rank {h.rank} file {h.file}"
        w = h.wound
        assert [d.purpose for d in wound_dice(w)] == [
            f"{step} {who}" for step, d in (("to wound", w.to_wound), ("armour save", w.save), ("ward save", w.ward),
                                            ("Multiple Wounds (D3)", w.multiple_wounds)) if d is not None]
        # The hit at its Strength against the Toughness, the save worsened, the ward as it is.
        assert w.strength == h.strength
        assert w.to_wound_needed == TO_WOUND[h.strength, p.toughness]
        if w.to_wound_needed is None:
            assert w.to_wound is None and not w.wounded
        else:
            assert w.wounded is (w.to_wound.value >= w.to_wound_needed)
        if not w.wounded:
            assert (w.save, w.ward, w.multiple_wounds, w.saved, w.wounds, w.slain) == (None, None, None, False, 0, False)
            continue
        assert w.save_needed == save_needed(p.save, h.strength)
        assert (w.save is None) is (w.save_needed is None)
        by_armour = w.save is not None and w.save.value >= w.save_needed
        assert (w.ward is not None) is (not by_armour and p.ward is not None)
        by_ward = w.ward is not None and w.ward.value >= p.ward
        assert w.saved is (by_armour or by_ward)
        if w.saved:
            assert (w.multiple_wounds, w.wounds, w.slain) == (None, 0, False)
            continue
        # Multiple Wounds (D3), at any Strength, never more than the model has.
        if p.wounds == 1:
            assert w.multiple_wounds is None and w.wounds == 1
        else:
            assert w.multiple_wounds.kind is DieKind.D3 and 1 <= w.multiple_wounds.value <= 3
            assert w.wounds == min(w.multiple_wounds.value, p.wounds)
        assert w.slain is (w.wounds == p.wounds)


@PROPERTY
@given(valid_bolts)
def test_entering_the_bots_faces_replays_the_same_shot(b: Bolt):
    assert_replays(b.fire, b.seed)


@PROPERTY
@given(valid_bolts)
def test_the_same_seed_gives_the_same_shot(b: Bolt):
    assert b.fire(RandomDice(b.seed)) == b.fire(RandomDice(b.seed))


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
    targets(),
    st.data(),
)
def test_a_target_out_of_range_is_a_rules_error(distance, target, data):
    with pytest.raises(RulesError, match=f"outside the bolt thrower's range: the target must be within {RANGE}\""):
        fire_bolt_thrower(BOLT, PENALTIES, target, distance, NoDice(), **valid_other(data.draw))


@QUICK
@given(st.integers(max_value=0) | st.integers(min_value=11) | st.booleans() | st.floats(1, 10), targets(), st.data())
def test_an_impossible_ballistic_skill_is_a_rules_error(bs, target, data):
    other = valid_other(data.draw) | {"ballistic_skill": bs}
    with pytest.raises(RulesError, match="Ballistic Skill .* is not possible: give 1 to 10"):
        fire_bolt_thrower(BOLT, PENALTIES, target, data.draw(distances), NoDice(), **other)


@QUICK
@given(st.integers(max_value=-4) | st.integers(min_value=4) | st.booleans() | st.floats(-3, 3), targets(), st.data())
def test_an_impossible_modifier_is_a_rules_error(modifier, target, data):
    other = valid_other(data.draw) | {"modifier": modifier}
    with pytest.raises(RulesError, match=r"To-hit modifier .* is not possible here: give -3 to \+3"):
        fire_bolt_thrower(BOLT, PENALTIES, target, data.draw(distances), NoDice(), **other)


@QUICK
@given(st.one_of(
    st.fixed_dictionaries({"ranks": st.integers(max_value=0) | st.integers(min_value=MAX_RANKS + 1)}),
    st.fixed_dictionaries({"files": st.integers(max_value=0) | st.integers(min_value=MAX_FILES + 1)}),
    st.fixed_dictionaries({"base_width": st.integers().filter(lambda w: w not in BASE_WIDTHS)}),
    st.fixed_dictionaries({"base_depth": st.integers(max_value=MIN_BASE_DEPTH - 1)
                           | st.integers(min_value=MAX_BASE_DEPTH + 1)}),
    st.fixed_dictionaries({"ranks": st.booleans() | st.floats(1, 4)}),
))
def test_an_impossible_target_is_a_rules_error(bad):
    good = {"ranks": 4, "files": 5, "troop": DATA.troops["infantry"], "base_width": 20, "base_depth": 20}
    with pytest.raises(RulesError):
        TargetUnit(**(good | bad))


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


def is_face(token: str) -> bool:
    try:
        return split_faces(token) == (token.upper(),)
    except DiceError:
        return False


junk = st.text(alphabet=string.ascii_letters + string.digits + "@.#-+!?/", min_size=1, max_size=6).filter(
    lambda t: not is_face(t)
)


@QUICK
@given(valid_bolts, junk, st.integers(0, 3))
def test_a_token_that_is_no_face_is_a_dice_error(b: Bolt, token, where):
    faces = [d.face for d in b.fire(RandomDice(b.seed)).dice]
    faces.insert(min(where, len(faces)), token)
    with pytest.raises(DiceError, match="is not a die face"):
        b.fire(EnteredDice(" ".join(faces), NoDice()))


UNFIT = {DieKind.D6: ["0", "7", "10", "M", "H", "@0"], DieKind.D3: ["0", "4", "6", "M", "@90"]}


@QUICK
@given(valid_bolts, st.integers(0, 40), st.integers(0, 4))
def test_a_face_the_die_lacks_is_a_dice_error_wherever_it_comes(b: Bolt, at, which):
    # Replace one die the bot rolled with a face that die cannot show.
    dice = b.fire(RandomDice(b.seed)).dice
    assume(dice)
    i = at % len(dice)
    bad = UNFIT[dice[i].kind][which % len(UNFIT[dice[i].kind])]
    faces = [d.face for d in dice]
    faces[i] = bad
    expected = (f"'{bad}' (die {i + 1}) does not fit the {dice[i].kind.label} rolled for {dice[i].purpose}; "
                f"faces that fit: {dice[i].kind.faces_that_fit}")
    with pytest.raises(DiceError, match=re.escape(expected)):
        b.fire(EnteredDice(" ".join(faces), NoDice()))


@QUICK
@given(valid_bolts, st.lists(st.sampled_from(["1", "2", "3", "4", "5", "6"]), min_size=1, max_size=4))
def test_faces_left_over_are_a_dice_error(b: Bolt, extra):
    faces = [d.face for d in b.fire(RandomDice(b.seed)).dice]
    with pytest.raises(DiceError, match=f"{len(extra)} left over"):
        b.fire(EnteredDice(" ".join(faces + extra), NoDice()))
