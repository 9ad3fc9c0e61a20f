"""``python bot.py verify`` needs only Python's standard library: run by an interpreter without
site-packages (``-S``) and with discord.py, numpy and sqlite-utils blocked, it checks an export,
prints its head and entry count, and fails one cut short against the posted head (``--head``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.engine.test_ledger import COMMANDS, SECRET, build_log

ROOT = Path(__file__).resolve().parents[2]
BLOCK = ("import runpy, sys; "
         "[sys.modules.__setitem__(m, None) for m in ('discord', 'numpy', 'sqlite_utils', 'PIL', 'sqlite3')]; "
         "sys.argv = ['bot.py'] + sys.argv[1:]; runpy.run_path('bot.py', run_name='__main__')")


def bare(*args: str) -> subprocess.CompletedProcess:
    """bot.py under `python -S` (no site-packages) with the bot's own dependencies blocked."""
    return subprocess.run([sys.executable, "-S", "-E", "-c", BLOCK, *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)


@pytest.fixture
def export_file(tmp_path):
    data = build_log(SECRET, COMMANDS)
    path = tmp_path / "roll-log.json"
    path.write_text(json.dumps(data, indent=1))
    return path, data


def test_nothing_but_the_standard_library_verifies_an_export(export_file):
    path, data = export_file
    done = bare("verify", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "OK: the chain is unbroken and the secret matches the commitment." in done.stdout
    assert f"Head hash {data['head']} after 5 entries" in done.stdout
    assert "bot-rolled dice are exactly what the secret gives" in done.stdout


def test_the_posted_head_catches_an_export_cut_short(export_file, tmp_path):
    path, data = export_file
    assert bare("verify", str(path), "--head", data["head"]).returncode == 0
    cut = dict(data, entries=data["entries"][:-2])
    short = tmp_path / "short.json"
    short.write_text(json.dumps(cut))
    alone = bare("verify", str(short))
    assert alone.returncode == 0  # on its own a shorter chain is whole...
    done = bare("verify", str(short), "--head", data["head"])
    assert done.returncode == 1  # ...but not the one the bot posted
    assert "not at the head posted in the channel" in done.stdout and "after 3 entries" in done.stdout


def test_a_version_2_export_checks_its_chain_and_says_its_dice_need_numpy(tmp_path):
    path = tmp_path / "v2.json"
    path.write_text(json.dumps(build_log(SECRET, COMMANDS, version=2)))
    done = bare("verify", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "numpy's PCG64, which is not installed here" in done.stdout
    # with numpy, the old code path checks them
    full = subprocess.run([sys.executable, "bot.py", "verify", str(path)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert full.returncode == 0 and "bot-rolled dice are exactly what the secret gives" in full.stdout


def test_the_verifier_module_runs_on_its_own(export_file):
    path, _ = export_file
    done = subprocess.run([sys.executable, "-S", "-E", "-m", "console.verify", str(path)], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_bad_head_or_file_is_one_line(export_file, tmp_path):
    path, _ = export_file
    done = bare("verify", str(path), "--head", "xyz")
    assert done.returncode == 1 and "'xyz', is not a SHA-256 hash" in done.stdout
    (tmp_path / "junk.json").write_text("[1, 2]")
    done = bare("verify", str(tmp_path / "junk.json"))
    assert done.returncode == 2 and "not a Bombardier roll log" in done.stdout and "Traceback" not in done.stderr
