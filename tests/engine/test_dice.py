"""The dice: DESIGN.md "Player-entered dice" notation, the bot's RandomDice, and the one path both
take into a procedure."""

from __future__ import annotations

import collections

import pytest

from engine.dice import (
    RecordingDice,
    ARTILLERY_FACES,
    DieKind,
    DieRoll,
    EnteredDice,
    RandomDice,
    Roller,
    split_faces,
)
from engine.errors import DiceError, RulesError


def entered(faces: str, no_dice) -> EnteredDice:
    return EnteredDice(faces, no_dice)


# --- errors -----------------------------------------------------------------------------------


def test_dice_error_is_a_rules_error_and_a_value_error():
    assert issubclass(DiceError, RulesError)
    assert issubclass(RulesError, ValueError)


# --- D6 and D3 --------------------------------------------------------------------------------


@pytest.mark.parametrize("face", range(1, 7))
def test_d6_takes_every_face_one_to_six(face, no_dice):
    die = entered(str(face), no_dice).d6("to wound")
    assert die == DieRoll(DieKind.D6, str(face), face, None, "to wound", Roller.PLAYER)


@pytest.mark.parametrize("face", ["0", "7", "10", "M", "H", "@90", "H@90"])
def test_d6_rejects_a_face_it_cannot_show_naming_purpose_and_faces_that_fit(face, no_dice):
    with pytest.raises(DiceError) as err:
        entered(face, no_dice).d6("misfire chart")
    message = str(err.value)
    assert f"'{face}'" in message
    assert "D6" in message and "misfire chart" in message and "1 to 6" in message


@pytest.mark.parametrize("face", range(1, 4))
def test_d3_takes_every_face_one_to_three(face, no_dice):
    die = entered(str(face), no_dice).d3("Multiple Wounds")
    assert (die.kind, die.face, die.value, die.by) == (DieKind.D3, str(face), face, Roller.PLAYER)


@pytest.mark.parametrize("face", ["0", "4", "5", "6", "M", "H", "@0"])
def test_d3_rejects_four_to_six_and_non_numbers(face, no_dice):
    with pytest.raises(DiceError, match="D3 rolled for Multiple Wounds; faces that fit: 1 to 3"):
        entered(face, no_dice).d3("Multiple Wounds")


# --- the artillery die --------------------------------------------------------------------------


@pytest.mark.parametrize("face", ["2", "4", "6", "8", "10"])
def test_artillery_die_takes_its_numbered_faces(face, no_dice):
    die = entered(face, no_dice).artillery("bounce")
    assert (die.kind, die.face, die.value, die.by) == (DieKind.ARTILLERY, face, int(face), Roller.PLAYER)
    assert not die.is_misfire


def test_artillery_die_misfire_has_no_value(no_dice):
    die = entered("M", no_dice).artillery("bounce")
    assert (die.face, die.value) == ("M", None)
    assert die.is_misfire


@pytest.mark.parametrize("face", ["1", "3", "5", "7", "9", "0", "12", "H", "@180"])
def test_artillery_die_rejects_faces_it_does_not_have(face, no_dice):
    with pytest.raises(DiceError) as err:
        entered(face, no_dice).artillery("scatter distance")
    message = str(err.value)
    assert f"'{face}'" in message and "artillery die" in message and "scatter distance" in message
    assert "2, 4, 6, 8, 10 or M" in message


# --- the scatter die ----------------------------------------------------------------------------


def test_scatter_hit(no_dice):
    die = entered("H", no_dice).scatter("scatter")
    assert die == DieRoll(DieKind.SCATTER, "H", None, None, "scatter", Roller.PLAYER)
    assert die.is_hit


@pytest.mark.parametrize(
    ("face", "direction"),
    [("@0", 0), ("@90", 90), ("@180", 180), ("@359", 359), ("@360", 0), ("@450", 90), ("@-90", 270), ("@-1", 359)],
)
def test_scatter_arrow_reads_degrees_clockwise_folded_into_0_to_359(face, direction, no_dice):
    die = entered(face, no_dice).scatter("scatter")
    assert (die.face, die.direction, die.value) == (f"@{direction}", direction, None)
    assert not die.is_hit


