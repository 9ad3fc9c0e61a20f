"""config/warmaster.toml against the seeds (001 Siege & Fortresses, 002 Artillery and Machines) and
the Warmaster core rules. The expected numbers are copied from the books by hand; where the seed
text is beside the project its tables are read as well."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from config.gamedata import warmaster
from engine.warmaster.profiles import Position

SEEDS = Path(__file__).resolve().parents[4] / "shared" / "seeds"
SIEGE = SEEDS / "001_a8cf35359e873b27.txt"
MACHINES = SEEDS / "002_f43d74f382cd3038.txt"


def book(path: Path) -> str:
    """The seed's text, to check the data against; without the seeds beside the project (a bare
    clone) the numbers above were still checked, and the test stops here."""
    if not path.exists():
        pytest.skip("the seeds are not beside the project")
    return path.read_text(encoding="utf-8")
W = warmaster()


def test_positions_and_troops_core():
    assert {p: (r.to_hit, r.drive_back_dice_less) for p, r in W.positions.items()} == {
        Position.OPEN: (4, 0), Position.DEFENDED: (5, 1), Position.FORTIFIED: (6, 2)}
    assert {k: t.full_pace for k, t in W.troops.items()} == {
        "infantry": 20, "cavalry": 30, "chariot": 30, "monster": 20, "artillery": 10, "machine": 20}
    assert all(r.source.startswith("core") for r in W.positions.values())
    assert (W.unit, W.stand_width, W.stand_depth) == ("cm", 4.0, 2.0)


def test_artillery_against_seed_002():
    a = W.artillery
    assert (a["cannon"].range, a["cannon"].attacks, a["cannon"].bounce, a["cannon"].armour, a["cannon"].position_shift,
            a["cannon"].grapeshot_attacks) == (60, 2, 5, "ignored", 1, 2)
    assert (a["helblaster"].range, a["helblaster"].bands, a["helblaster"].armour) == (30, ((10, 6), (20, 3), (30, 1)), "worse")
    assert (a["bone-thrower"].range, a["bone-thrower"].skewers, a["bone-thrower"].armour) == (40, 3, "ignored")
    assert (a["elven-bolt-thrower"].range, a["elven-bolt-thrower"].attacks, a["elven-bolt-thrower"].to_hit_bonus,
            a["elven-bolt-thrower"].armour) == (40, 3, 1, "normal")
    assert (a["rock-lobber"].range, a["rock-lobber"].attacks, a["rock-lobber"].cut_off) == (60, 3, True)
    text = book(MACHINES)
    assert "RANGE 01-10cm 10-20cm 20-30cm\nATTACKS 6 3 1" in text
    for rng, attack in (("60cm", "1 / 2+ bounce"), ("30cm", "1 / 6-3-1"), ("40cm", "1 / 1 per stand"), ("40cm", "1 / 3")):
        assert f"{rng}\n{attack}" in text


def test_structures_against_seed_001():
    assert {k: s.points for k, s in W.structures.items()} == {
        "gateway": 12, "wall": 20, "tower": 30, "palisade-tower": 25, "palisade-wall": 15, "gateway-tower": 25}
    assert W.structures["gateway-tower"].gate_points == 12
    assert all(s.on_destroyed for s in W.structures.values())
    assert "not lost" in W.structures["gateway"].on_destroyed and "lost" in W.structures["wall"].on_destroyed
    text = book(SIEGE)
    for name, points in (("Gateway", "12"), ("Gateway tower", "12/25"), ("Wall", "20"), ("Tower", "30"),
                         ("Palisade tower", "25"), ("Palisade wall", "15")):
        assert re.search(rf"\n{re.escape(name)} \|\nBuilding \|\n– \|\n{re.escape(points)} \|", text), name


def test_oil_chart_against_seed_001():
    assert [(r.low, r.high, r.attacks) for r in W.oil.rows] == [(1, 1, 0), (2, 3, 1), (4, 5, 2), (6, 6, 3)]
    assert (W.oil.armour_worse, W.oil.equipment_save) == (1, 3)
    assert all(W.oil.row(n).attacks == {1: 0, 2: 1, 3: 1, 4: 2, 5: 2, 6: 3}[n] for n in range(1, 7))


def test_siege_profiles_and_artillery_against_seed_001():
    p = W.siege_profiles
    assert {k: (v.type, v.attack, v.hits, v.armour, v.points, v.min_max) for k, v in p.items()} == {
        "siege-tower": ("M", "0", 3, 3, 20, "-/-"), "battering-ram": ("M", "0", 3, 3, 10, "-/-"), "sow": ("M", "0", 3, 3, 5, "-/-"),
        "tribock": ("Art", "1/6", 4, 0, 120, "-/1"), "bombard": ("Art", "0/4+b", 3, 0, 130, "-/1"),
        "mangonel": ("Art", "0/4", 3, 0, 80, "-/1")}
    s = W.siege_artillery
    assert {k: (v.min_range, v.range, v.attacks, v.corridor, v.bounce, v.position_shift) for k, v in s.items()} == {
        "tribock": (20, 120, 6, 4, False, 0), "bombard": (0, 90, 4, 2, True, 1), "mangonel": (20, 90, 4, 2, False, 0)}
    text = book(SIEGE)
    assert "Shooting: Range 20–120cm, 6 Attacks" in text and "Shooting: Range 90cm, 4 Attacks + bounce" in text
    assert "Shooting: Range 20–90cm, 4 Attacks" in text


def test_siege_rules_and_scenarios():
    assert (W.siege.ram_hits, W.siege.failed_batter_fall_back, W.siege.sally_gate_dice, W.siege.breaching_per_1000) == (1, 10, 3, 2)
    assert "Rock Lobber" in W.siege.wall_breaching and "Cannon" in W.siege.wall_breaching and len(W.siege.wall_breaching) == 8
    b, w = W.scenarios["into-the-breach"], W.scenarios["watchtower"]
    assert (b.ends_from_turn, b.ends_on, b.last_turn) == (7, 4, 10)
    assert (w.relief_from_turn, w.relief_on, w.dispatch_bonus, w.last_turn) == (2, 5, 1, 8)


@pytest.mark.parametrize("record", [*warmaster().artillery.values(), *warmaster().siege_artillery.values()], ids=lambda r: r.key)
def test_every_weapon_has_effects_in_own_words_and_a_source(record):
    assert record.effects and record.source
