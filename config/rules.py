"""Rules entries: ``config/rules/<game>.toml`` loaded once into frozen :class:`RuleEntry` records.

Each entry names one rule, machine, chart or scenario of the rulebooks (``../shared/seeds``) with a
summary in our own words. Numbers are never typed here twice: an entry points at the game data the
engine uses with a reference such as ``profile = "fantasy:cannon:great-cannon"`` or
``chart = "fantasy:misfire:black-powder"``, and :func:`resolve` turns that into a :class:`RulesTable`
through the resolver registered for the reference's first word (one per game, in
:data:`RESOLVERS`). Adding a game's resolver is a function from the rest of the reference to a
table, and one line in :data:`RESOLVERS`.

``tests/config/test_rules_entries.py`` checks every shipped entry. Malformed data is a bug in a
shipped file, so it raises ``ValueError`` with the file and entry, not ``RulesError``.
"""

from __future__ import annotations

import functools
import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

from config.gamedata import fantasy, warmaster, wh40k

RULES_DIR = Path(__file__).parent / "rules"

GAMES: Mapping[str, str] = MappingProxyType({
    "warhammer-fantasy": "Warhammer Fantasy",
    "warmaster": "Warmaster",
    "wh40k": "Warhammer 40,000",
})
"""Each game's key (as replies name their ``system``) and how it is shown."""

REQUIRED = ("name", "source", "summary")
OPTIONAL = ("aliases", "keywords", "related", "profile", "chart")


@dataclass(frozen=True, slots=True)
class RulesTable:
    """A profile or chart ready to show: a title, column headings and rows of cells."""

    title: str
    headings: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    source: str


@dataclass(frozen=True, slots=True)
class RuleEntry:
    """One rule, machine, chart or scenario."""

    key: str
    """``<game>:<slug of the name>``, unique: what autocomplete hands back."""
    name: str
    """As players call it; the same name may appear once per game."""
    game: str
    """A key of :data:`GAMES`."""
    source: str
    """The rulebook and section, so players can check their book."""
    summary: str
    """In our own words; facts carried over, sentences not."""
    aliases: tuple[str, ...] = ()
    """Other names and common misspellings."""
    keywords: tuple[str, ...] = ()
    """Other words for the same thing, for search ("glance" for the glancing hit table)."""
    related: tuple[str, ...] = ()
    """Names of related entries, same game first."""
    profile: str | None = None
    """A reference to a profile in the game data, e.g. ``fantasy:cannon:cannon``."""
    chart: str | None = None
    """A reference to a chart in the game data, e.g. ``fantasy:misfire:stone-thrower``."""

    @property
    def game_name(self) -> str:
        return GAMES[self.game]


def slug(text: str) -> str:
    """``"Who's Been Hit? (Cannon)"`` -> ``"whos-been-hit-cannon"``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower().replace("'", "")).strip("-")


def _strings(value, where: str, field: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ValueError(f"{where}: {field} must be a list of non-empty strings")
    return tuple(value)


def _entry(raw: dict, game: str, where: str) -> RuleEntry:
    unknown = set(raw) - set(REQUIRED) - set(OPTIONAL)
    if unknown:
        raise ValueError(f"{where}: unknown field(s) {sorted(unknown)}")
    for field in REQUIRED:
        if not isinstance(raw.get(field), str) or not raw[field].strip():
            raise ValueError(f"{where}: '{field}' is required and must be text")
    for field in ("profile", "chart"):
        if field in raw and not isinstance(raw[field], str):
            raise ValueError(f"{where}: '{field}' must be a reference like 'fantasy:cannon:cannon'")
    return RuleEntry(
        key=f"{game}:{slug(raw['name'])}", name=raw["name"].strip(), game=game, source=raw["source"].strip(),
        summary=" ".join(raw["summary"].split()),
        aliases=_strings(raw.get("aliases", []), where, "aliases"),
        keywords=_strings(raw.get("keywords", []), where, "keywords"),
        related=_strings(raw.get("related", []), where, "related"),
        profile=raw.get("profile"), chart=raw.get("chart"),
    )


def load_file(path: Path) -> tuple[RuleEntry, ...]:
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    game = raw.get("game")
    if game not in GAMES:
        raise ValueError(f"{path.name}: 'game' must be one of {list(GAMES)}, not {game!r}")
    return tuple(_entry(e, game, f"{path.name} entry {i + 1} ({e.get('name', '?')})") for i, e in enumerate(raw.get("entry", [])))


@dataclass(frozen=True, slots=True)
class Outside:
    """What a game's rulebooks in Bombardier do not hold (a file's ``[outside]`` table), so that
    ``/rules`` says so instead of passing off a neighbouring entry as the answer."""

    game: str
    covers: str
    """What the rulebooks Bombardier holds cover, in a sentence (``Special rules from Always
    Strikes First to Killing Blow``)."""
    rules: tuple[str, ...]
    """Rules of the game that players ask about and the held rulebooks do not describe."""


@functools.cache
def outside_rules() -> Mapping[str, Outside]:
    """Each game's :class:`Outside`, from the ``[outside]`` table of its rules file."""
    out = {}
    for path in sorted(RULES_DIR.glob("*.toml")):
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        table = raw.get("outside")
        if table is None:
            continue
        if not isinstance(table.get("covers"), str) or not table["covers"].strip():
            raise ValueError(f"{path.name}: [outside] 'covers' is required and must be text")
        out[raw["game"]] = Outside(raw["game"], " ".join(table["covers"].split()),
                                   _strings(table.get("rules", []), f"{path.name} [outside]", "rules"))
    return MappingProxyType(out)


