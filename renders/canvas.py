"""The drawing kit every picture shares.

* The palette: named colours, chosen to stay apart for colour-blind readers (Okabe and Ito's
  set for the marks that carry meaning). Meaning never rests on hue alone: a direct hit is a
  dark solid fill, a bounce hit a light hatched one, and both carry a label.
* Fonts: Pillow's bundled Aileron at a given size with the basic layout engine, so a picture
  comes out the same on every machine.
* :class:`Viewport`: a window of the shot frame (the firer at the origin, the line of fire along
  +y, in the game's unit) drawn at one true scale in a box of pixels, +y pointing up the
  picture. :meth:`Viewport.px` is the only place model coordinates become pixels (as in
  python-qrcode); drawing code asks it and never does that arithmetic itself.
* :class:`Canvas`: an image with the marks pictures need (text with a halo, labels on plates
  placed clear of what is already drawn, arrows, dashed lines, hatching, a scale bar, a break
  symbol, a compact key in columns, a title bar, a banner, a dashed circle, a tint inside a
  circle) and :meth:`Canvas.png`, which encodes it the same way every time. As it draws, it
  records what the legibility rule reads (docs/pictures.md): each line of text with its size
  and role, each body (model, base, stand, hull), each line of fire, and the target area.
* The legibility sizes: :data:`PREVIEW` (Discord's preview width on a phone), :data:`PREVIEW_TYPE`
  and :func:`legible`, the least type size for a picture's width.

Pixel coordinates are ``(x, y)`` with y growing down the picture; boxes are
``(left, top, right, bottom)``.
"""

from __future__ import annotations

import collections
import functools
import math
import struct
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from isal import isal_zlib
from PIL import Image, ImageDraw, ImageFont

from engine.geometry import Point

RGB = tuple[int, int, int]
XY = tuple[float, float]
Box = tuple[float, float, float, float]

# The palette. Every colour a picture uses is named here, so the PNG can use a fixed palette.
PAPER: RGB = (250, 248, 243)
"""The picture's background."""
TABLE: RGB = (233, 237, 226)
"""The tabletop inside a true-scale panel."""
GRID: RGB = (216, 223, 207)
"""The faint one-unit grid on the tabletop."""
INK: RGB = (28, 28, 30)
"""Text and the marks that matter most."""
INK_SOFT: RGB = (80, 80, 86)
"""Secondary text: labels of ranks and files, notes."""
MUTED: RGB = (145, 145, 145)
"""Borders, plates' edges, what did not happen."""
WHITE: RGB = (255, 255, 255)
"""Halos, plates, the light squares of the scale bar."""
BASE: RGB = (214, 207, 190)
"""A model's base that was not hit."""
BASE_EDGE: RGB = (112, 104, 90)
"""The outline of a base."""
DIRECT: RGB = (213, 94, 0)
"""A direct hit: Okabe-Ito vermillion, dark, filled solid."""
BOUNCE: RGB = (168, 214, 240)
"""A hit by the bounce: light sky blue, always hatched."""
BOUNCE_HATCH: RGB = (0, 114, 178)
"""The hatching of a bounce hit: Okabe-Ito blue."""
SCATTER: RGB = (150, 52, 130)
"""The scatter arrow: a dark reddish purple."""
TITLE_BG: RGB = (36, 45, 56)
"""The title bar."""
TITLE_SUB: RGB = (196, 204, 212)
"""The title bar's second line."""
BANNER: RGB = (135, 28, 28)
"""A banner for what went wrong (a misfire)."""
BANNER_SUB: RGB = (255, 222, 210)
"""The banner's smaller lines."""
TEMPLATE: RGB = (240, 228, 66)
"""A template's clear plastic, as a tint laid over what lies under it (:meth:`Canvas.tint_circle`):
Okabe-Ito yellow. Not in :data:`PALETTE`: a picture that lays a template asks for the tinted
colours it needs (``Canvas(extra=...)``)."""

PALETTE: tuple[RGB, ...] = (
    PAPER, TABLE, GRID, INK, INK_SOFT, MUTED, WHITE, BASE, BASE_EDGE, DIRECT, BOUNCE,
    BOUNCE_HATCH, SCATTER, TITLE_BG, TITLE_SUB, BANNER, BANNER_SUB,
)
"""Every named colour, in the order the PNG palette lists them."""
_TEXT_INKS: tuple[RGB, ...] = (INK, INK_SOFT, WHITE, TITLE_SUB, BANNER_SUB)
"""Colours text is written in (or haloed with): the PNG palette holds their blends with every
background, so antialiased edges survive encoding."""

PREVIEW = 400
"""How wide Discord shows a picture in a message on a phone, in pixels: the legibility rule
(docs/pictures.md) reads every picture shrunk to this width."""
PREVIEW_TYPE = 8
"""The least type size, in pixels at :data:`PREVIEW` wide, of a picture's title, its count of
hits and the label of each model or stand hit."""
TITLE_SIZE = 24
"""Type size of a picture's title, when it fits."""


def legible(width: float) -> int:
    """The least type size that is :data:`PREVIEW_TYPE` pixels once a picture `width` pixels wide
    is shown :data:`PREVIEW` wide."""
    return math.ceil(PREVIEW_TYPE * width / PREVIEW)


HALO = 2
"""Width in pixels of the light halo round text drawn over the table."""
PNG_COMPRESS_LEVEL = 3
"""Pillow's zlib level the pictures were encoded at until issue 26, and still the floor
``benchmarks/bench_cannon.py`` measures a picture against (Pillow encoding the same pixels)."""
PNG_DEFLATE_LEVEL = 1
"""ISA-L's deflate level for a picture's image data (:func:`_encode`): on the cannon picture
0.3 ms and 36.5 kB, where zlib at :data:`PNG_COMPRESS_LEVEL` (Pillow's encoder) takes 2.8 ms for
37 kB; ISA-L's levels 1 and 2 give the same size here, its level 3 is ten times slower."""


@functools.cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled font (Aileron Regular) at `size` pixels, laid out without Raqm so that
    text is the same on every machine."""
    return ImageFont.load_default(size=size).font_variant(layout_engine=ImageFont.Layout.BASIC)


@functools.lru_cache(maxsize=1024)
def _glyphs(text: str, size: int, anchor: str, halo: int) -> tuple[Image.Image, Image.Image | None, int, int]:
    """`text` rendered once and kept: its mask, the mask of its halo (None without one), and
    the offset of their top-left corner from the anchor point. Labels repeat from picture to
    picture ("R1", "front", the key), and rendering text is most of a picture's cost. The masks
    are only ever read. Put together glyph by glyph (:func:`_composed_glyphs`), which gives
    Pillow's own masks to the pixel, or by Pillow where that cannot be done."""
    made = _composed_glyphs(text, size, anchor, halo)
    return made if made is not None else _glyphs_by_pillow(text, size, anchor, halo)


def _glyphs_by_pillow(text: str, size: int, anchor: str, halo: int) -> tuple[Image.Image, Image.Image | None, int, int]:
    """:func:`_glyphs` as Pillow draws it: the whole text laid out and rendered by FreeType."""
    f = font(size)
    left, top, right, bottom = f.getbbox(text, anchor=anchor, stroke_width=halo)
    box = (max(right - left, 1), max(bottom - top, 1))
    mask = Image.new("L", box)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    ring = None
    if halo:
        ring = Image.new("L", box)
        ImageDraw.Draw(ring).text(
            (-left, -top), text, font=f, fill=255, anchor=anchor, stroke_width=halo, stroke_fill=255,
        )
    return mask, ring, left, top


# Text glyph by glyph (issue 26). FreeType lays out and renders a whole string each time Pillow is
# asked for it (no glyph cache), and most of the text a busy bot writes is new (every shot's title,
# notes and distances): a third of a picture's time went there. With the bundled font's basic layout
# each glyph advances a whole number of pixels, so a string is its glyphs, each rendered once and kept,
# laid side by side and each laid over those before it as Pillow blends them; the width is the sum of
# the advances, and each anchor's offset is a property of the size, or of the text's own box. Where any
# of that does not hold (a glyph without a whole-pixel advance, an anchor or text it does not cover)
# Pillow renders the text as before; tests/renders/test_text_glyphs.py compares both ways.

_HORIZONTAL_ANCHORS, _VERTICAL_ANCHORS = "lmr", "amsdtb"


@functools.lru_cache(maxsize=None)
def _advance(size: int, char: str) -> int | None:
    """How many whole pixels `char` advances the pen at `size`; None if not a whole number."""
    length = font(size).getlength(char)
    return int(length) if length == int(length) else None


@functools.lru_cache(maxsize=None)
def _kerning(size: int, first: str, second: str) -> int | None:
    """The basic layout's kerning between two glyphs at `size`, in whole pixels (None if not whole)."""
    a, b, both = _advance(size, first), _advance(size, second), font(size).getlength(first + second)
    if a is None or b is None or both != int(both):
        return None
    return int(both) - a - b


@functools.lru_cache(maxsize=None)
def _glyph(size: int, char: str, stroke: int) -> tuple[np.ndarray, int, int]:
    """`char`'s mask at `size` (stroked `stroke` pixels wide, filled, as a halo is drawn) and its
    top-left corner from the pen on the baseline."""
    mask, (x, y) = font(size).getmask2(char, mode="L", anchor="ls", stroke_width=stroke, stroke_filled=True)
    width, height = mask.size
    pixels = np.array(mask, dtype=np.uint8).reshape(height, width) if width and height else np.zeros((0, 0), np.uint8)
    pixels.flags.writeable = False
    return pixels, x, y


