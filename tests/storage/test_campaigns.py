"""Settings, campaigns, battles and rosters against real SQLite files (a temporary path, never a mock)."""

import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from storage import campaigns as c
from storage.migrations import open_store
from storage.campaigns import CampaignError, Effect
from storage.settings import change_settings, chosen_game, settings_for

ROOT = Path(__file__).resolve().parents[2]
G1, G2 = 11, 22


@pytest.fixture
def store(database):
    with open_store(database) as s:
        yield s


def test_the_schema_is_built_by_named_migrations(store):
    names = [r["name"] for r in store.read("SELECT name FROM schema_migrations ORDER BY applied_at")]
    assert names[0] == "settings-1" and {"campaigns-1", "settings-2", "campaigns-2"} <= set(names)  # and others'
    assert {"settings", "campaigns", "campaign_members", "battles", "battle_players", "machines", "shots"} <= set(
        store.tables())


# -- settings ----------------------------------------------------------------------------------
def test_a_channel_overrides_its_server_field_by_field(store):
    assert settings_for(store, G1, 5).game == "fantasy"
    change_settings(store, G1, None, by=1, game="warmaster", gm_role_id=77)
    change_settings(store, G1, 5, by=1, game="40k")
    here = settings_for(store, G1, 5)
    assert (here.game, here.gm_role_id, here.private_rolls, here.overridden) == ("40k", 77, True, ("game",))
    assert settings_for(store, G1, 6).game == "warmaster"
    change_settings(store, G1, 5, by=1, game=None)
    assert settings_for(store, G1, 5).game == "warmaster"


def test_the_chosen_game_is_the_channels_then_the_servers_and_none_when_unset(store):
    assert chosen_game(store, G1, 5) is None and settings_for(store, G1, 5).game == "fantasy"
    change_settings(store, G1, 5, by=1, private_rolls=False)  # a channel row with no game of its own
    assert chosen_game(store, G1, 5) is None
    change_settings(store, G1, None, by=1, game="warmaster")
    assert chosen_game(store, G1, 5) == chosen_game(store, G1, None) == "warmaster"
    change_settings(store, G1, 5, by=1, game="40k")
    assert (chosen_game(store, G1, 5), chosen_game(store, G1, 6)) == ("40k", "warmaster")
    assert chosen_game(store, G2, 5) is None


def test_settings_of_one_server_are_not_seen_by_another(store):
    change_settings(store, G1, None, by=1, private_rolls=False, gm_role_id=9)
    other = settings_for(store, G2, 5)
    assert (other.private_rolls, other.gm_role_id) == (True, None)


def test_an_unknown_game_is_a_bug_not_a_setting(store):
    with pytest.raises(ValueError, match="chess"):
        change_settings(store, G1, None, by=1, game="chess")


# -- campaigns ---------------------------------------------------------------------------------
def test_campaign_names_are_unique_per_server_whatever_the_case(store):
    made = c.create_campaign(store, G1, "  Border   Wars ", by=1)
    assert (made.name, made.members) == ("Border Wars", (1,))
    with pytest.raises(CampaignError, match="already has a campaign called 'BORDER WARS'"):
        c.create_campaign(store, G1, "BORDER WARS", by=2)
    assert c.create_campaign(store, G2, "Border Wars", by=3).guild_id == G2


def test_unknown_empty_and_overlong_names_are_refused_clearly(store):
    c.create_campaign(store, G1, "Border Wars", by=1)
    with pytest.raises(CampaignError, match="no campaign called 'Bordr' on this server. Campaigns here: Border Wars"):
        c.get_campaign(store, G1, "Bordr")
    with pytest.raises(CampaignError, match="Give the campaign a name"):
        c.create_campaign(store, G1, "   ", by=1)
    with pytest.raises(CampaignError, match="is 41 characters; keep it to 40"):
        c.create_campaign(store, G1, "x" * 41, by=1)
    with pytest.raises(CampaignError, match="Create one with /campaign create"):
        c.get_campaign(store, G2, "Border Wars")


def test_join_and_leave(store):
    c.create_campaign(store, G1, "Border Wars", by=1)
    assert c.join_campaign(store, G1, "border wars", 2).members == (1, 2)
    with pytest.raises(CampaignError, match="already in"):
        c.join_campaign(store, G1, "Border Wars", 2)
    assert c.leave_campaign(store, G1, "Border Wars", 1).members == (2,)
    with pytest.raises(CampaignError, match="not in the campaign"):
        c.leave_campaign(store, G1, "Border Wars", 1)


