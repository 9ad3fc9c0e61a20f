"""Where a command's work runs: two lanes of threads, and each member's and server's fair share.

The event loop only routes (DESIGN.md): every engine call, pricing, picture and export goes to a
lane's threads (cogs/common/replies.py, ``off_the_loop``), every store call to the store's threads
(:func:`stored`).

- **The work lane** (:class:`FairLane`, ``WORKERS`` threads) runs the expensive work. It is not
  first come, first served: the jobs waiting are kept per server and, within a server, per member,
  and a free thread takes the next job round-robin, server by server, member by member. So one
  member's twenty big ``/odds`` wait behind everyone else's work, never ahead of it: another
  member's command waits at most for one job to finish, never for the whole queue. One member (and
  one server) runs at most :data:`MEMBER_RUNNING` (and :data:`SERVER_RUNNING`) jobs at once, so with
  more than one worker a thread stays free for the next member to arrive. A command keeps its
  place: its next job (a picture after the engine call, where a command sends them apart; /fire
  sends its shot, picture and words as one job) joins its member's queue again.
- **The quick lane** (:data:`QUICK_WORKERS` threads) runs the cheap commands (:data:`CHEAP`:
  ``/roll``, ``/rules``, ``/help``), which are never queued behind anyone's expensive work.
- **The store** (:func:`stored`): a store call runs in a thread of its own (asyncio's default
  executor), and the command defers ("thinking...") as soon as the call has not answered by the
  deadline (:data:`DEFER_AFTER` after the interaction's arrival), so a store that is slow or away
  (its calls give up after about 2 s: storage/postgres.py) still gets the interaction its first
  response inside Discord's 3 seconds.

**Deferring only when the answer would be late** (issue 26). Every answer costs one request to
Discord; a defer ("thinking...") costs a second one, the follow-up an edit: in a burst, twice the
HTTP work for the bot, discord.py and Discord. So a command defers at once only when its work is
*expected* to end after :data:`DEFER_AFTER` seconds from the interaction's arrival (the moment it
would defer anyway), and otherwise waits, with the timer at that moment as the safety net. The
expectation (:meth:`FairLane.expected_wait`) is the work queued ahead of the job, in seconds, over
the threads that may serve it: each job costs what the recent jobs of its kind (the same code: a
command's engine call, a picture) took in a thread (:class:`ServiceTimes`, a moving average);
what is ahead is the jobs waiting in the whole lane (over its threads), in the job's server (over
its share) and from its member (over theirs), and the largest of the three counts; a running job
counts what is left of its estimate, or, once past it, as long again as it has run (a job held up
is not assumed to end at once). A kind never measured yet counts :data:`PRIOR_SERVICE`.

Everything here runs on the event loop thread (submitting, picking, finishing), so it needs no lock;
the threads only time their own jobs.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextvars import copy_context
from dataclasses import dataclass, field
from typing import Any, TypeVar

import discord

from cogs.common import render_pool

log = logging.getLogger(__name__)

T = TypeVar("T")

WORKERS = max(2, min(12, 3 * (os.cpu_count() or 1)))
"""Threads of the work lane: a burst queues for them instead of every command fighting the event
loop for the interpreter at once. Three a core (issue 26): the picture workers are one a core
(cogs/common/render_pool.py) and each is handed its next picture while it draws one, so two
threads wait on each; the third keeps a worker fed while the others put their words together and
keep their replies in the store. Measured by turns on 2 cores, six threads served 6-12% more of a
burst than four (docs/figures.md)."""
QUICK_WORKERS = 2
"""Threads of the quick lane (cheap commands only)."""
MEMBER_RUNNING = max(1, WORKERS - 1)
"""Jobs of one member running at once at most (the rest wait their turn): with two workers or more,
one member never holds every thread."""
SERVER_RUNNING = max(1, WORKERS - 1)
"""Jobs of one server running at once at most, likewise between servers."""
CHEAP = frozenset({"roll", "rules", "help"})
"""Top-level commands whose work is small and bounded whatever is typed: the quick lane."""


def lane_key(interaction: discord.Interaction | None) -> tuple[int, int]:
    """(server, member) of an interaction: whose share a job counts against (0 for none)."""
    if interaction is None:
        return 0, 0
    user = getattr(interaction, "user", None)
    return int(getattr(interaction, "guild_id", None) or 0), int(getattr(user, "id", 0) or 0)


def is_cheap(interaction: discord.Interaction | None) -> bool:
    """Whether the interaction is a cheap command's (:data:`CHEAP`), whose work takes the quick lane."""
    command = getattr(interaction, "command", None)
    name = getattr(command, "qualified_name", None)
    return bool(name) and name.split()[0] in CHEAP


