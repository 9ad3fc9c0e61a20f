"""The PNG writer of the pictures (renders/canvas.py ``_encode``, issue 26): ISA-L's deflate behind the
PNG specification's four chunks. What a reader gets back is exactly the image the canvas mapped onto
its palette: the same indices and the same palette, read by Pillow and by the chunk-by-chunk reading
below (the CRCs checked, the zlib stream inflated by Python's own zlib); and the same image always
gives the same bytes."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image

from config.gamedata import fantasy
from engine.dice import EnteredDice, RandomDice
from engine.fantasy.cannon import fire_cannon
from engine.fantasy.formation import TargetUnit
from engine.fantasy.wounding import Profile
from renders import canvas
from renders.canvas import Canvas, glance_of
from renders.fantasy.cannon import render_cannon

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    """The PNG's chunks (type, data) in order, each CRC checked."""
    assert png[:8] == SIGNATURE
    found, at = [], 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at:at + 4])
        kind, data = png[at + 4:at + 8], png[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", png[at + 8 + length:at + 12 + length])
        assert crc == zlib.crc32(kind + data), f"bad CRC on {kind!r}"
        found.append((kind, data))
        at += 12 + length
    assert at == len(png), "bytes after the last chunk"
    return found


def indexed(image: Image.Image) -> Image.Image:
    return image.quantize(palette=canvas._palette_image(), dither=Image.Dither.NONE)


def cannon_canvas_image() -> Image.Image:
    """The cannon picture's own palette image (the 5x10 unit of benchmarks/bench_cannon.py)."""
    data = fantasy()
    wide = TargetUnit(5, 10, data.troops["infantry"], 25, 25, profile=Profile(3, 1, 5))
    shot = fire_cannon(data.cannons["cannon"], data.misfire_charts["black-powder"], wide, 30,
                       EnteredDice("@30 4 10", RandomDice(1)))
    image = Image.open(io.BytesIO(render_cannon(shot)))
    image.load()
    return image


def a_drawing() -> Image.Image:
    c = Canvas(240, 130, extra=((10, 200, 30),))
    c.draw.rectangle((10, 10, 200, 90), fill=canvas.INK, outline=canvas.PAPER)
    c.text((20, 100), "scatter 2\" toward 1 o'clock", size=14, anchor="la", halo=True)
    c.draw.ellipse((150, 20, 230, 120), fill=(10, 200, 30))
    return c.image  # drawn on its palette


IMAGES = {
    "a drawing with text and an extra colour": a_drawing,
    "the cannon picture": cannon_canvas_image,
    "one pixel": lambda: indexed(Image.new("RGB", (1, 1), canvas.PAPER)),
    "a tall thin strip": lambda: indexed(Image.new("RGB", (3, 2000), canvas.INK)),
}


@pytest.mark.parametrize("name", IMAGES)
def test_a_reader_gets_back_the_same_indices_and_palette(name):
    image = IMAGES[name]()
    png = canvas._encode(image)
    read = Image.open(io.BytesIO(png))
    read.verify()  # Pillow's own check of the chunks
    read = Image.open(io.BytesIO(png))
    assert read.mode == "P" and read.size == image.size
    assert read.tobytes() == image.tobytes()
    assert read.getpalette() == image.getpalette()
    assert read.convert("RGB").tobytes() == image.convert("RGB").tobytes()


@pytest.mark.parametrize("name", IMAGES)
def test_the_chunks_are_the_four_the_specification_requires_with_unfiltered_rows(name):
    image = IMAGES[name]()
    png = canvas._encode(image)
    kinds = [kind for kind, _ in chunks(png)]
    assert kinds == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    parts = dict(chunks(png))
    width, height, depth, colour, compression, filtering, interlace = struct.unpack(">IIBBBBB", parts[b"IHDR"])
    assert (width, height) == image.size
    assert (depth, colour, compression, filtering, interlace) == (8, 3, 0, 0, 0)
    assert bytes(parts[b"PLTE"]) == bytes(image.getpalette())
    rows = np.frombuffer(zlib.decompress(parts[b"IDAT"]), dtype=np.uint8).reshape(height, width + 1)
    assert not rows[:, 0].any(), "every row unfiltered"
    assert rows[:, 1:].tobytes() == image.tobytes()


def test_the_same_image_gives_the_same_bytes():
    assert canvas._encode(a_drawing()) == canvas._encode(a_drawing())


def test_a_picture_and_its_glance_are_each_whole_pngs():
    png = render_cannon(fire_cannon(fantasy().cannons["cannon"], fantasy().misfire_charts["black-powder"],
                                    TargetUnit(5, 10, fantasy().troops["infantry"], 25, 25), 30,
                                    EnteredDice("@30 4 10", RandomDice(1))))
    glance = glance_of(png)
    assert glance is not None
    full, top = Image.open(io.BytesIO(png)), Image.open(io.BytesIO(glance))
    assert top.width == full.width and top.height < full.height
    assert top.tobytes() == full.crop((0, 0, top.width, top.height)).tobytes()


def test_the_picture_is_no_bigger_than_pillows_own_encoding_of_it():
    """ISA-L's level 1 is chosen for time; it must not cost bytes against the zlib level Pillow
    encoded the pictures at (a sent picture's size is what the channel downloads)."""
    image = cannon_canvas_image()
    pillow = io.BytesIO()
    image.save(pillow, format="PNG", compress_level=canvas.PNG_COMPRESS_LEVEL)
    assert len(canvas._encode(image)) <= len(pillow.getvalue()) * 1.05
