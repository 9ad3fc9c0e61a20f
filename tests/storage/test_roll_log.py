"""The roll log in a real SQLite file (storage/roll_log.py): chains per id, one transaction per
roll, last-N, JSON and CSV exports that verify, reveal and rotation, restarts and concurrency."""

import csv
import io
import itertools
import threading

import pytest

from engine.dice import EnteredDice
from engine.errors import RulesError
from engine.ledger import commitment, dice_for_roll, verify
from engine.roll import roll
from storage import roll_log
from storage.migrations import open_store

CHAIN = roll_log.channel_chain(10, 20)


def secrets():
    counter = itertools.count(1)
    return lambda: next(counter).to_bytes(32, "big")


@pytest.fixture
def store(database):
    with open_store(database) as s:
        yield s


def do_roll(store, text, new_secret, chain=CHAIN, faces=None, user="7"):
    return roll_log.log_roll(
        store, chain, new_secret, lambda d: roll(text, EnteredDice(faces, d) if faces else d),
        user=user, command="roll", options={"expression": text, "dice": faces},
        record=lambda r: (r.dice, [f"{e.expression.text}: {e.total}" for e in r.expressions]),
    )


def test_the_migration_creates_the_tables(store):
    assert {"roll_chains", "roll_entries"} <= set(store.tables())
    assert store.read("select name from schema_migrations where name = 'roll-log-1'")


def test_the_first_roll_starts_the_chain_under_a_committed_secret_and_rolls_from_its_seed(store):
    new = secrets()
    result, entry, chain = do_roll(store, "3d6", new)
    assert chain.started and chain.epoch == 1
    assert chain.commitment == commitment((1).to_bytes(32, "big"))
    assert entry.number == 1 and entry.previous == chain.commitment
    expected = roll("3d6", dice_for_roll((1).to_bytes(32, "big"), 1, CHAIN))
    assert [d.face for d in result.dice] == [d.face for d in expected.dice]
    _, second, chain2 = do_roll(store, "1d6", new)
    assert not chain2.started and second.number == 2 and second.previous == entry.hash


def test_a_mistake_logs_nothing_and_uses_no_number(store):
    new = secrets()
    do_roll(store, "1d6", new)
    with pytest.raises(RulesError):
        do_roll(store, "1d6", new, faces="9")
    _, entry, _ = do_roll(store, "1d6", new)
    assert entry.number == 2
    assert len(roll_log.export_log(store, CHAIN)["entries"]) == 2


def test_chains_are_separate_by_id(store):
    new = secrets()
    do_roll(store, "1d6", new)
    _, other, chain = do_roll(store, "1d6", new, chain=roll_log.channel_chain(11, 20))
    assert other.number == 1 and chain.started
    assert roll_log.current_chain(store, "battle:1") is None
    assert roll_log.last_entries(store, "battle:1", 5) == []


def test_last_entries_are_the_latest_oldest_first(store):
    new = secrets()
    for text in ("1d6", "2d6", "3d6", "4d6"):
        do_roll(store, text, new)
    assert [e.number for e in roll_log.last_entries(store, CHAIN, 2)] == [3, 4]
    assert roll_log.last_entries(store, CHAIN, 2)[1].options == (("expression", "4d6"),)


def test_the_export_verifies_the_chain_before_the_reveal_and_the_dice_after(store):
    new = secrets()
    for text, faces in (("2d6+1", None), ("10d6>=5 r1", "1 1"), ("1a 1s", None)):
        do_roll(store, text, new, faces=faces)
    before = roll_log.export_log(store, CHAIN)
    assert before["secret"] is None
    assert verify(before).ok and verify(before).bot_dice == 0
    revealed = roll_log.reveal(store, CHAIN, new)
    assert revealed.export["secret"] == (1).to_bytes(32, "big").hex()
    result = verify(revealed.export)
    assert result.ok and result.bot_dice > 0 and result.player_dice == 2
    assert revealed.next_commitment == commitment((2).to_bytes(32, "big"))


def test_reveal_rotates_the_secret_and_numbering_starts_again(store):
    new = secrets()
    do_roll(store, "1d6", new)
    roll_log.reveal(store, CHAIN, new)
    _, entry, chain = do_roll(store, "1d6", new)
    assert chain.epoch == 2 and entry.number == 1 and entry.previous == chain.commitment
    assert not chain.started  # the reveal started it and showed its commitment
    assert [e["epoch"] for e in roll_log.epochs(store, CHAIN)] == [1, 2]
    assert roll_log.export_log(store, CHAIN, 1)["secret"] is not None
    assert roll_log.export_log(store, CHAIN)["secret"] is None
    assert roll_log.export_log(store, CHAIN, 3) is None


def test_reveal_of_a_chain_that_never_rolled_is_none(store):
    assert roll_log.reveal(store, CHAIN, secrets()) is None


def test_the_csv_export_has_one_row_per_entry(store):
    new = secrets()
    do_roll(store, "2d6", new, faces="3")
    do_roll(store, "1s", new)
    rows = list(csv.DictReader(io.StringIO(roll_log.export_csv(roll_log.export_log(store, CHAIN)))))
    assert [r["roll"] for r in rows] == ["1", "2"]
    assert rows[0]["dice"].startswith("D6:3:player D6:")
    assert rows[0]["options"] == '{"dice": "3", "expression": "2d6"}'


