"""Issue 26: a command defers only when its answer is expected to come too late (cogs/common/work.py).

Deterministic: the lanes here take a clock the test moves by hand (the jobs "take" what the test
says they take), and the service times are entered, so no assertion depends on this machine's
speed; where the work must not end before a defer, it waits for the defer itself."""

from __future__ import annotations

import asyncio
import threading
from unittest.mock import AsyncMock, MagicMock

import pytest

from cogs.common import replies, work


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Who:
    def __init__(self, user: int, guild: int = 7) -> None:
        self.user = type("U", (), {"id": user})()
        self.guild_id = guild
        self.command = None


def test_service_times_start_from_the_prior_then_follow_a_moving_average():
    times = work.ServiceTimes(prior=0.1, weight=0.5)
    assert times.expected("picture") == 0.1
    times.observe("picture", 0.02)
    assert times.expected("picture") == pytest.approx(0.02)  # the first measurement replaces the prior
    times.observe("picture", 0.04)
    assert times.expected("picture") == pytest.approx(0.03)
    assert times.expected("engine") == 0.1  # kinds apart
    times.clear()
    assert times.expected("picture") == 0.1


def test_the_kind_of_a_job_is_its_code_never_its_arguments():
    import functools

    from renders.fantasy.cannon import render_cannon

    assert work.kind_of(render_cannon) == "renders.fantasy.cannon.render_cannon"
    assert work.kind_of(functools.partial(render_cannon, "anything")) == "renders.fantasy.cannon.render_cannon"
    assert work.kind_of(lambda: 1).startswith(__name__ + ".")


async def test_a_job_is_timed_in_its_thread_and_its_kind_learns_it():
    clock = Clock()
    lane = work.FairLane(1, member_running=1, server_running=1, name="test-timed", clock=clock)

    def takes(seconds):
        clock.now += seconds
        return seconds

    assert await lane.submit(Who(1), takes, 0.25)[0] == 0.25
    assert lane.service.expected(work.kind_of(takes)) == pytest.approx(0.25)


async def test_a_wait_for_the_picture_workers_to_start_is_not_the_jobs_service_time():
    # A bot's first pictures wait for its picture workers to start (a second or two, once): counted as
    # the job's time, that made the first burst after a start expect every job to take half a second
    # and defer every answer. The wait render_pool counts in the thread is left out.
    from cogs.common import render_pool

    clock = Clock()
    lane = work.FairLane(1, member_running=1, server_running=1, name="test-start", clock=clock)

    def first_picture():
        clock.now += 1.55
        render_pool._waited.seconds = getattr(render_pool._waited, "seconds", 0.0) + 1.5  # as take() counts it
        return "drawn"

    def next_picture():
        clock.now += 0.05
        return "drawn"

    assert await lane.submit(Who(1), first_picture)[0] == "drawn"
    assert lane.service.expected(work.kind_of(first_picture)) == pytest.approx(0.05)
    assert await lane.submit(Who(1), next_picture)[0] == "drawn"
    assert lane.service.expected(work.kind_of(next_picture)) == pytest.approx(0.05)
    assert render_pool.start_wait() == 0.0  # asked for and cleared by the lane


async def test_the_expected_wait_is_the_work_ahead_over_the_threads_that_may_serve_it():
    clock = Clock()
    lane = work.FairLane(2, member_running=1, server_running=2, name="test-expect", clock=clock)
    lane.service.observe("slow", 1.0)
    lane.service.observe("quick", 0.1)
    gate = threading.Event()
    try:
        a = lane.enqueue(Who(1), gate.wait, 30, kind="slow")
        assert a.started and a.expected == pytest.approx(1.0)  # a free thread: its own cost
        b = lane.enqueue(Who(2), gate.wait, 30, kind="slow")
        assert b.started and b.expected == pytest.approx(1.0 + 1.0 / 2)  # a's second ahead, over two threads
        clock.now = 0.4
        c = lane.enqueue(Who(3), gate.wait, 30, kind="quick")
        assert not c.started and c.expected == pytest.approx((0.6 + 0.6) / 2 + 0.1)  # what is left of a and b
        d = lane.enqueue(Who(1), gate.wait, 30, kind="quick")
        # member 1 runs one job at a time: a's 0.6 s left, over one thread, beats the lane's (1.3 s over two)
        assert d.expected == pytest.approx(max((0.6 + 0.6 + 0.1) / 2, 0.6 / 1) + 0.1)
        clock.now = 3.0  # a and b past their estimate: each counted as long again as it has run
        e = lane.enqueue(Who(4), gate.wait, 30, kind="quick")
        assert e.expected == pytest.approx((3.0 + 3.0 + 0.1 + 0.1) / 2 + 0.1)
        f = lane.enqueue(Who(5, guild=8), gate.wait, 30, kind="quick")
        assert f.expected == pytest.approx((3.0 + 3.0 + 0.3) / 2 + 0.1)  # another server: the lane bound
    finally:
        gate.set()
    await asyncio.gather(*(j.future for j in (a, b, c, d, e, f)))
    assert lane.running == 0 and lane.waiting() == 0


