"""``/fire``: Warhammer Fantasy war machines. Thin: options in, engine call, embed and picture out.

No ``from __future__ import annotations`` here: discord.py reads the option types from the
callbacks' annotations, and the cannon callbacks' ranges come from the profile at definition time.
"""

import difflib
from typing import Optional

import discord
from discord import app_commands
from discord.app_commands import Choice, Range
from discord.ext import commands

from cogs.fantasy.words.bolt_thrower import bolt_thrower_reply
from cogs.fantasy.words.cannon import cannon_reply
from cogs.common.choices import offer
from cogs.common.dice_source import private_option
from cogs.fantasy.words.fire_thrower import fire_thrower_reply
from cogs.fantasy.words.grapeshot import grapeshot_reply
from cogs.campaign.machines import Aim, aimed_bs, shot_recorded, take_aim
from cogs.campaign import machines
from cogs.fantasy.words.misfire import misfire_reply
from cogs.common.replies import off_the_loop, send_reply, shot_answered
from cogs.common.target import target_option
from cogs.fantasy.words.stone_thrower import stone_thrower_reply
from config.gamedata import fantasy
from engine.dice import Dice, EnteredDice
from engine.fantasy.bolt_thrower import fire_bolt_thrower
from engine.fantasy.cannon import fire_cannon
from engine.errors import RulesError
from engine.fantasy.formation import BASE_WIDTHS, MAX_BASE_DEPTH, MAX_FILES, MAX_RANKS, MIN_BASE_DEPTH, Facing, TargetUnit
from engine.fantasy.fire_thrower import MAX_DISTANCE as FLAME_DISTANCE, fire_fire_thrower
from engine.fantasy.grapeshot import fire_grapeshot
from engine.fantasy.misfire import consult_misfire_chart
from engine.fantasy.profiles import TroopType
from engine.fantasy.special_rules import TargetRules
from engine.fantasy.shooting import MAX_MODIFIER, Cover
from engine.fantasy.stone_thrower import MAX_BS, fire_stone_thrower
from engine.fantasy.wounding import MAX_TOUGHNESS, MAX_WOUNDS, Profile
from renders.fantasy.bolt_thrower import render_bolt_thrower
from renders.fantasy.cannon import render_cannon
from renders.fantasy.fire_thrower import render_fire_thrower
from renders.fantasy.stone_thrower import render_stone_thrower

DATA = fantasy()
STONE = DATA.stone_throwers["stone-thrower"]
BOLT = DATA.bolt_throwers["bolt-thrower"]
FLAMER = DATA.fire_throwers["fire-thrower"]
MISFIRE_CHARTS = {"blackpowder": "black-powder", "stonethrower": "stone-thrower"}
"""The /misfire choices (as players type them) and the charts they name."""

COVER_CHOICES = [Choice(name=c.value, value=c.value) for c in Cover]
FACINGS = tuple(f.value for f in Facing)
"""The sides a unit may turn toward the shot, offered by autocomplete (cogs/common/choices.py): as
choices they would cost every /fire command 28 of its schema characters."""

TARGET_OPTIONS = dict(
    ranks="Ranks (default 4)",
    files="Files (default 5)",
    troop="Troop type",
    base="Base width, mm",
    depth="Base depth, mm",
    facing="Side facing shot",
    toughness="T: bot rolls wounds",
    wounds="Wounds each",
    save="Armour save, 4=4+",
    ward="Ward save, 5=5+",
    aim_rank="Aim at rank, 1=front",
    aim_file="Aim at file, 1=left",
    dice='Your dice, e.g. "H 4 8"',
)
"""The target options every /fire command shares, described tersely: Discord counts every
description towards a command's 4,000 characters, and /fire keeps a quarter of them spare
(tests/e2e/test_limits_e2e.py). README's "Options" explains them at length."""


