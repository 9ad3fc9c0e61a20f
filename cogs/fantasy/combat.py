"""``/combat``: close combat rolls that special rules change, and war machines in close combat.
Thin: options in, engine call, embed out.

No ``from __future__ import annotations`` here: discord.py reads the option types from the
callbacks' annotations.
"""

from typing import Optional

import discord
from discord import app_commands
from discord.app_commands import Choice, Range
from discord.ext import commands

from cogs.common.dice_source import private_option
from cogs.fantasy.words.combat import (
    attacks_reply, automatic_reply, pursuit_reply, result_reply, strike_order_reply, war_machine_reply,
)
from cogs.common.choices import RETIRED, offer
from cogs.fantasy.fire import read_immunities, _dice, facing_autocomplete, facing_of, troop_autocomplete, troop_type
from engine.fantasy.formation import Facing
from cogs.common.replies import keep, off_the_loop, send_reply
from cogs.common.target import target_option
from engine.dice import DieKind
from engine.errors import RulesError
from engine.fantasy.close_combat import (
    CombatSide, Fighter, Reroll, Strikes, assault_party, breath_in_combat, combat_result, impact_hits, make_attacks,
    restrain_pursuit, strike_order, war_machine_panic,
)
from engine.fantasy.special_rules import IMMUNITIES, MAX_AP, AttackRules, TargetRules
from engine.fantasy.wounding import MAX_TOUGHNESS, MAX_WOUNDS, Profile

STRIKES = [Choice(name=v, value=v) for v in ("normal", "first", "last", "both")]
"""Strike rules: Always Strikes First, Always Strikes Last, or both (they cancel), named short
because Discord counts every choice towards the command's 4,000 characters."""
MW = [Choice(name="D3", value="D3"), Choice(name="D6", value="D6")]
FACING = "Side attacked"
IMMUNE = "Immune: flaming, killing-blow, ..."
DODGES = tuple(f"{n}+" for n in range(2, 7)) + tuple(f"{n}+ flank" for n in range(2, 7))
"""``/combat attacks`` has 25 options, Discord's most: the target's Dodge and the side attacked
share one, offered by autocomplete ("5+" in the front arc, "5+ flank" from the flank or rear)."""
dodge_autocomplete = offer(DODGES)
PROFILE = dict(toughness="Target's Toughness", wounds="Target's Wounds",
               save="Armour save, 4=4+", ward="Ward save, 5=5+")


def dodge_choice(value: str | None) -> tuple[int | None, bool]:
    """The `dodge` option as (Dodge n, attacked in its front arc): "5", "5+", "5+ flank" or "5 rear"."""
    if value is None:
        return None, True
    n, _, side = value.strip().lower().partition(" ")
    n = n.rstrip("+")
    if not (n.isdigit() and n.isascii()) or not 2 <= int(n) <= 6 or side.strip() not in ("", "front", "flank", "rear"):
        raise RulesError(f"dodge: '{value}' is not a Dodge save: give 2+ to 6+, with 'flank' when attacked from the flank or rear.")
    return int(n), side.strip() in ("", "front")


def _profile(toughness, wounds, save, ward) -> Profile:
    return Profile(toughness, wounds, save, ward)


