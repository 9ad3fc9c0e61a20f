"""/rules and /help through the offline console's --json, and every /help example run for real."""

import pytest

from config.rules import help_page


async def test_rules_json_lists_entries_with_name_game_and_source(play):
    code, out = await play("/rules term:bounce")
    assert code == 0 and out["command"] == "rules" and out["system"] == "warhammer-fantasy"
    first = out["entries"][0]
    assert first == {"name": "Bounce", "game": "warhammer-fantasy", "source": "Warhammer Fantasy Battles, War Machines: Bounce",
                     "key": "warhammer-fantasy:bounce"}
    assert out["matched"] is True and out["dice"] == [] and out["image"] is None
    assert any(r["key"] == "warmaster:bounce" for r in out["related"])


async def test_rules_json_carries_the_profile_and_chart_from_the_game_data(play):
    code, out = await play('/rules term:"great cannon"')
    assert code == 0
    assert out["profile"] == {"title": "Great Cannon", "headings": ["Range", "Strength", "Special rules"],
                              "rows": [['12-60"', "10", "Multiple Wounds (D6)"]]}
    assert [r[0] for r in out["chart"]["rows"]] == ["1-2", "3-4", "5-6"]


async def test_rules_game_filter_and_question(play):
    code, out = await play('/rules term:"what happens when a cannon ball hits a monster"')
    assert out["entries"][0]["name"] == "Who's Been Hit? (Cannon)"
    code, out = await play("/rules term:glance game:40k")
    assert code == 0 and out["entries"][0]["name"] == "Glancing Hit Table" and out["system"] == "wh40k"


async def test_rules_with_no_match_suggests(play):
    code, out = await play("/rules term:xyzzy")
    assert code == 0 and out["matched"] is False and len(out["entries"]) >= 3


async def test_rules_bad_game_is_a_console_error(play):
    code, out = await play("/rules term:bounce game:chess")
    assert code == 2 and "not one of the choices" in out["error"]


async def test_help_json_names_every_command(play, bot):
    code, out = await play("/help")
    assert code == 0 and out["command"] == "help"
    assert sorted(c["name"] for c in out["commands"]) == sorted(c.name for c in bot.tree.get_commands())
    assert all(c["example"] for c in out["commands"])


@pytest.mark.parametrize("name, example", sorted(help_page().examples.items()))
async def test_every_help_example_runs_in_the_console(play, name, example):
    code, out = await play(example)
    assert code == 0, out
    assert out["command"].split()[0] == name


@pytest.mark.parametrize("game, term, first, unset", [
    ("warmaster", "cannon", "warmaster:cannon", "warhammer-fantasy:cannon"),
    ("warmaster", "grapeshot", "warmaster:grapeshot", "warhammer-fantasy:grapeshot"),
    ("40k", "explodes", "wh40k:penetrating-hit-table", "warhammer-fantasy:black-powder-misfire-chart"),
])
async def test_the_channels_default_game_ranks_first_through_the_console(play, game, term, first, unset):
    """The console's offline identity manages its server, so it can set the channel's game; each
    term matches well in two games, and the channel's game decides which comes first."""
    code, out = await play(f"/rules term:{term}")
    assert out["entries"][0]["key"] == unset  # nothing chosen yet: the search's own order
    code, out = await play(f"/settings game game:{game} scope:channel")
    assert code == 0 and out["settings"]["game"] == game
    code, out = await play(f"/rules term:{term}")
    assert code == 0 and out["entries"][0]["key"] == first and out["system"] == first.split(":")[0]
    assert any(e["key"] == unset for e in out["entries"] + out["related"])  # the other game's is still shown
    code, out = await play(f"/rules term:{term}", channel_id=301)  # another channel, nothing chosen
    assert out["entries"][0]["key"] == unset


async def test_warmaster_and_40k_tables_through_the_console(play):
    code, out = await play("/rules term:helblaster")
    assert out["profile"]["headings"][:3] == ["Range", "Attacks", "Armour"]
    assert out["chart"]["rows"] == [["up to 10 cm", "6"], ["over 10, up to 20 cm", "3"], ["over 20, up to 30 cm", "1"]]
    code, out = await play('/rules term:"moving and firing"')
    assert out["chart"]["headings"] == ["Vehicle", "Moves up to", "stationary", 'up to 6"', 'up to 12"', 'more than 12"']


async def test_the_game_option_takes_the_names_settings_uses(play):
    code, out = await play('/rules term:"killing blow" game:40k')
    assert code == 0 and out["matched"] is False and "Killing Blow (Warhammer Fantasy)" in out["summary"][0]
    code, out = await play("/rules term:cannon game:warmaster")
    assert code == 0 and out["entries"][0]["game"] == "warmaster"
    code, out = await play("/rules term:cannon game:fantasy")
    assert code == 0 and out["entries"][0]["game"] == "warhammer-fantasy"
