"""/odds of the same line gives the same digits on any machine (issue 26): an estimate is a fixed
number of throws from a seed derived from the shot, both stated in the answer; the time bound is a
safety net that never changes them unless it cuts, and then the answer says so."""

import engine.odds.enumeration as enumeration

HORDE = '/odds shot:"fire cannon distance:30 ranks:10 files:10 toughness:3"'


def digits(r):
    return r["odds"]["outcomes"], r["odds"]["expected"], r["odds"]["distributions"], r["summary"]


async def test_the_same_line_gives_the_same_digits_twice_and_under_another_time_budget(play, monkeypatch):
    code, first = await play(HORDE)
    assert code == 0, first
    odds = first["odds"]
    assert odds["method"] == "estimated" and odds["ways"] == odds["throws_planned"] == enumeration.THROWS
    assert not odds["cut"] and isinstance(odds["seed"], int)
    assert f"{enumeration.THROWS:,} throws (seed {odds['seed']})" in " ".join(first["summary"])
    _, again = await play(HORDE)
    assert digits(again) == digits(first)
    monkeypatch.setattr(enumeration, "SECONDS", None)  # no bound at all: a machine of any speed
    _, unbounded = await play(HORDE)
    assert digits(unbounded) == digits(first)
    monkeypatch.setattr(enumeration, "SECONDS", 60.0)
    _, roomy = await play(HORDE)
    assert digits(roomy) == digits(first)


async def test_the_seed_follows_the_shot_not_how_it_was_typed(play):
    _, a = await play('/odds shot:"fire cannon distance:30 ranks:10 files:10 toughness:3"')
    _, b = await play('/odds shot:"fire cannon toughness:3 files:10 ranks:10 distance:30.0"')
    _, c = await play('/odds shot:"fire cannon distance:31 ranks:10 files:10 toughness:3"')
    assert a["odds"]["seed"] == b["odds"]["seed"] != c["odds"]["seed"]
    assert a["odds"]["outcomes"] == b["odds"]["outcomes"]


async def test_a_cut_by_the_time_bound_is_said(play, monkeypatch):
    monkeypatch.setattr(enumeration, "SECONDS", 0.0)  # a machine far too slow for the net
    code, r = await play(HORDE)
    assert code == 0, r
    odds = r["odds"]
    assert odds["cut"] and odds["ways"] < odds["throws_planned"]
    assert "time bound cut the throws short" in " ".join(r["summary"])