DODGE = "Dodge n+ (front arc)"
"""The target's Dodge, as /shoot and /breath take it: a ward save against the shot when the
machine is in the models' front arc (seed 003:94, templates included)."""
FLAME_IMMUNITIES = ("flaming", "panic", "psychology")
"""What a fire thrower's target may be Immune to that the shot cares about (seed 000:144, 003:246-250)."""
FLAME_IMMUNE = "Immune: flaming, panic, psychology"
BALL_IMMUNITIES = ("multiple-wounds",)
"""What a cannon's or stone thrower's target may be Immune to that the shot carries (seed 000, 003:246)."""
BOLT_IMMUNITIES = ("multiple-wounds", "armour-piercing")
"""What a bolt thrower's target may be Immune to that the bolt carries (seed 000:42, 003:246)."""
ETHEREAL = "Ethereal"
"""A war machine's shot is mundane: an Ethereal target has its 2+ ward save (seed 003:101)."""
ROSTER = "Roster machine"
BS = "Crew's best BS, needed, e.g. 3"


def read_immunities(text: str | None, allowed: tuple[str, ...]) -> tuple[str, ...]:
    """The `immune` option: the rules the target is Immune to, by name ("flaming killing-blow");
    "frenzy" reads as psychology (a Frenzied unit has Immunity (Psychology), seed 003:190) where
    psychology is one of `allowed`. Any other name is refused with the list."""
    if not text:
        return ()
    words = text.lower().replace(",", " ").replace("killing blow", "killing-blow").replace("multiple wounds", "multiple-wounds")
    words = words.replace("armour piercing", "armour-piercing").replace("flaming attacks", "flaming").split()
    if "psychology" in allowed:
        words = ["psychology" if w in ("frenzy", "frenzied") else w for w in words]
    bad = [w for w in words if w not in allowed]
    if bad:
        raise RulesError(f"immune: '{' '.join(bad)}' is not one of {', '.join(allowed)}"
                         + (" (frenzy counts as psychology)." if "psychology" in allowed else "."))
    return tuple(dict.fromkeys(words))


facing_autocomplete = offer(FACINGS)
base_autocomplete = offer(BASE_WIDTHS)
"""The base widths there are (the engine refuses any other with the list)."""


def facing_of(facing: str) -> Facing:
    """The facing a user named; refused with the three there are."""
    try:
        return Facing(facing.strip().lower())
    except ValueError:
        raise RulesError(f"facing: '{facing}' is not one of the choices: {', '.join(FACINGS)}.") from None


async def troop_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """Troop types matching what the user has typed so far (an autocomplete keeps the /fire
    group's schema inside Discord's 4000 characters, where ten choices per command would not)."""
    typed = current.strip().lower()
    found = [t for t in DATA.troops.values() if typed in t.name or typed in t.key] or list(DATA.troops.values())
    return [Choice(name=t.name, value=t.key) for t in found][:25]


def troop_type(troop: str) -> TroopType:
    """The troop type a user named, by key ("monstrous-infantry") or name ("monstrous infantry")."""
    wanted = troop.strip().lower()
    for t in DATA.troops.values():
        if wanted in (t.key, t.name, t.name.rstrip("s")):
            return t
    close = difflib.get_close_matches(wanted, [t.key for t in DATA.troops.values()], n=1)
    hint = f" Did you mean {close[0]}?" if close else ""
    raise RulesError(f"Troop type '{troop}' is not one we know: {', '.join(DATA.troops)}.{hint}")


def target_profile(toughness: int | None, wounds: int | None, save: int | None, ward: int | None) -> Profile | None:
    """The target's profile from the command's options; None when no toughness was given."""
    if toughness is None and (wounds, save, ward) != (None, None, None):
        given = ", ".join(n for n, v in (("wounds", wounds), ("save", save), ("ward", ward)) if v is not None)
        raise RulesError(f"You gave {given} without toughness: add toughness to have the bot resolve wounds, or leave the profile out.")
    return None if toughness is None else Profile(toughness, wounds or 1, save, ward)


def target_unit(
    *, ranks: int, files: int, troop: str, base: int | None, depth: int | None, facing: str,
    toughness: int | None, wounds: int | None, save: int | None, ward: int | None,
) -> TargetUnit:
    """The target unit from the command's options (shared by every Fantasy war machine)."""
    kind = troop_type(troop)
    profile = target_profile(toughness, wounds, save, ward)
    if base is None:
        width, default_depth = kind.base_width, kind.base_depth
    else:
        width = base
        default_depth = base * kind.base_depth // kind.base_width
    return TargetUnit(
        ranks=ranks, files=files, troop=kind, base_width=width, base_depth=depth or default_depth,
        facing=facing_of(facing), profile=profile,
    )


