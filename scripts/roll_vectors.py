"""Writes docs/roll-derivation-vectors.json: the test vectors of docs/roll-derivation.md, made with
engine/dice.py's RandomDice (tests/engine/test_derivation.py checks them against an independent
implementation of the document). Run from the repository: python scripts/roll_vectors.py"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.dice import DERIVATION, DieKind, RandomDice  # noqa: E402

SECRET = bytes(range(32))
CHAIN = "channel:1:2"
# (die as logged, sides for dN, small arrow) per roll: every kind, several sizes, D66 as two D6
ROLLS = [
    [("D6", None, False)] * 6,
    [("D3", None, False)] * 3 + [("d2", 2, False), ("d20", 20, False), ("d100", 100, False), ("d1000", 1000, False)],
    [("artillery", None, False)] * 6,
    [("scatter", None, False)] * 6,
    [("scatter", None, True)] * 6,
    [("D6", None, False), ("D6", None, False)],  # a D66: tens, then units
    [("d10", 10, False)] * 5 + [("d12", 12, False), ("d7", 7, False), ("d360", 360, False)],
]
KINDS = {"D6": DieKind.D6, "D3": DieKind.D3, "artillery": DieKind.ARTILLERY, "scatter": DieKind.SCATTER}


def vectors() -> dict:
    rolls = []
    for number, dice in enumerate(ROLLS, 1):
        source = RandomDice(SECRET, chain=CHAIN, roll=number)
        out = []
        for die, sides, small_arrow in dice:
            if sides is not None:
                face = source.roll(DieKind.DX, "v", sides=sides).face
            else:
                face = source.roll(KINDS[die], "v", small_arrow=small_arrow).face
            out.append({"die": die, "face": face, **({"small_arrow": True} if small_arrow else {})})
        rolls.append({"roll": number, "dice": out})
    message = f"bombardier-die\n{CHAIN}\n1\n0\n0"
    block = hmac.new(SECRET, message.encode(), hashlib.sha256).hexdigest()
    top = 1 << 32
    below = [
        {"n": 6, "word": 4294967291, "limit": top - top % 6, "result": 4294967291 % 6},
        {"n": 6, "word": top - top % 6, "limit": top - top % 6, "result": None},
        {"n": 360, "word": 4294967000, "limit": top - top % 360, "result": 4294967000 % 360},
        {"n": 360, "word": 4294967200, "limit": top - top % 360, "result": None},
        {"n": 1000, "word": 123456789, "limit": top - top % 1000, "result": 789},
    ]
    return {
        "about": "Test vectors for docs/roll-derivation.md (roll log version 3). result null: the word is "
                 "rejected and the next word of the stream is taken.",
        "derivation": DERIVATION,
        "secret": SECRET.hex(),
        "commitment": hashlib.sha256(SECRET).hexdigest(),
        "chain": CHAIN,
        "first_block": {"roll": 1, "index": 0, "block": 0, "message": message, "hmac_sha256": block},
        "below": below,
        "rolls": rolls,
    }


if __name__ == "__main__":
    path = ROOT / "docs" / "roll-derivation-vectors.json"
    path.write_text(json.dumps(vectors(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path}")
