"""Issue 30, item 5: the small things that confused a new player, each with its test."""

import pytest


@pytest.mark.parametrize("line, example", [("/fire bolt-thrower distance:20", "/fire bolt-thrower distance:20 bs:3"),
                                           ("/fire grapeshot distance:5", "/fire grapeshot distance:6 bs:3")])
async def test_bs_is_asked_for_with_an_example_line(play, line, example):
    code, out = await play(line)
    assert code == 2 and "needs bs" in out["error"] and example in out["error"]
    code, out = await play(example)  # and the example works
    assert code == 0


async def test_bs_is_described_as_needed(bot):
    fire = bot.tree.get_command("fire")
    for name in ("bolt-thrower", "grapeshot"):
        bs = next(p for p in fire.get_command(name).parameters if p.name == "bs")
        assert "needed" in bs.description and "e.g." in bs.description


async def test_no_more_under_the_template_without_a_model_under_the_hole(play):
    code, out = await play('/fire stone-thrower distance:30 ranks:4 files:5 dice:"@0 4"')
    title = out["glance"]["title"]
    assert code == 0 and "more under the template" not in title and "under the template, none under the hole" in title


async def test_a_krak_grenade_is_no_shot_and_no_effect_is_said_once(play):
    code, out = await play('/40k penetrate strength:6 armour:13 weapon:krak dice:"2"')
    title = out["glance"]["title"]
    assert code == 0 and "shot" not in title and title == "The krak grenade bounces off: no effect."
    code, out = await play('/40k penetrate strength:4 armour:13 dice:"2"')
    assert out["glance"]["title"].lower().count("no effect") == 1


async def test_combat_result_lines_name_their_side(play):
    code, out = await play('/combat result wounds:2 enemy_wounds:3 ranks:2 enemy_ranks:1 standard:true leadership:7 dice:"3 4"')
    lines = out["glance"]["lines"]
    assert code == 0
    assert any(line.startswith("Attacker: wounds caused +2") for line in lines)
    assert any(line.startswith("Defender: wounds caused +3") for line in lines)
    assert not any(line.startswith("Break test: Break test") for line in lines)


async def test_a_halved_strength_reaches_the_glance(play):
    code, out = await play('/40k ordnance distance:24 strength:8 armour:"12 11 10" dice:"@90 4 3"')
    assert code == 0 and any("S8 halved" in line for line in out["glance"]["lines"])


async def test_battle_end_counts_only_the_sections_rolled_at_during_the_battle(play):
    await play('/siege structure kind:wall section:"old wall" hits:2 dice:"3 4"')  # before the battle
    await play("/battle start")
    code, out = await play("/battle end")
    assert code == 0 and not any("Fortifications" in line for line in out["glance"]["lines"])
    await play("/battle start")
    await play('/siege structure kind:gateway section:gate hits:2 dice:"1 2"')  # during it
    code, out = await play("/battle end")
    lines = [line for line in out["glance"]["lines"] if "Fortifications" in line]
    assert lines == ["Fortifications breached: 0 of 1"]


async def test_the_battle_report_names_the_channel_not_its_number(play):
    from pathlib import Path

    await play("/battle start")
    code, out = await play("/battle end")
    report = Path(next(f for f in out["files"] if f.endswith(".md"))).read_text(encoding="utf-8")
    assert "- Channel: #console" in report and "- Channel: 300" not in report


async def test_a_cannons_halved_scatter_is_in_the_glance(play):
    code, out = await play('/fire cannon distance:30 ranks:4 files:5 dice:"@330 4 8"')
    assert code == 0 and out["glance"]["title"].startswith('Scattered 2" (half the 4), bounced 8"')
