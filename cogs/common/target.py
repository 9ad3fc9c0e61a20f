"""``target:``: a unit of an army list as the target profile of any command that takes one.

One decorator, :func:`target_option`, put right under a command's ``@...command(...)`` (beside
``@private_option``), gives the command a ``target`` option autocompleted over the units of the
lists in play: the battle's players' lists in a battle channel (and the caller's), else the
caller's own (storage/armies.py). Before the command's own callback runs, the named unit fills
the options its list gives (engine/roster.py's :func:`target_values`: toughness, wounds, saves,
troop type, models, the special rules the engine knows, a 40k vehicle's armour, a Warmaster
unit's Hits and Armour) wherever the player typed nothing; what was typed wins. The callback then
validates everything as usual, so a shot at an imported unit is exactly the shot with its profile
typed. A value the engine needs that the list does not give is asked for (RulesError), never
guessed. The reply says which values came from the list (cogs/common/from_list.py).

Options the command requires of a typed profile (``toughness`` on /shoot) are optional once a
target can give them (``needs``): the decorator asks for them when neither gives them. A command
with no room for another option (Discord's 25) takes the unit in an option it has (``into``:
/shoot's ``troop`` takes a troop type or a unit), and the console still reads ``target:``.

The store is read off the event loop (cogs/common/access.py ``in_store``), never through the
work pool, so /odds, which catches a command's first pool call, still prices the shot.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import re
from typing import Any, Optional, Union, get_args, get_origin

import discord
from discord.app_commands import Choice

from cogs.common.access import in_store
from cogs.common.dice_source import OPTIONS_KEY, command_options
from cogs.common.from_list import TARGET_KEY, as_text
from engine.errors import RulesError
from engine.inputs import quote
from engine.roster import FACES, TargetValues, Unit, target_values
from storage import armies, campaigns

TARGET_DESCRIPTION = "Unit from a list"
INTO_HINT = "or list unit"
"""Added to the description of an option that takes a unit (``into``), when it is short enough
(:data:`HINT_ROOM`): each command keeps a quarter of Discord's 4,000 schema characters spare."""
HINT_ROOM = 23
AUTOCOMPLETE_WAIT = 2.0
"""Seconds the autocomplete waits for the store (Discord drops choices after 3)."""
INTO_MARK = "__bombardier_target_into__"
"""Set on a callback whose unit goes in another option (``into``): the console reads ``target:`` into it."""
_FACE = re.compile(r"\s*[(/]\s*(front|side|flank|rear)\s*\)?\s*$", re.I)
FACING = {"front": "front", "side": "flank", "rear": "rear"}
"""A side named after a Fantasy unit ("Halberdiers (rear)") as the /fire commands' ``facing:``: the
side of the unit the shot strikes (a 40k vehicle's ``(side)`` is a Fantasy unit's flank)."""


class TargetError(RulesError):
    """A ``target:`` that names no unit in play, or a unit that lacks a value the command needs."""


class NoUnit(TargetError):
    """A ``target:`` that names no unit of the lists in play (an option that also takes its own
    values, ``troop:``, then reads it as one of those)."""


GAME_NAMES = {"fantasy": "Warhammer Fantasy", "warmaster": "Warmaster", "wh40k": "Warhammer 40,000"}


def game_of(army: armies.Army) -> str:
    """The game whose commands target a list's units: a list of a game system the bot does not
    know is read as Warhammer Fantasy (the import says so)."""
    return army.roster.game or "fantasy"


def lists_in_play(store, guild_id: int | None, channel_id: int | None, user_id: int) -> list[armies.Army]:
    """The lists a command here may target: the battle's players' (and the caller's) in a channel
    with a battle, else the caller's."""
    if guild_id is None:
        return []
    players: list[int] = [user_id]
    battle = campaigns.current_battle(store, guild_id, channel_id or 0)
    if battle is not None:
        players += [p for p in battle.players if p != user_id]
    return armies.armies(store, guild_id, players)


def _refs(lists: list[armies.Army]) -> list[tuple[str, armies.Army, Unit]]:
    """(reference, list, unit) for every unit in play; the reference is the unit's label, with
    its list's name first when two lists in play share the label."""
    counts: dict[str, int] = {}
    for a in lists:
        for u in a.roster.units:
            counts[u.label.casefold()] = counts.get(u.label.casefold(), 0) + 1
    return [((u.label if counts[u.label.casefold()] == 1 else f"{a.name}: {u.label}")[:100], a, u)
            for a in lists for u in a.roster.units]


