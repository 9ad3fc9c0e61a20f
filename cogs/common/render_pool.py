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
  imports the drawing code (:data:`PRELOAD`) and forks each worker from itself, warm. Workers start
  on first use and are kept; fonts and text are cached in each.
- **Only where it pays**: :func:`start` is called by the bot when it connects to Discord
  (``setup_hook``); the offline console and the tests that do not start it draw in-process, so a
  one-shot console command pays no process start. ``BOMBARDIER_RENDER_PROCESSES`` sets the number
  of workers (default: the machine's cores, at most 4; ``0`` draws in-process).
- **Stopping**: :func:`stop` (the bot's ``close``) shuts the pool; workers whose parent dies (a kill)
  exit on their own when their pipe closes. A worker that dies mid-picture (out of memory, killed)
  breaks the pool: that picture is drawn in-process and the pool is started afresh on the next one;
  after :data:`GIVE_UP_AFTER` broken pools, pictures stay in-process (logged once).
- **The main module**: as with any ``forkserver`` or ``spawn`` worker, each worker imports the
  program's main module (``bot.py``, ``python -m benchmarks``, pytest) under the name
  ``__mp_main__``; each of those keeps its work under ``if __name__ == "__main__":``.
"""

from __future__ import annotations

import functools
import logging
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

PRELOAD = (
    "renders.canvas", "renders.fantasy.cannon", "renders.fantasy.stone_thrower", "renders.fantasy.bolt_thrower",
    "renders.fantasy.fire_thrower", "renders.warmaster.artillery", "renders.warmaster.fortress",
    "renders.wh40k.ordnance", "renders.campaign.battle", "renders.odds.picture",
)
"""Modules the fork server imports once, so every worker starts with the drawing code loaded."""

ENV = "BOMBARDIER_RENDER_PROCESSES"


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
_pool: ProcessPoolExecutor | None = None
_workers = 0
"""Workers asked for by :func:`start` (0: not started, draw in-process)."""
sent = 0
"""Pictures handed to a worker process so far (read by tests and benchmarks)."""
_broken = 0
GIVE_UP_AFTER = 3
"""Pools broken (a worker died) before pictures are drawn in-process for good: a worker that cannot
start at all (a main module that is not import-safe) must not cost a process start per picture."""


def _warm() -> None:
    """Each worker's first act: the drawing code imported (from the fork server, already loaded)."""
    for name in PRELOAD:
        __import__(name)


def _new_pool(workers: int) -> ProcessPoolExecutor:
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(PRELOAD))
    return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_warm)


def start(workers: int | None = None) -> int:
    """Draw pictures in `workers` processes from now on (default :func:`default_workers`); returns
    how many (0: in-process). Idempotent."""
    global _pool, _workers
    workers = default_workers() if workers is None else workers
    with _lock:
        if _pool is not None:
            return _workers
        _workers = workers
        if workers > 0:
            _pool = _new_pool(workers)
            for _ in range(workers):  # each worker started now, in the background: the first picture waits for none
                _pool.submit(_warm)
    return workers


def stop() -> None:
    """Shut the pool (pictures waiting are drawn by nobody: the bot is closing); later pictures are
    drawn in-process until :func:`start` again."""
    global _pool, _workers
    with _lock:
        pool, _pool, _workers = _pool, None, 0
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)


def running() -> bool:
    return _pool is not None


def draw(render: Callable[..., T], *args: Any) -> T:
    """`render(*args)` in a worker process, waited for here (a thread of the work lane: the GIL is
    free meanwhile); in-process when no pool runs or the pool broke (then restarted for the next)."""
    global _pool, sent
    pool = _pool
    if pool is None:
        return render(*args)
    sent += 1
    try:
        return pool.submit(render, *args).result()
    except BrokenProcessPool:
        global _broken
        with _lock:
            if _pool is pool:
                _broken += 1
                if _broken >= GIVE_UP_AFTER:
                    log.error("the picture workers died %d times; drawing pictures in the bot's process from now on",
                              _broken)
                    _pool = None
                else:
                    log.warning("a picture's worker process died; drawing it here and starting the workers afresh")
                    _pool = _new_pool(_workers)
        pool.shutdown(wait=False, cancel_futures=True)
        return render(*args)
    except RuntimeError:  # the pool was shut down meanwhile (the bot is closing): drawn here
        return render(*args)


def elsewhere(work: Callable[..., T]) -> Callable[..., T]:
    """What to run in the work lane's thread for `work`: a picture (a function of a ``renders.``
    module) drawn in a worker process when the pool runs; anything else as it is."""
    if _pool is None or not getattr(work, "__module__", "").startswith("renders."):
        return work
    return functools.partial(draw, work)
