"""Warmaster command options read into engine values: the target unit, and the `near` list of
other units by a cannon's path. Mistakes raise RulesError quoting what was typed."""

from __future__ import annotations

import re

from discord.app_commands import Choice

from config.gamedata import warmaster
from engine.dice import Dice, EnteredDice
from engine.errors import RulesError
from engine.geometry import Point
from engine.inputs import check_list, is_int, quote, read_float, read_int
from engine.warmaster.cannon import PlacedUnit
from engine.warmaster.profiles import Position
from engine.warmaster.shooting import MAX_STANDS, Side, Unit
from engine.warmaster.siege_equipment import Equipment, target_of_shooting
from cogs.common.choices import offer
from engine.warmaster.stands import Formation, lay_out, lay_out_at, lay_out_centred

DATA = warmaster()
POSITIONS = ("open", "defended", "fortified")
position_autocomplete = offer(POSITIONS)
"""The target's position offered by autocomplete (no choices: three on every target cost /wm and
/siege about 40 schema characters a command); :func:`unit` checks what was typed."""
TROOPS = {**{t.name: k for k, t in DATA.troops.items()}, **{k: k for k in DATA.troops}}
"""Troop types by what a player may type: the key (``chariot``) or the name (``chariots``)."""
EQUIPMENT = {**{e.value: e for e in Equipment}, **{e.value.replace("-", " "): e for e in Equipment},
             "ram": Equipment.BATTERING_RAM, "mantlet": Equipment.MANTLETS}
"""A shooting target's troop may name siege equipment instead (seed 001): the shots hit a siege
tower, ram or sow; mantlets shelter infantry (engine/warmaster/siege_equipment.py)."""
FORMATION_CHOICES = [Choice(name=f.value, value=f.value) for f in Formation]
IN_TOWER = "Target mans a tower"
"""The `in_tower` option: no drive back, never confused, no bounce or skewering through (seed 001, The watchtower)."""
AT = f"Stand centres instead (max {MAX_STANDS}): '0,1 4,1 2,3' cm"
TARGET = dict(
    stands="Target stands (3)",
    hits="Hits a stand (3)",
    armour="Armour: 4 for 4+, 0 none",
    position="Position (open)",
    troop="Troop type or siege kit",
    dice="Your dice in order",
)
"""The target options the /wm and /siege commands share, described tersely: Discord counts every
description towards a command's 4,000 characters (README, "Options", says them at length)."""


async def troop_autocomplete(interaction, current: str) -> list[Choice[str]]:
    """Troop types matching what is typed (as an autocomplete, not choices: six choices on every
    target would cost /wm and /siege a sixth of their schema characters)."""
    typed = current.strip().lower()
    every = [(t.name, k) for k, t in DATA.troops.items()] + [(f"{e.value.replace('-', ' ')} (siege equipment)", e.value)
                                                             for e in Equipment]
    found = [(n, k) for n, k in every if typed in n or typed in k]
    return [Choice(name=n, value=k) for n, k in found or every]


troop_autocomplete.offered = tuple(Choice(name=t.name, value=k) for k, t in DATA.troops.items()) + tuple(
    Choice(name=f"{e.value.replace('-', ' ')} (siege equipment)", value=e.value) for e in Equipment)
"""Listed by ``bot.py commands --json`` as the option's choices (cogs/common/choices.py)."""


def troop_key(troop: str) -> str:
    """The troop type a player named, refused with the ones there are."""
    key = TROOPS.get(troop.strip().lower())
    if key is None:
        raise RulesError(f"troop: '{quote(troop)}' is not one of the choices: {', '.join(DATA.troops)}"
                         + (", or siege equipment (siege-tower, battering-ram, sow, mantlets)." if troop else "."))
    return key


def new_dice(bot, entered: str | None) -> Dice:
    """The command's dice: the players' entered faces first, then the bot's (bot.new_dice())."""
    source = bot.new_dice()
    return EnteredDice(entered, source) if entered else source


def armour_value(armour: int) -> int | None:
    """The `armour` option: 0 for none, else 3 to 6 (for 3+ to 6+)."""
    if armour == 0:
        return None
    if not 3 <= armour <= 6:
        raise RulesError(f"Armour {armour}: give 3 to 6 (for 3+ to 6+), or 0 for none.")
    return armour


def pick(value: str, options: dict[str, str], option: str) -> str:
    """A value of an option offered by autocomplete (Discord holds it to no list): its key, typed
    as the key or the name ("gateway-tower", "Gateway tower"); otherwise a RulesError naming them."""
    typed = " ".join(value.strip().lower().split())
    for key, name in options.items():
        if typed in (key.lower(), name.lower(), key.lower().replace("-", " ")):
            return key
    raise RulesError(f"{option}: '{quote(value)}' is not one of the choices: {', '.join(options)}.")


