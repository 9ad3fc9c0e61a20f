"""Army lists as BattleScribe and New Recruit write them, read into frozen records.

A roster is the ``http://www.battlescribe.net/schema/rosterSchema`` document: ``.ros`` (XML),
``.rosz`` (the same in a zip) or New Recruit's JSON export of the same schema (``{"roster":
{"forces": [...]}}``, a characteristic's value under ``$text``). Forces hold selections; a force's
top-level selections are its units, whose nested selections (models, upgrades, wargear) carry
profiles (named characteristics: ``T``, ``Toughness``, ``Sv``, ``Front Armor``, ``Hits``...),
rules and costs.

The bytes are untrusted: :func:`read_roster` refuses, with one sentence, a file over
:data:`MAX_FILE`, a zip that would unpack past :data:`MAX_UNPACKED` or holds more than one
file, XML with a document type (entity declarations: defusedxml refuses them), anything that is
not a roster, and a roster of more than :data:`MAX_UNITS` units. Nothing here does I/O.

:func:`target_values` turns a unit into the target options a game's commands take, from the
characteristic names real catalogues use (BSData/whfb 4th-8th ed., the Warhammer 40k 3rd
Edition data, Warmaster Revolution), and says what the list does not give rather than guessing.
"""

from __future__ import annotations

import io
import json
import math
import re
import zipfile
from dataclasses import dataclass
from typing import Any
from xml.etree.ElementTree import ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import iterparse

from engine.errors import RulesError
from engine.inputs import quote

MAX_FILE = 1_000_000
"""Bytes a roster file may have (a 2,000-point list is some 100 kB of XML, 10 kB zipped)."""
MAX_UNPACKED = 10_000_000
"""Bytes a ``.rosz`` may unpack to."""
MAX_UNITS = 500
"""Units a roster may hold."""
MAX_NAME = 100
"""A list's name is kept to this many characters: Discord's longest option value, so /army remove's
autocomplete can name any list in full."""
MAX_NUMBER = 10_000
"""The ``number`` of one selection at most (a horde is a few hundred models)."""
MAX_DEPTH = 40
"""Nesting of elements at most (real rosters nest selections four or five deep)."""
MAX_ELEMENTS = 50_000
"""Elements (or JSON objects and lists) a roster may hold: a 2,000-point list has a few thousand.
It bounds the reading time of a file that is small but dense (docs/army.md gives the figures)."""
NAMESPACE = "http://www.battlescribe.net/schema/rosterSchema"
GAMES = ("fantasy", "warmaster", "wh40k")


class RosterError(RulesError):
    """A file that is not a roster we read: the message says why, in one sentence."""


@dataclass(frozen=True, slots=True)
class Profile:
    """One profile of a unit: a model's or a vehicle's line of characteristics."""

    name: str
    kind: str
    """The profile type as the catalogue names it: ``Model``, ``Unit``, ``Vehicle``, ``Weapon``..."""
    characteristics: tuple[tuple[str, str], ...]
    """(name, value) in the catalogue's order and spelling."""
    models: int
    """How many models of the unit have this profile (the number of the selection it is on)."""

    def get(self, *names: str) -> str | None:
        """The value of the first characteristic named one of `names` (case and spaces ignored)."""
        wanted = [_key(n) for n in names]
        for want in wanted:
            for name, value in self.characteristics:
                if _key(name) == want:
                    return value
        return None


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit of the list: a force's top-level selection."""

    name: str
    """As the list names it (a custom name if the player gave one)."""
    label: str
    """Unique in the roster: the name, with ``#2``, ``#3`` for a name that repeats."""
    force: str
    """The force (catalogue) it is in."""
    kind: str
    """The selection type: ``unit``, ``model``, ``upgrade``."""
    models: int | None
    """Models in it, counted from its model selections; None when the list does not count them."""
    points: float | None
    profiles: tuple[Profile, ...]
    """Its visible profiles, the main one (the most models) first."""
    rules: tuple[str, ...]
    """Special rules and categories named anywhere in it (``Ethereal``, ``Open-Topped``)."""
    gear: tuple[str, ...]
    """Names of its upgrades and wargear (``Light armour``, ``Shield``)."""
    armour_gear: bool
    """It takes armour (a profile of the Armour type, or armour, shield or barding by name)."""

    @property
    def main(self) -> Profile | None:
        return self.profiles[0] if self.profiles else None


