"""The shooting sequence of Warhammer Fantasy (core rules, Shooting): the Ballistic Skill chart,
to-hit penalties, scores above 6, and resolving a volley's hits the way players roll them.

The to-hit chart below is typed in by hand as players print it, not computed: BS 1 needs 6+,
each point of BS one better, never better than 2+ (a roll of 1 always misses); each point of
penalty one worse; 7+ is a 6 then 4+, 8+ a 6 then 5+, 9+ a 6 then 6+, 10+ cannot hit.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.dice import Dice, DieKind, DieRoll, EnteredDice, RandomDice, RecordingDice, Roller
from engine.errors import DiceError, RulesError
from engine.fantasy.shooting import MAX_BS, MAX_SHOTS, ToHit, Volley, roll_to_hit, shoot, to_hit_needed
from engine.fantasy.wounding import Profile, WoundRoll, resolve_hit, resolve_hits

# Row = Ballistic Skill 1-10; column = points of to-hit penalty -3 (three points of bonus) to +5.
# The score needed; "-" = cannot hit.
PENALTIES = (-3, -2, -1, 0, 1, 2, 3, 4, 5)
CHART = """
BS1   3 4 5 6 7 8 9 - -
BS2   2 3 4 5 6 7 8 9 -
BS3   2 2 3 4 5 6 7 8 9
BS4   2 2 2 3 4 5 6 7 8
BS5   2 2 2 2 3 4 5 6 7
BS6   2 2 2 2 2 3 4 5 6
BS7   2 2 2 2 2 2 3 4 5
BS8   2 2 2 2 2 2 2 3 4
BS9   2 2 2 2 2 2 2 2 3
BS10  2 2 2 2 2 2 2 2 2
"""
# What a second D6 must show after a 6, for a score above 6.
AFTER_THE_SIX = {7: 4, 8: 5, 9: 6}


def _chart() -> dict[tuple[int, int], int | None]:
    out = {}
    for line in CHART.strip().splitlines():
        label, *cells = line.split()
        assert len(cells) == len(PENALTIES), label
        for penalty, cell in zip(PENALTIES, cells):
            out[int(label[2:]), penalty] = None if cell == "-" else int(cell)
    return out


TO_HIT_CHART = _chart()


def test_the_typed_chart_has_every_bs_and_penalty():
    assert sorted(TO_HIT_CHART) == [(bs, p) for bs in range(1, 11) for p in PENALTIES]
    assert MAX_BS == 10


def test_the_unmodified_column_is_the_ballistic_skill_chart():
    # BS1 6+, BS2 5+, BS3 4+, BS4 3+, BS5 2+, and BS6 or more still 2+.
    assert [TO_HIT_CHART[bs, 0] for bs in range(1, 11)] == [6, 5, 4, 3, 2, 2, 2, 2, 2, 2]


@pytest.mark.parametrize(("bs", "penalty"), sorted(TO_HIT_CHART))
def test_to_hit_chart(bs, penalty):
    to_hit = to_hit_needed(bs, penalty)
    expected = TO_HIT_CHART[bs, penalty]
    if expected is None:
        assert not to_hit.possible and to_hit.needed >= 10
        assert to_hit.describe() == f"{to_hit.needed}+: cannot hit"
        return
    assert to_hit.possible and to_hit.needed == expected
    assert to_hit.first == min(expected, 6)
    assert to_hit.then == AFTER_THE_SIX.get(expected)


def test_to_hit_default_penalty_is_none():
    assert to_hit_needed(3) == to_hit_needed(3, 0) == ToHit(4)


@pytest.mark.parametrize(("needed", "text"), [
    (2, "2+"), (4, "4+"), (6, "6+"),
    (7, "7+ (a 6, then 4+)"), (8, "8+ (a 6, then 5+)"), (9, "9+ (a 6, then 6+)"),
    (10, "10+: cannot hit"), (11, "11+: cannot hit"),
])
def test_to_hit_describe(needed, text):
    assert ToHit(needed).describe() == text


@pytest.mark.parametrize("bs", [0, -1, 11, 99, True, False, 3.0, "3", None])
def test_impossible_ballistic_skill_is_a_rules_error_quoting_it(bs):
    with pytest.raises(RulesError, match=rf"Ballistic Skill {repr(bs).replace('.', '[.]')} is not possible: give 1 to 10"):
        to_hit_needed(bs)


# --- roll_to_hit: one shot -------------------------------------------------------------------------------


def to_hit(faces: str, needed: ToHit, no_dice: Dice) -> tuple[tuple[DieRoll, ...], bool]:
    dice = EnteredDice(faces, no_dice)
    rolled, hit = roll_to_hit(dice, needed, "shot 1")
    dice.finish()  # every face given was used
    assert all(d.kind is DieKind.D6 and d.by is Roller.PLAYER for d in rolled)
    return rolled, hit


@pytest.mark.parametrize("needed", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("face", range(1, 7))
def test_one_die_hits_on_the_score_needed_or_more(no_dice, needed, face):
    rolled, hit = to_hit(str(face), ToHit(needed), no_dice)
    assert [(d.face, d.purpose) for d in rolled] == [(str(face), "to hit shot 1")]
    assert hit is (face >= needed)


@pytest.mark.parametrize("needed", [7, 8, 9])
@pytest.mark.parametrize("face", range(1, 6))
def test_above_six_anything_but_a_six_misses_with_no_second_die(no_dice, needed, face):
    rolled, hit = to_hit(str(face), ToHit(needed), no_dice)
    assert [d.face for d in rolled] == [str(face)] and not hit


@pytest.mark.parametrize("needed", [7, 8, 9])
@pytest.mark.parametrize("second", range(1, 7))
def test_above_six_a_six_then_a_second_die(no_dice, needed, second):
    rolled, hit = to_hit(f"6 {second}", ToHit(needed), no_dice)
    assert [(d.face, d.purpose) for d in rolled] == [("6", "to hit shot 1"), (str(second), "to hit shot 1, after the 6")]
    assert hit is (second >= {7: 4, 8: 5, 9: 6}[needed])


@pytest.mark.parametrize(("bs", "penalty"), [(1, 4), (1, 5), (2, 5)])
def test_ten_or_more_cannot_hit_and_rolls_no_dice(no_dice, bs, penalty):
    needed = to_hit_needed(bs, penalty)
    assert roll_to_hit(no_dice, needed, "shot 1") == ((), False)


@pytest.mark.parametrize(("bs", "penalty"), [(bs, p) for (bs, p), n in sorted(TO_HIT_CHART.items()) if n == 2])
def test_a_one_always_misses_and_a_two_hits_at_best(no_dice, bs, penalty):
    needed = to_hit_needed(bs, penalty)
    assert to_hit("1", needed, no_dice)[1] is False
    assert to_hit("2", needed, no_dice)[1] is True


def test_a_one_misses_even_when_a_score_of_one_is_asked_for(no_dice):
    # to_hit_needed never gives less than 2+, but a ToHit built by hand still cannot hit on a 1.
    assert to_hit("1", ToHit(1), no_dice)[1] is False
    assert to_hit("1", ToHit(-3), no_dice)[1] is False


def test_a_face_the_d6_lacks_is_a_dice_error_naming_the_shot(no_dice):
    with pytest.raises(DiceError, match="does not fit the D6 rolled for to hit shot 1; faces that fit: 1 to 6"):
        to_hit("7", ToHit(4), no_dice)
    with pytest.raises(DiceError, match="rolled for to hit shot 1, after the 6"):
        to_hit("6 M", ToHit(8), no_dice)


# --- shoot: a volley ---------------------------------------------------------------------------------


def phase(die: DieRoll) -> str:
    """Which step of the sequence a die belongs to, from its purpose."""
    for name in ("to hit", "to wound", "armour save", "ward save", "Multiple Wounds"):
        if die.purpose.startswith(name):
            return name
    raise AssertionError(f"a die for {die.purpose!r}")



def volley(faces: str, no_dice: Dice, **kwargs) -> tuple[Volley, list[DieRoll]]:
    """shoot() with every die entered; returns the volley and every die in the order rolled."""
    entered = EnteredDice(faces, no_dice)
    recorder = RecordingDice(entered)
    v = shoot(recorder, **kwargs)
    recorder.finish()  # every face given was used
    assert all(d.by is Roller.PLAYER for d in recorder.rolled)
    return v, recorder.rolled


def test_shoot_rolls_every_to_hit_die_then_wounds_saves_wards_and_multiple_wounds(no_dice):
    # BS 3 (4+), S4 against T4 (4+) W3 with a 5+ armour save (6+ against S4) and a 6+ ward,
    # Multiple Wounds (D3).
    v, rolled = volley(
        "5 2 6 4"  # to hit, shots 1-4: shots 1, 3 and 4 hit
        " 4 6 3"  # to wound, the three hits: shots 1 and 3 wound, shot 4 does not
        " 6 2"  # armour saves for the two wounds: shot 1 saved
        " 1"  # ward save for shot 3's unsaved wound: failed
        " 2",  # Multiple Wounds (D3) for shot 3: 2 wounds
        no_dice, shots=4, to_hit=to_hit_needed(3), strength=4,
        profile=Profile(toughness=4, wounds=3, save=5, ward=6), multiple_wounds=DieKind.D3,
    )
    assert [phase(d) for d in rolled] == ["to hit"] * 4 + ["to wound"] * 3 + ["armour save"] * 2 + [
        "ward save", "Multiple Wounds"]
    assert [d.kind for d in rolled] == [DieKind.D6] * 10 + [DieKind.D3]
    assert [d.purpose for d in rolled] == [
        "to hit shot 1", "to hit shot 2", "to hit shot 3", "to hit shot 4",
        "to wound shot 1", "to wound shot 3", "to wound shot 4",  # each wound die names its shot
        "armour save shot 1", "armour save shot 3",
        "ward save shot 3",
        "Multiple Wounds (D3) shot 3",
    ]

    assert [s.hit for s in v.shots] == [True, False, True, True]
    assert [d.face for s in v.shots for d in s.to_hit] == ["5", "2", "6", "4"]
    first, miss, third, fourth = v.shots
    assert miss.wound is None
    assert (first.wound.to_wound.face, first.wound.wounded, first.wound.save.face, first.wound.saved) == ("4", True, "6", True)
    assert first.wound.ward is None and first.wound.wounds == 0
    assert (third.wound.to_wound.face, third.wound.save.face, third.wound.ward.face) == ("6", "2", "1")
    assert third.wound.save_needed == 6 and third.wound.ward_needed == 6
    assert third.wound.multiple_wounds.face == "2" and (third.wound.wounds, third.wound.slain) == (2, False)
    assert (fourth.wound.to_wound.face, fourth.wound.wounded, fourth.wound.save) == ("3", False, None)
    assert (v.hits, v.unsaved, v.models_slain) == (3, 2, 0)  # 2 wounds do not slay a 3-wound model
    assert (v.to_hit, v.strength, v.armour_piercing) == (ToHit(4), 4, 0)


def test_each_shots_wound_roll_is_the_one_rolled_for_it(no_dice):
    # Hits on shots 2 and 4 only; the wound dice go to those two in shot order.
    v, rolled = volley("1 5 3 6  2 5", no_dice, shots=4, to_hit=ToHit(4), strength=3, profile=Profile(toughness=3))
    assert [s.wound is not None for s in v.shots] == [False, True, False, True]
    assert (v.shots[1].wound.to_wound.face, v.shots[3].wound.to_wound.face) == ("2", "5")
    assert (v.shots[1].wound.wounded, v.shots[3].wound.wounded) == (False, True)
    assert [phase(d) for d in rolled] == ["to hit"] * 4 + ["to wound"] * 2
    assert (v.hits, v.unsaved, v.models_slain) == (2, 1, 1)


def test_shoot_without_a_profile_rolls_to_hit_only(no_dice):
    v, rolled = volley("4 3 6", no_dice, shots=3, to_hit=ToHit(4), strength=5, profile=None, armour_piercing=1)
    assert [s.hit for s in v.shots] == [True, False, True]
    assert all(s.wound is None for s in v.shots)
    assert [phase(d) for d in rolled] == ["to hit"] * 3
    assert (v.hits, v.unsaved, v.models_slain, v.profile) == (2, 0, 0, None)


def test_shoot_that_cannot_hit_rolls_no_dice(no_dice):
    v, rolled = volley("", no_dice, shots=5, to_hit=ToHit(10), strength=5, profile=Profile(toughness=3))
    assert rolled == [] and len(v.shots) == 5
    assert all(s.to_hit == () and not s.hit and s.wound is None for s in v.shots)
    assert (v.hits, v.unsaved, v.models_slain) == (0, 0, 0)


def test_shoot_that_cannot_wound_rolls_no_wound_dice(no_dice):
    # S3 against T7: no wound is possible, so the hits are not rolled to wound.
    v, rolled = volley("4 4", no_dice, shots=2, to_hit=ToHit(4), strength=3, profile=Profile(toughness=7, save=4))
    assert v.hits == 2 and [phase(d) for d in rolled] == ["to hit"] * 2
    assert all(s.wound.to_wound is None and s.wound.to_wound_needed is None for s in v.shots)
    assert v.unsaved == 0


def test_zero_shots_is_an_empty_volley(no_dice):
    v, rolled = volley("", no_dice, shots=0, to_hit=ToHit(4), strength=5, profile=Profile(toughness=3))
    assert v.shots == () and rolled == [] and (v.hits, v.unsaved, v.models_slain) == (0, 0, 0)


@pytest.mark.parametrize("shots", [-1, MAX_SHOTS + 1, 1000])
def test_impossible_number_of_shots_is_a_rules_error_quoting_it(no_dice, shots):
    with pytest.raises(RulesError, match=f"^{shots} shots is not possible here: give 0 to {MAX_SHOTS}"):
        shoot(no_dice, shots=shots, to_hit=ToHit(4), strength=5, profile=None)


def test_shots_up_to_the_maximum_are_accepted(no_dice):
    v, _ = volley(" ".join(["4"] * MAX_SHOTS), no_dice, shots=MAX_SHOTS, to_hit=ToHit(4), strength=3, profile=None)
    assert v.hits == MAX_SHOTS


@pytest.mark.parametrize(("wounds", "unsaved", "slain"), [(1, 5, 5), (2, 5, 2), (3, 5, 1), (5, 5, 1), (6, 5, 0)])
def test_models_slain_are_whole_models_of_the_unsaved_wounds(no_dice, wounds, unsaved, slain):
    # Five hits, all wounding an unarmoured model, one wound each (no Multiple Wounds).
    v, _ = volley(" ".join(["4"] * 5 + ["2"] * 5), no_dice, shots=5, to_hit=ToHit(4), strength=5,
                  profile=Profile(toughness=3, wounds=wounds))
    assert (v.unsaved, v.models_slain) == (unsaved, slain)


def test_unsaved_counts_multiple_wounds(no_dice):
    # Two unsaved hits on 3-wound models with Multiple Wounds (D6): a 6 (capped at 3) and a 2.
    v, _ = volley("4 4  2 2  6 2", no_dice, shots=2, to_hit=ToHit(4), strength=10,
                  profile=Profile(toughness=4, wounds=3), multiple_wounds=DieKind.D6)
    assert [s.wound.wounds for s in v.shots] == [3, 2]
    assert (v.unsaved, v.models_slain) == (5, 1)


def test_second_dice_after_sixes_stay_in_the_to_hit_step(no_dice):
    # 7+ (a 6, then 4+): every to-hit die, second ones included, comes before any to-wound die.
    # First dice 6 3 6, then the two 6s' second dice 4 (hit) and 1 (miss), then the wound roll.
    v, rolled = volley("6 3 6  4 1  5", no_dice, shots=3, to_hit=ToHit(7), strength=5, profile=Profile(toughness=3))
    assert [phase(d) for d in rolled] == ["to hit"] * 5 + ["to wound"]
    assert [s.hit for s in v.shots] == [True, False, False]
    assert v.unsaved == 1


def test_second_dice_after_sixes_are_rolled_together_after_every_first_die(no_dice):
    v, rolled = volley("6 6 3 5", no_dice, shots=2, to_hit=ToHit(7), strength=5, profile=None)
    assert [d.purpose for d in rolled] == [
        "to hit shot 1", "to hit shot 2", "to hit shot 1, after the 6", "to hit shot 2, after the 6"]
    assert [s.hit for s in v.shots] == [False, True]


# --- resolve_hits: like hits, phase by phase --------------------------------------------------------------


NAMES = [f"hit {n}" for n in range(1, 17)]


def test_resolve_hits_rolls_phase_by_phase_naming_each_hit(no_dice):
    # S4 against T3 (3+) W2, 4+ armour (5+ against S4), 5+ ward, Multiple Wounds (D3).
    dice = RecordingDice(EnteredDice("3 2 6 5   5 1 4   3 6   3", no_dice))
    rolls = resolve_hits(dice, names=NAMES[:4], strength=4, profile=Profile(toughness=3, wounds=2, save=4, ward=5),
                         multiple_wounds=DieKind.D3)
    dice.finish()
    assert [d.purpose for d in dice.rolled] == [
        "to wound hit 1", "to wound hit 2", "to wound hit 3", "to wound hit 4",  # hit 2 fails (2)
        "armour save hit 1", "armour save hit 3", "armour save hit 4",  # hit 1 saved (5)
        "ward save hit 3", "ward save hit 4",  # hit 4 warded (6)
        "Multiple Wounds (D3) hit 3",
    ]
    assert [r.wounded for r in rolls] == [True, False, True, True]
    assert [r.saved for r in rolls] == [True, False, False, True]
    assert [r.wounds for r in rolls] == [0, 0, 2, 0]
    assert [r.slain for r in rolls] == [False, False, True, False]
    assert rolls[1].save_needed is None and rolls[1].ward_needed is None
    assert [r.save_needed for r in rolls if r.wounded] == [5, 5, 5]


def test_resolve_hits_names_its_hits_as_asked(no_dice):
    dice = RecordingDice(EnteredDice("4 4", no_dice))
    resolve_hits(dice, names=["shot 2", "shot 5"], strength=3, profile=Profile(toughness=3))
    dice.finish()
    assert [d.purpose for d in dice.rolled] == ["to wound shot 2", "to wound shot 5"]


def test_resolve_hits_of_nothing_rolls_nothing(no_dice):
    assert resolve_hits(no_dice, names=[], strength=5, profile=Profile(toughness=3, save=4, ward=4)) == ()


def outcome(w: WoundRoll) -> tuple:
    """A wound roll without the dice's purposes (which name the hit differently)."""
    face = lambda d: None if d is None else (d.kind, d.face)  # noqa: E731
    return (w.strength, w.to_wound_needed, face(w.to_wound), w.wounded, w.save_needed, face(w.save), w.ward_needed,
            face(w.ward), w.saved, face(w.multiple_wounds), w.wounds, w.slain)