def find_unit(lists: list[armies.Army], text: str, *, game: str | None = None,
              option: str = "target", other: str | None = None) -> tuple[armies.Army, Unit, str | None]:
    """The unit `text` names among `lists` (``Halberdiers``, ``Halberdiers #2``, ``Host: Halberdiers``,
    ``Leman Russ (rear)``), and the vehicle face it names, if any. With `game`, only the lists of
    that game are searched: a unit of another game's list is refused by name, never read with
    the wrong game's characteristics. `option` names the option in the errors; `other`, what else
    it takes (``a number``)."""
    face = None
    wanted = " ".join(text.split())
    if (m := _FACE.search(wanted)) and not _matches(lists, wanted):  # a unit may be named "Archers (rear)"
        face, wanted = m.group(1).lower().replace("flank", "side"), wanted[: m.start()].strip()
    if game is not None:
        others = [a for a in lists if game_of(a) != game]
        lists = [a for a in lists if game_of(a) == game]
        if others and not _matches(lists, wanted) and (found := _matches(others, wanted)):
            army, unit = found[0]
            raise TargetError(f"{option}: '{as_text(unit.label, 60)}' is a unit of {as_text(army.name, 60)}, a "
                              f"{GAME_NAMES[game_of(army)]} list: this command is {GAME_NAMES[game]}.")
    if not lists:
        where = f"no {GAME_NAMES[game]} army list" if game is not None else "no army list"
        raise NoUnit(f"{option}: there is {where} in play here: import yours with /army import first.")
    refs = _refs(lists)
    key = wanted.casefold()
    exact = [(a, u) for ref, a, u in refs if ref.casefold() == key]
    if not exact:
        exact = [(a, u) for ref, a, u in refs if u.label.casefold() == key or f"{a.name}: {u.label}"[:100].casefold() == key]
    if len(exact) == 1:
        return exact[0][0], exact[0][1], face
    if len(exact) > 1:
        names = ", ".join(f"'{as_text(a.name, 40)}: {as_text(u.label, 40)}'" for a, u in exact[:5])
        raise TargetError(f"{option}: '{quote(wanted, 60)}' is in more than one list in play: give {names}.")
    close = [ref for ref, _, _ in refs if key in ref.casefold()][:5]
    hint = f" (did you mean {', '.join(chr(39) + as_text(c, 40) + chr(39) for c in close)}?)" if close else " (see /army list)"
    what = (f"'{quote(wanted, 60)}' is neither {other} nor a unit of the lists in play" if other
            else f"no unit '{quote(wanted, 60)}' in the lists in play")
    raise NoUnit(f"{option}: {what}{hint}.")


def _matches(lists: list[armies.Army], wanted: str) -> list[tuple[armies.Army, Unit]]:
    """The units of `lists` whose reference or label is `wanted` (case ignored)."""
    key = wanted.casefold()
    refs = _refs(lists)
    return [(a, u) for ref, a, u in refs if ref.casefold() == key] or [
        (a, u) for _, a, u in refs if u.label.casefold() == key or f"{a.name}: {u.label}"[:100].casefold() == key]


def _brief(u: Unit, game: str) -> str:
    """``T3 W4 · 3 models``, ``Hits 3 Armour 4+ · 3 stands``, ``AV 14/12/10``: what the unit fills,
    read with its game's names (``Toughness`` as well as ``T``)."""
    v = dict(target_values(u, game).values)
    if game == "warmaster":
        stats = " ".join(x for x in (f"Hits {v['hits']}" if "hits" in v else "",
                                     (f"Armour {v['armour']}+" if v["armour"] else "no armour") if "armour" in v else "") if x)
        size = f"{v['stands']} stands" if v.get("stands") else ""
    elif game == "wh40k" and "armour" in v:
        stats, size = "AV " + "/".join(map(str, v["armour"])), ""
    else:
        stats = " ".join(f"{k}{v[n]}" + ("+" if k == "Sv" else "") for k, n in (("T", "toughness"), ("W", "wounds"), ("Sv", "save"))
                         if n in v)
        size = f"{u.models} models" if u.models and u.models > 1 else ""
    return " · ".join(x for x in (stats, size) if x)


