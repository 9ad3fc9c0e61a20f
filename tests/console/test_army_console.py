"""/army and target: through the console's --json: a real list imported from a path, its units
targeted by name in every game, a shot at an imported unit exactly the shot with its profile
typed (same dice, same result), what the list lacks asked for, hostile files refused."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

from bot import create_bot
from config.settings import Settings
from console import offline as console
from console.offline import OFFLINE_USER_ID

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "army"
EMPIRE, WARMASTER, GUARD = (FIXTURES / n for n in ("empire.rosz", "warmaster.ros", "guard.json"))


async def fresh(path: Path):
    bot = create_bot(Settings(data_dir=path, sync_commands=False, dice_seed=7))
    await bot.load_cogs()
    return bot


async def run(bot, line: str, **who) -> tuple[int, dict]:
    out = io.StringIO()
    code = await console.run_line(bot, line, as_json=True, out=out, **who)
    return code, json.loads(out.getvalue())


async def test_import_list_show_and_remove(play):
    code, out = await play(f"/army import file:{EMPIRE}")
    assert code == 0 and out["command"] == "army import"
    army = out["army"]
    assert (army["name"], army["game"], army["points"], army["owner"]) == ("Host of Talabheim", "fantasy", 760.0, OFFLINE_USER_ID)
    assert [u["label"] for u in army["units"]][:2] == ["Halberdiers", "Great Cannon"]
    assert army["unread"] == ["1 hidden profile skipped"]
    assert out["glance"]["title"] == "Imported Host of Talabheim · 760 pts"
    assert any(line == "Halberdiers ×20 · T3 W1 infantry Ld7 · ask: save" for line in out["glance"]["lines"])
    code, out = await play(f"/army import file:{EMPIRE}")
    assert out["glance"]["title"].startswith("Replaced Host of Talabheim")
    await play(f"/army import file:{GUARD}")
    code, out = await play("/army list")
    assert [a["name"] for a in out["armies"]] == ["Cadian 3rd Armoured", "Host of Talabheim"]
    code, out = await play('/army show unit:"Spirit Host"')
    assert out["unit"]["values"] == {"toughness": 3, "wounds": 4, "enemy_ws": 3, "enemy_initiative": 1, "troop": "swarm", "ethereal": True, "models": 3,
                                     "leadership": 4}
    assert "Ethereal" in out["unit"]["rules"]
    code, out = await play('/army remove list:"Host of Talabheim"')
    assert code == 0 and out["removed"] == "Host of Talabheim"
    assert [a["name"] for a in (await play("/army list"))[1]["armies"]] == ["Cadian 3rd Armoured"]
    assert (await play('/army show unit:"Spirit Host"'))[1]["error"].startswith("unit: no unit 'Spirit Host'")


async def test_lists_belong_to_their_member_and_a_battle_shares_its_players_lists(play):
    await play(f"/army import file:{EMPIRE}")
    other = OFFLINE_USER_ID + 1
    assert (await play("/army list", user_id=other))[1]["armies"] == []
    code, out = await play('/shoot shots:5 bs:3 strength:3 target:"Spirit Host"', user_id=other)
    assert (code, out["error"]) == (2, "troop: 'Spirit Host' is not a unit of a list in play here (/army list), so /shoot "
                                       "needs toughness.")
    code, out = await play('/fire cannon distance:30 troop:"Spirit Host"', user_id=other)
    assert out["error"].startswith("Troop type 'Spirit Host' is not one we know")
    assert out["error"].endswith("Nor is it a unit of a list in play (/army list).")
    await play("/battle start")
    await play(f"/battle add player:{other}")
    code, out = await play('/shoot shots:5 bs:3 strength:3 target:"Spirit Host" magical:true', user_id=other)
    assert code == 0 and out["from_list"]["list"] == "Host of Talabheim" and out["from_list"]["owner"] == OFFLINE_USER_ID
    assert (await play('/army remove list:"Host of Talabheim"', user_id=other))[1]["error"].startswith("You have no list called")


def pictures(named: dict, plain: dict) -> None:
    """The two runs' pictures are files of two data folders: the same picture has the same name (its
    bytes' hash); the log entries differ by the options they record."""
    for out in (named, plain):
        out.pop("log", None)
        for key in [k for k, v in out.items() if k.endswith("image") and isinstance(v, str)]:
            out[key] = Path(out[key]).name


