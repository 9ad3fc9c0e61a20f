"""How army lists read: an imported list at a glance, a member's lists, one unit in full.

Every name comes from a file a member sent: it is shown as text (:func:`shown`: markdown and
mentions escaped, cut to a sane length), never as a mention or formatting.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.common.from_list import as_text
from cogs.common.replies import COLOUR_OK, Reply, clip_lines
from engine.roster import Roster, TargetValues, Unit, target_values
from storage.armies import Army

GAME_NAMES = {"fantasy": "Warhammer Fantasy", "warmaster": "Warmaster", "wh40k": "Warhammer 40,000 (3rd)"}
SYSTEMS = {"fantasy": "warhammer-fantasy", "warmaster": "warmaster", "wh40k": "wh40k"}
NAME_LIMIT = 80
USE_IT = ("Shoot at its units by name: troop: on /fire, /shoot, /breath, /combat and /wm, armour: on /40k "
          "(the console and /odds also take target:); /army show unit: shows one in full.")


def shown(text: str, limit: int = NAME_LIMIT) -> str:
    """A name from a roster, safe to show: one line, at most `limit` characters, markdown and
    mentions escaped (cogs/common/from_list.py)."""
    return as_text(text, limit)


def points(value: float | None) -> str:
    return "no points" if value is None else f"{value:g} pts"


def values_words(v: TargetValues, game: str) -> str:
    """A unit's target values in a few words: ``T3 W1 save 5+ ward 4+ · chariot``."""
    d = dict(v.values)
    parts: list[str] = []
    if game == "wh40k":
        if "armour" in d:
            parts.append("AV " + "/".join(str(x) for x in d["armour"]))
        parts += [w for w, k in (("open-topped", "open_topped"), ("skimmer", "skimmer"), ("walker", "walker")) if d.get(k)]
        if "toughness" in d:
            parts.append(f"T{d['toughness']}")
        if "save" in d:
            parts.append(f"Sv{d['save']}+")
        if "leadership" in d:
            parts.append(f"Ld{d['leadership']}")
    elif game == "warmaster":
        parts += [f"Hits {d['hits']}"] if "hits" in d else []
        parts += [f"Armour {d['armour']}+" if d.get("armour") else "no armour"] if "armour" in d else []
        parts += [d["troop"]] if "troop" in d else []
        parts += [f"{d['stands']} stands"] if "stands" in d else []
    else:
        parts += [f"T{d['toughness']}"] if "toughness" in d else []
        parts += [f"W{d['wounds']}"] if "wounds" in d else []
        parts += [f"save {d['save']}+"] if "save" in d else []
        parts += [f"ward {d['ward']}+"] if "ward" in d else []
        parts += [d["troop"]] if "troop" in d else []
        parts += [f"Ld{d['leadership']}"] if "leadership" in d else []
        parts += [w for w in ("ethereal", "flammable") if d.get(w)]
        parts += [f"dodge {d['dodge']}+"] if "dodge" in d else []
        parts += [f"immune to {d['immune']}"] if "immune" in d else []
    return " ".join(parts)


def unit_line(u: Unit, game: str) -> str:
    v = target_values(u, game)
    size = f" \u00d7{u.models}" if u.models and u.models > 1 else ""
    words = values_words(v, game)
    asks = [name for name, _ in v.missing if name in {"fantasy": ("save", "toughness"), "warmaster": ("hits", "armour")}.get(game, ())]
    ask = f" · ask: {', '.join(asks)}" if asks else ""
    return f"**{shown(u.label)}**{size}" + (f" · {words}" if words else "") + ask


def unit_json(u: Unit, game: str) -> dict[str, Any]:
    v = target_values(u, game)
    return {"label": u.label, "name": u.name, "force": u.force, "models": u.models, "points": u.points,
            "profile": {n: val for n, val in u.main.characteristics} if u.main else {},
            "values": {k: list(x) if isinstance(x, tuple) else x for k, x in v.values},
            "missing": [{"option": k, "why": why} for k, why in v.missing], "rules": list(u.rules),
            "dropped": [{"option": k, "why": why} for k, why in v.dropped]}


def _game(roster: Roster) -> str:
    return roster.game or "fantasy"


