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

from cogs.common.dice_source import private_option
from cogs.fantasy.words.breath import breath_reply
from cogs.fantasy.fire import read_immunities, COVER_CHOICES, DATA, base_autocomplete, facing_autocomplete, facing_of, TARGET_OPTIONS, _dice, target_unit, troop_autocomplete, troop_type
from cogs.common.replies import keep, off_the_loop, send_reply
from cogs.common.target import target_option
from cogs.fantasy.words.shoot import shoot_reply
from engine.dice import DieKind
from engine.fantasy.breath_weapon import breathe
from engine.fantasy.formation import BASE_WIDTHS, MAX_BASE_DEPTH, MAX_FILES, MAX_RANKS, MIN_BASE_DEPTH, Facing
from engine.fantasy.shooting import MAX_MODIFIER, MAX_SHOTS, Cover
from engine.fantasy.shooting_sequence import fire_missiles, read_crew
from engine.fantasy.special_rules import IMMUNITIES, MAX_AP, AttackRules, TargetRules
from engine.fantasy.wounding import MAX_TOUGHNESS, MAX_WOUNDS, Profile


IMMUNE = "Target's Immunity: flaming, killing-blow, ..."


def immunities(text: Optional[str]) -> tuple[str, ...]:
    """The `immune` option: the rules the target is Immune to, by name ("flaming killing-blow")."""
    return read_immunities(text, IMMUNITIES)


class ShootCog(commands.Cog):
    """Warhammer Fantasy shooting: to hit, to wound, saves, special rules."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="shoot", description="Warhammer Fantasy shooting: to hit, wound, saves, special rules")
    @target_option("fantasy", needs=("toughness",), into="troop")
    @private_option
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
        facing="Side facing the shot (Dodge: front only)",
        immune=IMMUNE,
        crew='War machine target: crew left, e.g. "3"; mixed: "3, engineer W2 4+"',
        dice='Your dice in order (to hit, to wound, ...)',
    )
    @app_commands.choices(cover=COVER_CHOICES, multiple_wounds=[Choice(name="D3", value="D3"), Choice(name="D6", value="D6")])
    @app_commands.autocomplete(troop=troop_autocomplete, facing=facing_autocomplete)
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
        crew: Optional[str] = None,
        facing: str = Facing.FRONT.value,
        immune: Optional[str] = None,
        dice: Optional[str] = None,
    ) -> None:
        ordinary, characters = read_crew(crew) if crew is not None else (None, ())
        kind = troop_type(troop) if troop else (DATA.troops["war-machine"] if crew is not None else None)
        attack = AttackRules(
            armour_piercing=ap, multiple_wounds=DieKind(multiple_wounds) if multiple_wounds else None,
            ignores_armour=ignores_armour, flaming=flaming, killing_blow=killing_blow, magical=magical,
        )
        fire = await off_the_loop(interaction, lambda: fire_missiles(
            _dice(self.bot, dice), DATA.to_hit_penalties, shots=shots, ballistic_skill=bs, strength=strength,
            profile=Profile(toughness, wounds, save, ward), long_range=long_range, cover=Cover(cover), modifier=modifier,
            troop=kind, attack=attack, target_rules=TargetRules(flammable=flammable, dodge=dodge, ethereal=ethereal,
                                                          front_arc=facing_of(facing) is Facing.FRONT,
                                                          immune=immunities(immune)),
            crew=ordinary, characters=characters,
        ), then=lambda r: keep(interaction, shoot_reply(r)))  # the words and the store's work in the same job (issue 26)
        await send_reply(interaction, fire)


    @app_commands.command(name="breath", description="Breath Weapon shooting attack: flame template from the base, auto hits")
    @target_option("fantasy", into="troop")
    @private_option
    @app_commands.describe(
        distance="Breather's base to the target model, inches (up to 8)", strength="The breath's Strength",
        used_before="Used before: needs 4+ on a D6 first", flaming="Flaming breath", flammable="Target is Flammable",
        ap="The breath's Armour Piercing", ignores_armour="The breath Ignores Armour Saves",
        magical="Magical breath", dodge="Target's Dodge: 5 for 5+", ethereal="Target is Ethereal", immune=IMMUNE,
        **{k: v for k, v in TARGET_OPTIONS.items() if not k.startswith("aim") and k != "dice"},
        dice='To-wound dice (with toughness), e.g. "5"',
    )
    @app_commands.autocomplete(troop=troop_autocomplete, facing=facing_autocomplete, base=base_autocomplete)
    async def breath(
        self, interaction: discord.Interaction,
        distance: Range[float, 0.1, 8.0], strength: Range[int, 1, 10],
        ranks: Range[int, 1, MAX_RANKS] = 4, files: Range[int, 1, MAX_FILES] = 5, troop: str = "infantry",
        base: Optional[Range[int, BASE_WIDTHS[0], BASE_WIDTHS[-1]]] = None, depth: Optional[Range[int, MIN_BASE_DEPTH, MAX_BASE_DEPTH]] = None,
        facing: str = Facing.FRONT.value, toughness: Optional[Range[int, 1, MAX_TOUGHNESS]] = None,
        wounds: Optional[Range[int, 1, MAX_WOUNDS]] = None, save: Optional[Range[int, 1, 6]] = None,
        ward: Optional[Range[int, 2, 6]] = None, used_before: bool = False, flaming: bool = False,
        flammable: bool = False, ap: Range[int, 0, MAX_AP] = 0, ignores_armour: bool = False, magical: bool = False,
        dodge: Optional[Range[int, 2, 6]] = None, ethereal: bool = False, immune: Optional[str] = None,
        dice: Optional[str] = None,
    ) -> None:
        unit = target_unit(ranks=ranks, files=files, troop=troop, base=base, depth=depth, facing=facing,
                           toughness=toughness, wounds=wounds, save=save, ward=ward)
        shot = await off_the_loop(interaction, lambda: breathe(
            DATA.flame_templates["flame"], unit, distance, _dice(self.bot, dice), strength=strength,
            attack=AttackRules(armour_piercing=ap, ignores_armour=ignores_armour, flaming=flaming, magical=magical),
            target_rules=TargetRules(flammable=flammable, dodge=dodge, ethereal=ethereal, immune=immunities(immune)),
            used_before=used_before,
        ), then=lambda r: keep(interaction, breath_reply(r)))  # the words and the store's work in the same job (issue 26)
        await send_reply(interaction, shot)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ShootCog(bot))
