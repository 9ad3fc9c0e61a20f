"""A canvas draws on its palette from the start (renders/canvas.py, issue 26): the picture is the one the
old way made, an RGB picture mapped onto the palette at the end by Pillow. Each case below draws the
same things both ways and compares the indices pixel for pixel: shapes, text on one colour, text over
lines and bases, haloed text, a knockout, text cut by the picture's edge, a colour the palette does
not hold. And the image's pixels are the PNG's rows, their filter bytes untouched."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw

from renders import canvas
from renders.canvas import BASE, DIRECT, GRID, INK, PAPER, TABLE, TITLE_BG, TITLE_SUB, WHITE, Canvas

W, H = 320, 200


class Old:
    """The same drawing the old way: an RGB image, text pasted through its masks."""

    def __init__(self, background=PAPER, extra=()):
        self.image = Image.new("RGB", (W, H), background)
        self.draw = ImageDraw.Draw(self.image)
        self.extra = tuple(extra)

    def text(self, xy, text, *, size=13, fill=INK, anchor="la", halo=False, knockout=None):
        mask, ring, _, _ = canvas._glyphs(text, size, anchor, canvas.HALO if halo else 0)
        box = canvas.text_box(xy, text, size=size, anchor=anchor, halo=halo)
        if knockout is not None:
            self.draw.rectangle(canvas.grow(box, 1), fill=knockout)
        if ring is not None:
            self.image.paste(WHITE, box[:2], ring)
        self.image.paste(fill, box[:2], mask)

    def indices(self):
        mapped = self.image.quantize(palette=canvas._palette_image(self.extra), dither=Image.Dither.NONE)
        return np.asarray(mapped)


def both(draw, **kwargs):
    new, old = Canvas(W, H, **kwargs), Old(**kwargs)
    draw(new)
    draw(old)
    return np.asarray(new.image), old.indices()


def shapes(c):
    c.draw.rectangle((10, 10, 120, 80), fill=TABLE, outline=INK, width=2)
    c.draw.line([(0, 0), (W, H)], fill=GRID, width=3)
    c.draw.ellipse((150, 20, 230, 100), fill=DIRECT, outline=WHITE)
    c.draw.polygon([(250, 10), (310, 60), (260, 90)], fill=BASE, outline=INK)
    c.draw.line([(20, 150), (80, 120), (140, 170)], fill=INK, width=4, joint="curve")
    c.draw.arc((200, 120, 280, 190), 10, 200, fill=TITLE_BG, width=2)


def text_on_one_colour(c):
    c.draw.rectangle((0, 0, W, 40), fill=TITLE_BG)
    c.text((8, 8), "Cannon · 30\" to the marker · 3 models hit", size=18, fill=WHITE)
    c.text((8, 60), "scatter 2\" toward 1 o'clock (30°)", size=16)
    c.draw.rectangle((8, 100, 200, 130), fill=WHITE, outline=INK)
    c.text((12, 104), "the ball lands here", size=16, fill=TITLE_SUB)


def text_over_lines_and_bases(c):
    for x in range(0, W, 12):
        c.draw.line([(x, 0), (x, H)], fill=GRID)
    c.draw.rectangle((40, 40, 160, 90), fill=BASE, outline=INK)
    c.text((30, 50), "R1 F5 over the grid and a base", size=16, halo=True)
    c.text((30, 120), "no halo over the grid", size=18)
    c.text((200, 60), "front", size=18, anchor="lm", knockout=PAPER)


def text_cut_by_the_edges(c):
    c.draw.line([(0, 10), (W, 10)], fill=INK, width=2)
    c.text((-20, 2), "cut on the left", size=18, halo=True)
    c.text((W - 40, H - 8), "cut on the right and bottom", size=18)
    c.text((W + 5, 50), "wholly outside", size=18)


def a_colour_the_palette_does_not_hold(c):
    c.draw.rectangle((20, 20, 200, 120), fill=(10, 200, 30))
    c.text((30, 50), "on a green the palette lacks", size=16)


CASES = {
    "shapes": shapes,
    "text on one colour": text_on_one_colour,
    "text over lines and bases": text_over_lines_and_bases,
    "text cut by the edges": text_cut_by_the_edges,
}


@pytest.mark.parametrize("name", CASES)
def test_drawn_on_the_palette_is_the_picture_mapped_at_the_end(name):
    new, old = both(CASES[name])
    assert new.shape == old.shape == (H, W)
    assert (new == old).all(), f"{int((new != old).sum())} pixels differ"


def test_a_colour_outside_the_palette_maps_as_pillow_maps_it():
    """Every colour the bot draws is on its palette (the named ones, their text blends, a picture's
    `extra`). One that is not is drawn in the index Pillow maps it to; text on it is then blended on
    that entry's colour rather than the raw one, so a few of its edge pixels may map otherwise."""
    new, old = both(a_colour_the_palette_does_not_hold)
    assert (new[20:45, 20:201] == old[20:45, 20:201]).all()  # the fill, above the text
    assert (new[20:121, 20:201] == old[20:121, 20:201]).mean() > 0.95


def test_a_picture_with_extra_colours_draws_them_exactly():
    tint = canvas.mix(TABLE, canvas.TEMPLATE, 0.35)
    new, old = both(lambda c: c.draw.rectangle((10, 10, 100, 100), fill=tint), extra=(tint,))
    assert (new == old).all()
    c = Canvas(W, H, extra=(tint,))
    assert tuple(c.inks.rgb[c.inks.index(tint)]) == tint


