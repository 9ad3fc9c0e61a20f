"""Hypothesis properties of fire_cannon: any valid input with the bot's dice gives a record that
keeps the rulebook's invariants; any invalid input raises RulesError.

The geometry checks lay the unit out again here, independently of engine/fantasy/formation.py:
the aimed model's centre on the marker, (0, distance); bases touching, squared to the line of
fire; from the flank a base's depth runs across the line and its width along it; files count
left to right as the firer sees them, and from the flank file 1 is nearest the firer with the
front rank on the firer's left (the engine's documented numbering).
"""

from __future__ import annotations

import math
import string
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from config.gamedata import fantasy
from tests.engine.replay import assert_replays
from engine.dice import Dice, DieKind, DieRoll, EnteredDice, RandomDice, Roller, split_faces
from engine.errors import DiceError, RulesError
from engine.fantasy.cannon import CannonShot, HitKind, fire_cannon
from engine.fantasy.formation import (
    BASE_WIDTHS,
    MAX_BASE_DEPTH,
    MAX_FILES,
    MAX_RANKS,
    MIN_BASE_DEPTH,
    Facing,
    TargetUnit,
)
from engine.fantasy.wounding import Profile, to_wound_needed

DATA = fantasy()
CHART = DATA.misfire_charts["black-powder"]
MM = 25.4
EPS = 1e-7
LARGEST_ARTILLERY = 10

PROPERTY = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
QUICK = settings(max_examples=100, deadline=None)


class RecordingDice(Dice):
    """Passes every request to `inner` and keeps each die it hands back, in order."""

    def __init__(self, inner: Dice) -> None:
        self.inner = inner
        self.rolled: list[DieRoll] = []

    def roll(self, kind: DieKind, purpose: str, *, small_arrow: bool = False) -> DieRoll:
        die = self.inner.roll(kind, purpose, small_arrow=small_arrow)
        assert die.kind is kind and die.purpose == purpose
        self.rolled.append(die)
        return die

    def finish(self) -> None:
        self.inner.finish()


@dataclass(frozen=True)
class Shot:
    weapon: str
    unit: TargetUnit
    distance: float
    aim_rank: int | None
    aim_file: int | None
    seed: int

    def fire(self, dice: Dice) -> CannonShot:
        return fire_cannon(DATA.cannons[self.weapon], CHART, self.unit, self.distance, dice,
                           aim_rank=self.aim_rank, aim_file=self.aim_file)


profiles = st.none() | st.builds(
    Profile,
    toughness=st.integers(1, 10),
    wounds=st.integers(1, 20),
    save=st.none() | st.integers(1, 6),
    ward=st.none() | st.integers(2, 6),
)


@st.composite
def valid_shots(draw) -> Shot:
    weapon = draw(st.sampled_from(sorted(DATA.cannons)))
    profile = DATA.cannons[weapon]
    ranks = draw(st.integers(1, MAX_RANKS))
    files = draw(st.integers(1, MAX_FILES))
    unit = TargetUnit(
        ranks, files, DATA.troops[draw(st.sampled_from(sorted(DATA.troops)))],
        draw(st.sampled_from(BASE_WIDTHS)), draw(st.integers(MIN_BASE_DEPTH, MAX_BASE_DEPTH)),
        draw(st.sampled_from(list(Facing))), draw(profiles),
    )
    distance = draw(
        st.floats(profile.min_range, profile.max_range, allow_nan=False)
        | st.integers(profile.min_range, profile.max_range)
    )
    aim_rank = draw(st.none() | st.integers(1, ranks))
    aim_file = draw(st.none() | st.integers(1, files))
    return Shot(weapon, unit, distance, aim_rank, aim_file, draw(st.integers(0, 2**64 - 1)))


# --- an independent layout ------------------------------------------------------------------------