def test_scatter_hit_with_small_arrow_keeps_the_arrow_when_the_shot_needs_it(no_dice):
    die = entered("H@30", no_dice).scatter("scatter", small_arrow=True)
    assert (die.face, die.direction) == ("H@30", 30)
    assert die.is_hit


def test_scatter_hit_with_small_arrow_on_a_direct_shot_is_a_plain_hit(no_dice):
    die = entered("H@30", no_dice).scatter("scatter")
    assert (die.face, die.direction) == ("H", None)
    assert die.is_hit


def test_scatter_plain_hit_where_the_small_arrow_is_needed_asks_for_h_at_deg(no_dice):
    with pytest.raises(DiceError, match="H@DEG"):
        entered("H", no_dice).scatter("scatter", small_arrow=True)


@pytest.mark.parametrize("face", ["4", "M", "10"])
def test_scatter_die_rejects_numbers_naming_purpose_and_faces_that_fit(face, no_dice):
    with pytest.raises(DiceError) as err:
        entered(face, no_dice).scatter("scatter")
    message = str(err.value)
    assert f"'{face}'" in message and "scatter die rolled for scatter" in message
    assert "H (hit) or @DEG" in message


# --- notation: case, separators, junk -------------------------------------------------------------


def test_letters_are_case_insensitive(no_dice):
    dice = entered("h m h@45 @90", no_dice)
    assert dice.scatter("a").face == "H"
    assert dice.artillery("b").is_misfire
    assert dice.scatter("c", small_arrow=True).face == "H@45"
    assert dice.scatter("d").face == "@90"
    dice.finish()


@pytest.mark.parametrize(
    "text", ["H 4 8", "H,4,8", "H, 4, 8", "  h ,4,,  8 ", "H\t4\n8", "H  ,  4  ,  8"]
)
def test_faces_split_on_commas_and_any_whitespace(text):
    assert split_faces(text) == ("H", "4", "8")


def test_empty_text_gives_no_faces():
    assert split_faces("") == ()
    assert split_faces(" , ") == ()


@pytest.mark.parametrize(
    ("text", "bad", "position"),
    [("X", "X", 1), ("H 4.5", "4.5", 2), ("H 4 @", "@", 3), ("H@", "H@", 1), ("@abc", "@ABC", 1), ("1d6", "1D6", 1),
     ("@12345", "@12345", 1), ("10000", "10000", 1), ("HH", "HH", 1)],
)
def test_a_token_that_is_no_die_face_is_refused_when_entered_quoting_it(text, bad, position):
    with pytest.raises(DiceError) as err:
        split_faces(text)
    assert f"'{bad}' (die {position}) is not a die face" in str(err.value)


def test_entered_dice_refuses_junk_before_any_die_is_rolled(no_dice):
    with pytest.raises(DiceError):
        EnteredDice("H 4 junk", no_dice)


def test_entered_dice_accept_an_iterable_of_faces(no_dice):
    dice = EnteredDice(["h", "4"], no_dice)
    assert dice.given == 2
    assert dice.scatter("scatter").is_hit
    assert dice.artillery("scatter distance").value == 4
    dice.finish()


def test_the_position_in_an_unfit_message_counts_from_one(no_dice):
    dice = entered("H 4 H", no_dice)
    dice.scatter("scatter")
    dice.artillery("scatter distance")
    with pytest.raises(DiceError, match=r"'H' \(die 3\) does not fit the artillery die rolled for bounce"):
        dice.artillery("bounce")


# --- leftovers and the fallback ---------------------------------------------------------------------


def test_faces_left_over_are_an_error_naming_them(no_dice):
    dice = entered("H 4 8 3 5", no_dice)
    dice.scatter("scatter")
    dice.artillery("scatter distance")
    dice.artillery("bounce")
    with pytest.raises(DiceError) as err:
        dice.finish()
    message = str(err.value)
    assert "2 left over (3 5)" in message
    assert "3 of the 5" in message


def test_finish_is_quiet_when_every_face_was_used(no_dice):
    dice = entered("H 4", no_dice)
    dice.scatter("scatter")
    dice.artillery("scatter distance")
    dice.finish()


