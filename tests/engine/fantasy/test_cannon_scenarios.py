"""Shots worked by hand from the rulebook (Warhammer Fantasy, War Machines: Cannons), each die
fixed, with the arithmetic in the comments: which models are hit (rank, file), where the ball
lands and where it comes to rest.

Frame: muzzle at the origin, line of fire +y, x to the firer's right. 1" = 25.4 mm.
"""

from __future__ import annotations

import math

import pytest

from config.gamedata import fantasy
from engine.dice import DieKind
from engine.fantasy.cannon import HitKind
from engine.fantasy.formation import Facing, TargetUnit
from engine.fantasy.profiles import MisfireOutcome
from engine.fantasy.wounding import Profile
from engine.geometry import Point

DATA = fantasy()
CANNON = DATA.cannons["cannon"]
GREAT = DATA.cannons["great-cannon"]


def xy(p: Point) -> tuple[float, float]:
    return (p.x, p.y)


def approx_xy(x: float, y: float):
    return pytest.approx((x, y), abs=1e-9)


def test_orc_block_ball_lands_short_and_ploughs_through_all_five_ranks(fire):
    """Cannon at 25 Orcs, 5 x 5 on 25 mm bases, marker 36" away over rank 1 file 3.

    Scatter @180 with a 6 on the artillery die: the marker moves 6/2 = 3" back toward the
    cannon, so the ball first strikes the ground at (0, 33), short of the unit. The bounce
    rolls an 8: the ball runs on along the shot line to (0, 41).
    Ranks are 25/25.4 = 0.98425" deep; rank 1 starts at 36 - 0.49213 = 35.50787", rank 5 ends
    at 40.42913": the bounce crosses all five, one model per rank, file 3, each a bounce hit
    (D3 wounds for a cannon). Orcs: T4 W1 and a 5+ save, which S10 takes away (5 + 7 > 6), so
    each needs only a 2+ to wound: the to-wound dice 2 1 4 6 3 slay ranks 1, 3, 4 and 5.
    """
    orcs = TargetUnit(5, 5, DATA.troops["infantry"], 25, 25, profile=Profile(toughness=4, save=5))
    shot = fire(CANNON, orcs, 36, "@180 6 8 2 1 4 6 3")
    rank = 25 / 25.4
    front = 36 - rank / 2
    assert shot.scatter_distance == 3
    assert xy(shot.landing) == approx_xy(0, 33)
    assert xy(shot.rest) == approx_xy(0, 41)
    assert [(h.rank, h.file) for h in shot.hits] == [(1, 3), (2, 3), (3, 3), (4, 3), (5, 3)]
    assert all(h.kind is HitKind.BOUNCE and h.wounds_die is DieKind.D3 for h in shot.hits)
    assert [h.travelled for h in shot.hits] == pytest.approx([front + k * rank - 33 for k in range(5)])
    assert [h.wound.to_wound_needed for h in shot.hits] == [2] * 5
    assert all(h.wound.save_needed is None for h in shot.hits)
    assert [h.wound.slain for h in shot.hits] == [True, False, True, True, True]


def test_ogres_ball_scatters_onto_the_second_rank_and_an_ogre_that_survives_stops_it(fire):
    """Great cannon at Ogres (monstrous infantry, 40 mm bases, 2 ranks of 3), marker 40" away
    over rank 1 file 2.

    Scatter @30 with a 4: the marker moves 2" at 30 degrees right of the line of fire, to
    (2 sin 30, 40 + 2 cos 30) = (1, 41.732). Bases are 1.5748" square: file 3 spans x
    0.7874..2.3622 and rank 2 spans y 40.7874..42.3622, so the ball lands directly on rank 2
    file 3: D6 wounds. The bounce die says 6, but first the damage: T4, so 2+ to wound (a 3
    wounds), the 5+ save is gone against S10, and the Multiple Wounds D6 shows 2: the
    three-wound Ogre survives and, being monstrous, robs the ball of its momentum. It comes to
    rest where it landed.
    """
    ogres = TargetUnit(2, 3, DATA.troops["monstrous-infantry"], 40, 40, profile=Profile(toughness=4, wounds=3, save=5))
    shot = fire(GREAT, ogres, 40, "@30 4 6 3 2")
    assert xy(shot.landing) == approx_xy(1, 40 + math.sqrt(3))
    assert [(h.rank, h.file, h.kind) for h in shot.hits] == [(2, 3, HitKind.DIRECT)]
    hit = shot.hits[0]
    assert hit.wounds_die is DieKind.D6 and hit.wound.wounds == 2 and not hit.wound.slain
    assert shot.stopped_by == 0
    assert shot.rest == shot.landing
    line = shot.landing.unit()
    assert xy(shot.path_end) == approx_xy(1 + 6 * line.x, 40 + math.sqrt(3) + 6 * line.y)


