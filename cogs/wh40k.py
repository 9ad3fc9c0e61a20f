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

from cogs.replies import send_reply
from cogs.wh40k_reply import penetrate_reply
from config.gamedata import wh40k
from engine.dice import Dice, EnteredDice
from engine.wh40k.penetration import MAX_STRENGTH, MIN_STRENGTH, penetrate
from engine.wh40k.vehicle import MAX_ARMOUR, MAX_PASSENGERS, MIN_ARMOUR, VehicleState, parse_distances

DATA = wh40k()

WEAPON_CHOICES = [Choice(name=f"{w.key} ({w.describe()})", value=w.key) for w in DATA.penetration.values()]

VEHICLE_OPTIONS = dict(
    open_topped="Open-topped: +1 damage",
    skimmer_fast="Skimmer that moved over 6\"",
    hull_down="Hull down (in or behind cover)",
    smoke="Behind its smoke launchers",
    immobilised="Already immobilised",
    stunned="Crew already stunned",
    no_main="No main weapon (S6+) left",
    passengers="Models aboard",
    passenger_save="Passengers' save, 4 = 4+",
    nearby='Nearby models\' inches from hull, "1 3"',
    nearby_save="Nearby models' save",
)


def _dice(bot, entered: Optional[str]) -> Dice:
    """The bot's dice for one command, behind the players' own when they gave some."""
    source = bot.new_dice()
    return EnteredDice(entered, source) if entered else source


def vehicle_state(
    *, open_topped: bool, skimmer_fast: bool, hull_down: bool, smoke: bool, immobilised: bool, stunned: bool,
    no_main: bool, passengers: int, passenger_save: Optional[int], nearby: Optional[str], nearby_save: Optional[int],
) -> VehicleState:
    return VehicleState(
        open_topped=open_topped, skimmer_fast=skimmer_fast, hull_down=hull_down, smoke=smoke, immobilised=immobilised,
        stunned=stunned, main_weapons=not no_main, passengers=passengers, passenger_save=passenger_save,
        nearby=parse_distances(nearby), nearby_save=nearby_save,
    )


class Wh40kCog(commands.Cog):
    """Warhammer 40,000 vehicles and ordnance."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    group = app_commands.Group(name="40k", description="Warhammer 40,000 vehicles: penetration, damage, ordnance, assaults")

    @group.command(name="penetrate", description="Roll armour penetration, then damage on the right table")
    @app_commands.describe(
        strength="Weapon Strength (not for melta-bomb, krak)", armour="Armour Value of the facing hit",
        weapon="How it penetrates (default normal)", off_centre="Blast hole not over the vehicle: half S",
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
            passenger_save=passenger_save, nearby=nearby, nearby_save=nearby_save,
        )
        hit = penetrate(DATA.penetration[weapon], armour, vehicle, _dice(self.bot, dice), DATA.damage_tables,
                        DATA.wounds, strength=strength, off_centre=off_centre)
        await send_reply(interaction, penetrate_reply(hit))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Wh40kCog(bot))