def _laid(text: str, size: int, stroke: int) -> tuple[np.ndarray, int, int, int] | None:
    """`text`'s mask, put together glyph by glyph, its top-left corner from the pen's start on the
    baseline, and how far it advances; None where :func:`_glyphs` must ask Pillow."""
    pen, before, parts = 0, None, []
    for char in text:
        advance = _advance(size, char)
        if advance is None:
            return None
        if before is not None:
            kerning = _kerning(size, before, char)
            if kerning is None:
                return None
            pen += kerning
        pixels, x, y = _glyph(size, char, stroke)
        if pixels.size:
            parts.append((pen + x, y, pixels))
        pen, before = pen + advance, char
    if not parts:
        return None
    left, top = min(p[0] for p in parts), min(p[1] for p in parts)
    right, bottom = max(p[0] + p[2].shape[1] for p in parts), max(p[1] + p[2].shape[0] for p in parts)
    laid = np.zeros((bottom - top, right - left), dtype=np.uint8)
    if _in_two_layers(parts):
        # No pixel under three glyphs: the even glyphs on one layer, the odd on another, none of a
        # layer touching another of it, then the two blended at once. Pillow's blend of two values is
        # the same whichever is laid first, and leaves a value on nothing as it is (both checked for
        # every pair of values by tests/renders/test_text_glyphs.py), so this is the mask glyph by
        # glyph gives, in two array operations instead of two for each glyph (issue 26).
        odd = np.zeros_like(laid)
        for k, (x, y, pixels) in enumerate(parts):
            (odd if k % 2 else laid)[y - top:y - top + pixels.shape[0], x - left:x - left + pixels.shape[1]] = pixels
        return _over(laid, odd), left, top, pen
    for x, y, pixels in parts:
        under = laid[y - top:y - top + pixels.shape[0], x - left:x - left + pixels.shape[1]]
        if under.any():  # this glyph over the one before, blended as Pillow blends them
            under[...] = _over(under, pixels)
        else:
            under[...] = pixels
    return laid, left, top, pen


def _in_two_layers(parts: Sequence[tuple[int, int, np.ndarray]]) -> bool:
    """Whether each glyph of `parts` (left edge, top edge, mask; in the order laid) keeps clear, across
    the line, of every glyph laid two or more before it: then no pixel is under three of them."""
    reach = reach_before = -math.inf  # the furthest right edge of the glyphs up to one before, and two before
    for x, _, pixels in parts:
        if x < reach_before:
            return False
        reach_before, reach = reach, max(reach, x + pixels.shape[1])
    return True


def _over(under: np.ndarray, pixels: np.ndarray) -> np.ndarray:
    """`pixels` laid over `under` (masks), as Pillow blends a glyph over what is under it."""
    blend = under.astype(np.int32) * (255 - pixels.astype(np.int32)) + 128
    return (pixels + (((blend >> 8) + blend) >> 8)).astype(np.uint8)


@functools.lru_cache(maxsize=64)
def _vertical_offset(size: int, anchor: str) -> int:
    """How far the anchor's height (``a``, ``m``, ``s`` or ``d``) lies above the baseline, for any text."""
    f = font(size)
    return f.getbbox("x", anchor="l" + anchor)[1] - f.getbbox("x", anchor="ls")[1]


def _composed_glyphs(text: str, size: int, anchor: str, halo: int) -> tuple[Image.Image, Image.Image | None, int, int] | None:
    """:func:`_glyphs` put together glyph by glyph, or None where Pillow must render the text."""
    if len(anchor) != 2 or anchor[0] not in _HORIZONTAL_ANCHORS or anchor[1] not in _VERTICAL_ANCHORS:
        return None
    if not text or text[0].isspace() or text[-1].isspace() or "\n" in text:  # Pillow boxes these otherwise
        return None
    plain = _laid(text, size, 0)
    outer = _laid(text, size, halo) if halo else plain
    if plain is None or outer is None:
        return None
    pixels, x0, y0, advance = plain
    ring, left, top, _ = outer
    across = {"l": 0, "m": -math.ceil(advance / 2), "r": -advance}[anchor[0]]
    if anchor[1] == "t":
        down = -y0
    elif anchor[1] == "b":
        down = -(y0 + pixels.shape[0])
    else:
        down = _vertical_offset(size, anchor[1])
    if halo:
        mask = np.zeros(ring.shape, dtype=np.uint8)
        mask[y0 - top:y0 - top + pixels.shape[0], x0 - left:x0 - left + pixels.shape[1]] = pixels
        return Image.fromarray(mask), Image.fromarray(ring), left + across, top + down
    return Image.fromarray(pixels), None, left + across, top + down


def text_box(xy: XY, text: str, *, size: int, anchor: str = "la", halo: bool = False) -> Box:
    """The pixel box :meth:`Canvas.text` covers when it writes `text` at `xy`."""
    left, top, width, height = _extent(text, size, anchor, HALO if halo else 0)
    x, y = round(xy[0] + left), round(xy[1] + top)
    return x, y, x + width, y + height


@functools.lru_cache(maxsize=4096)
def _extent(text: str, size: int, anchor: str, halo: int) -> tuple[int, int, int, int]:
    """Where :func:`_glyphs`'s mask lies from the anchor point, and its size: kept, since a picture
    asks for some hundred text boxes, most of them of the names it writes again and again."""
    mask, _, left, top = _glyphs(text, size, anchor, halo)
    return left, top, mask.width, mask.height


@functools.lru_cache(maxsize=8192)
def text_width(text: str, *, size: int) -> float:
    """How far `text` advances at `size`: the sum of its glyphs' advances and kernings where each
    is a whole number of pixels (what Pillow's basic layout adds up), else Pillow's own measure."""
    pen, before = 0, None
    for char in text:
        advance = _advance(size, char)
        kerning = 0 if before is None else _kerning(size, before, char)
        if advance is None or kerning is None:
            return font(size).getlength(text)
        pen, before = pen + kerning + advance, char
    return float(pen)


def line_height(size: int) -> int:
    """Distance between the baselines of two lines of text at `size`."""
    return round(size * 1.3)


def wrap(text: str, *, size: int, width: float) -> list[str]:
    """`text` broken into lines no wider than `width` pixels, at spaces."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(f"{lines[-1]} {word}", size=size) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def fit_text(text: str, *, size: int, width: float) -> str:
    """`text`, cut short with an ellipsis when it is wider than `width` pixels."""
    if text_width(text, size=size) <= width:
        return text
    while text and text_width(text + "…", size=size) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def length_text(value: float, unit: str) -> str:
    """A distance as players write it: ``30"`` in inches, ``15 cm`` in centimetres; one
    decimal at most."""
    number = f"{round(value, 1):g}"
    return f'{number}"' if unit == "in" else f"{number} {unit}"


def grow(box: Box, by: float) -> Box:
    """`box` with `by` pixels added on every side."""
    return box[0] - by, box[1] - by, box[2] + by, box[3] + by


def union(boxes: Sequence[Box]) -> Box:
    """The smallest box holding all of `boxes`."""
    return (
        min(b[0] for b in boxes), min(b[1] for b in boxes),
        max(b[2] for b in boxes), max(b[3] for b in boxes),
    )


def overlaps(a: Box, b: Box) -> bool:
    """Whether two boxes share any area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def clip_segment(a: XY, b: XY, box: Box) -> tuple[XY, XY] | None:
    """The part of the segment a-b inside `box` (Liang-Barsky), or None when it misses. Works in
    any coordinates where `box` is (min x, min y, max x, max y)."""
    ax, ay, bx, by = a[0], a[1], b[0], b[1]
    left, top, right, bottom = box
    if (ax < left and bx < left) or (ax > right and bx > right) or (ay < top and by < top) or (ay > bottom and by > bottom):
        return None
    dx, dy = bx - ax, by - ay
    ts = _clip_t(ax, ay, dx, dy, left, top, right, bottom)
    if ts is None:
        return None
    t0, t1 = ts
    return (ax + t0 * dx, ay + t0 * dy), (ax + t1 * dx, ay + t1 * dy)


@dataclass(frozen=True, slots=True)
class Viewport:
    """A window of the shot frame drawn at one true scale in a box of pixels.

    The shot frame has the firer at the origin and the line of fire along +y, in the game's
    unit. On the picture +y points up, so the firer is at the bottom; +x (the firer's right)
    points right."""

    x0: float
    """The window's left edge, model units."""
    y0: float
    """The window's edge nearest the firer (the bottom of the box), model units."""
    x1: float
    """The window's right edge, model units."""
    y1: float
    """The window's far edge (the top of the box), model units."""
    left: float
    """Pixel x of the window's left edge."""
    top: float
    """Pixel y of the window's far edge."""
    scale: float
    """Pixels per model unit."""

    @classmethod
    def fit(cls, window: Box, pixels: Box, *, max_scale: float = math.inf) -> Viewport:
        """The largest scale (at most `max_scale`) at which `window` (x0, y0, x1, y1 in model
        units) fits `pixels` (left, top, right, bottom); the window grows about its centre to
        fill the box, so all of the box is at that one scale."""
        x0, y0, x1, y1 = window
        left, top, right, bottom = pixels
        scale = min((right - left) / (x1 - x0), (bottom - top) / (y1 - y0), max_scale)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        half_w, half_h = (right - left) / scale / 2, (bottom - top) / scale / 2
        return cls(cx - half_w, cy - half_h, cx + half_w, cy + half_h, left, top, scale)

    def px(self, x: float, y: float) -> XY:
        """The pixel at model point (x, y). The only model-to-pixel arithmetic there is."""
        return self.left + (x - self.x0) * self.scale, self.top + (self.y1 - y) * self.scale

    def at(self, p: Point) -> XY:
        """The pixel at the model point `p`."""
        return self.px(p.x, p.y)

    def rect(self, x0: float, y0: float, x1: float, y1: float) -> Box:
        """The pixel box of the model rectangle (x0, y0)-(x1, y1)."""
        (ax, ay), (bx, by) = self.px(x0, y0), self.px(x1, y1)
        return min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)

    def span(self, distance: float) -> float:
        """How many pixels `distance` model units cover."""
        return distance * self.scale

    @property
    def box(self) -> Box:
        """The pixel box the window fills."""
        return self.rect(self.x0, self.y0, self.x1, self.y1)

    @property
    def window(self) -> Box:
        """The window, (x0, y0, x1, y1) in model units."""
        return self.x0, self.y0, self.x1, self.y1

    def clip(self, a: Point, b: Point) -> tuple[XY, XY] | None:
        """The pixel ends of the part of the model segment a-b inside the window, or None."""
        inside = clip_segment((a.x, a.y), (b.x, b.y), self.window)
        if inside is None:
            return None
        (ax, ay), (bx, by) = inside
        return self.px(ax, ay), self.px(bx, by)


