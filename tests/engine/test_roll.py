"""/roll's grammar (engine/roll.py): what each expression rolls with entered dice, every error
message with its caret, and properties over generated expressions."""

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.dice import MAX_ENTERED, DiceError, DieKind, EnteredDice, RandomDice, Roller
from engine.roll import MAX_DICE, SHOWN_AROUND, ExpressionKind, RollSyntaxError, parse, roll
from tests.engine.replay import as_bot


def entered(faces: str):
    """The players' faces only: a die beyond them is a bug in the test."""
    return EnteredDice(faces, NoMore())


class NoMore(RandomDice):
    def roll(self, *args, **kwargs):
        raise AssertionError("rolled more dice than the test entered")


def one(text: str, faces: str):
    result = roll(text, entered(faces))
    assert len(result.expressions) == 1
    return result.expressions[0]


# ------------------------------------------------------------------------------------ outcomes


def test_a_sum_adds_the_dice_and_the_constants():
    e = one("2d6+1", "4 6")
    assert (e.kind, e.total) == (ExpressionKind.SUM, 11)
    assert [d.face for d in e.dice] == ["4", "6"]
    assert all(d.kind is DieKind.D6 and d.by is Roller.PLAYER for d in e.dice)


def test_a_sum_takes_away_dice_and_numbers():
    assert one("d20 - 1d3 - 2", "15 3").total == 10


def test_dice_of_any_size_are_numbered_dice():
    e = one("3d20", "20 1 7")
    assert e.total == 28
    assert {d.die for d in e.dice} == {"d20"}


def test_a_pool_counts_the_dice_at_or_above_the_target():
    e = one("6d6>=4", "1 2 3 4 5 6")
    assert (e.kind, e.total) == (ExpressionKind.POOL, 3)
    assert [d.success for d in e.terms[0].dice] == [False, False, False, True, True, True]


@pytest.mark.parametrize(("text", "successes"), [("6d6>4", 2), ("6d6<=2", 2), ("6d6<2", 1)])
def test_other_pool_targets(text, successes):
    assert one(text, "1 2 3 4 5 6").total == successes


def test_a_reroll_rolls_each_one_once_and_the_new_face_stands():
    # 10 dice, three 1s re-rolled: to 6, to 1 (stands), to 5.
    e = one("10d6>=5 r1", "1 2 1 5 6 3 4 1 2 6  6 1 5")
    t = e.terms[0]
    assert [d.rerolled for d in t.dice[:10]] == [True, False, True, False, False, False, False, True, False, False]
    assert [d.roll.face for d in t.dice[10:]] == ["6", "1", "5"]
    assert [d.roll.purpose for d in t.dice[10:]] == ["10d6>=5r1 re-roll"] * 3
    assert e.total == 5  # 5 6 6, and the re-rolls 6 and 5
    assert all(d.success is None for d in t.dice if d.rerolled)


def test_a_reroll_below_a_face():
    e = one("3d6r<3", "1 2 3 6 4")
    assert e.total == 3 + 6 + 4


def test_keep_highest_and_lowest():
    e = one("2d6kh1", "2 5")
    assert e.total == 5
    assert [d.dropped for d in e.terms[0].dice] == [True, False]
    assert one("4d6kl2", "6 1 3 2").total == 3
    assert one("4d6 kh3", "6 1 3 2").total == 11


def test_the_artillery_die_shows_its_real_faces_and_a_misfire_has_no_total():
    assert one("1a", "10").total == 10
    e = one("1a+1d6", "M 4")
    assert e.misfire and e.total is None
    assert e.dice[0].is_misfire


def test_entered_faces_must_fit_the_die():
    with pytest.raises(DiceError, match="'3' .* does not fit the artillery die"):
        one("1a", "3")
    with pytest.raises(DiceError, match="'21' .* does not fit the d20 rolled for 1d20; faces that fit: 1 to 20"):
        one("1d20", "21")


def test_the_scatter_die_gives_a_hit_or_an_arrow():
    e = one("2s", "H @135")
    assert e.kind is ExpressionKind.SCATTER and e.total is None
    assert [d.face for d in e.dice] == ["H", "@135"]


def test_several_expressions_by_commas_semicolons_or_spaces():
    result = roll("2d6+1, 1a; 1s 3d6>=4 r1", entered("1 2 4 H 4 5 6"))
    assert [e.expression.text for e in result.expressions] == ["2d6+1", "1a", "1s", "3d6>=4r1"]
    assert [d.face for d in result.dice] == ["1", "2", "4", "H", "4", "5", "6"]


