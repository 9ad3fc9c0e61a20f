"""Pictures of Warmaster shots: the cannon's bounce through stands."""

from config.gamedata import warmaster
from engine.dice import PcgDice as RandomDice  # the golden scenes were drawn with roll log version 2's dice
from engine.geometry import Point
from engine.warmaster.cannon import PlacedUnit, fire_cannons
from engine.warmaster.profiles import Position
from engine.warmaster.shooting import Side, Unit
from engine.warmaster.stands import Formation, lay_out
from renders.warmaster.artillery import render_cannon

W = warmaster()


def _unit(name, n, side=Side.ENEMY, engaged=False):
    return Unit(name, n, 3, None, Position.OPEN, W.troops["infantry"], side, engaged)


def bounce_shot():
    target = PlacedUnit(_unit("target", 3), lay_out(Formation.COLUMN, 3, Point(2, 30), turn=20))
    friend = PlacedUnit(_unit("friend 1", 2, Side.FRIEND), lay_out(Formation.LINE, 2, Point(3, 37.5)))
    engaged = PlacedUnit(_unit("enemy 1", 2, engaged=True), lay_out(Formation.LINE, 2, Point(-7, 31)))
    return fire_cannons(W.artillery["cannon"], W.positions, target, RandomDice(5),
                        cannons=2, others=(friend, engaged))


def test_cannon_bounce_golden(golden):
    png = render_cannon(bounce_shot())
    assert png.startswith(b"\x89PNG")
    golden("wm_cannon_bounce", png)


def test_same_record_same_bytes():
    shot = bounce_shot()
    assert render_cannon(shot) == render_cannon(shot)


def test_far_shot_draws_without_the_cannon(golden):
    target = PlacedUnit(_unit("target", 4), lay_out(Formation.LINE, 4, Point(-1, 55)))
    shot = fire_cannons(W.artillery["cannon"], W.positions, target, RandomDice(2), cannons=1)
    golden("wm_cannon_far_line", render_cannon(shot))


def test_fortress_golden(golden):
    from engine.warmaster.structure import Fortress, SectionState
    from renders.warmaster.fortress import render_fortress

    s = W.structures
    f = Fortress((SectionState("gate", s["gateway"], False, 4, False), SectionState("keep", s["tower"], False, 8, False),
                  SectionState("main gate", s["gateway-tower"], True, 1, False), SectionState("north wall", s["wall"], False, 0, True),
                  SectionState("stakes", s["palisade-wall"], False, 2, False), SectionState("west tower", s["palisade-tower"], False, 13, False)),
                 tested="keep")
    golden("wm_fortress", render_fortress(f))


def test_bone_thrower_skewer_golden(golden):
    from engine.warmaster.bone_thrower import fire_bone_thrower
    from renders.warmaster.artillery import render_bone_thrower

    target = PlacedUnit(_unit("target", 2), lay_out(Formation.COLUMN, 2, Point(0, 20)))
    friend = PlacedUnit(_unit("friend 1", 3, Side.FRIEND), lay_out(Formation.LINE, 3, Point(1, 24)))
    enemy = PlacedUnit(_unit("enemy 1", 3, engaged=True), lay_out(Formation.LINE, 3, Point(1, 26)))
    shot = fire_bone_thrower(W.artillery["bone-thrower"], W.positions, target, RandomDice(4), others=(enemy, friend))
    golden("wm_bone_thrower_skewer", render_bone_thrower(shot))


def test_the_fortress_key_names_only_what_is_drawn_and_few_sections_fill_the_width():
    """Issue 18: the fortress picture no longer keys a gate, a test or rubble it does not draw,
    and two sections take the width, drawn larger, instead of leaving most of it empty."""
    from engine.warmaster.structure import Fortress, SectionState
    from renders.warmaster.fortress import SLOT, key, layout

    s = W.structures
    plain = Fortress((SectionState("north wall", s["wall"], False, 1, False),), None)
    assert [i.label for i in key(plain)] == ["Destruction Token", "standing section"]
    full = Fortress((SectionState("gate", s["gateway-tower"], True, 0, False), SectionState("wall", s["wall"], False, 0, True)),
                    tested="wall")
    assert [i.label for i in key(full)] == ["standing section", "fallen (breached) section", "section just tested",
                                             "a gateway tower's gate, targeted on its own"]
    per_row, slot, _ = layout(2)
    assert per_row == 2 and slot >= 2 * SLOT
    assert layout(6)[0] == 5 and SLOT <= layout(6)[1] < 2 * SLOT  # five to a row, about the plain size


def test_a_standing_tower_whose_gate_fell_shows_its_gateway_open():
    """Issue 27 (item 3, "never show a state the bot itself refuses"): seed 001:376, the gate may
    fall on its own while the tower stands; the tower is then not drawn with its gate shut."""
    import io

    from PIL import Image

    from engine.warmaster.structure import Fortress, SectionState
    from renders.warmaster.fortress import render_fortress

    s = W.structures["gateway-tower"]

    def tower_slot(gate_fallen: bool):
        f = Fortress((SectionState("gt", s, False, 1, False), SectionState("gt (gate)", s, True, 0, gate_fallen)))
        img = Image.open(io.BytesIO(render_fortress(f))).convert("RGB")
        return img.crop((0, 60, img.width // 2, img.height // 2)).tobytes()

    assert tower_slot(True) != tower_slot(False)


def _section_pixels(kind: str, name: str = "west tower"):
    """The drawn section alone (above its labels), one section on its own in the picture."""
    import io

    import numpy as np
    from PIL import Image

    from engine.warmaster.structure import Fortress, SectionState
    from renders.warmaster.fortress import ROW_TOP, layout, render_fortress

    f = Fortress((SectionState(name, W.structures[kind], False, 0, False),), tested=None)
    _, slot, _ = layout(1)
    picture = np.asarray(Image.open(io.BytesIO(render_fortress(f))).convert("RGB"))
    return picture[ROW_TOP: ROW_TOP + int(100 * min(3.0, slot / 150)), :]


def test_a_standing_palisade_tower_is_drawn_with_its_gate():
    """Seed 001, Fortification list, footnote 2 on the palisade tower: its gateway is a target of
    its own (12 points) and falls with the tower; the picture draws its gate as a gateway tower's."""
    import numpy as np

    palisade, gateway, plain = (_section_pixels(k) for k in ("palisade-tower", "gateway-tower", "tower"))
    assert np.array_equal(palisade, gateway)
    assert not np.array_equal(palisade, plain)


def test_the_bone_thrower_key_says_a_tower_stops_the_bolt():
    from engine.warmaster.bone_thrower import fire_bone_thrower
    from engine.dice import EnteredDice
    from renders.warmaster.artillery import bone_path_words, draw

    target = PlacedUnit(_unit("target", 3), lay_out(Formation.COLUMN, 3, Point(0, 20)))
    free = fire_bone_thrower(W.artillery["bone-thrower"], W.positions, target, EnteredDice("4 4 4", RandomDice(1)))
    assert len(free.skewered) == 3 and bone_path_words(free) == "bolt through touching stands (max 3)"
    manned = fire_bone_thrower(W.artillery["bone-thrower"], W.positions, target, EnteredDice("6", RandomDice(1)), in_tower=True)
    assert len(manned.skewered) == 1 and bone_path_words(manned) == "bolt stops in the first stand (in a tower)"
    canvas = draw(manned, "t", "Undead Bone Thrower", "Bone Thrower", bone_path_words(manned), False, "Artillery and Machines")
    written = " ".join(str(w) for w in canvas.written)
    assert "bolt stops in the first stand" in written and "max 3" not in written
