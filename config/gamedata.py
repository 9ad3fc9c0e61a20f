"""Game data: the TOML files beside this module, loaded once into the engine's frozen records.

Every number a procedure uses comes from here, and ``tests/engine/fantasy/test_gamedata.py`` checks them
against the rulebooks. Malformed data is a bug in a shipped file, so it raises ``ValueError``
with the file and key, not ``RulesError``.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

from engine.dice import DieKind
from engine.fantasy.profiles import (
    BoltThrowerProfile, CannonProfile, FireThrowerProfile, FlamingAttacks, GrapeshotProfile, TeardropTemplate, MisfireChart, MisfireOutcome, MisfireRow, StoneThrowerProfile, Template,
    ToHitPenalties, TroopType,
)
from engine.wh40k.profiles import (
    BlastMarker, DamageRow, DamageTable, FiringRow, FiringSummary, Outcome, PenetrationWeapon, Read, Speed, WoundRules,
)
from engine.warmaster.profiles import (
    Artillery, Equipment, OilChart, OilRow, Position, PositionRule, Scenario, SiegeArtillery, SiegeRules, Structure, Troop, TroopProfile,
)

HERE = Path(__file__).parent


@dataclass(frozen=True, slots=True)
class FantasyData:
    """Warhammer Fantasy Battles data."""

    cannons: Mapping[str, CannonProfile]
    stone_throwers: Mapping[str, StoneThrowerProfile]
    bolt_throwers: Mapping[str, BoltThrowerProfile]
    grapeshot: GrapeshotProfile
    to_hit_penalties: ToHitPenalties
    templates: Mapping[str, Template]
    misfire_charts: Mapping[str, MisfireChart]
    troops: Mapping[str, TroopType]
    flame_templates: Mapping[str, TeardropTemplate]
    fire_throwers: Mapping[str, FireThrowerProfile]
    flaming_attacks: FlamingAttacks


def _die(text: str, where: str) -> DieKind:
    try:
        return DieKind(text)
    except ValueError:
        raise ValueError(f"{where}: '{text}' is not a die") from None


def _misfire_chart(key: str, raw: dict) -> MisfireChart:
    rows = tuple(
        MisfireRow(
            low=row["rolls"][0], high=row["rolls"][-1], outcome=MisfireOutcome(row["outcome"]),
            title=row["title"], effect=row["effect"], silent_turns=row["silent_turns"], wounds=row["wounds"],
        )
        for row in raw["rows"]
    )
    covered = [n for row in rows for n in range(row.low, row.high + 1)]
    if covered != [1, 2, 3, 4, 5, 6]:
        raise ValueError(f"fantasy.toml misfire_charts.{key}: rows must cover 1-6 once, in order; got {covered}")
    return MisfireChart(key=key, name=raw["name"], rows=rows, source=raw["source"])


def _cannon(key: str, raw: dict, charts: Mapping[str, MisfireChart]) -> CannonProfile:
    where = f"fantasy.toml cannons.{key}"
    if raw["misfire_chart"] not in charts:
        raise ValueError(f"{where}: no misfire chart '{raw['misfire_chart']}'")
    low, high = raw["range"]
    return CannonProfile(
        key=key, name=raw["name"], min_range=low, max_range=high, strength=raw["strength"],
        direct_wounds=_die(raw["direct_wounds"], where), bounce_wounds=_die(raw["bounce_wounds"], where),
        special_rules=tuple(raw["special_rules"]), misfire_chart=raw["misfire_chart"], source=raw["source"],
    )


def _stone_thrower(key: str, raw: dict, charts: Mapping[str, MisfireChart], templates: Mapping[str, Template]) -> StoneThrowerProfile:
    where = f"fantasy.toml stone_throwers.{key}"
    for field, known in (("misfire_chart", charts), ("template", templates)):
        if raw[field] not in known:
            raise ValueError(f"{where}: no {field.replace('_', ' ')} '{raw[field]}'")
    low, high = raw["range"]
    return StoneThrowerProfile(
        key=key, name=raw["name"], min_range=low, max_range=high, strength=raw["strength"],
        centre_strength=raw["centre_strength"], centre_wounds=_die(raw["centre_wounds"], where),
        template=templates[raw["template"]], special_rules=tuple(raw["special_rules"]),
        misfire_chart=raw["misfire_chart"], source=raw["source"],
    )


@functools.cache
def fantasy() -> FantasyData:
    raw = tomllib.loads((HERE / "fantasy.toml").read_text(encoding="utf-8"))
    charts = {k: _misfire_chart(k, v) for k, v in raw["misfire_charts"].items()}
    cannons = {k: _cannon(k, v, charts) for k, v in raw["cannons"].items()}
    templates = {k: Template(key=k, name=v["name"], diameter=float(v["diameter"]), hole=float(v["hole"])) for k, v in raw["templates"].items()}
    stone_throwers = {k: _stone_thrower(k, v, charts, templates) for k, v in raw["stone_throwers"].items()}
    g = raw["grapeshot"]["grapeshot"]
    if g["misfire_chart"] not in charts:
        raise ValueError(f"fantasy.toml grapeshot: no misfire chart '{g['misfire_chart']}'")
    grapeshot = GrapeshotProfile(
        key="grapeshot", name=g["name"], range=g["range"], strength=g["strength"], armour_piercing=g["armour_piercing"],
        special_rules=tuple(g["special_rules"]), misfire_chart=g["misfire_chart"], source=g["source"],
    )
    penalties = ToHitPenalties(**raw["to_hit_penalties"])
    bolt_throwers = {
        k: BoltThrowerProfile(
            key=k, name=v["name"], range=v["range"], strength=v["strength"],
            multiple_wounds=_die(v["multiple_wounds"], f"fantasy.toml bolt_throwers.{k}"),
            armour_piercing=v["armour_piercing"], special_rules=tuple(v["special_rules"]),
            ranked_target=v["ranked_target"], source=v["source"],
        )
        for k, v in raw["bolt_throwers"].items()
    }
    troops = {
        k: TroopType(key=k, name=v["name"], monstrous=v["monstrous"], base_width=v["base"][0], base_depth=v["base"][1])
        for k, v in raw["troops"].items()
    }
    flames = {
        k: TeardropTemplate(key=k, name=v["name"], length=float(v["length"]), narrow=float(v["narrow"]),
                            wide=float(v["wide"]), source=v["source"])
        for k, v in raw["flame_templates"].items()
    }
    for k, t in flames.items():
        if not 0 < t.narrow < t.wide < t.length - t.narrow / 2:
            raise ValueError(f"fantasy.toml flame_templates.{k}: the narrow end must be narrower than the wide end, both inside the length")
    fire_throwers = {}
    for k, v in raw["fire_throwers"].items():
        where = f"fantasy.toml fire_throwers.{k}"
        if v["misfire_chart"] not in charts or v["template"] not in flames:
            raise ValueError(f"{where}: unknown misfire chart or template")
        fire_throwers[k] = FireThrowerProfile(
            key=k, name=v["name"], strength=v["strength"], special_rules=tuple(v["special_rules"]),
            template=flames[v["template"]], misfire_chart=v["misfire_chart"], source=v["source"],
        )
    f = raw["flaming_attacks"]
    if set(f["troops"]) - set(troops):
        raise ValueError(f"fantasy.toml flaming_attacks: unknown troop types {set(f['troops']) - set(troops)}")
    flaming = FlamingAttacks(panic_penalty=f["panic_penalty"], troops=tuple(f["troops"]))
    return FantasyData(
        MappingProxyType(cannons), MappingProxyType(stone_throwers), MappingProxyType(bolt_throwers), grapeshot, penalties, MappingProxyType(templates),
        MappingProxyType(charts), MappingProxyType(troops), MappingProxyType(flames), MappingProxyType(fire_throwers), flaming,
    )


@dataclass(frozen=True, slots=True)
class Wh40kData:
    """Warhammer 40,000 vehicle data (3rd edition trial vehicle rules)."""

    penetration: Mapping[str, PenetrationWeapon]
    damage_tables: Mapping[str, DamageTable]
    blast_markers: Mapping[str, BlastMarker]
    wounds: WoundRules
    base_sizes: tuple[int, ...]
    """Round bases, millimetres."""
    default_base: int
    hull_length: float
    """The hull measured when none is given, inches."""
    hull_width: float
    pinning_modifier: int
    """Leadership modifier of an ordnance barrage's pinning test."""
    firing: FiringSummary