def test_the_image_is_the_pngs_rows_and_their_filter_bytes_stay_none():
    c = Canvas(W, H)
    text_over_lines_and_bases(c)
    text_cut_by_the_edges(c)
    c.draw.rectangle((0, 0, W, H // 2), outline=INK, width=3)  # right to the last column
    assert c.rows.shape == (H, W + 1)
    assert not c.rows[:, 0].any(), "a filter byte was drawn on"
    assert (c.rows[:, 1:] == np.asarray(c.image)).all()


def test_a_tint_changes_only_the_ground_it_names_inside_its_mask():
    c = Canvas(W, H)
    c.draw.rectangle((0, 0, W // 2, H), fill=TABLE)
    c.draw.line([(0, 100), (W, 100)], fill=INK, width=3)
    tinted = canvas.mix(TABLE, canvas.TEMPLATE, 0.35)
    c = Canvas(W, H, extra=(tinted,))
    c.draw.rectangle((0, 0, W // 2, H), fill=TABLE)
    c.draw.line([(0, 100), (W, 100)], fill=INK, width=3)
    before = np.asarray(c.image).copy()
    c.tint_circle((W / 2, H / 2), 60, {TABLE: tinted}, within=(0, 0, W, H))
    after = np.asarray(c.image)
    changed = before != after
    ys, xs = np.nonzero(changed)
    assert changed.any()
    assert (before[changed] == c.inks.index(TABLE)).all() and (after[changed] == c.inks.index(tinted)).all()
    assert (((xs + 0.5 - W / 2) ** 2 + (ys + 0.5 - H / 2) ** 2) <= 60 * 60).all()
    assert (after[100, :] == c.inks.index(INK)).all(), "the line keeps its colour"
    c.tint_circle((W - 5, H - 5), 60, {PAPER: tinted}, within=(0, 0, W + 50, H + 50))  # cut by the edges


def _pillows_own(c: Canvas, method: str, *args, **kwargs) -> None:
    """ImageDraw's own `method` on the canvas's draw handle (the way the fast paths skip)."""
    getattr(ImageDraw.ImageDraw, method)(c.draw, *args, **kwargs)


SHAPE_CALLS = [
    ("line", ([(3, 4), (300, 190)],), {"fill": INK}),
    ("line", ([(3, 4), (300, 190)],), {"fill": GRID, "width": 3}),
    ("line", ((10.4, 20.6, 200.2, 20.6),), {"fill": DIRECT, "width": 2}),
    ("line", ([(20, 150), (80, 120), (140, 170)],), {"fill": INK, "width": 6, "joint": "curve"}),
    ("line", ([(20, 150), (80, 120), (140, 170)],), {"fill": INK, "width": 3, "joint": "curve"}),
    ("line", ([(0, 0), (W, H)],), {"fill": INK, "width": 0}),
    ("line", ([(0, 0), (W, H)],), {"fill": 7}),
    ("rectangle", ((10, 10, 120, 80),), {"fill": TABLE}),
    ("rectangle", ((10, 10, 120, 80),), {"fill": TABLE, "outline": INK, "width": 2}),
    ("rectangle", ((10.5, 10.2, 120.7, 80.1),), {"outline": INK, "width": 3}),
    ("rectangle", ((10, 10, 120, 80),), {"fill": INK, "outline": INK}),
    ("rectangle", ((10, 10, 120, 80),), {"fill": TABLE, "outline": INK, "width": 0}),
    ("rectangle", ((10, 10, 120, 80),), {}),
    ("ellipse", ((150, 20, 230, 100),), {"fill": DIRECT, "outline": WHITE}),
    ("ellipse", ((150, 20, 230, 100),), {"outline": INK, "width": 4}),
    ("polygon", ([(250, 10), (310, 60), (260, 90)],), {"fill": BASE, "outline": INK}),
    ("polygon", ([(250, 10), (310, 60), (260, 90)],), {"fill": BASE, "outline": INK, "width": 3}),
    ("polygon", ([(250, 10), (310, 60), (260, 90)],), {"outline": INK, "width": 0}),
    ("polygon", ([(250, 10), (310, 60), (260, 90)],), {"fill": BASE}),
]


@pytest.mark.parametrize("method,args,kwargs", SHAPE_CALLS, ids=[f"{m}-{i}" for i, (m, _, _) in enumerate(SHAPE_CALLS)])
def test_the_shape_fast_paths_draw_the_pixels_pillows_own_methods_draw(method, args, kwargs):
    """Lines, boxes, ellipses and polygons go straight to Pillow's core (issue 26): every form of
    call gives the pixels ImageDraw's own method gives on the same palette image, the cases it
    leaves to Pillow (a curved joint, a wide polygon outline, an index for a colour, no colour)
    included."""
    fast, own = Canvas(W, H), Canvas(W, H)
    getattr(fast.draw, method)(*args, **kwargs)
    _pillows_own(own, method, *args, **kwargs)
    assert (np.asarray(fast.image) == np.asarray(own.image)).all()
    assert (np.asarray(fast.image) != fast.inks.index(PAPER)).any() or kwargs.get("width") == 0 or not kwargs
