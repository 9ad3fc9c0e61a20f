"""Issue 30, item 3: /roll reads what players type. ``adv``/``dis`` anywhere in an expression
(as Avrae does), ``2d6 x2`` a repeat, a word that is a roll modifier never silently a label, an
en dash a minus."""

import pytest

from engine.roll import MAX_EXPRESSIONS, RollSyntaxError, parse, roll
from tests.engine.test_roll import entered


@pytest.mark.parametrize("text", ["1d20+5 adv", "1d20 adv+5", "adv 1d20+5", "1d20+5 adv to hit", "ADV 1d20 + 5"])
def test_advantage_anywhere_rolls_two_d20_and_keeps_the_higher(text):
    result = roll(text, entered("4 17"))
    e = result.expressions[0]
    assert e.total == 22 and len(e.dice) == 2
    assert result.label in (None, "to hit")


@pytest.mark.parametrize("text", ["1d20+5 dis", "dis 1d20+5", "1d20+5 disadvantage"])
def test_disadvantage_anywhere_keeps_the_lower(text):
    assert roll(text, entered("4 17")).expressions[0].total == 9


def test_advantage_with_a_label_keeps_the_label_and_not_the_word():
    result = roll("1d20+5 adv to hit, 2d6 damage", entered("4 17 3 3"))
    assert [e.expression.label for e in result.expressions] == ["to hit", "damage"]
    assert result.expressions[0].total == 22 and result.expressions[1].total == 6


def test_advantage_needs_a_single_die():
    with pytest.raises(RollSyntaxError, match="no single die"):
        parse("3d6+2 adv")


def test_x2_repeats_the_expression():
    result = roll("2d6 x2", entered("1 2 6 6"))
    assert [e.total for e in result.expressions] == [3, 12]
    assert result.label is None
    result = roll("2d6+1 x3 damage", entered("1 1 2 2 3 3"))
    assert [e.total for e in result.expressions] == [3, 5, 7]
    assert all(e.expression.label == "damage" for e in result.expressions)


@pytest.mark.parametrize("text", ["2d6 x1", f"2d6 x{MAX_EXPRESSIONS + 1}", "2d6 x2 x3"])
def test_a_repeat_out_of_bounds_is_refused(text):
    with pytest.raises(RollSyntaxError, match="repeat"):
        parse(text)


@pytest.mark.parametrize("text, written", [
    ("1d20+5 kh1", "2d20kh1+5"),
    ("2d6+1 r1", "2d6r1+1"),
    ("3d6+2 e6", "3d6e6+2"),
    ("1d20+5 ro1", "1d20ro1+5"),
])
def test_a_label_that_is_a_modifier_is_refused_with_the_way_to_write_it(text, written):
    with pytest.raises(RollSyntaxError) as e:
        parse(text)
    assert "roll modifier" in str(e.value) and written in str(e.value) and "#" in str(e.value)


def test_the_hash_keeps_a_modifier_like_word_as_a_label():
    assert roll("1d20+5 # kh1", entered("10")).label == "kh1"


@pytest.mark.parametrize("dash", ["\u2013", "\u2014", "\u2212"])
def test_an_en_dash_reads_as_a_minus(dash):
    assert roll(f"1d20 {dash} 2", entered("10")).expressions[0].total == 8
    assert roll(f"2d6{dash}1", entered("3 3")).expressions[0].total == 5


def test_the_docs_division_example_rolls():
    assert roll("(1d6-8)/2", entered("1")).expressions[0].total == -4


@pytest.mark.parametrize("text", ["10d6+0 >=4", "1d6+1 4+"])
def test_a_pool_target_after_a_sum_is_refused_never_a_label(text):
    with pytest.raises(RollSyntaxError):
        parse(text)