def rows_cols(unit: TargetUnit) -> tuple[int, int, float, float]:
    """(rows, cols, across, along): rows as the firer sees them, and a base's size in inches."""
    w, d = unit.base_width / MM, unit.base_depth / MM
    if unit.facing is Facing.FLANK:
        return unit.files, unit.ranks, d, w
    return unit.ranks, unit.files, w, d


def cell(unit: TargetUnit, rank: int, file: int) -> tuple[int, int]:
    if unit.facing is Facing.FRONT:
        return rank - 1, file - 1
    if unit.facing is Facing.REAR:
        return unit.ranks - rank, file - 1
    return file - 1, rank - 1


def layout(shot: CannonShot) -> tuple[float, float, float, float, int, int]:
    """(left, near, across, along, rows, cols) with the aimed model's centre on the marker."""
    unit = shot.target
    rows, cols, across, along = rows_cols(unit)
    row, col = cell(unit, *shot.aimed_model)
    return -(col + 0.5) * across, shot.distance - (row + 0.5) * along, across, along, rows, cols


def rect(shot: CannonShot, rank: int, file: int) -> tuple[float, float, float, float]:
    left, near, across, along, _, _ = layout(shot)
    row, col = cell(shot.target, rank, file)
    return left + col * across, near + row * along, left + (col + 1) * across, near + (row + 1) * along


def clip(p0, p1, box) -> tuple[float, float] | None:
    """The part [t0, t1] of the segment p0 -> p1 (t in 0..1) inside `box` (Liang-Barsky)."""
    x0, y0, x1, y1 = box
    t0, t1 = 0.0, 1.0
    dx, dy = p1.x - p0.x, p1.y - p0.y
    for p, q in ((-dx, p0.x - x0), (dx, x1 - p0.x), (-dy, p0.y - y0), (dy, y1 - p0.y)):
        if p == 0:
            if q < 0:
                return None
            continue
        r = q / p
        if p < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
    return (t0, t1) if t0 <= t1 else None


def grown(box, eps=EPS):
    x0, y0, x1, y1 = box
    return x0 - eps, y0 - eps, x1 + eps, y1 + eps


def inside(p, box, eps=EPS) -> bool:
    x0, y0, x1, y1 = box
    return x0 - eps <= p.x <= x1 + eps and y0 - eps <= p.y <= y1 + eps


def dist(a, b) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)


# --- valid input: the invariants --------------------------------------------------------------------


