"""``/siege``: Warmaster sieges (seed 001), with the channel's fortress sections kept in the store
through cogs/warmaster/fortress_state.py. Thin: options in, engine call, embed and picture out.

No ``from __future__ import annotations`` here: discord.py reads the option types from the
callbacks' annotations.
"""

from dataclasses import replace
from typing import Optional

import discord
from discord import app_commands
from discord.app_commands import Choice, Range
from discord.ext import commands

from cogs.campaign.machines import after_siege_roll
from cogs.common.access import actor, in_store
from cogs.common.dice_source import private_option
from cogs.common.choices import offer
from cogs.common.replies import off_the_loop, send_reply
from cogs.warmaster.options import (
    tower_position,
    ENGINES, IN_TOWER, LIST_HELP, MAX_NEAR, SCENARIOS, STRUCTURES, dug_sections, engine_autocomplete, pick,
    scenario_autocomplete, structure_autocomplete, garrison_points, troop_key, MORE_HELP, more_attackers, DATA, FORMATION_CHOICES, TARGET, equipment_list, near_units, new_dice,
    place, position_autocomplete, troop_autocomplete, unit,
)
from cogs.warmaster.words.shooting import cannon_reply
from engine.errors import RulesError
from engine.geometry import Point
from engine.warmaster.cannon import PlacedUnit, fire_cannons
from engine.warmaster.shooting import MAX_HITS_PER_STAND, MAX_STANDS
from engine.warmaster.stands import Formation, lay_out_centred
from renders.warmaster.fortress import render_fortress
from renders.warmaster.artillery import render_cannon
from cogs.warmaster.words.shooting import plural, volley_reply
from engine.warmaster.siege_artillery import bombard_as_cannon, fire_siege_artillery
from cogs.warmaster.fortress_state import fortress, section_test
from cogs.warmaster.words.siege import (
    army_reply, assault_reply, dig_reply, list_reply, batter_reply, fortress_reply, sally_gate_reply, scenario_reply, structure_reply,
)
from engine.warmaster.assault import AssaultKind, Fighters, assault
from engine.warmaster.siege_lists import check_list
from engine.warmaster.scenarios import army_check, into_the_breach_end, sally_gate, watchtower_relief
from engine.warmaster.battering import Batterer, batter
from cogs.warmaster.words.shooting import oil_reply
from engine.warmaster.boiling_oil import pour_oil
from engine.warmaster.earthworks import dig_out
from engine.warmaster.structure import structure_test
from storage.campaigns import check_siege_roller
from storage.sieges import reset_siege


BATTERER_AUTOCOMPLETE = offer(b.value for b in Batterer)
ASSAULT_AUTOCOMPLETE = offer(k.value for k in AssaultKind)


