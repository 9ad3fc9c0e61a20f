"""``/odds`` of a Bone Thrower throws it thousands of times on one bolt (issue 26): its line is worked
out once for the placing (engine/warmaster/bone_thrower.py, ``the_bolt``), so the 4,000 throws are
never cut short by the time bound and the digits are the same on any machine."""

from __future__ import annotations

from engine.warmaster.bone_thrower import the_bolt
from engine.warmaster.cannon import the_path


async def test_odds_of_a_bone_thrower_work_out_its_bolt_once(play):
    the_bolt.cache_clear()
    code, r = await play('/odds shot:"wm bone-thrower distance:24"')
    assert code == 0, r
    info = the_bolt.cache_info()
    assert info.misses == 1 and info.hits >= 4000  # every throw (and every way counted) on the one bolt
    assert r["odds"]["ways"] == r["odds"]["throws_planned"] == 4000 and r["odds"]["cut"] is False


async def test_odds_of_a_cannon_battery_work_out_its_path_once(play):
    the_path.cache_clear()
    code, r = await play('/odds shot:"wm cannon distance:24 cannons:2"')
    assert code == 0, r
    info = the_path.cache_info()
    assert info.misses == 1 and info.hits >= 4000
    assert r["odds"]["ways"] == r["odds"]["throws_planned"] == 4000 and r["odds"]["cut"] is False
