"""Issue 30, item 4: the picture in the channel reads in a landscape box too. A portrait
picture carries a glance picture (renders/canvas.py): its top, with the title (the count of hits),
a misfire's banner, the target area and the names round it, at most 3:4 of its width tall, so
Discord's ~400 x 300 desktop box shows it 400 pixels wide, as a phone does; the full diagram goes
with it as the embed's thumbnail, one tap away."""

from __future__ import annotations

import io

import discord
import pytest
from PIL import Image

from cogs.common.replies import Reply, glance_name
from renders.canvas import PREVIEW, PREVIEW_TYPE, TITLE
from renders.canvas import LANDSCAPE, Picture, glance_of
from tests.renders.test_legibility import PICTURES, drawn  # noqa: F401 (the fixture)

BOX = (400, 300)
"""The desktop client's embed box, as reported: a picture is fitted inside it."""


def shown_width(size: tuple[int, int], box: tuple[int, int] = BOX) -> float:
    """How wide a picture of `size` is shown fitted into `box` (never enlarged past the box)."""
    return min(box[0], box[1] * size[0] / size[1])


@pytest.mark.parametrize("name", PICTURES)
def test_a_portrait_picture_carries_a_landscape_glance_that_reads_at_400_px(name, drawn):  # noqa: F811
    png = PICTURES[name]()
    canvas = drawn(PICTURES[name])
    width, height = canvas.image.size
    glance = glance_of(png)
    if height <= LANDSCAPE * width:
        assert glance is None  # landscape already: the picture is its own glance
        assert shown_width((width, height)) >= PREVIEW - 1
        return
    assert glance is not None, f"{name}: a {width} x {height} picture has no glance picture"
    image = Image.open(io.BytesIO(glance))
    assert image.width == width and image.height <= LANDSCAPE * width
    assert shown_width(image.size) >= PREVIEW - 1  # so the 8 px rule holds in the box as on a phone
    bottom = image.height
    # the title and the target area are in it, and no text is cut by its edge
    assert canvas.target[3] <= bottom and any(w.role == TITLE and w.box[3] <= bottom for w in canvas.written)
    for w in canvas.written:
        assert w.box[3] <= bottom or w.box[1] >= bottom, f"{name}: {w.text!r} is cut by the glance's edge"
        if w.box[3] <= bottom:
            assert w.size * PREVIEW / width >= PREVIEW_TYPE - 1e-9
    for label in canvas.labels:
        assert label.box[3] <= bottom or label.box[1] >= bottom
    # the pixels are the picture's own top
    full = Image.open(io.BytesIO(png)).convert("RGB")
    assert full.crop((0, 0, width, bottom)).tobytes() == image.convert("RGB").tobytes()


def test_every_fantasy_warmaster_and_40k_shot_picture_has_a_glance(drawn):  # noqa: F811
    for name in PICTURES:
        if name.startswith(("cannon", "stone", "flame", "bolt", "wm-", "40k-")):
            assert glance_of(PICTURES[name]()) is not None, name


def test_the_embed_shows_the_glance_and_the_full_diagram_as_its_thumbnail():
    embed = discord.Embed(title="Cannon: 30\" at the target", description="**2 models hit**")
    reply = Reply(embed=embed, image=Picture(b"full", b"glance"), filename="cannon.png", command="fire cannon",
                  system="warhammer-fantasy", dice=(), summary=())
    glance = reply.glance()
    assert glance.image.url == f"attachment://{glance_name('cannon.png')}" == "attachment://cannon-glance.png"
    assert glance.thumbnail.url == "attachment://cannon.png"
    plain = Reply(embed=embed, image=b"landscape", filename="battle.png", command="battle status", system="all",
                  dice=(), summary=())
    assert plain.glance().image.url == "attachment://battle.png" and not plain.glance().thumbnail.url


def test_the_glance_survives_the_render_worker_processes():
    import pickle

    from cogs.common import render_pool
    from renders.fantasy.cannon import render_cannon
    from tests.renders.fantasy.test_render_cannon import SCENARIOS

    png = render_cannon(SCENARIOS["hit_through"]())
    copy = pickle.loads(pickle.dumps(png))
    assert copy == png and glance_of(copy) == glance_of(png) is not None
    render_pool.start(1)
    try:
        drawn_there = render_pool.draw(render_cannon, SCENARIOS["hit_through"]())
    finally:
        render_pool.stop()
    assert drawn_there == png and glance_of(drawn_there) == glance_of(png)
