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
  place: its next job (the picture after the engine call) joins its member's queue again.
- **The quick lane** (:data:`QUICK_WORKERS` threads) runs the cheap commands (:data:`CHEAP`:
  ``/roll``, ``/rules``, ``/help``), which are never queued behind anyone's expensive work.
- **The store** (:func:`stored`): a store call runs in a thread of its own (asyncio's default
  executor), and the command defers ("thinking...") as soon as the call has not answered by the
  deadline (:data:`DEFER_AFTER` after the interaction's arrival), so a store that is slow or away
  (its calls give up after about 2 s: storage/postgres.py) still gets the interaction its first
  response inside Discord's 3 seconds.

Everything here runs on the event loop thread (submitting, picking, finishing), so it needs no lock.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextvars import copy_context
from dataclasses import dataclass, field
from typing import Any, TypeVar

import discord

log = logging.getLogger(__name__)

T = TypeVar("T")

WORKERS = max(2, min(4, os.cpu_count() or 2))
"""Threads of the work lane: a burst queues for them instead of every command fighting the event
loop for the interpreter at once."""
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


@dataclass(eq=False)
class Job:
    server: int
    member: int
    work: Callable[[], Any]
    future: asyncio.Future
    loop: asyncio.AbstractEventLoop = field(repr=False)


class FairLane:
    """A thread pool whose waiting jobs are served round-robin by server, then by member."""

    def __init__(self, workers: int, *, member_running: int, server_running: int, name: str) -> None:
        self.workers = workers
        self.member_running = member_running
        self.server_running = server_running
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

    def waiting(self) -> int:
        return sum(len(q) for members in self._waiting.values() for q in members.values())

    def submit(self, interaction: discord.Interaction | None, work: Callable[..., T], *args: Any) -> tuple[asyncio.Future, bool]:
        """Queue `work(*args)` (in the caller's context) for the interaction's member; returns its
        future and whether it started at once (False: it waits for a thread or for its share)."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a new event loop (a test's): what the old one counted is gone with it
            self._loop = loop
            self._waiting.clear()
            self._by_member.clear()
            self._by_server.clear()
            self._member_turn.clear()
            self._server_turn.clear()
            self.running = 0
        server, member = lane_key(interaction)
        context = copy_context()
        job = Job(server, member, lambda: context.run(work, *args), loop.create_future(), loop)
        self._waiting.setdefault(server, OrderedDict()).setdefault(member, deque()).append(job)
        self._pump()
        return job.future, job.future.done() or getattr(job, "started", False)

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
                    queue.popleft()  # its caller gave up (cancelled) or its loop is gone
                if not queue:
                    continue
                job = queue.popleft()
                self._tick += 1
                self._server_turn[server] = self._member_turn[(server, member)] = self._tick
                return job
        return None

    def _tidy(self) -> None:
        """Forget empty queues, and the turns of members and servers with nothing waiting or running."""
        for server in list(self._waiting):
            members = self._waiting[server]
            for member in [m for m, q in members.items() if not q]:
                del members[member]
            if not members:
                del self._waiting[server]
        for key in [k for k in self._member_turn if k not in self._by_member
                    and not self._waiting.get(k[0], {}).get(k[1])]:
            del self._member_turn[key]
        for server in [s for s in self._server_turn if s not in self._by_server and s not in self._waiting]:
            del self._server_turn[server]

    def _pump(self) -> None:
        while self.running < self.workers:
            job = self._next()
            if job is None:
                break
            self._start(job)
        self._tidy()

    def _start(self, job: Job) -> None:
        self.running += 1
        self._by_member[(job.server, job.member)] = self._by_member.get((job.server, job.member), 0) + 1
        self._by_server[job.server] = self._by_server.get(job.server, 0) + 1
        job.started = True  # type: ignore[attr-defined]
        done = self._executor.submit(job.work)

        def finished(f) -> None:
            try:
                job.loop.call_soon_threadsafe(self._finished, job, f)
            except RuntimeError:  # the loop closed meanwhile (a test's): nothing to count any more
                pass

        done.add_done_callback(finished)

    def _release(self, job: Job) -> None:
        self.running -= 1
        key = (job.server, job.member)
        self._by_member[key] -= 1
        if not self._by_member[key]:
            del self._by_member[key]
        self._by_server[job.server] -= 1
        if not self._by_server[job.server]:
            del self._by_server[job.server]

    def _finished(self, job: Job, f) -> None:
        if job.loop is not self._loop:
            return  # counted by a loop that is gone
        self._release(job)
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


async def answer_in_time(interaction: discord.Interaction | None, future: asyncio.Future, *, busy: bool,
                         defer: Callable[[discord.Interaction], Any], deadline: float | None) -> None:
    """Defer the interaction ("thinking...") if `future` will not be done by `deadline`: at once when
    `busy` (it has not even started), else when the deadline passes."""
    if interaction is None or deadline is None or interaction.response.is_done():
        return
    loop = asyncio.get_running_loop()
    if busy or loop.time() >= deadline:
        await defer(interaction)
        return
    done, _ = await asyncio.wait({future}, timeout=max(0.0, deadline - loop.time()))
    if not done and not interaction.response.is_done():
        await defer(interaction)
