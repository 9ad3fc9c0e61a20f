"""A burst in one process (issue 15, part 0), through the real discord.py client and the stand-in:
200 interactions dispatched at once each get their first response (the answer or a defer) within
Discord's 3 seconds of their arrival by the stand-in's clock, then exactly one answer, and none is
answered twice.

Deterministic: the pictures are held until the stand-in has every first response, so the work
pool stays full for the whole burst and every command that queues for it must defer (at once where
its work is expected to end past the deadline, else when the deadline comes: cogs/common/work.py);
what is checked is order (first response, then the one answer) and the deadline by the stand-in's
clock, not how fast this machine renders. Latencies under real load are benchmarks/bench_burst.py's.

And the other side of issue 26's defer policy: a burst whose work is expected to end in time (the
service times entered, the deadline out of reach of any machine) answers each interaction with one
request, the answer itself, where it used to defer every one that queued (two requests each)."""

from __future__ import annotations

import asyncio
import io
import sys
import threading

from PIL import Image

BURST = 200
DEADLINE = 3.0


def tiny_png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (4, 4), "white").save(out, format="PNG")
    return out.getvalue()


async def test_two_hundred_interactions_at_once_each_first_answered_within_3_s_then_once(live_bot, standin, monkeypatch):
    fire_module = sys.modules["cogs.fantasy.fire"]
    release = threading.Event()
    png = tiny_png()

    def held_render(shot):
        release.wait(120)
        return png

    monkeypatch.setattr(fire_module, "render_cannon", held_render)
    payloads = [standin.slash("/fire cannon", distance=12 + i % 36, dice=f"H 4 {2 * (1 + i % 5)}") for i in range(BURST)]
    await asyncio.gather(*(standin.dispatch("INTERACTION_CREATE", p) for p in payloads))

    callbacks = {f"/interactions/{p['id']}/{p['token']}/callback" for p in payloads}
    answered: set[str] = set()

    def all_first_responses(r):
        if r.path in callbacks:
            answered.add(r.path)
        return len(answered) == BURST

    try:
        await standin.wait_for(all_first_responses, timeout=120)
    finally:
        release.set()
    results = await asyncio.gather(*(standin.answered(p, timeout=120) for p in payloads))

    late = []
    for p, (first, final) in zip(payloads, results):
        waited = first.at - standin.dispatched_at[p["id"]]
        if waited > DEADLINE:
            late.append(round(waited, 2))
        assert first.json["type"] in (4, 5)
        assert first.at <= final.at and "cannon.png" in final.files
        mine = standin.responses(p)
        assert sum(r.path.endswith("/callback") for r in mine) == 1, "one callback per interaction"
        assert sum(r.method == "POST" and not r.path.endswith("/callback") for r in mine) == (first.json["type"] == 5), \
            "a deferred interaction follows up exactly once; an answered one never"
    assert not late, f"{len(late)} of {BURST} first responses after {DEADLINE} s: {sorted(late)[-5:]}"
    assert sum(first.json["type"] == 5 for first, _ in results) >= BURST - 2  # all but the pool's first jobs queued


async def test_a_burst_whose_work_ends_in_time_answers_each_with_one_request(live_bot, standin, monkeypatch):
    from cogs.common import replies, work

    monkeypatch.setattr(replies, "DEFER_AFTER", 600.0)  # no timer fires: only the estimate decides
    monkeypatch.setattr(work.work_lane, "service", work.ServiceTimes(prior=0.001))
    payloads = [standin.slash("/fire cannon", distance=12 + i % 36, dice=f"H 4 {2 * (1 + i % 5)}") for i in range(40)]
    await asyncio.gather(*(standin.dispatch("INTERACTION_CREATE", p) for p in payloads))
    results = await asyncio.gather(*(standin.answered(p, timeout=120) for p in payloads))
    for p, (first, final) in zip(payloads, results):
        assert first is final and first.json["type"] == 4 and "cannon.png" in first.files
        assert len(standin.responses(p)) == 1, "the answer alone: no defer, no follow-up"
