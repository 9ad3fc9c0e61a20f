"""/army import and target: with lists as users really have them, through the console's --json: a
UTF-16 roster imported as the UTF-8 one, values no rule allows said in the import's answer and in
/army show (not dropped silently), a Fantasy unit named with the side the shot strikes ("(rear)")
shot exactly as with facing: typed, Leadership from the list for a Panic test, and /siege army's
"army: High Elves" read as users type it."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "army"
EMPIRE = FIXTURES / "empire.ros"
WARD = '<characteristic name="WardSave" typeId="576172645361766523232344415441232323">4+</characteristic>'


def written(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


async def test_a_utf16_roster_imports_as_the_utf8_one(play, tmp_path):
    utf16 = EMPIRE.read_text(encoding="utf-8").replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16")
    code, out16 = await play(f"/army import file:{written(tmp_path, 'utf16.ros', utf16)}")
    assert code == 0, out16
    code, out8 = await play(f"/army import file:{EMPIRE}")
    assert code == 0 and out8["glance"]["title"].startswith("Replaced")  # the same list, the same name
    assert out16["army"] == out8["army"] and out16["glance"]["lines"] == out8["glance"]["lines"]


async def test_a_ward_save_of_1_is_said_in_the_import_and_in_army_show(play, tmp_path):
    roster = EMPIRE.read_text(encoding="utf-8").replace(WARD, WARD.replace("4+", "1+")).encode()
    code, out = await play(f"/army import file:{written(tmp_path, 'ward.ros', roster)}")
    assert code == 0
    said = "War Altar of Sigmar's ward save 1+ is left out: a ward save is 2+ to 6+ (a 1 always fails)"
    assert said in out["army"]["unread"] or said in " ".join(out["summary"])
    altar = next(u for u in out["army"]["units"] if u["label"] == "War Altar of Sigmar")
    assert altar["dropped"] == [{"option": "ward", "why": said}] and "ward" not in altar["values"]
    code, shown = await play('/army show unit:"War Altar of Sigmar"')
    assert code == 0 and f"in the list but not used: {said}" in " ".join(shown["summary"])


async def test_a_warmaster_unit_of_0_stands_is_said_in_the_import(play, tmp_path):
    size = '<characteristic name="Unit Size" typeId="8f42-22c8-12e8-890a">3</characteristic>'
    roster = (FIXTURES / "warmaster.ros").read_text(encoding="utf-8").replace(size, size.replace(">3<", ">0<"), 1).encode()
    code, out = await play(f"/army import file:{written(tmp_path, 'wm.ros', roster)}")
    assert code == 0
    assert "Crossbowmen's Unit Size 0 is left out: a unit has at least one stand" in " ".join(out["summary"])


@pytest.mark.parametrize("named, facing", [("Halberdiers #2 (rear)", "rear"), ("Halberdiers #2 (flank)", "flank"),
                                           ("Halberdiers #2 (side)", "flank"), ("Halberdiers #2 / front", "front")])
async def test_a_fantasy_unit_named_with_a_side_is_shot_on_that_side(play, named, facing):
    assert (await play(f"/army import file:{EMPIRE}"))[0] == 0
    line = '/fire cannon distance:30 ranks:2 dice:"H 4 8"'  # the wounding dice: the bot's

    def struck(out):  # which models the ball struck, in order: the side it came in by decides it
        return [(h["rank"], h["file"], h["kind"]) for h in out["hits"]]

    code, by_name = await play(f'{line} troop:"{named}"')
    assert code == 0, by_name
    assert by_name["from_list"]["filled"]["facing"] == facing
    code, typed = await play(f'{line} troop:infantry files:5 toughness:3 wounds:1 save:6 facing:{facing}')
    code, front = await play(f'{line} troop:infantry files:5 toughness:3 wounds:1 save:6')
    assert code == 0 and struck(by_name) == struck(typed)
    assert (struck(by_name) == struck(front)) is (facing == "front")


async def test_a_typed_facing_wins_and_a_command_without_facing_says_it_was_not_applied(play):
    assert (await play(f"/army import file:{EMPIRE}"))[0] == 0
    code, out = await play('/fire cannon distance:30 ranks:2 facing:front troop:"Halberdiers #2 (rear)" dice:"H 4 8"')
    assert code == 0 and "facing" in out["from_list"]["typed"] and "facing" not in out["from_list"]["filled"]
    assert (await play(f"/army import file:{FIXTURES / 'warmaster.ros'}"))[0] == 0
    code, out = await play('/wm shoot attacks:6 troop:"Knights (rear)" dice:"1 2 3 4 5 6"')
    assert code == 0 and out["from_list"]["not_applied"] == ["facing (rear)"]


async def test_the_lists_leadership_takes_the_panic_test_and_a_typed_one_wins(play):
    assert (await play(f"/army import file:{EMPIRE}"))[0] == 0
    line = '/fire fire-thrower distance:8 ranks:4 troop:"Halberdiers" save:6 dice:"8 1 6 5 1 6 4 5 2 1 3 4 1 2 4"'
    code, out = await play(line)
    assert code == 0, out
    assert out["from_list"]["filled"]["leadership"] == 7
    assert "against Ld 7" in " ".join(out["summary"])
    code, out = await play(line + " leadership:9")
    assert code == 0 and "leadership" in out["from_list"]["typed"] and "against Ld 9" in " ".join(out["summary"])


@pytest.mark.parametrize("item", ["army: High Elves", "army High Elves", "Army = high elves", "army -  High Elves"])
async def test_siege_army_reads_the_army_however_it_is_written(play, item):
    code, out = await play(f'/siege army side:defender points:1500 list:"2 towers, {item}"')
    assert code == 0, out
    assert "(High Elves)" in out["summary"][0]


async def test_siege_army_without_the_armys_name_says_what_to_give(play):
    code, out = await play('/siege army side:defender points:1500 list:"2 towers, army:"')
    assert code == 2 and out["error"] == "List: 'army:' needs the army's name, e.g. 'army high elves'."


async def test_a_40k_squads_leadership_is_taken_by_a_barrage_only(play):
    assert (await play(f"/army import file:{FIXTURES / 'guard.json'}"))[0] == 0
    code, plain = await play('/40k ordnance distance:24 strength:8 target:"Infantry Squad"')
    assert code == 0, plain  # an ordnance blast that is no barrage has no pinning test: the Ld is not pressed on it
    assert "leadership" not in plain["from_list"]["filled"]
    code, barrage = await play('/40k ordnance distance:24 strength:8 barrage:true target:"Infantry Squad"')
    assert code == 0, barrage
    assert barrage["from_list"]["filled"]["leadership"] == 7
