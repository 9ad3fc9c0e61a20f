"""The verifiable roll log (engine/ledger.py): an honest export verifies; changing one die face,
one option, the order of two entries or the secret fails, naming the entry; any roll sequence
replays exactly from the secret."""

import copy
import hashlib
import hmac
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import DieKind, EnteredDice, RandomDice, Roller
from engine.ledger import (
    LedgerFormatError, LoggedDie, canonical, commitment, content_hash, dice_for_roll, export, link_hash, make_entry,
    replay, roll_seed, verify,
)
from engine.roll import roll

SECRET = bytes(range(32))
COMMANDS = [("2d6+1", None), ("10d6>=5 r1", "1 1 6"), ("1a 1s", None), ("3d20kh1", None), ("1a+1d6", "M")]


CHAIN = "channel:1:2"


def build_log(secret: bytes, commands, *, chain=CHAIN, version=4):
    """The export of `commands` rolled one by one as /roll does: roll N's dice from the secret,
    the chain and N (version 3), or numpy's PCG64 seeded from HMAC(secret, N) (version 2)."""
    entries = []
    previous = commitment(secret)
    for number, (text, faces) in enumerate(commands, 1):
        source = dice_for_roll(secret, number, chain, version)
        result = roll(text, EnteredDice(faces, source) if faces else source)
        entry = make_entry(
            previous=previous, number=number, time=f"2026-11-21T20:{number:02d}:00+00:00", user="42", command="roll",
            options={"expression": text, "dice": faces}, dice=result.dice,
            summary=[f"{e.expression.text}: {e.total}" for e in result.expressions],
            salt=bytes([number % 256]) * 16 if version >= 3 else None, flagged=version >= 4,
        )
        entries.append(entry)
        previous = entry.hash
    # through JSON, as the file anyone checks
    return json.loads(json.dumps(export(chain=chain, commitment_hex=commitment(secret), secret=secret, entries=entries,
                                        version=version)))


def rehash(data, start: int = 0):
    """A forger's repair: recompute every hash from entry `start` on, so the chain looks whole."""
    previous = data["commitment"] if start == 0 else data["entries"][start - 1]["hash"]
    for e in data["entries"][start:]:
        e["previous"] = previous
        if data["version"] >= 3:
            if not e.get("sealed"):
                e["seal"] = content_hash({k: v for k, v in e.items() if k not in ("seal", "previous", "hash")})
            private = None
            if data["version"] >= 4:
                private = e.get("private") if e.get("sealed") else e["options"].get("private") is True
            e["hash"] = link_hash(e["roll"], e["time"], e["user"], e["seal"], previous, private)
        else:
            e["hash"] = content_hash({k: v for k, v in e.items() if k != "hash"})
        previous = e["hash"]
    data["head"] = previous
    return data


@pytest.fixture(params=[4, 3, 2], ids=["version 4", "version 3", "version 2"])
def honest(request):
    return build_log(SECRET, COMMANDS, version=request.param)


def test_an_honest_export_verifies(honest):
    result = verify(honest)
    assert result.ok and result.failed_roll is None
    assert result.entries == 5
    assert result.player_dice == 4
    assert result.bot_dice == len([d for e in honest["entries"] for d in e["dice"] if d["by"] == "bot"])
    assert "OK" in result.report()


def test_the_seed_is_hmac_sha256_of_the_roll_number():
    assert roll_seed(SECRET, 7) == hmac.new(SECRET, (7).to_bytes(8, "big"), hashlib.sha256).digest()
    assert commitment(SECRET) == hashlib.sha256(SECRET).hexdigest()


