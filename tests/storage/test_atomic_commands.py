"""One command, one transaction (issue 19, part 3): /battle start, /battle end and /fire ... machine:
commit all of their changes or none, under a crash injected at every step boundary and under SIGKILL
in a loop.

- /battle start: the battle starts and its roll log chain is opened (the secret committed to).
- /battle end: the battle ends, its roll log chain is opened (if it never was) and revealed.
- /fire ... machine:: the machine's new state and the shot are recorded, and the roll is appended
  to the log (cogs/common/ledger.py runs Reply.commit_with_log inside the append's transaction).
- A battle ended without its reveal (a crash before this fix) is revealed later by the GM.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.dice import DieKind
from engine.ledger import verify
from storage import campaigns as c
from storage import roll_log
from storage.campaigns import CampaignError, Effect
from storage.migrations import open_store

ROOT = Path(__file__).resolve().parents[2]
G = 11
SECRETS = iter(bytes([n % 256]) * 32 for n in range(1, 10**6))


def new_secret() -> bytes:
    return next(SECRETS)


class Crash(Exception):
    """Stands for the process dying at that point."""


@contextlib.contextmanager
def crashing_after(monkeypatch, module, step: str):
    """Inside, `module.step` does its work and then the process "dies" (Crash); the block must
    raise it. Afterwards the step is itself again."""
    real = getattr(module, step)

    def crash_after(*args, **kwargs):
        real(*args, **kwargs)
        raise Crash(step)

    monkeypatch.setattr(module, step, crash_after)
    with pytest.raises(Crash):
        yield
    monkeypatch.setattr(module, step, real)


@pytest.fixture
def store(database):
    with open_store(database) as s:
        yield s


def roll_into(store, chain: str, n: int = 1) -> None:
    for _ in range(n):
        slot = roll_log.next_roll(store, chain, new_secret)
        die = slot.dice.roll(DieKind.D6, "test")
        roll_log.append(store, slot, user="1", command="roll", options={}, dice=(die,), summary=("x",))


@pytest.mark.parametrize("step", ["start_battle", "open_chain"])
def test_a_crash_at_any_step_of_battle_start_leaves_no_battle(store, monkeypatch, step):
    with crashing_after(monkeypatch, c if step == "start_battle" else roll_log, step):
        c.start_battle_logged(store, G, 5, new_secret, by=1)
    assert c.current_battle(store, G, 5) is None, "a battle started without its committed log"
    assert store.read("SELECT COUNT(*) AS n FROM roll_chains WHERE chain LIKE 'battle:%'")[0]["n"] == 0
    b, chain = c.start_battle_logged(store, G, 5, new_secret, by=1)
    assert chain.chain == roll_log.battle_chain(b.id)
    assert roll_log.current_chain(store, chain.chain).commitment == chain.commitment


@pytest.mark.parametrize("step", ["end_battle", "open_chain", "reveal"])
def test_a_crash_at_any_step_of_battle_end_leaves_the_battle_in_progress_and_sealed(store, monkeypatch, step):
    b = c.start_battle(store, G, 5, by=1)
    roll_log.open_chain(store, roll_log.battle_chain(b.id), new_secret)
    roll_into(store, roll_log.battle_chain(b.id), 2)
    with crashing_after(monkeypatch, c if step == "end_battle" else roll_log, step):
        c.end_battle_revealed(store, G, 5, new_secret)
    assert c.current_battle(store, G, 5) is not None, "the battle ended without its reveal"
    assert roll_log.export_log(store, roll_log.battle_chain(b.id))["secret"] is None
    ended, revealed = c.end_battle_revealed(store, G, 5, new_secret)
    assert ended.ended_at is not None and verify(revealed.export).ok and len(revealed.export["entries"]) == 2


def test_a_crash_between_the_shot_and_its_log_entry_keeps_neither(store):
    b = c.start_battle(store, G, 5, by=1)
    m = c.add_machine(store, G, name="Old Betsy", kind="cannon", game="fantasy", crew=3, owner_id=1, by=1)
    slot = roll_log.next_roll(store, roll_log.battle_chain(b.id), new_secret)
    with pytest.raises(Crash), store.transaction():  # what ledger.record does, with a crash before the append
        c.record_shot(store, G, b.id, m.id, user_id=1, kind="cannon", fired=False, hits=0, outcome="Misfire",
                      effect=Effect(destroyed=True, reason="Destroyed"))
        raise Crash("append")
    assert c.get_machine(store, G, "Old Betsy").state == "ok"
    assert c.battle_shots(store, G, b.id) == []
    assert roll_log.export_log(store, slot.chain.chain)["entries"] == []


def test_a_battle_that_missed_its_reveal_is_revealed_later(store):
    b = c.start_battle(store, G, 5, by=1)
    roll_log.open_chain(store, roll_log.battle_chain(b.id), new_secret)
    roll_into(store, roll_log.battle_chain(b.id), 3)
    c.end_battle(store, G, 5)  # as /battle end did before it was one transaction, then a crash
    assert [x.id for x in c.unrevealed_battles(store, G, 5)] == [b.id]
    with pytest.raises(CampaignError, match="Battle 99 has its roll log revealed already"):
        c.reveal_ended_battle(store, G, 5, 99, new_secret)
    battle, revealed = c.reveal_ended_battle(store, G, 5, None, new_secret)
    assert battle.id == b.id and verify(revealed.export).ok and len(revealed.export["entries"]) == 3
    assert c.unrevealed_battles(store, G, 5) == []
    with pytest.raises(CampaignError, match="Every ended battle in this channel has its roll log revealed"):
        c.reveal_ended_battle(store, G, 5, None, new_secret)


ENDER = """
import itertools, os, sys
sys.path.insert(0, sys.argv[1])
from engine.dice import DieKind
from storage import campaigns as c, roll_log
from storage.migrations import open_store
s = open_store(sys.argv[2])
secret = lambda: os.urandom(32)
print("ready", flush=True)
for n in itertools.count():
    if c.current_battle(s, 11, 5) is not None:  # left in progress by the last kill: end it, as a GM would
        c.end_battle_revealed(s, 11, 5, secret)
    b = c.start_battle(s, 11, 5, by=1)
    chain = roll_log.battle_chain(b.id)
    roll_log.open_chain(s, chain, secret)
    slot = roll_log.next_roll(s, chain, secret)
    roll_log.append(s, slot, user="1", command="roll", options={}, dice=(slot.dice.roll(DieKind.D6, "t"),), summary=("x",))
    c.end_battle_revealed(s, 11, 5, secret)
