"""A /roll error quotes a short excerpt of the expression around its caret, never all of it
(issue 19, part 5: `make fuzz` found a 200-character expression quoted whole)."""

import pytest

from engine.roll import SHOWN_AROUND, RollSyntaxError, parse


@pytest.mark.parametrize("text, bad", [
    ("-" + "9" * 199, None),                        # too long: the caret at the end
    ("d6+" * 30 + "x+d6", "x"),                     # the caret in the middle of a long roll
    ("x" + "+d6" * 40, "x"),                        # the caret at the start
])
def test_a_long_expression_is_quoted_as_a_window_with_the_caret_under_its_character(text, bad):
    with pytest.raises(RollSyntaxError) as caught:
        parse(text)
    shown, caret = str(caught.value).split("```\n")[1].splitlines()[:2]
    assert len(shown) <= SHOWN_AROUND + 2
    column = caret.index("^")
    if bad is not None:
        assert shown[column] == bad


def test_a_short_expression_is_quoted_whole():
    with pytest.raises(RollSyntaxError) as caught:
        parse("2d6+x")
    assert "```\n2d6+x\n    ^\n```" in str(caught.value)
