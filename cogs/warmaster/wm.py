"""``/wm``: Warmaster artillery and machines (seed 002). Thin: options in, engine call, embed and
picture out. Sieges are ``/siege``, in cogs/warmaster/siege.py: Discord counts a top-level command's
whole tree against 4000 characters, and the two together came to about 5800.

No ``from __future__ import annotations`` here: discord.py reads the option types from the
callbacks' annotations.
"""

from typing import Optional

import discord
from discord import app_commands
from discord.app_commands import Range
from discord.ext import commands

from cogs.common.dice_source import private_option
from cogs.common.replies import off_the_loop, send_reply, shot_answered
from cogs.common.target import target_option
from cogs.warmaster.options import (
    tower_position,
    AT, DATA, FORMATION_CHOICES, IN_TOWER, NEAR_AS_CANNON, NEAR_DESCRIPTION, TARGET, near_units, new_dice, place,
    position_autocomplete, troop_autocomplete, target_stands, unit,
)
from cogs.warmaster.words.shooting import cannon_reply, helblaster_reply, shoot_reply
from engine.geometry import Point
from engine.warmaster.cannon import MAX_CANNONS, PlacedUnit, fire_cannons
from engine.warmaster.helblaster import fire_helblaster
from engine.warmaster.shooting import MAX_ATTACKS, MAX_HITS_PER_STAND, MAX_STANDS, shoot
from renders.warmaster.artillery import render_bone_thrower, render_cannon
from cogs.warmaster.words.shooting import bone_thrower_reply, volley_reply
from engine.warmaster.bolt_thrower import fire_elven_bolt_thrower, fire_rock_lobber
from engine.warmaster.bone_thrower import fire_bone_thrower
from engine.warmaster.shooting import MAX_MACHINES

CANNON = DATA.artillery["cannon"]
BONE = DATA.artillery["bone-thrower"]
ELVEN = DATA.artillery["elven-bolt-thrower"]
LOBBER = DATA.artillery["rock-lobber"]
HELBLASTER = DATA.artillery["helblaster"]