TITLE = "title"
"""The role of a picture's title: the answer, with the count of models or stands hit."""
LABEL = "label"
"""The role of a name written by what it names (a rank, a file, a stand, a model): a label that
must not cover another model, a line of fire or another label."""
MARK = "mark"
"""The role of a label written on its own body (a model's die, a hull's Armour Values): it must
sit on that body and cover no other."""
NAME = "name"
"""The role of a model's or stand's name written on its own body (a 40k model's number, a
Warmaster stand's): a :data:`MARK` that is also the label of what it names, so as big as a
:data:`LABEL`."""


def _clip_t(ax: float, ay: float, dx: float, dy: float, left: float, top: float, right: float,
            bottom: float) -> tuple[float, float] | None:
    """Liang-Barsky for the segment from (ax, ay) along (dx, dy) and the box: where along it (0 to
    1) it enters and leaves the box, or None when it misses. The four steps written out, no loop
    and no tuples (issue 26: label placement asks it thousands of times a picture), in the
    arithmetic :func:`clip_segment` always used, so the answers agree to the last bit."""
    t0, t1 = 0.0, 1.0
    if dx == 0:  # the first two steps (p = -dx, then dx): parallel to the box's sides
        if ax - left < 0 or right - ax < 0:
            return None
    else:
        t = (ax - left) / -dx
        if -dx < 0:
            if t > t0:
                t0 = t
        elif t < t1:
            t1 = t
        if t0 > t1:
            return None
        t = (right - ax) / dx
        if dx < 0:
            if t > t0:
                t0 = t
        elif t < t1:
            t1 = t
        if t0 > t1:
            return None
    if dy == 0:
        if ay - top < 0 or bottom - ay < 0:
            return None
    else:
        t = (ay - top) / -dy
        if -dy < 0:
            if t > t0:
                t0 = t
        elif t < t1:
            t1 = t
        if t0 > t1:
            return None
        t = (bottom - ay) / dy
        if dy < 0:
            if t > t0:
                t0 = t
        elif t < t1:
            t1 = t
        if t0 > t1:
            return None
    return t0, t1


def _meets_box(ax: float, ay: float, dx: float, dy: float, left: float, top: float, right: float, bottom: float) -> bool:
    """Whether the segment from (ax, ay) along (dx, dy) meets the box (:func:`_clip_t`)."""
    return _clip_t(ax, ay, dx, dy, left, top, right, bottom) is not None


def meets(a: XY, b: XY, box: Box) -> bool:
    """Whether the segment a-b meets `box`: whether :func:`clip_segment` finds a part inside,
    without building it (issue 26: a picture asks it hundreds of times)."""
    ax, ay, bx, by = a[0], a[1], b[0], b[1]
    left, top, right, bottom = box
    if (ax < left and bx < left) or (ax > right and bx > right) or (ay < top and by < top) or (ay > bottom and by > bottom):
        return False
    return _meets_box(ax, ay, bx - ax, by - ay, left, top, right, bottom)


@dataclass(frozen=True, slots=True)
class Written:
    """A line of text on the picture, as written (what the legibility rule reads)."""

    box: Box
    """The pixel box it covers."""
    size: int
    """Its type size in pixels (the em: the font size)."""
    text: str
    role: str
    """:data:`TITLE`, :data:`LABEL`, :data:`MARK`, :data:`NAME`, or "" for the rest (notes, keys,
    scales)."""
    owner: int | None = None
    """For a :data:`MARK` or :data:`NAME`, the index in :attr:`Canvas.bodies` of the body it is
    written on."""


@dataclass(frozen=True, slots=True)
class Label:
    """A label plate placed by :meth:`Canvas.place`, ready to draw."""

    box: Box
    """The plate's pixel box."""
    lines: tuple[str, ...]
    """Its text, a line each."""
    size: int
    """Text size."""
    fill: RGB
    """Text colour."""
    leader: tuple[XY, XY] | None
    """The line from the anchor to the plate's edge; None when the plate sits by the anchor."""
    role: str = ""
    """What its lines are to the legibility rule (:data:`LABEL` for the label of something hit)."""


Swatch = Callable[["Canvas", Box], None]
"""Draws a legend entry's sample into a small pixel box."""


@dataclass(frozen=True, slots=True)
class LegendItem:
    """One line of a legend."""

    label: str
    """What the sample means."""
    swatch: Swatch
    """Draws the sample."""


_KEY_ROW = 26
"""Height of a row of the compact key."""
KEY_SIZE = 18
"""Type size of the compact key's lines: the legibility rule's least at 900 pixels wide (issue 30:
the key carries information, so it reads at 400 px too)."""
_LEGEND_SWATCH = (28, 14)
_LEGEND_PAD = 8
_PLATE_PAD = 3
_PLACE_RADII = (4, 10, 16, 22, 28, 34, 40, 48, 56, 66, 78, 90, 104, 120, 136, 152, 170, 190, 210, 230, 250, 280, 320,
                360, 400, 450, 500)
"""How far from its anchor a label may go, in pixels, nearest first."""
_PLACE_SIDES = (
    "right", "left", "above right", "above left", "below right", "below left", "above", "below",
    "northeast", "northwest", "southeast", "southwest",
    "above quarter right", "above quarter left", "below quarter right", "below quarter left",
)
"""Where round its anchor a label may go, in the order tried at each distance: level with it,
above or below it and reaching out to one side, centred above or below, off on the diagonals,
and above or below it reaching three quarters out to one side."""
_LEADER_CROSSING = 60
"""A leader line that has to cross something kept clear counts as this many pixels further away
(unless the thing was kept clear with its own cost): a nearby plate is still better than one
across the picture."""
_LEADER_LOST = 200
"""A leader that runs along a line it starts on (turning less than the line asks, see
:meth:`Canvas.keep_clear_of_line`), or lies beside one (within :data:`_LEADER_MIN_ANGLE` of
its direction), could be read as that line going on: it counts this many pixels further."""
_LEADER_MIN_ANGLE = 30.0
"""Degrees a leader must turn away from a path (a line the reader follows) it starts on, or
from a line it runs beside."""
_LEADER_SHORT = 70.0
"""Leaders longer than this many pixels count each further pixel twice: notes sit near what
they name."""


def plate_size(lines: Sequence[str], *, size: int) -> tuple[float, float]:
    """Width and height of a label plate holding `lines`."""
    width = max(text_width(line, size=size) for line in lines)
    return width + 2 * _PLATE_PAD + 2, line_height(size) * len(lines) + 2 * _PLATE_PAD - 2


