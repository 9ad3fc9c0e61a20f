"""Issue 30, item 4: pictures that agree with the words and read at 400 px.

- The aimed rank and file are always named in a Fantasy picture (the line of fire runs through
  them: the file that matters most).
- Warmaster and 40k pictures carry the count of hits in the title, not only in the subtitle.
- Every text a picture writes meets the 8 px rule (tests/renders/legibility.py now reads every
  written text, the key, sub-lines and marks included): checked for every picture in
  test_legibility.py; here, that the rule reads them all."""

from __future__ import annotations

import re

import pytest

import renders.fantasy.units as units
from renders.canvas import LABEL, TITLE
from tests.renders.legibility import faults
from tests.renders.test_legibility import PICTURES, drawn  # noqa: F401 (the fixture)

FANTASY = [name for name in PICTURES if name.split("-")[0] in ("cannon", "stone", "flame", "bolt")]


@pytest.mark.parametrize("name", FANTASY)
def test_the_aimed_rank_and_file_are_named(name, drawn, monkeypatch):  # noqa: F811
    aimed: list = []
    original = units.unit_names

    def spy(*args, **kwargs):
        aimed.append(kwargs.get("aimed"))
        return original(*args, **kwargs)

    monkeypatch.setattr(units, "unit_names", spy)
    canvas = drawn(PICTURES[name])
    rank, file = next(a for a in reversed(aimed) if a is not None)
    names = {w.text for w in canvas.written if w.role == LABEL}
    assert f"F{file}" in names and f"R{rank}" in names, (name, rank, file, sorted(names))


@pytest.mark.parametrize("name", [n for n in PICTURES if n.startswith(("wm-", "40k-"))])
def test_warmaster_and_40k_titles_carry_the_count_of_hits(name, drawn):  # noqa: F811
    canvas = drawn(PICTURES[name])
    title = next(w.text for w in canvas.written if w.role == TITLE)
    assert re.search(r"\bhits?\b|skewered|missed|hit\b", title), title


def test_the_rule_reads_every_text_the_key_and_sub_lines_included(drawn):  # noqa: F811
    from dataclasses import replace

    canvas = drawn(PICTURES["bolt-stops"])
    plain = next(i for i, w in enumerate(canvas.written) if not w.role)  # a key line, a note, a figure
    canvas.written[plain] = replace(canvas.written[plain], size=14)
    assert any(f"text {canvas.written[plain].text!r} is 6.2 px" in f for f in faults(canvas))