def _damage_table(key: str, raw: dict) -> DamageTable:
    where = f"wh40k.toml damage_tables.{key}"
    rows = []
    for row in raw["rows"]:
        radius = row.get("radius")
        if radius is not None and radius != "D6" and not isinstance(radius, int):
            raise ValueError(f"{where}: radius {radius!r} is neither inches nor D6")
        rows.append(DamageRow(low=row["rolls"][0], high=row["rolls"][-1], name=row["name"],
                              outcome=Outcome(row["outcome"]), effect=row["effect"], radius=radius))
    covered = [n for row in rows for n in range(row.low, row.high + 1)]
    if covered != [1, 2, 3, 4, 5, 6]:
        raise ValueError(f"{where}: rows must cover 1-6 once, in order; got {covered}")
    names = [row.name for row in rows]
    if any(n != n.lower() for n in names) or len(set(names)) != len(names):
        raise ValueError(f"{where}: row names must be distinct and lower case; got {names}")
    return DamageTable(key=key, name=raw["name"], die=raw["die"], when=raw["when"], rows=tuple(rows), source=raw["source"])


@functools.cache
def wh40k() -> Wh40kData:
    raw = tomllib.loads((HERE / "wh40k.toml").read_text(encoding="utf-8"))
    tables = {k: _damage_table(k, v) for k, v in raw["damage_tables"].items()}
    weapons = {}
    for k, v in raw["penetration"].items():
        if v["table"] not in tables:
            raise ValueError(f"wh40k.toml penetration.{k}: no damage table '{v['table']}'")
        weapons[k] = PenetrationWeapon(key=k, name=v["name"], dice=v["dice"], read=Read(v["read"]),
                                       strength=v.get("strength"), table=v["table"], source=v["source"])
    markers = {
        k: BlastMarker(key=k, name=v["name"], diameter=float(v["diameter"]), hole=float(v["hole"]),
                       partial_hit=v["partial_hit"], source=v["source"])
        for k, v in raw["blast_markers"].items()
    }
    bases = tuple(raw["bases"]["sizes"])
    if raw["bases"]["default"] not in bases:
        raise ValueError("wh40k.toml bases: the default is not one of the sizes")
    return Wh40kData(
        MappingProxyType(weapons), MappingProxyType(tables), MappingProxyType(markers), WoundRules(**raw["wounds"]),
        bases, raw["bases"]["default"], float(raw["hull"]["length"]), float(raw["hull"]["width"]),
        raw["barrage"]["pinning_modifier"], _firing(raw["firing"]),
    )


