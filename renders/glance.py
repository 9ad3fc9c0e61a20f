"""The glance picture: what the channel's embed shows of a picture (issue 30).

Discord shows an embed's image about 400 pixels wide on a phone, and fits it into about a
400 x 300 box on the desktop client: a portrait picture there shrinks to some 220 pixels wide and
nothing on it reads. So a picture taller than :data:`LANDSCAPE` of its width has a glance
picture cut from it: its top, which holds its title bar (the answer, with the count of hits), a
misfire's banner, and its target area with the names round it, at the same scale, :data:`LANDSCAPE` of the width at most, so that it reads
at 400 pixels wide in either box. The full diagram (the list of hits, the key, the inset) goes
with it, one tap away: the embed's thumbnail (:meth:`cogs.common.replies.Reply.glance`), which
Discord opens full size when tapped.

:func:`picture` wraps a canvas's PNG as :class:`Picture` (``bytes``, so every caller keeps working)
carrying its glance; :func:`glance_of` reads it back (None when the picture is its own glance).
The crop is worked out from what the canvas recorded as it drew (its title bar, target area and
every text), never from pixels alone.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import numpy as np
from PIL import Image

if TYPE_CHECKING:
    from renders.canvas import Box, Canvas

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


def title_height(canvas: Canvas) -> int:
    """How tall the picture's title bar is: the rows of its left edge in the bar's colour."""
    from renders.canvas import TITLE_BG

    column = np.asarray(canvas.image.convert("RGB"))[:, 0]
    dark = np.all(column == TITLE_BG, axis=1)
    return int(np.argmin(dark)) if dark[0] and not dark.all() else 0


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


def glance_png(canvas: Canvas, encode, image: Image.Image | None = None) -> bytes | None:
    """The glance picture of `canvas` (its top, down to the end of the target band), cut from
    `image` (the canvas's own image mapped onto its palette; by default the canvas's image) and
    encoded by `encode`, or None (:func:`crop`)."""
    bottom = crop(canvas)
    if bottom is None:
        return None
    image = canvas.image if image is None else image
    return encode(image.crop((0, 0, image.width, bottom)))


def picture(canvas: Canvas, data: bytes, encode, image: Image.Image | None = None) -> Picture:
    """`data` (the canvas's PNG) as a :class:`Picture` with its glance (:func:`glance_png`)."""
    return Picture(data, glance_png(canvas, encode, image))


def encode_png(image: Image.Image, level: int) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=level)
    return out.getvalue()