def unit_choices(lists: list[armies.Army], current: str, *, faces: bool = False,
                 game: str | None = None) -> list[Choice[str]]:
    """The autocomplete: units whose reference holds what is typed, each with a short profile;
    with `game`, only the units of that game's lists."""
    if game is not None:
        lists = [a for a in lists if game_of(a) == game]
    typed = " ".join(current.split()).casefold()
    out: list[Choice[str]] = []
    for ref, a, u in _refs(lists):
        if typed and typed not in ref.casefold():
            continue
        armour = target_values(u, "wh40k").get("armour") if faces else None
        if armour is not None and len(set(armour)) > 1:
            for face, value in zip(FACES, armour):
                value_text = f"{ref} ({face})"
                if len(value_text) <= 100:
                    out.append(Choice(name=f"{ref} · {face} armour {value}"[:100], value=value_text))
            continue
        brief = _brief(u, game_of(a))
        out.append(Choice(name=(f"{ref} · {brief}" if brief else ref)[:100], value=ref))
        if len(out) >= 25:
            break
    return out[:25]


def _base(annotation: Any) -> Any:
    """The value type under Optional[...] and Range[...]: int, float, str or bool (None if another)."""
    if get_origin(annotation) is Union:
        args = [a for a in get_args(annotation) if a is not type(None)]
        annotation = args[0] if args else annotation
    if annotation in (bool, int, float, str):
        return annotation
    opt = getattr(annotation, "type", None)  # discord.py's Range[...] transformer knows its option type
    return {"integer": int, "number": float, "string": str, "boolean": bool}.get(getattr(opt, "name", ""))


def _fits(kind: Any, value: Any) -> bool:
    if kind is bool:
        return isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind is str:
        return isinstance(value, str)
    return False


WORDS = {"enemy_ws": "Weapon Skill", "models": "number of models", "toughness": "Toughness", "wounds": "Wounds"}
"""What an option a list did not give is called in the list's own words."""
COMPANIONS = {"enemy_initiative": "initiative"}
"""A value the list gives that a command uses only beside one the player types: the target's
Initiative decides who strikes first only when the attacker's is given (/combat attacks)."""
ONLY_WITH = {"leadership": "barrage"}
"""A value the list gives that a command takes only with another of its options on, where it has
that option: a 40k squad's Ld is for a barrage's pinning test (/40k ordnance barrage:true)."""


def fill(params: dict[str, inspect.Parameter], kinds: dict[str, Any], given: dict[str, Any], typed: set[str],
         unit: Unit, values: TargetValues, face: str | None, needs: tuple[str, ...],
         option: str = "target", ask: tuple[str, ...] = ("save",)) -> tuple[dict[str, Any], list[str]]:
    """The options `unit` gives that the command takes and the player did not type; and the
    options the player typed that the unit also gives (they win). Refuses what the command needs
    and neither gives, a value the list lacks that the command would otherwise take a default for
    (`ask`: a Fantasy armour save, a Warmaster unit's Hits and Armour), and a list's value outside
    the option's bounds (the player never typed it, so the command's own check would blame them)."""
    filled: dict[str, Any] = {}
    overridden: list[str] = []
    offered = dict(values.values)
    if "armour" in offered and isinstance(offered["armour"], tuple):
        faces = offered.pop("armour")
        if "armour" in params:
            if kinds.get("armour") is str:
                offered["armour"] = " ".join(str(v) for v in faces)
            elif face is not None:
                offered["armour"] = faces[FACES.index(face)]
            elif len(set(faces)) == 1:
                offered["armour"] = faces[0]
            elif "armour" not in typed:
                raise TargetError(f"{as_text(unit.label)} has armour {'/'.join(map(str, faces))} (front/side/rear): name the "
                                  f"side hit, e.g. {option}:\"{as_text(unit.label)} (side)\", or give the armour value.")
    if face is not None and "facing" in params:  # a Fantasy unit named with the side the shot strikes
        if "facing" in typed:
            overridden.append("facing")
        else:
            filled["facing"] = FACING[face]
    models = offered.pop("models", None)
    for name, value in offered.items():
        if name not in params or (COMPANIONS.get(name, name) not in typed and name in COMPANIONS):
            continue
        if name in ONLY_WITH and ONLY_WITH[name] in params and not given.get(ONLY_WITH[name]):
            continue
        if name in typed:
            overridden.append(name)
            continue
        if name == "dodge" and kinds.get(name) is str and isinstance(value, int):
            value = f"{value}+"  # /combat attacks takes Dodge as "5+" (or "5+ flank")
        if _fits(kinds.get(name), value):
            filled[name] = value
    if models is not None:
        if "models" in params and "models" not in typed and _fits(kinds.get("models"), models):
            filled["models"] = models
        if "ranks" in params and "files" in params:
            filled.update(_formation(unit, models, given, typed))
    for name, value in filled.items():
        low, high = _bounds(params[name].annotation)
        if isinstance(value, int) and not isinstance(value, bool) and (
                (low is not None and value < low) or (high is not None and value > high)):
            raise TargetError(f"{as_text(unit.label)}: {WORDS.get(name, name.replace('_', ' '))} {value} from the list is "
                              f"outside what this command takes ({low} to {high}): type {name}: instead.")
    why = {k: as_text(v, 200) for k, v in values.missing}  # they name the unit: shown as text
    for name in params:
        if name in typed or name in filled:
            continue
        if name in ask and name in why:
            give = "" if name == "save" else f": give {name}:"  # the save's reason says how already
            raise TargetError(f"{as_text(unit.label)}: {why[name]}{give} (e.g. {name}:{EXAMPLES.get(name, 3)}).")
        if name == option and params[name].default is inspect.Parameter.empty:  # the unit took the option's place
            reason = why.get(name, f"the list gives {as_text(unit.label)} no {name.replace('_', ' ')}")
            raise TargetError(f"{option}: {reason}: give the value instead of the unit.")
        if name in needs and given.get(name) is None:
            reason = why.get(name, f"the list gives {as_text(unit.label)} no {WORDS.get(name, name.replace('_', ' '))}")
            raise TargetError(f"{as_text(unit.label)}: {reason}: give {name}:.")
    return filled, overridden


