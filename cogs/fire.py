"""``/fire``: Warhammer Fantasy war machines. Thin: options in, engine call, embed and picture out.

No ``from __future__ import annotations`` here: discord.py reads the option types from the
callbacks' annotations, and the cannon callbacks' ranges come from the profile at definition time.
"""

from typing import Optional

import discord
from discord import app_commands
from discord.app_commands import Choice, Range
from discord.ext import commands

from cogs.cannon_reply import cannon_reply
from cogs.replies import off_the_loop, send_reply
from config.gamedata import fantasy
from engine.dice import EnteredDice
from engine.fantasy.cannon import fire_cannon
from engine.fantasy.formation import BASE_WIDTHS, MAX_BASE_DEPTH, MAX_FILES, MAX_RANKS, MIN_BASE_DEPTH, Facing, TargetUnit
from engine.fantasy.wounding import MAX_TOUGHNESS, MAX_WOUNDS, Profile
from engine.errors import RulesError
from renders.cannon import render_cannon

DATA = fantasy()

TROOP_CHOICES = [Choice(name=t.name, value=t.key) for t in DATA.troops.values()]
BASE_CHOICES = [Choice(name=f"{w} mm", value=w) for w in BASE_WIDTHS]
FACING_CHOICES = [
    Choice(name="front toward the cannon", value=Facing.FRONT.value),
    Choice(name="flank toward the cannon (files count as ranks)", value=Facing.FLANK.value),
    Choice(name="rear toward the cannon", value=Facing.REAR.value),
]

TARGET_OPTIONS = dict(
    ranks="Ranks in the target unit (default 4)",
    files="Models in each rank (default 5)",
    troop="Troop type (default infantry); monsters and monstrous models stop the ball if they survive",
    base="Base width in mm (default: the troop type's usual base)",
    depth="Base depth in mm, for cavalry, chariot and monster bases (default: the usual one)",
    facing="Which side of the target faces the cannon (default front)",
    toughness="Target Toughness: give it to have the bot roll to wound, saves and wounds",
    wounds="Wounds per model (with toughness; default 1)",
    save="Armour save, e.g. 4 for 4+ (with toughness)",
    ward="Ward save, e.g. 5 for 5+ (with toughness)",
    aim_rank="Aim at this rank instead (1 = front rank; default: the rank facing the cannon)",
    aim_file="Aim at this file instead (counted from the left as the cannon sees them; default: the centre)",
    dice='Dice you rolled, in order: scatter, artillery, [misfire D6], bounce, wound rolls... e.g. "H 4 8"',
)


def target_unit(
    *, ranks: int, files: int, troop: str, base: int | None, depth: int | None, facing: str,
    toughness: int | None, wounds: int | None, save: int | None, ward: int | None,
) -> TargetUnit:
    """The target unit from the command's options (shared by every Fantasy war machine)."""
    kind = DATA.troops[troop]
    if toughness is None and (wounds, save, ward) != (None, None, None):
        given = ", ".join(n for n, v in (("wounds", wounds), ("save", save), ("ward", ward)) if v is not None)
        raise RulesError(f"You gave {given} without toughness: add toughness to have the bot resolve wounds, or leave the profile out.")
    profile = None if toughness is None else Profile(toughness, wounds or 1, save, ward)
    if base is None:
        width, default_depth = kind.base_width, kind.base_depth
    else:
        width = base
        default_depth = base * kind.base_depth // kind.base_width
    return TargetUnit(
        ranks=ranks, files=files, troop=kind, base_width=width, base_depth=depth or default_depth,
        facing=Facing(facing), profile=profile,
    )


def _cannon_command(key: str):
    """The callback of ``/fire <cannon kind>``: one definition for every cannon profile."""
    weapon = DATA.cannons[key]
    chart = DATA.misfire_charts[weapon.misfire_chart]

    @app_commands.describe(distance=f"Inches from the muzzle to the aim marker ({weapon.min_range}-{weapon.max_range})", **TARGET_OPTIONS)
    @app_commands.choices(troop=TROOP_CHOICES, base=BASE_CHOICES, facing=FACING_CHOICES)
    async def fire(
        self,
        interaction: discord.Interaction,
        distance: Range[float, weapon.min_range, weapon.max_range],
        ranks: Range[int, 1, MAX_RANKS] = 4,
        files: Range[int, 1, MAX_FILES] = 5,
        troop: str = "infantry",
        base: Optional[int] = None,
        depth: Optional[Range[int, MIN_BASE_DEPTH, MAX_BASE_DEPTH]] = None,
        facing: str = Facing.FRONT.value,
        toughness: Optional[Range[int, 1, MAX_TOUGHNESS]] = None,
        wounds: Optional[Range[int, 1, MAX_WOUNDS]] = None,
        save: Optional[Range[int, 1, 6]] = None,
        ward: Optional[Range[int, 2, 6]] = None,
        aim_rank: Optional[Range[int, 1, MAX_RANKS]] = None,
        aim_file: Optional[Range[int, 1, MAX_FILES]] = None,
        dice: Optional[str] = None,
    ) -> None:
        unit = target_unit(
            ranks=ranks, files=files, troop=troop, base=base, depth=depth, facing=facing,
            toughness=toughness, wounds=wounds, save=save, ward=ward,
        )
        source = self.bot.new_dice()
        shot = fire_cannon(
            weapon, chart, unit, distance, EnteredDice(dice, source) if dice else source,
            aim_rank=aim_rank, aim_file=aim_file,
        )
        image = await off_the_loop(interaction, render_cannon, shot)
        await send_reply(interaction, cannon_reply(shot, image))

    # discord.py tells a method from a plain function by its qualified name; this one is bound
    # to FireCog, so it must read as FireCog's.
    fire.__qualname__ = f"FireCog.{key.replace('-', '_')}"
    return fire


class FireCog(commands.Cog):
    """Warhammer Fantasy war machines."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    fire = app_commands.Group(name="fire", description="Fire a Warhammer Fantasy war machine: scatter, misfires, who is hit")

    cannon = fire.command(
        name="cannon",
        description="Fire a cannon (12-48\", S10): scatter, bounce, hits and wounds, with a diagram",
    )(_cannon_command("cannon"))
    great_cannon = fire.command(
        name="great-cannon",
        description="Fire a great cannon (12-60\", S10, D6 wounds on the bounce too) with a diagram",
    )(_cannon_command("great-cannon"))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(FireCog(bot))