def test_the_log_survives_a_restart(database):
    path = database
    new = secrets()
    with open_store(path) as s:
        do_roll(s, "1d6", new)
    with open_store(path) as s:
        _, entry, _ = do_roll(s, "1d6", new)
        assert entry.number == 2
        assert verify(roll_log.export_log(s, CHAIN)).ok


def test_two_step_wiring_next_roll_then_append(store):
    new = secrets()
    with store.transaction():
        slot = roll_log.next_roll(store, "battle:9", new)
        result = roll("2d6", slot.dice)
        entry = roll_log.append(store, slot, user="1", command="fire cannon", options={"distance": 30.5},
                                dice=result.dice, summary=["x"])
    assert entry.number == 1 and entry.options == (("distance", 30.5),)
    with pytest.raises(RuntimeError):
        roll_log.append(store, slot, user="1", command="fire cannon", options={}, dice=(), summary=())


def test_concurrent_rolls_on_two_connections_never_share_a_number(database):
    path = database
    open_store(path).close()
    new = secrets()
    lock = threading.Lock()

    def safe_new():
        with lock:
            return new()

    def worker():
        with open_store(path) as s:
            for _ in range(15):
                do_roll(s, "2d6", safe_new)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with open_store(path) as s:
        data = roll_log.export_log(s, CHAIN)
        assert [e["roll"] for e in data["entries"]] == list(range(1, 61))
        assert verify(data).ok


# -------------------------------------------- commands drawn and appended in any order (the bot's path)

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(order=st.permutations(range(8)), failed=st.sets(st.integers(0, 7), max_size=3), faces=st.lists(
    st.sampled_from(["2d6", "1a 1s", "3d20kh1", "5d6>=4"]), min_size=8, max_size=8))
def test_numbers_drawn_at_once_and_appended_in_any_order_verify(tmp_path_factory, order, failed, faces):
    """Eight commands draw their numbers one after the other, then finish in any order; some fail
    after drawing. The log is in append order, every bot die replays from its own number, and the
    failed ones' numbers are reported unused."""
    with open_store(tmp_path_factory.mktemp("o") / "b.sqlite3") as s:
        new = secrets()
        slots = [roll_log.next_roll(s, CHAIN, new) for _ in range(8)]
        assert [slot.number for slot in slots] == list(range(1, 9))
        for i in order:
            if i in failed:
                continue
            result = roll(faces[i], slots[i].dice)
            roll_log.append(s, slots[i], user="7", command="roll", options={"expression": faces[i]},
                            dice=result.dice, summary=["x"])
        roll_log.reveal(s, CHAIN, new)
        data = roll_log.export_log(s, CHAIN, 1)
    assert [e["roll"] for e in data["entries"]] == [i + 1 for i in order if i not in failed]
    result = verify(data)
    assert result.ok, result.report()
    assert result.unused == tuple(sorted(i + 1 for i in failed))


# ------------------------------------------------------------- epochs begun before version 3


def legacy_epoch(store, new):
    """An epoch open when the bot was upgraded: migration roll-log-3 marks it version 2."""
    roll_log.open_chain(store, CHAIN, new)
    with store.transaction() as db:
        db.execute("update roll_chains set version = 2")


def test_an_epoch_begun_before_version_3_keeps_its_dice_and_hashes_to_the_end(store):
    new = secrets()
    legacy_epoch(store, new)
    result, entry, chain = do_roll(store, "3d6", new)
    assert chain.version == 2 and entry.salt is None
    expected = roll("3d6", dice_for_roll((1).to_bytes(32, "big"), 1, CHAIN, version=2))  # numpy's PCG64
    assert [d.face for d in result.dice] == [d.face for d in expected.dice]
    do_roll(store, "1d6", new, user="8", faces=None)
    revealed = roll_log.reveal(store, CHAIN, new)
    assert revealed.export["version"] == 2 and verify(revealed.export, head=revealed.export["head"]).ok
    _, entry, chain = do_roll(store, "1d6", new)  # the next epoch is the current version (4)
    assert chain.version == 4 and entry.salt is not None and entry.flagged


def test_a_version_2_epoch_with_others_private_rolls_is_not_exported_to_a_player(store):
    new = secrets()
    legacy_epoch(store, new)
    roll_log.log_roll(store, CHAIN, new, lambda d: roll("1d6", d), user="7", command="roll",
                      options={"expression": "1d6", "private": True},
                      record=lambda r: (r.dice, ["1d6"]))
    assert roll_log.export_log(store, CHAIN, viewer="7")["entries"][0]["command"] == "roll"  # the roller's own
    with pytest.raises(roll_log.SealedEpochError, match="began before private rolls could be sealed"):
        roll_log.export_log(store, CHAIN, viewer="8")
    assert roll_log.export_log(store, CHAIN)["entries"][0]["options"]["private"] is True  # the GM's
