"""``/40k``: Warhammer 40,000 vehicles and ordnance (3rd edition trial vehicle rules). Thin:
options in, engine call, embed and picture out.

No ``from __future__ import annotations`` here: discord.py reads the option types from the
callbacks' annotations.
"""

from typing import Optional

import discord
from discord import app_commands
from discord.app_commands import Choice, Range
from discord.ext import commands

from cogs.common.dice_source import private_option
from cogs.common.replies import off_the_loop, send_reply, shot_answered
from cogs.common.target import target_option
from cogs.wh40k.words.vehicles import (
    assault_reply, damage_reply, firing_reply, ordnance_reply, penetrate_reply, tank_shock_reply, terrain_reply,
)
from config.gamedata import wh40k
from engine.dice import Dice, EnteredDice
from engine.errors import RulesError
from engine.inputs import is_int, quote
from engine.wh40k.assault import MAX_ATTACKS, Movement, assault_vehicle
from engine.wh40k.damage import damage_roll
from engine.wh40k.firing import MAX_MOVE, may_fire
from engine.wh40k.tank_shock import tank_shock
from engine.wh40k.terrain import Mover, difficult_terrain_test
from engine.wh40k.ordnance import MAX_BS, MAX_LEADERSHIP, MAX_RANGE, MIN_BS, MIN_LEADERSHIP, fire_ordnance
from engine.wh40k.penetration import MAX_STRENGTH, MIN_STRENGTH, penetrate
from engine.wh40k.squad import MAX_GAP, MAX_HULL, MAX_MODELS, MIN_HULL, Facing, Squad, VehicleTarget
from engine.wh40k.vehicle import MAX_ARMOUR, MAX_NEARBY, MAX_PASSENGERS, MIN_ARMOUR, VehicleState, parse_distances
from renders.wh40k.ordnance import render_ordnance

DATA = wh40k()

MARKER = DATA.blast_markers["large"]
BASE_CHOICES = [Choice(name=str(b), value=b) for b in DATA.base_sizes]
FACING_CHOICES = [Choice(name=f.value, value=f.value) for f in Facing]

CLOSE_CHOICES = [Choice(name=w.key, value=w.key) for w in DATA.penetration.values() if w.key != "ordnance"]
TABLE_CHOICES = [Choice(name=t.name, value=t.key) for t in DATA.damage_tables.values()]
MOVEMENT_CHOICES = [Choice(name="stationary", value=Movement.STATIONARY.value),
                    Choice(name='up to 6"', value=Movement.SLOW.value), Choice(name='over 6"', value=Movement.FAST.value)]
MOVER_CHOICES = [Choice(name=m.value, value=m.value) for m in Mover]
TYPE_CHOICES = [Choice(name=t.key, value=t.key) for t in DATA.firing.types]

WEAPON_CHOICES = [Choice(name=w.key, value=w.key) for w in DATA.penetration.values()]
"""The ways to penetrate, by name alone: each one's roll (``krak: 6 + D6``) is in the reply and
/rules, not the schema, where Discord counts every character towards the command's 4,000."""

VEHICLE_OPTIONS = dict(
    open_topped="Open-topped",
    skimmer_fast="Skimmer moved over 6\"",
    skimmer="Skimmer moved 6\" or less",
    hull_down="Hull down",
    smoke="Smoke launchers used",
    immobilised="Immobilised",
    stunned="Stunned",
    no_main="No main weapon (S6+) left",
    passengers="Models aboard",
    passenger_save="Passengers' save",
    nearby=f'Up to {MAX_NEARBY} models\' inches, "1 3"',
    nearby_save="Nearby models' save",
)


def armour_values(text: str) -> tuple[int, int, int]:
    """The `armour` option: front, side and rear Armour Values ("13 11 10")."""
    parts = text.replace(",", " ").replace("/", " ").split()
    if len(parts) != 3 or not all(is_int(p) for p in parts):
        raise RulesError(f"Armour '{quote(text)}' is not three Armour Values: give front, side and rear, e.g. \"13 11 10\".")
    front, side, rear = (int(p) for p in parts)
    return front, side, rear