def test_spaces_inside_an_expression_are_allowed():
    assert [e.text for e in parse("2d6 + 1 , 10d6 >=5 r1")] == ["2d6+1", "10d6>=5r1"]


def test_faces_left_over_are_refused():
    with pytest.raises(DiceError, match="left over"):
        roll("1d6", entered("4 5"))


def test_the_bot_rolls_what_players_leave_out():
    result = roll("3d6", EnteredDice("6", RandomDice(1)))
    assert [d.by for d in result.dice] == [Roller.PLAYER, Roller.BOT, Roller.BOT]


def test_a_thousand_dice_are_rolled_and_one_more_is_refused():
    assert len(roll(f"{MAX_DICE}d6>=4", RandomDice(5)).dice) == MAX_DICE
    with pytest.raises(RollSyntaxError, match="at most 1000"):
        parse("500d6, 500d6 1d6")


# ------------------------------------------------------------------------------------- errors

ERRORS = [
    ("", "give at least one expression, e.g. 2d6+1", 0),
    ("   ", "give at least one expression, e.g. 2d6+1", 3),
    ("2d6+", "the expression ends where a die or a number should follow", 4),
    ("2d6+x", "'x' cannot start a roll: write a die like 2d6, 1a or 1s, or a number", 4),
    ("x", "'x' cannot start a roll", 0),
    ("2x6", "'x' is not part of a roll here", 1),
    ("2d6 )", "')' is not part of a roll here", 4),
    ("2d6,", "a comma at the end should be followed by another expression", 3),
    ("0d6", "0 dice rolls nothing: roll at least 1", 0),
    ("2d1", "a d1 cannot be rolled: dice have 2 to 1000 sides", 2),
    ("1d1001", "a d1001 cannot be rolled", 2),
    ("2d", "the number of sides should be a number here, not the end", 2),
    ("2dx", "the number of sides should be a number here, not 'x'", 2),
    ("99999d6", "99999 is too big: numbers go up to 10000", 0),
    ("1001d6", "that makes 1001 dice; one /roll rolls at most 1000", 0),
    ("600d6, 600d6", "that makes 1200 dice; one /roll rolls at most 1000", 7),
    ("2d6kh3", "'2d6kh3' keeps 3 of 2 dice: keep 1 to 2", 3),
    ("2d6kh0", "'2d6kh0' keeps 0 of 2 dice: keep 1 to 2", 3),
    ("2d6kh1kl1", "keep is given twice for one roll", 6),
    ("2d6r1r2", "a re-roll is given twice for one roll", 5),
    ("2d6>=4>=5", "a success target is given twice for one roll", 6),
    ("2d6r>3", "a re-roll takes a face (r1) or faces below one (r<3, r<=2)", 3),
    ("2d6ro7", "'2d6ro7' re-rolls no face a d6 shows (1 to 6)", 3),
    ("2d6r7", "'2d6r7' would re-roll every face of the d6", 3),
    ("2d6r<7", "'2d6r<7' would re-roll every face of the d6", 3),
    ("2d6r", "the face to re-roll should be a number here, not the end", 4),
    ("2d6>=7", "'2d6>=7' can never succeed: a d6 shows 1 to 6", 3),
    ("2d6<1", "'2d6<1' can never succeed", 3),
    ("2d6>=", "the target should be a number here, not the end", 5),
    ("1a>=4", "a success target applies to numbered dice (d6, d20), not the artillery die", 2),
    ("1akh1", "keep applies to numbered dice (d6, d20), not the artillery die", 2),
    ("1s r1", "a re-roll applies to numbered dice (d6, d20), not the scatter die", 3),
    ("5", "'5' rolls no dice", 0),
    ("2d6, 3+4", "'3+4' rolls no dice", 5),
    ("20d6>=4+1", "a success pool stands alone: give it its own expression, after a comma", 7),
    ("1+20d6>=4", "a success pool stands alone", 1),
    ("1s+1", "scatter dice show a direction and cannot be added: give them their own expression", 2),
    ("-1s", "a minus sign goes only before dice or numbers that add up", 0),
    ("-6d6>=4", "a minus sign goes only before dice or numbers that add up", 0),
    ("1d6 " * 11, "one /roll takes at most 10 expressions", 40),
    ("1d6+" * 60 + "1", "the roll is 241 characters long; keep it to 200", 199),
]