@functools.cache
def rule_entries() -> tuple[RuleEntry, ...]:
    """Every entry of every game, checked for unique keys and related names that resolve."""
    entries = tuple(e for path in sorted(RULES_DIR.glob("*.toml")) for e in load_file(path))
    keys: dict[str, RuleEntry] = {}
    for e in entries:
        if e.key in keys:
            raise ValueError(f"rules: two {e.game_name} entries are both named '{e.name}' ({e.key})")
        keys[e.key] = e
    by_slug = names_by_slug(entries)
    for e in entries:
        for name in e.related:
            if related_entry(by_slug, e, name) is None:
                raise ValueError(f"rules: {e.key} names a related entry '{name}' that does not exist")
    return entries


def names_by_slug(entries: tuple[RuleEntry, ...]) -> Mapping[str, tuple[RuleEntry, ...]]:
    """Entries by the slug of their name, for :func:`related_entry`."""
    found: dict[str, list[RuleEntry]] = {}
    for e in entries:
        found.setdefault(slug(e.name), []).append(e)
    return MappingProxyType({k: tuple(v) for k, v in found.items()})


def related_entry(by_slug: Mapping[str, tuple[RuleEntry, ...]], entry: RuleEntry, name: str) -> RuleEntry | None:
    """The entry a related name points at (`by_slug` from :func:`names_by_slug`): the same game's
    first, then any game's ("Warmaster: Cannon" names another game's entry outright)."""
    game, _, bare = name.partition(":")
    wanted_game = next((k for k, v in GAMES.items() if v.lower() == game.strip().lower()), None) if bare else None
    if wanted_game is not None:
        return next((e for e in by_slug.get(slug(bare), ()) if e.game == wanted_game), None)
    same = by_slug.get(slug(name), ())
    return next((e for e in same if e.game == entry.game), same[0] if same else None)


# --- references: profile and chart tables from the game data the engine uses ---------------------