STRUCTURES = {k: s.name for k, s in DATA.structures.items()}
structure_autocomplete = offer(STRUCTURES)
SCENARIOS = {k: s.name for k, s in DATA.scenarios.items()}
scenario_autocomplete = offer(SCENARIOS)
ENGINES = {k: w.name for k, w in DATA.siege_artillery.items()}
engine_autocomplete = offer(ENGINES)
"""Fixed lists of /siege offered by autocomplete, not choices: their names and values would cost
/siege some 400 of its schema characters (cogs/common/choices.py); :func:`pick` checks them."""


def position_value(position: str) -> Position:
    """The `position` option (offered by autocomplete, so checked here)."""
    typed = position.strip().lower()
    if typed not in POSITIONS:
        raise RulesError(f"position: '{quote(position)}' is not one of the choices: {', '.join(POSITIONS)}.")
    return Position(typed)


def tower_position(position: str | None, in_tower: bool) -> str:
    """The `position` option of a shot that may take `in_tower`: troops manning a tower count as
    fortified (seed 001, Siege towers: "targets in higher towers still count as being fortified";
    Towers: the stands in a tower count as fortified), so left out it is fortified for them and
    open otherwise, and another position given with `in_tower` is refused."""
    if position is None:
        return "fortified" if in_tower else "open"
    if in_tower and position_value(position) is not Position.FORTIFIED:
        raise RulesError(f"position: '{quote(position)}' with in_tower: troops manning a tower count as fortified. "
                         "Leave position out (or give fortified), or leave in_tower out.")
    return position


def unit(name: str, *, stands: int, hits: int, armour: int, position: str, troop: str, side: Side = Side.ENEMY,
         engaged: bool = False, charging: bool = False, in_tower: bool = False, equipment_ok: bool = False) -> Unit:
    """A target unit from the options. With `equipment_ok`, `troop` may name siege equipment: the
    unit the shot resolves against is then the machine (or the sheltered unit), by the engine."""
    gear = EQUIPMENT.get(troop.strip().lower())
    if gear is not None:
        if not equipment_ok:
            raise RulesError(f"troop: '{quote(troop)}' is siege equipment, which this command does not take; "
                             f"give one of: {', '.join(DATA.troops)}.")
        base = Unit(name, stands, hits, armour_value(armour), position_value(position), DATA.troops["infantry"], side, engaged,
                    charging, in_tower)
        return target_of_shooting(base, gear, dict(DATA.siege_profiles), DATA.troops["machine"])
    return Unit(name, stands, hits, armour_value(armour), position_value(position), DATA.troops[troop_key(troop)], side, engaged,
                charging, in_tower)


_NEAR = re.compile(
    r"^(?P<side>enemy|friend)\s+(?P<formation>line|column)\s+(?P<stands>\d{1,2})\s*@\s*"
    r"(?P<x>[-+]?[\d.]+)\s*,\s*(?P<y>[-+]?[\d.]+)(?P<rest>(?:\s+\S+)*)$", re.ASCII
)
NEAR_HELP = "write each as 'friend column 3 @ 0,9' (side, line/column, stands @ x,y cm from the target's front centre)"
MAX_NEAR = 24
"""The most other units one ``near:`` may place: more than stand by one machine's line of fire on a
real table. It also bounds the command's geometry (every stand against every other)."""
NEAR_DESCRIPTION = f"Other units (max {MAX_NEAR}): 'friend column 3 @ 0,9'"
NEAR_AS_CANNON = f"Other units (max {MAX_NEAR}), as for the cannon"


