"""engine/roster.py: real rosters (built from BSData catalogue entries, tests/fixtures/army) read
into units with the values the commands take, and hostile files refused in one sentence."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

from engine.roster import MAX_FILE, MAX_UNITS, RosterError, is_war_machine, read_roster, target_values, value_of

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "army"


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def values(roster, label, game=None):
    return dict(target_values(roster.unit(label), game or roster.game).values)


def test_a_fantasy_roster_with_two_forces_nested_selections_and_a_hidden_profile():
    r = read_roster(fixture("empire.ros"))
    assert (r.name, r.game, r.points) == ("Host of Talabheim", "fantasy", 760.0)
    assert r.forces == ("Empire - Army Book (2013-4) -V8.7.4.", "Vampire Counts")
    assert [u.label for u in r.units] == ["Halberdiers", "Great Cannon", "War Altar of Sigmar", "Halberdiers #2", "Spirit Host"]
    assert r.unread == ("1 hidden profile skipped",)
    halberdiers = r.unit("halberdiers")
    assert halberdiers.models == 20 and halberdiers.points == 105.0  # 19 halberdiers and a sergeant, nested
    assert halberdiers.main.name == "Halberdier" and halberdiers.armour_gear  # light armour: a save to work out
    assert values(r, "Halberdiers") == {"toughness": 3, "wounds": 1, "enemy_ws": 3, "enemy_initiative": 3, "troop": "infantry", "models": 20,
                                         "leadership": 7}  # its own LD, for a Panic test
    assert dict(target_values(halberdiers, "fantasy").missing)["save"].startswith("the list gives Halberdiers armour")
    # '-' is no value, '5+' is 5, the war machine's own profile comes before its crew's
    assert values(r, "Great Cannon") == {"toughness": 7, "wounds": 3, "troop": "war-machine", "models": 1}
    assert values(r, "War Altar of Sigmar") == {"toughness": 5, "wounds": 5, "save": 5, "ward": 4, "troop": "chariot", "models": 1}
    assert values(r, "Halberdiers #2")["save"] == 6
    assert values(r, "Spirit Host") == {"toughness": 3, "wounds": 4, "enemy_ws": 3, "enemy_initiative": 1, "troop": "swarm", "ethereal": True, "models": 3,
                                          "leadership": 4}
    assert is_war_machine(r.unit("Great Cannon")) and not is_war_machine(halberdiers)


def test_the_rosz_is_the_same_roster_zipped():
    assert read_roster(fixture("empire.rosz")) == read_roster(fixture("empire.ros"))


def test_a_warmaster_roster_gives_hits_armour_troop_and_stands():
    r = read_roster(fixture("warmaster.ros"))
    assert (r.game, r.points) == ("warmaster", 275.0)
    assert values(r, "Knights") == {"hits": 3, "armour": 4, "troop": "cavalry", "stands": 3}
    assert values(r, "Cannon") == {"hits": 2, "armour": 0, "troop": "artillery", "stands": 2}  # '-': no armour
    assert values(r, "Crossbowmen")["armour"] == 0 and is_war_machine(r.unit("Cannon"))


def test_new_recruits_json_of_a_40k_list_gives_armour_values_and_vehicle_types():
    r = read_roster(fixture("guard.json"))
    assert (r.name, r.game, r.points) == ("Cadian 3rd Armoured", "wh40k", 385.0)
    assert values(r, "Leman Russ Battle Tank") == {"armour": (14, 12, 10)}
    assert values(r, "Sentinel Squadron") == {"armour": (10, 10, 10), "open_topped": True, "walker": True}
    squad = r.unit("Infantry Squad")
    assert squad.models == 10 and values(r, "Infantry Squad") == {"toughness": 3, "save": 5, "leadership": 7, "models": 10}
    assert dict(target_values(squad, "wh40k").missing) == {"armour": "Infantry Squad has no armour values (it is not a vehicle)"}


def test_the_same_list_as_json_reads_as_its_xml():
    """New Recruit's JSON and BattleScribe's XML of one roster give the same record."""
    xml = read_roster(fixture("warmaster.ros"))
    doc = {"roster": {"name": xml.name, "gameSystemName": "Warmaster Revolution",
                      "costs": [{"name": "Points", "value": 275.0}],
                      "forces": [{"catalogueName": "The Empire", "selections": [
                          {"name": u.name, "type": "unit", "number": 1, "costs": [{"name": "Points", "value": u.points}],
                           "profiles": [{"name": p.name, "typeName": p.kind, "hidden": False,
                                         "characteristics": [{"name": n, "$text": v} for n, v in p.characteristics]}
                                        for p in u.profiles],
                           "categories": [{"name": c} for c in u.rules]}
                          for u in xml.units]}]}}
    assert read_roster(json.dumps(doc).encode()) == xml


@pytest.mark.parametrize("text, value", [("3", 3), ("3+", 3), (" 4 + ", 4), ("-", None), ("", None), ("D6", None),
                                         ("2/3", None), (None, None), ("10", 10)])
def test_numbers_as_catalogues_write_them(text, value):
    assert value_of(text) == value


def zipped(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(name, data)
    return out.getvalue()


def refused(data: bytes) -> str:
    with pytest.raises(RosterError) as e:
        read_roster(data)
    message = str(e.value)
    assert "\n" not in message and len(message) < 200
    return message


def test_hostile_files_are_refused_in_one_sentence():
    assert "at most 1,000,000" in refused(b"<" + b" " * MAX_FILE)
    bomb = zipped({"list.ros": b"<roster>" + b" " * 11_000_000 + b"</roster>"})  # 10 kB that would unpack to 11 MB
    assert len(bomb) < MAX_FILE and "unpack to 11,000,017 bytes" in refused(bomb)
    assert "holds 2 files" in refused(zipped({"a.ros": fixture("empire.ros"), "b.ros": fixture("empire.ros")}))
    laughs = (b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>'
              b'<roster xmlns="http://www.battlescribe.net/schema/rosterSchema">&lol2;</roster>')
    assert "document type or entities" in refused(laughs)
    external = b'<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><roster>&x;</roster>'
    assert "document type or entities" in refused(external)
    catalogue = b'<catalogue xmlns="http://www.battlescribe.net/schema/catalogueSchema" name="Empire"/>'
    assert "'catalogue', not a roster" in refused(catalogue)
    assert "not a roster" in refused(b"\x89PNG\r\n\x1a\n....")
    assert "not a roster" in refused(b'{"army": []}')
    assert "cannot be read" in refused(b"<roster><forces>")
    assert "no forces" in refused(b'<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" name="x"/>')
    assert "cannot be opened" in refused(b"PK\x03\x04 not really a zip")
    deep = b"<roster><forces><force><selections>" + b"<selection><selections>" * 60 + b"</selections></selection>" * 60 + \
        b"</selections></force></forces></roster>"
    assert "nests" in refused(deep)
    assert "nests" in refused(('{"roster": {"forces": [' + '{"forces": [' * 100 + "]}" * 100 + "]}}").encode())


def test_a_small_dense_file_is_refused_past_the_entry_bound():
    dense = zipped({"x.ros": b'<roster xmlns="http://www.battlescribe.net/schema/rosterSchema">' + b"<a/>" * 2_000_000 + b"</roster>"})
    assert len(dense) < 100_000 and "more than 50,000 entries" in refused(dense)
    assert "more than 50,000 entries" in refused(b'{"roster": {"forces": [' + b",".join([b"[]"] * 120_000) + b"]}}")


def test_more_than_500_units_is_refused_and_500_are_read():
    def roster(n: int) -> bytes:
        unit = ('<selection name="Goblins" type="unit"><profiles><profile name="Goblin" typeName="Model"><characteristics>'
                '<characteristic name="T">3</characteristic></characteristics></profile></profiles></selection>')
        return (f'<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" name="Horde" gameSystemName="Warhammer Fantasy 8th ed">'
                f'<forces><force catalogueName="Orcs"><selections>{unit * n}</selections></force></forces></roster>').encode()

    assert len(read_roster(roster(MAX_UNITS)).units) == MAX_UNITS
    assert f"more than {MAX_UNITS} units" in refused(roster(MAX_UNITS + 1))


def test_seventh_edition_names_and_a_40k_profile_spelt_the_british_way():
    """BSData/whfb's 7th edition catalogues spell the characteristics out (profile type 'Profile',
    no troop type, no save); other 40k data writes 'Front Armour'."""
    doc = {"roster": {"name": "Naggaroth", "gameSystemName": "Warhammer Fantasy 7th ed", "forces": [
        {"catalogueName": "Dark Elves", "selections": [
            {"name": "Warriors", "type": "unit", "selections": [
                {"name": "Warrior", "type": "model", "number": 15, "profiles": [
                    {"name": "Warrior", "typeName": "Profile", "characteristics": [
                        {"name": n, "$text": v} for n, v in (("Movement", "5"), ("Weapon Skill", "4"), ("Ballistic Skill", "4"),
                                                          ("Strength", "3"), ("Toughness", "3"), ("Wounds", "1"),
                                                          ("Initiative", "5"), ("Attacks", "1"), ("Leadership", "8"))]}]}]},
            {"name": "Predator", "type": "model", "profiles": [
                {"name": "Predator", "typeName": "Vehicle", "characteristics": [
                    {"name": "Front Armour", "$text": "13"}, {"name": "Side Armour", "$text": "11"},
                    {"name": "Rear Armour", "$text": "10"}]}]}]}]}}
    r = read_roster(json.dumps(doc).encode())
    assert r.game == "fantasy" and r.unit("Warriors").models == 15
    tv = target_values(r.unit("Warriors"), "fantasy")
    assert dict(tv.values) == {"toughness": 3, "wounds": 1, "enemy_ws": 4, "enemy_initiative": 5, "leadership": 8, "models": 15}
    assert dict(tv.missing) == {"troop": "the list gives no troop type for Warriors"}
    assert dict(target_values(r.unit("Predator"), "wh40k").values) == {"armour": (13, 11, 10)}


def one_unit_json(number: str) -> bytes:
    return ('{"roster": {"name": "x", "forces": [{"selections": [{"name": "Boyz", "type": "unit", "selections": '
            '[{"name": "Boy", "type": "model", "number": ' + number + ', "profiles": [{"name": "Boy", "typeName": "Model", '
            '"characteristics": [{"name": "T", "$text": "4"}]}]}]}]}]}}').encode()


@pytest.mark.parametrize("number", ["-5", "99999999999999999999", "12000"])
def test_a_selection_number_no_list_has_is_refused_in_one_sentence(number):
    message = refused(one_unit_json(number))
    assert message.startswith("That roster has a selection of") and "a real list has at most 10,000" in message


@pytest.mark.parametrize("number, models", [('"30"', 30), ("30.0", 30), ('"abc"', 1), ("1e400", 1), ('"NaN"', 1), ('"inf"', 1)])
def test_a_selection_number_is_read_and_no_number_counts_one(number, models):
    """No number (a word, NaN, infinity, a JSON number too big for a float) is one, as a selection
    without a number is: never a crash."""
    assert read_roster(one_unit_json(number)).units[0].models == models


def test_a_roster_in_another_namespace_and_a_zip_in_a_zip_are_refused_saying_what_they_are():
    other = fixture("empire.ros").replace(b"http://www.battlescribe.net/schema/rosterSchema", b"http://example.com/other")
    assert refused(other) == ("That XML's roster is in the namespace 'http://example.com/other', not BattleScribe's roster "
                              "schema: send the list BattleScribe or New Recruit saves.")
    inner = zipped({"list.ros": fixture("empire.ros")})
    assert refused(zipped({"list.rosz": inner})).startswith("That zip holds another zip")