def per_hit_faces(w: WoundRoll) -> list[str]:
    return [d.face for d in (w.to_wound, w.save, w.ward, w.multiple_wounds) if d is not None]


def agrees_hit_by_hit(rolls: tuple[WoundRoll, ...], no_dice: Dice, **kwargs) -> None:
    """Each hit's dice, given to resolve_hit on its own, give the same outcome."""
    for n, w in enumerate(rolls, 1):
        dice = EnteredDice(per_hit_faces(w), no_dice)
        alone = resolve_hit(dice, who=f"hit {n}", **kwargs)
        dice.finish()
        assert outcome(alone) == outcome(w), f"hit {n}"
        assert [d.purpose for d in (alone.to_wound, alone.save, alone.ward, alone.multiple_wounds) if d] == [
            d.purpose for d in (w.to_wound, w.save, w.ward, w.multiple_wounds) if d]


@pytest.mark.parametrize(("faces", "hits", "strength", "profile", "mw", "ap"), [
    ("3 2 6 5  5 1 4  3 6  3", 4, 4, Profile(toughness=3, wounds=2, save=4, ward=5), DieKind.D3, 0),
    ("1 2 3 4 5 6  6 5 4 1", 6, 5, Profile(toughness=4, save=2, ward=None), None, 1),  # grapeshot on 2+ armour
    ("2 2 2  3 4 5", 3, 5, Profile(toughness=3, save=None, ward=4), None, 1),
    ("6 6  6 6", 2, 10, Profile(toughness=10, wounds=6), DieKind.D6, 0),
    ("", 3, 3, Profile(toughness=7, save=1, ward=2), DieKind.D6, 0),  # cannot wound
    ("5 5 5  1 1 1", 3, 4, Profile(toughness=4, save=1, ward=None), None, 2),  # 1+ worsened to 4+: ones fail
])
def test_resolve_hits_agrees_with_resolve_hit_hit_by_hit(no_dice, faces, hits, strength, profile, mw, ap):
    dice = EnteredDice(faces, no_dice)
    rolls = resolve_hits(dice, names=NAMES[:hits], strength=strength, profile=profile, multiple_wounds=mw, armour_piercing=ap)
    dice.finish()
    assert len(rolls) == hits
    agrees_hit_by_hit(rolls, no_dice, strength=strength, profile=profile, multiple_wounds=mw, armour_piercing=ap)