def _fantasy(kind: str, key: str) -> RulesTable:
    data = fantasy()
    if kind == "cannon":
        c = data.cannons[key]
        return RulesTable(c.name, ("Range", "Strength", "Special rules"),
                          ((f'{c.min_range}-{c.max_range}"', str(c.strength), ", ".join(c.special_rules)),), c.source)
    if kind == "stone-thrower":
        s = data.stone_throwers[key]
        return RulesTable(s.name, ("Range", "Strength", "Special rules", "Template"), (
            (f'{s.min_range}-{s.max_range}"', f"{s.strength} ({s.centre_strength})", ", ".join(s.special_rules),
             f'{s.template.name}, {s.template.diameter:g}"'),), s.source)
    if kind == "bolt-thrower":
        b = data.bolt_throwers[key]
        return RulesTable(b.name, ("Range", "Strength", "Special rules"),
                          ((f'{b.range}"', str(b.strength), ", ".join(b.special_rules)),), b.source)
    if kind == "fire-thrower":
        f = data.fire_throwers[key]
        return RulesTable(f.name, ("Range", "Strength", "Special rules", "Template"), (
            ("none: the template starts at the barrel", str(f.strength), ", ".join(f.special_rules),
             f'{f.template.name}, {f.template.length:g}" long, {f.template.narrow:g}" to {f.template.wide:g}" wide '
             "(core rulebook size)"),), f.source)
    if kind == "grapeshot":
        g = data.grapeshot
        return RulesTable(g.name, ("Range", "Strength", "Special rules"),
                          ((f'{g.range}"', str(g.strength), ", ".join(g.special_rules)),), g.source)
    if kind == "misfire":
        m = data.misfire_charts[key]
        return RulesTable(m.name, ("D6", "Result", "Effect"), tuple(
            (f"{r.low}" if r.low == r.high else f"{r.low}-{r.high}", r.title, r.effect) for r in m.rows), m.source)
    if kind == "template":
        t = data.templates[key]
        return RulesTable(t.name, ("Diameter", "Centre hole (our choice)"), ((f'{t.diameter:g}"', f'{t.hole:g}"'),),
                          "Warhammer Fantasy Battles, War Machines: Stone Throwers")
    if kind == "troop":
        t = data.troops[key]
        return RulesTable(t.name, ("Usual base (mm)", "Stops a cannon ball if not slain"), (
            (f"{t.base_width}x{t.base_depth}", "yes" if t.monstrous else "no"),),
            "Warhammer Fantasy Battles, War Machines: Who's Been Hit? (Cannon)")
    if kind == "to-hit" and key == "shooting":
        p = data.to_hit_penalties
        return RulesTable("Shooting modifiers for war machines", ("Modifier", "To hit"), (
            ("long range (over half range)", f"-{p.long_range}"), ("soft cover", f"-{p.soft_cover}"),
            ("hard cover", f"-{p.hard_cover}")), "Warhammer Fantasy Battles, War Machines: Shooting with War Machines")
    raise KeyError(f"{kind}:{key}")


def _fantasy_resolver(rest: str) -> RulesTable:
    kind, _, key = rest.partition(":")
    return _fantasy(kind, key or kind)


def _rolls(low: int, high: int) -> str:
    return f"{low}" if low == high else f"{low}-{high}"


WM_PROFILE = ("Type", "Attack", "Hits", "Armour", "Points", "Min/max")
"""Warmaster's profile columns, as the Siege & Fortresses lists print them (Structure points apart)."""


def _save(armour: int) -> str:
    return f"{armour}+" if armour else "none"


def _wm_profile(key: str) -> tuple[str, ...]:
    p = warmaster().siege_profiles[key]
    return (p.type, p.attack, str(p.hits), _save(p.armour), str(p.points), p.min_max)


def _wm_artillery(key: str) -> RulesTable:
    """A seed 002 machine: range, attacks and what it does to armour and positions."""
    a = warmaster().artillery[key]
    if a.bands:
        attacks = "by range: " + ", ".join(f"{n} up to {r} cm" for r, n in a.bands)
    elif a.skewers:
        attacks = f"1 a stand skewered, up to {a.skewers} stands"
    else:
        attacks = f"{a.attacks} a stand"
    cells = {"Range": f"{a.range} cm", "Attacks": attacks}
    if not a.cut_off:  # a cut-off entry's armour rule is unknown, not normal
        cells["Armour"] = {"normal": "as normal", "ignored": "no armour roll", "worse": "one worse"}[a.armour]
    if a.to_hit_bonus:
        cells["To hit"] = f"+{a.to_hit_bonus}"
    if a.position_shift:
        cells["Target position"] = "counts one better (fortified as defended, defended as open)"
    if a.bounce:
        cells["Bounce"] = f"{a.bounce} cm through the target"
    if a.grapeshot_attacks:
        cells["Grapeshot (charged)"] = f"{a.grapeshot_attacks} attacks a cannon, no bounce, armour counts"
    if a.cut_off:
        cells["Special rules"] = "not in the seed (its text stops after the profile)"
    return RulesTable(a.name, tuple(cells), (tuple(cells.values()),), a.source)


def _wm_structure(key: str) -> tuple[str, str]:
    s = warmaster().structures[key]
    return s.name, f"{s.points}" + (f" (its gate {s.gate_points})" if s.gate_points else "")


def _min_max(e) -> str:
    return f"{e.min or '-'}/{e.max if e.max is not None else '-'}"


def _bought_by(e) -> str:
    return {"defender": "defenders only", "attacker": "attackers only", "both": "either side"}[e.side]


