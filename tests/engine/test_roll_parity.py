"""/roll reads what users of Avrae's d20 and of Dice Maiden type (issue 14, part 4), each form with
entered dice, and never silently differently: what a form means here is said in the reply
(docs/dice.md compares the forms)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import DieKind, EnteredDice, RandomDice
from engine.ledger import verify
from engine.roll import MAX_CHAIN, MAX_EXTRA, ExpressionKind, RollSyntaxError, read, roll
from tests.engine.test_ledger import SECRET, build_log
from tests.engine.test_roll import entered


def one(text: str, faces: str):
    result = roll(text, entered(faces))
    assert len(result.expressions) == 1
    return result.expressions[0]


def faces(e) -> list[str]:
    return [d.face for t in e.terms for d in t.in_order()]


# ---------------------------------------------------------------------------------------- D66

def test_d66_is_two_d6_read_as_tens_and_units():
    e = one("d66", "3 5")
    assert e.total == 35 and faces(e) == ["35"]
    assert [(d.kind, d.purpose) for d in e.dice] == [(DieKind.D6, "d66 tens"), (DieKind.D6, "d66 units")]


def test_several_d66_and_a_sum():
    assert one("2d66+1", "1 1 6 6").total == 11 + 66 + 1


def test_d66_takes_no_modifiers():
    with pytest.raises(RollSyntaxError, match=r"keep does not apply to the D66 \(tens and units\)"):
        read("2d66kh1")


def test_a_66_sided_die_is_not_written_d66():
    # d66 is always the wargame D66; a die of 66 sides is not a die anyone owns (docs/dice.md).
    e = one("1d66", "6 6")
    assert e.total == 66 and len(e.dice) == 2


# ---------------------------------------------------------------------------------- exploding

def test_bang_explodes_on_the_top_face_again_and_again():
    # 6 explodes into 6, which explodes into 2; 3 stands.
    e = one("2d6!", "6 3 6 2")
    assert e.total == 6 + 3 + 6 + 2
    assert faces(e) == ["6", "6", "2", "3"]  # each die followed by what it added
    assert [d.exploded for d in e.terms[0].dice] == [False, False, True, True]


def test_e6_explodes_each_die_once_as_dice_maiden_does():
    e = one("2d6e6", "6 3 6")
    assert e.total == 15  # the added 6 does not explode again
    assert "explodes once" in " ".join(__import__("cogs.dice.words.roll", fromlist=["notes_of"]).notes_of(e))


def test_ie_explodes_on_a_face_or_more_again_and_again():
    assert one("1d10ie9", "9 10 3").total == 22


def test_explosions_stop_at_the_bound_and_say_so():
    e = roll("1d2ie2", RandomDice(0)).expressions[0]
    # a d2 exploding on 2 goes on with probability 1/2 each time; force it with entered 2s
    e = one("1d2ie2", " ".join(["2"] * (MAX_CHAIN + 1)))
    assert e.terms[0].bounded and e.total == 2 * (MAX_CHAIN + 1)
    assert sum(d.exploded for d in e.terms[0].dice) == MAX_CHAIN


def test_one_command_adds_at_most_the_extra_dice_bound():
    result = roll(", ".join(["100d2!"] * 10), RandomDice(1))
    extra = sum(d.exploded or d.rerolled for e in result.expressions for t in e.terms for d in t.dice)
    assert extra <= MAX_EXTRA


@pytest.mark.parametrize("text, message", [
    ("1d6!1", "would explode on every face of the d6 for ever"),
    ("1d6e7", "explodes on 7, a face a d6 never shows"),
    ("1a!", "an explosion applies to numbered dice"),
])
def test_explosions_that_cannot_be(text, message):
    with pytest.raises(RollSyntaxError, match=message):
        read(text)


# ---------------------------------------------------------------------------------- keep, drop

@pytest.mark.parametrize("text, total", [
    ("4d6k3", 6 + 5 + 3), ("4d6kh3", 14), ("4d6kl1", 1), ("4d6dl1", 14), ("4d6dh1", 1 + 3 + 5),
    ("4d6d1", 14), ("4d6 d1", 14),
])
def test_keep_and_drop(text, total):
    assert one(text, "1 6 3 5").total == total


def test_drop_comes_before_keep_as_dice_maiden_orders_them():
    # drop the lowest (1), then keep the highest 2 of 6 3 5
    assert one("4d6d1k2", "1 6 3 5").total == 11


def test_a_space_then_d2_is_another_die_not_a_drop():
    result = roll("3d10 d2", entered("1 2 3 2"))
    assert [e.expression.text for e in result.expressions] == ["3d10", "d2"]


# ---------------------------------------------------------------------------------- re-rolls

def test_r2_rerolls_two_or_less_once_as_dice_maiden_does():
    e = one("3d6r2", "1 2 6 1 4")  # 1 -> 1 (stands: once), 2 -> 4
    assert e.total == 1 + 4 + 6


def test_ro1_rerolls_ones_once_as_d20_does():
    assert one("3d6ro2", "1 2 6 5").total == 1 + 5 + 6  # only the 2


def test_ir_and_rr_reroll_again_and_again():
    assert one("2d6ir2", "1 6 2 1 5").total == 5 + 6
    assert one("2d6rr1", "1 6 1 1 4").total == 4 + 6


# ------------------------------------------------------------------------ advantage, +d20

@pytest.mark.parametrize("text, total", [("1d20 adv", 17), ("1d20 dis", 4), ("2d20kh1", 17), ("2d20kl1", 4),
                                         ("+d20", 17), ("-d20", 4), ("1d20adv+5", 22)])
def test_advantage_and_disadvantage(text, total):
    e = one(text, "4 17")
    assert e.total == total and len(e.dice) == 2


def test_advantage_is_named_in_the_reply():
    from cogs.dice.words.roll import outcome

    assert "advantage: 2d20, the higher kept" in outcome(one("+d20", "4 17"))
    assert "disadvantage: 2d20, the lower kept" in outcome(one("1d20 dis", "4 17"))


def test_adv_rolls_one_die_twice():
    with pytest.raises(RollSyntaxError, match="'adv' rolls one die twice and keeps the higher: write 1d20 adv"):
        read("2d20 adv")


# ----------------------------------------------------------------------------------- labels

@pytest.mark.parametrize("text, label", [
    ("1d20+5 to hit", "to hit"), ("1d20+5 # to hit", "to hit"), ("4d6 ! stats roll", "stats roll"),
    ("2d6!# boom", "boom"), ("1d20+5 damage", "damage"), ("2d6, 1d6 morale test", "morale test"),
    ("1d20 save vs fear", "save vs fear"),
])
def test_trailing_words_are_the_rolls_label(text, label):
    expressions, got = read(text)
    assert got == label and expressions


def test_each_expression_keeps_its_own_label_words_ending_at_a_comma():
    expressions, first = read("1d20+5 to hit, 2d6 damage, 4d6k3, d66 ! a label, with a comma")
    assert [e.text for e in expressions] == ["1d20+5", "2d6", "4d6k3", "d66"]
    assert [e.label for e in expressions] == ["to hit", "damage", None, "a label, with a comma"]
    assert first == "to hit"


def test_a_word_that_reads_as_a_die_is_a_die():
    expressions, label = read("2d6 d6 a s")
    assert [e.text for e in expressions] == ["2d6", "d6", "a", "s"] and label is None


# ---------------------------------------------------------------------------- other dice, maths

def test_d_percent_is_a_d100():
    e = one("d%", "73")
    assert e.total == 73 and e.dice[0].sides == 100


def test_fudge_dice_are_d3s_read_as_minus_zero_plus():
    e = one("4dF", "1 2 3 3")
    assert e.total == -1 + 0 + 1 + 1 and faces(e) == ["-", "0", "+", "+"]
    assert all(d.kind is DieKind.D3 for d in e.dice)


@pytest.mark.parametrize("text, dice, total", [
    ("(2d6+1)*2", "3 4", 16), ("2d6*3/2", "3 4", 10), ("10-2d6/2", "3 4", 7), ("-(1d6+2)", "4", -6),
    ("(1d6+1)*(1d6-1)", "2 4", 9), ("7/2d6", "1 2", 2), ("-7/2", None, None),
])
def test_arithmetic_with_parentheses(text, dice, total):
    if dice is None:
        with pytest.raises(RollSyntaxError, match="rolls no dice"):
            read(text)
        return
    assert one(text, dice).total == total


def test_division_rounds_down_and_by_zero_is_one_error_with_a_caret():
    assert one("1d6/4", "6").total == 1
    assert one("-1d6/4", "6").total == -2
    with pytest.raises(RollSyntaxError, match="a division by 0 has no result") as err:
        read("2d6/0")
    assert err.value.position == 3
    with pytest.raises(RollSyntaxError, match="the dice made this divisor 0") as err:
        roll("6/(1d6-1)", entered("1"))
    assert err.value.position == 1


def test_a_parenthesis_left_open_or_too_deep():
    with pytest.raises(RollSyntaxError, match="the parenthesis at character 1 is never closed"):
        read("(2d6+1")
    with pytest.raises(RollSyntaxError, match="parentheses nest at most 10 deep"):
        read("(" * 11 + "1d6" + ")" * 11)


# --------------------------------------------------------------------------------- pools

def test_a_wargamers_pool_is_written_4_plus():
    e = one("6d6 4+", "1 2 3 4 5 6")
    assert (e.kind, e.total) == (ExpressionKind.POOL, 3)
    assert e.expression.text == "6d6 4+"


def test_t_and_f_count_successes_less_failures():
    e = one("5d10 t8 f1", "1 8 9 1 3")
    assert e.total == 2 - 2


def test_a_failure_needs_a_target():
    with pytest.raises(RollSyntaxError, match="a failure face counts against successes: give a target too"):
        read("5d10 f1")


# ----------------------------------------------------------------------------- the roll log

def test_every_new_form_is_logged_and_verifies():
    commands = [("d66", None), ("3d6!", "6 6 1"), ("4d6k3", None), ("1d20 adv", None), ("+d20", None), ("4dF", None),
                ("(2d6+1)*2/3", None), ("10d6 4+ r1", None), ("1d20+5 to hit", None), ("3d6ie6 ir1", None),
                ("d%", None), ("5d10 t8 f1", None)]
    data = build_log(SECRET, commands)
    assert verify(data).ok
    by_die = {d["die"] for e in data["entries"] for d in e["dice"]}
    assert by_die <= {"D6", "D3", "d20", "d10", "d100"}


# ------------------------------------------------------------------------------ properties

@given(st.text(alphabet="0123456789dDasSkhlrtfeiF%+-*/<>=,;!#() x\t", max_size=40))
@settings(max_examples=500, deadline=None)
def test_any_text_with_the_new_forms_rolls_or_is_one_error_with_a_caret(text):
    try:
        result = roll(text, RandomDice(0))
    except RollSyntaxError as err:
        assert 0 <= err.position <= max(len(text), 1)
        assert str(err).count("^") == 1
    else:
        assert 1 <= len(result.expressions) <= 10
        assert len(result.dice) <= 2 * 1000 + MAX_EXTRA


@given(st.integers(1, 20), st.sampled_from([4, 6, 8, 10, 20]), st.integers(0, 2**32),
       st.sampled_from(["!", "e", "ie", "r1", "ro1", "ir1", "k1", "kl1", "dl1", "dh1", " 4+", " t3 f1", ""]))
@settings(max_examples=200, deadline=None)
def test_the_bots_faces_entered_by_hand_give_the_same_roll(count, sides, seed, modifier):
    from tests.engine.replay import as_bot

    text = f"{count}d{sides}{modifier}"
    try:
        read(text)
    except RollSyntaxError:
        return
    by_bot = roll(text, RandomDice(seed))
    by_players = roll(text, EnteredDice(" ".join(d.face for d in by_bot.dice), RandomDice(seed + 1)))
    assert as_bot(by_players) == by_bot