def test_the_first_entry_chains_to_the_commitment_and_each_to_the_one_before(honest):
    entries = honest["entries"]
    assert entries[0]["previous"] == honest["commitment"]
    assert all(b["previous"] == a["hash"] for a, b in zip(entries, entries[1:]))
    e = entries[2]
    if honest["version"] == 2:
        assert e["hash"] == hashlib.sha256(canonical({k: v for k, v in e.items() if k != "hash"})).hexdigest()
    else:
        body = {k: v for k, v in e.items() if k not in ("seal", "previous", "hash")}
        assert e["seal"] == hashlib.sha256(canonical(body)).hexdigest()
        link = {"roll": e["roll"], "time": e["time"], "user": e["user"], "seal": e["seal"], "previous": e["previous"]}
        if honest["version"] >= 4:  # the link covers whether it is a private roll
            link["private"] = e["options"].get("private") is True
        assert e["hash"] == hashlib.sha256(canonical(link)).hexdigest()
    assert honest["head"] == entries[-1]["hash"] and honest["count"] == len(entries)


def bot_die(data, entry: int):
    return next(i for i, d in enumerate(data["entries"][entry]["dice"]) if d["by"] == "bot")


def test_a_changed_die_face_fails_at_its_entry(honest):
    i = bot_die(honest, 1)
    honest["entries"][1]["dice"][i]["face"] = "6" if honest["entries"][1]["dice"][i]["face"] != "6" else "5"
    result = verify(honest)
    assert not result.ok and result.failed_roll == 2
    assert "changed after it was logged" in result.reason
    assert "FAILED at roll 2" in result.report()


def test_a_changed_die_face_with_the_chain_rehashed_fails_on_the_seed(honest):
    i = bot_die(honest, 3)
    die = honest["entries"][3]["dice"][i]
    die["face"] = "20" if die["face"] != "20" else "19"
    result = verify(rehash(honest, 3))
    assert not result.ok and result.failed_roll == 4
    assert f"die {i + 1} (d20, 3d20kh1) shows {die['face']}, but the secret gives" in result.reason


def test_a_changed_option_fails_at_its_entry(honest):
    honest["entries"][0]["options"]["expression"] = "2d6+2"
    result = verify(honest)
    assert not result.ok and result.failed_roll == 1
    assert "changed after it was logged" in result.reason


def test_two_entries_swapped_fail_where_the_order_breaks(honest):
    e = honest["entries"]
    e[1], e[2] = e[2], e[1]
    result = verify(honest)
    assert not result.ok and result.failed_roll == 3
    assert "previous hash is not the hash of the entry before it (roll 1)" in result.reason


def test_two_entries_swapped_and_renumbered_fail_on_the_chain(honest):
    e = honest["entries"]
    e[1], e[2] = e[2], e[1]
    e[1]["roll"], e[2]["roll"] = 2, 3
    result = verify(honest)
    assert not result.ok and result.failed_roll == 2
    assert "previous hash is not the hash of the entry before it (roll 1)" in result.reason


def test_a_changed_secret_fails_against_the_commitment(honest):
    honest["secret"] = bytes(32).hex()
    result = verify(honest)
    assert not result.ok and result.failed_roll is None
    assert "does not match the commitment" in result.reason


def test_a_changed_secret_and_commitment_fail_at_the_first_entry(honest):
    other = bytes(32)
    honest["secret"] = other.hex()
    honest["commitment"] = commitment(other)
    result = verify(honest)
    assert not result.ok and result.failed_roll == 1
    assert "previous hash is not the commitment" in result.reason
    # and a forger who rehashes the whole chain still fails on the first bot die
    result = verify(rehash(honest))
    assert not result.ok and result.failed_roll == 1 and "the secret gives" in result.reason


def test_a_dropped_entry_fails(honest):
    del honest["entries"][2]
    result = verify(honest)
    assert not result.ok and result.failed_roll == 4


def test_player_dice_are_not_checked(honest):
    d = honest["entries"][1]["dice"][0]
    assert d["by"] == "player"
    d["face"] = "4"
    assert verify(rehash(honest, 1)).ok


def test_a_bot_die_passed_off_as_a_players_fails_even_rehashed(honest):
    honest["entries"][3]["dice"][0]["by"] = "player"
    result = verify(rehash(honest, 3))
    assert not result.ok and result.failed_roll == 4
    assert "1 of its dice are marked as entered by players, but its dice option gives 0 faces" in result.reason