STATE_DESCRIPTION = "e.g. stunned no-main smoke skimmer, nearby 1,3"
"""The `state` option's own description: exactly what :func:`parse_state` reads, typed alone with
no other option (a test types it): `save N` needs `passengers`, so it is not shown here."""
STATE_HELP = ('e.g. "immobilised stunned no-main smoke skimmer, nearby 1,3, nearby-save 5" '
              '(and "save 4" for the passengers, with passengers)')
_FLAGS = {"immobilised": "immobilised", "immobilized": "immobilised", "stunned": "stunned", "no-main": "no_main",
          "smoke": "smoke", "skimmer": "skimmer"}


def _number(word: str) -> bool:
    return word.replace(".", "", 1).replace('"', "").isdigit() and word.isascii()


def parse_state(text: Optional[str]) -> dict:
    """The `state` option of ``/40k ordnance`` (Discord allows 25 options, so the hit vehicle's
    state is one): flags and ``save 4`` (passengers), ``nearby 1,3`` (inches from the hull, by
    commas or spaces), ``nearby-save 5``, the parts apart by spaces or commas, as its description
    shows them. Returns keyword arguments for :class:`VehicleState`."""
    out: dict = {}
    # Commas part the items ("smoke, save 4"); within "nearby 1,3" they part the distances.
    words = [w for w in (text or "").lower().replace(",", " , ").split() if w != ","]
    i = 0
    while i < len(words):
        w = words[i]
        if w in _FLAGS:
            key = _FLAGS[w]
            if key == "no_main":
                out["main_weapons"] = False
            else:
                out[key] = True
            i += 1
            continue
        if w == "nearby":
            j = i + 1
            while j < len(words) and _number(words[j]):
                j += 1
            if j == i + 1:
                raise RulesError("State: 'nearby' needs each nearby model's inches from the hull, e.g. nearby 1,3.")
            out["nearby"] = parse_distances(" ".join(words[i + 1:j]))
            i = j
            continue
        if w in ("save", "nearby-save"):
            value = words[i + 1] if i + 1 < len(words) else ""
            if not (value.rstrip("+").isdigit() and value.isascii()):
                given = f"{w} {quote(value, 10)}".strip()
                raise RulesError(f"State: '{given}' needs a save such as {w} 4 (for 4+).")
            out["passenger_save" if w == "save" else "nearby_save"] = int(value.rstrip("+"))
            i += 2
            continue
        raise RulesError(f"State: '{quote(w, 20)}' is not a vehicle state; {STATE_HELP}.")
    return out


def _dice(bot, entered: Optional[str]) -> Dice:
    """The bot's dice for one command, behind the players' own when they gave some."""
    source = bot.new_dice()
    return EnteredDice(entered, source) if entered else source


def check_skimmer(skimmer: bool, skimmer_fast: bool) -> None:
    """A skimmer moved 6" or less, or over 6": not both (the first lands when immobilised, the
    second crashes)."""
    if skimmer and skimmer_fast:
        raise RulesError("skimmer (moved 6\" or less) and skimmer_fast (moved over 6\") cannot both be true: give the one it did.")


def vehicle_state(
    *, open_topped: bool, skimmer_fast: bool, hull_down: bool, smoke: bool, immobilised: bool, stunned: bool,
    no_main: bool, passengers: int, passenger_save: Optional[int], nearby: Optional[str], nearby_save: Optional[int],
    skimmer: bool = False,
) -> VehicleState:
    check_skimmer(skimmer, skimmer_fast)
    return VehicleState(
        open_topped=open_topped, skimmer_fast=skimmer_fast, hull_down=hull_down, smoke=smoke, immobilised=immobilised,
        stunned=stunned, main_weapons=not no_main, passengers=passengers, passenger_save=passenger_save,
        nearby=parse_distances(nearby), nearby_save=nearby_save, skimmer=skimmer,
    )