def needs_bs(command: str, bs: int | None) -> int:
    """The crew's Ballistic Skill, typed or stored with the machine; refused when neither."""
    if bs is None:
        example = {"bolt-thrower": "distance:20 bs:3", "grapeshot": "distance:6 bs:3"}.get(command, "distance:20 bs:3")
        raise RulesError(f"/fire {command} needs bs, the crew's best Ballistic Skill (or a machine: whose BS is on the "
                         f"roster), e.g. /fire {command} {example}")
    return bs


async def fired(interaction: discord.Interaction, engine, render, words, *, bot, aim: Aim | None):
    """A /fire shot and its answer in one job (``replies.shot_answered``), the roster machine's state
    after it recorded there too (`aim`: :func:`shot_recorded`)."""
    return await shot_answered(interaction, engine, render, words,
                               after=lambda shot, reply: shot_recorded(bot, aim, shot, reply))


def _dice(bot, entered: str | None) -> Dice:
    """The bot's dice for one command, behind the players' own when they gave some."""
    source = bot.new_dice()
    return EnteredDice(entered, source) if entered else source


def _cannon_command(key: str):
    """The callback of ``/fire <cannon kind>``: one definition for every cannon profile."""
    weapon = DATA.cannons[key]
    chart = DATA.misfire_charts[weapon.misfire_chart]

    @target_option("fantasy", into="troop", hint=False, immune=BALL_IMMUNITIES)
    @private_option
    @app_commands.describe(distance="Inches to marker",
                           machine=ROSTER, dodge=DODGE, ethereal=ETHEREAL, immune=f"Immune: {BALL_IMMUNITIES[0]}",
                           **TARGET_OPTIONS)
    @app_commands.autocomplete(troop=troop_autocomplete, facing=facing_autocomplete, base=base_autocomplete, machine=machines.autocomplete(key))
    async def fire(
        self,
        interaction: discord.Interaction,
        distance: Range[float, weapon.min_range, weapon.max_range],
        ranks: Range[int, 1, MAX_RANKS] = 4,
        files: Range[int, 1, MAX_FILES] = 5,
        troop: str = "infantry",
        base: Optional[Range[int, BASE_WIDTHS[0], BASE_WIDTHS[-1]]] = None,
        depth: Optional[Range[int, MIN_BASE_DEPTH, MAX_BASE_DEPTH]] = None,
        facing: str = Facing.FRONT.value,
        toughness: Optional[Range[int, 1, MAX_TOUGHNESS]] = None,
        wounds: Optional[Range[int, 1, MAX_WOUNDS]] = None,
        save: Optional[Range[int, 1, 6]] = None,
        ward: Optional[Range[int, 2, 6]] = None,
        aim_rank: Optional[Range[int, 1, MAX_RANKS]] = None,
        aim_file: Optional[Range[int, 1, MAX_FILES]] = None,
        dodge: Optional[Range[int, 2, 6]] = None,
        ethereal: bool = False,
        immune: Optional[str] = None,
        dice: Optional[str] = None,
        machine: Optional[str] = None,
    ) -> None:
        unit = target_unit(
            ranks=ranks, files=files, troop=troop, base=base, depth=depth, facing=facing,
            toughness=toughness, wounds=wounds, save=save, ward=ward,
        )
        rules = TargetRules(dodge=dodge, ethereal=ethereal, immune=read_immunities(immune, BALL_IMMUNITIES))
        aim = await take_aim(self.bot, interaction, key, machine)
        shot, reply = await fired(interaction, lambda: fire_cannon(weapon, chart, unit, distance, _dice(self.bot, dice), aim_rank=aim_rank,
                                                                   aim_file=aim_file, target_rules=rules),
                                  render_cannon, cannon_reply, bot=self.bot, aim=aim)
        await send_reply(interaction, reply)

    # discord.py tells a method from a plain function by its qualified name; this one is bound
    # to FireCog, so it must read as FireCog's.
    fire.__qualname__ = f"FireCog.{key.replace('-', '_')}"
    return fire


