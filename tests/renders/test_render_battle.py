"""The /battle status picture: a valid, repeatable PNG, and golden boards."""

from renders.battle import BattleBoard, BoardRow, render_battle
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
    assert image.width == 760 and image.height == 62 + 34 + 46 * 4 + 36


def test_golden_boards(golden):
    golden("battle_board", render_battle(BOARD))
    golden("battle_board_empty", render_battle(BattleBoard("Battle 1: turn 1", "1 player · 0 shots", 1, ())))
