"""Text put together glyph by glyph (renders/canvas.py, issue 26) is Pillow's own text to the pixel: the
same mask, the same halo, the same offset from the anchor, the same width. Checked on every text the
pictures of the bot's commands write, and on seeded random strings over every anchor the pictures
use, both type sizes' ranges, with and without a halo. Where it cannot be put together (a leading
space, several lines) Pillow renders it, as before."""

from __future__ import annotations

import random

import pytest

from renders import canvas
from renders.canvas import _composed_glyphs, _glyphs_by_pillow, text_width

ANCHORS = ("la", "lm", "lt", "lb", "ls", "ma", "mm", "mt", "mb", "rm", "rs", "rt")
ALPHABET = ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:;'\"()-·…°/@×–—+*%&?!#[]<>=_"
            "ñéü½")


def same(text: str, size: int, anchor: str, halo: int) -> bool:
    new, old = _composed_glyphs(text, size, anchor, halo), _glyphs_by_pillow(text, size, anchor, halo)
    assert new is not None, f"{text!r} fell back to Pillow"
    mask, ring, left, top = new
    want_mask, want_ring, want_left, want_top = old
    assert (left, top) == (want_left, want_top), (text, size, anchor, halo)
    assert mask.size == want_mask.size and mask.tobytes() == want_mask.tobytes(), (text, size, anchor, halo)
    assert (ring is None) == (want_ring is None)
    assert ring is None or ring.tobytes() == want_ring.tobytes(), (text, size, anchor, halo)
    return True


def random_strings(count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        text = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 40))).strip() or "x"
        yield text, rng.choice((12, 13, 14, 16, 18, 19, 20, 24)), rng.choice(ANCHORS), rng.choice((0, canvas.HALO))


@pytest.mark.parametrize("seed", range(4))
def test_random_strings_are_pillows_to_the_pixel(seed):
    for text, size, anchor, halo in random_strings(300, seed):
        assert same(text, size, anchor, halo)


def test_every_text_the_pictures_write_is_pillows_to_the_pixel():
    written = pictures_text()
    assert len(written) > 40
    for text, size, anchor, halo in written:
        if text.strip() == text and text:
            assert same(text, size, anchor, halo)


def pictures_text() -> set[tuple[str, int, str, int]]:
    """Every (text, size, anchor, halo) the canvas writes while drawing a cannon shot, a stone thrower
    shot, a Warmaster battery and a 40k blast."""
    seen: set[tuple[str, int, str, int]] = set()
    real = canvas._glyphs

    def spy(text, size, anchor, halo):
        seen.add((text, size, anchor, halo))
        return real(text, size, anchor, halo)

    canvas._glyphs = spy
    try:
        import asyncio
        import io
        import json
        import tempfile
        from pathlib import Path

        from bot import create_bot
        from config.settings import Settings
        from console import offline as console

        async def draw():
            with tempfile.TemporaryDirectory() as tmp:
                bot = create_bot(Settings(data_dir=Path(tmp), sync_commands=False, dice_seed=5))
                await bot.load_cogs()
                try:
                    for line in ("/fire cannon distance:30 ranks:5 files:6 toughness:3",
                                 "/fire stone-thrower distance:30 ranks:5 files:6 toughness:3",
                                 "/fire fire-thrower distance:8 ranks:4 files:5",
                                 "/wm cannon distance:30", "/40k ordnance distance:30 strength:8 models:5",
                                 '/odds shot:"fire cannon distance:30 ranks:5 files:6 toughness:3"'):
                        out = io.StringIO()
                        assert await console.run_line(bot, line, as_json=True, out=out) == 0, line
                        json.loads(out.getvalue())
                finally:
                    await bot.close()

        asyncio.run(draw())
    finally:
        canvas._glyphs = real
    return seen


@pytest.mark.parametrize("text", ["width", "scatter 2\" toward 1 o'clock (30°)", "", " ", "a  b", " lead", "trail ",
                                  "R1 F5", "×2 · ½ … —"])
@pytest.mark.parametrize("size", [12, 18, 24])
def test_the_width_is_pillows(text, size):
    assert text_width.__wrapped__(text, size=size) == canvas.font(size).getlength(text)


def test_random_widths_are_pillows():
    for text, size, _, _ in random_strings(500, 9):
        assert text_width.__wrapped__(text, size=size) == canvas.font(size).getlength(text)


@pytest.mark.parametrize("text", [" leading space", "trailing space ", "two\nlines", ""])
def test_what_cannot_be_put_together_is_rendered_by_pillow(text):
    assert _composed_glyphs(text, 18, "la", canvas.HALO) is None
    mask, _, left, top = canvas._glyphs.__wrapped__(text, 18, "la", canvas.HALO)
    want = _glyphs_by_pillow(text, 18, "la", canvas.HALO)
    assert (mask.tobytes(), left, top) == (want[0].tobytes(), want[2], want[3])


def test_pillows_blend_of_two_values_is_the_same_whichever_is_laid_first():
    # What lets _laid put the even glyphs on one layer and the odd on another and blend the two at
    # once (issue 26): for every pair of mask values, either order gives the same, and a value laid
    # on nothing (or nothing on it) stays as it is.
    import numpy as np

    values = np.arange(256, dtype=np.uint8)
    under, over = np.meshgrid(values, values, indexing="ij")
    assert np.array_equal(canvas._over(under, over), canvas._over(over, under))
    assert np.array_equal(canvas._over(np.zeros_like(values), values), values)
    assert np.array_equal(canvas._over(values, np.zeros_like(values)), values)


def test_glyphs_laid_in_two_layers_or_one_by_one_are_the_same_mask():
    # Strings whose neighbouring glyphs' boxes overlap (kerning-free pairs such as "AV", "y,", "ff")
    # take the two layers; a narrow glyph between two wide halos puts three over one pixel and takes
    # the glyph-by-glyph way. Each is Pillow's own mask either way.
    layered = one_by_one = 0
    for text in ("AVAVAV", "y, y, y, yy", "ffffff", "Wyvern Kyx", "Cannon: 3 hits at 30.5\"", "iiiiiii", "l.l.l.l"):
        for size in (12, 18, 24):
            for halo in (0, canvas.HALO):
                parts = []
                pen = 0
                for char in text:
                    pixels, x, y = canvas._glyph(size, char, halo)
                    if pixels.size:
                        parts.append((pen + x, y, pixels))
                    pen += canvas._advance(size, char)
                if canvas._in_two_layers(parts):
                    layered += 1
                else:
                    one_by_one += 1
                assert same(text, size, "ls", halo)
    assert layered and one_by_one  # both ways were taken