PRIOR_SERVICE = 0.1
"""Seconds a job of a kind not measured yet is expected to take (until the first one ends): about
five cannon pictures, so the first burst after a start defers where its queue is long."""
SMOOTHING = 0.2
"""Weight of the newest service time in its kind's moving average."""
MAX_KINDS = 256
"""Kinds of job remembered at most (they are code, not what members type: far fewer exist)."""


class ServiceTimes:
    """How long each kind of job takes in a thread lately: an exponentially weighted moving average
    of the seconds measured, :data:`PRIOR_SERVICE` for a kind not measured yet."""

    def __init__(self, prior: float = PRIOR_SERVICE, weight: float = SMOOTHING) -> None:
        self.prior = prior
        self.weight = weight
        self._mean: dict[str, float] = {}

    def expected(self, kind: str) -> float:
        return self._mean.get(kind, self.prior)

    def observe(self, kind: str, seconds: float) -> None:
        mean = self._mean.get(kind)
        if mean is None and len(self._mean) >= MAX_KINDS:
            return
        self._mean[kind] = seconds if mean is None else mean + self.weight * (seconds - mean)

    def clear(self) -> None:
        self._mean.clear()


def kind_of(work: Callable[..., Any]) -> str:
    """The kind of a job for :class:`ServiceTimes`: the code it runs (module and qualified name; a
    ``functools.partial`` by the function it wraps), never anything a member typed."""
    while isinstance(work, functools.partial):
        work = work.func
    return f"{getattr(work, '__module__', '?')}.{getattr(work, '__qualname__', type(work).__name__)}"


@dataclass(eq=False)
class Job:
    server: int
    member: int
    work: Callable[[], Any]
    future: asyncio.Future
    loop: asyncio.AbstractEventLoop = field(repr=False)
    kind: str = "work"
    cost: float = 0.0
    """Its expected seconds in a thread (:class:`ServiceTimes`), counted while it waits or runs."""
    expected: float = 0.0
    """Seconds from its submission until it is expected to be done (:meth:`FairLane.expected_wait`)."""
    started: bool = False
    started_at: float = 0.0
    took: float | None = None
    """Its seconds in the thread, once done (timed there)."""


