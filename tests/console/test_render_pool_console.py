"""Pictures drawn in worker processes (cogs/common/render_pool.py) are the same PNG bytes as drawn
in-process, for every picture the bot draws (issue 26): the same commands run through two bots with
the same seed, one drawing in-process (as the console does), one in a pool of worker processes."""

from __future__ import annotations

import io
import json

import pytest

from bot import create_bot
from cogs.common import render_pool
from config.settings import Settings
from console import offline as console

LINES = [
    '/fire cannon distance:30 ranks:5 files:10 toughness:3 dice:"@30 4 10"',
    "/fire great-cannon distance:30 ranks:4 files:5",
    "/fire stone-thrower distance:30 ranks:5 files:6 toughness:3",
    "/fire bolt-thrower distance:20 ranks:4 files:5 bs:3",
    "/fire fire-thrower distance:8 ranks:4 files:5",
    "/wm cannon distance:30",
    "/wm bone-thrower distance:30",
    "/siege artillery weapon:bombard distance:30",
    "/40k ordnance distance:30 strength:8 models:5",
    '/odds shot:"fire cannon distance:30 ranks:5 files:6 toughness:3"',
    "/battle start",
    "/battle status",
]


async def pictures(tmp_path, name: str) -> dict[str, bytes]:
    bot = create_bot(Settings(data_dir=tmp_path / name, sync_commands=False, dice_seed=3))
    await bot.load_cogs()
    drawn: dict[str, bytes] = {}
    try:
        for line in LINES:
            out = io.StringIO()
            code = await console.run_line(bot, line, as_json=True, out=out)
            answer = json.loads(out.getvalue())
            assert code == 0, (line, answer)
            for key in ("image", "glance_image"):  # the picture, and the glance picture it carries
                if answer.get(key):
                    with open(answer[key], "rb") as f:
                        drawn[f"{line} {key}"] = f.read()
    finally:
        await bot.close()
    return drawn


@pytest.fixture
def pool():
    render_pool.stop()
    assert render_pool.start(2) == 2
    yield
    render_pool.stop()


async def test_every_picture_drawn_in_a_worker_process_is_the_same_bytes_as_in_process(tmp_path, pool):
    before = render_pool.sent
    elsewhere = await pictures(tmp_path, "pool")
    sent = render_pool.sent - before
    render_pool.stop()
    here = await pictures(tmp_path, "here")
    assert render_pool.sent - before == sent  # the second run drew nothing in a worker
    assert set(elsewhere) == set(here) and sum(k.endswith(" image") for k in here) >= 8, sorted(here)
    assert sent >= sum(k.endswith(" image") for k in here)  # every picture of the first run went to a worker process
    for line in here:
        assert elsewhere[line] == here[line], line


def test_only_pictures_go_to_the_workers(pool):
    def not_a_picture(x):
        return x + 1

    assert render_pool.elsewhere(not_a_picture) is not_a_picture
    from renders.odds.picture import render_odds

    assert render_pool.elsewhere(render_odds) is not render_odds


def test_without_a_pool_pictures_are_drawn_where_they_are_sent():
    render_pool.stop()
    from renders.odds.picture import render_odds

    assert render_pool.elsewhere(render_odds) is render_odds
    assert not render_pool.running()


def test_the_number_of_workers_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv(render_pool.ENV, "0")
    assert render_pool.default_workers() == 0
    monkeypatch.setenv(render_pool.ENV, "3")
    assert render_pool.default_workers() == 3
    monkeypatch.setenv(render_pool.ENV, "many")
    assert render_pool.default_workers() == 0
    monkeypatch.delenv(render_pool.ENV)
    assert 1 <= render_pool.default_workers() <= 4


def test_a_worker_killed_mid_run_costs_no_picture(pool):
    """A worker that dies (killed, out of memory): the picture it had is drawn in-process and another
    worker takes its place for the next."""
    import os
    import signal
    import time

    from renders.odds.picture import OddsPicture, render_odds

    picture = OddsPicture("Odds: /roll expression:2d6", "exact", "Total", (("7", 1 / 6, None), ("8", 5 / 36, None)))
    here = render_odds(picture)
    assert render_pool.draw(render_odds, picture) == here  # a worker is up
    for _ in range(600):  # both started (in the background): both are killed
        if len(render_pool.worker_pids()) == 2:
            break
        time.sleep(0.05)
    killed = render_pool.worker_pids()
    assert len(killed) == 2
    for pid in killed:
        os.kill(pid, signal.SIGKILL)
    sent = render_pool.sent
    assert render_pool.draw(render_odds, picture) == here
    assert render_pool.draw(render_odds, picture) == here  # both dead workers found, each picture drawn here
    assert render_pool.running() and render_pool.sent == sent + 2
    assert render_pool.draw(render_odds, picture) == here  # by a worker started in their place
    assert not set(render_pool.worker_pids()) & set(killed)


def test_a_pictures_own_error_comes_back_and_the_worker_stays(pool):
    from renders.odds.picture import render_odds

    with pytest.raises(AttributeError):
        render_pool.draw(render_odds, "not a picture record")
    from renders.odds.picture import OddsPicture

    picture = OddsPicture("Odds: /roll expression:2d6", "exact", "Total", (("7", 1 / 6, None),))
    assert render_pool.draw(render_odds, picture) == render_odds(picture)
    assert render_pool.running()