def test_a_player_die_needs_its_face_in_the_dice_option(honest):
    honest["entries"][1]["options"]["dice"] = "1 1"
    result = verify(rehash(honest, 1))
    assert not result.ok and result.failed_roll == 2 and "gives 2 faces" in result.reason


def test_before_the_reveal_only_the_chain_is_checked(honest):
    honest["secret"] = None
    result = verify(honest)
    assert result.ok and result.bot_dice == 0 and not result.secret_revealed
    assert "not revealed yet" in result.report()


@pytest.mark.parametrize("broken", [
    [], {"format": "other"}, {"format": "bombardier-roll-log", "version": 99},
    {"format": "bombardier-roll-log", "version": 1, "chain": "c"},
    {"format": "bombardier-roll-log", "version": 1, "chain": "c", "commitment": "x", "secret": "zz", "entries": []},
    {"format": "bombardier-roll-log", "version": 1, "chain": "c", "commitment": "x", "secret": None, "entries": [{"roll": 1}]},
])
def test_a_file_that_is_no_roll_log_is_refused_as_such(broken):
    with pytest.raises(LedgerFormatError):
        verify(broken)


def test_an_unknown_die_fails_its_entry(honest):
    honest["entries"][0]["dice"][0]["die"] = "d1"
    result = verify(rehash(honest))
    assert not result.ok and result.failed_roll == 1 and "'d1' is not a die the log knows" in result.reason


# ------------------------------------------------------------------ replay across the 64-draw batches


@pytest.mark.parametrize("version", [3, 2])
def test_replaying_the_kinds_in_order_crosses_the_batches_exactly(version):
    """Version 2's PCG64 draws 64 uniforms at a time and the scatter die takes two: 300 mixed dice
    cross several batches at odd offsets; version 3 numbers its dice. Replaying their kinds gives
    every face again."""
    source = dice_for_roll(SECRET, 3, CHAIN, version)
    kinds = [DieKind.D6, DieKind.SCATTER, DieKind.ARTILLERY, DieKind.D3] * 60 + [DieKind.DX] * 60
    rolled = [source.roll(k, "p", sides=20) if k is DieKind.DX else source.roll(k, "p") for k in kinds]
    logged = [LoggedDie.of(d) for d in rolled]
    assert replay(SECRET, 3, logged, CHAIN, version) == [d.face for d in rolled]


@pytest.mark.parametrize("version", [3, 2])
def test_replay_depends_on_the_kinds_in_order(version):
    source = dice_for_roll(SECRET, 1, CHAIN, version)
    rolled = [source.d6("p"), source.scatter("p"), source.d6("p")]
    logged = [LoggedDie.of(d) for d in rolled]
    swapped = [logged[1], logged[0], logged[2]]
    assert replay(SECRET, 1, swapped, CHAIN, version) != [d.face for d in swapped]


@pytest.mark.parametrize("version", [3, 2])
def test_indirect_fire_scatter_faces_replay_with_their_small_arrow(version):
    source = dice_for_roll(SECRET, 9, CHAIN, version)
    rolled = [source.scatter("indirect", small_arrow=True) for _ in range(40)]
    assert any(d.face.startswith("H@") for d in rolled)
    assert replay(SECRET, 9, [LoggedDie.of(d) for d in rolled], CHAIN, version) == [d.face for d in rolled]


def test_version_3_dice_depend_on_the_chain_and_the_roll_number():
    def faces(chain, number):
        source = dice_for_roll(SECRET, number, chain)
        return [source.d6("p").face for _ in range(30)]
    assert faces(CHAIN, 1) == faces(CHAIN, 1)
    assert faces(CHAIN, 1) != faces(CHAIN, 2)
    assert faces(CHAIN, 1) != faces("battle:1", 1)


EXPRESSIONS = st.sampled_from(["2d6+1", "20d6>=4", "10d6>=5 r1", "2d6kh1", "1a", "1s", "1a+1d6", "3d20", "4d3-1", "2d100kl1"])


