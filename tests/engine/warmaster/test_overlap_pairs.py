"""engine/warmaster/stands.py ``overlapping``: every pair tested on its own four axes, which is
the same answer as the separating-axis test written out pair by pair, at the square of the
stand count rather than its cube (issue 19, part 1)."""

from __future__ import annotations

import itertools
import math

from hypothesis import given, settings, strategies as st

from engine.warmaster.stands import Stand, overlapping


def overlap_one_pair(a: Stand, b: Stand) -> bool:
    """The separating-axis test for two rectangles, plainly."""
    corners = {id(s): [(p.x, p.y) for p in s.corners()] for s in (a, b)}
    for s in (a, b):
        f = math.radians(s.facing)
        for ax, ay in ((math.cos(f), -math.sin(f)), (math.sin(f), math.cos(f))):
            pa = [x * ax + y * ay for x, y in corners[id(a)]]
            pb = [x * ax + y * ay for x, y in corners[id(b)]]
            if max(pa) <= min(pb) + 1e-3 or max(pb) <= min(pa) + 1e-3:
                return False
    return True


stands = st.builds(Stand, st.floats(-15, 15), st.floats(-15, 15), st.sampled_from([0.0, 90.0, 180.0, 33.0, 301.5]),
                   st.floats(2, 6), st.floats(1, 3))


@settings(max_examples=200, deadline=None)
@given(st.lists(stands, min_size=0, max_size=25))
def test_overlapping_pairs_are_those_the_plain_test_finds(ss):
    ss = tuple(ss)
    expected = [(i, j) for i, j in itertools.combinations(range(len(ss)), 2) if overlap_one_pair(ss[i], ss[j])]
    assert overlapping(ss) == expected


def test_touching_stands_do_not_overlap():
    grid = tuple(Stand(4.0 * i, 2.0 * j, 0.0) for i in range(6) for j in range(6))
    assert overlapping(grid) == []