SAME_SHOTS = [
    ('/shoot shots:10 bs:3 strength:3 magical:true target:"Spirit Host"',
     "/shoot shots:10 bs:3 strength:3 magical:true toughness:3 wounds:4 troop:swarm ethereal:true"),
    ('/shoot shots:10 bs:4 strength:4 troop:"Halberdiers #2"', "/shoot shots:10 bs:4 strength:4 toughness:3 wounds:1 save:6 troop:infantry"),
    ('/fire cannon distance:30 target:"Great Cannon"', "/fire cannon distance:30 toughness:7 wounds:3 troop:war-machine ranks:1 files:1"),
    ('/fire stone-thrower distance:30 bs:3 target:Halberdiers ranks:4 save:5',
     "/fire stone-thrower distance:30 bs:3 toughness:3 wounds:1 save:5 troop:infantry ranks:4 files:5"),
    ('/combat attacks attacks:8 ws:4 enemy_ws:3 strength:4 target:"War Altar of Sigmar"',
     "/combat attacks attacks:8 ws:4 enemy_ws:3 strength:4 toughness:5 wounds:5 save:5 ward:4 troop:chariot"),
    ('/combat breath strength:3 troop:"Halberdiers #2"', "/combat breath strength:3 models:10 toughness:3 wounds:1 save:6 troop:infantry"),
    ('/combat impact-hits strength:5 hits:3 troop:"War Altar of Sigmar"',
     "/combat impact-hits strength:5 hits:3 toughness:5 wounds:5 save:5 ward:4 troop:chariot"),
    ('/fire grapeshot distance:8 bs:3 target:"Halberdiers #2"', "/fire grapeshot distance:8 bs:3 toughness:3 wounds:1 save:6"),
    ('/fire bolt-thrower distance:30 bs:3 troop:"Halberdiers #2" ranks:2', "/fire bolt-thrower distance:30 bs:3 toughness:3 wounds:1 save:6 troop:infantry ranks:2 files:5"),
    ('/breath distance:4 strength:3 target:"Spirit Host" ranks:1', "/breath distance:4 strength:3 toughness:3 wounds:4 troop:swarm ethereal:true ranks:1 files:3"),
]


@pytest.mark.parametrize("by_list, typed", SAME_SHOTS)
async def test_a_shot_at_an_imported_unit_is_the_shot_with_its_profile_typed(tmp_path, by_list, typed):
    """Two bots with the same seed: one shoots at the unit by name, the other types its profile.
    The dice and every result field are the same; only the note of where the values came from differs."""
    a, b = await fresh(tmp_path / "a"), await fresh(tmp_path / "b")
    for bot in (a, b):
        assert (await run(bot, f"/army import file:{EMPIRE}"))[0] == 0
    (code_a, named), (code_b, plain) = await run(a, by_list), await run(b, typed)
    assert (code_a, code_b) == (0, 0), (named, plain)
    assert named.pop("from_list")["list"] == "Host of Talabheim" and "from_list" not in plain
    assert named["summary"][-1].startswith("From Host of Talabheim: ")
    named["summary"].pop()
    pictures(named, plain)
    assert named == plain


async def test_warmaster_and_40k_units_by_name(tmp_path):
    a, b = await fresh(tmp_path / "a"), await fresh(tmp_path / "b")
    for bot in (a, b):
        await run(bot, f"/army import file:{WARMASTER}")
        await run(bot, f"/army import file:{GUARD}")
    for by_list, typed in [
        ("/wm shoot attacks:6 troop:Knights", "/wm shoot attacks:6 armour:4 hits:3 troop:cavalry stands:3"),
        ("/wm cannon distance:40 cannons:2 target:Cannon", "/wm cannon distance:40 cannons:2 hits:2 armour:0 troop:artillery stands:2"),
        ('/40k penetrate strength:8 armour:"Leman Russ Battle Tank (side)"', "/40k penetrate strength:8 armour:12"),
        ('/40k assault attacks:3 moved:stationary armour:"Chimera (rear)" strength:6',
         "/40k assault attacks:3 moved:stationary armour:10 strength:6"),
        ('/40k ordnance distance:30 strength:8 armour:"Sentinel Squadron" facing:front',
         '/40k ordnance distance:30 strength:8 armour:"10 10 10" open_topped:true facing:front'),
    ]:
        (ca, named), (cb, plain) = await run(a, by_list), await run(b, typed)
        assert (ca, cb) == (0, 0), (by_list, named, plain)
        named.pop("from_list")
        named["summary"].pop()
        pictures(named, plain)
        assert named == plain, by_list


async def test_typed_values_win_and_the_reply_says_which_came_from_the_list(play):
    await play(f"/army import file:{EMPIRE}")
    code, out = await play('/shoot shots:6 bs:3 strength:4 target:"War Altar of Sigmar" save:4')
    assert out["from_list"]["filled"] == {"toughness": 5, "wounds": 5, "ward": 4, "troop": "chariot"}
    assert out["from_list"]["typed"] == ["save"]
    assert out["summary"][-1] == "From Host of Talabheim: War Altar of Sigmar · toughness 5, wounds 5, ward 4, troop chariot (save typed)"