async def test_a_servers_share_bounds_its_jobs_wait():
    clock = Clock()
    lane = work.FairLane(4, member_running=3, server_running=1, name="test-share", clock=clock)
    lane.service.observe("job", 0.5)
    gate = threading.Event()
    try:
        jobs = [lane.enqueue(Who(n), gate.wait, 30, kind="job") for n in range(1, 5)]
        # one job of server 7 at a time: the fourth waits for three before it (0.5 s each), then runs
        assert jobs[3].expected == pytest.approx(3 * 0.5 + 0.5)
        other = lane.enqueue(Who(9, guild=8), gate.wait, 30, kind="job")
        assert other.started and other.expected == pytest.approx(max(2.0 / 4, 0.0) + 0.5)
    finally:
        gate.set()
    await asyncio.gather(*(j.future for j in (*jobs, other)))


async def test_what_is_queued_is_forgotten_as_it_runs():
    clock = Clock()
    lane = work.FairLane(1, member_running=1, server_running=1, name="test-forget", clock=clock)
    lane.service.observe("job", 0.5)
    gate = threading.Event()
    jobs = [lane.enqueue(Who(n), gate.wait, 30, kind="job") for n in range(1, 4)]
    assert lane._queued == pytest.approx(1.0)
    gate.set()
    await asyncio.gather(*(j.future for j in jobs))
    assert lane._queued == 0.0 and not lane._queued_server and not lane._queued_member
    assert not lane._member_turn and not lane._server_turn and not lane._running_jobs


def fake() -> MagicMock:
    i = MagicMock()
    i.response.is_done = MagicMock(return_value=False)
    i.response.defer = AsyncMock()
    return i


async def test_work_expected_in_time_answers_without_a_defer():
    interaction = fake()
    loop = asyncio.get_running_loop()
    future = loop.create_future()
    loop.call_soon(future.set_result, 1)
    await work.answer_in_time(interaction, future, expected=0.5, defer=replies.defer, deadline=loop.time() + 600)
    interaction.response.defer.assert_not_awaited()


async def test_work_expected_past_the_deadline_defers_at_once():
    interaction = fake()
    interaction.extras = {}
    loop = asyncio.get_running_loop()
    future = loop.create_future()  # never done: the defer cannot have waited for it
    await asyncio.wait_for(work.answer_in_time(interaction, future, expected=601, defer=replies.defer,
                                               deadline=loop.time() + 600), 30)
    interaction.response.defer.assert_awaited_once_with(thinking=True, ephemeral=False)


async def test_work_expected_in_time_that_overruns_defers_at_the_deadline(monkeypatch):
    """The safety net: the estimate said in time, the work is held until the defer has been sent."""
    monkeypatch.setattr(replies, "DEFER_AFTER", 0.05)
    lane = work.FairLane(1, member_running=1, server_running=1, name="test-net")
    lane.service.observe("held", 0.001)
    monkeypatch.setattr(work, "work_lane", lane)
    interaction = fake()
    interaction.extras = {}
    deferred = threading.Event()
    interaction.response.defer = AsyncMock(side_effect=lambda **_: deferred.set())

    def held():
        return deferred.wait(30) and "done"

    monkeypatch.setattr(work, "kind_of", lambda _: "held")
    assert await replies.off_the_loop(interaction, held) == "done"
    interaction.response.defer.assert_awaited_once_with(thinking=True, ephemeral=False)