def test_knights_seen_from_the_flank_lose_a_model_from_every_file(fire):
    """Cannon at 10 knights (cavalry, 25 x 50 mm, 2 ranks of 5) showing their flank, marker 20"
    away over rank 1 file 1, the file nearest the cannon.

    From the flank the files count as ranks: each file is 25 mm = 0.98425" deep along the line
    of fire, file 1 spanning 19.50787..20.49213. A hit on the scatter die puts the ball on
    rank 1 file 1 (D6 wounds); the bounce rolls a 4, to (0, 24), crossing files 2 to 5 (file
    5 starts at 23.44488), hitting rank 1 of each: D3 wounds. Knights in 1+ armour keep no
    save against S10; T3 wounds on 2+; each wound slays a one-wound knight.
    """
    knights = TargetUnit(2, 5, DATA.troops["cavalry"], 25, 50, Facing.FLANK, Profile(toughness=3, save=1))
    shot = fire(CANNON, knights, 20, "H 4 4 2 2 2 2 2")
    assert shot.aimed_model == (1, 1)
    assert xy(shot.landing) == approx_xy(0, 20)
    assert xy(shot.rest) == approx_xy(0, 24)
    assert [(h.rank, h.file) for h in shot.hits] == [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5)]
    assert [h.wounds_die for h in shot.hits] == [DieKind.D6] + [DieKind.D3] * 4
    depth = 25 / 25.4
    assert [h.at.y for h in shot.hits] == pytest.approx([20] + [20 - depth / 2 + k * depth for k in range(1, 5)])
    assert all(h.wound.slain for h in shot.hits)


def test_ball_that_scatters_wide_of_a_regiment_lands_harmlessly(fire):
    """Cannon at 20 Spearmen (5 files of 20 mm, 4 ranks), marker 24" over rank 1 file 3.

    Scatter @270 with a 10: 5" to the firer's left, to (-5, 24). The regiment's left edge is
    at -2.5 x 0.7874 = -1.9685; the shot line from the muzzle through (-5, 24) only moves
    further left as it goes, so the 10" bounce to (-5, 24) + 10 (-5, 24)/24.515 =
    (-7.040, 33.790) touches nobody.
    """
    spearmen = TargetUnit(4, 5, DATA.troops["infantry"], 20, 20)
    shot = fire(CANNON, spearmen, 24, "@270 10 10")
    assert xy(shot.landing) == approx_xy(-5, 24)
    assert shot.hits == ()
    length = math.hypot(5, 24)
    assert xy(shot.rest) == approx_xy(-5 - 50 / length, 24 + 240 / length)


def test_cannon_explodes_on_a_misfire_and_a_two(fire):
    """Misfire on the artillery die, then a 2 on the Black Powder Misfire Chart: destroyed.
    Whatever the scatter die showed, nothing is fired."""
    shot = fire(CANNON, TargetUnit(4, 5, DATA.troops["infantry"], 20, 20), 30, "@45 M 2")
    assert not shot.fired
    assert shot.misfire.row.outcome is MisfireOutcome.DESTROYED
    assert shot.hits == () and shot.landing is None


def test_ball_that_fails_to_bounce_kills_only_the_model_it_lands_on(fire):
    """Great cannon at a rear of 4 ranks of 5 halberdiers (20 mm), marker 30" over the rank
    facing the cannon (rank 4, file 3). Scatter @90 with a 2: 1" to the right, onto rank 4
    file 4 (file 4 spans x 0.3937..1.1811). The bounce die misfires: the ball thuds in and
    only that halberdier is hit, with D6 wounds.
    """
    halberdiers = TargetUnit(4, 5, DATA.troops["infantry"], 20, 20, Facing.REAR)
    shot = fire(GREAT, halberdiers, 30, "@90 2 M")
    assert xy(shot.landing) == approx_xy(1, 30)
    assert [(h.rank, h.file, h.kind, h.wounds_die) for h in shot.hits] == [(4, 4, HitKind.DIRECT, DieKind.D6)]
    assert shot.rest == shot.landing
