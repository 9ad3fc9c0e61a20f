"""Pictures drawn in worker processes, beside the bot's own.

A picture is a pure function of a frozen record (renders/: a result record in, PNG bytes out), and
drawing it is pure Python under the GIL: in the bot's process every picture being drawn takes the
interpreter from the event loop and from every other command. Here the renders run in a small pool
of worker processes instead: the work lane's thread (cogs/common/work.py, with each member's and
server's fair share unchanged) hands the record to a worker and waits for the PNG bytes without
holding the GIL, so the event loop and the engine calls keep the bot's own core, and on a machine
with more cores the pictures use them.

- **What goes there**: a function of a ``renders.`` module (``render_cannon(shot)``), with picklable
  arguments (the frozen records are). Anything else runs where it was sent, unchanged.
- **Same bytes**: the worker runs the same function on the same record; tests/cogs/common/
  test_render_pool.py compares every picture's bytes drawn both ways.
- **Starting cleanly**: the bot's process has threads (the event loop's, the work lanes', the
  store's), and forking a process with threads can copy a lock held by one of them into the child.
  So the workers come from a ``forkserver``: a single-threaded server process started once, which
  imports the drawing code and draws a few pictures (:data:`PRELOAD`), then forks each worker from
  itself, warm: fonts, glyphs and text blends already made. Workers start
  in the background when the pool starts (a picture asked for meanwhile waits for the first) and
  are kept; fonts and text are cached in each.
- **Only where it pays**: :func:`start` is called by the bot when it connects to Discord
  (``setup_hook``); the offline console and the tests that do not start it draw in-process, so a
  one-shot console command pays no process start. ``BOMBARDIER_RENDER_PROCESSES`` sets the number
  of workers (default: the machine's cores, at most 4; ``0`` draws in-process).
- **One pipe per worker, no go-between** (issue 26): the thread that needs a picture takes the
  least busy worker, writes the pickled record into its pipe and reads the pickled PNG back, itself.
  (Python's ``ProcessPoolExecutor``, used before, passed each job through a queue-management thread
  and a queue-feeder thread of the bot's process, and their wake-ups and the GIL they took cost the
  bot about a millisecond a picture.)
- **The next picture already in the pipe** (:data:`DEPTH`, issue 26): a worker is given its next
  record while it draws one, and takes it from its pipe the moment it is done. Handed its next
  picture only once the last one had been read back, it waited for threads of the bot's process,
  each of which had to take the interpreter back from a busy event loop first (up to its 5 ms
  switch interval): in a burst the machine's cores stood idle a fifth of the time. The answers come
  back through the pipe in the order the records went in, each read by the thread that sent it
  (its ticket). A thread finding every worker with :data:`DEPTH` pictures waits for a place.
- **Stopping**: :func:`stop` (the bot's ``close``) closes the pipes; workers whose parent dies (a kill)
  exit on their own when their pipe closes. A worker that dies mid-picture (out of memory, killed):
  that picture is drawn in-process and a new worker takes its place; after :data:`GIVE_UP_AFTER`
  deaths a worker, pictures stay in-process (logged once).
- **The main module**: as with any ``forkserver`` or ``spawn`` worker, a worker must hold the
  program's main module (``bot.py``, ``python -m benchmarks``, pytest) under the name
  ``__mp_main__``; each of those keeps its work under ``if __name__ == "__main__":``. A script's
  (``bot.py``'s) is imported once, by the fork server (:mod:`cogs.common.render_main`), not again
  in each worker: 0.6 s before a new worker's first picture, and its memory, saved.
"""

from __future__ import annotations

import functools
import json
import logging
import multiprocessing
import multiprocessing.spawn
import os
import pickle
import signal
import threading
import time
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

PRELOAD = (
    "cogs.common.render_main",
    "renders.canvas", "renders.fantasy.cannon", "renders.fantasy.stone_thrower", "renders.fantasy.bolt_thrower",
    "renders.fantasy.fire_thrower", "renders.warmaster.artillery", "renders.warmaster.fortress",
    "renders.wh40k.ordnance", "renders.campaign.battle", "renders.odds.picture",
    "cogs.common.render_warm",
)
"""Modules the fork server imports once, so every worker starts with the drawing code loaded; the
first imports the bot's main script (:mod:`cogs.common.render_main`), so no worker imports it again;
the last draws a few pictures (:mod:`cogs.common.render_warm`), so every worker starts with what
drawing keeps warm, too."""

ENV = "BOMBARDIER_RENDER_PROCESSES"
MAIN_ENV = "BOMBARDIER_PICTURE_MAIN"
"""Where the pool tells its fork server the main script's path and arguments, as JSON
(:mod:`cogs.common.render_main`)."""


def default_workers() -> int:
    """Workers to start: ``BOMBARDIER_RENDER_PROCESSES`` if set (0: none), else the cores, 1 to 4."""
    raw = os.environ.get(ENV, "").strip()
    if raw:
        try:
            return max(0, min(int(raw), 32))
        except ValueError:
            log.warning("%s=%r is not a number of processes; drawing in-process", ENV, raw)
            return 0
    return max(1, min(4, os.cpu_count() or 1))


