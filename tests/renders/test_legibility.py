"""The legibility rule (docs/pictures.md, tests/renders/legibility.py) for every kind of picture the
bot draws: every golden scene, the player shots the render tests draw, and the worst cases (a 20 x
30 horde, the most stands, one section, an empty board). Each picture is drawn through its public
render function; the canvas it drew is read back as it was encoded."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from shapely.geometry import LineString

from config.gamedata import warmaster
from engine.dice import EnteredDice, PcgDice as RandomDice
from engine.geometry import Point
from engine.warmaster.cannon import PlacedUnit, fire_cannons
from engine.warmaster.shooting import Side
from engine.warmaster.stands import Formation, lay_out
from engine.warmaster.structure import Fortress, SectionState
from engine.wh40k.squad import Facing, Squad
from engine.wh40k.ordnance import VehicleState, VehicleTarget
from renders.campaign.battle import BattleBoard, render_battle
from renders.canvas import LABEL, NAME, TITLE, Canvas
from renders.fantasy.bolt_thrower import render_bolt_thrower
from renders.fantasy.cannon import render_cannon
from renders.fantasy.fire_thrower import render_fire_thrower
from renders.fantasy.stone_thrower import render_stone_thrower
from renders.odds.picture import OddsPicture, render_odds
from renders.warmaster.artillery import render_bone_thrower, render_cannon as render_wm_cannon
from renders.warmaster.fortress import render_fortress
from renders.wh40k.ordnance import render_ordnance
from tests.renders.campaign import test_render_battle as battle
from tests.renders.fantasy import (
    test_render_bolt_thrower as bolt, test_render_cannon as cannon, test_render_fire_thrower as flame,
    test_render_stone_thrower as stone,
)
from tests.renders.legibility import faults
from tests.renders.warmaster import test_render_warmaster as wm
from tests.renders.wh40k import test_render_wh40k as w40

W = warmaster()


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Callable[[Callable[[], bytes]], Canvas]:
    """``drawn(render)``: the canvas `render` encoded (its last one)."""
    made: list[Canvas] = []
    encode = Canvas.png

    def keep(self: Canvas) -> bytes:
        made.append(self)
        return encode(self)

    monkeypatch.setattr(Canvas, "png", keep)

    def draw(render: Callable[[], bytes]) -> Canvas:
        made.clear()
        render()
        assert made, "the render encoded no canvas"
        return made[-1]

    return draw


def scenes(module, render) -> dict[str, Callable[[], bytes]]:
    """The golden scenes and the player shots of a render test module, each as a render call."""
    out = {name: (lambda b=build: render(b())) for name, build in module.SCENARIOS.items()}
    out.update({f"player-{name}": (lambda b=build: render(b())) for name, build in getattr(module, "PLAYER_SHOTS", {}).items()})
    return out


def wm_seam() -> bytes:
    """A ball whose bounce runs along the edge of another unit's stands: grazed, not hit."""
    target = PlacedUnit(wm._unit("target", 2), lay_out(Formation.COLUMN, 2, Point(0, 20)))
    side = PlacedUnit(wm._unit("enemy 2", 2), lay_out(Formation.COLUMN, 2, Point(2, 25)))
    return render_wm_cannon(fire_cannons(W.artillery["cannon"], W.positions, target, RandomDice(3), cannons=1,
                                         others=(side,)))


def wm_crowd() -> bytes:
    """The most stands: a wide target, two friends and an engaged enemy round the path."""
    target = PlacedUnit(wm._unit("target", 4), lay_out(Formation.LINE, 4, Point(0, 30)))
    others = (PlacedUnit(wm._unit("friend 1", 3, Side.FRIEND), lay_out(Formation.LINE, 3, Point(1, 36))),
              PlacedUnit(wm._unit("enemy 1", 3, engaged=True), lay_out(Formation.LINE, 3, Point(-14, 31))),
              PlacedUnit(wm._unit("friend 2", 2, Side.FRIEND), lay_out(Formation.COLUMN, 2, Point(12, 33))))
    return render_wm_cannon(fire_cannons(W.artillery["cannon"], W.positions, target, RandomDice(8), cannons=3,
                                         others=others))


