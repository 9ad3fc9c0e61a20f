"""A logged roll's store work in plain parametrized SQL (issue 26): the statements a logged
``/roll 1d20`` sends, counted with SQLite's trace callback, so the target holds deterministically
(no timing). Before this issue one logged roll sent 43: sqlite-utils looked up the schema
(``PRAGMA table_info``, ``sqlite_master``) and wrapped every insert and update in a savepoint."""

from __future__ import annotations

import io

from console import offline as console


def _traced(store) -> list[str]:
    statements: list[str] = []
    store.db.conn.set_trace_callback(statements.append)
    store._reader().set_trace_callback(statements.append)  # the reads outside a transaction (this thread's)
    return statements


async def test_a_logged_roll_sends_at_most_13_statements_none_of_them_schema_lookups(bot):
    out = io.StringIO()
    assert await console.run_line(bot, "/roll expression:1d20", as_json=True, out=out) == 0  # the epoch begins
    statements = _traced(bot.store)
    out = io.StringIO()
    assert await console.run_line(bot, "/roll expression:1d20", as_json=True, out=out) == 0
    assert '"roll": 2' in out.getvalue()  # logged, as the second roll of the channel's chain
    text = "\n".join(statements)
    assert len(statements) <= 13, text
    for lookup in ("sqlite_master", "PRAGMA", "SAVEPOINT"):
        assert lookup not in text, text
    # the roll log's part (the chain, the number, the entry): 10; the reply's buttons: 3
    assert sum("roll_entries" in s or "roll_chains" in s or "battles" in s for s in statements) <= 6
    assert sum("reply_actions" in s for s in statements) <= 2
