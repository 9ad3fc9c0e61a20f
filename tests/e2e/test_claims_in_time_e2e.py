"""A claim never costs an interaction its first response (issue 25, items 3 and 5b; T25's probe).

A bot process started by run_discord claims each interaction in the store before it answers it
(storage/claims.py). With the store slow or away that claim waited for the store (2 s, 10 s in a
burst with PostgreSQL down: 12 interactions at once got their first responses after 10 and 20 s,
long after Discord had dropped them), and nothing deferred meanwhile. A claim not made within
claims.CLAIM_WAIT_S of the arrival is given up and the interaction answered, as when the store
cannot be reached at all.

No test here waits on the clock: the claims are held on an event the test releases only once every
interaction has been answered."""

from __future__ import annotations

import asyncio
import threading

from storage import claims
from tests.e2e.standin import start_client


async def test_interactions_are_answered_while_their_claims_hang(standin, tmp_path, monkeypatch):
    from bot import create_bot
    from config.settings import Settings

    held = threading.Event()
    real = claims.claim_interaction
    hung: list[str] = []

    def hanging_claim(store, interaction_id, holder, **kwargs):
        hung.append(str(interaction_id))
        held.wait(60)  # the store does not answer
        return real(store, interaction_id, holder, **kwargs)

    monkeypatch.setattr(claims, "CLAIM_WAIT_S", 0.05)
    monkeypatch.setattr(claims, "claim_interaction", hanging_claim)
    bot = create_bot(Settings(token="standin-token", data_dir=tmp_path, dice_seed=3))
    bot.claims_holder = "t25-probe:1"  # as run_discord's lease_shards sets it
    runner = await start_client(bot)
    try:
        payloads = [standin.slash("/help") if i % 2 else standin.slash("/roll", expression="2d6") for i in range(6)]
        for p in payloads:
            await standin.dispatch("INTERACTION_CREATE", p)
        for p in payloads:  # each answered (help and the roll alike) while every claim still hangs
            first, final = await standin.answered(p, timeout=30)
            assert final.json, p
        assert not held.is_set() and hung  # the claims really were asked for, and never answered
        callbacks = [r.path for r in standin.requests if r.path.endswith("/callback")]
        assert len(callbacks) == len(set(callbacks)) == len(payloads)  # each answered once
    finally:
        held.set()
        await bot.close()
        await asyncio.wait_for(runner, 10)