def bone() -> bytes:
    from engine.warmaster.bone_thrower import fire_bone_thrower

    target = PlacedUnit(wm._unit("target", 2), lay_out(Formation.COLUMN, 2, Point(0, 20)))
    friend = PlacedUnit(wm._unit("friend 1", 3, Side.FRIEND), lay_out(Formation.LINE, 3, Point(1, 24)))
    enemy = PlacedUnit(wm._unit("enemy 1", 3, engaged=True), lay_out(Formation.LINE, 3, Point(1, 26)))
    return render_bone_thrower(fire_bone_thrower(W.artillery["bone-thrower"], W.positions, target, RandomDice(4),
                                                 others=(enemy, friend)))


S = W.structures
FORTRESSES = {
    "fortress-six": Fortress((
        SectionState("gate", S["gateway"], False, 4, False), SectionState("keep", S["tower"], False, 8, False),
        SectionState("main gate", S["gateway-tower"], True, 1, False), SectionState("north wall", S["wall"], False, 0, True),
        SectionState("stakes", S["palisade-wall"], False, 2, False),
        SectionState("west tower", S["palisade-tower"], False, 13, False)), tested="keep"),
    "fortress-one": Fortress((SectionState("gate", S["gateway"], False, 4, False),), tested="gate"),
    "fortress-two": Fortress((SectionState("gate", S["gateway"], False, 0, False),
                              SectionState("keep", S["tower"], False, 3, False))),
}

HORDE = {
    "cannon-horde-20x30": lambda: render_cannon(cannon.fire_cannon(
        cannon.CANNON, cannon.CHART, cannon.unit("infantry", 20, 30), 30, EnteredDice("H 4 6", RandomDice(0)))),
    "stone-horde-20x30": lambda: render_stone_thrower(stone.fire(stone.infantry(20, 30), 30, "@30 6")),
    "flame-horde-20x30": lambda: render_fire_thrower(flame.flame(flame.unit(20, 30), 12, "6")),
}

PICTURES: dict[str, Callable[[], bytes]] = {
    **{f"cannon-{k}": v for k, v in scenes(cannon, render_cannon).items()},
    **{f"stone-{k}": v for k, v in scenes(stone, render_stone_thrower).items()},
    **{f"flame-{k}": v for k, v in scenes(flame, render_fire_thrower).items()},
    **{f"bolt-{k}": v for k, v in scenes(bolt, render_bolt_thrower).items()},
    **HORDE,
    "wm-cannon-bounce": lambda: render_wm_cannon(wm.bounce_shot()),
    "wm-cannon-far": lambda: render_wm_cannon(fire_cannons(
        W.artillery["cannon"], W.positions, PlacedUnit(wm._unit("target", 4), lay_out(Formation.LINE, 4, Point(-1, 55))),
        RandomDice(2), cannons=1)),
    "wm-cannon-seam": wm_seam,
    "wm-cannon-crowd": wm_crowd,
    "wm-bone-thrower": bone,
    **{name: (lambda f=f: render_fortress(f)) for name, f in FORTRESSES.items()},
    **{f"40k-{k}": v for k, v in scenes(w40, render_ordnance).items()},
    "40k-open-topped-side": lambda: render_ordnance(w40.fire(
        "H 3 1 1", vehicle=VehicleTarget(10, 10, 10, facing=Facing.SIDE), vehicle_state=VehicleState(open_topped=True))),
    "40k-clear-of-the-hull": lambda: render_ordnance(w40.fire("@90 6", vehicle=VehicleTarget(14, 13, 12, facing=Facing.REAR))),
    "40k-thirty-models": lambda: render_ordnance(w40.fire("@120 2", seed=3, squad=Squad(30, 25))),
    "battle-board": lambda: render_battle(battle.BOARD),
    "battle-siege": lambda: render_battle(battle.SIEGE),
    "battle-empty": lambda: render_battle(BattleBoard("Battle 1: turn 1", "1 player · 0 shots", 1, ())),
    "odds-heat-map": lambda: render_odds(OddsPicture(
        "Odds: /fire cannon distance:30", "exact", "Models slain", tuple((f"{v} slain", v / 10, None) for v in range(5)),
        grid=tuple(tuple(0.01 * (r + f) for f in range(10)) for r in range(10)), grid_title="Chance each model is hit",
        landing=(4.5, 3.0))),
    "odds-small-unit": lambda: render_odds(OddsPicture(
        "Odds: /fire cannon", "exact", "Models slain", (("0 slain", 0.5, None), ("1 slain", 0.5, None)),
        grid=((0.1, 0.3, 0.1), (0.05, 0.2, 0.05)), grid_title="Chance each model is hit")),
    "odds-table-only": lambda: render_odds(OddsPicture(
        "Odds: /40k penetrate strength:8 armour:13", "exact", "Outcomes",
        (("no effect", 0.5, 0.67), ("glancing", 0.17, 0.17)), legend=("/first", "/second"))),
}