def _bounds(annotation: Any) -> tuple[Any, Any]:
    """An option's (min, max) from its ``Range[...]`` annotation, or (None, None)."""
    if get_origin(annotation) is Union:
        annotation = next((a for a in get_args(annotation) if a is not type(None)), annotation)
    return getattr(annotation, "min_value", None), getattr(annotation, "max_value", None)


EXAMPLES = {"save": 5, "hits": 3, "armour": 5}
ASK = {"fantasy": ("save",), "warmaster": ("hits", "armour"), "wh40k": ()}
"""Values a game's list may lack that the commands would otherwise take a default for: asked for,
never guessed (a Warmaster unit's Hits would be 3, its Armour none)."""


def _formation(unit: Unit, models: int, given: dict[str, Any], typed: set[str]) -> dict[str, int]:
    """Ranks and files from the list's model count: one model is one rank of one file; otherwise
    one of them typed gives the other when the models fill the ranks evenly. How a unit stands is
    the table's, not the list's, so with neither typed the player is asked."""
    ranks, files = ("ranks" in typed), ("files" in typed)
    if ranks and files:
        return {}
    if models == 1:
        return {k: 1 for k, t in (("ranks", ranks), ("files", files)) if not t}
    if ranks or files:
        known, other = ("ranks", "files") if ranks else ("files", "ranks")
        n = given[known]
        if models % n:
            raise TargetError(f"{as_text(unit.label)} has {models} models: {n} {known} do not hold them evenly: give {other}: too.")
        return {other: models // n}
    raise TargetError(f"{as_text(unit.label)} has {models} models: say how they stand with ranks: (files are worked out) "
                      "or ranks: and files:.")


def _typed(interaction: Any, params: dict[str, inspect.Parameter], kwargs: dict[str, Any]) -> set[str]:
    """The options the player gave: those Discord (or the console, or a button's re-run) names,
    and any whose value is not its default."""
    names = set(command_options(interaction))
    displayed = {getattr(p, "name", n): n for n, p in params.items()}
    out = {n for n in kwargs if n in names or displayed.get(n) in names}
    for n, v in kwargs.items():
        p = params.get(n)
        if p is not None and p.default is not inspect.Parameter.empty and v != p.default:
            out.add(n)
    return {n for n in out if kwargs.get(n) is not None}


def target_option(game: str, *, needs: tuple[str, ...] = (), into: str | None = None, faces: bool = False,
                  hint: bool = True, immune: tuple[str, ...] | None = None):
    """Give a command ``target:`` (see the module's docstring). `game`: whose characteristics the
    unit is read with (``fantasy``, ``wh40k``, ``warmaster``). `needs`: options the command
    requires unless a target gives them. `into`: the option that takes the unit instead of a new
    ``target`` (a command with no room left); a number option becomes text that takes a number or
    a unit, its bounds checked here; with `hint`, a short description of it says so. `faces`: offer a
    vehicle's sides in the autocomplete. `immune`: the Immunity names the command's ``immune``
    option takes, when fewer than a list may give (the others change nothing there)."""

    def decorate(callback):
        signature = inspect.signature(callback)
        original = dict(signature.parameters)
        assert into is None or into in original, f"{callback.__qualname__} has no option {into!r} to take a unit"
        kinds = {n: _base(p.annotation) for n, p in original.items()}
        bounds = {}
        loosened = []
        for p in original.values():
            if p.name in needs and p.default is inspect.Parameter.empty:
                p = p.replace(default=None, annotation=Optional[p.annotation])
            if p.name == into and kinds[into] is int:  # a number, or a unit's name
                annotation = p.annotation
                if get_origin(annotation) is Union:
                    annotation = next(a for a in get_args(annotation) if a is not type(None))
                bounds = (getattr(annotation, "min_value", None), getattr(annotation, "max_value", None))
                p = p.replace(annotation=str if p.default is inspect.Parameter.empty else Optional[str])
            loosened.append(p)
        plain = [p for p in loosened if p.default is inspect.Parameter.empty and p.kind is not inspect.Parameter.KEYWORD_ONLY]
        rest = [p for p in loosened if p not in plain]
        extra = [] if into else [inspect.Parameter("target", inspect.Parameter.KEYWORD_ONLY, default=None,
                                                   annotation=Optional[str])]
        skip = 2 if next(iter(original), "") == "self" else 1
        params = {n: p for n, p in list(original.items())[skip:]}

        @functools.wraps(callback)
        async def with_target(*args: Any, **kwargs: Any) -> Any:
            interaction = args[skip - 1]
            named = kwargs.pop("target", None) if not into else None
            unmatched = None
            if into and isinstance(kwargs.get(into), str) and kwargs[into] != params[into].default:
                value = kwargs[into]  # typed: a number, the option's own value, or a unit
                if bounds and re.fullmatch(r"\s*[+-]?\d+\s*", value):
                    kwargs[into] = _number(into, value, bounds)
                else:
                    named = await _unit_named(interaction, value, game, into, quiet=not bounds)
                    unmatched = value if named is None else None
                    if named is not None:
                        default = params[into].default
                        kwargs[into] = None if default is inspect.Parameter.empty else default
            if named is not None:
                kwargs.update(await _fill(interaction, game, params, kinds, kwargs, named, needs, into, immune))
            missing = [n for n in needs if kwargs.get(n) is None]
            if missing and unmatched is not None:
                raise TargetError(f"{into}: '{quote(unmatched, 60)}' is not a unit of a list in play here (/army list), "
                                  f"so /{_name(interaction)} needs {', '.join(missing)}.")
            if missing:
                raise TargetError(f"/{_name(interaction)} needs {', '.join(missing)}: give "
                                  f"{'it' if len(missing) == 1 else 'them'}, or {into or 'target'}: a unit from an army "
                                  "list (/army import).")
            try:
                return await callback(*args, **kwargs)
            except RulesError as e:  # a value that was neither the option's own nor a unit in play
                if unmatched is None or quote(unmatched) not in str(e) or isinstance(e, TargetError):
                    raise
                raise type(e)(f"{e} Nor is it a unit of a list in play (/army list).") from None

        with_target.__signature__ = signature.replace(parameters=[*plain, *rest, *extra])
        del with_target.__wrapped__  # discord.py reads the signature above, not the wrapped one's
        described = dict(getattr(callback, "__discord_app_commands_param_description__", {}))
        completes = dict(getattr(callback, "__discord_app_commands_param_autocomplete__", {}))
        if into:
            if hint and len(described.get(into, "")) <= HINT_ROOM:
                described[into] = f"{described.get(into) or into} {INTO_HINT}"
            completes[into] = _autocomplete(game, faces, completes.get(into))
            setattr(with_target, INTO_MARK, into)
        else:
            described["target"] = TARGET_DESCRIPTION
            completes["target"] = _autocomplete(game, faces)
        with_target.__discord_app_commands_param_description__ = described
        with_target.__discord_app_commands_param_autocomplete__ = completes
        return with_target

    return decorate


def _number(name: str, text: str, bounds: tuple[Any, Any]) -> int:
    """A number typed in an option that also takes a unit, held to the option's bounds."""
    value = int(text)
    low, high = bounds
    if (low is not None and value < low) or (high is not None and value > high):
        raise TargetError(f"{name}: {value} is out of bounds: give {low} to {high}, or a unit of a list in play.")
    return value


def _name(interaction: Any) -> str:
    command = getattr(interaction, "command", None)
    return getattr(command, "qualified_name", None) or "this command"


async def _in_store(interaction: Any, call, *args: Any) -> Any:
    return await in_store(call, *args)


def _in_play(interaction: Any) -> list[armies.Army]:
    return lists_in_play(interaction.client.store, interaction.guild_id, interaction.channel_id, interaction.user.id)


async def _unit_named(interaction: Any, text: Any, game: str, option: str, *, quiet: bool = False) -> str | None:
    """For an ``into`` option: `text` when it names a unit in play, else None (it is the option's
    own value). A name in two lists, or a unit of another game's list, is refused even so."""
    if not isinstance(text, str) or getattr(interaction, "guild_id", None) is None:
        return None
    try:  # the lists are read off the loop
        await _in_store(interaction, lambda: find_unit(_in_play(interaction), text, game=game, option=option,
                                                       other=None if quiet else "a number"))
    except NoUnit:
        if quiet:
            return None
        raise
    return text


async def _fill(interaction: Any, game: str, params: dict[str, inspect.Parameter], kinds: dict[str, Any],
                kwargs: dict[str, Any], named: str, needs: tuple[str, ...], into: str | None = None,
                immune: tuple[str, ...] | None = None) -> dict[str, Any]:
    if getattr(interaction, "guild_id", None) is None:
        raise TargetError("target: army lists live in a server: use target: in a server channel, or type the profile.")
    typed = _typed(interaction, params, kwargs) - {into}

    def work():  # the lists in play read, the unit found and read: off the event loop
        army, unit, face = find_unit(_in_play(interaction), named, game=game, option=into or "target")
        values = target_values(unit, game)
        if immune is not None and values.get("immune"):  # only the Immunities this command's immune: takes
            kept = " ".join(w for w in values.get("immune").split() if w in immune)
            values = TargetValues(tuple((k, kept if k == "immune" else v) for k, v in values.values if k != "immune" or kept),
                                  values.missing, values.models)
        filled, overridden = fill(params, kinds, kwargs, typed, unit, values, face, needs, into or "target", ASK[game])
        unused = [_rule_words(k, v) for k, v in values.values if k in NOT_APPLIED and k not in params and v]
        if face is not None and "facing" not in params and not isinstance(values.get("armour"), tuple):
            unused.append(f"facing ({FACING[face]})")  # a side named for a command that takes none: said, not dropped
        return army, unit, face, filled, overridden, unused

    army, unit, face, filled, overridden, unused = await _in_store(interaction, work)
    interaction.extras[TARGET_KEY] = {
        "unit": unit.label + (f" ({face})" if face else ""), "list": army.name, "owner": army.user_id,
        "filled": dict(filled), "typed": overridden, "not_applied": unused,
    }
    # the roll log and a button's re-run keep the values used, so the shot is the same shot without the list
    options = {k: v for k, v in command_options(interaction).items() if k not in ("target", into)}
    interaction.extras[OPTIONS_KEY] = {**options, **{k: v for k, v in filled.items() if not isinstance(v, tuple)}}
    return filled


NOT_APPLIED = ("ethereal", "dodge", "immune")
"""Special rules a list gives that change a roll: when a command has no option for one, the reply
says it was not applied (a cannon has no ``ethereal:``), rather than leaving it out silently."""


def _rule_words(name: str, value: Any) -> str:
    if name == "dodge":
        return f"Dodge ({value}+)"
    if name == "immune":
        return "Immunity (" + ", ".join(w.replace("-", " ") for w in str(value).split()) + ")"
    return name.replace("_", " ").capitalize()


def _autocomplete(game: str, faces: bool, fallback=None):
    async def complete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        found: list[Choice[str]] = []
        if interaction.guild_id is not None:
            try:  # off the event loop, and never waiting past Discord's patience for choices
                found = await asyncio.wait_for(asyncio.to_thread(
                    lambda: unit_choices(_in_play(interaction), current, faces=faces, game=game)), AUTOCOMPLETE_WAIT)
            except Exception:  # an autocomplete never fails for the store: it offers what it can
                found = []
        if fallback is not None:
            more = await fallback(interaction, current)
            found += [c for c in more if c.value not in {f.value for f in found}]
        return found[:25]

    if fallback is not None and hasattr(fallback, "offered"):
        complete.offered = fallback.offered
    return complete