def test_dice_not_given_are_rolled_by_the_fallback_and_marked_bot():
    dice = EnteredDice("@90", RandomDice(11))
    first = dice.scatter("scatter")
    second = dice.artillery("scatter distance")
    third = dice.d6("to wound")
    dice.finish()
    assert first.by is Roller.PLAYER and first.face == "@90"
    reference = RandomDice(11)
    assert second == reference.artillery("scatter distance")
    assert third == reference.d6("to wound")
    assert second.by is third.by is Roller.BOT
    assert (Roller.PLAYER.value, Roller.BOT.value) == ("player", "bot")


def test_no_faces_means_every_die_is_the_bots():
    dice = EnteredDice("", RandomDice(3))
    reference = RandomDice(3)
    assert dice.given == 0
    for _ in range(10):
        assert dice.d6("x") == reference.d6("x")


# --- RandomDice -------------------------------------------------------------------------------------


def _mixed_rolls(dice, n=300):
    out = []
    for i in range(n):
        kind = (DieKind.D6, DieKind.D3, DieKind.ARTILLERY, DieKind.SCATTER)[i % 4]
        out.append(dice.roll(kind, "test", small_arrow=bool(i % 3 == 0)))
    return out


def test_random_dice_with_the_same_seed_roll_the_same():
    assert _mixed_rolls(RandomDice(1234)) == _mixed_rolls(RandomDice(1234))


def test_random_dice_with_different_seeds_roll_differently():
    assert _mixed_rolls(RandomDice(1)) != _mixed_rolls(RandomDice(2))


def test_random_dice_take_an_int_seed_as_the_key_of_its_decimal_digits():
    assert _mixed_rolls(RandomDice(b"258")) == _mixed_rolls(RandomDice(0x0102))


def test_random_dice_are_marked_bot_and_keep_the_purpose():
    for die in _mixed_rolls(RandomDice(5), 40):
        assert die.by is Roller.BOT and die.purpose == "test"


def chi_square(counts: collections.Counter, expected: dict) -> float:
    return sum((counts[k] - e) ** 2 / e for k, e in expected.items())


# Seeded, so these cannot flake; the bounds are far beyond the 99.9% points (5 dof: 20.5,
# 2 dof: 13.8, 3 dof: 16.3) so they catch a wrong distribution, not bad luck.
N = 60_000


def test_random_d6_shows_every_face_equally_often():
    dice = RandomDice(2024)
    counts = collections.Counter(dice.d6("x").value for _ in range(N))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert chi_square(counts, {v: N / 6 for v in range(1, 7)}) < 30


def test_random_d3_shows_every_face_equally_often():
    dice = RandomDice(2025)
    counts = collections.Counter(dice.d3("x").value for _ in range(N))
    assert set(counts) == {1, 2, 3}
    assert chi_square(counts, {v: N / 3 for v in range(1, 4)}) < 25


def test_random_artillery_die_shows_its_six_faces_equally_often():
    dice = RandomDice(2026)
    rolls = [dice.artillery("x") for _ in range(N)]
    counts = collections.Counter(d.face for d in rolls)
    assert set(counts) == set(ARTILLERY_FACES)
    assert chi_square(counts, {f: N / 6 for f in ARTILLERY_FACES}) < 30
    assert all((d.value is None) == d.is_misfire for d in rolls)
    assert all(d.value == int(d.face) for d in rolls if not d.is_misfire)


def test_random_scatter_die_hits_a_third_of_the_time():
    dice = RandomDice(2027)
    hits = sum(dice.scatter("x").is_hit for _ in range(N))
    assert abs(hits / N - 1 / 3) < 0.01


