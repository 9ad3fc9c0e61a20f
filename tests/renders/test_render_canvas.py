"""The drawing kit (renders/canvas.py): the one model-to-pixel mapping, the scale bar, label
placement, text helpers and PNG encoding."""

from __future__ import annotations

import io
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from engine.geometry import Point
from renders import canvas
from renders.canvas import INK, Canvas, LegendItem, Viewport, clip_segment, fit_text, key_size, length_text, text_width, wrap

WINDOW = (-5.0, 20.0, 5.0, 40.0)
"""10 in wide, 20 in deep, 20 to 40 in from the firer."""
BOX = (10.0, 50.0, 210.0, 450.0)
"""200 x 400 pixels: 20 pixels an inch, exactly."""


def test_the_far_edge_is_at_the_top_and_the_firer_below() -> None:
    vp = Viewport.fit(WINDOW, BOX)
    assert vp.scale == 20
    assert vp.px(-5, 40) == (10, 50)  # far left corner: top left of the box
    assert vp.px(5, 20) == (210, 450)  # near right corner: bottom right
    (_, near), (_, far) = vp.px(0, 21), vp.px(0, 39)
    assert far < near, "+y (away from the firer) points up the picture"
    assert vp.px(1, 30)[0] > vp.px(0, 30)[0], "+x (the firer's right) points right"
    assert vp.box == BOX
    assert vp.at(Point(2, 25)) == vp.px(2, 25)


def test_fit_keeps_one_scale_and_grows_the_window_about_its_centre() -> None:
    vp = Viewport.fit((0.0, 0.0, 10.0, 10.0), (0.0, 0.0, 400.0, 200.0))
    assert vp.scale == 20
    assert vp.window == (-5, 0, 15, 10)
    assert vp.span(3) == 60
    capped = Viewport.fit((0.0, 0.0, 1.0, 1.0), (0.0, 0.0, 400.0, 200.0), max_scale=64)
    assert capped.scale == 64
    assert capped.box == (0, 0, 400, 200)


@given(
    x=st.floats(-5, 5), y=st.floats(20, 40),
    width=st.floats(50, 2000), height=st.floats(50, 2000),
)
def test_every_window_point_lands_in_the_box(x: float, y: float, width: float, height: float) -> None:
    box = (7.0, 11.0, 7.0 + width, 11.0 + height)
    vp = Viewport.fit(WINDOW, box)
    px, py = vp.px(x, y)
    assert box[0] - 1e-6 <= px <= box[2] + 1e-6
    assert box[1] - 1e-6 <= py <= box[3] + 1e-6
    assert math.isclose(vp.span(1), vp.px(1, 0)[0] - vp.px(0, 0)[0])


def test_clip_keeps_the_part_inside_the_window() -> None:
    vp = Viewport.fit(WINDOW, BOX)
    (ax, ay), (bx, by) = vp.clip(Point(0, 0), Point(0, 30))
    assert (ax, ay) == vp.px(0, 20) and (bx, by) == vp.px(0, 30)
    assert vp.clip(Point(10, 0), Point(10, 50)) is None
    assert clip_segment((0, 0), (10, 0), (2, -1, 4, 1)) == ((2, 0), (4, 0))


def test_length_text_writes_inches_with_the_inch_mark() -> None:
    assert length_text(30, "in") == '30"'
    assert length_text(2.5, "in") == '2.5"'
    assert length_text(7.0 / 3, "in") == '2.3"'
    assert length_text(15, "cm") == "15 cm"


def test_the_compact_key_lays_its_items_in_columns_within_its_width() -> None:
    items = [LegendItem(f"item number {i}", lambda c, b: c.draw.rectangle(b, fill=INK)) for i in range(7)]
    w, h = key_size(items, width=800)
    assert w <= 800
    canvas = Canvas(900, 400)
    box = canvas.key((10, 10), items, width=800)
    assert box == (10, 10, 10 + w, 10 + h)
    rows = {round(t.box[1]) for t in canvas.written if t.text.startswith("item")}
    assert 1 < len(rows) < 7  # side by side in columns, not one long list
    narrow = key_size(items, width=260)
    assert narrow[1] > h  # fewer columns, more rows


def test_wrap_and_fit_text_stay_inside_the_width() -> None:
    text = "The charge fails and the barrel must be cleared: no shot this turn nor in your next turn."
    lines = wrap(text, size=13, width=200)
    assert " ".join(lines) == text
    assert all(text_width(line, size=13) <= 200 for line in lines)
    short = fit_text(text, size=13, width=150)
    assert short.endswith("…") and text_width(short, size=13) <= 150