def _firing(raw: dict) -> FiringSummary:
    speeds = tuple(Speed(s["name"], s.get("up_to")) for s in raw["speeds"])
    types = tuple(FiringRow(t["key"], t["name"], t["max_move"], tuple(t["weapons"])) for t in raw["types"])
    if speeds[-1].up_to is not None or any(s.up_to is None for s in speeds[:-1]):
        raise ValueError("wh40k.toml firing.speeds: only the last column may be open-ended, and it must be")
    for t in types:
        if len(t.weapons) != len(speeds):
            raise ValueError(f"wh40k.toml firing.{t.key}: {len(t.weapons)} entries for {len(speeds)} speeds")
    return FiringSummary(speeds, types, raw["source"], raw.get("road_bonus", 0), tuple(raw.get("road_types", ())))


@dataclass(frozen=True, slots=True)
class WarmasterData:
    """Warmaster data (seeds 001 and 002, and the core rules they lean on): see warmaster.toml."""

    unit: str
    stand_width: float
    """cm"""
    stand_depth: float
    """cm"""
    positions: Mapping[Position, PositionRule]
    troops: Mapping[str, Troop]
    artillery: Mapping[str, Artillery]
    structures: Mapping[str, Structure]
    oil: OilChart
    siege_profiles: Mapping[str, TroopProfile]
    siege_artillery: Mapping[str, SiegeArtillery]
    siege: SiegeRules
    scenarios: Mapping[str, Scenario]
    equipment: Mapping[str, Equipment]
    """The siege equipment lists' items, points and limits."""