class Wh40kCog(commands.Cog):
    """Warhammer 40,000 vehicles and ordnance."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    group = app_commands.Group(name="40k", description="Warhammer 40,000 vehicles and ordnance")

    @group.command(name="penetrate", description="Armour penetration, then damage")
    @target_option("wh40k", into="armour", faces=True, hint=False)
    @private_option
    @app_commands.describe(
        strength="Weapon S (not krak, melta-bomb)", armour="Armour of the side hit",
        weapon="How it penetrates", off_centre="Hole off the hull: half S",
        dice='Your dice in order, e.g. "4 3"', **VEHICLE_OPTIONS,
    )
    @app_commands.choices(weapon=WEAPON_CHOICES)
    async def penetrate(
        self,
        interaction: discord.Interaction,
        armour: Range[int, MIN_ARMOUR, MAX_ARMOUR],
        strength: Optional[Range[int, MIN_STRENGTH, MAX_STRENGTH]] = None,
        weapon: str = "normal",
        off_centre: bool = False,
        open_topped: bool = False,
        skimmer_fast: bool = False,
        skimmer: bool = False,
        hull_down: bool = False,
        smoke: bool = False,
        immobilised: bool = False,
        stunned: bool = False,
        no_main: bool = False,
        passengers: Range[int, 0, MAX_PASSENGERS] = 0,
        passenger_save: Optional[Range[int, 2, 6]] = None,
        nearby: Optional[str] = None,
        nearby_save: Optional[Range[int, 2, 6]] = None,
        dice: Optional[str] = None,
    ) -> None:
        vehicle = vehicle_state(
            open_topped=open_topped, skimmer_fast=skimmer_fast, hull_down=hull_down, smoke=smoke,
            immobilised=immobilised, stunned=stunned, no_main=no_main, passengers=passengers,
            passenger_save=passenger_save, nearby=nearby, nearby_save=nearby_save, skimmer=skimmer,
        )
        hit = await off_the_loop(interaction, lambda: penetrate(DATA.penetration[weapon], armour, vehicle, _dice(self.bot, dice), DATA.damage_tables,
                        DATA.wounds, strength=strength, off_centre=off_centre))
        await send_reply(interaction, penetrate_reply(hit))

    @group.command(name="ordnance", description="Ordnance or barrage (5\" blast): scatter, hits, damage")
    @target_option("wh40k", into="armour", hint=False)
    @private_option
    @app_commands.describe(
        distance="Inches to the marker", strength="Weapon Strength", range="Weapon range, inches",
        barrage="A barrage (G) weapon", min_range="Barrage minimum range",
        in_sight="Target in sight / hole seen", moved="Firer moved (rolls to hit)", bs="Firer's BS",
        models="Squad size (default 10)", base="Base mm (default 25)", per_row="Models per row (default 5)",
        gap="Gap, inches (default 1)", armour='Vehicle armour, "13 11 10"',
        facing="Side facing the firer", length="Hull length, inches", width="Hull width, inches",
        open_topped="Open-topped: 2 hits, +1 damage", skimmer_fast=VEHICLE_OPTIONS["skimmer_fast"],
        hull_down=VEHICLE_OPTIONS["hull_down"], passengers=VEHICLE_OPTIONS["passengers"],
        leadership="Target's Ld, for pinning", state=STATE_DESCRIPTION,
        dice='Your dice in order, e.g. "@90 3"',
    )
    @app_commands.choices(base=BASE_CHOICES, facing=FACING_CHOICES)
    async def ordnance(
        self,
        interaction: discord.Interaction,
        distance: Range[float, 0.5, float(MAX_RANGE)],
        strength: Range[int, MIN_STRENGTH, MAX_STRENGTH],
        range: Optional[Range[float, 1.0, float(MAX_RANGE)]] = None,
        barrage: bool = False,
        min_range: Optional[Range[float, 0.0, float(MAX_RANGE)]] = None,
        in_sight: bool = True,
        moved: bool = False,
        bs: Optional[Range[int, MIN_BS, MAX_BS]] = None,
        models: Range[int, 1, MAX_MODELS] = 10,
        base: int = DATA.default_base,
        per_row: Range[int, 1, MAX_MODELS] = 5,
        gap: Range[float, 0.0, MAX_GAP] = 1.0,
        armour: Optional[str] = None,
        facing: str = Facing.FRONT.value,
        length: Range[float, MIN_HULL, MAX_HULL] = DATA.hull_length,
        width: Range[float, MIN_HULL, MAX_HULL] = DATA.hull_width,
        open_topped: bool = False,
        skimmer_fast: bool = False,
        hull_down: bool = False,
        passengers: Range[int, 0, MAX_PASSENGERS] = 0,
        leadership: Optional[Range[int, MIN_LEADERSHIP, MAX_LEADERSHIP]] = None,
        state: Optional[str] = None,
        dice: Optional[str] = None,
    ) -> None:
        squad = vehicle = None
        if armour is None:
            given = [name for name, on in (
                ("facing", facing != Facing.FRONT.value), ("length", length != DATA.hull_length),
                ("width", width != DATA.hull_width), ("open_topped", open_topped), ("skimmer_fast", skimmer_fast),
                ("hull_down", hull_down), ("passengers", passengers != 0), ("state", bool(state))) if on]
            if given:
                raise RulesError(f"{', '.join(given)}: {'that is' if len(given) == 1 else 'those are'} for a vehicle target; "
                                 "give its armour too, or leave them out.")
            squad = Squad(models, base, per_row, gap)
        else:
            given = [name for name, on in (
                ("models", models != 10), ("base", base != DATA.default_base), ("per_row", per_row != 5), ("gap", gap != 1.0))
                if on]
            if given:
                raise RulesError(f"{', '.join(given)}: {'that is' if len(given) == 1 else 'those are'} for a squad target, "
                                 "not a vehicle; leave them out.")
            vehicle = VehicleTarget(*armour_values(armour), facing=Facing(facing), length=length, width=width)
        words = parse_state(state)
        check_skimmer(words.get("skimmer", False), skimmer_fast)
        state = VehicleState(open_topped=open_topped, skimmer_fast=skimmer_fast, hull_down=hull_down, passengers=passengers,
                             **words)
        _, reply = await shot_answered(interaction, lambda: fire_ordnance(
            MARKER, DATA.penetration["ordnance"], DATA.damage_tables, DATA.wounds, _dice(self.bot, dice),
            strength=strength, distance=distance, max_range=range, squad=squad, vehicle=vehicle, vehicle_state=state,
            barrage=barrage, min_range=min_range, in_sight=in_sight, moved=moved, ballistic_skill=bs,
            leadership=leadership, pinning_modifier=DATA.pinning_modifier,
        ), render_ordnance, ordnance_reply)  # one job: the shot, its picture, its words (they grow with the squad)
        await send_reply(interaction, reply)

    @group.command(name="damage", description="Roll a damage table on its own")
    @private_option
    @app_commands.describe(table="Damage table", dice='Your dice in order, e.g. "3"',
                           **{k: v for k, v in VEHICLE_OPTIONS.items() if k not in ("hull_down", "smoke")})
    @app_commands.choices(table=TABLE_CHOICES)
    async def damage(
        self,
        interaction: discord.Interaction,
        table: str,
        open_topped: bool = False,
        skimmer_fast: bool = False,
        skimmer: bool = False,
        immobilised: bool = False,
        stunned: bool = False,
        no_main: bool = False,
        passengers: Range[int, 0, MAX_PASSENGERS] = 0,
        passenger_save: Optional[Range[int, 2, 6]] = None,
        nearby: Optional[str] = None,
        nearby_save: Optional[Range[int, 2, 6]] = None,
        dice: Optional[str] = None,
    ) -> None:
        vehicle = vehicle_state(
            open_topped=open_topped, skimmer_fast=skimmer_fast, hull_down=False, smoke=False,
            immobilised=immobilised, stunned=stunned, no_main=no_main, passengers=passengers,
            passenger_save=passenger_save, nearby=nearby, nearby_save=nearby_save, skimmer=skimmer,
        )
        roll = await off_the_loop(interaction, lambda: damage_roll(DATA.damage_tables[table], vehicle, _dice(self.bot, dice), DATA.wounds))
        await send_reply(interaction, damage_reply(roll))

    @group.command(name="assault", description="Infantry assault a vehicle")
    @target_option("wh40k", into="armour", faces=True, hint=False)
    @private_option
    @app_commands.describe(
        attacks="Attacks (krak/melta: 1 a model)", armour="Armour of the side attacked",
        moved="Its move last turn", strength="Attackers' S (not krak, melta)",
        weapon="How they penetrate", skimmer="It is a skimmer", walker="It is a walker",
        open_topped=VEHICLE_OPTIONS["open_topped"], immobilised=VEHICLE_OPTIONS["immobilised"],
        passengers=VEHICLE_OPTIONS["passengers"], dice='Your dice: to hit, then each hit\'s',
    )
    @app_commands.choices(weapon=CLOSE_CHOICES, moved=MOVEMENT_CHOICES)
    async def assault(
        self,
        interaction: discord.Interaction,
        attacks: Range[int, 1, MAX_ATTACKS],
        armour: Range[int, MIN_ARMOUR, MAX_ARMOUR],
        moved: str,
        strength: Optional[Range[int, MIN_STRENGTH, MAX_STRENGTH]] = None,
        weapon: str = "normal",
        skimmer: bool = False,
        walker: bool = False,
        open_topped: bool = False,
        immobilised: bool = False,
        passengers: Range[int, 0, MAX_PASSENGERS] = 0,
        dice: Optional[str] = None,
    ) -> None:
        state = VehicleState(open_topped=open_topped, immobilised=immobilised, passengers=passengers)
        result = await off_the_loop(interaction, lambda: assault_vehicle(DATA.penetration[weapon], attacks, armour, Movement(moved), state, _dice(self.bot, dice),
                                 DATA.damage_tables, DATA.wounds, strength=strength, skimmer=skimmer, walker=walker))
        await send_reply(interaction, assault_reply(result))

    @group.command(name="tank-shock", description="Tank Shock: Morale check, Death or Glory")
    @private_option
    @app_commands.describe(
        leadership="The unit's Leadership", hero="Death or Glory weapon",
        strength="Hero's S (not krak, melta)", front="The tank's front armour",
        dice='Your dice: morale 2D6, then the rest',
    )
    @app_commands.choices(hero=CLOSE_CHOICES)
    async def tank_shock(
        self,
        interaction: discord.Interaction,
        leadership: Range[int, MIN_LEADERSHIP, MAX_LEADERSHIP],
        hero: Optional[str] = None,
        strength: Optional[Range[int, MIN_STRENGTH, MAX_STRENGTH]] = None,
        front: Optional[Range[int, MIN_ARMOUR, MAX_ARMOUR]] = None,
        dice: Optional[str] = None,
    ) -> None:
        result = await off_the_loop(interaction, lambda: tank_shock(leadership, _dice(self.bot, dice), DATA.damage_tables, DATA.wounds,
                            hero=None if hero is None else DATA.penetration[hero], strength=strength, front_armour=front))
        await send_reply(interaction, tank_shock_reply(result))

    @group.command(name="terrain", description="Difficult terrain test")
    @private_option
    @app_commands.describe(mover="Vehicle, skimmer or walker", hazardous="Especially hazardous",
                           fast="Skimmer moving over 6\"", dice="Your D6 (walker: 2D6)")
    @app_commands.choices(mover=MOVER_CHOICES)
    async def terrain(self, interaction: discord.Interaction, mover: str = Mover.VEHICLE.value, hazardous: bool = False,
                      fast: bool = False, dice: Optional[str] = None) -> None:
        result = await off_the_loop(interaction, lambda: difficult_terrain_test(Mover(mover), _dice(self.bot, dice), hazardous=hazardous, fast=fast))
        await send_reply(interaction, terrain_reply(result))

    @group.command(name="firing", description="Which weapons a vehicle may fire after moving")
    @app_commands.describe(type="Vehicle type", moved="Inches moved")
    @app_commands.choices(type=TYPE_CHOICES)
    async def firing(self, interaction: discord.Interaction, type: str, moved: Range[float, 0.0, MAX_MOVE] = 0.0) -> None:
        await send_reply(interaction, firing_reply(may_fire(DATA.firing, type, moved)))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Wh40kCog(bot))
