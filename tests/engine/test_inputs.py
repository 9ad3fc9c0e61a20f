"""engine/inputs.py: the one reader of numbers typed into free-text options."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from engine.errors import RulesError
from engine.inputs import QUOTE_LIMIT, check_list, is_int, quote, read_float, read_int


@pytest.mark.parametrize("text", [
    "²", "1²", "٣", "１２", "inf", "-inf", "nan", "1e5", "1_000", "0x10", "", " ", "--1", "1.2.3",
    "9" * 309, "9" * 4301, "1" * 13, "0." + "1" * 7,
])
def test_refused_numbers_are_one_sentence_that_quotes_them_short(text):
    for read in (read_int, read_float):
        with pytest.raises(RulesError) as e:
            read(text, "Near: x")
        assert str(e.value).startswith("Near: x: '") and len(str(e.value)) < 300


@pytest.mark.parametrize("text,value", [("12", 12.0), ("-4.5", -4.5), ("+.5", 0.5), (" 3 ", 3.0), ("7.", 7.0)])
def test_plain_numbers_read(text, value):
    assert read_float(text, "x") == value


def test_whole_numbers():
    assert read_int("-12", "x") == -12 and read_int("+3", "x") == 3
    assert is_int("42") and not is_int("4.2") and not is_int("²") and not is_int("9" * 13)
    with pytest.raises(RulesError):
        read_int("4.5", "x")


@given(st.text(max_size=400))
def test_any_text_is_a_finite_number_or_a_rules_error(text):
    try:
        value = read_float(text, "x")
    except RulesError as e:
        assert len(str(e)) < 300
    else:
        assert value == value and abs(value) < 1e13


def test_quote_keeps_the_start_and_counts_the_rest():
    assert quote("short") == "short"
    long = quote("a" * 6000)
    assert len(long) <= QUOTE_LIMIT + 30 and long.startswith("a" * 50) and "more characters" in long
    assert quote("a\nb\x00c") == "a\ufffdb\ufffdc"


def test_a_list_over_its_cap_is_refused_naming_the_cap():
    check_list(24, 24, "Near: units")
    with pytest.raises(RulesError, match="at most 24"):
        check_list(25, 24, "Near: units")
