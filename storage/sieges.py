"""Siege state per channel: each fortification section's Destruction Tokens and whether it has
fallen, kept until the section falls (then it stays, breached) or the siege is reset.

A section is named by the players ("gate", "north wall 2"); names are case-insensitive and
trimmed. The engine never sees this module: the cog reads the tokens, the engine tests, the
cog writes the result back in the same transaction.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import sqlite_utils

from storage.database import Migration, Store

TABLE = "siege_sections"


def _create(db: sqlite_utils.Database) -> None:
    db[TABLE].create(
        {"channel_id": int, "section": str, "kind": str, "gate": int, "tokens": int, "breached": int, "updated_at": float},
        pk=("channel_id", "section"), if_not_exists=True,
    )


PG_SIEGES_1 = f"""CREATE TABLE IF NOT EXISTS {TABLE} (channel_id BIGINT NOT NULL, section TEXT COLLATE "C" NOT NULL, kind TEXT COLLATE "C",
    gate INTEGER, tokens INTEGER, breached INTEGER, updated_at DOUBLE PRECISION, PRIMARY KEY (channel_id, section))"""

MIGRATIONS = (Migration("sieges-1", _create, PG_SIEGES_1),)


@dataclass(frozen=True, slots=True)
class Section:
    section: str
    kind: str
    """The structure key: gateway, wall, tower, ..."""
    gate: bool
    tokens: int
    breached: bool


def section_name(text: str) -> str:
    return " ".join(text.split()).lower()


def _row(r: dict) -> Section:
    return Section(r["section"], r["kind"], bool(r["gate"]), r["tokens"], bool(r["breached"]))


def get_section(store: Store, channel_id: int, section: str) -> Section | None:
    rows = store.read(f"select * from {TABLE} where channel_id = ? and section = ?", (channel_id, section_name(section)))
    return _row(rows[0]) if rows else None


def put_section(store: Store, channel_id: int, s: Section) -> None:
    with store.transaction() as db:
        db[TABLE].upsert({"channel_id": channel_id, "section": section_name(s.section), "kind": s.kind, "gate": int(s.gate),
                          "tokens": s.tokens, "breached": int(s.breached), "updated_at": time.time()},
                         pk=("channel_id", "section"))


def sections(store: Store, channel_id: int) -> list[Section]:
    return [_row(r) for r in store.read(f"select * from {TABLE} where channel_id = ? order by section", (channel_id,))]


def reset_siege(store: Store, channel_id: int) -> int:
    """Forget the channel's siege; returns how many sections there were."""
    with store.transaction() as db:
        n = db.execute(f"select count(*) from {TABLE} where channel_id = ?", (channel_id,)).fetchone()[0]
        db.execute(f"delete from {TABLE} where channel_id = ?", (channel_id,))
    return n


def update_section(store: Store, channel_id: int, section: str, kind: str, gate: bool, test) -> tuple[Section | None, object]:
    """Read the section's tokens, run `test(tokens)` (returns the engine's StructureTest) and
    write the outcome back, all in one transaction. Returns the section as it was (None when
    new) and the test."""
    with store.transaction():
        store.lock("siege-section", channel_id, section_name(section))
        before = get_section(store, channel_id, section)
        tokens = 0 if before is None else before.tokens
        result = test(tokens, before)
        put_section(store, channel_id, Section(section_name(section), kind, gate, result.tokens_after, result.destroyed))
    return before, result
