"""engine/roster.py with lists as BattleScribe and the catalogues really write them: a roster saved
as UTF-16 (with its byte order mark, or without), values no rule allows (a ward save of 1+, a
Warmaster unit of 0 stands, an armour save of 7+) said rather than dropped silently, and a unit's
Leadership filled where the list gives it (a Fantasy Panic test, a 40k pinning test)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from engine.roster import RosterError, read_roster, target_values

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "army"


def text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def as_utf16(xml: str, codec: str, bom: bytes = b"") -> bytes:
    return bom + xml.replace('encoding="UTF-8"', 'encoding="UTF-16"').encode(codec)


@pytest.mark.parametrize("codec, bom", [("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff"), ("utf-16-le", b""),
                                        ("utf-16-be", b"")])
def test_a_utf16_roster_reads_as_the_utf8_one(codec, bom):
    assert read_roster(as_utf16(text("empire.ros"), codec, bom)) == read_roster((FIXTURES / "empire.ros").read_bytes())


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
@pytest.mark.parametrize("space", ["\n", "\r\n", "  ", "\t"])
def test_a_utf16_roster_without_its_mark_that_starts_with_white_space_reads_too(codec, space):
    assert read_roster(as_utf16(space + text("empire.ros"), codec)) == read_roster((FIXTURES / "empire.ros").read_bytes())
    assert read_roster((space + text("guard.json")).encode(codec)) == read_roster((FIXTURES / "guard.json").read_bytes())


def test_a_utf16_roster_inside_a_rosz_and_new_recruits_json_in_utf16():
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as z:
        z.writestr("Host of Talabheim.ros", as_utf16(text("warmaster.ros"), "utf-16-le", b"\xff\xfe"))
    assert read_roster(packed.getvalue()) == read_roster((FIXTURES / "warmaster.ros").read_bytes())
    assert read_roster(text("guard.json").encode("utf-16")) == read_roster((FIXTURES / "guard.json").read_bytes())


def test_utf16_that_cannot_be_decoded_is_refused_in_one_sentence():
    broken = b"\xff\xfe" + "<roster>".encode("utf-16-le") + b"\x00\xd8"  # a lone high surrogate at the end
    with pytest.raises(RosterError, match="starts as UTF-16 text but cannot be read"):
        read_roster(broken)


def edited(name: str, old: str, new: str, count: int = 1) -> bytes:
    xml = text(name)
    assert xml.count(old) >= count, old
    return xml.replace(old, new, count).encode()


def values_when(name: str, characteristic: str, value: str, becomes: str, unit: str, game: str):
    """The target values of `unit` in fixture `name` with its `characteristic` line's `value` changed."""
    return target_values(read_roster(edited(name, characteristic, characteristic.replace(value, becomes))).unit(unit), game)


def test_a_ward_save_of_1_or_an_armour_save_of_7_is_said_and_not_used():
    ward = '<characteristic name="WardSave" typeId="576172645361766523232344415441232323">4+</characteristic>'
    altar = values_when("empire.ros", ward, "4+", "1+", "War Altar of Sigmar", "fantasy")
    assert "ward" not in dict(altar.values) and altar.get("save") == 5
    assert dict(altar.dropped) == {"ward": "War Altar of Sigmar's ward save 1+ is left out: a ward save is 2+ to 6+ (a 1 always fails)"}
    save = '<characteristic name="ArmourSave" typeId="41726d6f75725361766523232344415441232323">5+</characteristic>'
    altar = values_when("empire.ros", save, "5+", "7+", "War Altar of Sigmar", "fantasy")
    assert "save" not in dict(altar.values)
    assert dict(altar.dropped)["save"] == "War Altar of Sigmar's armour save 7+ is left out: an armour save is 1+ to 6+"


def test_a_warmaster_unit_of_no_stands_is_said_and_not_used():
    size = '<characteristic name="Unit Size" typeId="8f42-22c8-12e8-890a">3</characteristic>'
    crossbows = values_when("warmaster.ros", size, ">3<", ">0<", "Crossbowmen", "warmaster")
    assert "stands" not in dict(crossbows.values) and crossbows.get("hits") == 3
    assert dict(crossbows.dropped) == {"stands": "Crossbowmen's Unit Size 0 is left out: a unit has at least one stand"}
    assert values_when("warmaster.ros", size, ">3<", ">0<", "Knights", "warmaster").dropped == ()


def test_leadership_is_filled_from_the_list_and_an_impossible_one_said():
    r = read_roster((FIXTURES / "empire.ros").read_bytes())
    assert target_values(r.unit("Halberdiers"), "fantasy").get("leadership") == 7  # BSData/whfb's "LD"
    assert target_values(r.unit("Great Cannon"), "fantasy").get("leadership") is None  # "-": no value
    guard = read_roster((FIXTURES / "guard.json").read_bytes())
    assert target_values(guard.unit("Infantry Squad"), "wh40k").get("leadership") == 7
    assert target_values(guard.unit("Leman Russ Battle Tank"), "wh40k").get("leadership") is None  # a vehicle has none
    ld = '<characteristic name="LD" typeId="4c4423232344415441232323">7</characteristic>'
    r = read_roster(edited("empire.ros", ld, ld.replace(">7<", ">12<")))
    halberdiers = target_values(r.unit("Halberdiers"), "fantasy")
    assert halberdiers.get("leadership") is None
    assert dict(halberdiers.dropped) == {"leadership": "Halberdiers's Leadership 12 is left out: Leadership is 1 to 10"}