def _warmaster(kind: str, key: str) -> RulesTable:
    data = warmaster()
    if kind == "siege-profile":
        p = data.siege_profiles[key]
        return RulesTable(p.name, WM_PROFILE, (_wm_profile(key),), p.source)
    if kind == "siege-artillery":
        a, p = data.siege_artillery[key], data.siege_profiles[key]
        reach = f"{a.min_range}-{a.range} cm" if a.min_range else f"up to {a.range} cm"
        return RulesTable(p.name, (*WM_PROFILE, "Range", "Shooting", "Sight"), (
            (*_wm_profile(key), reach, f"{a.attacks} attacks, no save" + (", bounces" if a.bounce else ""),
             f"{a.corridor} cm corridor straight ahead"),), a.source)
    if kind == "artillery":
        return _wm_artillery(key)
    if kind == "bands":
        a = data.artillery[key]
        if not a.bands:
            raise KeyError(key)
        low = [0, *(r for r, _ in a.bands)]
        return RulesTable(f"{a.name}: attacks by range", ("Range", "Attacks"), tuple(
            (f"over {low[i]}, up to {r} cm" if i else f"up to {r} cm", str(n)) for i, (r, n) in enumerate(a.bands)), a.source)
    if kind == "structure":
        s = data.structures[key]
        return RulesTable(s.name, ("Structure points", "When it falls"), ((_wm_structure(key)[1], s.on_destroyed),), s.source)
    if kind == "oil" and key == "oil":
        o = data.oil
        return RulesTable(o.name, ("D6", "Attacks", "Effect"),
                          tuple((_rolls(r.low, r.high), str(r.attacks), r.effect) for r in o.rows), o.source)
    if kind == "sally-gate" and key == "sally-gate":
        return RulesTable("Sally gate", ("Stays open when",), (
            (f"{data.siege.sally_gate_dice} dice reach the distance to the nearest enemy (cm)",),), data.siege.source)
    if kind == "wall-breaching" and key == "wall-breaching":
        return RulesTable("Wall-breaching artillery", ("Most allowed", "Counted"), (
            (f"{data.siege.breaching_per_1000} per whole 1000 points", ", ".join(data.siege.wall_breaching)),), data.siege.source)
    if kind == "scenario":
        s = data.scenarios[key]
        if s.ends_from_turn:
            ends = f"from turn {s.ends_from_turn} on {s.ends_on}+, always after turn {s.last_turn}"
            return RulesTable(s.name, ("Game end",), ((ends,),), s.source)
        relief = f"{s.relief_on}+ from turn {s.relief_from_turn}, +{s.dispatch_bonus} a dispatch unit through"
        return RulesTable(s.name, ("Relief force arrives", "Turns"), ((relief, str(s.last_turn)),), s.source)
    if kind == "list":
        lists = "Warmaster Siege & Fortresses: Siege equipment lists"
        if key == "fortification":
            def row(e) -> tuple[str, ...]:
                points = _wm_structure(e.key)[1] if e.key in data.structures else "-"
                return (e.name, points, e.note or str(e.cost), _min_max(e), _bought_by(e))
            return RulesTable("Fortification list: structure points and costs (the bot's data)",
                              ("Section", "Structure points", "Points", "Min/max", "Bought by"),
                              tuple(row(e) for e in data.equipment.values() if e.list == "fortification"),
                              f"{lists}, Fortification")
        if key == "siege-equipment":
            machines = [k for k, p in data.siege_profiles.items() if p.type == "M"]
            rows = [(data.siege_profiles[k].name, *_wm_profile(k)) for k in machines]
            rows += [(e.name, "-", "-", "-", "-", str(e.cost), _min_max(e)) for e in data.equipment.values()
                     if e.list == "siege equipment" and e.key not in data.siege_profiles]
            return RulesTable("Siege equipment list: points and profiles (the bot's data)", ("Item", *WM_PROFILE),
                              tuple(rows), lists)
        if key == "siege-artillery":
            return RulesTable("Siege artillery list", ("Engine", *WM_PROFILE, "Range"), tuple(
                (a.name, *_wm_profile(k), f"{a.min_range}-{a.range} cm" if a.min_range else f"up to {a.range} cm")
                for k, a in data.siege_artillery.items()), f"{lists}, Siege artillery list")
    raise KeyError(f"{kind}:{key}")


