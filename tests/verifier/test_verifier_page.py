"""The page attached to every export (cogs/dice/words/verifier.html) checks it in headless
Chromium as ``bot.py verify`` does: the untouched export passes; a bot face changed, a bot die
relabelled as a player's, an entry deleted, two swapped, the secret changed, an option changed
and the tail cut off against the posted head are each caught, at the same roll and with the same
verdict as the Python verifier; sealed private entries keep the chain whole."""

from __future__ import annotations

import copy

import pytest

from cogs.dice.words.verifier import page
from engine.dice import EnteredDice
from engine.ledger import commitment, dice_for_roll, export, make_entry, verify
from engine.roll import roll
from tests.engine.test_ledger import rehash

SECRET = bytes(range(7, 39))
CHAIN = "battle:12"
COMMANDS = [
    ("2d6+1", None, {}), ("10d6>=5 r1", "1 1 6", {}), ("1a 1s", None, {"distance": 30.0, "ranks": 4}),
    ("3d20kh1", None, {"private": True}), ("1a+1d6", "M", {}), ("d100, 4d3-1", None, {"note": "</script> ünï"}),
    ("2d1000", None, {"private": True}), ("1s", None, {}),
]


def build(commands=COMMANDS, secret=SECRET, *, seal_private=False):
    entries, previous = [], commitment(secret)
    for n, (text, faces, options) in enumerate(commands, 1):
        source = dice_for_roll(secret, n, CHAIN)
        result = roll(text, EnteredDice(faces, source) if faces else source)
        e = make_entry(previous=previous, number=n, time=f"2026-11-23T21:{n:02d}:00+00:00", user=str(100 + n % 3), flagged=True,
                       command="roll", options={"expression": text, "dice": faces, **options}, dice=result.dice,
                       summary=[f"{x.expression.text}: {x.total}" for x in result.expressions], salt=bytes([n, 7]) * 8)
        entries.append(e.sealed() if seal_private and e.private else e)
        previous = e.hash
    import json
    return json.loads(json.dumps(export(chain=CHAIN, commitment_hex=commitment(secret), secret=secret, entries=entries)))


@pytest.fixture(scope="module")
def honest():
    data = build()
    assert verify(data).ok
    return data


def agree(verifier_page, data, head=None):
    """The page's verdict on `data` (embedded), checked against the Python verifier's."""
    shown = verifier_page.open(page(data))
    if head is not None:
        shown = verifier_page.check_head(head)
    python = verify(data, head=head)
    assert (shown["ok"] == "true") == python.ok, (shown, python)
    assert shown["failedRoll"] == ("" if python.failed_roll is None else str(python.failed_roll)), (shown, python)
    return shown, python


def test_the_untouched_export_passes_and_every_roll_is_shown(verifier_page, honest):
    shown, python = agree(verifier_page, honest, head=honest["head"])
    assert shown["ok"] == "true" and shown["head"] == honest["head"] and shown["count"] == str(len(COMMANDS))
    assert int(shown["botDice"]) == python.bot_dice > 20
    assert "the same as the head posted in the channel" in shown["text"]
    rows = verifier_page.rows()
    assert [r["roll"] for r in rows] == [str(n) for n in range(1, len(COMMANDS) + 1)] and not any(r["bad"] for r in rows)
    assert "</script> ünï" in rows[5]["text"] and "/roll" in rows[0]["text"]
    assert all(url.startswith("file://") for url in verifier_page.requests)  # nothing fetched from anywhere


def bot_die(data, i):
    return next(k for k, d in enumerate(data["entries"][i]["dice"]) if d["by"] == "bot")


def face_changed(d):
    e = d["entries"][2]
    k = bot_die(d, 2)
    e["dice"][k]["face"] = "M" if e["dice"][k]["face"] != "M" else "2"
    return d


def relabelled(d):
    d["entries"][0]["dice"][0]["by"] = "player"
    return rehash(d, 0)


def deleted(d):
    del d["entries"][3]
    return d


def swapped(d):
    e = d["entries"]
    e[4], e[5] = e[5], e[4]
    return d


def secret_changed(d):
    d["secret"] = bytes(32).hex()
    return d


def option_changed(d):
    d["entries"][2]["options"]["distance"] = 31.0
    return d


def face_changed_rehashed(d):
    return rehash(face_changed(d), 2)


def secret_and_commitment_changed_rehashed(d):
    d["secret"] = bytes(32).hex()
    d["commitment"] = commitment(bytes(32))
    return rehash(d)


