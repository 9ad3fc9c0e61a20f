"""The /battle status picture: a valid, repeatable PNG, and golden boards."""

from renders.campaign.battle import TITLE_H, BattleBoard, BoardRow, FortRow, render_battle
from tests.renders.conftest import decode

BOARD = BattleBoard(
    "Battle 3: turn 2 · Border Wars", "2 players · 4 shots from the roster", 2, (
        BoardRow("Helblaster of Nuln", "great-cannon", "Alice", 0, 4, "destroyed", None, 1),
        BoardRow("Old Betsy", "cannon", "Alice", 3, 3, "silenced", 4),
        BoardRow("Rocky", "stone-thrower", "Bob", 1, 3, "silenced", 3),
        BoardRow("Skewer", "bolt-thrower", "Bob", 2, 2, "ready", None),
    ),
)


def test_the_board_is_a_repeatable_png_one_row_per_machine():
    png = render_battle(BOARD)
    assert png == render_battle(BOARD)
    image = decode(png)
    assert image.width == 760 and image.height == TITLE_H + 34 + 52 * 4 + 36


def test_golden_boards(golden):
    golden("battle_board", render_battle(BOARD))
    golden("battle_board_empty", render_battle(BattleBoard("Battle 1: turn 1", "1 player · 0 shots", 1, ())))


SIEGE = BattleBoard(
    BOARD.title, BOARD.subtitle, BOARD.turn, BOARD.rows[:2], (
        FortRow("north gate", "Gateway", 12, 0, True),
        FortRow("gatehouse", "Gateway tower gate", 12, 2, False),
        FortRow("keep", "Tower", 30, 20, False),
        FortRow("east wall", "Wall", 20, 0, False),
    ),
)


def test_the_siege_adds_a_row_per_section_below_the_machines():
    image = decode(render_battle(SIEGE))
    assert image.height == TITLE_H + 34 + 52 * 2 + 36 + 30 + 46 * 4 + 8
    assert decode(render_battle(BattleBoard(*[getattr(BOARD, f) for f in ("title", "subtitle", "turn", "rows")]))).size == \
        decode(render_battle(BOARD)).size  # no siege, no change


def test_golden_siege_board(golden):
    golden("battle_board_siege", render_battle(SIEGE))


def test_a_silence_gone_by_stays_hatched_on_the_track():
    """Issue 18: a machine silenced on turn 1 and ready again by turn 3 keeps turn 1 hatched."""
    from renders.campaign.battle import CELL_MAX, ROW_H, TRACK_X
    from renders.canvas import DIRECT

    def cell_colours(silences):
        board = BattleBoard("Battle", "sub", 3, (BoardRow("Old Betsy", "cannon", "Alice", 3, 3, "ready", None,
                                                          silences=silences),))
        image = decode(render_battle(board)).convert("RGB")
        top = TITLE_H + 8 + 26  # the first row, as render_battle lays it out
        cell = CELL_MAX
        box = (int(TRACK_X + 3), top + 9, int(TRACK_X + cell - 3), top + ROW_H - 9)  # turn 1's cell
        return {image.getpixel((x, y)) for x in range(box[0], box[2]) for y in range(box[1], box[3])}

    assert DIRECT in cell_colours(((1, 2),))
    assert DIRECT not in cell_colours(())