def waits_for(path: str, value: int) -> tuple[int, int]:
    """A stand-in "picture" for the tests below, run in a worker: it waits until `path` exists (the test
    lets it go), then answers with its worker's pid and `value`."""
    import os
    import time

    for _ in range(3000):  # 30 s at most: a test that never lets it go fails rather than hangs
        if os.path.exists(path):
            break
        time.sleep(0.01)
    return os.getpid(), value


def test_a_worker_holds_its_next_picture_in_its_pipe_and_each_thread_gets_its_own_answer(tmp_path):
    """Issue 26: a worker is handed its next picture while it draws one (DEPTH in hand at most); the
    answers come back in the order the records went in, each to the thread that sent it; a thread
    finding every place taken waits for one."""
    import threading
    import time

    render_pool.stop()
    assert render_pool.start(1) == 1
    try:
        gate = str(tmp_path / "go")
        answers: dict[int, tuple[int, int]] = {}

        def ask(value: int) -> None:
            answers[value] = render_pool.draw(waits_for, gate, value)

        threads = [threading.Thread(target=ask, args=(v,)) for v in range(render_pool.DEPTH + 3)]
        for t in threads:
            t.start()
        pool = render_pool._pool
        for _ in range(3000):  # until the worker has started and holds all the places it may
            with render_pool._lock:
                held = [w.busy for w in pool.workers]
            if held == [render_pool.DEPTH]:
                break
            time.sleep(0.01)
        assert held == [render_pool.DEPTH]  # the rest wait for a place, not in the pipe
        open(gate, "w").close()
        for t in threads:
            t.join(60)
        pids = {pid for pid, _ in answers.values()}
        assert sorted(answers) == list(range(render_pool.DEPTH + 3))
        assert all(value == v for v, (_, value) in answers.items())  # each its own answer
        assert pids == set(render_pool.worker_pids()) and len(pids) == 1
        with render_pool._lock:
            assert [w.busy for w in pool.workers] == [0]
    finally:
        render_pool.stop()


def test_a_worker_killed_with_pictures_in_its_pipe_costs_none_of_them(tmp_path):
    """Both pictures a worker held when it died are drawn in-process; it is counted dead once and
    replaced once."""
    import os
    import signal
    import threading
    import time

    render_pool.stop()
    assert render_pool.start(1) == 1
    try:
        gate = str(tmp_path / "go")  # opened only once the worker is dead: it is killed holding both
        answers: dict[int, tuple[int, int]] = {}

        def ask(value: int) -> None:
            answers[value] = render_pool.draw(waits_for, gate, value)

        threads = [threading.Thread(target=ask, args=(v,)) for v in range(render_pool.DEPTH)]
        for t in threads:
            t.start()
        pool = render_pool._pool
        for _ in range(3000):
            with render_pool._lock:
                held = [w.busy for w in pool.workers]
            if held == [render_pool.DEPTH]:
                break
            time.sleep(0.01)
        assert held == [render_pool.DEPTH]
        (victim,) = render_pool.worker_pids()
        os.kill(victim, signal.SIGKILL)  # dead before the gate opens: it answers neither
        open(gate, "w").close()  # drawn in-process now, these answer at once
        for t in threads:
            t.join(60)
        assert sorted(answers) == list(range(render_pool.DEPTH))
        assert {pid for pid, _ in answers.values()} == {os.getpid()}  # both drawn here
        assert pool.deaths == 1
        for _ in range(3000):  # one worker started in its place
            if render_pool.worker_pids():
                break
            time.sleep(0.01)
        assert len(render_pool.worker_pids()) == 1 and victim not in render_pool.worker_pids()
    finally:
        render_pool.stop()


def test_a_thread_waiting_for_the_first_worker_to_start_says_how_long(tmp_path):
    """The wait for the pool's start is counted in the waiting thread (render_pool.start_wait), so the
    work lane can leave it out of the pictures' service time; a picture drawn once workers run adds
    nothing to it."""
    import threading

    from renders.odds.picture import OddsPicture, render_odds

    picture = OddsPicture("Odds: /roll expression:2d6", "exact", "Total", (("7", 1 / 6, None),))
    render_pool.stop()
    gate = threading.Event()
    started = render_pool._Pool._add

    def held_add(self, count):  # the workers start only once the test lets them
        gate.wait(30)
        started(self, count)

    render_pool._Pool._add = held_add
    try:
        assert render_pool.start(1) == 1
        waited: list[float] = []

        def first():
            render_pool.start_wait()
            assert render_pool.draw(render_odds, picture) == render_odds(picture)
            waited.append(render_pool.start_wait())

        t = threading.Thread(target=first)
        t.start()
        for _ in range(3000):  # until the thread waits for a worker
            with render_pool._lock:
                if render_pool._pool is not None and render_pool._pool._place._waiters:
                    break
            threading.Event().wait(0.01)
        gate.set()
        t.join(60)
        assert waited and waited[0] > 0
        render_pool.start_wait()
        assert render_pool.draw(render_odds, picture) == render_odds(picture)
        assert render_pool.start_wait() == 0.0  # workers running: no start to wait for
    finally:
        render_pool._Pool._add = started
        render_pool.stop()