@dataclass(frozen=True, slots=True)
class Roster:
    name: str
    game_system: str
    """The game system the list was built for, as it names it."""
    game: str | None
    """``fantasy``, ``warmaster``, ``wh40k``, or None for another game."""
    points: float | None
    forces: tuple[str, ...]
    units: tuple[Unit, ...]
    unread: tuple[str, ...]
    """What could not be read, in words (hidden profiles skipped, units without a profile)."""

    def unit(self, label: str) -> Unit | None:
        wanted = _key(label)
        for u in self.units:
            if _key(u.label) == wanted:
                return u
        return None


def _key(text: str) -> str:
    return re.sub(r"[\s_\-./]+", "", text.casefold())


# ---------------------------------------------------------------------------------------------
# Reading the bytes


def _unzip(data: bytes) -> bytes:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        files = [i for i in archive.infolist() if not i.is_dir()]
    except (zipfile.BadZipFile, ValueError, OSError):
        raise RosterError("That zip cannot be opened: export the list again from BattleScribe or New Recruit.") from None
    if not files:
        raise RosterError("That zip is empty: a .rosz holds one roster.")
    if len(files) > 1:
        raise RosterError(f"That zip holds {len(files)} files: a .rosz holds one roster; send one list at a time.")
    info = files[0]
    if info.file_size > MAX_UNPACKED:
        raise RosterError(f"That zip would unpack to {info.file_size:,} bytes: a roster is at most {MAX_UNPACKED:,}.")
    try:
        with archive.open(info) as member:
            out = member.read(MAX_UNPACKED + 1)  # a header that lies about the size stops here too
    # zipfile's ways of saying a member cannot be read: a broken archive, an encrypted one
    # (RuntimeError), a compression method it does not support (NotImplementedError), a cut-off one.
    except (zipfile.BadZipFile, RuntimeError, ValueError, OSError, EOFError, NotImplementedError):
        raise RosterError("That zip cannot be unpacked: export the list again from BattleScribe or New Recruit.") from None
    if len(out) > MAX_UNPACKED:
        raise RosterError(f"That zip unpacks past {MAX_UNPACKED:,} bytes: a roster is at most that.")
    return out


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


def _element(e, depth: int = 0) -> dict[str, Any]:
    if depth > MAX_DEPTH:
        raise RosterError(f"That roster nests its entries more than {MAX_DEPTH} deep: it is not one BattleScribe wrote.")
    node: dict[str, Any] = dict(e.attrib)
    text = (e.text or "").strip()
    if text:
        node["$text"] = text
    for child in e:
        node.setdefault(_local(child.tag), []).append(_element(child, depth + 1))
    return node