_lock = threading.Lock()
_pool: _Pool | None = None
sent = 0
"""Pictures handed to a worker process so far (read by tests and benchmarks)."""
DEPTH = 2
"""Pictures handed to one worker at once at most: the one it draws and the next, waiting in its pipe
(the work lane has threads enough to keep it there: cogs/common/work.py)."""
GIVE_UP_AFTER = 3
"""Worker deaths, per worker, before pictures are drawn in-process for good: a worker that cannot
start at all (a main module that is not import-safe) must not cost a process start per picture."""


def _warm() -> None:
    """Each worker's first act: the drawing code imported (from the fork server, already loaded)."""
    for name in PRELOAD:
        __import__(name)


def _serve(conn: Connection) -> None:
    """A worker process: draw what comes down the pipe, send back the bytes (or the error), until
    the pipe closes (the bot stopped, or died)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the bot's to handle: it closes the pipes
    _warm()
    while True:
        try:
            message = conn.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            render, args = pickle.loads(message)
            reply: tuple[bool, Any] = (True, render(*args))
        except BaseException as e:  # the render's own error goes back to the caller, with where it was raised
            e.add_note("in the picture worker process:\n" + "".join(traceback.format_exception(e)))
            reply = (False, e)
        try:
            data = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as e:  # an error that cannot be pickled: said in words
            data = pickle.dumps((False, RuntimeError(f"{type(reply[1]).__name__}: {reply[1]} ({e})")))
        try:
            conn.send_bytes(data)
        except (EOFError, OSError):
            return


class _Lost(Exception):
    """The worker's pipe broke mid-picture: it died (killed, out of memory)."""


class _Worker:
    """One worker process and the bot's end of its pipe, with the pictures in it: records go in and
    answers come back in one order, so each thread sending one takes a ticket and reads the answer
    whose turn matches it."""

    def __init__(self, context: Any) -> None:
        mine, theirs = context.Pipe(duplex=True)
        self.process = context.Process(target=_serve, args=(theirs,), daemon=True, name="bombardier-picture")
        self.process.start()
        theirs.close()
        self.conn = mine
        self.busy = 0
        """Pictures handed to it and not read back yet (under the pool's lock)."""
        self.dead = False
        """Found dead (under the pool's lock): counted once, however many pictures were in its pipe."""
        self._turn = threading.Condition()
        self._sent = 0
        self._read = 0

    def draw(self, render: Callable[..., T], args: tuple[Any, ...]) -> T:
        data = pickle.dumps((render, args), protocol=pickle.HIGHEST_PROTOCOL)  # the caller's mistakes raise here
        with self._turn:  # the ticket and the record's place in the pipe, in the same order
            ticket = self._sent
            self._sent += 1
            try:
                self.conn.send_bytes(data)
            except (EOFError, OSError) as e:
                self._sent -= 1  # nothing went in: no answer to wait for
                raise _Lost from e
            while self._read != ticket:  # the answers ahead of this one are other threads' to read
                self._turn.wait()
        try:
            raw = self.conn.recv_bytes()  # without the lock: the next thread may send meanwhile
        except (EOFError, OSError) as e:
            raise _Lost from e
        finally:
            with self._turn:
                self._read += 1
                self._turn.notify_all()
        try:
            ok, value = pickle.loads(raw)
        except pickle.UnpicklingError as e:
            raise _Lost from e
        if not ok:
            raise value
        return value

    def close(self) -> None:
        try:
            self.conn.close()
        except OSError:
            pass
        if self.process.is_alive():
            self.process.join(timeout=0)