def near_units(text: str | None) -> tuple[PlacedUnit, ...]:
    """Other units near the path: ``enemy line 3 @ 0,9 engaged; friend column 2 @ -5,4 turn 90``.
    x is to the cannon's right, y away from it, from the target's front centre to theirs. Extra
    words: engaged, defended, fortified, hits N, armour N, turn DEG, a troop type."""
    if not text or not text.strip():
        return ()
    out = []
    counts = {Side.ENEMY: 0, Side.FRIEND: 0}
    parts = [p.strip() for p in text.split(";") if p.strip()]
    check_list(len(parts), MAX_NEAR, "Near: units")
    for part in parts:
        m = _NEAR.match(part.lower())
        if not m:
            raise RulesError(f"Near: '{quote(part)}' is not a unit; {NEAR_HELP}.")
        side = Side(m["side"])
        counts[side] += 1
        stands = int(m["stands"])
        if not 1 <= stands <= MAX_STANDS:
            raise RulesError(f"Near: '{quote(part)}' has {stands} stands; give 1 to {MAX_STANDS}.")
        x, y = read_float(m["x"], "Near: x"), read_float(m["y"], "Near: y")
        words = m["rest"].split()
        opts = {"hits": 3, "armour": 0, "turn": 0.0, "position": "open", "troop": "infantry", "engaged": False}
        i = 0
        while i < len(words):
            w = words[i]
            if w in ("hits", "armour", "turn") and i + 1 < len(words):
                what = f"Near: {w} in '{quote(part, 40)}'"
                opts[w] = read_float(words[i + 1], what) if w == "turn" else read_int(words[i + 1], what)
                i += 2
                continue
            if w == "engaged":
                opts["engaged"] = True
            elif w in ("open", "defended", "fortified"):
                opts["position"] = w
            elif w in DATA.troops:
                opts["troop"] = w
            else:
                raise RulesError(f"Near: '{quote(w, 40)}' in '{quote(part, 60)}' is not engaged, open/defended/fortified, hits N, armour N, turn DEG or a troop type.")
            i += 1
        name = f"{side.value} {counts[side]}"
        u = unit(name, stands=stands, hits=int(opts["hits"]), armour=int(opts["armour"]), position=opts["position"],
                 troop=opts["troop"], side=side, engaged=opts["engaged"])
        out.append((u, Formation(m["formation"]), x, y, float(opts["turn"])))
    return tuple((u, f, x, y, t) for u, f, x, y, t in out)  # placed by the caller, relative to the target


def place(units, front: Point, stand_w: float, stand_d: float) -> tuple[PlacedUnit, ...]:
    """Lay out the `near_units` relative to the target's front centre `front`."""
    return tuple(PlacedUnit(u, lay_out(f, u.stands, Point(front.x + x, front.y + y), turn=t, width=stand_w, depth=stand_d))
                 for u, f, x, y, t in units)


_XY = re.compile(r"^([-+]?[\d.]+),([-+]?[\d.]+)$", re.ASCII)


def target_stands(*, formation: str, stands: int, at: str | None, front: Point, turn: float) -> tuple:
    """The target's stands: `at` ("0,1 4,1 2,3": each stand's centre in cm from the unit's front
    centre, x to the firer's right, y away from the firer) or else `stands` in a `formation`."""
    if not at:
        return lay_out_centred(Formation(formation), stands, front, turn=turn, width=DATA.stand_width, depth=DATA.stand_depth)
    centres = []
    tokens = at.replace(";", " ").split()
    if not 1 <= len(tokens) <= MAX_STANDS:
        raise RulesError(f"Stands at: {len(tokens)} stands; give 1 to {MAX_STANDS}.")
    for token in tokens:
        m = _XY.match(token)
        if not m:
            raise RulesError(f"Stands at: '{quote(token)}' is not x,y in cm (e.g. '0,1 4,1 2,3').")
        centres.append(Point(read_float(m[1], "Stands at: x"), read_float(m[2], "Stands at: y")))
    return lay_out_at(tuple(centres), front, turn=turn, width=DATA.stand_width, depth=DATA.stand_depth)


LIST_HELP = '"tower 2, wall 4, army elves"'
_ARMY = re.compile(r"^army(?:\s*[:=\-]|\s|$)(?P<name>.*)$", re.I | re.S)
"""The army item of a siege list, its name after a space, a colon, an equals sign or a dash."""