@PROPERTY
@given(valid_shots())
def test_any_valid_shot_keeps_the_invariants(s: Shot):
    recorder = RecordingDice(RandomDice(s.seed))
    shot = s.fire(recorder)
    weapon = DATA.cannons[s.weapon]
    unit = s.unit

    # Every die the procedure rolled is in the record, in order, and the bot rolled them all.
    assert shot.dice == tuple(recorder.rolled)
    assert all(d.by is Roller.BOT for d in shot.dice)
    assert shot.dice[0].kind is DieKind.SCATTER and shot.dice[1].kind is DieKind.ARTILLERY
    assert shot.scatter is shot.dice[0] and shot.artillery is shot.dice[1]
    assert shot.aim.x == 0 and shot.aim.y == s.distance

    if shot.artillery.is_misfire:
        assert not shot.fired
        assert shot.hits == () and shot.landing is None and shot.rest is None and shot.bounce is None
        assert len(shot.dice) == 3 and shot.dice[2].kind is DieKind.D6
        assert shot.misfire.roll is shot.dice[2]
        assert shot.misfire.row.low <= shot.misfire.roll.value <= shot.misfire.row.high
        return
    assert shot.fired and shot.misfire is None

    # Scatter: a hit lands on the marker; an arrow moves it half the artillery die its way.
    moved = dist(shot.landing, shot.aim)
    assert moved <= LARGEST_ARTILLERY / 2 + EPS
    if shot.scatter.is_hit:
        assert shot.landing == shot.aim and shot.scatter_distance == 0
    else:
        assert shot.scatter_distance == shot.artillery.value / 2
        assert moved == pytest.approx(shot.scatter_distance)
        bearing = math.degrees(math.atan2(shot.landing.x - shot.aim.x, shot.landing.y - shot.aim.y)) % 360
        assert min(abs(bearing - shot.scatter.direction), 360 - abs(bearing - shot.scatter.direction)) < 1e-6

    # The bounce: the artillery die again along the line from the muzzle through the landing point.
    assert shot.bounce is shot.dice[2] and shot.bounce.kind is DieKind.ARTILLERY
    assert shot.bounce_distance == (0 if shot.bounce.is_misfire else shot.bounce.value)
    reach = math.hypot(shot.landing.x, shot.landing.y)  # muzzle to landing point
    line_x, line_y = shot.landing.x / reach, shot.landing.y / reach
    assert shot.path_end.x == pytest.approx(shot.landing.x + shot.bounce_distance * line_x)
    assert shot.path_end.y == pytest.approx(shot.landing.y + shot.bounce_distance * line_y)
    travel = dist(shot.rest, shot.landing)
    assert travel <= shot.bounce_distance + EPS
    assert dist(shot.rest, shot.landing) + dist(shot.rest, shot.path_end) == pytest.approx(shot.bounce_distance)

    # Who's been hit.
    hits = shot.hits
    assert len({h.row for h in hits}) == len(hits), "at most one model per rank (row) is hit"
    assert all(a.travelled < b.travelled for a, b in zip(hits, hits[1:])), "hits in the order the ball meets them"
    left, near, across, along, rows, cols = layout(shot)
    unit_box = (left, near, left + cols * across, near + rows * along)
    for i, h in enumerate(hits):
        assert 1 <= h.rank <= unit.ranks and 1 <= h.file <= unit.files
        assert h.row == cell(unit, h.rank, h.file)[0] + 1
        assert 0 <= h.travelled <= travel + EPS, "no hit beyond the rest point"
        assert h.at.x == pytest.approx(shot.landing.x + h.travelled * line_x, abs=1e-9)
        assert h.at.y == pytest.approx(shot.landing.y + h.travelled * line_y, abs=1e-9)
        box = rect(shot, h.rank, h.file)
        assert inside(h.at, box), "the ball meets the model's base where the record says"
        assert clip(shot.landing, shot.rest, grown(box)) is not None or travel == 0 and inside(shot.landing, box)
        assert h.strength == weapon.strength
        if h.kind is HitKind.DIRECT:
            assert i == 0 and h.travelled == 0 and inside(shot.landing, box)
            assert h.wounds_die is weapon.direct_wounds
        else:
            assert h.wounds_die is weapon.bounce_wounds
    if inside(shot.landing, unit_box, -EPS):
        assert hits and hits[0].kind is HitKind.DIRECT, "the model under the landing point is hit directly"
    elif not inside(shot.landing, unit_box, EPS):
        assert all(h.kind is HitKind.BOUNCE for h in hits)

    # Nobody missed: every row the ball runs through between landing and rest loses its first model.
    if shot.bounce_distance and travel > 0:
        hit_rows = {h.row - 1: h for h in hits}
        for row in range(rows):
            band = (left, near + row * along, left + cols * across, near + (row + 1) * along)
            part = clip(shot.landing, shot.rest, band)
            if part is None or (part[1] - part[0]) * travel < 1e-6:
                continue
            assert row in hit_rows, f"row {row + 1} is crossed but nobody in it is hit"
            h = hit_rows[row]
            if h.kind is HitKind.BOUNCE:
                assert h.travelled == pytest.approx(part[0] * travel, abs=1e-6)
                x = shot.landing.x + part[0] * travel * line_x
                edges = [left + k * across for k in range(cols + 1)]
                if min(abs(x - e) for e in edges) > 1e-6:
                    assert cell(unit, h.rank, h.file)[1] == min(int((x - left) / across), cols - 1)

    # Damage and monsters.
    monstrous = unit.troop.monstrous
    if unit.profile is None:
        assert all(h.wound is None for h in hits)
        assert shot.stopped_by is None and shot.rest == shot.path_end
        assert [h.conditional for h in hits] == [monstrous and i > 0 for i in range(len(hits))]
    else:
        assert not any(h.conditional for h in hits)
        for h in hits:
            w = h.wound
            assert w.strength == weapon.strength
            assert w.to_wound_needed == to_wound_needed(weapon.strength, unit.profile.toughness)
            assert 0 <= w.wounds <= unit.profile.wounds
            assert w.slain == (w.wounds == unit.profile.wounds)
            assert w.save is None  # S10 leaves no armour save
            if w.multiple_wounds is not None:
                assert w.multiple_wounds.kind is h.wounds_die
        if monstrous:
            assert all(h.wound.slain for h in hits[:-1]), "a surviving monster stops the ball"
            if hits and not hits[-1].wound.slain:
                assert shot.stopped_by == len(hits) - 1
    if shot.stopped_by is not None:
        stopper = hits[shot.stopped_by]
        assert monstrous and unit.profile is not None
        assert shot.stopped_by == len(hits) - 1 and not stopper.wound.slain
        assert shot.rest == stopper.at
    else:
        assert shot.rest == shot.path_end