async def test_a_burst_of_quick_work_answers_each_without_a_defer(monkeypatch):
    """Twenty commands at once on one thread, each job expected at 1 ms against a 600 s deadline:
    none defers, though all but the first had to wait for the thread (before issue 26's second
    pass each of them deferred at once)."""
    monkeypatch.setattr(replies, "DEFER_AFTER", 600.0)
    lane = work.FairLane(1, member_running=1, server_running=1, name="test-quick-burst")
    monkeypatch.setattr(work, "work_lane", lane)
    monkeypatch.setattr(lane, "service", work.ServiceTimes(prior=0.001))
    interactions = [fake() for _ in range(20)]
    for i in interactions:
        i.extras = {}
    results = await asyncio.gather(*(replies.off_the_loop(i, lambda n=n: n) for n, i in enumerate(interactions)))
    assert results == list(range(20))
    assert not any(i.response.defer.await_count for i in interactions)


async def test_an_answer_never_overtakes_a_defer_that_has_started():
    """The deadline passes with the work not done: the defer starts; the work then ends while the
    defer is still on its way. The result is handed back only once the defer is through (else the
    answer could reach Discord before the "thinking..." it must follow)."""
    loop = asyncio.get_running_loop()
    interaction = fake()
    work_done = loop.create_future()
    defer_sent = asyncio.Event()
    order: list[str] = []

    async def slow_defer(_):
        work_done.set_result("answer")  # the work ends while the defer is on its way
        await defer_sent.wait()
        order.append("deferred")

    task = asyncio.ensure_future(work.in_time(interaction, work_done, defer=slow_defer, deadline=loop.time()))
    for _ in range(20):
        await asyncio.sleep(0)
    assert not task.done()  # the work is done, the defer is not: nothing handed back yet
    defer_sent.set()
    assert await task == "answer" and order == ["deferred"]


async def test_the_works_error_comes_after_a_defer_that_has_started_too():
    loop = asyncio.get_running_loop()
    interaction = fake()
    failed = loop.create_future()
    defer_sent = asyncio.Event()
    order: list[str] = []

    async def slow_defer(_):
        failed.set_exception(ValueError("bad"))
        await defer_sent.wait()
        order.append("deferred")

    task = asyncio.ensure_future(work.in_time(interaction, failed, defer=slow_defer, deadline=loop.time()))
    for _ in range(20):
        await asyncio.sleep(0)
    assert not task.done()
    defer_sent.set()
    with pytest.raises(ValueError):
        await task
    assert order == ["deferred"]


async def test_work_done_before_the_deadline_leaves_no_timer_behind():
    loop = asyncio.get_running_loop()
    interaction = fake()
    done = loop.create_future()
    done.set_result(3)
    assert await work.in_time(interaction, done, defer=replies.defer, deadline=loop.time() + 0.01) == 3
    await asyncio.sleep(0.05)  # past the deadline: the cancelled timer deferred nothing
    interaction.response.defer.assert_not_awaited()


async def test_a_command_begun_late_defers_earlier_by_as_much():
    """The loop's lateness in starting a command counts once more against its deadline: the event
    was most likely read late by as much, unseen by the arrival stamp."""
    loop = asyncio.get_running_loop()
    now = loop.time()
    prompt, late, later = fake(), fake(), fake()
    prompt.extras = {replies.ARRIVED_KEY: now}
    late.extras = {replies.ARRIVED_KEY: now - 0.5}
    later.extras = {replies.ARRIVED_KEY: now - 2.0}
    assert replies.defer_by(prompt) == pytest.approx(now + replies.DEFER_AFTER, abs=0.05)
    assert replies.defer_by(late) == pytest.approx(now - 0.5 + replies.DEFER_AFTER - 0.5, abs=0.05)
    assert replies.defer_by(later) == pytest.approx(now - 2.0, abs=0.05)  # past: defers at once
    first = replies.defer_by(late)
    await asyncio.sleep(0.01)
    assert replies.defer_by(late) == first  # asked again later in the command: when it began is kept