def test_random_scatter_arrows_point_every_way_evenly():
    dice = RandomDice(2028)
    arrows = [d for d in (dice.scatter("x") for _ in range(3 * N)) if not d.is_hit]
    directions = [d.direction for d in arrows]
    assert set(directions) == set(range(360))
    assert all(d.face == f"@{d.direction}" for d in arrows)
    quadrants = collections.Counter(v // 90 for v in directions)
    assert chi_square(quadrants, {q: len(directions) / 4 for q in range(4)}) < 25


def test_random_scatter_hit_carries_a_small_arrow_only_when_asked():
    dice = RandomDice(2029)
    plain = [d for d in (dice.scatter("x") for _ in range(300)) if d.is_hit]
    assert plain and all(d.face == "H" and d.direction is None for d in plain)
    arrowed = [d for d in (dice.scatter("x", small_arrow=True) for _ in range(300)) if d.is_hit]
    assert arrowed and all(d.face == f"H@{d.direction}" and 0 <= d.direction < 360 for d in arrowed)


def test_more_faces_than_any_shot_rolls_are_refused_up_front():
    from engine.dice import MAX_ENTERED

    assert len(split_faces(" ".join(["4"] * MAX_ENTERED))) == MAX_ENTERED
    with pytest.raises(DiceError, match=f"{MAX_ENTERED + 1} faces .* at most {MAX_ENTERED}"):
        split_faces(" ".join(["4"] * (MAX_ENTERED + 1)))


def test_replayed_dice_come_back_by_kind_and_purpose_and_new_ones_are_rolled():
    from engine.dice import ReplayDice

    first = RecordingDice(RandomDice(3))
    scatter, distance, bounce = first.scatter("scatter"), first.artillery("scatter distance"), first.artillery("bounce")
    replay = ReplayDice(first.rolled, RandomDice(4))
    assert replay.scatter("scatter").face == scatter.face
    assert replay.artillery("scatter distance").face == distance.face
    wound = replay.d6("to wound")  # not in the first run: rolled anew
    assert wound.by is Roller.BOT
    again = replay.artillery("bounce")
    assert (again.face, again.by) == (bounce.face, Roller.PLAYER)
    assert replay.artillery("bounce").by is Roller.BOT  # each recorded die is used once
    replay.finish()


def test_replayed_dice_skip_what_the_fuller_run_no_longer_rolls():
    from engine.dice import ReplayDice

    recorded = (
        DieRoll(DieKind.D6, "5", 5, None, "to hit", Roller.BOT),
        DieRoll(DieKind.D6, "2", 2, None, "pick rank 2", Roller.BOT),
        DieRoll(DieKind.D6, "6", 6, None, "pick rank 3", Roller.BOT),
    )
    replay = ReplayDice(recorded, EnteredDice("1", RandomDice(1)))
    assert replay.d6("to hit").value == 5
    assert replay.d6("pick rank 3").value == 6  # rank 2's pick is passed over
    assert replay.d6("pick rank 2").value == 1  # and cannot come back after a later die was used
    replay.finish()
# Dice of any size (DieKind.DX), for /roll: backward compatible with every source above.


def test_a_die_of_any_size_rolls_one_to_its_sides_and_names_itself():
    from engine.dice import RecordingDice

    dice = RecordingDice(RandomDice(11))
    faces = [dice.dx(20, "p") for _ in range(400)]
    assert {d.value for d in faces} == set(range(1, 21))
    assert all(d.kind is DieKind.DX and d.sides == 20 and d.die == "d20" and d.face == str(d.value) for d in faces)
    assert dice.rolled == faces


def test_a_d6_or_d3_asked_by_size_is_the_usual_die():
    assert RandomDice(1).dx(6, "p").kind is DieKind.D6
    assert RandomDice(1).dx(3, "p").die == "D3"


def test_a_die_size_out_of_bounds_is_a_bug_not_a_rules_error():
    with pytest.raises(ValueError) as err:
        RandomDice(1).dx(1, "p")
    assert not isinstance(err.value, DiceError)


def test_entered_faces_of_a_large_die():
    dice = EnteredDice("100 1", RandomDice(0))
    assert dice.dx(100, "p").value == 100 and dice.dx(100, "p").by is Roller.PLAYER
    with pytest.raises(DiceError, match="'21' \\(die 1\\) does not fit the d20 rolled for p; faces that fit: 1 to 20."):
        EnteredDice("21", RandomDice(0)).dx(20, "p")
    assert EnteredDice("", RandomDice(0)).dx(20, "p").sides == 20