@PROPERTY
@given(valid_shots())
def test_entering_the_bots_faces_replays_the_same_shot(s: Shot):
    assert_replays(s.fire, s.seed)


# --- invalid input: RulesError ---------------------------------------------------------------------------


@QUICK
@given(st.sampled_from(sorted(DATA.cannons)), st.data())
def test_marker_out_of_range_is_a_rules_error(weapon, data):
    p = DATA.cannons[weapon]
    distance = data.draw(
        st.floats(max_value=p.min_range, exclude_max=True)
        | st.floats(min_value=p.max_range, exclude_min=True)
        | st.just(math.nan)
    )
    unit = TargetUnit(3, 3, DATA.troops["infantry"], 20, 20)
    with pytest.raises(RulesError, match=f"{p.min_range}-{p.max_range}"):
        fire_cannon(p, CHART, unit, distance, RandomDice(0))


def out_of(low: int, high: int):
    return st.integers(max_value=low - 1) | st.integers(min_value=high + 1)


@QUICK
@given(
    st.one_of(
        st.fixed_dictionaries({"ranks": out_of(1, MAX_RANKS)}),
        st.fixed_dictionaries({"files": out_of(1, MAX_FILES)}),
        st.fixed_dictionaries({"base_width": st.integers().filter(lambda w: w not in BASE_WIDTHS)}),
        st.fixed_dictionaries({"base_depth": out_of(MIN_BASE_DEPTH, MAX_BASE_DEPTH)}),
    ),
    st.sampled_from(sorted(DATA.troops)),
)
def test_impossible_formation_is_a_rules_error(bad, troop):
    fields = {"ranks": 3, "files": 5, "base_width": 20, "base_depth": 20} | bad
    with pytest.raises(RulesError) as err:
        TargetUnit(troop=DATA.troops[troop], **fields)
    (value,) = bad.values()
    assert str(value) in str(err.value)


@QUICK
@given(
    st.one_of(
        st.fixed_dictionaries({"toughness": out_of(1, 10)}),
        st.fixed_dictionaries({"toughness": st.just(4), "wounds": out_of(1, 20)}),
        st.fixed_dictionaries({"toughness": st.just(4), "save": out_of(1, 6)}),
        st.fixed_dictionaries({"toughness": st.just(4), "ward": out_of(2, 6)}),
    )
)
def test_impossible_profile_is_a_rules_error(bad):
    with pytest.raises(RulesError):
        Profile(**bad)


