"""campaigns-7-private-reasons: a store written before private shots kept "after a private shot" as
their machine's reason held the misfire chart's row (chart, die, row) of private shots on the
machine, on a mark of a machine taken off the roster mid-battle, and in the shot's machine-after,
where every public view read it. The migration puts the private reason in its place there, and
nowhere else (a public shot's row stays). On both backends."""

from storage import campaigns as c
from storage.campaigns import PRIVATE_OUTCOME, PRIVATE_REASON, Effect
from storage.database import Store
from storage.migrations import MIGRATIONS, open_store

G = 11
ROW = "Malfunction, Black Powder Misfire Chart 3"


def old_store(database) -> Store:
    before = tuple(m for m in MIGRATIONS if m is not c.PRIVATE_REASONS)
    assert len(before) == len(MIGRATIONS) - 1
    return Store.open(database, before)


def shoot(store, battle, machine, *, private: bool, effect: Effect):
    # as the bot recorded shots before: the chart's row kept whatever the shot's privacy
    return c.record_shot(store, G, battle.id, machine.id, user_id=1, kind=machine.kind, fired=False, hits=0,
                         outcome=PRIVATE_OUTCOME if private else "Misfire!", effect=effect)


def test_the_migration_hides_private_shots_chart_rows_and_keeps_public_ones(database):
    with old_store(database) as store:
        add = lambda name, kind="cannon", crew=3: c.add_machine(store, G, name=name, kind=kind, game="fantasy",  # noqa: E731
                                                               crew=crew, owner_id=1, by=1)
        betsy, public, boom, rock, gone = add("Old Betsy"), add("Loud"), add("Boom"), add("Rock", "stone-thrower", 1), add("Gone")
        b = c.start_battle(store, G, 5, by=1, players=(1,))
        shoot(store, b, betsy, private=True, effect=Effect(silent_turns=2, reason=ROW))
        shoot(store, b, public, private=False, effect=Effect(silent_turns=2, reason=ROW))
        shoot(store, b, boom, private=True, effect=Effect(destroyed=True, reason="Destroyed!, Black Powder Misfire Chart 1"))
        shoot(store, b, rock, private=True, effect=Effect(silent_turns=2, wounds=1, reason="Disabled, Stone Thrower Misfire Chart 2"))
        shoot(store, b, gone, private=True, effect=Effect(silent_turns=2, reason=ROW))
        c.remove_machine(store, G, "Gone")  # its state waits under its name until the battle ends
        leaked = {r["machine"]: r["state_after"] for r in store.read("SELECT machine, state_after FROM shots")}
        assert leaked["Old Betsy"] == f"cannot fire until turn 3 ({ROW})"  # what the old bot showed everyone
    with open_store(database) as store:
        roster = {m.name: m for m in c.machines(store, G)}
        battle = c.get_battle(store, G, b.id)
        assert roster["Old Betsy"].status(battle) == f"cannot fire until turn 3 ({PRIVATE_REASON})"
        assert roster["Loud"].status(battle) == f"cannot fire until turn 3 ({ROW})"
        assert roster["Boom"].status() == f"destroyed ({PRIVATE_REASON})"
        assert roster["Rock"].status() == f"destroyed ({PRIVATE_REASON}: the last crewman fell)"
        shots = {r["machine"]: r["state_after"] for r in store.read("SELECT machine, state_after FROM shots")}
        assert shots == {"Old Betsy": f"cannot fire until turn 3 ({PRIVATE_REASON})",
                         "Loud": f"cannot fire until turn 3 ({ROW})",
                         "Boom": f"destroyed ({PRIVATE_REASON})",
                         "Rock": f"destroyed ({PRIVATE_REASON}: the last crewman fell)",
                         "Gone": f"cannot fire until turn 3 ({PRIVATE_REASON})"}
        assert [r["reason"] for r in store.read("SELECT reason FROM machine_marks")] == [PRIVATE_REASON]
        again = c.add_machine(store, G, name="Gone", kind="cannon", game="fantasy", crew=3, owner_id=1, by=1)
        assert again.status(battle) == f"cannot fire until turn 3 ({PRIVATE_REASON})"


def test_a_private_shot_records_the_private_reason_and_a_crewless_machine_says_so(database):
    with open_store(database) as store:
        m = c.add_machine(store, G, name="Wheezy", kind="cannon", game="fantasy", crew=1, owner_id=1, by=1)
        b = c.start_battle(store, G, 5, by=1, players=(1,))
        after, shot = c.record_shot(store, G, b.id, m.id, user_id=1, kind="cannon", fired=True, hits=0,
                                    outcome=PRIVATE_OUTCOME, effect=Effect(wounds=1), private=True)
        assert after.status() == shot.state_after == "destroyed (no crew left)"  # no chart row to hide