def _key_grid(items: Sequence[LegendItem], *, width: float, title: str) -> tuple[int, float, tuple[float, float]]:
    """How :meth:`Canvas.key` lays `items` out in `width` pixels: its columns, a column's width,
    and the key's width and height."""
    column_width = max(text_width(i.label, size=KEY_SIZE) for i in items) + _LEGEND_SWATCH[0] + 8 + 18 if items else 0
    columns = max(1, min(len(items), int((width - 2 * _LEGEND_PAD + 18) // column_width))) if items else 1
    rows = math.ceil(len(items) / columns)
    w = max(columns * column_width - 18, text_width(title, size=KEY_SIZE + 1)) + 2 * _LEGEND_PAD
    h = 2 * _LEGEND_PAD + line_height(KEY_SIZE + 1) + 2 + rows * _KEY_ROW
    return columns, column_width, (w, h)


def key_size(items: Sequence[LegendItem], *, width: float, title: str = "Key") -> tuple[float, float]:
    """Width and height of the compact key (:meth:`Canvas.key`) for `items` in `width` pixels."""
    return _key_grid(items, width=width, title=title)[2]


def _beside(anchor: XY, w: float, h: float, side: str, gap: float) -> Box:
    """A w x h box `gap` pixels from `anchor` on `side` (one of :data:`_PLACE_SIDES`)."""
    x, y = anchor
    if side == "right":
        return x + gap, y - h / 2, x + gap + w, y + h / 2
    if side == "left":
        return x - gap - w, y - h / 2, x - gap, y + h / 2
    if side.endswith(("east", "west")):
        k = gap * math.sqrt(0.5)
        left = x + k if side.endswith("east") else x - k - w
        top = y - k - h if side.startswith("north") else y + k
        return left, top, left + w, top + h
    vertical, _, horizontal = side.partition(" ")
    top = y - gap - h if vertical == "above" else y + gap
    left = {
        "": x - w / 2, "right": x + _PLACE_RADII[0], "left": x - _PLACE_RADII[0] - w,
        "quarter right": x - w / 4, "quarter left": x - 3 * w / 4,
    }[horizontal]
    return left, top, left + w, top + h


@functools.lru_cache(maxsize=256)
def _spots(w: float, h: float) -> tuple[np.ndarray, np.ndarray]:
    """Every spot :meth:`Canvas.place` tries for a w x h plate round an anchor at (0, 0), each
    side at each distance in turn: their boxes (one a row) and their distances."""
    boxes = [_beside((0.0, 0.0), w, h, side, r) for r in _PLACE_RADII for side in _PLACE_SIDES]
    radii = [float(r) for r in _PLACE_RADII for _ in _PLACE_SIDES]
    return np.array(boxes), np.array(radii)


def _leader_ends(anchor: XY, box: Box) -> list[XY]:
    """Where a leader from `anchor` may meet the plate `box`: the nearest point, and along the
    nearest edge a tenth, half and nine tenths of the way (so that it can turn away from a
    line it starts on)."""
    near = _nearest_on_box(anchor, box)
    if math.dist(anchor, near) <= _PLACE_RADII[0] + 2:
        return [near]
    left, top, right, bottom = box
    if near[1] in (top, bottom):
        return [near] + [(left + (right - left) * k, near[1]) for k in (0.1, 0.5, 0.9)]
    return [near] + [(near[0], top + (bottom - top) * k) for k in (0.1, 0.5, 0.9)]


def distance_to_segment(p: XY, a: XY, b: XY) -> float:
    """How far the point `p` is from the segment a-b, in its units."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    run = dx * dx + dy * dy
    t = 0.0 if not run else min(max(((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / run, 0.0), 1.0)
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def aside(p: XY, lines: Sequence[tuple[XY, XY]], reach: float) -> XY:
    """`p` moved clear of `lines` (a path drawn over a model, say), to `reach` pixels from the
    nearest of them: straight away from it, or on past its end when that end lies within `reach`
    of `p` (an arrow's head in the model); `p` itself when no line comes that near. Where a name
    written on a body goes so that the line does not run through it."""
    if not lines:
        return p
    a, b = min(lines, key=lambda ab: distance_to_segment(p, *ab))
    near = distance_to_segment(p, a, b)
    if near >= reach:
        return p
    length = math.dist(a, b) or 1.0
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    if math.dist(b, p) < reach:
        return b[0] + ux * reach, b[1] + uy * reach
    nx, ny = -uy, ux
    side = 1 if (p[0] - a[0]) * nx + (p[1] - a[1]) * ny >= 0 else -1
    return p[0] + side * nx * (reach - near), p[1] + side * ny * (reach - near)


def _length_cost(anchor: XY, end: XY) -> float:
    """A leader's cost for its length alone: nothing for one too short to draw, else its length,
    twice over beyond :data:`_LEADER_SHORT` (the start of :meth:`Canvas._leader_cost`)."""
    length = math.dist(anchor, end)
    if length <= _PLACE_RADII[0] + 2:
        return 0.0
    return length + max(length - _LEADER_SHORT, 0.0)


def _angle_between(u: XY, v: XY) -> float:
    """The angle in degrees between the directions of two vectors, ignoring which way along
    (0 to 90)."""
    nu, nv = math.hypot(*u), math.hypot(*v)
    if not nu or not nv:
        return 90.0
    cos = abs(u[0] * v[0] + u[1] * v[1]) / (nu * nv)
    return math.degrees(math.acos(min(cos, 1.0)))


def _segments_cross(a: XY, b: XY, c: XY, d: XY) -> bool:
    """Whether the segments a-b and c-d cross."""

    def side(p: XY, q: XY, r: XY) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0


def _lines_near(lines: Sequence[tuple[XY, XY, float, Box]], region: Box) -> list[tuple[XY, XY, float, Box]]:
    """The lines kept clear of (:meth:`Canvas.keep_clear_of_line`'s) whose bounding box meets `region`."""
    left, top, right, bottom = region
    return [line for line in lines if line[3][0] <= right and left <= line[3][2] and line[3][1] <= bottom
            and top <= line[3][3]]


def _nearest_on_box(p: XY, box: Box) -> XY:
    return min(max(p[0], box[0]), box[2]), min(max(p[1], box[1]), box[3])


class Canvas:
    """A picture being drawn: an image on the picture's palette (mode ``P``: each pixel the index of
    its colour, :class:`Inks`), its draw handle (which takes RGB colours, as Pillow's does), and what
    labels placed with :meth:`place` must keep clear of (boxes and lines), or should rather not
    cover (areas).

    Drawn on the palette from the start (issue 26), so no picture is mapped onto it at the end:
    shapes are drawn in the index of their colour, and text's antialiased edges are blended and
    mapped where they are written (:meth:`text`), by the same arithmetic and the same mapping
    Pillow would have used on an RGB picture, so a picture is the one it was (tests/renders/
    test_palette_drawing.py)."""

    __slots__ = ("image", "rows", "draw", "inks", "_taken", "_lines", "_areas", "labels", "_extra", "written", "bodies",
                 "paths", "hidden", "target")

    def __init__(self, width: int, height: int, *, background: RGB = PAPER, extra: Sequence[RGB] = ()) -> None:
        """A `width` x `height` picture on `background`. `extra`: colours beyond the named ones
        that this picture draws (the tints of :meth:`tint_circle`), added to its PNG palette."""
        self._extra = tuple(extra)
        self.inks = _inks(self._extra)
        # The image's pixels are the PNG's rows (:func:`_rows`): each row of indices after its
        # filter byte, in one array Pillow draws into (its "raw" decoder maps a buffer with a row
        # stride; the image is writable because this canvas owns the buffer), so encoding copies
        # nothing (issue 26: copying a 900 x 1180 palette image out of Pillow took 1.3 ms).
        whole = np.zeros(height * (width + 1) + 1, dtype=np.uint8)
        self.rows = whole[:-1].reshape(height, width + 1)
        """The picture as the PNG's rows: column 0 each row's filter type (0, none), then its pixels."""
        self.rows[:, 1:] = self.inks.index(background)
        self.image = Image.frombuffer("P", (width, height), memoryview(whole)[1:], "raw", "P", width + 1, 1)
        self.image.readonly = False  # ours to draw on: Pillow marks a mapped buffer read-only for its owner's sake
        self.image.putpalette(self.inks.plte)
        self.draw = _PaletteDraw(self.image, self.inks)
        self._taken: list[tuple[Box, float]] = []
        self._lines: list[tuple[XY, XY, float, Box]] = []
        """Each line kept clear of: its ends, how far a leader starting on it must turn away
        from it, and its bounding box."""
        self._areas: list[tuple[Box, float]] = []
        self.labels: list[Label] = []
        """Every label placed so far, in the order placed."""
        self.written: list[Written] = []
        """Every line of text written, in order (:meth:`text`)."""
        self.bodies: list[tuple[XY, ...]] = []
        """The outline (a polygon, pixels) of every model, base, stand and hull drawn: what
        labels must not cover (:meth:`body`)."""
        self.paths: list[tuple[XY, XY]] = []
        """Every straight piece of a line of fire or a shot's path drawn: what labels must not
        cross (:meth:`path`)."""
        self.hidden: list[tuple[XY, XY]] = []
        """Pieces of lines of fire drawn under the models (:meth:`path` with `beneath`)."""
        self.target: Box | None = None
        """The pixel box of the target area (the true-scale drawing of the target)."""

    # What the picture holds, for the legibility rule (tests/renders/legibility.py).

    def body(self, outline: Box | Sequence[XY]) -> int:
        """Note a model, base, stand or hull drawn over `outline` (a box, or a polygon's
        corners). Returns its index, for a :data:`MARK` written on it."""
        if len(outline) == 4 and not isinstance(outline[0], tuple | list):
            x0, y0, x1, y1 = outline  # type: ignore[misc]
            outline = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
        self.bodies.append(tuple((float(x), float(y)) for x, y in outline))  # type: ignore[misc]
        return len(self.bodies) - 1

    def path(self, points: Sequence[XY], *, beneath: bool = False) -> None:
        """Note a line of fire or a shot's path drawn through `points`; `beneath`: drawn under the
        models, so hidden where a body covers it."""
        pieces = [(tuple(a), tuple(b)) for a, b in zip(points, points[1:])]
        (self.hidden if beneath else self.paths).extend(pieces)  # type: ignore[arg-type]

    # What labels keep clear of.

    def keep_clear(self, box: Box, *, crossing: float = _LEADER_CROSSING) -> None:
        """No label placed later may cover `box`; a leader line crossing it counts as
        `crossing` pixels longer (a hit base: a lot; a name: a little)."""
        self._taken.append((box, crossing))

    def keep_clear_of_line(self, a: XY, b: XY, *, path: bool = False, turn: float | None = None) -> None:
        """No label placed later may cross the segment a-b. A `path` (a line a reader follows,
        like the ball's) is one no leader may run along: a leader that starts on it turns at
        least :data:`_LEADER_MIN_ANGLE` away from it (or `turn` degrees, when given)."""
        turn = (_LEADER_MIN_ANGLE if path else 0.0) if turn is None else turn
        self._lines.append((a, b, turn, (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))))

    def rather_not_cover(self, box: Box, *, cost: float) -> None:
        """Labels placed later may cover `box` (the unit's plain bases), at a cost of up to
        `cost` pixels of leader (half of it for a touch, all of it for a plate wholly inside);
        a leader costs its length inside `box` once more."""
        self._areas.append((box, cost))

    def _clear_of_lines(self, box: Box, lines: Sequence[tuple[XY, XY, float, Box]] | None = None) -> bool:
        """Whether `box`, with a little room round it, is clear of every line kept clear of (or of
        `lines`, those of them that come near it)."""
        left, top, right, bottom = grow(box, 3)
        for a, b, _, r in self._lines if lines is None else lines:
            if (r[0] <= right and left <= r[2] and r[1] <= bottom and top <= r[3]
                    and _meets_box(a[0], a[1], b[0] - a[0], b[1] - a[1], left, top, right, bottom)):
                return False
        return True

    def _leader_cost(self, anchor: XY, end: XY, homes: Sequence[int], *, enough: float) -> float:
        """How much worse than its place a leader from `anchor` to `end` is: its length (twice
        over beyond :data:`_LEADER_SHORT`), its length inside areas labels would rather not
        cover, each thing kept clear it crosses other than what `anchor` lies in (`homes`),
        each line it crosses, and running along a line (:data:`_LEADER_LOST`). Stops counting
        once the cost reaches `enough`."""
        return self._leader_coster(anchor, homes)(end, enough)

    def _leader_coster(self, anchor: XY, homes: Sequence[int], *, region: Box | None = None) -> Callable[[XY, float], float]:
        """:meth:`_leader_cost` for leaders from one `anchor`, as a function of the leader's end
        and `enough`: what depends on the anchor alone (which things kept clear are its homes,
        whether it lies on each line) is worked out once for all the ends :meth:`place` tries.
        The same arithmetic in the same order, so the same costs to the last bit (issue 26).
        `region`: a box holding the anchor and every end that will be asked about; what lies too far
        outside it for any of its leaders to reach is left out once, not tested for each."""
        ax, ay = anchor
        areas = [t for t, _ in self._areas]
        taken = [(t[0], t[1], t[2], t[3], crossing) for i, (t, crossing) in enumerate(self._taken) if i not in homes
                 and (region is None or (t[0] <= region[2] and region[0] <= t[2] and t[1] <= region[3] and region[1] <= t[3]))]
        lines = [(a, b, turn, r, distance_to_segment(anchor, a, b) <= 4, (b[0] - a[0], b[1] - a[1]))
                 for a, b, turn, r in (self._lines if region is None else _lines_near(self._lines, grow(region, 8)))]

        def cost_of(end: XY, enough: float) -> float:
            cost = _length_cost(anchor, end)
            if not cost:
                return 0.0
            for t in areas:
                inside = clip_segment(anchor, end, t)
                if inside is not None:
                    cost += math.dist(*inside)
            dx, dy = end[0] - ax, end[1] - ay
            x0, x1 = (ax, end[0]) if ax <= end[0] else (end[0], ax)
            y0, y1 = (ay, end[1]) if ay <= end[1] else (end[1], ay)
            for left, top, right, bottom, crossing in taken:
                if (
                    left <= x1 and x0 <= right and top <= y1 and y0 <= bottom
                    and _meets_box(ax, ay, dx, dy, left, top, right, bottom)
                ):
                    cost += crossing
            if cost >= enough:
                return cost
            quarter, half = (ax + dx / 4, ay + dy / 4), (ax + dx / 2, ay + dy / 2)
            for a, b, turn, r, starts_on, direction in lines:
                if r[0] > x1 + 8 or r[2] < x0 - 8 or r[1] > y1 + 8 or r[3] < y0 - 8:
                    continue
                if starts_on:
                    if turn and _angle_between((dx, dy), direction) < turn:
                        cost += _LEADER_LOST
                    continue
                if _segments_cross(anchor, end, a, b):
                    cost += _LEADER_CROSSING / 2
                if (
                    distance_to_segment(quarter, a, b) <= 7 and distance_to_segment(half, a, b) <= 7
                    and _angle_between((dx, dy), direction) < _LEADER_MIN_ANGLE
                ):
                    cost += _LEADER_LOST
            return cost

        return cost_of

    def _conflicts(self, box: Box) -> int:
        """How many of the things kept clear `box` would cover or cross."""
        padded = grow(box, 3)
        covered = sum(overlaps(box, t) for t, _ in self._taken)
        crossed = sum(meets(a, b, padded) for a, b, _, _ in self._lines)
        return covered + crossed

    # Lines and shapes.

    def line(self, points: Sequence[XY], *, fill: RGB, width: int = 1) -> None:
        """A line through `points`, its joints rounded."""
        self.draw.line(list(points), fill=fill, width=width, joint="curve" if len(points) > 2 else None)

    def dashed(self, a: XY, b: XY, *, fill: RGB, width: int = 1, dash: float = 7, gap: float = 5) -> None:
        """A dashed straight line from `a` to `b`, starting with a dash."""
        length = math.dist(a, b)
        if not length:
            return
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        t = 0.0
        while t < length:
            end = min(t + dash, length)
            self.draw.line([(a[0] + ux * t, a[1] + uy * t), (a[0] + ux * end, a[1] + uy * end)], fill=fill, width=width)
            t = end + gap

    def arrow(
        self, a: XY, b: XY, *, fill: RGB, width: int = 2, head: float = 11, casing: RGB | None = None,
        edge: int = 2, shorten: float = 0,
    ) -> None:
        """A straight arrow from `a` towards `b`, its head's point `shorten` pixels short of `b`
        (to stop at the edge of a mark there); `casing` draws a light edge `edge` pixels wide
        round it so it stands out over bases."""
        length = math.dist(a, b)
        if length <= shorten:
            return
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        b = (b[0] - ux * shorten, b[1] - uy * shorten)
        length -= shorten
        head = min(head, length)
        neck = (b[0] - ux * head * 0.8, b[1] - uy * head * 0.8)

        def barbs(size: float) -> list[XY]:
            back = (b[0] - ux * size, b[1] - uy * size)
            side = size * 0.45
            return [
                (b[0] + ux * (size - head), b[1] + uy * (size - head)),
                (back[0] - uy * side, back[1] + ux * side),
                (back[0] + uy * side, back[1] - ux * side),
            ]

        if casing is not None:
            self.draw.line([a, neck], fill=casing, width=width + 2 * edge)
            self.draw.polygon(barbs(head + 1.5 * edge), fill=casing)
        self.draw.line([a, neck], fill=fill, width=width)
        self.draw.polygon(barbs(head), fill=fill)

    def hatch(self, box: Box, *, fill: RGB, spacing: float = 5, width: int = 1) -> None:
        """Diagonal hatching (rising to the right) inside `box`."""
        left, top, right, bottom = box
        c = left + top + spacing / 2
        while c < right + bottom:
            x0, x1 = max(left, c - bottom), min(right, c - top)
            if x0 < x1:
                self.draw.line([(x0, c - x0), (x1, c - x1)], fill=fill, width=width)
            c += spacing

    def dashed_rect(self, box: Box, *, fill: RGB, width: int = 1, dash: float = 5, gap: float = 4) -> None:
        """The dashed outline of `box`."""
        left, top, right, bottom = box
        corners = [(left, top), (right, top), (right, bottom), (left, bottom), (left, top)]
        for a, b in zip(corners, corners[1:]):
            self.dashed(a, b, fill=fill, width=width, dash=dash, gap=gap)

    def dashed_circle(self, centre: XY, r: float, *, fill: RGB, width: int = 1, dash: float = 8, gap: float = 6) -> None:
        """The dashed outline of the circle of radius `r` round `centre`, in as many whole dashes
        as fit (about `dash` pixels long, `gap` apart)."""
        x, y = centre
        count = max(4, round(2 * math.pi * r / (dash + gap)))
        step = 360 / count
        sweep = step * dash / (dash + gap)
        for i in range(count):
            start = i * step - 90
            self.draw.arc((x - r, y - r, x + r, y + r), start, start + sweep, fill=fill, width=width)

    def tint_circle(self, centre: XY, r: float, tints: dict[RGB, RGB], *, within: Box) -> None:
        """Inside the circle of radius `r` round `centre` (and inside `within`), every pixel of a
        colour `tints` names turns to the colour it gives: the ground under a clear template
        (table, grid, plain bases) takes its tint, while what is drawn on it (hits, lines,
        text) keeps its colour."""
        x, y = centre
        left, top = max(math.floor(x - r), math.ceil(within[0])), max(math.floor(y - r), math.ceil(within[1]))
        right, bottom = min(math.ceil(x + r), math.floor(within[2])), min(math.ceil(y + r), math.floor(within[3]))
        if left >= right or top >= bottom:
            return
        ys, xs = np.mgrid[top:bottom, left:right]
        self.tint((left, top), (xs + 0.5 - x) ** 2 + (ys + 0.5 - y) ** 2 <= r * r, tints)

    def tint(self, at: tuple[int, int], inside: np.ndarray, tints: dict[RGB, RGB]) -> None:
        """In the patch of pixels whose top-left corner is `at` and where `inside` (booleans, a row
        per pixel row) holds, every pixel of a colour `tints` names turns to the colour it gives."""
        left, top = at
        height, width = inside.shape
        x0, y0 = max(left, 0), max(top, 0)
        x1, y1 = min(left + width, self.image.width), min(top + height, self.image.height)
        if x0 >= x1 or y0 >= y1:
            return
        inside = inside[y0 - top:y1 - top, x0 - left:x1 - left]
        patch = self.rows[y0:y1, x0 + 1:x1 + 1]  # in place (column 0 holds the filter bytes)
        was = patch.copy()
        for ground, colour in tints.items():
            patch[inside & (was == self.inks.index(ground))] = self.inks.index(colour)

    def paint(self, colour: RGB, at: tuple[int, int], mask: Image.Image) -> None:
        """`colour` where `mask` (mode ``L``, every pixel 0 or 255) is set, its top-left corner at `at`."""
        self.image.paste(self.inks.index(colour), at, mask)

    # Text.

    def text(
        self, xy: XY, text: str, *, size: int = 13, fill: RGB = INK, anchor: str = "la", halo: bool = False,
        knockout: RGB | None = None, role: str = "", owner: int | None = None,
    ) -> Box:
        """Write `text` at `xy` (Pillow's `anchor`). `halo` rings it in white so it stays legible
        over bases and lines; `knockout` clears a box round it to that colour first, a cheaper
        halo for short names on a plain ground that lines may cross. `role` (and for a
        :data:`MARK`, the `owner` body) says what the legibility rule asks of it. Returns the box
        it covers."""
        glyphs = (text, size, anchor, HALO if halo else 0)
        box = text_box(xy, text, size=size, anchor=anchor, halo=halo)
        self.written.append(Written(box, size, text, role, owner))
        if knockout is not None:
            self.draw.rectangle(grow(box, 1), fill=knockout)
        self._write(box, glyphs, fill)
        return box

    def _write(self, box: Box, glyphs: tuple[str, int, str, int], fill: RGB) -> None:
        """Text's pixels at `box`: its halo's (white) then its own (`fill`) blended onto what is
        under them as Pillow blends a colour through a mask, then mapped onto the palette. On one
        colour (a plate, the paper, a title bar: most text) the result is a tile kept for the next
        time; on several (text over lines and bases) each ground's pixels are looked up in that
        ground's table (:meth:`Inks.text_over`)."""
        mask = _glyphs(*glyphs)[0]
        left, top = int(box[0]), int(box[1])
        right, bottom = left + mask.width, top + mask.height
        width, height = self.image.size
        x0, y0, x1, y1 = max(left, 0), max(top, 0), min(right, width), min(bottom, height)
        if x0 >= x1 or y0 >= y1:
            return
        under = self.rows[y0:y1, x0 + 1:x1 + 1]  # the pixels under it, in place (column 0 is the filter byte)
        ground = under[0, 0]
        if (x0, y0, x1, y1) == (left, top, right, bottom) and (under == ground).all():
            tile, cover = self.inks.text_tile(glyphs, fill, int(ground))
        else:
            tile, cover = self.inks.text_over(glyphs, fill, under, (x0 - left, y0 - top, x1 - left, y1 - top))
        np.copyto(under, tile, where=cover)

    def place(self, anchor: XY, lines: Sequence[str], *, size: int = 12, within: Box, fill: RGB = INK,
              role: str = "") -> Label:
        """Find a spot for a label plate near `anchor`: round it (right, left, above and below
        to either side, straight above, straight below, on the diagonals, ever further out),
        inside `within` and clear of everything kept clear, the one whose leader line back to
        `anchor` costs least (:meth:`_leader_cost`; the leader meets the plate at its nearest
        point, or further along that edge when that lets it turn away from a line) together
        with what the plate covers of the areas labels would rather not cover (see
        :meth:`rather_not_cover`). When no spot is clear, the one that covers least.
        The plate and its leader are kept clear of from then on; nothing is drawn yet
        (:meth:`leader`, then :meth:`plate`, so leaders can go under what is drawn in
        between)."""
        w, h = plate_size(lines, size=size)
        homes = [i for i, (t, _) in enumerate(self._taken) if t[0] <= anchor[0] <= t[2] and t[1] <= anchor[1] <= t[3]]
        # Every spot at once: inside `within`, clear of the boxes kept clear, what it covers.
        offsets, radii = _spots(w, h)
        boxes = offsets + np.array([anchor[0], anchor[1], anchor[0], anchor[1]])
        left, top, right, bottom = boxes.T
        fits = (left >= within[0]) & (top >= within[1]) & (right <= within[2]) & (bottom <= within[3])
        if self._taken:
            t = np.array([box for box, _ in self._taken]).T[:, None, :]
            fits &= ~(
                (left[:, None] < t[2]) & (t[0] < right[:, None]) & (top[:, None] < t[3]) & (t[1] < bottom[:, None])
            ).any(axis=1)
        covering = np.zeros(len(boxes))
        for (x0, y0, x1, y1), weight in self._areas:
            across = np.minimum(right, x1) - np.maximum(left, x0)
            down = np.minimum(bottom, y1) - np.maximum(top, y0)
            touched = (across > 0) & (down > 0)
            covering += np.where(touched, weight * (0.5 + 0.5 * across * down / (w * h)), 0.0)
        base = radii / 4 + covering
        # A leader is at least as long as the plate is far away (beyond the shortest), so no
        # spot scores less than `bound`: try them in that order and stop when none can win.
        bound = base + np.where(radii > _PLACE_RADII[0] + 2, radii, 0.0)
        chosen, cost, chosen_end = None, math.inf, anchor
        # Python lists, read one spot at a time: indexing numpy arrays item by item costs more than
        # the tests themselves (issue 26). Whether a spot fits is asked before its box is built.
        order = np.argsort(bound, kind="stable").tolist()
        bounds, fitting, bases = bound.tolist(), fits.tolist(), base.tolist()
        # Every leader runs from the anchor to a spot: what lies outside the region they span is
        # left out of the tests once (it can neither cross a leader nor crowd a spot; the same choice).
        region = (min(anchor[0], float(left.min())), min(anchor[1], float(top.min())),
                  max(anchor[0], float(right.max())), max(anchor[1], float(bottom.max())))
        near = _lines_near(self._lines, grow(region, 8))
        leader_cost = self._leader_coster(anchor, homes, region=region)
        for i in order:
            if bounds[i] >= cost:
                break
            if not fitting[i]:
                continue
            box = tuple(boxes[i].tolist())
            if not self._clear_of_lines(box, near):
                continue
            ends = _leader_ends(anchor, box)
            # A leader costs at least its length term (what _leader_cost starts from; all it adds is
            # positive): once no end left can beat the best so far on that alone, none can win, and
            # whether the loop would have stopped early changes nothing. The same choice, fewer costs.
            floors = [_length_cost(anchor, end) for end in ends]
            for k in range(len(floors) - 2, -1, -1):
                floors[k] = min(floors[k], floors[k + 1])
            at = bases[i]
            for j, end in enumerate(ends):
                if at + floors[j] >= cost:
                    break
                score = at + leader_cost(end, cost - at)
                if score < cost:
                    chosen, cost, chosen_end = box, score, end
                if score <= at + 1.5 * math.dist(anchor, end):
                    break  # nothing in the way of the nearest end: the others are no better
        if chosen is None:
            spots = [_beside(anchor, w, h, side, r) for r in _PLACE_RADII for side in _PLACE_SIDES]
            inside = [b for b in spots if union([b, within]) == within]
            chosen = min(inside or spots[:1], key=self._conflicts)
            chosen_end = _nearest_on_box(anchor, chosen)
        end = chosen_end
        leader = (anchor, end) if math.dist(anchor, end) > _PLACE_RADII[0] + 2 else None
        if leader is not None:
            self.keep_clear_of_line(*leader)
        self.keep_clear(grow(chosen, 4))
        label = Label(chosen, tuple(lines), size, fill, leader, role)
        self.labels.append(label)
        return label

    def leader(self, label: Label) -> None:
        """The leader line of a placed label, if it has one."""
        if label.leader is not None:
            self.draw.line(list(label.leader), fill=INK_SOFT, width=1)

    def plate(self, label: Label) -> None:
        """A placed label's lines on a white plate."""
        self.draw.rectangle(label.box, fill=WHITE, outline=MUTED)
        y = label.box[1] + _PLATE_PAD
        for line in label.lines:
            self.text((label.box[0] + _PLATE_PAD + 1, y), line, size=label.size, fill=label.fill, anchor="lt",
                      role=label.role)
            y += line_height(label.size)

    # Furniture.

    def scale_bar(self, xy: XY, viewport: Viewport, unit: str, *, longest: float = 160) -> Box:
        """A scale bar for `viewport` with its left end at `xy` (the top of the bar): the
        longest round length that fits in `longest` pixels, in alternating dark and light
        steps, labelled in `unit` ("0 1 2 3 4 in"). Returns the box it covers."""
        lengths = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100, 150, 200)
        total = max([n for n in lengths if viewport.span(n) <= longest], default=1)
        step = next((s for s in (1, 2, 5, 10, 20, 25, 50, 100) if total % s == 0 and viewport.span(s) >= 10), total)
        label_step = next(
            (s for s in (step, 2 * step, 5 * step, 10 * step)
             if total % s == 0 and viewport.span(s) >= text_width(str(total), size=legible(self.image.width)) + 10),
            total,
        )
        x, y = xy
        height = 9
        boxes = []
        for i, start in enumerate(range(0, total, step)):
            x0 = x + viewport.span(start)
            x1 = x + viewport.span(start + step)
            self.draw.rectangle((x0, y, x1, y + height), fill=INK if i % 2 == 0 else WHITE, outline=INK)
        for mark in range(0, total + 1, label_step):
            boxes.append(self.text((x + viewport.span(mark), y + height + 3), str(mark), size=legible(self.image.width),
                                   anchor="mt"))
        end = x + viewport.span(total)
        figures = legible(self.image.width)  # the scale's figures carry information too (issue 30)
        last = text_width(str(total - total % label_step), size=figures) / 2 if viewport.span(total % label_step) < 20 else 0
        boxes.append(self.text((end + last + 6, y + height + 3), unit, size=figures, anchor="lt"))
        boxes.append((x, y, end, y + height))
        return union(boxes)

    def break_symbol(
        self, centre: XY, *, background: RGB, ink: RGB = INK, half_width: float = 11, gap: float = 7,
    ) -> None:
        """The break on a vertical line: a gap with two parallel slanted strokes, meaning
        "a stretch left out here"."""
        x, y = centre
        self.draw.rectangle((x - half_width + 3, y - gap / 2, x + half_width - 3, y + gap / 2), fill=background)
        for dy in (-gap / 2, gap / 2):
            self.draw.line([(x - half_width, y + dy + 4), (x + half_width, y + dy - 4)], fill=ink, width=2)

    def title_bar(self, title: str, subtitle: str, *, height: float, pad: float = 14) -> None:
        """The band across the top: the title (the answer, at :data:`TITLE_SIZE`, or smaller down
        to the least that stays legible in the preview when it is long), and a smaller second
        line under it."""
        width = self.image.width
        room = width - 2 * pad
        self.draw.rectangle((0, 0, width, height), fill=TITLE_BG)
        size = next((s for s in range(TITLE_SIZE, legible(width) - 1, -1) if text_width(title, size=s) <= room),
                    legible(width))
        self.text((pad, 9 + (TITLE_SIZE - size) / 2), fit_text(title, size=size, width=room), size=size, fill=WHITE,
                  anchor="lt", role=TITLE)
        sub = min(legible(width), int(height) - 42)  # the second line carries information too (issue 30): as big as a label, inside the bar
        self.text((pad, 36), fit_text(subtitle, size=sub, width=room), size=sub, fill=TITLE_SUB, anchor="lt")

    def key(self, xy: XY, items: Sequence[LegendItem], *, width: float, title: str = "Key") -> Box:
        """A compact key with its top-left at `xy`, `width` pixels wide: `title` and then its
        items side by side in as many columns as fit (:func:`key_size`). Returns its box."""
        columns, column_width, (w, h) = _key_grid(items, width=width, title=title)
        x, y = xy
        box = (x, y, x + w, y + h)
        self.draw.rectangle(box, fill=WHITE, outline=MUTED)
        self.text((x + _LEGEND_PAD, y + _LEGEND_PAD), title, size=KEY_SIZE + 1, anchor="lt")
        top = y + _LEGEND_PAD + line_height(KEY_SIZE + 1) + 2
        sw, sh = _LEGEND_SWATCH
        rows = math.ceil(len(items) / columns)
        for i, item in enumerate(items):
            column, row = divmod(i, rows)
            left = x + _LEGEND_PAD + column * column_width
            middle_y = top + row * _KEY_ROW + _KEY_ROW / 2
            item.swatch(self, (left, middle_y - sh / 2, left + sw, middle_y + sh / 2))
            self.text((left + sw + 8, middle_y), item.label, size=KEY_SIZE, fill=INK_SOFT, anchor="lm")
        return box

    def banner(self, box: Box, lines: Sequence[str], sizes: Sequence[int], *, pad: float = 14) -> None:
        """A dark red band across `box` for what went wrong: the first of `lines` in white, the
        rest in pale red, each at its size in `sizes`."""
        self.draw.rectangle(box, fill=BANNER)
        x, y = box[0] + pad, box[1] + 10
        for i, line in enumerate(lines):
            self.text((x, y), line, size=sizes[i], fill=WHITE if i == 0 else BANNER_SUB, anchor="lt")
            y += line_height(sizes[i])

    # Output.

    def png(self) -> bytes:
        """The picture as PNG bytes, on its fixed palette (every named colour and the blends
        antialiased text needs), so the same picture always gives the same bytes, encoded in well
        under a millisecond (:func:`_png`). A portrait picture's bytes carry its glance picture, the
        landscape top the channel's embed shows (:class:`Picture`: a ``bytes`` all the same)."""
        # The glance picture is the first rows of the same (issue 26).
        bottom = crop(self)
        top = None if bottom is None else _png(self.rows[:bottom], self.inks.plte)
        return Picture(_png(self.rows, self.inks.plte), top)


def _encode(indexed: Image.Image) -> bytes:
    """An image already on the palette (mode ``P``) as PNG bytes (:func:`_png`)."""
    return _png(_rows(indexed), bytes(indexed.getpalette() or ()))


def _rows(indexed: Image.Image) -> np.ndarray:
    """The image's rows as a PNG holds them before compression: each its filter type (0, none: as
    Pillow writes a palette image, since filters do not help indices), then its pixels' indices."""
    rows = np.empty((indexed.height, indexed.width + 1), dtype=np.uint8)
    rows[:, 0] = 0
    rows[:, 1:] = np.asarray(indexed)
    return rows


def _png(rows: np.ndarray, palette: bytes) -> bytes:
    """An 8-bit palette PNG of `rows` (:func:`_rows`; any first rows of them too) and `palette`
    (RGB triples): the four chunks the PNG specification requires (IHDR, PLTE, IDAT, IEND), the rows
    deflated by ISA-L (``isal``, Intel's Intelligent Storage Acceleration Library: a zlib stream any
    PNG reader reads) at :data:`PNG_DEFLATE_LEVEL`. Issue 26: a tenth of the time Pillow's zlib took
    for the same size; the same rows always give the same bytes (tests/renders/test_png.py)."""
    height, width = rows.shape[0], rows.shape[1] - 1
    return b"".join((
        _PNG_SIGNATURE,
        _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),  # 8 bits, palette
        _chunk(b"PLTE", palette),
        _chunk(b"IDAT", isal_zlib.compress(rows.data, PNG_DEFLATE_LEVEL)),
        _chunk(b"IEND", b""),
    ))


_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: its length, its type, its data, and the CRC-32 of its type and data."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def mix(under: RGB, over: RGB, k: float) -> RGB:
    """`over` laid on `under` at `k` (0 to 1): the colour a tint gives."""
    return tuple(round(o * k + u * (1 - k)) for u, o in zip(under, over))  # type: ignore[return-value]


@functools.cache
def _palette_image(extra: tuple[RGB, ...] = ()) -> Image.Image:
    """The PNG palette: the named colours first, then each text colour blended a quarter, a half
    and three quarters onto every named colour, leaving out blends too close to a colour
    already in; then the picture's `extra` colours, each exactly."""
    named = np.array(PALETTE, dtype=float)
    colours = named.round().astype(int).tolist()
    for ink in _TEXT_INKS:
        for k in (0.25, 0.5, 0.75):
            for blend in (np.array(ink) * k + named * (1 - k)).round().astype(int).tolist():
                if np.abs(np.array(colours) - blend).sum(axis=1).min() > 12:
                    colours.append(blend)
    colours += [list(c) for c in extra if list(c) not in colours]
    if len(colours) > 256:
        raise ValueError(f"the PNG palette needs {len(colours)} colours; it holds 256")
    colours += [list(PAPER)] * (256 - len(colours))
    image = Image.new("P", (1, 1))
    image.putpalette([v for c in colours for v in c])
    return image


class Inks:
    """A picture palette's colours as the indices a :class:`Canvas` draws in: each RGB colour maps to
    the index Pillow's palette mapping gives it (``Image.quantize`` onto the palette, no dither: the
    nearest entry as its colour cache finds it), asked of Pillow once per colour and kept; and the
    text tiles :meth:`Canvas.text` pastes."""

    __slots__ = ("palette", "plte", "rgb", "_index", "_tiles", "_blends")

    TILES = 1024
    """Text tiles kept (a label on one ground in one colour), the least recently used dropped first:
    most of a busy bot's text is new (each shot's title and notes), so keeping many buys nothing
    and costs memory (a tile is its text's pixels)."""

    def __init__(self, extra: tuple[RGB, ...]) -> None:
        self.palette = _palette_image(extra)
        values = self.palette.getpalette() or []
        self.plte = bytes(values)
        """The palette as the PNG's PLTE chunk holds it."""
        self.rgb = np.array(values, dtype=np.uint8).reshape(-1, 3)
        """Each index's colour."""
        self._index: dict[RGB, int] = {}
        self._tiles: collections.OrderedDict[tuple, tuple[np.ndarray, np.ndarray]] = collections.OrderedDict()
        self._blends: dict[tuple[RGB, int], np.ndarray] = {}

    def index(self, colour: RGB) -> int:
        """The index `colour` is drawn in."""
        found = self._index.get(colour)
        if found is None:
            colour = tuple(int(v) for v in colour)  # type: ignore[assignment]
            pixel = Image.new("RGB", (1, 1), colour).quantize(palette=self.palette, dither=Image.Dither.NONE)
            found = self._index[colour] = pixel.getpixel((0, 0))  # type: ignore[assignment]
        return found  # type: ignore[return-value]

    def text_tile(self, glyphs: tuple[str, int, str, int], fill: RGB, ground: int) -> tuple[np.ndarray, np.ndarray]:
        """Text (:func:`_glyphs`'s `glyphs`) in `fill` with its halo, on a ground of the one index
        `ground`: its pixels' indices, and where it changes them (:func:`_text_arrays`), kept."""
        key = (glyphs, fill, ground)
        tile = self._tiles.get(key)
        if tile is None:
            if len(self._tiles) >= self.TILES:
                self._tiles.popitem(last=False)
            mask = _glyphs(*glyphs)[0]
            under = np.full((mask.height, mask.width), ground, dtype=np.uint8)
            tile = self._tiles[key] = self.text_over(glyphs, fill, under, (0, 0, mask.width, mask.height))
        else:
            self._tiles.move_to_end(key)
        return tile

    def blends(self, fill: RGB, ground: int) -> np.ndarray:
        """The index of every pixel text in `fill` can leave on the ground `ground`, by the value of
        its halo's mask (white laid on first) and then its own (`fill` laid over): a row per halo
        value, a column per text value. Blended in Pillow's arithmetic for pasting a colour through a
        mask and mapped by Pillow's own mapping, all 65,536 at once; kept."""
        key = (fill, ground)
        found = self._blends.get(key)
        if found is None:
            values = np.arange(256, dtype=np.int32)
            haloed = _blend(np.repeat(self.rgb[ground][None, :].astype(np.int32), 256, axis=0), WHITE, values)
            written = _blend(np.repeat(haloed[:, None, :], 256, axis=1), fill, np.broadcast_to(values, (256, 256)))
            mapped = Image.fromarray(written.astype(np.uint8)).quantize(palette=self.palette, dither=Image.Dither.NONE)
            found = self._blends[key] = np.asarray(mapped)
        return found

    def text_over(self, glyphs: tuple[str, int, str, int], fill: RGB, under: np.ndarray,
                  part: Box) -> tuple[np.ndarray, np.ndarray]:
        """Text written over the indices `under` (text crossing lines and bases), which lie under the
        `part` of its box: its pixels' indices there, looked up for each ground under it in that
        ground's :meth:`blends`, and where it changes them (booleans)."""
        mask, ring, cover = _text_arrays(*glyphs)
        left, top, right, bottom = (int(v) for v in part)
        mask, cover = mask[top:bottom, left:right], cover[top:bottom, left:right]
        ring = None if ring is None else ring[top:bottom, left:right]
        written = np.empty_like(under)
        for ground in np.unique(under).tolist():
            where = under == ground
            written[where] = self.blends(fill, ground)[0 if ring is None else ring[where], mask[where]]
        return written, cover


@functools.cache
def _inks(extra: tuple[RGB, ...]) -> Inks:
    return Inks(extra)


def _blend(under: np.ndarray, colour: RGB, mask: np.ndarray) -> np.ndarray:
    """`colour` laid on the RGB pixels `under` through `mask` (0 to 255), in Pillow's arithmetic for
    pasting a colour through a mask (each channel ``(under * (255 - m) + colour * m) / 255``,
    rounded as Pillow rounds)."""
    m = mask.astype(np.int32)[..., None]
    blend = under * (255 - m) + np.array(colour, dtype=np.int32) * m + 128
    return ((blend >> 8) + blend) >> 8


@functools.lru_cache(maxsize=1024)
def _text_arrays(text: str, size: int, anchor: str, halo: int) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
    """:func:`_glyphs`'s masks as arrays, and the pixels the text touches (its mask's and its
    halo's: where it is written over what is under it); all read only."""
    mask, ring, _, _ = _glyphs(text, size, anchor, halo)
    arrays = (np.asarray(mask), None if ring is None else np.asarray(ring))
    touched = arrays[0] > 0
    if arrays[1] is not None:
        touched |= arrays[1] > 0
    touched.flags.writeable = False
    return arrays[0], arrays[1], touched


class _PaletteDraw(ImageDraw.ImageDraw):
    """Pillow's draw handle on a :class:`Canvas`'s palette image, taking RGB colours as on an RGB
    image: each drawn in the index :class:`Inks` maps it to (Pillow's own handle would add colours
    to the palette instead)."""

    def __init__(self, image: Image.Image, inks: Inks) -> None:
        super().__init__(image)
        self.palette = None
        self._inks = inks
        self._drawn_in: dict[RGB, int] = {}

    def _getink(self, ink, fill=None):  # type: ignore[no-untyped-def, override]
        if isinstance(ink, tuple):
            ink = self._inks.index(ink)
        if isinstance(fill, tuple):
            fill = self._inks.index(fill)
        return super()._getink(ink, fill)

    def _ink(self, colour: RGB) -> int:
        """What Pillow's core draws `colour` with on this image: its index, as :meth:`_getink` makes it."""
        ink = self._drawn_in.get(colour)
        if ink is None:
            ink = self._drawn_in[colour] = self._getink(colour)[0]
        return ink

    # A picture draws some two hundred lines and shapes. These go straight to Pillow's core with the
    # ink looked up once a colour: the very calls ImageDraw's own methods make (Pillow 13, pinned),
    # so the same pixels (tests/renders/test_palette_drawing.py; issue 26: about a third of each
    # call was the way there). Anything else (a curved joint, a wide polygon outline, a colour that
    # is not an RGB tuple, no colour at all) is Pillow's own.

    def _inks_of(self, fill, outline) -> tuple[int | None, int | None] | None:  # type: ignore[no-untyped-def]
        """(outline's ink, fill's ink) as ImageDraw._getink gives them, or None to leave it to Pillow."""
        if (fill is None or type(fill) is tuple) and (outline is None or type(outline) is tuple) and (
                fill is not None or outline is not None):
            return None if outline is None else self._ink(outline), None if fill is None else self._ink(fill)
        return None

    def line(self, xy, fill=None, width=1, joint=None):  # type: ignore[no-untyped-def, override]
        if type(fill) is tuple and width and (joint != "curve" or width <= 4):
            self.draw.draw_lines(xy, self._ink(fill), width)
        else:
            super().line(xy, fill, width, joint)

    def _filled_and_outlined(self, core, xy, inks: tuple[int | None, int | None], width: int) -> None:  # type: ignore[no-untyped-def]
        """What ImageDraw's rectangle, ellipse and polygon do with their inks: the fill, then the outline
        (`width` pixels, none at 0) unless it is the fill's own ink."""
        ink, fill_ink = inks
        if fill_ink is not None:
            core(xy, fill_ink, 1)
        if ink is not None and ink != fill_ink and width != 0:
            core(xy, ink, 0, width)

    def rectangle(self, xy, fill=None, outline=None, width=1):  # type: ignore[no-untyped-def, override]
        inks = self._inks_of(fill, outline)
        if inks is None:
            return super().rectangle(xy, fill, outline, width)
        self._filled_and_outlined(self.draw.draw_rectangle, xy, inks, width)

    def ellipse(self, xy, fill=None, outline=None, width=1):  # type: ignore[no-untyped-def, override]
        inks = self._inks_of(fill, outline)
        if inks is None:
            return super().ellipse(xy, fill, outline, width)
        self._filled_and_outlined(self.draw.draw_ellipse, xy, inks, width)

    def polygon(self, xy, fill=None, outline=None, width=1):  # type: ignore[no-untyped-def, override]
        inks = self._inks_of(fill, outline)
        if inks is None or (inks[0] is not None and inks[0] != inks[1] and width not in (0, 1)):
            return super().polygon(xy, fill, outline, width)  # a wide outline: Pillow draws it through a mask
        self._filled_and_outlined(self.draw.draw_polygon, xy, inks, width)


# The glance picture (issue 30).
#
# The glance picture: what the channel's embed shows of a picture (issue 30).
#
# Discord shows an embed's image about 400 pixels wide on a phone, and fits it into about a
# 400 x 300 box on the desktop client: a portrait picture there shrinks to some 220 pixels wide and
# nothing on it reads. So a picture taller than :data:`LANDSCAPE` of its width has a glance
# picture cut from it: its top, which holds its title bar (the answer, with the count of hits), a
# misfire's banner, and its target area with the names round it, at the same scale, :data:`LANDSCAPE` of the width at most, so that it reads
# at 400 pixels wide in either box. The full diagram (the list of hits, the key, the inset) goes
# with it, one tap away: the embed's thumbnail (:meth:`cogs.common.replies.Reply.glance`), which
# Discord opens full size when tapped.
#
# :meth:`Canvas.png` returns the PNG as :class:`Picture` (``bytes``, so every caller keeps working)
# carrying its glance; :func:`glance_of` reads it back (None when the picture is its own glance).
# The crop is worked out from what the canvas recorded as it drew (its title bar, target area and
# every text), never from pixels alone.

LANDSCAPE = 0.75
"""A glance picture is at most this share of its width tall (4:3): it fills a 400 x 300 box."""
ROOM = 8
"""Pixels kept round the target area and what is written on its edge."""


class Picture(bytes):
    """A picture's PNG bytes, with its glance picture's (:attr:`glance`, None when the picture
    itself is landscape enough to be its own glance)."""

    glance: bytes | None

    def __new__(cls, data: bytes, glance: bytes | None = None) -> Picture:
        made = super().__new__(cls, data)
        made.glance = glance
        return made

    def __reduce__(self):  # kept whole across the render worker processes (pickle)
        return (Picture, (bytes(self), self.glance))


def glance_of(image: bytes | None) -> bytes | None:
    """The glance picture an image carries, if any."""
    return getattr(image, "glance", None)


def band(canvas: Canvas) -> tuple[int, int] | None:
    """The rows of the target area with everything written on or across its edges (the names
    round a unit, a note's plate), so that no text is cut: top and bottom."""
    if canvas.target is None:
        return None
    top, bottom = canvas.target[1] - ROOM, canvas.target[3] + ROOM
    boxes: list[Box] = [w.box for w in canvas.written] + [label.box for label in canvas.labels]
    changed = True
    while changed:  # a text across the band's edge widens it, which may take in another
        changed = False
        for b in boxes:
            if b[1] < bottom and b[3] > top and (b[1] < top or b[3] > bottom):
                top, bottom = min(top, b[1] - 2), max(bottom, b[3] + 2)
                changed = True
    return max(0, int(top)), min(canvas.image.height, int(bottom + 0.999))


def crop(canvas: Canvas) -> int | None:
    """How many rows from the top the glance keeps: the title bar, a banner under it (a misfire),
    and the target band (:func:`band`); None when the picture needs no glance (landscape enough
    already, or no target area) or those do not fit in :data:`LANDSCAPE` of the width."""
    width, height = canvas.image.size
    if height <= LANDSCAPE * width:
        return None
    rows = band(canvas)
    if rows is None or rows[1] > LANDSCAPE * width:
        return None
    return rows[1]