@pytest.mark.parametrize(("text", "message", "caret"), ERRORS, ids=[e[0][:20] or "empty" for e in ERRORS])
def test_every_syntax_error_names_the_problem_and_points_at_it(text, message, caret):
    with pytest.raises(RollSyntaxError) as err:
        parse(text)
    assert message in err.value.reason
    assert err.value.position == caret
    shown = str(err.value).split("\n")
    assert shown[0] == f"Roll: {err.value.reason} (at character {caret + 1}):"
    assert shown[1] == "```" and shown[-1] == "```"
    if len(text[:200]) <= SHOWN_AROUND:
        assert shown[3] == " " * caret + "^"
        assert shown[2] == text[:200]
    else:  # a window of the expression around the caret, the caret under its character
        column = shown[3].index("^")
        assert len(shown[2]) <= SHOWN_AROUND + 2 and shown[2][column] == text[caret]


def test_a_syntax_error_is_a_rules_error():
    from engine.errors import RulesError

    assert issubclass(RollSyntaxError, RulesError)


# --------------------------------------------------------------------------------- properties

SIDES = st.sampled_from([2, 3, 4, 6, 8, 10, 12, 20, 100])


@st.composite
def numbered(draw):
    count = draw(st.integers(1, 30))
    sides = draw(SIDES)
    text = f"{count}d{sides}"
    rerolls = None
    if draw(st.booleans()):
        rerolls = draw(st.integers(1, sides - 1))
        text += f"r<{rerolls + 1}" if draw(st.booleans()) else f"r{rerolls}"
    keep = None
    if draw(st.booleans()):
        keep = draw(st.integers(1, count))
        text += f"k{draw(st.sampled_from('hl'))}{keep}"
    target = None
    if draw(st.booleans()):
        target = draw(st.integers(1, sides))
        text += f">={target}"
    return text, count, keep, target


@given(numbered(), st.integers(0, 2**32))
@settings(max_examples=150, deadline=None)
def test_any_numbered_roll_keeps_its_invariants(term, seed):
    text, count, keep, target = term
    e = roll(text, RandomDice(seed)).expressions[0]
    t = e.terms[0]
    first = t.dice[:count]
    rerolled = sum(d.rerolled for d in first)
    assert len(t.dice) == count + rerolled
    assert not any(d.rerolled for d in t.dice[count:])
    standing = [d for d in t.dice if not d.rerolled]
    assert len(standing) == count
    kept = [d for d in standing if not d.dropped]
    assert len(kept) == (keep or count)
    if target is not None:
        assert e.kind is ExpressionKind.POOL
        assert e.total == sum(1 for d in kept if d.roll.value >= target)
    else:
        assert e.total == sum(d.roll.value for d in kept)


@given(st.lists(numbered(), min_size=1, max_size=4), st.sampled_from(["1a", "1s", "1a+2", ""]), st.integers(0, 2**32))
@example([("26d100r92", 26, None, None), ("26d100r92", 26, None, None), ("26d100r90", 26, None, None),
          ("26d100r92", 26, None, None)], "1a", 0)  # 201 faces, one past what players may type (found by a CI run)
@settings(max_examples=100, deadline=None)
def test_the_bots_faces_entered_by_hand_give_the_same_roll(terms, extra, seed):
    text = ", ".join([t[0] for t in terms] + ([extra] if extra else []))
    by_bot = roll(text, RandomDice(seed))
    faces = " ".join(d.face for d in by_bot.dice)
    if len(by_bot.dice) > MAX_ENTERED:  # more faces than players may type (rerolls can double a pool): refused, in words
        with pytest.raises(DiceError, match=f"give at most {MAX_ENTERED}"):
            EnteredDice(faces, RandomDice(seed + 1))
        return
    by_players = roll(text, EnteredDice(faces, RandomDice(seed + 1)))
    assert all(d.by is Roller.PLAYER for d in by_players.dice)
    assert as_bot(by_players) == by_bot


@given(st.text(alphabet="0123456789dDasSkhlr+-<>=,; x()\t", max_size=40))
@settings(max_examples=400, deadline=None)
def test_any_text_either_rolls_or_is_one_syntax_error_pointing_inside_it(text):
    try:
        result = roll(text, RandomDice(0))
    except RollSyntaxError as err:
        assert 0 <= err.position <= len(text)
        assert str(err).count("^") == 1
    else:
        assert 1 <= len(result.expressions) <= 10
        assert len(result.dice) <= 2 * 1000