class WarmasterCog(commands.Cog):
    """Warmaster artillery, machines and sieges."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    wm = app_commands.Group(name="wm", description="Warmaster artillery, machines and sieges (cm)")

    @wm.command(name="shoot", description="Attacks at a target: hits, armour, stands, drive back (core)")
    @target_option("warmaster", into="troop")
    @private_option
    @app_commands.describe(attacks="Attacks rolled", bonus="To-hit modifier, e.g. 1", worse="Armour counts N worse",
                           no_armour="No armour roll", charging="Target is charging (no drive back)",
                           in_tower=IN_TOWER, **TARGET)
    @app_commands.autocomplete(troop=troop_autocomplete, position=position_autocomplete)
    async def shoot(
        self, interaction: discord.Interaction, attacks: Range[int, 1, MAX_ATTACKS],
        armour: Range[int, 0, 6] = 0, position: Optional[str] = None, stands: Range[int, 1, MAX_STANDS] = 3,
        hits: Range[int, 1, MAX_HITS_PER_STAND] = 3, troop: str = "infantry", bonus: Range[int, -3, 3] = 0,
        worse: Range[int, 0, 3] = 0, no_armour: bool = False, charging: bool = False, in_tower: bool = False,
        dice: Optional[str] = None,
    ) -> None:
        position = tower_position(position, in_tower)
        target = unit("target", stands=stands, hits=hits, armour=armour, position=position, troop=troop, charging=charging,
                      in_tower=in_tower, equipment_ok=True)
        result = await off_the_loop(interaction, lambda: shoot(new_dice(self.bot, dice), target, attacks, DATA.positions,
                                                               to_hit_bonus=bonus, armour_worse=worse, armour_ignored=no_armour))
        await send_reply(interaction, shoot_reply(result))

    @wm.command(name="cannon", description="Cannon battery (60 cm): ball bounces 5 cm through stands")
    @target_option("warmaster", into="troop")
    @private_option
    @app_commands.describe(
        distance="cm to the target's front centre", cannons="Cannons firing (default 2)",
        formation="Target line or column (default: column)", turn="Target turned about its centre, degrees", offset="Target cm right of the line",
        near=NEAR_DESCRIPTION,
        grapeshot="Charged: grapeshot, no bounce", at=AT, in_tower=IN_TOWER, **TARGET)
    @app_commands.choices(formation=FORMATION_CHOICES)
    @app_commands.autocomplete(troop=troop_autocomplete, position=position_autocomplete)
    async def cannon(
        self, interaction: discord.Interaction, distance: Range[float, 0.5, float(CANNON.range)],
        cannons: Range[int, 1, MAX_CANNONS] = 2, formation: str = "column", stands: Range[int, 1, MAX_STANDS] = 3,
        hits: Range[int, 1, MAX_HITS_PER_STAND] = 3, armour: Range[int, 0, 6] = 0, position: Optional[str] = None,
        troop: str = "infantry", turn: Range[float, -180.0, 180.0] = 0.0, offset: Range[float, -60.0, 60.0] = 0.0,
        near: Optional[str] = None, grapeshot: bool = False, at: Optional[str] = None, in_tower: bool = False,
        dice: Optional[str] = None,
    ) -> None:
        position = tower_position(position, in_tower)
        def work():
            front = Point(offset, distance)
            placed = target_stands(formation=formation, stands=stands, at=at, front=front, turn=turn)
            target_unit = unit("target", stands=len(placed), hits=hits, armour=armour, position=position, troop=troop,
                               equipment_ok=True)
            target = PlacedUnit(target_unit, placed[:target_unit.stands])  # siege equipment: the machine, at the front
            others = place(near_units(near), front, DATA.stand_width, DATA.stand_depth)
            return fire_cannons(CANNON, DATA.positions, target, new_dice(self.bot, dice), cannons=cannons,
                                others=others, grapeshot=grapeshot, in_tower=in_tower)

        _, reply = await shot_answered(interaction, work, render_cannon, cannon_reply)  # one job: its lines grow with the units
        await send_reply(interaction, reply)

    @wm.command(name="helblaster", description="Helblaster (30 cm): 6/3/1 attacks, armour -1, may explode")
    @target_option("warmaster", into="troop")
    @private_option
    @app_commands.describe(range="cm to the target", attacks="Roll fewer attacks than the band",
                           charging="Target is charging", in_tower=IN_TOWER, **TARGET)
    @app_commands.autocomplete(troop=troop_autocomplete, position=position_autocomplete)
    async def helblaster(
        self, interaction: discord.Interaction, range: Range[float, 0.5, float(HELBLASTER.range)],
        attacks: Optional[Range[int, 1, 6]] = None, armour: Range[int, 0, 6] = 0, position: Optional[str] = None,
        stands: Range[int, 1, MAX_STANDS] = 3, hits: Range[int, 1, MAX_HITS_PER_STAND] = 3, troop: str = "infantry",
        charging: bool = False, in_tower: bool = False, dice: Optional[str] = None,
    ) -> None:
        position = tower_position(position, in_tower)
        target = unit("target", stands=stands, hits=hits, armour=armour, position=position, troop=troop, charging=charging,
                      in_tower=in_tower, equipment_ok=True)
        shot = await off_the_loop(interaction, lambda: fire_helblaster(HELBLASTER, DATA.positions, target, range,
                                                                       new_dice(self.bot, dice), attacks=attacks))
        await send_reply(interaction, helblaster_reply(shot))

    @wm.command(name="bone-thrower", description="Bone Thrower (40 cm): skewers up to 3 touching stands")
    @target_option("warmaster", into="troop")
    @private_option
    @app_commands.describe(distance="cm to the target's front centre", formation="Target line or column (default: column)", turn="Target turned about its centre, degrees",
                           offset="Target cm right of the line", near=NEAR_AS_CANNON, at=AT,
                           charging="Target is charging", in_tower=IN_TOWER, **{k: v for k, v in TARGET.items() if k != "armour"})
    @app_commands.choices(formation=FORMATION_CHOICES)
    @app_commands.autocomplete(troop=troop_autocomplete, position=position_autocomplete)
    async def bone_thrower(
        self, interaction: discord.Interaction, distance: Range[float, 0.5, float(BONE.range)], formation: str = "column",
        stands: Range[int, 1, MAX_STANDS] = 3, hits: Range[int, 1, MAX_HITS_PER_STAND] = 3, position: Optional[str] = None,
        troop: str = "infantry", turn: Range[float, -180.0, 180.0] = 0.0, offset: Range[float, -40.0, 40.0] = 0.0,
        near: Optional[str] = None, at: Optional[str] = None, charging: bool = False, in_tower: bool = False,
        dice: Optional[str] = None,
    ) -> None:
        position = tower_position(position, in_tower)
        def work():
            front = Point(offset, distance)
            placed = target_stands(formation=formation, stands=stands, at=at, front=front, turn=turn)
            target_unit = unit("target", stands=len(placed), hits=hits, armour=0, position=position, troop=troop,
                               charging=charging, equipment_ok=True)
            target = PlacedUnit(target_unit, placed[:target_unit.stands])  # siege equipment: the machine, at the front
            return fire_bone_thrower(BONE, DATA.positions, target, new_dice(self.bot, dice),
                                     others=place(near_units(near), front, DATA.stand_width, DATA.stand_depth), in_tower=in_tower)

        _, reply = await shot_answered(interaction, work, render_bone_thrower, bone_thrower_reply)
        await send_reply(interaction, reply)

    @wm.command(name="elven-bolt-thrower", description="Elven Bolt Thrower (40 cm): 3 attacks, +1 to hit")
    @target_option("warmaster", into="troop")
    @private_option
    @app_commands.describe(range="cm to the target", machines="Bolt throwers firing", charging="Target is charging",
                           in_tower=IN_TOWER, **TARGET)
    @app_commands.autocomplete(troop=troop_autocomplete, position=position_autocomplete)
    async def elven_bolt_thrower(
        self, interaction: discord.Interaction, range: Range[float, 0.5, float(ELVEN.range)],
        machines: Range[int, 1, MAX_MACHINES] = 1, armour: Range[int, 0, 6] = 0, position: Optional[str] = None,
        stands: Range[int, 1, MAX_STANDS] = 3, hits: Range[int, 1, MAX_HITS_PER_STAND] = 3, troop: str = "infantry",
        charging: bool = False, in_tower: bool = False, dice: Optional[str] = None,
    ) -> None:
        position = tower_position(position, in_tower)
        target = unit("target", stands=stands, hits=hits, armour=armour, position=position, troop=troop, charging=charging,
                      in_tower=in_tower, equipment_ok=True)
        v = await off_the_loop(interaction, lambda: fire_elven_bolt_thrower(ELVEN, DATA.positions, target, range,
                                                                            new_dice(self.bot, dice), machines=machines))
        await send_reply(interaction, volley_reply(v, "wm elven-bolt-thrower"))

    @wm.command(name="rock-lobber", description="Orc Rock Lobber (60 cm, 3 attacks): profile only")
    @target_option("warmaster", into="troop")
    @private_option
    @app_commands.describe(range="cm to the target", machines="Rock lobbers firing", in_tower=IN_TOWER, **TARGET)
    @app_commands.autocomplete(troop=troop_autocomplete, position=position_autocomplete)
    async def rock_lobber(
        self, interaction: discord.Interaction, range: Range[float, 0.5, float(LOBBER.range)],
        machines: Range[int, 1, MAX_MACHINES] = 1, armour: Range[int, 0, 6] = 0, position: Optional[str] = None,
        stands: Range[int, 1, MAX_STANDS] = 3, hits: Range[int, 1, MAX_HITS_PER_STAND] = 3, troop: str = "infantry",
        in_tower: bool = False, dice: Optional[str] = None,
    ) -> None:
        position = tower_position(position, in_tower)
        target = unit("target", stands=stands, hits=hits, armour=armour, position=position, troop=troop, in_tower=in_tower,
                      equipment_ok=True)
        v = await off_the_loop(interaction, lambda: fire_rock_lobber(LOBBER, DATA.positions, target, range,
                                                                     new_dice(self.bot, dice), machines=machines))
        await send_reply(interaction, volley_reply(v, "wm rock-lobber", ("The seed's Rock Lobber entry is cut off after its profile: "
                                                                         "only range and attacks are applied.",)))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(WarmasterCog(bot))
