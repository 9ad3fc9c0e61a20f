"""``bot.py migrate-store`` copies every table that lasts: army lists, the marks of machines taken
off a roster mid-battle and the buttons forget-me erased too (its list had missed them, so a move to
PostgreSQL lost every member's army lists). Only the claims stay behind: an interaction's claim and
a process's shard lease belong to the processes of the old store."""

from __future__ import annotations

from pathlib import Path

from engine.roster import read_roster
from storage import actions, armies, campaigns as c, privacy
from storage.migrate import TABLES, migrate_store
from storage.migrations import open_store

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "army"
G, CH = 7, 70


def test_every_table_but_the_claims_is_copied(tmp_path):
    with open_store(tmp_path / "x.sqlite3") as s:
        kept = set(s.tables()) - {"schema_migrations", "interaction_claims", "shard_leases"}
    assert kept <= set(TABLES), sorted(kept - set(TABLES))


def test_army_lists_marks_and_erased_buttons_reach_the_target(tmp_path, pg_url):
    source = tmp_path / "bombardier.sqlite3"
    with open_store(source) as s:
        armies.save_army(s, G, 1, read_roster((FIXTURES / "empire.ros").read_bytes()))
        gun = c.add_machine(s, G, name="Old Betsy", kind="cannon", game="fantasy", crew=3, owner_id=1, by=1)
        battle = c.start_battle(s, G, CH, by=1, players=(1,))
        c.record_shot(s, G, battle.id, gun.id, user_id=1, kind="cannon", fired=False, hits=0, outcome="x",
                      effect=c.Effect(silent_turns=2, reason="Malfunction"))
        c.remove_machine(s, G, "Old Betsy")
        actions.remember(s, guild_id=G, channel_id=CH, user_id=2, command="roll", options={}, dice=())
        privacy.forget_user(s, 2)
        before = {t: s.read(f"SELECT COUNT(*) AS n FROM {t}")[0]["n"] for t in ("armies", "machine_marks", "erased_actions")}
    assert all(before.values()), before
    copied = dict(migrate_store(source, pg_url).rows)
    assert {t: copied[t] for t in before} == before
    with open_store(pg_url) as target:
        assert [a.name for a in armies.armies(target, G, [1])] == ["Host of Talabheim"]
        again = c.add_machine(target, G, name="Old Betsy", kind="cannon", game="fantasy", crew=3, owner_id=1, by=1)
        assert again.state == "silenced" and again.silent_until_turn == 3  # the battle's mark came along