def _artillery(key: str, raw: dict) -> Artillery:
    if raw.get("armour", "normal") not in ("normal", "ignored", "worse"):
        raise ValueError(f"warmaster.toml artillery.{key}: armour '{raw['armour']}' is not normal/ignored/worse")
    return Artillery(
        key=key, name=raw["name"], range=raw["range"], attacks=raw.get("attacks", 0), effects=tuple(raw["effects"]),
        source=raw["source"], bounce=raw.get("bounce", 0),
        armour="worse" if "armour_worse" in raw else raw.get("armour", "normal"),
        position_shift=raw.get("position_shift", 0), to_hit_bonus=raw.get("to_hit_bonus", 0),
        bands=tuple((int(a), int(b)) for a, b in raw.get("bands", ())), skewers=raw.get("skewers", 0),
        grapeshot_attacks=raw.get("grapeshot_attacks", 0), cut_off=raw.get("cut_off", False),
    )


@functools.cache
def warmaster() -> WarmasterData:
    raw = tomllib.loads((HERE / "warmaster.toml").read_text(encoding="utf-8"))
    positions = {Position(k): PositionRule(Position(k), v["name"], v["to_hit"], v["drive_back_dice_less"], v["source"])
                 for k, v in raw["positions"].items()}
    if set(positions) != set(Position):
        raise ValueError("warmaster.toml positions: need open, defended and fortified")
    oil_rows = tuple(OilRow(r["rolls"][0], r["rolls"][-1], r["attacks"], r["effect"]) for r in raw["oil"]["rows"])
    covered = [n for r in oil_rows for n in range(r.low, r.high + 1)]
    if covered != [1, 2, 3, 4, 5, 6]:
        raise ValueError(f"warmaster.toml oil: rows must cover 1-6 once, in order; got {covered}")
    o = raw["oil"]
    s = raw["siege"]
    return WarmasterData(
        unit=raw["unit"], stand_width=raw["stand_width_mm"] / 10, stand_depth=raw["stand_depth_mm"] / 10,
        positions=MappingProxyType(positions),
        troops=MappingProxyType({k: Troop(k, v["name"], v["full_pace"]) for k, v in raw["troops"].items()}),
        artillery=MappingProxyType({k: _artillery(k, v) for k, v in raw["artillery"].items()}),
        structures=MappingProxyType({k: Structure(k, v["name"], v["points"], v["source"], v.get("gate_points"), v["on_destroyed"])
                                     for k, v in raw["structures"].items()}),
        oil=OilChart(o["name"], oil_rows, o["armour_worse"], o["equipment_save"], o["source"]),
        siege_profiles=MappingProxyType({k: TroopProfile(k, v["name"], v["type"], v["attack"], v["hits"], v["armour"], v["points"],
                                                         v["min_max"], v["source"]) for k, v in raw["siege_profiles"].items()}),
        siege_artillery=MappingProxyType({k: SiegeArtillery(k, v["name"], v["min_range"], v["range"], v["attacks"], v["corridor"],
                                                            v["bounce"], v["position_shift"], tuple(v["effects"]), v["source"])
                                          for k, v in raw["siege_artillery"].items()}),
        siege=SiegeRules(s["ram_hits"], s["failed_batter_fall_back"], s["sally_gate_dice"], s["breaching_per_1000"],
                         tuple(s["wall_breaching"]), s["source"], s.get("giant_hits", 8), s.get("giant_armour", 5),
                         s.get("siege_tower_reach", 4),
                         tuple((k, tuple(v)) for k, v in s.get("kindreds", {}).items()), tuple(s.get("armies", ()))),
        scenarios=MappingProxyType({k: Scenario(k, v["name"], v["last_turn"], v["source"], v.get("ends_from_turn", 0), v.get("ends_on", 0),
                                                v.get("relief_from_turn", 0), v.get("relief_on", 0), v.get("dispatch_bonus", 0),
                                                v.get("max_points", 0), tuple(v.get("attacker_buys", ())), v.get("garrison_units", 0),
                                                v.get("garrison_cost", 1), v.get("contingent_share", 0),
                                                v.get("fortification_share", 0))
                                    for k, v in raw["scenarios"].items()}),
        equipment=MappingProxyType({k: _equipment(k, v) for k, v in raw["equipment"].items()}),
    )


def _equipment(key: str, raw: dict) -> Equipment:
    if raw["side"] not in ("defender", "attacker", "both"):
        raise ValueError(f"warmaster.toml equipment.{key}: side '{raw['side']}' is not defender/attacker/both")
    return Equipment(key, raw["name"], raw["list"], raw.get("cost", 0), raw["side"], raw.get("min", 0), raw.get("max"),
                     raw.get("breaching", False), tuple(raw.get("not_for", ())), raw.get("note", ""))