@QUICK
@given(st.integers(1, MAX_RANKS), st.integers(1, MAX_FILES), st.sampled_from(list(Facing)), st.data())
def test_aim_outside_the_unit_is_a_rules_error(ranks, files, facing, data):
    unit = TargetUnit(ranks, files, DATA.troops["infantry"], 20, 20, facing)
    aim = data.draw(
        st.fixed_dictionaries({"aim_rank": out_of(1, ranks)}) | st.fixed_dictionaries({"aim_file": out_of(1, files)})
    )
    with pytest.raises(RulesError, match="Aim (rank|file)"):
        fire_cannon(DATA.cannons["cannon"], CHART, unit, 30, RandomDice(0), **aim)


def is_face(token: str) -> bool:
    try:
        return split_faces(token) == (token.upper(),)
    except DiceError:
        return False


junk = st.text(alphabet=string.ascii_letters + string.digits + "@.#-+!?/", min_size=1, max_size=6).filter(
    lambda t: not is_face(t)
)


@QUICK
@given(valid_shots(), junk, st.integers(0, 3))
def test_a_token_that_is_no_face_is_a_dice_error(s: Shot, token, where):
    faces = ["H", "4", "10"]
    faces.insert(where, token)
    with pytest.raises(DiceError, match="is not a die face"):
        s.fire(EnteredDice(" ".join(faces), RandomDice(0)))


@QUICK
@given(valid_shots(), st.sampled_from(["1", "2", "6", "10", "M", "m"]))
def test_a_number_on_the_scatter_die_is_a_dice_error(s: Shot, face):
    with pytest.raises(DiceError, match="scatter die rolled for scatter"):
        s.fire(EnteredDice(f"{face} 4 4", RandomDice(0)))


@QUICK
@given(valid_shots(), st.sampled_from(["1", "3", "5", "7", "9", "H", "@90", "h@10"]), st.booleans())
def test_a_face_the_artillery_die_lacks_is_a_dice_error(s: Shot, face, on_bounce):
    faces = f"H 4 {face}" if on_bounce else f"H {face} 4"
    assume(on_bounce or face != "H")
    with pytest.raises(DiceError, match="artillery die rolled for (bounce|scatter distance)"):
        s.fire(EnteredDice(faces, RandomDice(0)))


@QUICK
@given(valid_shots(), st.lists(st.sampled_from(["1", "2", "3", "4", "5", "6"]), min_size=1, max_size=4))
def test_faces_left_over_are_a_dice_error(s: Shot, extra):
    # Roll the shot with the bot, enter its faces and some more: the extra faces are left over
    # (the first die after the shot's last would be asked for nothing).
    faces = [d.face for d in s.fire(RandomDice(s.seed)).dice]
    with pytest.raises(DiceError, match=f"{len(extra)} left over"):
        s.fire(EnteredDice(" ".join(faces + extra), RandomDice(0)))


@PROPERTY
@given(valid_shots(), profiles.filter(lambda p: p is not None))
def test_a_shot_replayed_with_a_profile_keeps_its_flight_and_only_adds_wound_dice(s: Shot, profile: Profile):
    """The "Resolve wounds" button: the first run's dice given back (ReplayDice) with the profile
    added give the same flight, and every hit of the first run that did not depend on a monster
    surviving is hit again; the dice the first run rolled come first, marked as given."""
    from dataclasses import replace

    from engine.dice import ReplayDice

    first = replace(s, unit=replace(s.unit, profile=None)).fire(RandomDice(s.seed))
    second = replace(s, unit=replace(s.unit, profile=profile)).fire(ReplayDice(first.dice, RandomDice(s.seed + 1)))
    assert (second.landing, second.bounce_distance) == (first.landing, first.bounce_distance)
    assert (second.misfire and second.misfire.row) == (first.misfire and first.misfire.row)
    assert [d.face for d in second.dice[: len(first.dice)]] == [d.face for d in first.dice]
    assert all(d.by is Roller.PLAYER for d in second.dice[: len(first.dice)])
    sure = [(h.rank, h.file) for h in first.hits if not h.conditional]
    assert [(h.rank, h.file) for h in second.hits][: len(sure)] == sure