@given(
    secret=st.binary(min_size=32, max_size=32),
    commands=st.lists(
        st.tuples(st.lists(EXPRESSIONS, min_size=1, max_size=3), st.lists(st.sampled_from(["1", "2", "3"]), max_size=2)),
        min_size=1, max_size=6,
    ),
)
@settings(max_examples=60, deadline=None)
def test_any_roll_sequence_replays_exactly_from_the_secret(secret, commands):
    # entered faces go to a leading 2d6, which they always fit
    log = build_log(secret, [(", ".join(["2d6"] * bool(faces) + exprs), " ".join(faces) or None) for exprs, faces in commands])
    result = verify(log)
    assert result.ok, result.reason
    bot = [d for e in log["entries"] for d in e["dice"] if d["by"] == "bot"]
    assert result.bot_dice == len(bot)
    # and every bot face is what its roll's seed gives, entry by entry
    for e in log["entries"]:
        dice = [LoggedDie(**d) for d in e["dice"]]
        assert [f for f in replay(secret, e["roll"], dice, CHAIN) if f is not None] == [d.face for d in dice if d.by == "bot"]


def test_make_entry_refuses_an_option_that_is_not_a_json_scalar():
    with pytest.raises(TypeError):
        make_entry(previous="x", number=1, time="t", user="u", command="roll", options={"x": [1]}, dice=(), summary=())


def test_options_left_out_are_not_logged():
    e = make_entry(previous="x", number=1, time="t", user="u", command="roll", options={"a": 1, "dice": None}, dice=(), summary=())
    assert e.options == (("a", 1),)
    assert e.json()["options"] == {"a": 1}


def test_the_bot_and_player_marks_are_logged():
    r = roll("2d6", EnteredDice("4", RandomDice(0)))
    e = make_entry(previous="x", number=1, time="t", user="u", command="roll", options={}, dice=r.dice, summary=())
    assert [d.by for d in e.dice] == [Roller.PLAYER.value, Roller.BOT.value]
    copy.deepcopy(e)


def test_a_public_roll_passed_off_as_sealed_fails_from_version_4_and_version_3_says_it_cannot_tell():
    """Issue 25: a forged export hid a public roll by marking it sealed; no hash changed. From
    version 4 the link hash covers the private flag, so the forgery fails; a version 3 export still
    verifies, and says what it cannot prove."""
    from engine.ledger import SealedEntry

    def hide(data, i, **extra):
        e = data["entries"][i]
        data["entries"][i] = {**SealedEntry(e["roll"], e["time"], e["user"], e["seal"], e["previous"], e["hash"]).json(),
                              **extra}
        return data

    v4 = build_log(SECRET, COMMANDS)
    for forged in (hide(copy.deepcopy(v4), 1), hide(copy.deepcopy(v4), 1, private=True),
                   hide(copy.deepcopy(v4), 1, private=False)):
        result = verify(forged, head=v4["head"])
        assert not result.ok and result.failed_roll == 2, result.report()
    v3 = build_log(SECRET, COMMANDS, version=3)
    result = verify(hide(copy.deepcopy(v3), 1), head=v3["head"])
    assert result.ok and result.sealed == (2,)
    assert "cannot prove that each sealed entry was one" in result.report()


def test_a_version_4_private_roll_sealed_verifies_and_says_so():
    entries, previous = [], commitment(SECRET)
    for number, private in ((1, False), (2, True), (3, False)):
        source = dice_for_roll(SECRET, number, CHAIN)
        result = roll("2d6", source)
        e = make_entry(previous=previous, number=number, time="2026-11-27T21:00:00+00:00", user="7", command="roll",
                       options={"expression": "2d6", "private": private or None}, dice=result.dice, summary=["x"],
                       salt=bytes(16), flagged=True)
        entries.append(e.sealed() if private else e)
        previous = e.hash
    data = json.loads(json.dumps(export(chain=CHAIN, commitment_hex=commitment(SECRET), secret=SECRET, entries=entries)))
    assert data["version"] == 4 and data["entries"][1]["private"] is True
    result = verify(data, head=data["head"])
    assert result.ok and result.sealed == (2,) and "cannot prove" not in result.report()