class _Pool:
    """The workers, started in the background, and how many pictures each has in hand."""

    def __init__(self, workers: int) -> None:
        self.size = workers
        self.context = multiprocessing.get_context("forkserver")
        self.context.set_forkserver_preload(list(PRELOAD))
        # the main script's path and arguments as each child is given them: the fork server imports it
        # once (render_main.py)
        prepared = multiprocessing.spawn.get_preparation_data("bombardier-picture")
        if prepared.get("init_main_from_path"):
            os.environ[MAIN_ENV] = json.dumps({"path": prepared["init_main_from_path"], "argv": prepared["sys_argv"]})
        else:
            os.environ.pop(MAIN_ENV, None)
        self.workers: list[_Worker] = []
        self.closed = False
        self.in_process = False
        """No worker could start: every picture is drawn in the bot's process."""
        self.deaths = 0
        self._place = threading.Condition(_lock)
        threading.Thread(target=self._add, args=(workers,), name="bombardier-picture-start", daemon=True).start()

    def _add(self, count: int) -> None:
        for _ in range(count):
            try:
                worker = _Worker(self.context)
            except Exception:  # no process could be started: every picture in-process
                log.exception("a picture worker process could not be started; drawing pictures in the bot's process")
                with self._place:
                    self.in_process = True
                    self._place.notify_all()
                return
            with self._place:
                if self.closed:
                    worker.close()
                    return
                self.workers.append(worker)
                self._place.notify_all()

    def take(self) -> _Worker | None:
        """The worker with the fewest pictures in hand, under :data:`DEPTH` (waiting for a place if
        every one is full, or for the first to start), given one more; None: draw in-process."""
        with self._place:
            while True:
                if self.closed or self.in_process:
                    return None
                free = [w for w in self.workers if w.busy < DEPTH]
                if free:
                    worker = min(free, key=lambda w: w.busy)
                    worker.busy += 1
                    return worker
                starting = not self.workers
                began = time.monotonic()
                self._place.wait()
                if starting:  # not the picture's time: the pool's start (see start_wait)
                    _waited.seconds = getattr(_waited, "seconds", 0.0) + time.monotonic() - began

    def give_back(self, worker: _Worker) -> None:
        """One of `worker`'s pictures read back (or failed): its place is free."""
        with self._place:
            worker.busy -= 1
            last = (self.closed or worker.dead) and worker.busy == 0
            self._place.notify()
        if last:
            worker.close()

    def lost(self, worker: _Worker) -> bool:
        """`worker` died: out of the pool and replaced (once, whatever pictures were in its pipe);
        False once too many have died (stop using the pool)."""
        with self._place:
            first = not worker.dead
            worker.dead = True
            if worker in self.workers:
                self.workers.remove(worker)
            if first:
                self.deaths += 1
            give_up = self.deaths >= GIVE_UP_AFTER * self.size
        worker.close()
        if give_up:
            return False
        if first:
            log.warning("a picture's worker process died; drawing it here and starting another")
            threading.Thread(target=self._add, args=(1,), name="bombardier-picture-start", daemon=True).start()
        return True

    def close(self) -> None:
        """Close the idle workers' pipes now (they exit), the busy ones' as their last picture comes
        back; a thread waiting for a worker draws in-process."""
        with self._place:
            self.closed = True
            idle = [w for w in self.workers if w.busy == 0]
            self.workers = []
            self._place.notify_all()
        for worker in idle:
            worker.close()


def start(workers: int | None = None) -> int:
    """Draw pictures in `workers` processes from now on (default :func:`default_workers`); returns
    how many (0: in-process). Idempotent. The workers start in the background."""
    global _pool
    workers = default_workers() if workers is None else workers
    with _lock:
        if _pool is not None:
            return _pool.size
    if workers <= 0:
        return 0
    pool = _Pool(workers)
    with _lock:
        if _pool is None:
            _pool = pool
            return workers
        size = _pool.size
    pool.close()
    return size


def stop() -> None:
    """Close the workers' pipes (they exit); later pictures are drawn in-process until :func:`start`
    again."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.close()


def running() -> bool:
    return _pool is not None


_waited = threading.local()


def start_wait() -> float:
    """Seconds this thread has waited, since it last asked, for the first picture workers to start
    (a bot's first pictures after it starts). Not the work's own time: the work lane leaves it out of
    the service times its deferrals go by (cogs/common/work.py), so one slow start does not make
    the first burst after it defer every answer."""
    seconds = getattr(_waited, "seconds", 0.0)
    _waited.seconds = 0.0
    return seconds


def worker_pids() -> list[int]:
    """The process ids of the workers running now (benchmarks read their CPU time, tests kill them)."""
    pool = _pool
    if pool is None:
        return []
    with _lock:
        return [w.process.pid for w in pool.workers if w.process.pid is not None]


def draw(render: Callable[..., T], *args: Any) -> T:
    """`render(*args)` in a worker process, waited for here (a thread of the work lane: the GIL is
    free meanwhile); in-process when no pool runs, or when the worker dies meanwhile (another
    takes its place)."""
    global _pool, sent
    pool = _pool
    if pool is None:
        return render(*args)
    worker = pool.take()
    if worker is None:  # closed meanwhile, or no worker could start
        return render(*args)
    sent += 1
    try:
        result = worker.draw(render, args)
    except _Lost:
        pool.give_back(worker)
        if not pool.lost(worker):
            log.error("the picture workers died %d times; drawing pictures in the bot's process from now on",
                      pool.deaths)
            with _lock:
                if _pool is pool:
                    _pool = None
            pool.close()
        return render(*args)
    except BaseException:
        pool.give_back(worker)  # the render's own error: the worker is fine
        raise
    pool.give_back(worker)
    return result


def elsewhere(work: Callable[..., T]) -> Callable[..., T]:
    """What to run in the work lane's thread for `work`: a picture (a function of a ``renders.``
    module) drawn in a worker process when the pool runs; anything else as it is."""
    if _pool is None or not getattr(work, "__module__", "").startswith("renders."):
        return work
    return functools.partial(draw, work)