"""

SHOOTER = """
import itertools, os, sys
sys.path.insert(0, sys.argv[1])
from engine.dice import DieKind
from storage import campaigns as c, roll_log
from storage.campaigns import Effect
from storage.migrations import open_store
s = open_store(sys.argv[2])
b = c.battle_here(s, 11, 5)
m = c.get_machine(s, 11, "Old Betsy")
print("ready", flush=True)
for n in itertools.count():
    slot = roll_log.next_roll(s, roll_log.battle_chain(b.id), lambda: os.urandom(32))
    die = slot.dice.roll(DieKind.D6, "t")
    with s.transaction():  # as cogs/common/ledger.py appends a roster shot's entry
        c.record_shot(s, 11, b.id, m.id, user_id=1, kind="cannon", fired=True, hits=n, outcome="x", effect=Effect())
        roll_log.append(s, slot, user="1", command="fire cannon", options={"machine": "Old Betsy"}, dice=(die,),
                        summary=("x",))
"""


ZYGOTE = """
import os, sys, traceback
sys.path.insert(0, sys.argv[1])
from engine.dice import DieKind  # what the scripts import, imported once: each round is a fork of this
from storage import campaigns, roll_log
from storage.campaigns import Effect
from storage.migrations import open_store
try:
    import psycopg, psycopg_pool
except ImportError:
    pass