class CombatCog(commands.Cog):
    """Warhammer Fantasy close combat."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    combat = app_commands.Group(name="combat", description="Warhammer Fantasy close combat and its special rules")

    @combat.command(name="strike-order", description="Who strikes first: Initiative, Always Strikes First/Last")
    @app_commands.describe(initiative="Attacker's Initiative", enemy_initiative="Defender's Initiative",
                           strikes="Attacker Always Strikes first/last", enemy_strikes="Defender Always Strikes first/last")
    @app_commands.choices(strikes=STRIKES, enemy_strikes=STRIKES)
    async def strike_order_cmd(self, interaction: discord.Interaction, initiative: Range[int, 1, 10],
                               enemy_initiative: Range[int, 1, 10], strikes: str = "normal",
                               enemy_strikes: str = "normal") -> None:
        order = strike_order(Fighter(initiative, Strikes(strikes)), Fighter(enemy_initiative, Strikes(enemy_strikes)))
        await send_reply(interaction, strike_order_reply(order))

    @combat.command(name="attacks", description="Close combat attacks: WS chart, wounds, saves, special rules",
                    extras={RETIRED: {"war_machine": ("troop", "war-machine")}})
    @target_option("fantasy", needs=("toughness", "enemy_ws"), into="troop")
    @app_commands.describe(
        attacks="Attacks", ws="Weapon Skill", enemy_ws="Enemy's Weapon Skill", strength="Strength", **PROFILE,
        initiative="Your Initiative", enemy_initiative="Enemy's Initiative",
        strikes="You Always Strike first/last", enemy_strikes="Enemy Always Strikes first/last",
        hatred="Hatred, first round", devastating_charge="Devastating Charge (+1 A)", frenzy="Frenzy (+1 A)",
        ap="Armour Piercing (n)", multiple_wounds="Multiple Wounds die", killing_blow="Killing Blow",
        flaming="Flaming Attacks", flammable="Target is Flammable", dodge="Dodge: 5+ or 5+ flank",
        ethereal="Target is Ethereal", magical="Magical Attacks", troop="Target's troop (war-machine: its crew)",
        dice="Your dice",
    )
    @app_commands.choices(strikes=STRIKES, enemy_strikes=STRIKES, multiple_wounds=MW)
    @app_commands.autocomplete(troop=troop_autocomplete, dodge=dodge_autocomplete)
    async def attacks(
        self, interaction: discord.Interaction,
        attacks: Range[int, 1, 50], ws: Range[int, 1, 10], enemy_ws: Range[int, 1, 10], strength: Range[int, 1, 10],
        toughness: Range[int, 1, MAX_TOUGHNESS], wounds: Range[int, 1, MAX_WOUNDS] = 1,
        save: Optional[Range[int, 1, 6]] = None, ward: Optional[Range[int, 2, 6]] = None,
        initiative: Optional[Range[int, 1, 10]] = None, enemy_initiative: Optional[Range[int, 1, 10]] = None,
        strikes: str = "normal", enemy_strikes: str = "normal", hatred: bool = False,
        devastating_charge: bool = False, frenzy: bool = False, ap: Range[int, 0, MAX_AP] = 0,
        multiple_wounds: Optional[str] = None, killing_blow: bool = False, flaming: bool = False,
        flammable: bool = False, dodge: Optional[str] = None, ethereal: bool = False,
        magical: bool = False, troop: Optional[str] = None, dice: Optional[str] = None,
    ) -> None:
        order = None
        if (strikes, enemy_strikes) != ("normal", "normal") or initiative is not None or enemy_initiative is not None:
            if initiative is None or enemy_initiative is None:
                raise RulesError("Always Strikes First and Last depend on Initiative: give initiative and enemy_initiative.")
            order = strike_order(Fighter(initiative, Strikes(strikes)), Fighter(enemy_initiative, Strikes(enemy_strikes)))
        kind = troop_type(troop) if troop else None
        attack = AttackRules(armour_piercing=ap, multiple_wounds=DieKind(multiple_wounds) if multiple_wounds else None,
                             flaming=flaming, killing_blow=killing_blow, magical=magical,
                             always_strikes_first=Strikes(strikes).effective is Strikes.FIRST)
        dodge_value, front_arc = dodge_choice(dodge)
        target = TargetRules(flammable=flammable, dodge=dodge_value, ethereal=ethereal,
                             always_strikes_last=Strikes(enemy_strikes).effective is Strikes.LAST, front_arc=front_arc)
        r = await off_the_loop(interaction, lambda: make_attacks(
            _dice(self.bot, dice), attacks=attacks, weapon_skill=ws, enemy_weapon_skill=enemy_ws, strength=strength,
            profile=_profile(toughness, wounds, save, ward), troop=kind, attack=attack, target_rules=target,
            strike_reroll=order.attacker_reroll if order else Reroll.NONE, hatred=hatred,
            devastating_charge=devastating_charge, against_war_machine=kind is not None and kind.key == "war-machine",
            frenzy=frenzy,
        ), then=lambda r: keep(interaction, attacks_reply(r, order)))  # the words and the store's work in the same job
        await send_reply(interaction, r)

    @combat.command(name="impact-hits", description="Impact Hits on the charge")
    @target_option("fantasy", needs=("toughness",), into="troop")
    @private_option
    @app_commands.describe(hits="Impact Hits (n), or give die", die="Impact Hits (D3) or (D6)",
                           strength="Strength", **PROFILE, dodge="Target's Dodge: 5 for 5+",
                           war_machine="Charging a war machine", troop="Target's troop type",
                           facing=FACING, dice="Your dice")
    @app_commands.choices(die=MW)
    @app_commands.autocomplete(troop=troop_autocomplete, facing=facing_autocomplete)
    async def impact(
        self, interaction: discord.Interaction, strength: Range[int, 1, 10], toughness: Range[int, 1, MAX_TOUGHNESS],
        hits: Optional[Range[int, 1, 50]] = None, die: Optional[str] = None,
        wounds: Range[int, 1, MAX_WOUNDS] = 1, save: Optional[Range[int, 1, 6]] = None,
        ward: Optional[Range[int, 2, 6]] = None, dodge: Optional[Range[int, 2, 6]] = None,
        war_machine: bool = False, troop: Optional[str] = None, facing: str = "front", dice: Optional[str] = None,
    ) -> None:
        if (hits is None) == (die is None):
            raise RulesError("Give either hits (a number) or die (D3 or D6), not both or neither.")
        r = await off_the_loop(interaction, lambda: impact_hits(_dice(self.bot, dice), hits=hits if hits is not None else DieKind(die), strength=strength,
                        profile=_profile(toughness, wounds, save, ward), troop=troop_type(troop) if troop else None,
                        target_rules=TargetRules(dodge=dodge, front_arc=facing_of(facing) is Facing.FRONT), against_war_machine=war_machine))
        await send_reply(interaction, automatic_reply(r, "combat impact-hits"))

    @combat.command(name="breath", description="Breath Weapon in combat: 2D6 hits, no model hit twice")
    @target_option("fantasy", needs=("models", "toughness"), into="troop")
    @private_option
    @app_commands.describe(strength="The breath's Strength", models="Models in the enemy unit", **PROFILE,
                           used_before="Used before: needs 4+ first", flaming="Flaming breath",
                           flammable="Target is Flammable", ap="The breath's Armour Piercing",
                           ignores_armour="Ignores Armour Saves", troop="Target's troop type",
                           magical="Magical breath", dodge="Dodge: 5 for 5+", ethereal="Target is Ethereal",
                           immune=IMMUNE, facing=FACING, dice="Your dice")
    @app_commands.autocomplete(troop=troop_autocomplete, facing=facing_autocomplete)
    async def breath(
        self, interaction: discord.Interaction, strength: Range[int, 1, 10], models: Range[int, 1, 200],
        toughness: Range[int, 1, MAX_TOUGHNESS], wounds: Range[int, 1, MAX_WOUNDS] = 1,
        save: Optional[Range[int, 1, 6]] = None, ward: Optional[Range[int, 2, 6]] = None,
        used_before: bool = False, flaming: bool = False, flammable: bool = False, ap: Range[int, 0, MAX_AP] = 0,
        ignores_armour: bool = False, troop: Optional[str] = None, magical: bool = False,
        dodge: Optional[Range[int, 2, 6]] = None, ethereal: bool = False, immune: Optional[str] = None,
        facing: str = "front", dice: Optional[str] = None,
    ) -> None:
        rules = TargetRules(flammable=flammable, dodge=dodge, ethereal=ethereal, front_arc=facing_of(facing) is Facing.FRONT,
                            immune=read_immunities(immune, IMMUNITIES))
        r = await off_the_loop(interaction, lambda: breath_in_combat(_dice(self.bot, dice), strength=strength, models=models,
                             profile=_profile(toughness, wounds, save, ward), troop=troop_type(troop) if troop else None,
                             target_rules=rules,
                             breath_rules=AttackRules(armour_piercing=ap, flaming=flaming, ignores_armour=ignores_armour,
                                                      magical=magical),
                             used_before=used_before))
        await send_reply(interaction, automatic_reply(r, "combat breath"))

    @combat.command(name="result", description="Combat result and Break test")
    @private_option
    @app_commands.describe(
        wounds="Wounds the attacker caused", enemy_wounds="Wounds the defender caused", ranks="Attacker's rank bonus",
        enemy_ranks="Defender's rank bonus", standard="Attacker has a standard", enemy_standard="Defender has a standard",
        flank="Attacker fights in the flank", rear="Attacker fights in the rear",
        fear="Attacker causes Fear", fear_double="Attacker's Fear: double US",
        enemy_fear="Defender causes Fear", enemy_fear_double="Defender's Fear: double US",
        immune="Attacker immune to Fear", enemy_immune="Defender immune to Fear",
        war_machine="Defender is a war machine",
        leadership="Loser's Ld: bot rolls Break test", dice="Your dice",
    )
    async def result(
        self, interaction: discord.Interaction, wounds: Range[int, 0, 200], enemy_wounds: Range[int, 0, 200],
        ranks: Range[int, 0, 3] = 0, enemy_ranks: Range[int, 0, 3] = 0, standard: bool = False,
        enemy_standard: bool = False, flank: bool = False, rear: bool = False, fear: bool = False,
        fear_double: bool = False, enemy_fear: bool = False, enemy_fear_double: bool = False, immune: bool = False,
        enemy_immune: bool = False, war_machine: bool = False,
        leadership: Optional[Range[int, 1, 10]] = None, dice: Optional[str] = None,
    ) -> None:
        attacker = CombatSide(wounds=wounds, ranks=ranks, standard=standard, flank=flank, rear=rear, causes_fear=fear,
                              fear_double=fear_double, immune_to_fear=immune)
        defender = CombatSide(wounds=enemy_wounds, ranks=enemy_ranks, standard=enemy_standard, causes_fear=enemy_fear,
                              fear_double=enemy_fear_double, immune_to_fear=enemy_immune, war_machine=war_machine)
        r = await off_the_loop(interaction, lambda: combat_result(_dice(self.bot, dice), attacker, defender, loser_leadership=leadership))
        await send_reply(interaction, result_reply(r))

    @combat.command(name="pursuit", description="Restrain pursuit (Frenzy, Hatred)")
    @private_option
    @app_commands.describe(leadership="Winners' Ld", won_by="Won by", frenzy="Frenzied", hatred="Hate the foe",
                           dice="Your dice")
    async def pursuit(self, interaction: discord.Interaction, leadership: Range[int, 1, 10], won_by: Range[int, 0, 50] = 0,
                      frenzy: bool = False, hatred: bool = False, dice: Optional[str] = None) -> None:
        r = await off_the_loop(interaction, lambda: restrain_pursuit(_dice(self.bot, dice), leadership, won_by=won_by,
                                                                    frenzy=frenzy, hatred=hatred))
        await send_reply(interaction, pursuit_reply(r))

    @combat.command(name="war-machine", description="A war machine in combat")
    @private_option
    @app_commands.describe(models="Attacking models that could fight", unit_strength="Unit Strength of each",
                           leadership="Crew's Ld: roll Panic test", dice="Your dice")
    async def war_machine(
        self, interaction: discord.Interaction, models: Optional[Range[int, 1, 200]] = None,
        unit_strength: Range[int, 1, 10] = 1, leadership: Optional[Range[int, 1, 10]] = None,
        dice: Optional[str] = None,
    ) -> None:
        party = assault_party(models, unit_strength) if models is not None else None
        panic = await off_the_loop(interaction, lambda: war_machine_panic(_dice(self.bot, dice), leadership)) if leadership is not None else None
        if dice and panic is None:
            raise RulesError("Dice are for the Panic test: give leadership too.")
        await send_reply(interaction, war_machine_reply(party, models, unit_strength, panic))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(CombatCog(bot))
