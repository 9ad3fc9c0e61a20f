"""The picture workers' warm-up (issue 26). The picture workers' fork server imports this module
last of :data:`cogs.common.render_pool.PRELOAD`, and importing it draws a few pictures once: the
shots players fire most, at a few distances, with their dice entered. Every worker is forked from
that server, so it starts with what drawing keeps (the fonts at each size, each glyph, the blends of
text over each colour, the text tiles of the words every picture writes) instead of building it
on its first pictures after the bot starts: the first cannon picture in a cold process costs about
90 ms, the first twenty about 150 ms more than twenty warm ones. Copy-on-write, the workers share
those pages with the server until they change them.

Nothing else imports it. A picture that fails here is logged and skipped: the warm-up only saves
time, and a worker that starts cold still draws every picture right."""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)


def warm() -> int:
    """Draw the warm-up pictures; returns how many were drawn."""
    from config.gamedata import fantasy, wh40k
    from engine.dice import EnteredDice, RandomDice
    from engine.fantasy.cannon import fire_cannon
    from engine.fantasy.fire_thrower import fire_fire_thrower
    from engine.fantasy.formation import TargetUnit
    from engine.fantasy.stone_thrower import fire_stone_thrower
    from engine.fantasy.wounding import Profile
    from engine.wh40k.ordnance import fire_ordnance
    from engine.wh40k.squad import Squad
    from renders.fantasy.cannon import render_cannon
    from renders.fantasy.fire_thrower import render_fire_thrower
    from renders.fantasy.stone_thrower import render_stone_thrower
    from renders.wh40k.ordnance import render_ordnance

    data, forty = fantasy(), wh40k()
    unit = TargetUnit(4, 5, data.troops["infantry"], 20, 20, profile=Profile(3, 1, 5))
    cannon, powder = data.cannons["cannon"], data.misfire_charts["black-powder"]
    shots = [
        *(lambda d=d, s=s: render_cannon(fire_cannon(cannon, powder, unit, d, EnteredDice(s, RandomDice(d))))
          for d, s in ((24, "@30 4"), (36, "@210 2"), (18, "H 6"), (42, "@90 8"))),
        lambda: render_stone_thrower(fire_stone_thrower(data.stone_throwers["stone-thrower"],
                                                        data.misfire_charts["stone-thrower"], unit, 30,
                                                        EnteredDice("@30 4", RandomDice(1)))),
        lambda: render_fire_thrower(fire_fire_thrower(data.fire_throwers["fire-thrower"], powder, data.flaming_attacks,
                                                      unit, 8, EnteredDice("4", RandomDice(1)))),
        lambda: render_ordnance(fire_ordnance(forty.blast_markers["large"], forty.penetration["ordnance"],
                                              forty.damage_tables, forty.wounds, EnteredDice("@60 2", RandomDice(1)),
                                              strength=8, distance=30, squad=Squad(10, 25, per_row=5))),
    ]
    drawn = 0
    for draw in shots:
        try:
            draw()
            drawn += 1
        except Exception:  # a warm-up only saves time: never the reason a worker fails to start
            log.debug("a warm-up picture could not be drawn", exc_info=True)
    return drawn


DRAWN = warm()
"""How many warm-up pictures the import drew (tests read it)."""