async def test_what_the_list_does_not_give_is_asked_for(play):
    await play(f"/army import file:{EMPIRE}")
    await play(f"/army import file:{GUARD}")
    code, out = await play("/shoot shots:6 bs:3 strength:4 target:Halberdiers")
    assert (code, out["error"]) == (2, "Halberdiers: the list gives Halberdiers armour but no armour save: work it out "
                                       "and give save: (e.g. save:5).")
    code, out = await play("/fire cannon distance:30 target:Halberdiers save:5")
    assert out["error"] == ("Halberdiers has 20 models: say how they stand with ranks: (files are worked out) "
                            "or ranks: and files:.")
    code, out = await play("/fire cannon distance:30 target:Halberdiers save:5 ranks:3")
    assert out["error"] == "Halberdiers has 20 models: 3 ranks do not hold them evenly: give files: too."
    code, out = await play('/40k penetrate strength:8 armour:"Leman Russ Battle Tank"')
    assert out["error"].startswith("Leman Russ Battle Tank has armour 14/12/10 (front/side/rear): name the side hit")
    code, out = await play("/40k penetrate strength:8 armour:9")
    assert out["error"] == "armour: 9 is out of bounds: give 10 to 14, or a unit of a list in play."
    code, out = await play("/40k penetrate strength:8 armour:Baneblade")
    assert out["error"] == "armour: 'Baneblade' is neither a number nor a unit of the lists in play (see /army list)."
    assert (await play("/shoot shots:6 bs:3 strength:4"))[1]["error"].startswith("/shoot needs toughness")
    # a troop type is still a troop type
    assert (await play("/shoot shots:6 bs:3 strength:4 toughness:3 troop:monster"))[0] == 0


