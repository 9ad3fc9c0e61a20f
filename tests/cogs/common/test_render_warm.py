"""The picture workers' warm-up (cogs/common/render_warm.py, issue 26): importing it draws every one of
its pictures (so a change to an engine or a render that breaks one is seen here, not as workers
silently starting cold), and a picture drawn after it is the one drawn without it."""

from __future__ import annotations

import importlib

from config.gamedata import fantasy
from engine.dice import EnteredDice, RandomDice
from engine.fantasy.cannon import fire_cannon
from engine.fantasy.formation import TargetUnit
from renders.fantasy.cannon import render_cannon


def test_the_warm_up_draws_every_picture_it_names():
    warm = importlib.import_module("cogs.common.render_warm")
    assert warm.DRAWN == 7
    assert warm.warm() == 7


def test_a_picture_after_the_warm_up_is_the_same_bytes():
    data = fantasy()
    shot = fire_cannon(data.cannons["cannon"], data.misfire_charts["black-powder"],
                       TargetUnit(5, 6, data.troops["infantry"], 20, 20), 27, EnteredDice("@120 4", RandomDice(4)))
    before = render_cannon(shot)
    importlib.import_module("cogs.common.render_warm").warm()
    after = render_cannon(shot)
    assert bytes(before) == bytes(after) and before.glance == after.glance


def test_the_fork_server_imports_it_last():
    from cogs.common import render_pool

    assert render_pool.PRELOAD[-1] == "cogs.common.render_warm"
