"""The bot's main module, imported once by the picture workers' fork server (issue 26).

A worker started from a ``forkserver`` first makes sure it holds the program's main module, as
``multiprocessing`` does for every child: when the program was started as a script (``python
bot.py``, what ``./bombardier`` runs) and the child's ``__main__`` is not that file, the child runs
the whole script again under the name ``__mp_main__``. For ``bot.py`` that is discord.py, aiohttp,
the store and the cogs' helpers: some 0.6 s in each new worker, while the pictures already handed to
it wait in its pipe, and then the memory of those modules in every worker of its own. (Python 3.11's
forkserver would import it once itself when ``"__main__"`` is preloaded, but the key it looks for
in the preparation data is not the one ``multiprocessing.spawn`` writes, so it never does.)

So :mod:`cogs.common.render_pool` puts the script's path and arguments in ``BOMBARDIER_PICTURE_MAIN`` before the fork server
starts, and the fork server imports this module first of its preload: it imports the script once,
as ``__mp_main__`` (so whatever the script keeps under ``if __name__ == "__main__":`` does not run),
and sets it as ``__main__``, the way ``multiprocessing`` sets it in a child. Every worker forked
from the server then finds its ``__main__`` is the script already, and starts drawing at once,
sharing those modules' pages with the server.

A program started otherwise (``python -m ...``, pytest) needs none of this: ``multiprocessing``
does not import a package's ``__main__`` again. A script that cannot be imported here is left to
each worker, as before (the pool then gives up on workers that cannot start: render_pool.py)."""

from __future__ import annotations

import json
import logging
import os
import sys
from multiprocessing import process, spawn

from cogs.common.render_pool import MAIN_ENV as ENV

log = logging.getLogger(__name__)


def load_main() -> str | None:
    """Import the main script named in ``BOMBARDIER_PICTURE_MAIN`` as ``multiprocessing`` would in a
    child (its arguments in ``sys.argv`` first); returns its path, or None when there is none or it
    cannot be imported."""
    try:
        given = json.loads(os.environ.get(ENV) or "null")
        path, argv = (given["path"], list(given["argv"])) if given else (None, None)
    except (ValueError, TypeError, KeyError):
        return None
    if not path:
        return None
    sys.argv[:] = argv
    process.current_process()._inheriting = True  # type: ignore[attr-defined]  # as the fork server itself does
    try:
        spawn.import_main_path(path)
    except BaseException:  # even a script that exits as it is imported must not take the fork server down
        log.debug("the main script %s could not be imported in the picture fork server", path, exc_info=True)
        return None
    finally:
        del process.current_process()._inheriting  # type: ignore[attr-defined]
    return path


LOADED = load_main()
"""The main script imported (None: none)."""