class FairLane:
    """A thread pool whose waiting jobs are served round-robin by server, then by member, and which
    knows how long its queue is in seconds (:meth:`expected_wait`)."""

    def __init__(self, workers: int, *, member_running: int, server_running: int, name: str,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.workers = workers
        self.member_running = member_running
        self.server_running = server_running
        self.clock = clock
        """Times the jobs (in their threads) and how long the running ones have run (a test's own)."""
        self.service = ServiceTimes()
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=name)
        self._waiting: OrderedDict[int, OrderedDict[int, deque[Job]]] = OrderedDict()
        """Jobs not started, by server then member; both orders rotate as they are served."""
        self.running = 0
        self._by_member: dict[tuple[int, int], int] = {}
        self._by_server: dict[int, int] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tick = 0
        self._member_turn: dict[tuple[int, int], int] = {}
        """When each member's job last started (while they have work waiting or running)."""
        self._server_turn: dict[int, int] = {}
        self._queued = 0.0
        """Expected seconds of the jobs waiting, in the whole lane, by server and by member."""
        self._queued_server: dict[int, float] = {}
        self._queued_member: dict[tuple[int, int], float] = {}
        self._running_jobs: set[Job] = set()

    def waiting(self) -> int:
        return sum(len(q) for members in self._waiting.values() for q in members.values())

    def _new_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        """A new event loop (a test's): what the old one counted and measured is gone with it."""
        if self._loop is not None:
            self.service.clear()
        self._loop = loop
        self._waiting.clear()
        self._by_member.clear()
        self._by_server.clear()
        self._member_turn.clear()
        self._server_turn.clear()
        self._queued_server.clear()
        self._queued_member.clear()
        self._running_jobs.clear()
        self._queued = 0.0
        self.running = 0

    def submit(self, interaction: discord.Interaction | None, work: Callable[..., T], *args: Any) -> tuple[asyncio.Future, bool]:
        """Queue `work(*args)` (in the caller's context) for the interaction's member; returns its
        future and whether it started at once (False: it waits for a thread or for its share)."""
        job = self.enqueue(interaction, work, *args)
        return job.future, job.future.done() or job.started

    def enqueue(self, interaction: discord.Interaction | None, work: Callable[..., T], *args: Any,
                kind: str | None = None) -> Job:
        """Queue `work(*args)` (in the caller's context) for the interaction's member, as a job of
        `kind` (by default :func:`kind_of` `work`); returns the job: its future, whether it
        started at once, and when it is expected to be done (:meth:`expected_wait`, taken as it
        was queued)."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._new_loop(loop)
        server, member = lane_key(interaction)
        context = copy_context()
        kind = kind_of(work) if kind is None else kind
        job = Job(server, member, lambda: context.run(work, *args), loop.create_future(), loop,
                  kind=kind, cost=self.service.expected(kind))
        job.expected = self.expected_wait(job)
        self._waiting.setdefault(server, OrderedDict()).setdefault(member, deque()).append(job)
        self._count(job, +1)
        self._pump()
        return job

    def expected_wait(self, job: Job) -> float:
        """Seconds until `job` (not queued yet) would be done: the work ahead of it over the threads
        that may serve it (the whole lane's over its threads, its server's over the server's share,
        its member's over theirs: the largest), then its own cost."""
        now = self.clock()
        ahead_lane, ahead_server, ahead_member = self._queued, self._queued_server.get(job.server, 0.0), \
            self._queued_member.get((job.server, job.member), 0.0)
        for other in self._running_jobs:
            elapsed = now - other.started_at
            left = other.cost - elapsed if elapsed < other.cost else elapsed  # past its estimate: as long again
            ahead_lane += left
            if other.server == job.server:
                ahead_server += left
                if other.member == job.member:
                    ahead_member += left
        wait = max(ahead_lane / self.workers, ahead_server / max(1, min(self.server_running, self.workers)),
                   ahead_member / max(1, min(self.member_running, self.workers)))
        return wait + job.cost

    def _count(self, job: Job, sign: int) -> None:
        """Add (or take away) a waiting job's cost to what is queued."""
        cost = sign * job.cost
        self._queued = max(0.0, self._queued + cost) if self._waiting else 0.0
        key = (job.server, job.member)
        left = self._queued_server.get(job.server, 0.0) + cost
        if left > 1e-12 and job.server in self._waiting:
            self._queued_server[job.server] = left
        else:
            self._queued_server.pop(job.server, None)
        left = self._queued_member.get(key, 0.0) + cost
        if left > 1e-12 and self._waiting.get(job.server, {}).get(job.member):
            self._queued_member[key] = left
        else:
            self._queued_member.pop(key, None)

    def _next(self) -> Job | None:
        """The next job to start: from the server served longest ago (or never) that is under its
        share, its member served longest ago (or never) who is under theirs."""
        servers = sorted(self._waiting, key=lambda s: self._server_turn.get(s, -1))
        for server in servers:
            if self._by_server.get(server, 0) >= self.server_running:
                continue
            members = self._waiting[server]
            for member in sorted(members, key=lambda m: self._member_turn.get((server, m), -1)):
                if self._by_member.get((server, member), 0) >= self.member_running:
                    continue
                queue = members[member]
                while queue and (queue[0].future.done() or queue[0].loop.is_closed()):
                    self._drop(queue.popleft())  # its caller gave up (cancelled) or its loop is gone
                if not queue:
                    self._forget(server, member)
                    continue
                job = queue.popleft()
                if not queue:
                    self._forget(server, member)
                self._count(job, -1)
                self._tick += 1
                self._server_turn[server] = self._member_turn[(server, member)] = self._tick
                return job
        return None

    def _drop(self, job: Job) -> None:
        self._count(job, -1)

    def _forget(self, server: int, member: int) -> None:
        """The member has nothing waiting any more (nor the server, maybe): their queues go, and their
        turns once nothing of theirs runs either."""
        members = self._waiting.get(server)
        if members is not None and not members.get(member, True):
            del members[member]
            if not members:
                del self._waiting[server]
        self._tidy(server, member)

    def _tidy(self, server: int, member: int) -> None:
        """Forget the turn of a member (and of their server) with nothing waiting or running."""
        key = (server, member)
        if key not in self._by_member and not self._waiting.get(server, {}).get(member):
            self._member_turn.pop(key, None)
            self._queued_member.pop(key, None)
        if server not in self._by_server and server not in self._waiting:
            self._server_turn.pop(server, None)
            self._queued_server.pop(server, None)
        if not self._waiting:
            self._queued = 0.0

    def _pump(self) -> None:
        while self.running < self.workers:
            job = self._next()
            if job is None:
                break
            self._start(job)

    def _start(self, job: Job) -> None:
        self.running += 1
        self._by_member[(job.server, job.member)] = self._by_member.get((job.server, job.member), 0) + 1
        self._by_server[job.server] = self._by_server.get(job.server, 0) + 1
        job.started = True
        job.started_at = self.clock()
        self._running_jobs.add(job)
        clock, work = self.clock, job.work

        def timed() -> Any:  # in the thread: its own time, not the loop's delay in noticing it ended
            began = clock()
            render_pool.start_wait()
            try:
                return work()
            finally:
                # less any wait for the picture workers to start: a start's cost, not this kind of job's
                job.took = max(0.0, clock() - began - render_pool.start_wait())

        done = self._executor.submit(timed)

        def finished(f) -> None:
            try:
                job.loop.call_soon_threadsafe(self._finished, job, f)
            except RuntimeError:  # the loop closed meanwhile (a test's): nothing to count any more
                pass

        done.add_done_callback(finished)

    def _release(self, job: Job) -> None:
        self.running -= 1
        self._running_jobs.discard(job)
        key = (job.server, job.member)
        self._by_member[key] -= 1
        if not self._by_member[key]:
            del self._by_member[key]
        self._by_server[job.server] -= 1
        if not self._by_server[job.server]:
            del self._by_server[job.server]
        self._tidy(job.server, job.member)

    def _finished(self, job: Job, f) -> None:
        if job.loop is not self._loop:
            return  # counted by a loop that is gone
        self._release(job)
        if job.took is not None:
            self.service.observe(job.kind, job.took)
        if not job.future.done():
            error = f.exception()
            if error is not None:
                job.future.set_exception(error)
            else:
                job.future.set_result(f.result())
        self._pump()


work_lane = FairLane(WORKERS, member_running=MEMBER_RUNNING, server_running=SERVER_RUNNING, name="bombardier-work")
quick_lane = FairLane(QUICK_WORKERS, member_running=QUICK_WORKERS, server_running=QUICK_WORKERS, name="bombardier-quick")


def lane_for(interaction: discord.Interaction | None) -> FairLane:
    return quick_lane if is_cheap(interaction) else work_lane


# -- answering in time ---------------------------------------------------------------------------
DEFER_AFTER = 1.5
"""Seconds after an interaction's arrival by which a command that is not yet answered defers:
Discord wants a first answer within 3 seconds of the interaction's arrival, not of the callback."""


async def answer_in_time(interaction: discord.Interaction | None, future: asyncio.Future, *, busy: bool = False,
                         expected: float = 0.0, defer: Callable[[discord.Interaction], Any],
                         deadline: float | None) -> None:
    """Defer the interaction ("thinking...") if `future` will not be done by `deadline`: at once when
    it is expected not to be (`expected` seconds from now passes the deadline, or `busy`: it cannot
    even be guessed), else when the deadline passes with the work not done (the safety net)."""
    if interaction is None or deadline is None or interaction.response.is_done():
        return
    loop = asyncio.get_running_loop()
    now = loop.time()
    if busy or now + expected >= deadline:
        await defer(interaction)
        return
    done, _ = await asyncio.wait({future}, timeout=max(0.0, deadline - now))
    if not done and not interaction.response.is_done():
        await defer(interaction)


async def in_time(interaction: discord.Interaction | None, future: asyncio.Future[T], *, expected: float = 0.0,
                  defer: Callable[[discord.Interaction], Any], deadline: float | None) -> T:
    """`future`'s result, the interaction deferred ("thinking...") meanwhile if it would not be
    answered by `deadline`: at once when `expected` seconds from now pass it, else by a timer at the
    deadline if the future is not done by then (the safety net). What :func:`answer_in_time` and
    then awaiting the future do, with one timer instead of a second waiter: cheaper for the event
    loop, which does it two or three times a command. A defer that has started is always finished
    before the result (or the work's error) is handed back, so no answer can overtake it."""
    if interaction is None or deadline is None or interaction.response.is_done():
        return await future
    loop = asyncio.get_running_loop()
    if loop.time() + expected >= deadline:
        await defer(interaction)
        return await future
    deferring: list[asyncio.Task] = []

    def due() -> None:
        if not future.done() and not interaction.response.is_done():
            deferring.append(loop.create_task(defer(interaction)))

    timer = loop.call_at(deadline, due)
    try:
        result = await future
    except asyncio.CancelledError:
        timer.cancel()
        for task in deferring:
            task.cancel()
        raise
    except BaseException:
        timer.cancel()
        if deferring:
            await deferring[0]  # the error is answered after the defer, as the result would be
        raise
    timer.cancel()
    if deferring:
        await deferring[0]
    return result
