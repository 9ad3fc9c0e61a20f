"""Game data: the TOML files beside this module, loaded once into the engine's frozen records.

Every number a procedure uses comes from here, and ``tests/engine/test_gamedata.py`` checks them
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
