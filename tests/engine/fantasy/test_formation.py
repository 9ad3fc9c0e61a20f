"""engine/fantasy/formation.py: a point in the unit's own measure, counted as rank_file counts
ranks and files, whichever side faces the firer."""

import pytest

from config.gamedata import fantasy
from engine.fantasy.formation import Facing, TargetUnit, lay_out
from engine.geometry import Point

DATA = fantasy()


@pytest.mark.parametrize("facing", list(Facing))
def test_each_base_centre_is_half_a_rank_and_half_a_file_into_its_own_base(facing):
    unit = TargetUnit(3, 5, DATA.troops["infantry"], 20, 40, facing)
    f, _ = lay_out(unit, 24)
    for row in range(f.rows):
        for col in range(f.cols):
            rank, file = f.rank_file(row, col)
            ranks_back, files_across = f.in_ranks_and_files(f.centre(row, col))
            assert (ranks_back, files_across) == pytest.approx((rank - 0.5, file - 0.5))


def test_a_point_short_of_the_unit_lies_in_front_of_its_first_rank():
    f, _ = lay_out(TargetUnit(3, 5, DATA.troops["infantry"], 20, 20), 24)
    ranks_back, _ = f.in_ranks_and_files(Point((f.left + f.right) / 2, f.near - f.cell_depth))
    assert ranks_back == pytest.approx(-1.0)