@pytest.mark.parametrize("name", PICTURES)
def test_every_picture_reads_at_discords_preview_size(name: str, drawn) -> None:
    canvas = drawn(PICTURES[name])
    assert faults(canvas, what=name) == []


def test_every_kind_of_picture_is_covered() -> None:
    kinds = {name.split("-")[0] for name in PICTURES}
    assert kinds == {"cannon", "stone", "flame", "bolt", "wm", "fortress", "40k", "battle", "odds"}


def test_a_picture_that_holds_labels_and_hits_labels_them_legibly(drawn) -> None:
    # The rule is not met by writing nothing: a shot with hits writes its names and its title.
    canvas = drawn(PICTURES["stone-horde"])
    assert [w for w in canvas.written if w.role == TITLE]
    assert len([w for w in canvas.written if w.role == LABEL]) >= 10
    assert canvas.bodies and canvas.paths


# The rule can fail: each part of it, broken on purpose.


def test_the_rule_finds_small_type(drawn) -> None:
    canvas = drawn(PICTURES["cannon-hit_through"])
    canvas.written[0] = replace(canvas.written[0], size=12)
    assert any("px at 400 px wide" in f for f in faults(canvas))
    # a model's name written on its base is its label: as big as any label
    squad = drawn(PICTURES["40k-wh40k_ordnance_partial"])
    name = next(i for i, w in enumerate(squad.written) if w.role == NAME)
    squad.written[name] = replace(squad.written[name], size=12)
    assert any("name '#" in f and "px at 400 px wide" in f for f in faults(squad))


def test_the_rule_finds_a_label_over_a_model_or_a_line(drawn) -> None:
    canvas = drawn(PICTURES["cannon-hit_through"])
    name = next(i for i, w in enumerate(canvas.written) if w.role == LABEL)
    body = canvas.bodies[0]
    xs, ys = [p[0] for p in body], [p[1] for p in body]
    canvas.written[name] = replace(canvas.written[name], box=(min(xs), min(ys), max(xs), max(ys)))
    assert any("covers a model" in f for f in faults(canvas))
    canvas.paths.append(((min(xs) - 50, min(ys) + 3), (max(xs) + 50, min(ys) + 3)))
    assert any("crosses a line of fire" in f for f in faults(canvas))


def test_the_rule_finds_labels_that_touch_and_a_small_target(drawn) -> None:
    canvas = drawn(PICTURES["cannon-hit_through"])
    names = [i for i, w in enumerate(canvas.written) if w.role == LABEL]
    canvas.written[names[1]] = replace(canvas.written[names[1]], box=canvas.written[names[0]].box)
    assert any("overlap" in f for f in faults(canvas))
    canvas.target = (0, 0, canvas.image.width / 3, 10)
    assert any("of the width" in f for f in faults(canvas))


def test_the_path_along_a_seam_is_drawn_and_worded_as_the_rule_decides(drawn) -> None:
    canvas = drawn(wm_seam)
    plates = [" ".join(label.lines) for label in canvas.labels]
    assert any("enemy 2: the path runs along its edge" in p and "not hit" in p for p in plates)
    assert not any("enemy 2: not on the path" in p for p in plates)
    # the bounce is drawn along the enemy's edge, not through a stand
    enemy = canvas.bodies[2:4]
    bounce = LineString(canvas.paths[-1])
    from shapely.geometry import Polygon

    assert all(Polygon(b).buffer(-0.5).intersection(bounce).length < 1 for b in enemy)
