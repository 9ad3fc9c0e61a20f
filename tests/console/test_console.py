"""The offline console: `python bot.py play` and `python bot.py commands`, through --json."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from bot import create_bot
from console import offline as console
from config.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


async def test_json_carries_the_contract_fields_and_the_hits(play):
    code, result = await play('/fire cannon distance:30 ranks:4 files:5 dice:"H 4 8"')
    assert code == 0
    assert result["command"] == "fire cannon" and result["system"] == "warhammer-fantasy"
    assert result["misfire"] is None
    assert [d["face"] for d in result["dice"]] == ["H", "4", "8"]
    assert {d["by"] for d in result["dice"]} == {"player"}
    assert [(h["rank"], h["file"], h["kind"], h["strength"], h["wounds"]) for h in result["hits"]] == [
        (1, 3, "direct", 10, "D6"), (2, 3, "bounce", 10, "D3"), (3, 3, "bounce", 10, "D3"), (4, 3, "bounce", 10, "D3"),
    ]
    assert result["summary"][0].startswith("Direct hit on the marker")
    assert Image.open(result["image"]).format == "PNG"


async def test_json_misfire_awaiting_the_players_chart_roll(play):
    code, result = await play('/fire cannon distance:30 dice:"H M"')
    assert code == 0
    assert result["misfire"] == {"roll": None, "result": "awaiting roll"}
    assert [d["purpose"] for d in result["dice"]] == ["scatter", "scatter distance"]
    assert "waits for your D6" in result["summary"][0]


async def test_json_misfire_object(play):
    code, result = await play("/fire great-cannon distance:20 dice:H,M,1")
    assert code == 0
    assert result["misfire"] == {"roll": 1, "result": "destroyed"}
    assert result["hits"] == []


async def test_a_profile_makes_the_bot_roll_the_wounds(play):
    code, result = await play('/fire cannon distance:24 troop:monster ranks:1 files:1 toughness:6 wounds:6 save:4 dice:"H 6 4 2 4"')
    assert code == 0
    # S10 against T6 wounds on 2+, a 4+ save is gone (10-3 = -7); D6 wounds: 4 of 6, it survives.
    (hit,) = result["hits"]
    assert (hit["kind"], hit["wounds"], hit["slain"]) == ("direct", 4, False)
    assert [d["purpose"] for d in result["dice"]] == [
        "scatter", "scatter distance", "bounce", "to wound rank 1 file 1", "Multiple Wounds (D6) rank 1 file 1",
    ]


async def test_a_monster_that_survives_is_named_as_the_stopper_and_the_bounce_flags_are_explicit(play):
    code, result = await play('/fire cannon distance:30 troop:monstrous-infantry ranks:3 files:3 toughness:4 wounds:3 save:4 dice:"H 4 10 6 2"')
    assert code == 0
    assert result["stopped_by"] == {"rank": 1, "file": 2}
    assert (result["bounce"], result["bounce_misfire"]) == (10.0, False)
    assert "stops the ball where it lands" in " ".join(result["summary"])
    code, result = await play('/fire cannon distance:30 dice:"H 4 M"')
    assert (result["bounce"], result["bounce_misfire"], result["stopped_by"]) == (0.0, True, None)


async def test_curly_quotes_from_a_phone_read_as_straight_ones(play):
    code, result = await play("/fire cannon distance:30 dice:\u201cH 4 8\u201d")
    assert code == 0 and [d["face"] for d in result["dice"]] == ["H", "4", "8"]


async def test_without_a_profile_the_reply_says_s10_leaves_no_armour_save(bot):
    out = io.StringIO()
    assert await console.run_line(bot, '/fire cannon distance:30 dice:"H 4 8"', as_json=False, out=out) == 0
    assert "roll to wound at S10 (no armour save is possible), then ward saves" in out.getvalue()


async def test_bot_dice_are_marked_and_a_seed_replays_them(tmp_path, play):
    results = []
    for i in range(2):  # a fresh data folder each: the roll log's secret comes from the seed too
        bot = create_bot(Settings(data_dir=tmp_path / str(i), sync_commands=False, dice_seed=42))
        await bot.load_cogs()
        code, out = await play("/fire cannon distance:30", on=bot)
        results.append((code, out["dice"], out["summary"], out["log"]["roll"], out["log"]["commitment"]))
    assert results[0] == results[1]
    assert {d["by"] for d in results[0][1]} == {"bot"}


@pytest.mark.parametrize(
    "line, message",
    [
        ("/fire cannon distance:70", "distance: 70 is out of bounds: give 12 to 48."),
        ("/fire cannon", "/fire cannon needs distance."),
        ("/fire canon distance:30", "There is no command /fire canon. Did you mean /fire cannon"),
        ("/fire cannon distance:30 rank:3", "has no option 'rank'. Did you mean ranks?"),
        ("/fire cannon distance:thirty", "distance: 'thirty' is not a number."),
        ("/fire cannon distance:30 ranks:0", "ranks: 0 is out of bounds: give 1 to 20."),
        ("/fire cannon distance:30 files:500", "files: 500 is out of bounds: give 1 to 30."),
        ("/fire cannon distance:30 facing:sideways", "facing: 'sideways' is not one of the choices: front, flank, rear."),
        ('/fire cannon distance:30 dice:"H 5"', "'5' (die 2) does not fit the artillery die rolled for scatter distance; faces that fit: 2, 4, 6, 8, 10 or M"),
        ("/fire cannon distance:30 dice:'H", "Cannot read that line"),
        ("/fire cannon distance:30 aim_rank:6", "Aim rank 6 is not in the unit: it has 4 ranks."),
        ("/fire", "/fire needs one of: bolt-thrower, cannon, fire-thrower, grapeshot, great-cannon, stone-thrower"),
        ("/fire cannon distance = 30", "'distance' is not an option: write options as name:value with a colon, e.g. distance:VALUE."),
        ("/fire cannon distance:30 troop:infantary", "Did you mean infantry?"),
        ("/fire cannon distance:nan", "distance: 'nan' is not a number."),
        ("/fire cannon distance:30 ranks:1_0", "ranks: '1_0' is not a whole number."),
        ("/fire cannon distance:", "distance: give a value after the colon."),
    ],
)
async def test_mistakes_print_an_error_object_and_exit_2(line, message, play):
    code, result = await play(line)
    assert code == 2
    assert list(result) == ["error"]
    assert message in result["error"]


def run_cli(*args: str, tmp_path) -> subprocess.CompletedProcess:
    env = {**os.environ, "BOMBARDIER_DATA": str(tmp_path)}
    env.pop("DISCORD_TOKEN", None)
    return subprocess.run([sys.executable, str(ROOT / "bot.py"), *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)


def test_one_shot_from_the_command_line_and_its_exit_codes(tmp_path):
    ok = run_cli("play", "--json", "--seed", "5", '/fire cannon distance:30 dice:"@180 10 6"', tmp_path=tmp_path)
    assert ok.returncode == 0, ok.stderr
    result = json.loads(ok.stdout)
    assert result["landing"] == {"x": 0.0, "y": 25.0}  # 5" straight back toward the cannon: short
    bad = run_cli("play", "--json", "/fire cannon distance:5", tmp_path=tmp_path)
    assert bad.returncode == 2 and json.loads(bad.stdout) == {"error": "distance: 5 is out of bounds: give 12 to 48."}
    text = run_cli("play", "/fire cannon distance:5", tmp_path=tmp_path)
    assert text.returncode == 2 and text.stdout.strip() == "distance: 5 is out of bounds: give 12 to 48."
    assert "Traceback" not in bad.stderr + text.stderr


def test_text_output_shows_the_embed_and_the_picture_path(tmp_path):
    done = run_cli("play", '/fire cannon distance:30 dice:"H 4 8"', tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Direct hit on the marker, bounced 8\": 4 models hit." in done.stdout
    picture = done.stdout.strip().splitlines()[-1]
    assert picture.startswith("Picture: ") and Path(picture.removeprefix("Picture: ")).exists()


def test_an_unusable_data_folder_is_one_line_and_exit_2(tmp_path):
    blocker = tmp_path / "afile"
    blocker.write_text("not a folder")
    done = run_cli("play", "/fire cannon distance:30", tmp_path=blocker)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().startswith(f"The data folder {blocker} cannot be used")


def test_commands_json_lists_every_command_with_its_options(tmp_path):
    done = run_cli("commands", "--json", tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    tree = {c["name"]: c for c in json.loads(done.stdout)}
    cannon = tree["fire cannon"]
    options = {o["name"]: o for o in cannon["options"]}
    assert options["distance"] | {"description": None} == {
        "name": "distance", "description": None, "type": "number", "required": True, "choices": [], "min_value": 12, "max_value": 48,
        "autocomplete": False,
    }
    assert options["troop"]["autocomplete"] is True
    assert [c["value"] for c in options["facing"]["choices"]] == ["front", "flank", "rear"]
    assert [c["value"] for c in options["base"]["choices"]] == [20, 25, 40, 50, 60]
    assert options["dice"]["type"] == "string" and not options["dice"]["required"]
    assert tree["fire great-cannon"]["options"][0]["max_value"] == 60


def test_the_prompt_runs_commands_until_quit(tmp_path):
    env = {**os.environ, "BOMBARDIER_DATA": str(tmp_path)}
    env.pop("DISCORD_TOKEN", None)
    done = subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), "play", "--json"], input='/fire cannon distance:30 dice:"H 4 8"\n/fire cannon\nquit\n',
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=60,
    )
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert json.loads(lines[0])["command"] == "fire cannon"
    assert '{"error": "/fire cannon needs distance."}' in done.stdout