# -- battles -----------------------------------------------------------------------------------
def test_one_battle_per_channel_with_its_players_and_turns(store):
    c.create_campaign(store, G1, "Border Wars", by=1)
    c.join_campaign(store, G1, "Border Wars", 2)
    b = c.start_battle(store, G1, 5, by=1, campaign="Border Wars", players=(1, 2))
    assert (b.turn, b.players, b.campaign) == (1, (1, 2), "Border Wars")
    with pytest.raises(CampaignError, match="already in progress"):
        c.start_battle(store, G1, 5, by=2)
    assert c.current_battle(store, G2, 5) is None  # same channel id, another server
    assert c.next_turn(store, G1, 5).turn == 2
    ended = c.end_battle(store, G1, 5)
    assert ended.ended_at is not None
    with pytest.raises(CampaignError, match="no battle in progress"):
        c.next_turn(store, G1, 5)
    assert c.start_battle(store, G1, 5, by=2).turn == 1


def test_turns_pressed_at_once_from_many_threads_all_count(store):
    c.start_battle(store, G1, 5, by=1)
    threads = [threading.Thread(target=lambda: [c.next_turn(store, G1, 5) for _ in range(10)]) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert c.battle_here(store, G1, 5).turn == 81


# -- machines ----------------------------------------------------------------------------------
def machine(store, name="Old Betsy", kind="cannon", crew=3, owner=1, guild=G1):
    return c.add_machine(store, guild, name=name, kind=kind, game="fantasy", crew=crew, owner_id=owner, by=owner)


def test_machine_names_are_unique_per_server_and_isolated(store):
    machine(store)
    with pytest.raises(CampaignError, match="already has a war machine called 'old betsy'"):
        machine(store, "old betsy", owner=2)
    machine(store, guild=G2)
    with pytest.raises(CampaignError, match="no war machine called 'Big Bertha'"):
        c.get_machine(store, G1, "Big Bertha")
    with pytest.raises(CampaignError, match="crew of 0"):
        machine(store, "Nobody", crew=0)
    c.remove_machine(store, G2, "Old Betsy")
    assert c.get_machine(store, G1, "Old Betsy").guild_id == G1


def test_a_malfunction_on_turn_2_silences_until_turn_4_in_that_battle_only(store):
    m = machine(store)
    b = c.start_battle(store, G1, 5, by=1)
    c.next_turn(store, G1, 5)
    after, shot = c.record_shot(store, G1, b.id, m.id, user_id=1, kind="cannon", fired=False, hits=0,
                                outcome="Misfire", effect=Effect(silent_turns=2, reason="Malfunction"))
    assert (after.state, after.silent_until_turn, shot.turn) == ("silenced", 4, 2)
    b = c.next_turn(store, G1, 5)
    assert c.refusal(after, b) == "Old Betsy cannot fire until turn 4 (Malfunction); it is turn 3."
    with pytest.raises(CampaignError, match="until turn 4"):
        c.record_shot(store, G1, b.id, m.id, user_id=1, kind="cannon", fired=True, hits=1, outcome="x", effect=Effect())
    b = c.next_turn(store, G1, 5)
    assert c.refusal(c.get_machine(store, G1, "Old Betsy"), b) is None
    c.end_battle(store, G1, 5)
    b2 = c.start_battle(store, G1, 5, by=1)
    assert c.refusal(c.get_machine(store, G1, "Old Betsy"), b2) is None


def test_destroyed_wounded_and_crewless_machines(store):
    b = c.start_battle(store, G1, 5, by=1)
    boom = machine(store, "Boom")
    after, _ = c.record_shot(store, G1, b.id, boom.id, user_id=1, kind="cannon", fired=False, hits=0, outcome="x",
                             effect=Effect(destroyed=True, reason="Destroyed, Black Powder Misfire Chart 1"))
    assert after.state == "destroyed" and after.crew == 0 and after.status() == "destroyed (Destroyed, Black Powder Misfire Chart 1)"
    assert "is destroyed" in c.refusal(after, b)
    rock = machine(store, "Rock", kind="stone-thrower", crew=2)
    disabled = Effect(silent_turns=2, wounds=1, reason="Disabled")
    after, _ = c.record_shot(store, G1, b.id, rock.id, user_id=1, kind="stone-thrower", fired=False, hits=0,
                             outcome="x", effect=disabled)
    assert (after.crew, after.state) == (1, "silenced")
    for _ in range(2):
        b = c.next_turn(store, G1, 5)
    after, shot = c.record_shot(store, G1, b.id, rock.id, user_id=1, kind="stone-thrower", fired=False, hits=0,
                                outcome="x", effect=disabled)
    assert (after.crew, after.state, after.reason) == (0, "destroyed", "Disabled: the last crewman fell")
    assert shot.state_after.startswith("destroyed")
    fixed = c.repair_machine(store, G1, "rock")
    assert (fixed.crew, fixed.state, fixed.reason) == (2, "ok", None)
    assert [s.machine for s in c.battle_shots(store, G1, b.id)] == ["Boom", "Rock", "Rock"]
    assert c.battle_shots(store, G2, b.id) == []


def test_state_survives_closing_and_reopening_the_file(database):
    path = database
    with open_store(path) as s:
        m = machine(s)
        b = c.start_battle(s, G1, 5, by=1)
        c.record_shot(s, G1, b.id, m.id, user_id=1, kind="cannon", fired=False, hits=0, outcome="x",
                      effect=Effect(silent_turns=2, reason="Malfunction"))
        change_settings(s, G1, None, by=1, game="40k")
    with open_store(path) as s:
        b = c.battle_here(s, G1, 5)
        assert c.get_machine(s, G1, "Old Betsy").silenced_in(b)
        assert settings_for(s, G1, 5).game == "40k"


TURNER = """
import sys
sys.path.insert(0, sys.argv[1])
from storage.migrations import open_store
from storage import campaigns as c
s = open_store(sys.argv[2])
print("ready", flush=True)
while True:
    with s.transaction():
        c.next_turn(s, 11, 5)
        c.add_player(s, 11, c.battle_here(s, 11, 5).id, 1000 + c.battle_here(s, 11, 5).turn)
"""


def test_a_process_killed_mid_command_leaves_turn_and_players_consistent(database):
    path = database
    with open_store(path) as s:
        c.start_battle(s, G1, 5, by=1)
    proc = subprocess.Popen([sys.executable, "-c", TURNER, str(ROOT), str(path)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(0.4)
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    with open_store(path) as s:
        b = c.battle_here(s, G1, 5)
        assert b.turn > 1
        # each turn and its player commit together: turn N always has player 1000 + N
        assert b.players == (1, *range(1002, 1000 + b.turn + 1))
        if s.backend == "sqlite":
            assert s.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_the_roster_shows_a_silence_wherever_it_is_listed_while_its_battle_lasts(store):
    m = machine(store)
    b = c.start_battle(store, G1, 5, by=1)
    c.record_shot(store, G1, b.id, m.id, user_id=1, kind="cannon", fired=False, hits=0, outcome="x",
                  effect=Effect(silent_turns=2, reason="Malfunction"))
    listed = c.machines(store, G1)[0]
    assert listed.status() == "cannot fire until turn 3 (Malfunction)"
    c.next_turn(store, G1, 5)
    c.next_turn(store, G1, 5)
    assert c.get_machine(store, G1, "Old Betsy").status() == "ready"
    c.end_battle(store, G1, 5)
    assert c.get_machine(store, G1, "Old Betsy").status() == "ready"


def test_a_machine_silenced_in_one_channels_battle_is_silenced_in_another(store):
    m = machine(store)
    here = c.start_battle(store, G1, 5, by=1)
    c.record_shot(store, G1, here.id, m.id, user_id=1, kind="cannon", fired=False, hits=0, outcome="x",
                  effect=Effect(silent_turns=2, reason="Malfunction"))
    there = c.start_battle(store, G1, 6, by=1)
    assert c.refusal(c.get_machine(store, G1, "Old Betsy"), there) == (
        "Old Betsy cannot fire until turn 3 of the battle it was silenced in (Malfunction); it is turn 1 there.")


def test_a_shot_is_not_recorded_against_a_battle_that_has_ended(store):
    m = machine(store)
    b = c.start_battle(store, G1, 5, by=1)
    c.end_battle(store, G1, 5)
    with pytest.raises(CampaignError, match="The battle ended before the shot was recorded"):
        c.record_shot(store, G1, b.id, m.id, user_id=1, kind="cannon", fired=True, hits=1, outcome="x", effect=Effect())


TURNS = """
import sys
sys.path.insert(0, sys.argv[1])
from storage.migrations import open_store
from storage import campaigns as c
s = open_store(sys.argv[2])
for _ in range(30):
    c.next_turn(s, 11, 5)
"""


def test_two_bot_processes_moving_one_battle_on_lose_no_turn(database):
    path = database
    with open_store(path) as s:
        c.start_battle(s, G1, 5, by=1)
    procs = [subprocess.Popen([sys.executable, "-c", TURNS, str(ROOT), str(path)]) for _ in range(3)]
    assert all(p.wait(60) == 0 for p in procs)
    with open_store(path) as s:
        assert c.battle_here(s, G1, 5).turn == 91


def test_status_counts_shots_in_sql_as_loading_them_would(store):
    """/battle status and /battle turn count a battle's shots and find its lost machines in SQL
    (issue 15), the same answer as loading every shot, through the index alone."""
    b = c.start_battle(store, G1, 5, by=1)
    guns = [c.add_machine(store, G1, name=f"Gun {i}", kind="cannon", game="fantasy", crew=1, owner_id=1, by=1)
            for i in range(3)]
    for i in range(7):
        c.record_shot(store, G1, b.id, guns[i % 2].id, user_id=1, kind="cannon", fired=True, hits=i, outcome="x",
                      effect=c.Effect())
    c.next_turn(store, G1, 5)
    c.record_shot(store, G1, b.id, guns[2].id, user_id=1, kind="cannon", fired=True, hits=1, outcome="x",
                  effect=c.Effect(wounds=1))  # its last crewman: destroyed on turn 2
    tally = c.shot_tally(store, G1, b.id)
    shots = c.battle_shots(store, G1, b.id)
    assert len(tally) == len(shots) == 8
    assert dict(tally.lost_at) == {s.machine: s.turn for s in shots if s.state_after.startswith("destroyed")} == {"Gun 2": 2}
    assert c.shot_tally(store, G2, b.id).count == 0  # another server's battle number shows nothing
    if store.backend == "sqlite":  # PostgreSQL's planner reads a table this small whole, whatever the index
        plan = " ".join(str(r) for r in store.db.execute(
            "EXPLAIN QUERY PLAN SELECT COUNT(*) FROM shots WHERE battle_id = ? AND guild_id = ?", (b.id, G1)).fetchall())
        assert "COVERING INDEX shots_tally" in plan


def test_the_tally_keeps_every_silence_of_the_battle(store):
    """Issue 18: /battle status keeps the history of past silences, not only the current one."""
    b = c.start_battle(store, G1, 5, by=1)
    gun = c.add_machine(store, G1, name="Old Betsy", kind="cannon", game="fantasy", crew=3, owner_id=1, by=1)
    c.record_shot(store, G1, b.id, gun.id, user_id=1, kind="cannon", fired=False, hits=0, outcome="Misfire",
                  effect=c.Effect(silent_turns=1, reason="Malfunction"))  # turn 1: cannot fire until turn 2
    c.next_turn(store, G1, 5)
    c.next_turn(store, G1, 5)
    c.record_shot(store, G1, b.id, gun.id, user_id=1, kind="cannon", fired=True, hits=2, outcome="x", effect=c.Effect())
    assert c.shot_tally(store, G1, b.id).silences == (("Old Betsy", 1, 2),)
    assert c.silenced_until("cannot fire until turn 12 (Malfunction)") == 12 and c.silenced_until("ready") is None


def test_the_reports_totals_are_counted_in_sql_as_adding_the_shots_up_would(store):
    """Issue 15: /battle end's report adds its shots up in SQL; the same as from every shot."""
    b = c.start_battle(store, G1, 5, by=1)
    guns = [c.add_machine(store, G1, name=f"Gun {i}", kind="cannon", game="fantasy", crew=1, owner_id=1, by=1)
            for i in range(3)]
    for i in range(6):
        c.record_shot(store, G1, b.id, guns[i % 2].id, user_id=1, kind="cannon", fired=i % 3 != 0, hits=i,
                      outcome="x", effect=c.Effect())
    c.record_shot(store, G1, b.id, guns[2].id, user_id=1, kind="cannon", fired=True, hits=2, outcome="x",
                  effect=c.Effect(wounds=1))  # destroyed
    c.record_shot(store, G1, b.id, guns[1].id, user_id=1, kind="cannon", fired=True, hits=0, outcome="x",
                  effect=c.Effect(destroyed=True, reason="Destroyed"))
    totals = c.shot_totals(store, G1, b.id)
    shots = c.battle_shots(store, G1, b.id)
    assert totals == c.ShotTotals(len(shots), sum(not s.fired for s in shots), sum(s.hits for s in shots),
                                  tuple(dict.fromkeys(s.machine for s in shots if s.state_after.startswith("destroyed"))))
    assert (totals.shots, totals.misfired, totals.hits, totals.lost) == (8, 2, 17, ("Gun 2", "Gun 1"))
    assert c.shot_totals(store, G2, b.id) == c.ShotTotals(0, 0, 0, ())