def _wh40k(kind: str, key: str) -> RulesTable:
    data = wh40k()
    if kind == "penetration":
        if key == "penetration":
            return RulesTable("Armour penetration by weapon", ("Weapon", "Penetration", "Penetrating hits roll on"), tuple(
                (w.name, w.describe(), f"{data.damage_tables[w.table].name} table") for w in data.penetration.values()),
                "Warhammer 40,000 trial vehicle rules, Armour Penetration")
        w = data.penetration[key]
        strength = f"{w.strength} (fixed)" if w.strength is not None else "the weapon's"
        return RulesTable(w.name, ("Penetration", "Strength", "Penetrating hits roll on"),
                          ((w.describe(), strength, f"{data.damage_tables[w.table].name} table"),), w.source)
    if kind == "damage":
        t = data.damage_tables[key]
        return RulesTable(f"{t.name} table ({t.die})", (t.die, "Result", "Effect"),
                          tuple((_rolls(r.low, r.high), r.name.capitalize(), r.effect) for r in t.rows), t.source)
    if kind == "firing" and key == "firing":
        f = data.firing
        return RulesTable("Vehicle Moving & Firing Summary", ("Vehicle", "Moves up to", *(s.name for s in f.speeds)),
                          tuple((t.name, f'{t.max_move}"', *t.weapons) for t in f.types), f.source)
    if kind == "blast":
        b = data.blast_markers[key]
        return RulesTable(b.name, ("Diameter", "Partly under", "Centre hole (our choice)"),
                          ((f'{b.diameter:g}"', f"hit on {b.partial_hit}+", f'{b.hole:g}"'),), b.source)
    if kind == "wounds" and key == "wounds":
        w = data.wounds
        return RulesTable("Wounds from a destroyed vehicle", ("Passengers", "Models in an explosion's reach", "Survivors placed"), (
            (f"wounded on {w.passenger}+, saves allowed", f"wounded on {w.debris}+, saves allowed",
             f'within {w.passenger_placed_within}" of the wreck'),),
            "Warhammer 40,000 trial vehicle rules, Damage Rolls: Notes")
    if kind == "barrage" and key == "barrage":
        return RulesTable("Barrage pinning test", ("Leadership",), ((f"{data.pinning_modifier:+d}",),),
                          "Warhammer 40,000 trial vehicle rules, Ordnance Barrages")
    raise KeyError(f"{kind}:{key}")


def _split(fn: Callable[[str, str], RulesTable]) -> Callable[[str], RulesTable]:
    """``kind:key`` (or a bare ``kind``, its own key) to ``fn(kind, key)``."""
    def resolver(rest: str) -> RulesTable:
        kind, _, key = rest.partition(":")
        return fn(kind, key or kind)
    return resolver


RESOLVERS: Mapping[str, Callable[[str], RulesTable]] = MappingProxyType({
    "fantasy": _fantasy_resolver,
    "warmaster": _split(_warmaster),
    "wh40k": _split(_wh40k),
})
"""One resolver per game's data, each reading the game's TOML through config.gamedata:
``fantasy:`` config/fantasy.toml, ``warmaster:`` config/warmaster.toml, ``wh40k:`` config/wh40k.toml."""


@functools.cache
def resolve(reference: str) -> RulesTable:
    """The table a reference names; ``ValueError`` for a reference no resolver knows."""
    prefix, _, rest = reference.partition(":")
    if prefix not in RESOLVERS:
        raise ValueError(f"rules: no resolver for '{prefix}:' (reference {reference!r}); known: {sorted(RESOLVERS)}")
    try:
        return RESOLVERS[prefix](rest)
    except KeyError:
        raise ValueError(f"rules: the reference {reference!r} names nothing in the {prefix} data") from None


# --- /help's words ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HelpPage:
    """``config/help.toml``: the words around the live command tree on the /help page."""

    intro: str
    dice: str
    report: str
    examples: Mapping[str, str]
    """One working example per top-level command or group, by its name."""
    report_url: str = ""
    """Where a rules mistake is reported (the project's issue tracker): ``BOMBARDIER_REPORT_URL``
    in the environment, else help.toml's ``report_url``; empty when the host has given none."""


@functools.cache
def help_page() -> HelpPage:
    raw = tomllib.loads((Path(__file__).parent / "help.toml").read_text(encoding="utf-8"))
    for field in ("intro", "dice", "report"):
        if not isinstance(raw.get(field), str) or not raw[field].strip():
            raise ValueError(f"help.toml: '{field}' is required and must be text")
    url = (os.environ.get("BOMBARDIER_REPORT_URL") or raw.get("report_url") or "").strip()
    if url and not url.startswith(("https://", "http://")):
        raise ValueError(f"report_url must be an http(s) address, not {url!r}")
    return HelpPage(raw["intro"], raw["dice"], raw["report"], MappingProxyType(dict(raw.get("examples", {}))), url)