@pytest.mark.parametrize("tamper,roll", [
    (face_changed, 3), (face_changed_rehashed, 3), (relabelled, 1), (deleted, 5), (swapped, 6),
    (secret_changed, None), (secret_and_commitment_changed_rehashed, 1), (option_changed, 3),
])
def test_each_tampering_is_caught_where_the_python_verifier_catches_it(verifier_page, honest, tamper, roll):
    data = tamper(copy.deepcopy(honest))
    shown, python = agree(verifier_page, data)
    assert shown["ok"] == "false" and python.failed_roll == roll
    assert shown["reason"] == python.reason
    if roll is not None:
        bad = [r["roll"] for r in verifier_page.rows() if r["bad"]]
        assert bad and bad[0] == str(roll)


def test_a_tail_cut_off_passes_alone_but_fails_against_the_posted_head(verifier_page, honest):
    cut = copy.deepcopy(honest)
    del cut["entries"][-2:]
    shown, _ = agree(verifier_page, cut)
    assert shown["ok"] == "true"  # a shorter chain is whole on its own...
    shown, python = agree(verifier_page, cut, head=honest["head"])
    assert shown["ok"] == "false" and "not at the head posted in the channel" in shown["reason"]
    assert shown["reason"] == python.reason


def test_sealed_private_entries_keep_the_chain_and_hide_their_content(verifier_page):
    data = build(seal_private=True)
    shown, python = agree(verifier_page, data, head=data["head"])
    assert shown["ok"] == "true" and python.sealed == (4, 7)
    rows = verifier_page.rows()
    assert rows[3]["sealed"] and "3d20" not in rows[3]["text"] and "sealed" in rows[3]["text"]
    # a sealed entry changed (another user, a moved time) fails on its hash
    data["entries"][3]["user"] = "999"
    agree(verifier_page, data)


def test_an_unsealed_entry_is_checked_against_its_seal(verifier_page):
    sealed = build(seal_private=True)
    full = build()
    assert sealed["entries"][3]["seal"] == full["entries"][3]["seal"]  # the unsealed entry is the one sealed
    forged = copy.deepcopy(full)
    forged["entries"][3]["summary"] = [forged["entries"][3]["summary"][0] + "0"]
    shown, python = agree(verifier_page, forged)
    assert shown["ok"] == "false" and python.failed_roll == 4


def test_a_file_chosen_or_an_unreadable_one(verifier_page, honest):
    assert verifier_page.open(page(None)) == {"state": "idle"}
    assert "Choose or drop" in verifier_page.page.text_content("#summary")
    shown = verifier_page.choose(honest)
    assert shown["ok"] == "true"
    shown = verifier_page.choose({"format": "something else"}, "junk.json")
    assert shown["unreadable"] == "true" and "not a Bombardier roll log" in shown["text"]


def test_a_version_2_export_checks_its_chain_and_leaves_its_dice_to_bot_py_verify(verifier_page):
    from tests.engine.test_ledger import COMMANDS as V2_COMMANDS, build_log
    data = build_log(SECRET, V2_COMMANDS, version=2)
    shown, _ = agree(verifier_page, data)
    assert shown["ok"] == "true" and "python bot.py verify checks them" in shown["text"]
    data["entries"][1]["options"]["dice"] = "1 2 3"
    agree(verifier_page, data)


def test_a_public_roll_passed_off_as_sealed_fails_in_version_4_and_version_3_says_it_cannot_tell(verifier_page):
    """Issue 25: the page agrees with bot.py verify: from version 4 the private flag is in every
    entry's hash, so a public roll hidden as "sealed" fails; a version 3 export says what it cannot prove."""
    from engine.ledger import SealedEntry

    def hide(data, i, **extra):
        e = data["entries"][i]
        data["entries"][i] = {**SealedEntry(e["roll"], e["time"], e["user"], e["seal"], e["previous"], e["hash"]).json(),
                              **extra}
        return data

    honest = build()
    for extra in ({}, {"private": True}, {"private": False}):
        shown, python = agree(verifier_page, hide(copy.deepcopy(honest), 1, **extra), head=honest["head"])
        assert shown["ok"] == "false" and python.failed_roll == 2 and shown["reason"] == python.reason
    sealed = build(seal_private=True)
    shown, _ = agree(verifier_page, sealed, head=sealed["head"])
    assert shown["ok"] == "true" and "cannot prove" not in shown["text"]
    from tests.engine.test_ledger import COMMANDS as V3_COMMANDS, build_log
    v3 = build_log(SECRET, V3_COMMANDS, version=3)
    shown, python = agree(verifier_page, hide(copy.deepcopy(v3), 1), head=v3["head"])
    assert shown["ok"] == "true" and "cannot prove that each sealed entry was one" in shown["text"]
    assert "cannot prove that each sealed entry was one" in python.report()