def zipped(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(name, data)
    return out.getvalue()


async def test_hostile_files_are_refused_and_nothing_is_kept(play, tmp_path):
    files = {
        "big.ros": b"<roster>" + b" " * 1_100_000 + b"</roster>",
        "bomb.rosz": zipped({"x.ros": b"<roster>" + b" " * 12_000_000 + b"</roster>"}),
        "two.rosz": zipped({"a.ros": EMPIRE.read_bytes(), "b.ros": EMPIRE.read_bytes()}),
        "laughs.ros": b'<!DOCTYPE r [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><roster>&b;</roster>',
        "cat.cat": b'<catalogue xmlns="http://www.battlescribe.net/schema/catalogueSchema"/>',
        "photo.png": b"\x89PNG\r\n\x1a\n" + b"\0" * 100,
    }
    errors = {}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
        code, out = await play(f"/army import file:{tmp_path / name}")
        assert code == 2 and "\n" not in out["error"], (name, out)
        errors[name] = out["error"]
    assert errors["big.ros"] == "That file is 1,100,017 bytes: a roster is at most 1,000,000 (1 MB)."
    assert "would unpack to" in errors["bomb.rosz"] and "holds 2 files" in errors["two.rosz"]
    assert "entities" in errors["laughs.ros"] and "not a roster" in errors["cat.cat"] + errors["photo.png"]
    assert (await play("/army list"))[1]["armies"] == []
    assert (await play("/army import file:/nowhere/list.ros"))[1]["error"].startswith("file: cannot read")


async def test_names_from_a_roster_are_shown_as_text(play, tmp_path):
    text = EMPIRE.with_suffix(".ros").read_text().replace('name="Great Cannon" entryId', 'customName="@everyone **Boom** &lt;@123456789012345678&gt;" name="Great Cannon" entryId')
    (tmp_path / "rude.ros").write_text(text)
    code, out = await play(f"/army import file:{tmp_path / 'rude.ros'}")
    line = next(x for x in out["summary"] if "Boom" in x)
    assert "@\u200beveryone" in line and "\\*\\*Boom\\*\\*" in line and "<@\u200b123456789012345678>" in line
    code, out = await play("/machine add from:Boom")  # an error naming the unit keeps the mention escaped
    assert "'@\u200beveryone \\*\\*Boom\\*\\*" in out["error"] and "\ufffd" not in out["error"], out
    code, out = await play('/machine add from:"@everyone **Boom** <@123456789012345678>"')  # a Great Cannon by its profile
    assert out["error"].startswith("from: '@\u200beveryone \\*\\*Boom\\*\\* <@\u200b123456789012345678>' is longer "
                                   "than a machine's name may be (40 characters): give name: too."), out
    code, out = await play('/machine add from:"@everyone **Boom** <@123456789012345678>" name:Boom')
    assert code == 0 and out["machines"][0]["kind"] == "great-cannon", out
    (tmp_path / "rude2.ros").write_text(text.replace("&lt;@123456789012345678&gt;", "").replace('name="Host of Talabheim"', 'name="Rude"', 1))
    await play(f"/army import file:{tmp_path / 'rude2.ros'}")
    code, out = await play('/machine add from:"Rude: @everyone **Boom**"')
    assert code == 0 and out["summary"][0] == "@\u200beveryone \\*\\*Boom\\*\\* joins the roster", out


async def test_forget_me_and_the_server_purge_remove_lists(play):
    await play(f"/army import file:{EMPIRE}")
    code, out = await play("/settings forget-me")
    assert out["forgotten"]["armies"] == 1 and (await play("/army list"))[1]["armies"] == []
    await play(f"/army import file:{EMPIRE}")
    code, out = await play('/settings purge-server confirm:200')
    assert out["purged"]["armies"] == 1 and (await play("/army list"))[1]["armies"] == []


async def test_a_war_machine_of_the_list_joins_the_campaign_roster(play):
    for f in (EMPIRE, WARMASTER, GUARD):
        await play(f"/army import file:{f}")
    code, out = await play('/machine add from:"Great Cannon"')
    assert code == 0 and out["machines"][0] | {"status": None} == {
        "name": "Great Cannon", "kind": "great-cannon", "game": "fantasy", "crew": 3, "crew_max": 3, "bs": None,
        "owner": OFFLINE_USER_ID, "state": "ok", "status": None, "silent_until_turn": None}
    code, out = await play('/machine add from:"Leman Russ Battle Tank" name:"Old Faithful"')
    assert (out["machines"][0]["name"], out["machines"][0]["kind"], out["machines"][0]["bs"]) == ("Old Faithful", "40k-vehicle", 3)
    code, out = await play("/machine add from:Cannon")
    assert (out["machines"][0]["kind"], out["machines"][0]["crew"]) == ("wm-artillery", 2)
    assert (await play("/machine add from:Knights"))[1]["error"].startswith("Knights is not a war machine in its list")
    assert (await play("/machine add name:X"))[1]["error"].startswith("/machine add needs name: and kind:, or from:")
    await play("/battle start")
    code, out = await play('/fire great-cannon distance:30 machine:"Great Cannon" troop:"Halberdiers #2" ranks:2 dice:"H 4 6"')
    assert code == 0 and out["from_list"]["filled"]["files"] == 5
    assert (await play("/battle end"))[1]["totals"]["shots"] == 1  # the roster machine's shot, in the battle's record


async def test_odds_price_a_shot_at_a_unit_by_name_as_the_shot_typed(play):
    await play(f"/army import file:{EMPIRE}")
    code, named = await play("""/odds shot:'/shoot shots:6 bs:3 strength:4 target:"Halberdiers #2"'""")
    code2, typed = await play("/odds shot:'/shoot shots:6 bs:3 strength:4 toughness:3 wounds:1 save:6 troop:infantry'")
    assert (code, code2) == (0, 0), (named, typed)
    assert named["summary"][-1] == "From Host of Talabheim: Halberdiers #2 · toughness 3, wounds 1, save 6, troop infantry"
    assert named["summary"][1:-1] == typed["summary"][1:]
    # the command line quoted differs, not the odds
    assert named["summary"][0].removeprefix('Odds: /shoot shots:6 bs:3 strength:4 troop:"Halberdiers #2": ') == \
        typed["summary"][0].removeprefix("Odds: /shoot shots:6 bs:3 strength:4 toughness:3 wounds:1 save:6 troop:infantry: ")


async def test_the_biggest_list_and_the_longest_names_fit_discord(bot, tmp_path):
    """500 units with 120-character names: the import's glance and Details, /army show of the
    longest unit, and the autocomplete all within Discord's limits."""
    from tests import discord_limits as limits

    def fits(reply):
        for embed in (reply.glance(), reply.details()):
            assert limits.embed_problems(embed.to_dict()) == [] and limits.embed_size(embed.to_dict()) <= 6000

    name = "Orc Boyz of the Very Long Named Waaagh " + "x" * 81
    unit = (f'<selection name="{name}" type="unit"><rules>' + "".join(f'<rule name="Rule {i} {"y" * 90}"/>' for i in range(30)) +
            '</rules><selections><selection name="Boy" type="model" number="40"><profiles><profile name="Boy" typeName="Model">'
            '<characteristics><characteristic name="T">4</characteristic><characteristic name="W">1</characteristic>'
            '<characteristic name="Type">Infantry</characteristic></characteristics></profile></profiles></selection></selections></selection>')
    roster = (f'<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" name="{"Waaagh " * 40}" gameSystemName="Warhammer Fantasy 8th ed">'
              f'<forces><force catalogueName="Orcs and Goblins"><selections>{unit * 500}</selections></force></forces></roster>')
    path = tmp_path / "horde.rosz"
    path.write_bytes(zipped({"horde.ros": roster.encode()}))  # 1.9 MB of XML, a few kB zipped
    interaction = await console.invoke(bot, f"/army import file:{path}")
    assert console.REPLY_KEY in interaction.extras, interaction.extras
    reply = interaction.extras[console.REPLY_KEY]
    fits(reply)
    assert len(reply.fields["army"]["units"]) == 500
    interaction = await console.invoke(bot, f'/army show unit:"{name[:-1][:80]}"')  # no such label: an error, one line
    assert console.ERROR_KEY in interaction.extras
    interaction = await console.invoke(bot, f'/army show unit:"{" ".join(name.split())} #500"')
    fits(interaction.extras[console.REPLY_KEY])
    from cogs.common.target import lists_in_play, unit_choices

    choices = unit_choices(lists_in_play(bot.store, 200, 300, 100), "")
    assert len(choices) == 25 and all(len(c.name) <= 100 and len(c.value) <= 100 for c in choices)


async def test_a_command_takes_only_the_immunities_its_immune_option_knows(play, tmp_path):
    (tmp_path / "salamanders.ros").write_text(
        '<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" name="Salamanders" gameSystemName="Warhammer Fantasy 8th ed">'
        '<forces><force catalogueName="Lizardmen"><selections><selection name="Salamander Hunting Pack" type="unit"><rules>'
        '<rule name="Immunity (Flaming Attacks)"/><rule name="Immunity (Killing Blow)"/></rules><selections>'
        '<selection name="Salamander" type="model" number="1"><profiles><profile name="Salamander" typeName="Model"><characteristics>'
        '<characteristic name="T">4</characteristic><characteristic name="W">3</characteristic>'
        '<characteristic name="ArmourSave">5+</characteristic><characteristic name="Type">Monstrous Beast</characteristic>'
        '</characteristics></profile></profiles></selection></selections></selection></selections></force></forces></roster>')
    await play(f"/army import file:{tmp_path / 'salamanders.ros'}")
    code, out = await play('/shoot shots:3 bs:3 strength:4 troop:"Salamander Hunting Pack"')
    assert code == 0 and out["from_list"]["filled"]["immune"] == "flaming killing-blow"
    code, out = await play('/fire fire-thrower distance:4 troop:"Salamander Hunting Pack"')
    assert code == 0 and out["from_list"]["filled"]["immune"] == "flaming"  # its immune: takes flaming, panic, psychology


async def test_a_list_unit_immune_to_psychology_or_frenzied_takes_no_panic_test_from_the_fire_thrower(play, tmp_path):
    """Seed 003:190 (a Frenzied unit is Immune to Psychology) and 003:248-250 (Immune to Psychology
    or Panic: no Panic test), 000:144 (a fire thrower's casualties force one): the rules the list
    names fill the fire thrower's immune:, as typing it would."""
    def unit(name: str, rule: str) -> str:
        return (f'<selection name="{name}" type="unit"><rules><rule name="{rule}"/></rules><selections>'
                f'<selection name="{name} model" type="model" number="10"><profiles><profile name="M" typeName="Model"><characteristics>'
                '<characteristic name="T">3</characteristic><characteristic name="W">1</characteristic>'
                '<characteristic name="ArmourSave">-</characteristic><characteristic name="Type">Infantry</characteristic>'
                '</characteristics></profile></profiles></selection></selections></selection>')
    (tmp_path / "chaos.ros").write_text(
        '<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" name="Horde" gameSystemName="Warhammer Fantasy 8th ed">'
        '<forces><force catalogueName="Warriors of Chaos"><selections>'
        + unit("Marauders", "Frenzy") + unit("Flagellants", "Immune to Psychology") + unit("Beastmen", "Ambushers")
        + '</selections></force></forces></roster>')
    await play(f"/army import file:{tmp_path / 'chaos.ros'}")
    for name in ("Marauders", "Flagellants"):
        code, out = await play(f'/fire fire-thrower distance:4 ranks:2 troop:"{name}" dice:"2 6 6 6 6 6 6"')
        assert code == 0 and out["from_list"]["filled"]["immune"] == "psychology", out
        typed = (await play('/fire fire-thrower distance:4 ranks:2 files:5 toughness:3 wounds:1 troop:infantry '
                            'immune:psychology dice:"2 6 6 6 6 6 6"'))[1]
        assert [l for l in out["summary"] if not l.startswith("From ")] == typed["summary"]
        assert "6 slain" in out["summary"][0]
        assert any("takes no Panic test" in line for line in out["summary"])
    code, out = await play('/fire fire-thrower distance:4 ranks:2 troop:"Beastmen" dice:"2 6 6 6 6 6 6"')
    assert code == 0 and "immune" not in out["from_list"]["filled"]
    assert not any("takes no Panic test" in line for line in out["summary"])


async def test_a_unit_is_targeted_only_by_its_own_games_commands(play):
    """A Fantasy cannon at a 40k tank, or a Warmaster shot at a Fantasy unit, would read the unit
    with the wrong game's characteristics and resolve against defaults: refused by name instead,
    and the autocomplete offers only the command's game's units."""
    for f in (EMPIRE, WARMASTER, GUARD):
        await play(f"/army import file:{f}")
    code, out = await play('/fire cannon distance:30 troop:"Leman Russ Battle Tank"')
    assert (code, out["error"]) == (2, "troop: 'Leman Russ Battle Tank' is a unit of Cadian 3rd Armoured, a Warhammer "
                                       "40,000 list: this command is Warhammer Fantasy.")
    code, out = await play('/wm shoot attacks:6 target:"Spirit Host"')
    assert out["error"].startswith("troop: 'Spirit Host' is a unit of Host of Talabheim, a Warhammer Fantasy list")
    code, out = await play('/40k penetrate strength:8 armour:"Knights"')
    assert out["error"].startswith("armour: 'Knights' is a unit of Reikland Muster, a Warmaster list")
    assert (await play("/army show unit:Knights"))[0] == 0  # /army show spans every game


async def test_the_autocomplete_offers_only_the_commands_games_units(bot, play):
    for f in (EMPIRE, WARMASTER, GUARD):
        await play(f"/army import file:{f}")
    from cogs.common.target import lists_in_play, unit_choices

    lists = lists_in_play(bot.store, 200, 300, OFFLINE_USER_ID)
    assert [c.value for c in unit_choices(lists, "", game="warmaster")] == ["Crossbowmen", "Knights", "Cannon"]
    assert "Cannon" not in [c.value for c in unit_choices(lists, "cannon", game="fantasy")]
    assert [c.value for c in unit_choices(lists, "chimera", game="wh40k", faces=True)] == [
        "Chimera (front)", "Chimera (side)", "Chimera (rear)"]


async def test_two_lists_with_a_unit_of_one_name_ask_which_in_every_option(play, tmp_path):
    (tmp_path / "second.ros").write_text(EMPIRE.with_suffix(".ros").read_text().replace(
        'name="Host of Talabheim"', 'name="Second Host"', 1))
    await play(f"/army import file:{EMPIRE}")
    await play(f"/army import file:{tmp_path / 'second.ros'}")
    which = "is in more than one list in play: give 'Host of Talabheim: Spirit Host', 'Second Host: Spirit Host'."
    code, out = await play('/shoot shots:5 bs:3 strength:4 troop:"Spirit Host"')
    assert (code, out["error"]) == (2, f"troop: 'Spirit Host' {which}")
    assert (await play('/fire grapeshot distance:8 bs:3 target:"Spirit Host"'))[1]["error"] == f"target: 'Spirit Host' {which}"
    assert (await play('/army show unit:"Spirit Host"'))[1]["error"] == f"unit: 'Spirit Host' {which}"
    code, out = await play('/shoot shots:5 bs:3 strength:4 troop:"Second Host: Spirit Host"')
    assert code == 0 and out["from_list"]["list"] == "Second Host"


async def test_a_unit_that_cannot_fill_a_required_option_says_so(play):
    await play(f"/army import file:{GUARD}")
    code, out = await play('/40k penetrate strength:8 armour:"Infantry Squad"')
    assert (code, out["error"]) == (2, "armour: Infantry Squad has no armour values (it is not a vehicle): give the value "
                                       "instead of the unit.")


async def test_a_dodge_from_the_list_fills_combat_attacks_dodge_as_typed(play, tmp_path):
    (tmp_path / "ghosts.ros").write_text(
        '<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" name="Fey" gameSystemName="Warhammer Fantasy 8th ed">'
        '<forces><force catalogueName="Wood Elves"><selections><selection name="Dryads" type="unit"><rules>'
        '<rule name="Dodge (5+)"/></rules><selections><selection name="Dryad" type="model" number="10"><profiles>'
        '<profile name="Dryad" typeName="Model"><characteristics><characteristic name="T">4</characteristic>'
        '<characteristic name="W">1</characteristic><characteristic name="Type">Infantry</characteristic>'
        '</characteristics></profile></profiles></selection></selections></selection></selections></force></forces></roster>')
    await play(f"/army import file:{tmp_path / 'ghosts.ros'}")
    line = '/combat attacks attacks:6 ws:4 enemy_ws:4 strength:4 dice:"6 6 6 6 6 6 6 6 6 6 6 6 2 2 2 2 2 2"'
    code, named = await play(line + " troop:Dryads")
    assert code == 0 and named["from_list"]["filled"]["dodge"] == "5+", named
    code, typed = await play(line + ' toughness:4 wounds:1 troop:infantry dodge:"5+"')
    assert [x for x in named["summary"] if not x.startswith("From ")] == typed["summary"]


async def test_close_combat_takes_the_targets_weapon_skill_and_initiative_from_the_list(play):
    """The target's WS is part of its profile on /combat attacks (the WS chart); its Initiative
    decides who strikes first, so it is filled only when the attacker's Initiative is typed."""
    await play(f"/army import file:{EMPIRE}")
    base = '/combat attacks attacks:10 ws:4 strength:3 save:6 dice:"4 4 4 4 4 4 4 4 4 4 5 5 5 5 5 5 5 5 5 5 6 6 6 6 6 6 6 6 6 6"'
    code, named = await play(base + " troop:Halberdiers")
    assert code == 0 and named["from_list"]["filled"] == {"toughness": 3, "wounds": 1, "enemy_ws": 3, "troop": "infantry"}
    typed = (await play(base + " toughness:3 wounds:1 enemy_ws:3 troop:infantry"))[1]
    assert [x for x in named["summary"] if not x.startswith("From ")] == typed["summary"]
    code, named = await play(base + " initiative:4 strikes:first troop:Halberdiers")
    assert code == 0 and named["from_list"]["filled"]["enemy_initiative"] == 3
    typed = (await play(base + " initiative:4 strikes:first toughness:3 wounds:1 enemy_ws:3 enemy_initiative:3 troop:infantry"))[1]
    assert [x for x in named["summary"] if not x.startswith("From ")] == typed["summary"]
    code, out = await play('/combat attacks attacks:10 ws:3 strength:3 troop:"Halberdiers #2"')  # its profile has no WS
    assert (code, out["error"]) == (2, "Halberdiers #2: the list gives Halberdiers #2 no Weapon Skill: give enemy_ws:.")
    code, out = await play("/combat attacks attacks:10 ws:3 strength:3 toughness:3")
    assert out["error"].startswith("/combat attacks needs enemy_ws")


async def test_a_rule_the_command_has_no_option_for_is_said_not_applied(play):
    """/combat impact-hits has no ethereal:: the attack is the attack typed, and the footer says
    the list's Ethereal was not applied rather than leaving it out silently. Every /fire war
    machine takes ethereal: now, so a bolt thrower applies it (a 2+ ward, seed 003:101)."""
    await play(f"/army import file:{EMPIRE}")
    code, out = await play('/combat impact-hits strength:5 hits:2 troop:"Spirit Host"')
    assert code == 0 and out["from_list"]["not_applied"] == ["Ethereal"]
    assert out["summary"][-1].endswith("troop swarm · not applied by this command: Ethereal")
    code, out = await play('/fire bolt-thrower distance:30 bs:3 troop:"Spirit Host" ranks:1 dice:"5 2 2 1 3"')
    assert code == 0 and out["from_list"]["not_applied"] == [] and out["from_list"]["filled"]["ethereal"] is True
    assert out["ethereal"] is True and out["hits"][0]["wounds"] == 3  # the ward of 1 failed: D3 wounds
    assert "ward save Ethereal (2+ against mundane attacks)" in out["rules"]
    code, out = await play('/shoot shots:3 bs:3 strength:4 troop:"Spirit Host"')
    assert out["from_list"]["not_applied"] == [] and "not applied" not in out["summary"][-1]


async def test_names_with_quotes_colons_and_a_side_in_brackets_are_found(play, tmp_path):
    (tmp_path / "odd.ros").write_text(EMPIRE.with_suffix(".ros").read_text().replace(
        'name="Spirit Host" entryId', 'name="Knight\'s Errant (rear)" entryId', 1).replace(
        'name="War Altar of Sigmar" entryId', 'name="Altar: Sigmar" entryId', 1))
    await play(f"/army import file:{tmp_path / 'odd.ros'}")
    code, out = await play("""/shoot shots:3 bs:3 strength:4 troop:"Knight's Errant (rear)\"""")
    assert code == 0 and out["from_list"]["unit"] == "Knight's Errant (rear)", out
    code, out = await play('/shoot shots:3 bs:3 strength:4 troop:"Altar: Sigmar"')
    assert code == 0 and out["from_list"]["filled"]["toughness"] == 5
    assert (await play("""/army show unit:"Knight's Errant (rear)\""""))[0] == 0


async def test_target_and_the_option_that_takes_the_unit_given_together_say_so(play):
    await play(f"/army import file:{EMPIRE}")
    code, out = await play('/shoot shots:3 bs:3 strength:4 target:"Spirit Host" troop:monster')
    assert (code, out["error"]) == (2, "target: and troop: both name the target on /shoot (troop: takes a unit too): "
                                       "give one of them.")


def _roster(name: str, system: str, units: str) -> str:
    return (f'<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" name="{name}" gameSystemName="{system}">'
            f'<forces><force catalogueName="Test"><selections>{units}</selections></force></forces></roster>')


def _unit(name: str, chars: dict[str, str], number: int = 1) -> str:
    c = "".join(f'<characteristic name="{n}">{v}</characteristic>' for n, v in chars.items())
    return (f'<selection name="{name}" type="unit"><selections><selection name="{name}" type="model" number="{number}">'
            f'<profiles><profile name="{name}" typeName="Model"><characteristics>{c}</characteristics></profile></profiles>'
            '</selection></selections></selection>')


async def test_a_list_value_outside_an_options_bounds_is_refused_naming_the_list(play, tmp_path):
    """The player never typed it: the error says it came from the list and how to override it."""
    (tmp_path / "giants.ros").write_text(_roster("Giants", "Warhammer Fantasy 8th ed", _unit(
        "Colossus", {"T": "11", "W": "6", "Type": "Monster"}) + _unit("Horde", {"T": "3", "W": "1", "Type": "Infantry"}, 250)))
    await play(f"/army import file:{tmp_path / 'giants.ros'}")
    code, out = await play("/shoot shots:3 bs:3 strength:4 troop:Colossus")
    assert (code, out["error"]) == (2, "Colossus: Toughness 11 from the list is outside what this command takes (1 to 10): "
                                       "type toughness: instead.")
    assert (await play("/shoot shots:3 bs:3 strength:4 troop:Colossus toughness:10"))[0] == 0
    code, out = await play("/combat breath strength:3 troop:Horde")
    assert out["error"].startswith("Horde: number of models 250 from the list is outside what this command takes (1 to 200)")


async def test_a_warmaster_unit_without_hits_or_armour_is_asked_not_given_the_default(play, tmp_path):
    (tmp_path / "wm.ros").write_text(_roster("Odd", "Warmaster Revolution", _unit(
        "Goblins", {"Armour": "-", "Type": "Infantry", "Unit Size": "3"}) + _unit("Trolls", {"Hits": "3", "Type": "Infantry"})))
    await play(f"/army import file:{tmp_path / 'wm.ros'}")
    code, out = await play("/wm shoot attacks:5 troop:Goblins")
    assert (code, out["error"]) == (2, "Goblins: Goblins's profile gives no Hits: give hits: (e.g. hits:3).")
    code, out = await play("/wm shoot attacks:5 troop:Trolls")
    assert out["error"] == "Trolls: Trolls's profile gives no Armour: give armour: (e.g. armour:5)."
    code, out = await play("/wm shoot attacks:5 troop:Goblins hits:3")
    assert code == 0 and out["from_list"]["filled"] == {"armour": 0, "troop": "infantry", "stands": 3}


async def test_a_list_with_a_very_long_name_can_be_removed_by_its_autocompleted_name(play, tmp_path):
    (tmp_path / "long.ros").write_text(_roster("Waaagh " * 40, "Warhammer Fantasy 8th ed", _unit("Boyz", {"T": "4", "W": "1"})))
    code, out = await play(f"/army import file:{tmp_path / 'long.ros'}")
    name = out["army"]["name"]
    assert code == 0 and len(name) <= 100 and name.startswith("Waaagh Waaagh")
    code, out = await play(f'/army remove list:"{name}"')
    assert code == 0 and out["removed"] == name


async def test_the_autocomplete_labels_read_each_games_values_whatever_the_catalogue_calls_them(bot, play, tmp_path):
    (tmp_path / "seventh.ros").write_text(_roster("Seventh", "Warhammer Fantasy 7th ed", _unit(
        "Swordmasters", {"Toughness": "3", "Wounds": "1", "Save": "5+", "Type": "Infantry"}, 15)))
    for f in (tmp_path / "seventh.ros", WARMASTER):
        await play(f"/army import file:{f}")
    from cogs.common.target import lists_in_play, unit_choices

    lists = lists_in_play(bot.store, 200, 300, OFFLINE_USER_ID)
    assert [c.name for c in unit_choices(lists, "sword", game="fantasy")] == ["Swordmasters · T3 W1 Sv5+ · 15 models"]
    assert [c.name for c in unit_choices(lists, "knights", game="warmaster")] == ["Knights · Hits 3 Armour 4+ · 3 stands"]
