"""The cannon picture (renders/cannon.py): a valid PNG, the same bytes for the same record, the
golden pictures of the book's cases, and a scale bar that measures the bases truly.

Every record comes from the real engine (fire_cannon with the shipped game data and entered
dice), never built by hand.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from config.gamedata import fantasy
from engine.dice import EnteredDice, RandomDice
from engine.fantasy.cannon import CannonShot, fire_cannon
from engine.fantasy.formation import MM_PER_INCH, Facing, TargetUnit
from engine.fantasy.wounding import Profile
from renders import canvas
from renders.cannon import render_cannon

DATA = fantasy()
CANNON = DATA.cannons["cannon"]
GREAT = DATA.cannons["great-cannon"]
CHART = DATA.misfire_charts["black-powder"]
TROOPS = DATA.troops


def infantry(**kwargs) -> TargetUnit:
    """4 ranks of 5 infantry on 20 mm bases."""
    return TargetUnit(4, 5, TROOPS["infantry"], 20, 20, **kwargs)


SCENARIOS: dict[str, Callable[[], CannonShot]] = {
    # The hit symbol: the ball lands on the aimed model and bounces 6" on through every rank.
    "hit_through": lambda: fire_cannon(CANNON, CHART, infantry(), 30, EnteredDice("H 2 6", RandomDice(0))),
    # An arrow toward 7 o'clock: 3" short and left of the unit, then an 8" bounce into it; the
    # profile's wound rolls come from the bot.
    "short_bounce_in": lambda: fire_cannon(
        CANNON, CHART, infantry(profile=Profile(3, 1, 5)), 24, EnteredDice("@200 6 8", RandomDice(3)),
    ),
    # Scatter 2" to 1 o'clock onto rank 3, then the bounce die misfires: no bounce.
    "bounce_misfire": lambda: fire_cannon(CANNON, CHART, infantry(), 30, EnteredDice("@30 4 M", RandomDice(0))),
    # Monstrous infantry (T4 W3): the front model is slain (5 to wound, 3 wounds), the one behind
    # takes 1 wound of 3, survives and stops the ball.
    "monster_stops": lambda: fire_cannon(
        CANNON, CHART, TargetUnit(2, 3, TROOPS["monstrous-infantry"], 40, 40, profile=Profile(4, 3)), 36,
        EnteredDice("H 4 10 5 3 4 1", RandomDice(0)),
    ),
    # Cavalry showing its flank to a great cannon: files count as ranks.
    "flank": lambda: fire_cannon(
        GREAT, CHART, TargetUnit(3, 6, TROOPS["cavalry"], 25, 50, facing=Facing.FLANK), 40,
        EnteredDice("@300 6 6", RandomDice(0)),
    ),
    # The artillery die misfires; 3 on the Black Powder Misfire Chart: nothing is fired.
    "misfire": lambda: fire_cannon(CANNON, CHART, infantry(), 30, EnteredDice("H M 3", RandomDice(0))),
    # Monstrous infantry without a profile: the models behind the first are hit only if it dies.
    "monster_no_profile": lambda: fire_cannon(
        CANNON, CHART, TargetUnit(3, 2, TROOPS["monstrous-infantry"], 40, 40), 20, EnteredDice("H 2 8", RandomDice(0)),
    ),
}


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


@pytest.fixture(scope="module")
def pictures() -> dict[str, bytes]:
    return {name: render_cannon(build()) for name, build in SCENARIOS.items()}


@pytest.mark.parametrize("name", SCENARIOS)
def test_is_a_valid_png_of_the_asked_width(name: str, pictures: dict[str, bytes]) -> None:
    png = pictures[name]
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(png))
    image.verify()
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    assert image.mode == "P"
    assert image.width == 900
    assert 500 <= image.height <= 1000


@pytest.mark.parametrize("name", SCENARIOS)
def test_matches_the_golden_picture(
    name: str, pictures: dict[str, bytes], golden: Callable[[str, bytes], None],
) -> None:
    golden(f"cannon_{name}", pictures[name])


def test_the_same_record_gives_the_same_bytes() -> None:
    shot = SCENARIOS["short_bounce_in"]()
    first = render_cannon(shot)
    assert render_cannon(shot) == first
    assert render_cannon(SCENARIOS["short_bounce_in"]()) == first
    # Text is rendered once and kept; a picture drawn from scratch is the same picture.
    canvas._glyphs.cache_clear()
    assert render_cannon(shot) == first


def test_options_are_keyword_only_and_change_the_picture() -> None:
    shot = SCENARIOS["flank"]()
    with pytest.raises(TypeError):
        render_cannon(shot, 700)  # type: ignore[misc]
    wide = decode(render_cannon(shot, width=1200))
    assert wide.width == 1200
    assert render_cannon(shot, inset=False) != render_cannon(shot)
    with pytest.raises(ValueError, match="width 500"):
        render_cannon(shot, width=500)


def test_named_colours_survive_encoding(pictures: dict[str, bytes]) -> None:
    colours = {tuple(c) for c in np.asarray(decode(pictures["monster_stops"])).reshape(-1, 3)}
    for colour in (canvas.DIRECT, canvas.BOUNCE, canvas.BOUNCE_HATCH, canvas.BASE, canvas.TABLE, canvas.INK):
        assert colour in colours


def test_a_misfire_shows_its_banner_and_no_hits(pictures: dict[str, bytes]) -> None:
    pixels = np.asarray(decode(pictures["misfire"]))
    banner = np.all(pixels == canvas.BANNER, axis=2)
    assert banner[70:100].any(axis=1).all(), "the banner runs under the title"
    for colour in (canvas.DIRECT, canvas.BOUNCE, canvas.SCATTER):
        assert not np.all(pixels == colour, axis=2).any()


def test_direct_and_bounce_hits_differ_by_more_than_hue(pictures: dict[str, bytes]) -> None:
    def lightness(rgb: tuple[int, int, int]) -> float:
        return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]

    assert abs(lightness(canvas.DIRECT) - lightness(canvas.BOUNCE)) > 60
    pixels = np.asarray(decode(pictures["hit_through"]))
    assert np.all(pixels == canvas.BOUNCE_HATCH, axis=2).any(), "bounce hits are hatched"


def runs(row: np.ndarray, colour: tuple[int, int, int]) -> list[tuple[int, int]]:
    """(start, end) of each run of `colour` along a row of pixels, end exclusive."""
    hit = np.all(row == colour, axis=1).astype(np.int8)
    edges = np.flatnonzero(np.diff(np.concatenate(([0], hit, [0]))))
    return list(zip(edges[::2], edges[1::2]))


def test_the_scale_bar_measures_a_base_truly(pictures: dict[str, bytes]) -> None:
    """Measured on the picture itself: a 20 mm base against one step of the scale bar (1 in)."""
    pixels = np.asarray(decode(pictures["hit_through"]))[:, :600]  # left of the list of hits
    # The direct hit's base, R1 F3: a solid run of DIRECT inside a 2-pixel dark outline.
    direct = np.argwhere(np.all(pixels == canvas.DIRECT, axis=2))
    base_px = direct[:, 1].max() - direct[:, 1].min() + 1 + 4
    # The scale bar's top edge: the first long dark run starting at its left end, x = 18.
    bar_top = next(
        y for y in range(pixels.shape[0]) if any(a == 18 and b - a > 30 for a, b in runs(pixels[y], canvas.INK))
    )
    # Through the bar's middle, the first (dark) step runs from its left end to the next step.
    start, end = runs(pixels[bar_top + 3], canvas.INK)[0]
    inch_px = end - 1 - start
    assert base_px / inch_px == pytest.approx(20 / MM_PER_INCH, rel=0.04)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    troop=st.sampled_from(sorted(TROOPS)),
    ranks=st.integers(1, 8),
    files=st.integers(1, 12),
    facing=st.sampled_from(list(Facing)),
    great=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
    with_profile=st.booleans(),
    width=st.sampled_from([640, 900, 1300]),
)
def test_any_shot_renders(troop: str, ranks: int, files: int, facing: Facing, great: bool, seed: int,
                          with_profile: bool, width: int) -> None:
    kind = TROOPS[troop]
    weapon = GREAT if great else CANNON
    unit = TargetUnit(ranks, files, kind, kind.base_width, kind.base_depth, facing=facing,
                      profile=Profile(4, 3, 4) if with_profile else None)
    dice = RandomDice(seed)
    shot = fire_cannon(weapon, CHART, unit, weapon.min_range + seed % (weapon.max_range - weapon.min_range + 1), dice)
    image = decode(render_cannon(shot, width=width))
    assert image.width == width
    assert image.height > 400
    # Nothing runs off the picture: below the title and banner, which span the width, the
    # outermost pixels on every side are bare paper.
    pixels = np.asarray(image)
    body = pixels[np.all(pixels[:, 0] == canvas.PAPER, axis=1)]
    for edge in (body[:, :3], body[:, -3:], pixels[-3:]):
        assert np.all(edge == canvas.PAPER)