class SiegeCog(commands.Cog):
    """Warmaster sieges: structure tests, battering, oil, siege engines, assaults and the fortress."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    siege = app_commands.Group(name="siege", description="Warmaster sieges")

    @siege.command(name="structure", description="Structure test: wall, gate or tower")
    @private_option
    @app_commands.describe(
        kind="What is shot at", hits="Hits scored at the table", shots="Shots for the bot to roll",
        to_hit="Score to hit (6; cannon 5)", tokens="Tokens, for a one-off test", section="Section name: tokens kept",
        gate="The gateway tower's gate", dice="Your dice in order")
    @app_commands.autocomplete(kind=structure_autocomplete)
    async def structure(
        self, interaction: discord.Interaction, kind: str, hits: Optional[Range[int, 0, 40]] = None,
        shots: Range[int, 0, 40] = 0, to_hit: Range[int, 2, 6] = 6, tokens: Optional[Range[int, 0, 40]] = None,
        section: Optional[str] = None, gate: bool = False, dice: Optional[str] = None,
    ) -> None:
        kind = pick(kind, STRUCTURES, "kind")
        shot = dict(hits=hits, shots=shots, to_hit=to_hit)
        if section is None:
            result = await off_the_loop(interaction, lambda: structure_test(DATA.structures[kind], new_dice(self.bot, dice),
                                                                            tokens=tokens or 0, gate=gate, **shot))
            await send_reply(interaction, after_siege_roll(self.bot, interaction, structure_reply(result, None, None)))
            return
        if tokens is not None:
            raise RulesError("Give tokens only for a one-off test: a named section keeps its own.")
        await in_store(check_siege_roller, self.bot.store, interaction.guild_id, interaction.channel_id, interaction.user.id)
        channel = interaction.channel_id or 0
        result = await in_store(section_test, self.bot.store, channel, section, kind, gate, new_dice(self.bot, dice), **shot)
        image = await off_the_loop(interaction, render_fortress, await in_store(fortress, self.bot.store, channel, section))
        await send_reply(interaction, after_siege_roll(self.bot, interaction, structure_reply(result, section, image),
                                                         section=section, result=result))

    @siege.command(name="batter", description="Ram or giant batters a section")
    @private_option
    @app_commands.describe(
        kind="What is battered", by="Ram (3+ save), log rams or giant", rams="Rams or giants (1 hit each)",
        shots="Defenders' stand-and-shoot attacks", oil="Defenders pour boiling oil", section="Section name: tokens kept",
        tokens="Tokens, for a one-off test", gate="The gateway tower's gate", foes="Giant: foes on ramparts to fight",
        **{**{k: v for k, v in TARGET.items() if k != "position"}, "troop": "Troop type"})
    @app_commands.autocomplete(troop=troop_autocomplete, kind=structure_autocomplete, by=BATTERER_AUTOCOMPLETE)
    async def batter(
        self, interaction: discord.Interaction, kind: str, by: str = "ram", rams: Range[int, 1, 4] = 1,
        shots: Range[int, 0, 40] = 0, oil: bool = False, section: Optional[str] = None,
        tokens: Optional[Range[int, 0, 40]] = None, gate: bool = False, stands: Optional[Range[int, 1, MAX_STANDS]] = None,
        hits: Optional[Range[int, 1, MAX_HITS_PER_STAND]] = None, armour: Optional[Range[int, 0, 6]] = None,
        troop: Optional[str] = None, foes: bool = False, dice: Optional[str] = None,
    ) -> None:
        kind = pick(kind, STRUCTURES, "kind")
        by = pick(by, {b.value: b.value for b in Batterer}, "by")
        # A giant batters as itself (one monster stand, Hits 8, Armour 5+), others as 3 infantry stands.
        giant = by == Batterer.GIANT.value
        who = unit("battering unit", stands=stands if stands is not None else (1 if giant else 3),
                   hits=hits if hits is not None else (DATA.siege.giant_hits if giant else 3),
                   armour=armour if armour is not None else (DATA.siege.giant_armour if giant else 0), position="open",
                   troop=troop if troop is not None else ("monster" if giant else "infantry"))

        def attempt(tokens: int):
            return batter(DATA.structures[kind], DATA.siege, DATA.oil, DATA.positions, who, new_dice(self.bot, dice),
                          batterer=Batterer(by), rams=rams, tokens=tokens, shots=shots, oil=oil, gate=gate, fightable=foes)

        if section is None:
            await send_reply(interaction, after_siege_roll(self.bot, interaction, batter_reply(
                await off_the_loop(interaction, attempt, tokens or 0), None, None)))
            return
        if tokens is not None:
            raise RulesError("Give tokens only for a one-off test: a named section keeps its own.")
        await in_store(check_siege_roller, self.bot.store, interaction.guild_id, interaction.channel_id, interaction.user.id)
        channel = interaction.channel_id or 0
        result = await in_store(section_test, self.bot.store, channel, section, kind, gate, None, procedure=attempt)
        image = await off_the_loop(interaction, render_fortress, await in_store(fortress, self.bot.store, channel, section))
        await send_reply(interaction, after_siege_roll(self.bot, interaction, batter_reply(result, section, image),
                                                         section=section, result=result))

    @siege.command(name="artillery", description="Tribock, mangonel or bombard at a unit")
    @private_option
    @app_commands.describe(
        weapon="Which siege engine", distance="cm to the target's front centre", offset="Target cm right of the line",
        formation="Bombard: target line or column", turn="Bombard: target turned, degrees",
        near=f"Bombard: other units (max {MAX_NEAR})", in_tower=IN_TOWER, **TARGET)
    @app_commands.choices(formation=FORMATION_CHOICES)
    @app_commands.autocomplete(troop=troop_autocomplete, position=position_autocomplete, weapon=engine_autocomplete)
    async def artillery(
        self, interaction: discord.Interaction, weapon: str, distance: Range[float, 0.5, 120.0],
        offset: Range[float, -60.0, 60.0] = 0.0, formation: Optional[str] = None, turn: Optional[Range[float, -180.0, 180.0]] = None,
        near: Optional[str] = None, stands: Range[int, 1, MAX_STANDS] = 3, hits: Range[int, 1, MAX_HITS_PER_STAND] = 3,
        armour: Range[int, 0, 6] = 0, position: Optional[str] = None, troop: str = "infantry", in_tower: bool = False,
        dice: Optional[str] = None,
    ) -> None:
        position = tower_position(position, in_tower)
        w = DATA.siege_artillery[pick(weapon, ENGINES, "weapon")]
        target_unit = unit("target", stands=stands, hits=hits, armour=armour, position=position, troop=troop,
                           in_tower=in_tower and not w.bounce, equipment_ok=True)
        if not w.bounce:
            given = [f"{k}:" for k, v in (("formation", formation), ("turn", turn), ("near", near)) if v is not None]
            if given:
                raise RulesError(f"{' '.join(given)} only the bombard's ball bounces through stands and other units; the {w.name} "
                                 "rolls its attacks at the target alone. Leave them out, or give weapon:bombard.")
            v = await off_the_loop(interaction, lambda: fire_siege_artillery(w, DATA.positions, target_unit, distance,
                                                                             new_dice(self.bot, dice), offset=offset))
            await send_reply(interaction, after_siege_roll(self.bot, interaction, volley_reply(
                v, "siege artillery", (f"Sight: {w.corridor} cm corridor straight ahead; no save.",))))
            return

        def work():
            front = Point(offset, distance)
            laid = lay_out_centred(Formation(formation or "column"), stands, front, turn=turn or 0.0, width=DATA.stand_width,
                                   depth=DATA.stand_depth)
            target = PlacedUnit(target_unit, laid[:target_unit.stands])  # siege equipment: the machine, at the front
            return fire_cannons(bombard_as_cannon(w), DATA.positions, target, new_dice(self.bot, dice), cannons=1,
                                others=place(near_units(near), front, DATA.stand_width, DATA.stand_depth), corridor=w.corridor,
                                in_tower=in_tower)

        shot = await off_the_loop(interaction, work)
        # the picture and then its words in one job, off the event loop (their lines grow with the units)
        reply = await off_the_loop(interaction, render_cannon, shot, then=lambda image: cannon_reply(shot, image))
        await send_reply(interaction, after_siege_roll(self.bot, interaction, replace(reply, command="siege artillery")))

    @siege.command(name="assault", description="A round of assault on a wall or tower")
    @private_option
    @app_commands.describe(
        kind="Where the fight is", shot_hits="Stand and shoot/oil hits first",
        a_stands="Attackers' stands", a_fighting="Attackers fighting", a_attacks="Attack per stand",
        a_hits="Attackers' Hits", a_armour="Attackers' Armour", d_stands="Defenders' stands",
        d_fighting="Defenders fighting", d_attacks="Defenders' Attack", d_hits="Defenders' Hits",
        d_armour="Defenders' Armour", won="Tower: a round won", flyers="Attackers fly", giant="Attacker is a giant", more=f"More attackers: {MORE_HELP}", dice="Your dice")
    @app_commands.autocomplete(kind=ASSAULT_AUTOCOMPLETE)
    async def assault(
        self, interaction: discord.Interaction, kind: str = "wall", shot_hits: Range[int, 0, 60] = 0,
        a_stands: Range[int, 1, MAX_STANDS] = 3, a_fighting: Range[int, 1, MAX_STANDS] = 1, a_attacks: Range[int, 1, 12] = 3,
        a_hits: Range[int, 1, MAX_HITS_PER_STAND] = 3, a_armour: Range[int, 0, 6] = 0,
        d_stands: Range[int, 1, MAX_STANDS] = 3, d_fighting: Range[int, 1, MAX_STANDS] = 1, d_attacks: Range[int, 1, 12] = 3,
        d_hits: Range[int, 1, MAX_HITS_PER_STAND] = 3, d_armour: Range[int, 0, 6] = 0, won: bool = False,
        flyers: bool = False, more: Optional[str] = None, giant: bool = False, dice: Optional[str] = None,
    ) -> None:
        kind = pick(kind, {k.value: k.value for k in AssaultKind}, "kind")
        if kind in ("ramparts", "tower") and (a_fighting != 1 or d_fighting != 1):
            where = "On a counter-attacked rampart" if kind == "ramparts" else "At a tower"
            bad = f"a_fighting:{a_fighting}" if a_fighting != 1 else f"d_fighting:{d_fighting}"
            raise RulesError(f"{bad}: {where.lower()} only one stand of each unit fights, answered by one defending stand. "
                             "Give 1 (or leave it out); another unit, or another facing of the tower, goes in more:.")
        att = Fighters(unit("attackers", stands=a_stands, hits=a_hits, armour=a_armour, position="open", troop="infantry"),
                       a_fighting, a_attacks, flyers=flyers, giant=giant)
        dfn = Fighters(unit("defenders", stands=d_stands, hits=d_hits, armour=d_armour, position="fortified", troop="infantry"),
                       d_fighting, d_attacks)
        others = more_attackers(more)
        result = await off_the_loop(interaction, lambda: assault(new_dice(self.bot, dice), DATA.positions, att, dfn,
                                                                 kind=AssaultKind(kind), shot_hits=shot_hits, others=others,
                                                                 won_before=won, tower_reach=DATA.siege.siege_tower_reach))
        await send_reply(interaction, after_siege_roll(self.bot, interaction, assault_reply(result)))

    @siege.command(name="sally-gate", description="Is the sally gate left open?")
    @private_option
    @app_commands.describe(distance="cm to the nearest enemy", dice="Your 3 dice")
    async def sally_gate(self, interaction: discord.Interaction, distance: Range[float, 0.5, 500.0], dice: Optional[str] = None) -> None:
        result = await off_the_loop(interaction, lambda: sally_gate(DATA.siege, new_dice(self.bot, dice), distance))
        await send_reply(interaction, after_siege_roll(self.bot, interaction, sally_gate_reply(result)))

    @siege.command(name="scenario", description="Scenario rolls: game end, relief force")
    @private_option
    @app_commands.describe(scenario="Which scenario", turn="The turn", dispatches="Watchtower: dispatch units through",
                           dice="Your D6")
    @app_commands.autocomplete(scenario=scenario_autocomplete)
    async def scenario(self, interaction: discord.Interaction, scenario: str, turn: Range[int, 1, 10],
                       dispatches: Range[int, 0, 10] = 0, dice: Optional[str] = None) -> None:
        scenario = pick(scenario, SCENARIOS, "scenario")
        s = DATA.scenarios[scenario]
        if scenario == "into-the-breach":
            if dispatches:
                raise RulesError("Dispatch units belong to the watchtower scenario, not Into the breach.")
            result, what = await off_the_loop(interaction, lambda: into_the_breach_end(s, new_dice(self.bot, dice), turn)), "game end"
        else:
            result, what = await off_the_loop(
                interaction, lambda: watchtower_relief(s, new_dice(self.bot, dice), turn, dispatches)), "relief force"
        await send_reply(interaction, after_siege_roll(self.bot, interaction, scenario_reply(result, what)))

    @siege.command(name="army", description="Siege army list check")
    @app_commands.describe(points="Army points", side="Attacker or defender",
                           breaching="Wall-breaching artillery in it", list=f"Siege items, {LIST_HELP}",
                           scenario="Its buying rules", garrison="Watchtower: points of units inside")
    @app_commands.choices(side=[Choice(name="attacker", value="attacker"), Choice(name="defender", value="defender")])
    @app_commands.autocomplete(scenario=scenario_autocomplete)
    async def army(self, interaction: discord.Interaction, points: Range[int, 100, 20000], side: str,
                   breaching: Range[int, 0, 100] = 0, list: Optional[str] = None, scenario: Optional[str] = None,
                   garrison: Optional[str] = None) -> None:
        scenario = pick(scenario, SCENARIOS, "scenario") if scenario is not None else None
        if list is None and scenario is None and garrison is None:
            checked = await off_the_loop(interaction, lambda: army_check(DATA.siege, points, defender=side == "defender",
                                                                         breaching=breaching))
            await send_reply(interaction, army_reply(checked))
            return
        items, army = equipment_list(list) if list is not None else ((), None)
        inside = garrison_points(garrison)
        checked = await off_the_loop(interaction, lambda: check_list(
            DATA.siege, points, items, defender=side == "defender", army=army, extra_breaching=breaching,
            scenario=DATA.scenarios[scenario] if scenario else None, garrison=inside))
        await send_reply(interaction, list_reply(checked))

    @siege.command(name="dig", description="Infantry dig out earthworks: any 6 destroys")
    @private_option
    @app_commands.describe(attacks="Each stand's basic Attacks", stands="Stands in contact",
                           sections="Section each stand digs at: '1 1 2'", troop="Troop type", dice="Your dice")
    @app_commands.autocomplete(troop=troop_autocomplete)
    async def dig(self, interaction: discord.Interaction, attacks: Range[int, 1, 12] = 3, stands: Range[int, 1, MAX_STANDS] = 1,
                  sections: Optional[str] = None, troop: str = "infantry", dice: Optional[str] = None) -> None:
        declared = dug_sections(sections, stands)
        kind = DATA.troops[troop_key(troop)]
        result = await off_the_loop(interaction, lambda: dig_out(new_dice(self.bot, dice), kind, attacks=attacks,
                                                                 declared=declared))
        await send_reply(interaction, after_siege_roll(self.bot, interaction, dig_reply(result)))

    @siege.command(name="fortress", description="This channel's siege so far")
    async def show_fortress(self, interaction: discord.Interaction) -> None:
        f = await in_store(fortress, self.bot.store, interaction.channel_id or 0)
        image = await off_the_loop(interaction, render_fortress, f)
        await send_reply(interaction, fortress_reply(f, image))

    @siege.command(name="reset", description="End this channel's siege")
    async def reset(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is not None:  # in a server, the siege is the GM's to end (issue 8)
            (await in_store(actor, interaction, self.bot.store)).require_gm("reset the siege")
        n = await in_store(reset_siege, self.bot.store, interaction.channel_id or 0)
        f = await in_store(fortress, self.bot.store, interaction.channel_id or 0)
        image = await off_the_loop(interaction, render_fortress, f)
        await send_reply(interaction, fortress_reply(f, image, "siege reset", f"Siege reset: {plural(n, 'section')} forgotten."))

    @siege.command(name="oil", description="Boiling oil or rocks on an assaulting unit")
    @private_option
    @app_commands.describe(equipment="Under a sow or siege tower (3+ save)", **{**TARGET, "troop": "Troop type"})
    @app_commands.autocomplete(troop=troop_autocomplete, position=position_autocomplete)
    async def oil(
        self, interaction: discord.Interaction, armour: Range[int, 0, 6] = 0, equipment: bool = False,
        stands: Range[int, 1, MAX_STANDS] = 3, hits: Range[int, 1, MAX_HITS_PER_STAND] = 3, position: str = "open",
        troop: str = "infantry", dice: Optional[str] = None,
    ) -> None:
        target = unit("assaulting unit", stands=stands, hits=hits, armour=armour, position=position, troop=troop)
        result = await off_the_loop(interaction, lambda: pour_oil(DATA.oil, DATA.positions, target, new_dice(self.bot, dice),
                                                                  equipment=equipment))
        await send_reply(interaction, after_siege_roll(self.bot, interaction, oil_reply(result)))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SiegeCog(bot))
