"""config/wh40k.toml against the rulebook (Warhammer 40,000 3rd edition trial vehicle rules, seed 004).

The expected rows below are copied from the book by hand: the Glancing Hit, Penetrating Hit and
Ordnance Hit tables, Armour Penetration and its variants (Ordnance Weapons, Monstrous Creatures,
Melta Bombs, Krak Grenades), the large Blast marker, the explosion radii and the 4+ wounds.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from config.gamedata import wh40k
from engine.wh40k.profiles import Outcome, Read

RULEBOOK = Path(__file__).resolve().parents[4] / "shared" / "seeds" / "004_d4bc6d5669873a14.txt"
DATA = wh40k()

BOOK_TABLES = {
    "glancing": [((1, 2), "crew shaken", Outcome.SHAKEN, None), ((3, 3), "crew stunned", Outcome.STUNNED, None),
                 ((4, 4), "armament destroyed", Outcome.ARMAMENT, None), ((5, 5), "immobilised", Outcome.IMMOBILISED, None),
                 ((6, 6), "vehicle destroyed", Outcome.DESTROYED, None)],
    "penetrating": [((1, 1), "crew stunned", Outcome.STUNNED, None), ((2, 2), "armament destroyed", Outcome.ARMAMENT, None),
                    ((3, 3), "immobilised", Outcome.IMMOBILISED, None), ((4, 4), "vehicle destroyed", Outcome.DESTROYED, None),
                    ((5, 5), "wreck slews", Outcome.SLEWS, None), ((6, 6), "vehicle explodes", Outcome.EXPLODES, "D6")],
    "ordnance": [((1, 1), "crew stunned", Outcome.STUNNED, None), ((2, 2), "armament destroyed", Outcome.ARMAMENT, None),
                 ((3, 3), "immobilised", Outcome.IMMOBILISED, None), ((4, 4), "wreck slews", Outcome.SLEWS, None),
                 ((5, 5), "vehicle explodes", Outcome.EXPLODES, "D6"), ((6, 6), "vehicle annihilated", Outcome.ANNIHILATED, 6)],
}

# weapon -> (dice, read, fixed Strength, damage table of a penetrating hit)
BOOK_PENETRATION = {
    "normal": (1, Read.SUM, None, "penetrating"),
    "ordnance": (2, Read.HIGHEST, None, "ordnance"),
    "monstrous": (2, Read.SUM, None, "penetrating"),
    "melta-bomb": (2, Read.SUM, 8, "penetrating"),
    "krak": (1, Read.SUM, 6, "penetrating"),
}


@pytest.mark.parametrize("key", BOOK_TABLES)
def test_each_damage_table_has_the_books_rows(key):
    table = DATA.damage_tables[key]
    assert table.die == "D6"
    got = [((r.low, r.high), r.name, r.outcome, r.radius) for r in table.rows]
    assert got == BOOK_TABLES[key]
    assert all(r.effect and r.name == r.name.lower() for r in table.rows)


def test_the_tables_are_the_books_three():
    assert set(DATA.damage_tables) == {"glancing", "penetrating", "ordnance"}


@pytest.mark.parametrize("key", BOOK_PENETRATION)
def test_each_penetration_variant_is_the_books(key):
    w = DATA.penetration[key]
    assert (w.dice, w.read, w.strength, w.table) == BOOK_PENETRATION[key]


def test_the_large_blast_marker_is_five_inches_and_partials_hit_on_a_four():
    m = DATA.blast_markers["large"]
    assert m.diameter == 5.0 and m.partial_hit == 4


def test_destroyed_vehicles_wound_on_a_four_and_survivors_stand_within_two_inches():
    assert (DATA.wounds.passenger, DATA.wounds.debris, DATA.wounds.passenger_placed_within) == (4, 4, 2)
    assert DATA.default_base == 25 and 25 in DATA.base_sizes
    assert DATA.pinning_modifier == -1


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the rulebook is beside the project")
def test_the_book_text_agrees():
    text = RULEBOOK.read_text(encoding="utf-8")
    assert "large Blast marker, which is 5\" in diameter" in text
    assert re.search(r"roll two D6 instead of one and pick the highest", text)
    assert "2D6 + the Strength of the creature" in text and "S8 + 2D6" in text and "6+D6" in text
    assert "6\" radius" in text and "D6\" radius" in text


# Vehicle Moving & Firing Summary: type -> what it may fire stationary, up to 6", up to 12", beyond.
BOOK_FIRING = {
    "normal": ("all weapons", "all defensive weapons and 1 main weapon", "no weapons", "no weapons"),
    "fast": ("all weapons", "all weapons", "all defensive weapons and 1 main weapon", "no weapons"),
    "walker": ("all weapons", "2 weapons (one per side or arm)", "not applicable", "not applicable"),
}


def test_the_moving_and_firing_summary_is_the_books():
    f = DATA.firing
    assert [s.up_to for s in f.speeds] == [0, 6, 12, None]
    assert {t.key: t.weapons for t in f.types} == BOOK_FIRING
    assert {t.key: t.max_move for t in f.types} == {"normal": 12, "fast": 24, "walker": 6}


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the rulebook is beside the project")
def test_the_tables_words_are_our_own():
    """No run of 12 words from the book in any table's name or effect."""
    def words(text: str) -> list[str]:
        return re.findall(r"[a-z0-9']+", text.lower())

    book = words(RULEBOOK.read_text(encoding="utf-8"))
    runs = {tuple(book[i:i + 12]) for i in range(len(book) - 11)}
    for table in DATA.damage_tables.values():
        for row in table.rows:
            ours = words(row.effect)
            assert not any(tuple(ours[i:i + 12]) in runs for i in range(len(ours) - 11)), row.name
