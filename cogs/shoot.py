"""``/shoot``: the shooting sequence for any missile weapon, with the special rules that change
its rolls. Thin: options in, engine call, embed out.

No ``from __future__ import annotations`` here: discord.py reads the option types from the
callbacks' annotations.
"""

from typing import Optional

import discord
from discord import app_commands
from discord.app_commands import Choice, Range
from discord.ext import commands

from cogs.fire import COVER_CHOICES, DATA, _dice, troop_autocomplete, troop_type
from cogs.replies import send_reply
from cogs.shoot_reply import shoot_reply
from engine.dice import DieKind
from engine.fantasy.shooting import MAX_MODIFIER, MAX_SHOTS, Cover
from engine.fantasy.shooting_sequence import MAX_CREW, fire_missiles
from engine.fantasy.special_rules import MAX_AP, AttackRules, TargetRules
from engine.fantasy.wounding import MAX_TOUGHNESS, MAX_WOUNDS, Profile


class ShootCog(commands.Cog):
    """Warhammer Fantasy shooting: to hit, to wound, saves, special rules."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="shoot", description="Warhammer Fantasy shooting: to hit, wound, saves, special rules")
    @app_commands.describe(
        shots="Number of shots",
        bs="Ballistic Skill",
        strength="Strength of the shots",
        toughness="Target's Toughness (a war machine's own)",
        wounds="Target's Wounds per model (default 1)",
        save="Armour save (a war machine's crew's): 4 for 4+",
        ward="Ward save: 5 for 5+",
        cover="Target's cover (default none)",
        long_range="Beyond half range (-1 to hit)",
        modifier="Other to-hit modifiers, e.g. -1 for moving",
        ap="Armour Piercing (n)",
        multiple_wounds="Multiple Wounds die",
        ignores_armour="Ignores Armour Saves",
        flaming="Flaming Attacks",
        flammable="Target is Flammable",
        killing_blow="Killing Blow",
        magical="Magical Attacks",
        dodge="Target's Dodge (n): 5 for 5+",
        ethereal="Target is Ethereal",
        troop="Target's troop type (Killing Blow, Dodge)",
        crew="Target is a war machine with this many crew",
        dice='Your dice in order (to hit, to wound, ...)',
    )
    @app_commands.choices(cover=COVER_CHOICES, multiple_wounds=[Choice(name="D3", value="D3"), Choice(name="D6", value="D6")])
    @app_commands.autocomplete(troop=troop_autocomplete)
    async def shoot(
        self,
        interaction: discord.Interaction,
        shots: Range[int, 1, MAX_SHOTS],
        bs: Range[int, 1, 10],
        strength: Range[int, 1, 10],
        toughness: Range[int, 1, MAX_TOUGHNESS],
        wounds: Range[int, 1, MAX_WOUNDS] = 1,
        save: Optional[Range[int, 1, 6]] = None,
        ward: Optional[Range[int, 2, 6]] = None,
        cover: str = Cover.NONE.value,
        long_range: bool = False,
        modifier: Range[int, -MAX_MODIFIER, MAX_MODIFIER] = 0,
        ap: Range[int, 0, MAX_AP] = 0,
        multiple_wounds: Optional[str] = None,
        ignores_armour: bool = False,
        flaming: bool = False,
        flammable: bool = False,
        killing_blow: bool = False,
        magical: bool = False,
        dodge: Optional[Range[int, 2, 6]] = None,
        ethereal: bool = False,
        troop: Optional[str] = None,
        crew: Optional[Range[int, 1, MAX_CREW]] = None,
        dice: Optional[str] = None,
    ) -> None:
        kind = troop_type(troop) if troop else (DATA.troops["war-machine"] if crew else None)
        attack = AttackRules(
            armour_piercing=ap, multiple_wounds=DieKind(multiple_wounds) if multiple_wounds else None,
            ignores_armour=ignores_armour, flaming=flaming, killing_blow=killing_blow, magical=magical,
        )
        fire = fire_missiles(
            _dice(self.bot, dice), DATA.to_hit_penalties, shots=shots, ballistic_skill=bs, strength=strength,
            profile=Profile(toughness, wounds, save, ward), long_range=long_range, cover=Cover(cover), modifier=modifier,
            troop=kind, attack=attack, target_rules=TargetRules(flammable=flammable, dodge=dodge, ethereal=ethereal),
            crew=crew,
        )
        await send_reply(interaction, shoot_reply(fire))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ShootCog(bot))
