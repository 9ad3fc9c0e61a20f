"""The bot's main script imported once, by the picture workers' fork server (cogs/common/render_main.py,
issue 26): a program started as a script (``python bot.py``, what ``./bombardier`` runs) no longer
has every new worker import the whole script again before its first picture. A real script in a
child process, as an operator starts the bot (with an argument, which it reads as it is imported): it notes each process that imports it as
``__mp_main__``, starts two workers and has them draw; only the fork server imported it, and the
pictures are the ones drawn in-process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

SCRIPT = """
import os, sys
sys.path.insert(0, {root!r})
TAG = sys.argv[1]  # a script may read its arguments as it is imported (tests/e2e/shard_process.py does)
if __name__ == "__mp_main__":
    with open({log!r}, "a") as f:
        f.write(f"{{os.getpid()}}:{{TAG}}\\n")


def main():
    from cogs.common import render_pool
    from config.gamedata import fantasy
    from engine.dice import EnteredDice, RandomDice
    from engine.fantasy.cannon import fire_cannon
    from engine.fantasy.formation import TargetUnit
    from renders.fantasy.cannon import render_cannon

    data = fantasy()
    unit = TargetUnit(4, 5, data.troops["infantry"], 20, 20)
    shots = [fire_cannon(data.cannons["cannon"], data.misfire_charts["black-powder"], unit, d,
                         EnteredDice(f"@{{30 * k + 30}} 4 6", RandomDice(k))) for k, d in enumerate((18, 24, 30, 36))]
    assert render_pool.start(2) == 2
    drawn = [render_pool.draw(render_cannon, s) for s in shots]
    workers = len(render_pool.worker_pids())
    render_pool.stop()
    same = all(bytes(a) == bytes(b) and a.glance == b.glance for a, b in zip(drawn, map(render_cannon, shots)))
    print(os.getpid(), workers, render_pool.sent, same)


if __name__ == "__main__":
    main()
"""


def run_script(tmp_path: Path) -> tuple[list[str], list[str]]:
    log = tmp_path / "imported.txt"
    script = tmp_path / "bot_like.py"
    script.write_text(SCRIPT.format(root=str(ROOT), log=str(log)), encoding="utf-8")
    result = subprocess.run([sys.executable, str(script), "its-argument"], capture_output=True, text=True, timeout=120,
                            stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stderr
    imported = log.read_text().split() if log.exists() else []
    return result.stdout.split(), imported


def test_a_script_is_imported_once_by_the_fork_server_not_by_each_worker(tmp_path):
    (pid, workers, sent, same), imported = run_script(tmp_path)
    assert (workers, sent, same) == ("2", "4", "True")
    # the fork server, with the script's own arguments: neither the script's own process nor a worker
    assert len(imported) == 1 and imported[0].endswith(":its-argument") and imported[0] != f"{pid}:its-argument"


def test_the_fork_server_imports_the_main_script_first():
    from cogs.common import render_pool

    assert render_pool.PRELOAD[0] == "cogs.common.render_main"