script = compile(sys.argv[3], "<script>", "exec")
for line in sys.stdin:
    pid = os.fork()
    if pid == 0:  # the process that is killed: it opens the store itself, as a fresh one would
        try:
            exec(script, {"__name__": "__main__"})
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(1)
    print(pid, flush=True)
    os.waitpid(pid, 0)
    print("gone", flush=True)
"""


def kill_loop(script: str, path: Path, rounds: int) -> None:
    """Start `script` on the store at `path`, let it run a random moment, SIGKILL it; `rounds` times.
    Each run is a process forked from one that has imported the bot's modules already (a fresh
    interpreter's start-up, half a second, was most of the loop's time); it opens the store itself."""
    rng = random.Random(19)
    zygote = subprocess.Popen([sys.executable, "-c", ZYGOTE, str(ROOT), str(path), script],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        for _ in range(rounds):
            zygote.stdin.write("go\n")
            zygote.stdin.flush()
            said = [zygote.stdout.readline().strip() for _ in range(2)]  # its pid and its "ready", in either order
            assert "ready" in said, f"the script did not get ready: {said}"
            (pid,) = (int(line) for line in said if line != "ready")
            time.sleep(rng.uniform(0.02, 0.25))
            os.kill(pid, signal.SIGKILL)
            assert zygote.stdout.readline().strip() == "gone"
    finally:
        zygote.kill()
        zygote.wait(10)


def test_battle_end_killed_in_a_loop_never_leaves_an_ended_battle_unrevealed(database):
    path = database
    open_store(path).close()
    kill_loop(ENDER, path, 12)
    with open_store(path) as s:
        ended = s.read("SELECT id FROM battles WHERE ended_at IS NOT NULL")
        assert ended, "no battle ended: the loop ran too briefly to test anything"
        assert c.unrevealed_battles(s, G, 5) == []
        for row in ended:
            data = roll_log.export_log(s, roll_log.battle_chain(row["id"]))
            assert data["secret"] is not None and verify(data).ok
        live = c.current_battle(s, G, 5)
        if live is not None:  # killed mid-battle: its log (if opened yet) sealed; /battle end finishes it
            data = roll_log.export_log(s, roll_log.battle_chain(live.id))
            assert data is None or data["secret"] is None
        if s.backend == "sqlite":
            assert s.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


STARTER = """
import itertools, os, sys
sys.path.insert(0, sys.argv[1])
from storage import campaigns as c
from storage.migrations import open_store
s = open_store(sys.argv[2])
secret = lambda: os.urandom(32)
print("ready", flush=True)
for n in itertools.count():
    if c.current_battle(s, 11, 5) is not None:
        c.end_battle_revealed(s, 11, 5, secret)
    c.start_battle_logged(s, 11, 5, secret, by=1)
"""


def test_battle_start_killed_in_a_loop_never_leaves_a_battle_without_its_commitment(database):
    path = database
    open_store(path).close()
    kill_loop(STARTER, path, 10)
    with open_store(path) as s:
        battles = s.read("SELECT id FROM battles")
        assert battles, "no battle started: the loop ran too briefly to test anything"
        for row in battles:
            assert roll_log.current_chain(s, roll_log.battle_chain(row["id"])) is not None, row
        if s.backend == "sqlite":
            assert s.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_roster_shots_killed_in_a_loop_always_have_their_log_entry(database):
    path = database
    with open_store(path) as s:
        b = c.start_battle(s, G, 5, by=1)
        c.add_machine(s, G, name="Old Betsy", kind="cannon", game="fantasy", crew=3, owner_id=1, by=1)
    kill_loop(SHOOTER, path, 10)
    with open_store(path) as s:
        shots = c.battle_shots(s, G, b.id)
        entries = roll_log.export_log(s, roll_log.battle_chain(b.id))["entries"]
        assert shots, "no shot was recorded: the loop ran too briefly to test anything"
        assert len(shots) == len(entries)
        if s.backend == "sqlite":
            assert s.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