class FireCog(commands.Cog):
    """Warhammer Fantasy war machines."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    fire = app_commands.Group(name="fire", description="Fire a Warhammer Fantasy war machine")

    cannon = fire.command(
        name="cannon",
        description="Cannon (12-48\", S10): scatter, bounce, hits",
    )(_cannon_command("cannon"))
    great_cannon = fire.command(
        name="great-cannon",
        description="Great cannon (12-60\", S10, D6 wounds)",
    )(_cannon_command("great-cannon"))

    @fire.command(name="stone-thrower", description="Stone thrower (12-60\", 3\" template, S10 centre, S4)")
    @target_option("fantasy", into="troop", hint=False, immune=BALL_IMMUNITIES)
    @private_option
    @app_commands.describe(
        distance="Inches to the target",
        bs="Crew's best BS (indirect)",
        indirect="Fire indirectly", machine=ROSTER, dodge=DODGE, ethereal=ETHEREAL, immune=f"Immune: {BALL_IMMUNITIES[0]}",
        **{**TARGET_OPTIONS, "dice": 'Your dice, e.g. "H 4" (H@90 indirect)'},
    )
    @app_commands.autocomplete(troop=troop_autocomplete, facing=facing_autocomplete, base=base_autocomplete, machine=machines.autocomplete("stone-thrower"))
    async def stone_thrower(
        self,
        interaction: discord.Interaction,
        distance: Range[float, STONE.min_range, STONE.max_range],
        ranks: Range[int, 1, MAX_RANKS] = 4,
        files: Range[int, 1, MAX_FILES] = 5,
        troop: str = "infantry",
        base: Optional[Range[int, BASE_WIDTHS[0], BASE_WIDTHS[-1]]] = None,
        depth: Optional[Range[int, MIN_BASE_DEPTH, MAX_BASE_DEPTH]] = None,
        facing: str = Facing.FRONT.value,
        toughness: Optional[Range[int, 1, MAX_TOUGHNESS]] = None,
        wounds: Optional[Range[int, 1, MAX_WOUNDS]] = None,
        save: Optional[Range[int, 1, 6]] = None,
        ward: Optional[Range[int, 2, 6]] = None,
        aim_rank: Optional[Range[int, 1, MAX_RANKS]] = None,
        aim_file: Optional[Range[int, 1, MAX_FILES]] = None,
        bs: Optional[Range[int, 0, MAX_BS]] = None,
        indirect: bool = False,
        dodge: Optional[Range[int, 2, 6]] = None,
        ethereal: bool = False,
        immune: Optional[str] = None,
        dice: Optional[str] = None,
        machine: Optional[str] = None,
    ) -> None:
        unit = target_unit(
            ranks=ranks, files=files, troop=troop, base=base, depth=depth, facing=facing,
            toughness=toughness, wounds=wounds, save=save, ward=ward,
        )
        rules = TargetRules(dodge=dodge, ethereal=ethereal, immune=read_immunities(immune, BALL_IMMUNITIES))
        aim = await take_aim(self.bot, interaction, "stone-thrower", machine)
        shot, reply = await fired(interaction, lambda: fire_stone_thrower(
            STONE, DATA.misfire_charts[STONE.misfire_chart], unit, distance, _dice(self.bot, dice),
            indirect=indirect, ballistic_skill=aimed_bs(aim, bs), aim_rank=aim_rank, aim_file=aim_file,
            target_rules=rules,
        ), render_stone_thrower, stone_thrower_reply, bot=self.bot, aim=aim)
        await send_reply(interaction, reply)

    @fire.command(name="grapeshot", description="Grapeshot (12\", S5, AP1): artillery + D6 shots")
    @target_option("fantasy")
    @private_option
    @app_commands.describe(
        distance="Inches to the target",
        bs=BS, cover="Target's cover", modifier="Other to-hit modifiers",
        toughness=TARGET_OPTIONS["toughness"], wounds=TARGET_OPTIONS["wounds"],
        save=TARGET_OPTIONS["save"], ward=TARGET_OPTIONS["ward"], ethereal=ETHEREAL,
        dice='Your dice: artillery, D6, to hit', machine=ROSTER,
    )
    @app_commands.choices(cover=COVER_CHOICES)
    @app_commands.autocomplete(machine=machines.autocomplete("grapeshot"))
    async def grapeshot(
        self,
        interaction: discord.Interaction,
        distance: Range[float, 0.1, float(DATA.grapeshot.range)],
        bs: Optional[Range[int, 1, 10]] = None,
        cover: str = Cover.NONE.value,
        modifier: Range[int, -MAX_MODIFIER, MAX_MODIFIER] = 0,
        toughness: Optional[Range[int, 1, MAX_TOUGHNESS]] = None,
        wounds: Optional[Range[int, 1, MAX_WOUNDS]] = None,
        save: Optional[Range[int, 1, 6]] = None,
        ward: Optional[Range[int, 2, 6]] = None,
        ethereal: bool = False,
        dice: Optional[str] = None,
        machine: Optional[str] = None,
    ) -> None:
        g = DATA.grapeshot
        aim = await take_aim(self.bot, interaction, "grapeshot", machine)
        shot, reply = await fired(interaction, lambda: fire_grapeshot(
            g, DATA.misfire_charts[g.misfire_chart], DATA.to_hit_penalties, distance, _dice(self.bot, dice),
            ballistic_skill=needs_bs("grapeshot", aimed_bs(aim, bs)), cover=Cover(cover), modifier=modifier,
            profile=target_profile(toughness, wounds, save, ward), target_rules=TargetRules(ethereal=ethereal),
        ), None, lambda shot, _: grapeshot_reply(shot), bot=self.bot, aim=aim)
        await send_reply(interaction, reply)

    @fire.command(name="bolt-thrower", description="Bolt thrower (48\", S6, D3 wounds, AP1)")
    @target_option("fantasy", into="troop", hint=False, immune=BOLT_IMMUNITIES)
    @private_option
    @app_commands.describe(
        distance="Inches to the target", bs=BS,
        cover="Target's cover", modifier="Other to-hit modifiers", ethereal=ETHEREAL, immune=f"Immune: {', '.join(BOLT_IMMUNITIES)}",
        machine=ROSTER, **{k: v for k, v in TARGET_OPTIONS.items() if not k.startswith("aim") and k != "dice"},
        dice='Your dice, to hit first',
    )
    @app_commands.choices(cover=COVER_CHOICES)
    @app_commands.autocomplete(troop=troop_autocomplete, facing=facing_autocomplete, base=base_autocomplete, machine=machines.autocomplete("bolt-thrower"))
    async def bolt_thrower(
        self,
        interaction: discord.Interaction,
        distance: Range[float, 0.1, float(BOLT.range)],
        bs: Optional[Range[int, 1, 10]] = None,
        cover: str = Cover.NONE.value,
        modifier: Range[int, -MAX_MODIFIER, MAX_MODIFIER] = 0,
        ranks: Range[int, 1, MAX_RANKS] = 4,
        files: Range[int, 1, MAX_FILES] = 5,
        troop: str = "infantry",
        base: Optional[Range[int, BASE_WIDTHS[0], BASE_WIDTHS[-1]]] = None,
        depth: Optional[Range[int, MIN_BASE_DEPTH, MAX_BASE_DEPTH]] = None,
        facing: str = Facing.FRONT.value,
        toughness: Optional[Range[int, 1, MAX_TOUGHNESS]] = None,
        wounds: Optional[Range[int, 1, MAX_WOUNDS]] = None,
        save: Optional[Range[int, 1, 6]] = None,
        ward: Optional[Range[int, 2, 6]] = None,
        ethereal: bool = False,
        immune: Optional[str] = None,
        dice: Optional[str] = None,
        machine: Optional[str] = None,
    ) -> None:
        unit = target_unit(
            ranks=ranks, files=files, troop=troop, base=base, depth=depth, facing=facing,
            toughness=toughness, wounds=wounds, save=save, ward=ward,
        )
        rules = TargetRules(ethereal=ethereal, immune=read_immunities(immune, BOLT_IMMUNITIES))
        aim = await take_aim(self.bot, interaction, "bolt-thrower", machine)
        shot, reply = await fired(interaction, lambda: fire_bolt_thrower(BOLT, DATA.to_hit_penalties, unit, distance, _dice(self.bot, dice),
                                  ballistic_skill=needs_bs("bolt-thrower", aimed_bs(aim, bs)), cover=Cover(cover),
                                  modifier=modifier, target_rules=rules), render_bolt_thrower, bolt_thrower_reply, bot=self.bot, aim=aim)
        await send_reply(interaction, reply)

    @fire.command(name="fire-thrower", description="Fire thrower: flame template, S5, flaming")
    @target_option("fantasy", into="troop", hint=False, immune=FLAME_IMMUNITIES)
    @private_option
    @app_commands.describe(
        distance="Inches to target model",
        start="Narrow end's distance, if ranged",
        leadership="Target's Ld: bot rolls Panic",
        flammable="Target is Flammable", machine=ROSTER, dodge=DODGE, immune=FLAME_IMMUNE, ethereal=ETHEREAL,
        **{k: v for k, v in TARGET_OPTIONS.items() if not k.startswith("aim") and k != "dice"},
        dice='Your dice: flame distance first',
    )
    @app_commands.autocomplete(troop=troop_autocomplete, facing=facing_autocomplete, base=base_autocomplete, machine=machines.autocomplete("fire-thrower"))
    async def fire_thrower(
        self,
        interaction: discord.Interaction,
        distance: Range[float, 0.5, float(FLAME_DISTANCE)],
        ranks: Range[int, 1, MAX_RANKS] = 4,
        files: Range[int, 1, MAX_FILES] = 5,
        troop: str = "infantry",
        base: Optional[Range[int, BASE_WIDTHS[0], BASE_WIDTHS[-1]]] = None,
        depth: Optional[Range[int, MIN_BASE_DEPTH, MAX_BASE_DEPTH]] = None,
        facing: str = Facing.FRONT.value,
        toughness: Optional[Range[int, 1, MAX_TOUGHNESS]] = None,
        wounds: Optional[Range[int, 1, MAX_WOUNDS]] = None,
        save: Optional[Range[int, 1, 6]] = None,
        ward: Optional[Range[int, 2, 6]] = None,
        leadership: Optional[Range[int, 1, 10]] = None,
        flammable: bool = False,
        start: Range[float, 0.0, float(FLAME_DISTANCE)] = 0.0,
        dodge: Optional[Range[int, 2, 6]] = None,
        immune: Optional[str] = None,
        ethereal: bool = False,
        dice: Optional[str] = None,
        machine: Optional[str] = None,
    ) -> None:
        unit = target_unit(
            ranks=ranks, files=files, troop=troop, base=base, depth=depth, facing=facing,
            toughness=toughness, wounds=wounds, save=save, ward=ward,
        )
        rules = TargetRules(dodge=dodge, ethereal=ethereal, immune=read_immunities(immune, FLAME_IMMUNITIES))
        aim = await take_aim(self.bot, interaction, "fire-thrower", machine)
        # A start beyond the barrel is the players' reading of their fire thrower's range value.
        shot, reply = await fired(interaction, lambda: fire_fire_thrower(
            FLAMER, DATA.misfire_charts[FLAMER.misfire_chart], DATA.flaming_attacks, unit, distance, _dice(self.bot, dice),
            range=start or None, start=start, flammable=flammable, leadership=leadership, target_rules=rules,
        ), render_fire_thrower, fire_thrower_reply, bot=self.bot, aim=aim)
        await send_reply(interaction, reply)

    @app_commands.command(name="misfire", description="Roll (or enter) a war machine misfire chart on its own")
    @private_option
    @app_commands.describe(chart="Which chart: black powder (cannons, grapeshot, fire throwers) or stone thrower",
                           dice="The D6 you rolled for the chart, e.g. 3")
    @app_commands.choices(chart=[
        Choice(name="Black Powder Misfire Chart", value="blackpowder"),
        Choice(name="Stone Thrower Misfire Chart", value="stonethrower"),
    ])
    async def misfire(self, interaction: discord.Interaction, chart: str, dice: Optional[str] = None) -> None:
        result = await off_the_loop(interaction, lambda: consult_misfire_chart(_dice(self.bot, dice), DATA.misfire_charts[MISFIRE_CHARTS[chart]]))
        await send_reply(interaction, misfire_reply(result, chart))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(FireCog(bot))
