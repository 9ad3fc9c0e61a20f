"""A private shot's misfire stays its roller's on every public path: the machine's state (the table
sees it: cannot fire until turn N, destroyed, its crew) shows everywhere, but never the chart, its
die or its row, which only the roller's own answer (and /log show for them, the GM and managers) says.
Before, the machine kept "Malfunction, Black Powder Misfire Chart 3" as its reason, and /machine
list, /battle status, /campaign info, /battle turn, the report and the export showed it to all."""

import json
from pathlib import Path

from storage.campaigns import PRIVATE_REASON

SECRET = ("Misfire Chart", "Malfunction", "Destroyed!", "Disabled")
"""Words only the misfire chart's row or its name say."""

OTHER = {"user_id": 555}
"""Another member of the server, a player of the battle."""


def leaks(answer: dict) -> list[str]:
    text = json.dumps(answer, ensure_ascii=False)
    return [w for w in SECRET if w in text]


async def setup_battle(play) -> None:
    assert (await play('/campaign create name:"Border Wars"'))[0] == 0
    assert (await play('/campaign join name:"Border Wars"', **OTHER))[0] == 0
    assert (await play('/machine add name:"Old Betsy" kind:cannon crew:3 bs:3'))[0] == 0
    assert (await play('/machine add name:"Grudge" kind:stone-thrower crew:1 bs:3'))[0] == 0
    code, battle = await play('/battle start campaign:"Border Wars"')
    assert code == 0 and OTHER["user_id"] in battle["battle"]["players"]  # the campaign's members play in it


async def test_a_private_misfire_shows_the_machines_state_everywhere_and_its_chart_row_nowhere(play):
    await setup_battle(play)
    code, shot = await play('/fire cannon distance:30 machine:"Old Betsy" dice:"@0 M 3" private:true')
    assert code == 0
    # the roller's own (private) answer says the row, as before
    assert shot["machine"]["status"] == "cannot fire until turn 3 (Malfunction, Black Powder Misfire Chart 3)"
    assert any("Malfunction, Black Powder Misfire Chart 3" in line for line in shot["glance"]["lines"])
    expected = f"cannot fire until turn 3 ({PRIVATE_REASON})"
    for line, who in (("/machine list", OTHER), ("/battle status", OTHER), ('/campaign info name:"Border Wars"', OTHER),
                      ("/machine list", {})):
        code, out = await play(line, **who)
        assert code == 0, out
        assert not leaks(out), (line, leaks(out))
        betsy = next(m for m in out.get("machines") or out["campaign"]["machines"] if m["name"] == "Old Betsy")
        assert betsy["state"] == "silenced" and betsy["status"] == expected and betsy["silent_until_turn"] == 3
    code, turn = await play("/battle turn", **OTHER)
    assert code == 0 and not leaks(turn)
    # its owner is refused on turn 2 with the state, and told where the result is kept
    code, refused = await play('/fire cannon distance:30 machine:"Old Betsy"')
    assert code == 2 and refused["error"] == f"Old Betsy cannot fire until turn 3 ({PRIVATE_REASON}); it is turn 2."
    code, end = await play("/battle end")
    assert code == 0 and not leaks(end)
    report = Path(next(f for f in end["files"] if f.endswith(".md"))).read_text()
    export = json.loads(Path(next(f for f in end["files"] if f.endswith(".json") and not f.endswith("-rolls.json"))).read_text())
    assert not [w for w in SECRET if w in report] and not leaks(export)
    assert export["shots"][0]["machine_after"] == expected and f"| {expected} |" in report


async def test_a_machine_destroyed_by_a_private_shot_says_so_without_the_chart(play):
    await setup_battle(play)
    code, shot = await play('/fire cannon distance:30 machine:"Old Betsy" dice:"@0 M 1" private:true')
    assert code == 0 and shot["machine"]["status"] == "destroyed (Destroyed, Black Powder Misfire Chart 1)"
    code, shot = await play('/fire stone-thrower distance:36 machine:"Grudge" dice:"H M 2" private:true')
    assert code == 0 and shot["machine"]["status"] == "destroyed (Disabled, Stone Thrower Misfire Chart 2: the last crewman fell)"
    code, roster = await play("/machine list", **OTHER)
    assert code == 0 and not leaks(roster)
    states = {m["name"]: (m["state"], m["crew"], m["status"]) for m in roster["machines"]}
    assert states == {"Old Betsy": ("destroyed", 0, f"destroyed ({PRIVATE_REASON})"),
                      "Grudge": ("destroyed", 0, f"destroyed ({PRIVATE_REASON}: the last crewman fell)")}
    code, status = await play("/battle status", **OTHER)
    assert code == 0 and not leaks(status)


async def test_a_machine_taken_off_and_added_again_mid_battle_keeps_the_private_reason(play):
    await setup_battle(play)
    assert (await play('/fire cannon distance:30 machine:"Old Betsy" dice:"@0 M 4" private:true'))[0] == 0
    assert (await play('/machine remove name:"Old Betsy"'))[0] == 0
    code, again = await play('/machine add name:"Old Betsy" kind:cannon crew:3 bs:3')
    assert code == 0 and not leaks(again)
    code, roster = await play("/machine list", **OTHER)
    betsy = next(m for m in roster["machines"] if m["name"] == "Old Betsy")
    assert betsy["status"] == f"cannot fire until turn 3 ({PRIVATE_REASON})" and not leaks(roster)


async def test_a_public_misfire_still_names_its_chart_row(play):
    await setup_battle(play)
    code, shot = await play('/fire cannon distance:30 machine:"Old Betsy" dice:"@0 M 3"')
    assert code == 0
    code, roster = await play("/machine list", **OTHER)
    betsy = next(m for m in roster["machines"] if m["name"] == "Old Betsy")
    assert betsy["status"] == "cannot fire until turn 3 (Malfunction, Black Powder Misfire Chart 3)"