def ink_runs(row: np.ndarray) -> list[tuple[int, int]]:
    hit = np.all(row == canvas.INK, axis=1).astype(np.int8)
    edges = np.flatnonzero(np.diff(np.concatenate(([0], hit, [0]))))
    return list(zip(edges[::2], edges[1::2]))


@pytest.mark.parametrize(("scale", "unit", "total"), [(20.0, "in", 8), (30.0, "in", 5), (7.0, "cm", 20)])
def test_the_scale_bar_is_as_long_as_it_says(scale: float, unit: str, total: int) -> None:
    vp = Viewport(0, 0, 10, 10, 0, 0, scale)
    c = Canvas(300, 60)
    box = c.scale_bar((10, 10), vp, unit, longest=160)
    pixels = np.asarray(c.image.convert("RGB"))
    start, end = ink_runs(pixels[10])[0]  # the bar's top edge, dark across its whole length
    assert start == 10
    assert end - 1 - start == pytest.approx(total * scale, abs=1)
    assert box[2] > 10 + total * scale, "the unit is written after the last step"


def test_labels_are_placed_clear_of_what_is_kept_clear() -> None:
    c = Canvas(400, 300)
    unit = (100.0, 100.0, 300.0, 200.0)
    c.keep_clear(unit)
    c.keep_clear_of_line((200.0, 300.0), (200.0, 0.0))
    first = c.place((200.0, 150.0), ["the ball lands here"], within=(0, 0, 400, 300))
    second = c.place((200.0, 150.0), ["aim marker"], within=(0, 0, 400, 300))
    for label in (first, second):
        assert not canvas.overlaps(label.box, unit)
        assert clip_segment((200.0, 300.0), (200.0, 0.0), label.box) is None
        assert label.leader is not None and label.leader[0] == (200.0, 150.0)
    assert not canvas.overlaps(first.box, second.box)


def test_png_is_the_same_bytes_every_time_and_keeps_named_colours() -> None:
    def draw() -> bytes:
        c = Canvas(120, 80)
        for i, colour in enumerate(canvas.PALETTE):
            c.draw.rectangle((i * 7, 0, i * 7 + 6, 30), fill=colour)
        c.text((5, 40), "R1 F3 direct hit", size=13, halo=True)
        return c.png()

    png = draw()
    assert png == draw()
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.mode == "P" and image.size == (120, 80)
    pixels = np.asarray(image.convert("RGB"))
    for i, colour in enumerate(canvas.PALETTE):
        assert tuple(pixels[15, i * 7 + 3]) == colour


def test_fonts_are_pillows_own_at_the_asked_size() -> None:
    f = canvas.font(13)
    assert f.getname() == ("Aileron", "Regular")
    assert f.size == 13


def test_a_leader_turns_away_from_the_path_it_starts_on() -> None:
    """Boxed in on three sides, the label goes up beside the path that ends at its anchor; its
    leader leaves at an angle instead of running on up the path."""
    c = Canvas(400, 300)
    anchor = (200.0, 200.0)
    c.keep_clear_of_line((200.0, 300.0), anchor, path=True)  # the path comes up to the anchor
    for box in ((0.0, 190.0, 400.0, 300.0), (0.0, 0.0, 120.0, 300.0), (280.0, 0.0, 400.0, 300.0)):
        c.keep_clear(box)
    label = c.place(anchor, ["the ball ends here"], within=(0, 0, 400, 300))
    assert label.box[3] <= 190
    assert label.leader is not None
    (ax, ay), (ex, ey) = label.leader
    assert canvas._angle_between((ex - ax, ey - ay), (0.0, 1.0)) >= 30, "the leader must not read as the path going on"


def test_a_label_sits_outside_an_area_it_would_rather_not_cover() -> None:
    c = Canvas(400, 300)
    unit = (100.0, 50.0, 300.0, 200.0)
    c.rather_not_cover(unit, cost=200)
    anchor = (200.0, 190.0)  # just inside the unit's near edge
    label = c.place(anchor, ["the ball lands here"], within=(0, 0, 400, 300))
    assert not canvas.overlaps(label.box, unit)
    assert label.leader is None or math.dist(*label.leader) < 40
    assert c.labels == [label]
    # With no room outside, it covers the area rather than going far.
    tight = Canvas(400, 300)
    tight.rather_not_cover((0.0, 0.0, 400.0, 300.0), cost=200)
    inside = tight.place((200.0, 150.0), ["here"], within=(0, 0, 400, 300))
    assert inside.leader is None or math.dist(*inside.leader) < 20