class _NoDice(Dice):
    """The `no_dice` fixture for Hypothesis tests (which take no function-scoped fixtures)."""

    def roll(self, kind: DieKind, purpose: str, *, small_arrow: bool = False) -> DieRoll:
        raise AssertionError(f"the procedure asked for a {kind.label} ({purpose}) the test did not give")


@dataclass(frozen=True)
class Hits:
    hits: int
    strength: int
    profile: Profile
    multiple_wounds: DieKind | None
    armour_piercing: int
    seed: int


profiles = st.builds(
    Profile, toughness=st.integers(1, 10), wounds=st.integers(1, 20),
    save=st.none() | st.integers(1, 6), ward=st.none() | st.integers(2, 6),
)
like_hits = st.builds(
    Hits, hits=st.integers(0, 16), strength=st.integers(1, 10), profile=profiles,
    multiple_wounds=st.sampled_from([None, DieKind.D3, DieKind.D6]), armour_piercing=st.integers(0, 3),
    seed=st.integers(0, 2**64 - 1),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(like_hits)
def test_resolve_hits_with_the_bots_dice_agrees_with_resolve_hit_and_keeps_phase_order(h: Hits):
    kwargs = dict(strength=h.strength, profile=h.profile, multiple_wounds=h.multiple_wounds,
                  armour_piercing=h.armour_piercing)
    dice = RecordingDice(RandomDice(h.seed))
    rolls = resolve_hits(dice, names=NAMES[:h.hits], **kwargs)
    assert len(rolls) == h.hits
    # Every die is one of the hits', and they come phase by phase, hits in order within a phase.
    by_phase = [
        [w.to_wound for w in rolls], [w.save for w in rolls], [w.ward for w in rolls], [w.multiple_wounds for w in rolls]
    ]
    assert dice.rolled == [d for step in by_phase for d in step if d is not None]
    agrees_hit_by_hit(rolls, _NoDice(), **kwargs)
