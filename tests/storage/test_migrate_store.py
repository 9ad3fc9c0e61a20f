"""``bot.py migrate-store`` (issue 15): a SQLite bot's whole store copied into PostgreSQL, counted
and verified; a second run refuses to overwrite unless told to; the bot then runs on the copy as
it ran on the file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot import create_bot
from config.settings import Settings
from engine.dice import DieKind
from storage import actions, campaigns as c, roll_log, sieges
from storage.migrations import open_store

ROOT = Path(__file__).resolve().parents[2]
G, CH = 7, 70
TABLES = ("settings", "campaigns", "campaign_members", "battles", "battle_players", "machines", "shots",
          "siege_events", "reply_actions", "siege_sections", "roll_chains", "roll_entries", "roll_undelivered")




def secret():
    return os.urandom(32)


def a_used_store(path: Path) -> int:
    """A store with something in every table, as a season of play leaves it; the battle's id."""
    with open_store(path) as s:
        from storage.settings import change_settings

        change_settings(s, G, None, by=1, game="warmaster", turns="gm")
        c.create_campaign(s, G, "Border Wars", by=1)
        c.join_campaign(s, G, "Border Wars", 3)
        gun = c.add_machine(s, G, name="Old Betsy", kind="cannon", game="fantasy", crew=3, owner_id=1, by=1)
        c.add_machine(s, G, name="Thunder", kind="great-cannon", game="fantasy", crew=4, owner_id=3, by=3)
        battle, _ = c.start_battle_logged(s, G, CH, secret, by=1, campaign="Border Wars", players=(3, 2))
        for n in range(3):
            with s.transaction():
                slot = roll_log.next_roll(s, roll_log.battle_chain(battle.id), secret)
                die = slot.dice.roll(DieKind.D6, "to hit")
                c.record_shot(s, G, battle.id, gun.id, user_id=1, kind="cannon", fired=True, hits=die.value,
                              outcome="x", effect=c.Effect(silent_turns=1 if n == 2 else 0, reason="Malfunction"))
                roll_log.append(s, slot, user="1", command="fire cannon", options={}, dice=(die,), summary=("x",))
            c.next_turn(s, G, CH)
        c.record_siege_event(s, G, CH, user_id=3, command="siege structure", section="gate", tokens_before=0,
                             tokens_after=1, outcome="holds")
        sieges.put_section(s, CH, sieges.Section("gate", "gateway", True, 1, False))
        actions.remember(s, guild_id=G, channel_id=CH, user_id=1, command="roll", options={"expression": "2d6"}, dice=())
        for private in (False, True, False):
            roll_log.log_roll(s, roll_log.channel_chain(G, CH), secret, lambda d: d.roll(DieKind.D6, "roll"),
                              user="3", command="roll", options={"private": private} if private else {},
                              record=lambda d: ((d,), (str(d.value),)))
        roll_log.reveal(s, roll_log.channel_chain(G, CH), secret)  # a revealed epoch, and the next one open
        roll_log.log_roll(s, roll_log.channel_chain(G, CH), secret, lambda d: d.roll(DieKind.D6, "roll"),
                          user="2", command="roll", options={}, record=lambda d: ((d,), (str(d.value),)))
        roll_log.mark_undelivered(s, roll_log.channel_chain(G, CH), 2, 1)
        return battle.id


def migrate(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "BOMBARDIER_DATABASE")}
    return subprocess.run([sys.executable, str(ROOT / "bot.py"), "migrate-store", *args], capture_output=True,
                          text=True, timeout=300, env=env)


def everything(store) -> dict[str, list]:
    return {t: sorted(repr(sorted((k, v) for k, v in r.items() if k != "rowid")) for r in store.read(f"SELECT * FROM {t}"))
            for t in TABLES}


async def test_a_sqlite_store_moves_to_postgresql_whole_and_the_bot_runs_on_it(tmp_path, pg_url):
    source = tmp_path / "bombardier.sqlite3"
    battle_id = a_used_store(source)

    out = migrate("--from", str(source), "--to", pg_url)
    assert out.returncode == 0, out.stderr
    assert "every count matches and 3 roll log epochs verify on the target" in out.stdout
    assert "battle_players: 3 rows" in out.stdout and "roll_entries: 7 rows" in out.stdout

    with open_store(source) as s, open_store(pg_url) as t:
        assert all(everything(s).values()), "the test store should fill every table"
        assert everything(t) == everything(s)
        for chain, epoch in ((roll_log.battle_chain(battle_id), 1), (roll_log.channel_chain(G, CH), 1),
                             (roll_log.channel_chain(G, CH), 2)):
            for viewer in (None, "2"):
                assert roll_log.export_log(t, chain, epoch, viewer=viewer) == roll_log.export_log(s, chain, epoch, viewer=viewer)
        # order read back (players as they joined) and new ids past the copied ones
        assert c.get_battle(t, G, battle_id).players == c.get_battle(s, G, battle_id).players == (1, 3, 2)
        assert c.add_machine(t, G, name="New", kind="cannon", game="fantasy", crew=1, owner_id=1, by=1).id == 3

    # the bot on the copy answers as it did on the file
    for where in (source, pg_url):
        bot = create_bot(Settings(data_dir=tmp_path / "data", database=where, sync_commands=False, dice_seed=5))
        await bot.load_cogs()
        try:
            from tests.cogs.campaign.test_campaign_cog import ok
            status = (await ok(bot, "/battle status", guild=G, channel=CH)).fields["battle"]
            assert status["turn"] == 4 and status["campaign"] == "Border Wars"
        finally:
            await bot.close()


def test_a_second_run_refuses_to_overwrite_unless_told_to(tmp_path, pg_url):
    source = tmp_path / "bombardier.sqlite3"
    a_used_store(source)
    assert migrate("--from", str(source), "--to", pg_url).returncode == 0
    with open_store(pg_url) as t:
        c.next_turn(t, G, CH)  # played on after the move
        before = everything(t)

    again = migrate("--from", str(source), "--to", pg_url)
    assert again.returncode == 2
    assert "already holds a store" in again.stderr and "--replace" in again.stderr
    assert "Traceback" not in again.stderr and again.stderr.count("\n") == 1
    with open_store(pg_url) as t:
        assert everything(t) == before  # nothing touched

    assert migrate("--from", str(source), "--to", pg_url, "--replace").returncode == 0
    with open_store(pg_url) as s, open_store(source) as f:
        assert everything(s) == everything(f)


@pytest.mark.parametrize("args, says", [
    (("--from", "/no/such/bombardier.sqlite3", "--to", "postgresql://x@127.0.0.1:9/b"), "There is no SQLite store at"),
    (("--from", "postgresql://x@h/b", "--to", "postgresql://x@h/c"), "--from takes the SQLite file"),
    (("--from", "{source}", "--to", "postgresql://bot:hunter2@127.0.0.1:9/b"), "cannot be reached"),
    (("--from", "{source}", "--to", "mysql://x@h/b"), "not a store Bombardier knows"),
])
def test_mistakes_are_one_line_and_change_nothing(tmp_path, args, says):
    source = tmp_path / "b.sqlite3"
    open_store(source).close()
    out = migrate(*(a.format(source=source) for a in args))
    assert out.returncode == 2 and says in out.stderr, out.stderr
    assert "Traceback" not in out.stderr and "hunter2" not in out.stderr + out.stdout