def equipment_list(text: str) -> tuple[tuple, str | None]:
    """The `list` option of ``/siege army``: items separated by commas, each a name and an
    optional count before or after it ("tower 2", "2 towers", "log rams"), and ``army NAME``.
    Returns ((item, count), ...) and the army named (or None)."""
    wanted: dict[str, int] = {}
    army = None
    names = {**{e.key: e for e in DATA.equipment.values()}, **{e.name.lower(): e for e in DATA.equipment.values()}}
    for part in (p.strip() for p in text.replace(";", ",").split(",")):
        if not part:
            continue
        words = part.lower().split()
        if named := _ARMY.match(part):  # "army high elves", "army: High Elves", "army = high elves"
            if not named["name"].strip(" :=-"):
                raise RulesError(f"List: '{quote(part)}' needs the army's name, e.g. 'army high elves'.")
            army = " ".join(named["name"].strip(" :=-").lower().split())
            continue
        count = 1
        if is_int(words[0]):  # plain ASCII digits only: "²" passes str.isdigit() and fails int()
            count, words = read_int(words[0], "List"), words[1:]
        elif is_int(words[-1].lstrip("x")) and words[-1].lstrip("x")[:1].isascii():
            count, words = read_int(words[-1].lstrip("x"), "List"), words[:-1]
        if not words:
            raise RulesError(f"List: '{quote(part)}' gives a number but no item; {LIST_HELP}.")
        name = " ".join(words)
        item = None
        for candidate in (name, name.replace(" ", "-"), name.rstrip("s"), name.rstrip("s").replace(" ", "-")):
            item = names.get(candidate)
            if item is not None:
                break
        if item is None:
            raise RulesError(f"List: '{part}' is not an item of the siege lists; {LIST_HELP}.")
        wanted[item.key] = wanted.get(item.key, 0) + count
    return tuple((DATA.equipment[k], n) for k, n in wanted.items()), army


def dug_sections(text: str | None, stands: int) -> tuple[int, ...]:
    """The `sections` option of ``/siege dig``: the earthwork section each stand in contact digs at
    ("1 1 2"), one number a stand; left out, every stand digs at section 1."""
    if not text or not text.strip():
        return (1,) * stands
    parts = text.replace(",", " ").split()
    check_list(len(parts), MAX_STANDS, "Sections: stands")
    if len(parts) != stands:
        raise RulesError(f"Sections: '{quote(text)}' names {len(parts)} stand{'s' * (len(parts) != 1)}, but stands is {stands}: "
                         "give one section for "
                         "each stand in contact.")
    return tuple(read_int(p, "Sections: a section's number") for p in parts)


def garrison_points(text: str | None) -> tuple[int, ...]:
    """The `garrison` option of ``/siege army``: the army-list points of each unit placed inside
    the watchtower, "110 65" (at most a few; the engine holds the scenario's limit)."""
    if not text or not text.strip():
        return ()
    parts = text.replace(",", " ").split()
    check_list(len(parts), 6, "Garrison: units")
    return tuple(read_int(p, "Garrison: a unit's points") for p in parts)


MORE_HELP = '"stands 2 attack 4; ..."'
_MORE_WORDS = {"stands": (1, MAX_STANDS), "attack": (1, 12), "hits": (1, 10), "armour": (0, 6), "fighting": (1, MAX_STANDS),
               "against": (1, MAX_STANDS)}


def more_attackers(text: str | None):
    """The `more` option of ``/siege assault``: other attacking units, separated by ";", each
    "stands N attack N hits N armour N fighting N against N flyers" (any left out: 3 stands,
    Attack 3, Hits 3, no armour, 1 fighting, fought by as many defending stands; "against" is the
    defending stands fighting it)."""
    from engine.warmaster.assault import Fighters

    if not text or not text.strip():
        return ()
    out = []
    for n, part in enumerate((p.strip() for p in text.split(";") if p.strip()), 2):
        words = part.lower().replace(",", " ").split()
        v = {"stands": 3, "attack": 3, "hits": 3, "armour": 0, "fighting": 1, "against": 0}
        flyers = giant = False
        i = 0
        while i < len(words):
            w = words[i]
            if w in ("flyers", "flyer", "flying"):
                flyers, i = True, i + 1
                continue
            if w == "giant":
                giant, i = True, i + 1
                continue
            if w in _MORE_WORDS and i + 1 < len(words) and words[i + 1].rstrip("+").isdigit() and words[i + 1].isascii():
                low, high = _MORE_WORDS[w]
                value = int(words[i + 1].rstrip("+"))
                if not low <= value <= high:
                    raise RulesError(f"More: '{w} {value}' in '{part}': give {low} to {high}.")
                v[w], i = value, i + 2
                continue
            if w in _MORE_WORDS:
                low, high = _MORE_WORDS[w]
                after = f"'{quote(words[i + 1])}'" if i + 1 < len(words) else "nothing"
                raise RulesError(f"More: '{w}' in '{quote(part)}' needs a whole number {low} to {high} after it, not {after}.")
            raise RulesError(f"More: '{w}' in '{part}' is not stands, attack, hits, armour, fighting, against N, flyers or giant; "
                             f"write each unit as {MORE_HELP}.")
        u = unit(f"attackers {n}", stands=v["stands"], hits=v["hits"], armour=v["armour"], position="open", troop="infantry")
        out.append(Fighters(u, v["fighting"], v["attack"], flyers=flyers, struck_by=v["against"], giant=giant))
    return tuple(out)