def _reply(command: str, game: str, title: str, lines: list[str], fields: dict[str, Any],
           embed_fields: list[tuple[str, list[str]]] = (), private: bool = False) -> Reply:
    embed = discord.Embed(title=title[:256], description=clip_lines(lines, 4000), colour=COLOUR_OK)
    summary = [title, *lines]
    for name, values in embed_fields:
        embed.add_field(name=name[:256], value=clip_lines(values) or "none", inline=False)
        summary += [f"{name}:", *[f"  {v}" for v in values or ["none"]]]
    return Reply(embed, None, "", command, SYSTEMS.get(game, game), (), tuple(summary), fields, private=private)


def import_reply(army: Army, replaced: bool) -> Reply:
    """``/army import``: the army, its points, its units with their profiles at a glance, and what
    could not be read."""
    r = army.roster
    game = _game(r)
    system = shown(r.game_system or "an unnamed game system")
    where = GAME_NAMES.get(r.game, f"{system} (the bot's commands read its units as Warhammer Fantasy)")
    forces = ", ".join(shown(f, 50) for f in r.forces)
    lines = [f"{where} · {len(r.units)} unit{'s' if len(r.units) != 1 else ''} in {forces}"]
    lines += [unit_line(u, game) for u in r.units]
    unread = list(r.unread)
    unread += [why for u in r.units for _, why in target_values(u, game).dropped]  # a value no rule allows: said, not used
    asks = [u.label for u in r.units if any(n == "save" for n, _ in target_values(u, game).missing)]
    if asks:
        unread.append(f"armour saves of {', '.join(shown(a, 40) for a in asks[:5])}{' and more' if len(asks) > 5 else ''}: "
                      "the list names their armour, not the save (give save: when you shoot them)")
    embed_fields = [("Not read", [shown(x, 200) for x in unread])] if unread else []
    embed_fields.append(("Use it", [USE_IT]))
    title = f"{'Replaced' if replaced else 'Imported'} {shown(r.name, 120)} · {points(r.points)}"
    return _reply("army import", game, title, lines, {"army": army_json(army)}, embed_fields)


def army_json(army: Army) -> dict[str, Any]:
    r = army.roster
    return {"name": r.name, "owner": army.user_id, "game": r.game, "game_system": r.game_system, "points": r.points,
            "forces": list(r.forces), "units": [unit_json(u, _game(r)) for u in r.units], "unread": list(r.unread)}


def list_reply(rows: list[tuple[str, str | None, float | None, int]], who: str) -> Reply:
    if not rows:
        return _reply("army list", "any", f"{who} no army lists here",
                      ["Send one with /army import file: (a BattleScribe .ros or .rosz, or New Recruit's export)."],
                      {"armies": []})
    lines = [f"**{shown(n)}** · {GAME_NAMES.get(g or '', 'other game')} · {points(p)} · {u} unit{'s' if u != 1 else ''}"
             for n, g, p, u in rows]
    return _reply("army list", "any", f"{who} {len(rows)} army list{'s' if len(rows) != 1 else ''} here", lines,
                  {"armies": [{"name": n, "game": g, "points": p, "units": u} for n, g, p, u in rows]})


def show_reply(army: Army, unit: Unit) -> Reply:
    game = _game(army.roster)
    v = target_values(unit, game)
    lines = [f"{shown(army.name)} (<@{army.user_id}>'s list) · {shown(unit.force, 60)} · {points(unit.points)}"]
    if unit.models:
        lines.append(f"{unit.models} model{'s' if unit.models != 1 else ''}")
    fields = []
    for p in unit.profiles[:8]:
        stats = " ".join(f"{shown(n, 20)} {shown(val, 30)}" for n, val in p.characteristics if val)
        fields.append((f"{shown(p.name, 60)} ({shown(p.kind, 30) or 'profile'})", [stats or "no values"]))
    words = values_words(v, game)
    fields.append(("As a target", [words or "nothing the commands take"] +
                   [f"not in the list: {shown(why, 200)}" for _, why in v.missing] +
                   [f"in the list but not used: {shown(why, 200)}" for _, why in v.dropped]))
    if unit.rules:
        fields.append(("Rules and categories", [", ".join(shown(r, 60) for r in unit.rules)]))
    if unit.gear:
        fields.append(("Upgrades", [", ".join(shown(g, 60) for g in unit.gear)]))
    return _reply("army show", game, shown(unit.label, 200), lines, {"unit": unit_json(unit, game), "list": army.name},
                  fields)


def remove_reply(army: Army) -> Reply:
    return _reply("army remove", _game(army.roster), f"Removed {shown(army.name, 120)}",
                  [f"{len(army.roster.units)} units gone from your lists here."], {"removed": army.name})
