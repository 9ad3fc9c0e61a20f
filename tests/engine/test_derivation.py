"""docs/roll-derivation.md: the shipped test vectors against an independent implementation of the
document and against engine/dice.py; every die kind uniform over a million dice (chi-square); any
one changed bit of the secret, an option or a face fails verification."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import math
import struct
from collections import Counter
from pathlib import Path

import pytest

from engine.dice import DieKind, RandomDice
from engine.ledger import LoggedDie, commitment, dice_for_roll, export, make_entry, replay, verify
from engine.roll import roll

VECTORS = json.loads((Path(__file__).resolve().parents[2] / "docs" / "roll-derivation-vectors.json").read_text())


# ------------------------------------------------- the document, implemented again from its words


def words(secret: bytes, chain: str, n: int, i: int):
    block = 0
    while True:
        message = f"bombardier-die\n{chain}\n{n}\n{i}\n{block}".encode()
        yield from struct.unpack(">8I", hmac.new(secret, message, hashlib.sha256).digest())
        block += 1


def below(stream, n: int) -> int:
    limit = 2**32 - 2**32 % n
    for w in stream:
        if w < limit:
            return w % n


def face(secret: bytes, chain: str, n: int, i: int, die: str, small_arrow: bool = False) -> str:
    stream = words(secret, chain, n, i)
    if die == "artillery":
        return ["2", "4", "6", "8", "10", "M"][below(stream, 6)]
    if die == "scatter":
        k, d = below(stream, 6), below(stream, 360)
        return (f"H@{d}" if small_arrow else "H") if k < 2 else f"@{d}"
    sides = {"D6": 6, "D3": 3}.get(die) or int(die[1:])
    return str(below(stream, sides) + 1)


def test_the_vectors_first_block_is_the_documented_hmac():
    v = VECTORS["first_block"]
    secret = bytes.fromhex(VECTORS["secret"])
    assert v["message"] == f"bombardier-die\n{VECTORS['chain']}\n{v['roll']}\n{v['index']}\n{v['block']}"
    assert hmac.new(secret, v["message"].encode(), hashlib.sha256).hexdigest() == v["hmac_sha256"]
    assert hashlib.sha256(secret).hexdigest() == VECTORS["commitment"]


@pytest.mark.parametrize("case", VECTORS["below"], ids=lambda c: f"{c['word']} below {c['n']}")
def test_the_vectors_rejection_cases(case):
    assert case["limit"] == 2**32 - 2**32 % case["n"]
    got = below(iter([case["word"]]), case["n"])
    assert got == case["result"]


def test_the_vectors_faces_follow_the_document_and_the_bot():
    secret, chain = bytes.fromhex(VECTORS["secret"]), VECTORS["chain"]
    kinds = {"D6": DieKind.D6, "D3": DieKind.D3, "artillery": DieKind.ARTILLERY, "scatter": DieKind.SCATTER}
    seen = set()
    for r in VECTORS["rolls"]:
        bot = RandomDice(secret, chain=chain, roll=r["roll"])
        for i, d in enumerate(r["dice"]):
            small = d.get("small_arrow", False)
            assert face(secret, chain, r["roll"], i, d["die"], small) == d["face"]
            if d["die"] in kinds:
                assert bot.roll(kinds[d["die"]], "v", small_arrow=small).face == d["face"]
            else:
                assert bot.roll(DieKind.DX, "v", sides=int(d["die"][1:])).face == d["face"]
            seen.add(d["die"])
        logged = [LoggedDie(d["die"], d["face"], "v", "bot") for d in r["dice"]]
        assert replay(secret, r["roll"], logged, chain) == [d["face"] for d in r["dice"]]
    assert {"D6", "D3", "artillery", "scatter", "d20", "d100", "d1000", "d10"} <= seen
    assert any(d["face"].startswith("H@") for r in VECTORS["rolls"] for d in r["dice"])


def test_the_vectors_file_is_what_the_script_writes():
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "scripts" / "roll_vectors.py"
    spec = importlib.util.spec_from_file_location("roll_vectors", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.vectors() == VECTORS


# ------------------------------------------------------------------------------- uniformity

DICE = 1_000_000
P = 0.001
Z = 3.090232  # the standard normal's upper 0.001 point


def critical(df: int) -> float:
    """The chi-square value a fair die exceeds with probability 0.001 (Wilson-Hilferty)."""
    return df * (1 - 2 / (9 * df) + Z * math.sqrt(2 / (9 * df))) ** 3


def chi_square(counts: Counter, faces: list) -> float:
    expected = sum(counts.values()) / len(faces)
    assert set(counts) <= set(faces)
    return sum((counts.get(f, 0) - expected) ** 2 / expected for f in faces)


@pytest.fixture(scope="module")
def streams():
    """The first two words of 2,000,000 dice's streams (dice 0-1,999,999 of roll 1, a fixed
    secret): one HMAC each. Faces below take their numbers from these words as the document
    does; a word past the limit (about one in a billion) takes the stream's next, so those few
    dice are derived in full."""
    secret = hashlib.sha256(b"uniformity").digest()
    mac = hmac.new(secret, b"bombardier-die\nuniform\n1\n", hashlib.sha256)
    firsts, seconds = [], []
    for i in range(2 * DICE):
        m = mac.copy()
        m.update(b"%d\n0" % i)
        a, b = struct.unpack_from(">2I", m.digest())
        firsts.append(a)
        seconds.append(b)
    return secret, firsts, seconds


def first_number(s, i: int, n: int) -> int:
    secret, firsts, _ = s
    w = firsts[i]
    return w % n if w < 2**32 - 2**32 % n else below(words(secret, "uniform", 1, i), n)


def test_the_fast_path_below_is_the_bots_dice(streams):
    bot = RandomDice(streams[0], chain="uniform", roll=1)
    for i in range(3000):
        kind = (DieKind.D6, DieKind.D3, DieKind.ARTILLERY, DieKind.SCATTER, DieKind.DX)[i % 5]
        die = bot.roll(kind, "p", sides=10) if kind is DieKind.DX else bot.roll(kind, "p")
        assert die.face == face(streams[0], "uniform", 1, i, die.die)


@pytest.mark.parametrize("die,n,faces", [
    ("D6", 6, [str(k) for k in range(1, 7)]),
    ("D3", 3, ["1", "2", "3"]),
    ("D10", 10, [str(k) for k in range(1, 11)]),
    ("artillery", 6, ["2", "4", "6", "8", "10", "M"]),
])
def test_a_million_dice_show_every_face_equally_often(streams, die, n, faces):
    limit = 2**32 - 2**32 % n
    numbers = Counter(w % n for w in streams[1][:DICE] if w < limit)
    numbers.update(first_number(streams, i, n) for i in range(DICE) if streams[1][i] >= limit)
    counts = Counter({faces[k]: c for k, c in numbers.items()})
    assert sum(counts.values()) == DICE
    assert chi_square(counts, faces) < critical(n - 1)


def test_a_million_d66_show_all_36_results_equally_often(streams):
    limit, firsts = 2**32 - 2**32 % 6, streams[1]
    pairs = zip(firsts[0:2 * DICE:2], firsts[1:2 * DICE:2])
    counts = Counter((a % 6 + 1) * 10 + b % 6 + 1 for a, b in pairs if a < limit and b < limit)
    counts.update((first_number(streams, 2 * i, 6) + 1) * 10 + first_number(streams, 2 * i + 1, 6) + 1
                  for i in range(DICE) if firsts[2 * i] >= limit or firsts[2 * i + 1] >= limit)
    assert sum(counts.values()) == DICE
    results = [t * 10 + u for t in range(1, 7) for u in range(1, 7)]
    assert chi_square(counts, results) < critical(35)


def test_a_million_scatter_dice_hit_a_third_of_the_time_and_point_every_way_evenly(streams):
    secret, firsts, seconds = streams
    hits, directions = Counter(), Counter()
    limit6, limit360 = 2**32 - 2**32 % 6, 2**32 - 2**32 % 360
    for i in range(DICE):
        a, b = firsts[i], seconds[i]
        if a < limit6 and b < limit360:
            k, d = a % 6, b % 360
        else:
            stream = words(secret, "uniform", 1, i)
            k, d = below(stream, 6), below(stream, 360)
        hits[k < 2] += 1
        directions[d] += 1
    expected_hits = DICE / 3
    chi_hits = (hits[True] - expected_hits) ** 2 / expected_hits + (hits[False] - 2 * expected_hits) ** 2 / (2 * expected_hits)
    assert chi_hits < critical(1)
    assert chi_square(directions, list(range(360))) < critical(359)


def test_the_threshold_catches_a_die_one_percent_off():
    counts = Counter({str(k): DICE // 6 for k in range(1, 7)})
    counts["6"] += DICE // 600
    counts["1"] -= DICE // 600
    assert chi_square(counts, [str(k) for k in range(1, 7)]) > critical(5)
    assert 20 < critical(5) < 21  # the table's 20.515


# ------------------------------------------------------------- any one changed bit fails


SECRET = bytes(range(100, 132))
CHAIN = "battle:7"


def build(commands):
    entries, previous = [], commitment(SECRET)
    for n, (text, options) in enumerate(commands, 1):
        result = roll(text, dice_for_roll(SECRET, n, CHAIN))
        e = make_entry(previous=previous, number=n, time=f"2026-11-23T20:{n:02d}:00+00:00", user="9", command="roll",
                       options={"expression": text, **options}, dice=result.dice,
                       summary=[f"{x.expression.text}: {x.total}" for x in result.expressions], salt=bytes([n]) * 16,
                       flagged=True)  # version 4: the link hash covers the private flag, as the export says
        entries.append(e)
        previous = e.hash
    return json.loads(json.dumps(export(chain=CHAIN, commitment_hex=commitment(SECRET), secret=SECRET, entries=entries)))


@pytest.fixture(scope="module")
def honest():
    data = build([("2d6+1", {}), ("1a 1s", {"distance": 30.0}), ("3d20", {"private": False})])
    assert verify(data, head=data["head"]).ok
    return data


def flips(text: str):
    for k, c in enumerate(text):
        for bit in range(7):
            yield text[:k] + chr(ord(c) ^ (1 << bit)) + text[k + 1:]


def test_any_one_changed_bit_of_the_secret_fails(honest):
    secret = bytes.fromhex(honest["secret"])
    for k in range(len(secret) * 8):
        data = copy.deepcopy(honest)
        data["secret"] = (int.from_bytes(secret, "big") ^ (1 << k)).to_bytes(32, "big").hex()
        result = verify(data)
        assert not result.ok and "does not match the commitment" in result.reason


def test_any_one_changed_bit_of_an_option_fails(honest):
    for i, e in enumerate(honest["entries"]):
        for name, value in e["options"].items():
            changed = list(flips(value)) if isinstance(value, str) else [
                not value if isinstance(value, bool) else struct.unpack(">d", (int.from_bytes(struct.pack(">d", value), "big") ^ (1 << b)).to_bytes(8, "big"))[0]
                for b in ([0] if isinstance(value, bool) else range(0, 64, 7))]
            for new in changed:
                if isinstance(new, float) and not math.isfinite(new):
                    continue
                data = copy.deepcopy(honest)
                data["entries"][i]["options"][name] = new
                result = verify(data, head=honest["head"])
                assert not result.ok and result.failed_roll == e["roll"], (name, new)


def test_any_one_changed_bit_of_a_face_fails_even_with_the_chain_rehashed(honest):
    from tests.engine.test_ledger import rehash

    checked = 0
    for i, e in enumerate(honest["entries"]):
        for j, d in enumerate(e["dice"]):
            for new in flips(d["face"]):
                data = copy.deepcopy(honest)
                data["entries"][i]["dice"][j]["face"] = new
                result = verify(data)
                assert not result.ok and result.failed_roll == e["roll"]
                forged = verify(rehash(data, i))  # a forger who repairs the chain still fails on the secret
                assert not forged.ok and forged.failed_roll == e["roll"]
                checked += 1
    assert checked > 50