UTF16 = ((b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"),
         *((c + b"\x00", "utf-16-le") for c in (b"<", b"{", b" ", b"\t", b"\r", b"\n")),
         *((b"\x00" + c, "utf-16-be") for c in (b"<", b"{", b" ", b"\t", b"\r", b"\n")))
"""How a UTF-16 file starts (BattleScribe can save a roster so, with a byte order mark, or without
one, its first character then a tag's or an object's opening, or white space), and its encoding."""
_DECLARED = re.compile(rb"^(<\?xml[^>]*?\bencoding\s*=\s*)([\"'])[A-Za-z0-9._-]*\2")


def _as_utf8(data: bytes) -> bytes:
    """A UTF-16 roster (with or without its byte order mark) as UTF-8 bytes, its XML declaration
    saying so; anything else as it is."""
    encoding = next((e for start, e in UTF16 if data.startswith(start)), None)
    if encoding is None:
        return data
    body = data[2:] if data[:2] in (b"\xff\xfe", b"\xfe\xff") else data
    try:
        text = body.decode(encoding)
    except UnicodeDecodeError:
        raise RosterError("That file starts as UTF-16 text but cannot be read as such: export the list again "
                          "from BattleScribe or New Recruit.") from None
    return _DECLARED.sub(rb'\1"UTF-8"', text.lstrip("\ufeff \t\r\n").encode("utf-8"), count=1)


def _document(data: bytes) -> dict[str, Any]:
    """The roster's top object, from XML or JSON, in one shape: attributes and child lists."""
    text = _as_utf8(data).lstrip(b"\xef\xbb\xbf \t\r\n")
    if text[:1] == b"{":
        try:
            doc = json.loads(text.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise RosterError("That JSON cannot be read: export the list again from New Recruit.") from None
        roster = doc.get("roster") if isinstance(doc, dict) else None
        if not isinstance(roster, dict):
            raise RosterError("That JSON is not a roster: New Recruit's export holds a \"roster\" object.")
        _depth(roster)
        return roster
    if text[:1] != b"<":
        raise RosterError("That file is not a roster: send the .ros or .rosz BattleScribe saves, or New Recruit's export.")
    root = None
    try:
        events = iterparse(io.BytesIO(text), events=("start",), forbid_dtd=True, forbid_entities=True, forbid_external=True)
        for count, (_, element) in enumerate(events, 1):
            if root is None:
                root = element
                tag = element.tag
                if _local(tag) != "roster":
                    raise RosterError(f"That XML is a '{quote(_local(tag), 30)}', not a roster: send a list (.ros, .rosz), "
                                      "not a catalogue.")
                if tag.startswith("{") and not tag.startswith("{" + NAMESPACE):
                    raise RosterError(f"That XML's roster is in the namespace '{quote(tag[1:].partition('}')[0], 60)}', "
                                      "not BattleScribe's roster schema: send the list BattleScribe or New Recruit saves.")
            if count > MAX_ELEMENTS:
                raise RosterError(f"That roster has more than {MAX_ELEMENTS:,} entries: it is refused.")
    except RosterError:
        raise
    except DefusedXmlException:
        raise RosterError("That XML declares a document type or entities: a roster never does, so it is refused.") from None
    except (ParseError, ValueError, RecursionError):
        raise RosterError("That XML cannot be read: export the list again from BattleScribe or New Recruit.") from None
    if root is None:
        raise RosterError("That XML cannot be read: export the list again from BattleScribe or New Recruit.")
    return _element(root)


def _depth(root: Any) -> None:
    """JSON's nesting and size held to the XML's bounds, without recursion."""
    stack, seen = [(root, 0)], 0
    while stack:
        node, depth = stack.pop()
        seen += 1
        if depth > MAX_DEPTH * 2:
            raise RosterError(f"That roster nests its entries more than {MAX_DEPTH} deep: it is not one New Recruit wrote.")
        if seen > MAX_ELEMENTS * 2:
            raise RosterError(f"That roster has more than {MAX_ELEMENTS:,} entries: it is refused.")
        children = node.values() if isinstance(node, dict) else node
        stack += [(v, depth + 1) for v in children if isinstance(v, (dict, list))]


def _items(node: dict[str, Any], plural: str, singular: str) -> list[dict[str, Any]]:
    """A node's children of one kind, whether written ``{"forces": [...]}`` (New Recruit's JSON),
    ``{"forces": {"force": [...]}}`` or as XML's ``<forces><force/></forces>``."""
    value = node.get(plural)
    out: list[dict[str, Any]] = []
    for x in value if isinstance(value, list) else [value] if value is not None else []:
        if isinstance(x, dict) and singular in x and isinstance(x[singular], (list, dict)):
            inner = x[singular]
            out += [i for i in (inner if isinstance(inner, list) else [inner]) if isinstance(i, dict)]
        elif isinstance(x, dict):
            out.append(x)
    return out


def _text(node: dict[str, Any], key: str) -> str:
    value = node.get(key)
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return " ".join(str(value).split())
    return ""


def _number(value: Any) -> float | None:
    """A finite number, or None (``NaN``, ``1e400`` and words are no number)."""
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


def _is_true(value: Any) -> bool:
    return value is True or str(value).strip().lower() == "true"


def _costs(node: dict[str, Any]) -> float:
    total = 0.0
    for c in _items(node, "costs", "cost"):
        if _text(c, "name").lower() in ("pts", "points", "pt", "pts.") and (v := _number(c.get("value"))) is not None:
            total += v
    return total


# ---------------------------------------------------------------------------------------------
# Units


ARMOUR_WORDS = re.compile(r"\b(armou?r|shield|barding|mail|plate|gromril|scales)\b", re.I)


class _Walk:
    """What a walk through one unit's selections gathers (working state, not a record)."""

    __slots__ = ("profiles", "rules", "gear", "models", "counted", "points", "hidden", "armour")

    def __init__(self) -> None:
        self.profiles: list[Profile] = []
        self.rules: list[str] = []
        self.gear: list[str] = []
        self.models = 0
        self.counted = False
        self.points = 0.0
        self.hidden = 0
        self.armour = False


def _characteristics(profile: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    out = []
    for c in _items(profile, "characteristics", "characteristic"):
        name = _text(c, "name")
        value = _text(c, "$text") or _text(c, "value")
        if name:
            out.append((name, value))
    return tuple(out)


def _walk(selection: dict[str, Any], walk: _Walk, multiplier: int, depth: int, in_model: bool) -> None:
    if depth > MAX_DEPTH:
        raise RosterError(f"That roster nests its selections more than {MAX_DEPTH} deep.")
    number = _number(selection.get("number")) or 1
    if not 0 <= number <= MAX_NUMBER:
        raise RosterError(f"That roster has a selection of {number:g} models or items: a real list has at most "
                          f"{MAX_NUMBER:,}.")
    number = int(number)
    kind = _text(selection, "type").lower()
    count = max(1, number) * multiplier
    if kind == "model" and not in_model:
        walk.models += count
        walk.counted = True
    walk.points += _costs(selection)
    for p in _items(selection, "profiles", "profile"):
        if _is_true(p.get("hidden")):
            walk.hidden += 1
            continue
        ptype = _text(p, "typeName") or _text(p, "profileTypeName") or _text(p, "type")
        if ptype.lower() == "armour":
            walk.armour = True
        walk.profiles.append(Profile(_text(p, "name"), ptype, _characteristics(p), count if kind == "model" or in_model else 1))
    for r in _items(selection, "rules", "rule"):
        if not _is_true(r.get("hidden")) and _text(r, "name"):
            walk.rules.append(_text(r, "name"))
    for c in _items(selection, "categories", "category"):
        if _text(c, "name"):
            walk.rules.append(_text(c, "name"))
    for child in _items(selection, "selections", "selection"):
        name = _text(child, "customName") or _text(child, "name")
        if name and _text(child, "type").lower() != "model":
            walk.gear.append(name)
            if ARMOUR_WORDS.search(name):
                walk.armour = True
        _walk(child, walk, count if kind == "model" else multiplier, depth + 1, in_model or kind == "model")


TARGET_KINDS = ("model", "unit", "profile", "vehicle", "walker", "transport", "super heavy vehicle", "super heavy walker",
                "model profile", "monster", "character", "war machine")


def _unit(selection: dict[str, Any], force: str) -> tuple[Unit | None, int]:
    walk = _Walk()
    _walk(selection, walk, 1, 0, False)
    name = _text(selection, "customName") or _text(selection, "name") or "unnamed"
    kind = _text(selection, "type").lower() or "unit"
    # the unit's own line first: a characteristic profile, the one on the most models
    body = [p for p in walk.profiles if p.kind.lower() in TARGET_KINDS or any(
        _key(n) in ("t", "toughness", "hits", "frontarmor", "frontarmour", "front") for n, _ in p.characteristics)]
    rest = [p for p in walk.profiles if p not in body]
    body.sort(key=lambda p: -p.models)
    models = walk.models if walk.counted else None
    unit = Unit(name=name, label=name, force=force, kind=kind, models=models, points=walk.points or None,
                profiles=tuple(body + rest), rules=tuple(dict.fromkeys(walk.rules)), gear=tuple(dict.fromkeys(walk.gear)),
                armour_gear=walk.armour)
    return unit, walk.hidden


def game_of(system: str) -> str | None:
    """The game a game system's name is for."""
    s = system.lower()
    if "warmaster" in s:
        return "warmaster"
    if "40k" in s or "40,000" in s or "40000" in s:
        return "wh40k"
    if "fantasy" in s or "old world" in s or "whfb" in s or re.search(r"\bwarhammer\b.*\b(4|5|6|7|8)th\b", s):
        return "fantasy"
    return None


def read_roster(data: bytes) -> Roster:
    """The roster in `data` (a .ros, a .rosz or New Recruit's JSON), or RosterError."""
    if len(data) > MAX_FILE:
        raise RosterError(f"That file is {len(data):,} bytes: a roster is at most {MAX_FILE:,} (1 MB).")
    if not data.strip():
        raise RosterError("That file is empty: send the .ros or .rosz BattleScribe saves, or New Recruit's export.")
    if data[:4] == b"PK\x03\x04" or data[:4] == b"PK\x05\x06":
        data = _unzip(data)
        if data[:2] == b"PK":
            raise RosterError("That zip holds another zip: a .rosz holds the roster itself; send the file BattleScribe saves.")
    doc = _document(data)
    forces = _forces(doc)
    if not forces and not _items(doc, "selections", "selection"):
        raise RosterError("That roster has no forces: it is empty, or not a list BattleScribe or New Recruit wrote.")
    system = _text(doc, "gameSystemName")
    units: list[Unit] = []
    unread: list[str] = []
    hidden = 0
    force_names: list[str] = []
    for force in forces:
        fname = _text(force, "catalogueName") or _text(force, "name") or "force"
        force_names.append(fname)
        for s in _items(force, "selections", "selection"):
            if len(units) >= MAX_UNITS:
                raise RosterError(f"That roster has more than {MAX_UNITS} units: it is refused.")
            unit, h = _unit(s, fname)
            hidden += h
            if unit.main is None:
                if unit.kind != "upgrade" and (unit.models or unit.gear):
                    unread.append(f"{unit.name}: no profile")
                continue
            units.append(unit)
    if not units:
        raise RosterError("That roster has no unit with a profile: there is nothing to target.")
    seen: dict[str, int] = {}
    labelled = []
    for u in units:
        n = seen[_key(u.name)] = seen.get(_key(u.name), 0) + 1
        labelled.append(u if n == 1 else _relabel(u, f"{u.name} #{n}"))
    if hidden:
        unread.append(f"{hidden} hidden profile{'s' if hidden != 1 else ''} skipped")
    total = _costs(doc) or sum(u.points or 0 for u in labelled) or None
    name = (_text(doc, "name") or "Unnamed list")[:MAX_NAME].strip()
    return Roster(name=name, game_system=system, game=game_of(system) or _game_from_forces(force_names),
                  points=total, forces=tuple(dict.fromkeys(force_names)), units=tuple(labelled), unread=tuple(unread))


def _relabel(u: Unit, label: str) -> Unit:
    return Unit(u.name, label, u.force, u.kind, u.models, u.points, u.profiles, u.rules, u.gear, u.armour_gear)


def _forces(doc: dict[str, Any], depth: int = 0) -> list[dict[str, Any]]:
    out = []
    for f in _items(doc, "forces", "force"):
        out.append(f)
        if depth < 4:
            out += _forces(f, depth + 1)  # a force may hold forces (allies, detachments)
    return out


def _game_from_forces(names: list[str]) -> str | None:
    for n in names:
        if g := game_of(n):
            return g
    return None


# ---------------------------------------------------------------------------------------------
# A unit as a target


_NUMBER = re.compile(r"^\s*(\d{1,2})\s*\+?\s*$")
NONE_MARKS = ("-", "\u2013", "\u2014", "", "n/a", "none")


def value_of(text: str | None) -> int | None:
    """``3`` for ``3``, ``3+`` or ``3 +``; None for ``-``, blank, or anything else (``D6``, ``2/3``)."""
    if text is None:
        return None
    m = _NUMBER.match(text)
    return int(m.group(1)) if m else None


@dataclass(frozen=True, slots=True)
class TargetValues:
    """What a unit says of the options a game's commands take, and what it leaves unsaid."""

    values: tuple[tuple[str, Any], ...]
    """(option, value): ``("toughness", 3)``, ``("troop", "infantry")``, ``("armour", (14, 12, 10))``."""
    missing: tuple[tuple[str, str], ...]
    """(option, why): values the engine may need that the list does not give."""
    models: int | None
    dropped: tuple[tuple[str, str], ...] = ()
    """(option, why): values the list gives that no rule allows (a ward save of 1+, a unit of 0
    stands), left out rather than used; the import and ``/army show`` say so."""

    def get(self, name: str) -> Any:
        return dict(self.values).get(name)


FANTASY_TROOPS = {
    "infantry": "infantry", "cavalry": "cavalry", "monstrousinfantry": "monstrous-infantry",
    "monstrouscavalry": "monstrous-cavalry", "monstrousbeast": "monstrous-beast", "warbeast": "war-beast",
    "warbeasts": "war-beast", "monster": "monster", "monsters": "monster", "chariot": "chariot", "swarm": "swarm",
    "swarms": "swarm", "warmachine": "war-machine", "warmachines": "war-machine",
}
RULE_FLAGS = {"ethereal": "ethereal", "flammable": "flammable"}
IMMUNITY = re.compile(r"immun\w*\s*\((flaming attacks|flaming|killing blow|multiple wounds|armour piercing|psychology|panic)\)", re.I)
DODGE = re.compile(r"\bdodge\s*\(?\s*(\d)\+?\s*\)?", re.I)
PSYCHOLOGY = {"immunetopsychology": "psychology", "immunetopanic": "panic", "frenzy": "psychology"}
"""Rules that spare a unit its Panic test (seed 003:190, 003:248-250; a Frenzied unit is Immune to
Psychology): the fire thrower's ``immune:`` names them."""
WARD = re.compile(r"\bward\s*save\s*\(?\s*(\d)\+?\s*\)?", re.I)


def _fantasy(unit: Unit) -> TargetValues:
    p = unit.main
    values: dict[str, Any] = {}
    missing: list[tuple[str, str]] = []
    dropped: list[tuple[str, str]] = []
    t = value_of(p.get("T", "Toughness", "To"))
    w = value_of(p.get("W", "Wounds"))
    if t is not None:
        values["toughness"] = t
    else:
        missing.append(("toughness", f"{unit.name}'s profile gives no Toughness"))
    if w is not None:
        values["wounds"] = w
    # close combat: the target's Weapon Skill and Initiative (the WS chart, who strikes first)
    if (ws := value_of(p.get("WS", "Weapon Skill"))) is not None and ws >= 1:
        values["enemy_ws"] = ws
    if (i := value_of(p.get("I", "Initiative"))) is not None and i >= 1:
        values["enemy_initiative"] = i
    save_text = p.get("ArmourSave", "Armour Save", "Save", "Sv", "AS")
    save = value_of(save_text)
    if save is not None and 1 <= save <= 6:
        values["save"] = save
    else:
        if save is not None:
            dropped.append(("save", f"{unit.name}'s armour save {save}+ is left out: an armour save is 1+ to 6+"))
        if unit.armour_gear:
            missing.append(("save", f"the list gives {unit.name} armour but no armour save: work it out and give save:"))
    ward = value_of(p.get("WardSave", "Ward Save", "Ward"))
    rules_text = " ".join(unit.rules + unit.gear)
    if ward is None and (m := WARD.search(rules_text)):
        ward = int(m.group(1))
    if ward is not None and 2 <= ward <= 6:
        values["ward"] = ward
    elif ward is not None:
        dropped.append(("ward", f"{unit.name}'s ward save {ward}+ is left out: a ward save is 2+ to 6+ (a 1 always fails)"))
    if (ld := value_of(p.get("Ld", "LD", "Leadership"))) is not None:
        if 1 <= ld <= 10:
            values["leadership"] = ld  # the unit's own, for its Panic test (a general's nearby: type leadership:)
        else:
            dropped.append(("leadership", f"{unit.name}'s Leadership {ld} is left out: Leadership is 1 to 10"))
    kind = p.get("Type", "Troop Type", "Unit Type")
    if kind:
        key = FANTASY_TROOPS.get(_key(kind.split("(")[0]))
        if key:
            values["troop"] = key
        else:
            missing.append(("troop", f"troop type '{quote(kind, 30)}' is not one the bot knows"))
    else:
        missing.append(("troop", f"the list gives no troop type for {unit.name}"))
    for rule in unit.rules:
        flag = RULE_FLAGS.get(_key(rule))
        if flag:
            values[flag] = True
    if m := DODGE.search(" ".join(unit.rules)):
        values["dodge"] = int(m.group(1))
    immune = []
    for m in IMMUNITY.finditer(" ".join(unit.rules)):
        word = m.group(1).lower().replace("flaming attacks", "flaming").replace(" ", "-")
        immune.append(word)
    for rule in unit.rules:
        if word := PSYCHOLOGY.get(_key(rule.split("(")[0])):
            immune.append(word)
    if immune:
        values["immune"] = " ".join(dict.fromkeys(immune))
    if unit.models is not None:
        values["models"] = unit.models
    return TargetValues(tuple(values.items()), tuple(missing), unit.models, tuple(dropped))


FACES = ("front", "side", "rear")


def _wh40k(unit: Unit) -> TargetValues:
    values: dict[str, Any] = {}
    missing: list[tuple[str, str]] = []
    armour = None
    for p in unit.profiles:
        faces = [value_of(p.get(f"{f} Armor", f"{f} Armour", f, f"AV {f}", f"{f} AV")) for f in ("Front", "Side", "Rear")]
        if all(v is not None for v in faces):
            armour = tuple(faces)
            break
    rules = {_key(r) for r in unit.rules}
    if armour is not None:
        values["armour"] = armour
        if rules & {"opentopped", "opentop"}:
            values["open_topped"] = True
        if rules & {"skimmer", "skimmers"}:
            values["skimmer"] = True
        if rules & {"walker", "walkers"} or any(p.kind.lower() == "walker" for p in unit.profiles):
            values["walker"] = True
    else:
        missing.append(("armour", f"{unit.name} has no armour values (it is not a vehicle)"))
        p = unit.main
        if (t := value_of(p.get("T", "Toughness"))) is not None:
            values["toughness"] = t
        if (sv := value_of(p.get("Sv", "Save"))) is not None:
            values["save"] = sv
        if (ld := value_of(p.get("Ld", "LD", "Leadership"))) is not None and ld >= 1:
            values["leadership"] = ld  # a squad's, for its pinning test (a leader's nearby: type leadership:)
        if unit.models is not None:  # a squad under a blast; a vehicle is hit as itself
            values["models"] = unit.models
    return TargetValues(tuple(values.items()), tuple(missing), unit.models)


WM_TROOPS = {"infantry": "infantry", "cavalry": "cavalry", "chariot": "chariot", "chariots": "chariot",
             "monster": "monster", "monsters": "monster", "artillery": "artillery", "machine": "machine",
             "machines": "machine"}


def _warmaster(unit: Unit) -> TargetValues:
    p = unit.main
    values: dict[str, Any] = {}
    missing: list[tuple[str, str]] = []
    hits = value_of(p.get("Hits", "H"))
    if hits is not None:
        values["hits"] = hits
    else:
        missing.append(("hits", f"{unit.name}'s profile gives no Hits"))
    armour_text = p.get("Armour", "Armor", "Save")
    if armour_text is not None and armour_text.strip().lower() in NONE_MARKS:
        values["armour"] = 0  # Warmaster writes '-' for a unit without armour
    elif (a := value_of(armour_text)) is not None:
        values["armour"] = a
    else:
        missing.append(("armour", f"{unit.name}'s profile gives no Armour"))
    kind = p.get("Type", "Troop Type")
    if kind and (key := WM_TROOPS.get(_key(kind.split("(")[0]))):
        values["troop"] = key
    elif kind:
        missing.append(("troop", f"troop type '{quote(kind, 30)}' is not one the bot knows"))
    size = value_of(p.get("Unit Size", "Size", "Stands"))
    dropped: tuple[tuple[str, str], ...] = ()
    if size is not None and size > 0:
        values["stands"] = size
    elif size is not None:
        dropped = (("stands", f"{unit.name}'s Unit Size {size} is left out: a unit has at least one stand"),)
    return TargetValues(tuple(values.items()), tuple(missing), unit.models, dropped)


def target_values(unit: Unit, game: str) -> TargetValues:
    """What `unit` fills of a `game` command's target options (``fantasy``, ``wh40k``, ``warmaster``)."""
    if unit.main is None:
        return TargetValues((), (("profile", f"{unit.name} has no profile"),), unit.models)
    return {"fantasy": _fantasy, "wh40k": _wh40k, "warmaster": _warmaster}[game](unit)


def is_war_machine(unit: Unit) -> bool:
    """A war machine or vehicle by its profile or categories: a Fantasy war machine, Warmaster
    artillery or machine, a 40k vehicle."""
    words = {_key(r) for r in unit.rules}
    kinds = {_key(p.get("Type") or "") for p in unit.profiles}
    if words & {"warmachine", "warmachines", "artillery", "vehicle", "vehicles"} or kinds & {"warmachine", "artillery", "machine"}:
        return True
    return any(value_of(p.get("Front Armor", "Front Armour", "Front")) is not None for p in unit.profiles)
