"""``/odds``: the chances of any shot before it is taken.

``/odds shot:"fire cannon distance:30 ranks:5 files:6 toughness:3"`` reads the command line as
the console does (cogs/common/command_line.py), runs that command's own callback up to its engine
call (cogs/common/replies.py hands the call back instead of running it, :data:`pricing`), then
drives that call with every way the dice can fall (engine/odds/enumeration.py), or, where the
scatter die's direction can matter or the ways are too many, with seeded throws of the bot's own
dice. Nothing is rolled for real, logged or kept. ``compare:`` prices a second line beside it.

No ``from __future__ import annotations`` here: discord.py reads the option types from the
callbacks' annotations."""

import dataclasses
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Optional

import discord
from discord import app_commands
from discord.app_commands import Range
from discord.ext import commands

from cogs.common.buttons import PRICED_COMMANDS
from cogs.common.ledger import ANSWER_PRIVATELY_KEY
from cogs.common.command_line import CommandLineError, find_command, parse_options, split_line
from cogs.common.dice_source import odds_dice
from cogs.common.replies import Priced, off_the_loop, pricing, send_error, send_reply
from cogs.odds.words.odds import Odds, numbers, odds_reply, picture_of, tally
from engine.errors import RulesError
from engine.fantasy.shooting_sequence import crew_removed, read_crew
from engine.inputs import quote
from engine.warmaster import structure
from engine.wh40k import penetration
from engine.odds.enumeration import (
    BUDGET, SECONDS, EnumeratingDice, Leaf, TimeCut, TooMany, common_denominator, enumerate_outcomes, simulate,
)
from engine.odds.enumeration import ADDING_BUDGET, THROWS as ENGINE_THROWS, seed_of
from renders.odds.picture import render_odds

MAX_LINE = 400
THROWS = ENGINE_THROWS
"""Seeded throws for an estimate (engine/odds/enumeration.py: 4,000, a chance near one half known to
about ±0.8%; fewer within its dice budget), from a seed derived from the shot."""
PRICED = PRICED_COMMANDS
"""Top-level commands whose shots /odds prices (every command that resolves dice)."""
NOT_PRICED = {
    "siege army": "checks a list, with no dice", "siege fortress": "shows the siege, with no dice",
    "siege reset": "forgets the siege, with no dice",
}
DIRECTION_FREE = ("40k penetrate", "40k damage", "40k assault")
"""Commands whose named outcome never turns on a scatter die's direction (a wreck slews, but the
damage row is what the odds name): enumerated with each arrow taken straight on."""
POOLS = {"40k penetrate": penetration.POOLED, "siege structure": structure.POOLED}
"""Commands whose dice of these purposes the engine reads as a pool (highest, sum, successes), each
pool rolled once in the shot: enumerated as multisets (engine/odds/enumeration.py), the same exact
chances in fewer ways (a test compares them with every order counted)."""
KEPT = ("machine", "section")
"""Options that tie a shot to something the bot keeps (a roster machine, a siege section): the odds
of the shot itself are priced without them."""


def read_line(bot: commands.Bot, line: str) -> tuple[app_commands.Command, dict[str, Any], str]:
    """The command a line names and its options, checked as Discord checks them."""
    text = line.strip().lstrip("/")
    try:
        command, rest = find_command(bot.tree, split_line(text))
        kwargs = parse_options(command, rest)
    except CommandLineError as e:
        raise RulesError(f"Odds of '{quote(text, 60)}': {e}") from None
    name = command.qualified_name
    if name.split()[0] not in PRICED or name in NOT_PRICED:
        why = NOT_PRICED.get(name, "rolls no dice of a shot")
        raise RulesError(f"/{name} {why}, so it has no odds: give a command that rolls, e.g. "
                         "/odds shot:\"fire cannon distance:30\".")
    for option in KEPT:
        if kwargs.get(option) is not None:
            raise RulesError(f"/odds prices the shot, not the {option} the bot keeps: leave {option}: out "
                             + ("(give its tokens: with tokens:N)." if option == "section" else "(the crew's BS is bs:)."))
    kwargs.pop("private", None)
    shown = " ".join([name, *[f"{p.display_name}:{_shown(kwargs[p.name])}" for p in command.parameters if p.name in kwargs]])
    return command, kwargs, shown


def _shown(value: Any) -> str:
    text = str(value).lower() if isinstance(value, bool) else str(value)
    return f'"{text}"' if " " in text else text


async def procedure_of(command: app_commands.Command, interaction: discord.Interaction, kwargs: dict[str, Any]) -> Priced:
    """The command's engine call, built from the options by its own callback and caught before it
    runs (no dice are drawn, nothing is sent)."""
    token = pricing.set(True)
    try:
        if command.binding is not None:
            await command.callback(command.binding, interaction, **kwargs)
        else:
            await command.callback(interaction, **kwargs)
    except Priced as caught:
        return caught
    finally:
        pricing.reset(token)
    raise RulesError(f"/{command.qualified_name} answered without rolling a die: it has no odds.")


def driven(priced: Priced):
    """The caught engine call as a procedure of its dice: ``bot.new_dice()`` inside it hands out
    the dice given (:data:`odds_dice`)."""

    def run(dice):
        token = odds_dice.set(dice)
        try:
            return priced.work(*priced.args)
        finally:
            odds_dice.reset(token)

    return run


def price(priced: Priced, shown: str, directions: int | None = None, pools: frozenset[str] = frozenset()) -> Odds:
    """The odds of the caught engine call: exact when its dice can be enumerated (those of `pools`
    purposes as multisets), else estimated."""
    try:
        return exact(priced, shown, directions, pools)
    except TimeCut as e:  # the safety net, not the budget: the answer says so
        reason = str(e)
    except TooMany:
        reason = f"more than {BUDGET:,} ways the dice can fall"
    # a fixed number of throws from a seed derived from the shot: the same digits on any machine
    sample = simulate(driven(priced), runs=THROWS, seed=seed_of(shown))
    return tally(shown, ((None, r) for r in sample.results), ways=sample.runs, reason=reason,
                 seed=sample.seed, planned=sample.planned, cut=sample.cut)


@dataclass(frozen=True, slots=True)
class VolleyTotals:
    """What a whole volley came to, built from one shot's exact odds (:func:`volley_odds`)."""

    hits: int
    unsaved: int
    slain: int
    crew_lost: int | None = None
    """A war machine's crew removed, one per unsaved wound up to the crew (None: not a war machine)."""
    machine_destroyed: bool = False
    """Its last crewman fell: the machine is removed."""


def volley_odds(one: tuple[Leaf, ...], times: int, wounds: int, crew: int | None = None, *,
                seconds: float | None = SECONDS) -> list[tuple[Fraction, VolleyTotals]]:
    """The exact odds of `times` shots (or attacks) from those of one: each is rolled to hit, to
    wound and saved on its own (engine/fantasy/shooting_sequence.py, close_combat.py), so the
    volley's hits and unsaved wounds are one's added `times` times (a convolution), and the models
    slain are the unsaved wounds taken a model at a time, as the engine's records count them. At a
    war machine's ordinary crew (`crew`), the profile stands for the whole crew and does not change
    during the volley, so its shots are as independent, and the crew lost are the unsaved wounds
    up to the crew (engine/fantasy/shooting_sequence.py, ``crew_lost``).

    The adding up is in integers over one common denominator, under the same time bound as every
    price (`seconds` of this thread's time, engine/odds/enumeration.py): past it, :class:`TimeCut`
    (the caller estimates instead). It runs in the work pool, never on the event loop."""
    stop = None if seconds is None else time.thread_time() + seconds
    single: Counter = Counter()
    for leaf in one:
        counts = numbers(leaf.result)
        single[(counts.get("hits", 0), counts.get("unsaved", 0))] += leaf.chance
    common = common_denominator(list(single.values()))
    weights = [(h, u, p.numerator * (common // p.denominator)) for (h, u), p in single.items()]
    total: dict[tuple[int, int], int] = {(0, 0): 1}
    products = 0
    for _ in range(times):
        products += len(total) * len(weights)  # the work decided by the count, the same on every machine
        if products > ADDING_BUDGET:
            raise TooMany(f"more than {ADDING_BUDGET:,} products to add the volley up")
        step: dict[tuple[int, int], int] = defaultdict(int)
        for n, ((h, u), p) in enumerate(total.items()):
            for h1, u1, q in weights:
                step[(h + h1, u + u1)] += p * q
            if stop is not None and not n % 256 and time.thread_time() > stop:
                raise TimeCut(f"adding up the volley passed {seconds:g} s")
        total = step
    scale = common ** times

    def totals(h: int, u: int) -> VolleyTotals:
        if crew is None:
            return VolleyTotals(h, u, u // wounds)
        lost = crew_removed(crew, u)
        return VolleyTotals(h, u, u // wounds, lost, lost >= crew)

    return [(Fraction(w, scale), totals(h, u)) for (h, u), w in total.items()]


VOLLEYS = {"shoot": "shots", "combat attacks": "attacks"}
"""Commands whose shots or attacks are each resolved on their own, and the option that counts them."""
BONUS_ATTACKS = ("frenzy", "devastating_charge")
"""Options that add attacks: the volley is priced one plain attack at a time, as many as were made."""


def ordinary_crew(text: Any) -> int | None | bool:
    """A ``crew:`` option as the volley's odds need it: None when the target is no war machine, the
    number of crew when they are all ordinary crew, False for a mixed crew (each hit's allocation
    depends on who still stands, so its shots are not independent: estimated) or one the command
    will refuse (it says why when priced as a whole)."""
    if text is None:
        return None
    try:
        ordinary, characters = read_crew(str(text))
    except RulesError:
        return False
    return False if characters else ordinary


@dataclass(frozen=True)
class Plan:
    """How one line is priced, worked out on the event loop from its command's own callback (every
    option checked there, nothing priced yet): the whole shot's engine call, and for a volley one
    shot's (or one plain attack's) and, for ``/combat attacks``, the call that counts the attacks."""

    shown: str
    name: str
    whole: Priced
    one: Priced | None = None
    attacks: Priced | None = None
    count: int = 0
    wounds: int = 1
    crew: int | None = None


async def plan_of(interaction: discord.Interaction, command: app_commands.Command, kwargs: dict[str, Any],
                  shown: str) -> Plan:
    """A line's :class:`Plan`: its command's callback run up to its engine call, so a bad option is
    refused here, before any line is priced. A ``/shoot`` volley at a unit (not a mixed crew) and
    ``/combat attacks`` are planned as one shot or attack added up (not when dice are given: they
    are the volley's, in order)."""
    name = command.qualified_name
    whole = await procedure_of(command, interaction, kwargs)
    count = kwargs.get(VOLLEYS.get(name, ""), None)
    crew = ordinary_crew(kwargs.get("crew"))
    if not (isinstance(count, int) and count > 1 and crew is not False and kwargs.get("dice") is None):
        return Plan(shown, name, whole)
    one_kwargs = {**kwargs, VOLLEYS[name]: 1}
    if name == "combat attacks":  # the attacks made (Frenzy, Devastating Charge), then one plain attack
        one_kwargs.update({k: False for k in BONUS_ATTACKS})
    one = await procedure_of(command, interaction, one_kwargs)
    return Plan(shown, name, whole, one, whole if name == "combat attacks" else None, count,
                kwargs.get("wounds") or 1, crew)


def price_plan(plan: Plan) -> Odds:
    """The odds of a planned line, all of it in the work pool (the enumeration, the volley's
    adding up, the tally, the throws), each step under the time bound: a volley too big to add up
    in time is estimated from throws of the whole shot, as any shot past the budget is."""
    if plan.one is not None:
        try:
            made = driven(plan.attacks)(EnumeratingDice(())).attacks if plan.attacks is not None else plan.count
            leaves = enumerate_outcomes(driven(plan.one))
            profile = getattr(leaves[0].result, "profile", None)  # a war machine's: its crew as Wounds
            wounds = getattr(profile, "wounds", None) if plan.crew is not None else None
            weighted = volley_odds(leaves, made, wounds or plan.wounds, plan.crew)
            noun = "shot" if plan.name == "shoot" else "attack"
            return tally(plan.shown, weighted, ways=len(leaves), how=f"one {noun}'s {len(leaves)} ways, added up {made} times")
        except TooMany:
            pass
    free = 0 if plan.name in DIRECTION_FREE else None
    return price(plan.whole, plan.shown, free, POOLS.get(plan.name, frozenset()))


async def odds_of(interaction: discord.Interaction, command: app_commands.Command, kwargs: dict[str, Any],
                  shown: str) -> Odds:
    """The odds of the shot a command line describes (:func:`plan_of`, then :func:`priced_odds`)."""
    return await priced_odds(interaction, await plan_of(interaction, command, kwargs, shown))


async def priced_odds(interaction: discord.Interaction, plan: Plan) -> Odds:
    """A planned line priced: a small tree exactly on the loop (bounded: :data:`SMALL` ways and 5 ms,
    less than the hop to a thread costs), anything else in the work pool, from the start."""
    if plan.one is None:
        free = 0 if plan.name in DIRECTION_FREE else None
        small = price_small(plan.whole, plan.shown, free, POOLS.get(plan.name, frozenset()))
        if small is not None:
            return small
    return await off_the_loop(interaction, price_plan, plan)


SMALL = 128
"""Ways the dice can fall that are priced on the event loop itself (a millisecond or two, less than
the hop to a worker thread and back costs): a penetration, a structure test, a misfire chart."""


SMALL_SECONDS: float | None = 0.005
"""The loop's safety net for a small tree: past this much thread time (a slow procedure, a loaded
machine) it is handed to the work pool instead, to be priced there from the start (same answer)."""


def price_small(priced: Priced, shown: str, directions: int | None, pools: frozenset[str]) -> Odds | None:
    """The exact odds of a shot whose dice fall in at most :data:`SMALL` ways, or None (then
    :func:`price` runs off the loop, from the start)."""
    try:
        return exact(priced, shown, directions, pools, budget=SMALL, seconds=SMALL_SECONDS)
    except TooMany:
        return None


def exact(priced: Priced, shown: str, directions: int | None, pools: frozenset[str], *, budget: int = BUDGET,
          seconds: float | str = "default") -> Odds:
    """The exact odds of the caught engine call, every way its dice can fall counted (those of
    `pools` purposes as sets of faces, which the method line says); raises TooMany past `budget`
    ways or `seconds` of the engine's time."""
    leaves = enumerate_outcomes(driven(priced), budget=budget, directions=directions, pools=pools, seconds=seconds)
    how = f"{len(leaves):,} ways, dice read together counted as sets of faces" if pools else None
    return tally(shown, ((leaf.chance, leaf.result) for leaf in leaves), ways=len(leaves), how=how)


class OddsCog(commands.Cog):
    """The chances of a shot, before it is taken; and the "Odds" button on every result."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.price_shot = self.price_shot

    async def cog_unload(self) -> None:
        self.bot.price_shot = None

    async def price_shot(self, interaction: discord.Interaction, name: str, options: dict[str, Any]) -> None:
        """The "Odds" button: the result's command and options (not its dice) priced, answered to
        the presser alone."""
        line = " ".join([name, *[f"{k}:{_shown(v)}" for k, v in options.items() if v is not None]])
        interaction.extras[ANSWER_PRIVATELY_KEY] = True  # a defer on the way is private too
        try:
            odds = await odds_of(interaction, *read_line(self.bot, line))
        except RulesError as e:
            await send_error(interaction, str(e))
            return
        image = await off_the_loop(interaction, render_odds, picture_of(odds))
        await send_reply(interaction, dataclasses.replace(odds_reply(odds, image=image), private=True))

    @app_commands.command(name="odds", description="The chances of a shot before it is taken: give its command line")
    @app_commands.describe(
        shot='The shot as you would type it, e.g. "fire cannon distance:30 ranks:5 files:6 toughness:3"',
        compare='A second shot to price beside it, e.g. "fire stone-thrower distance:30 ranks:5 files:6"',
    )
    async def odds(self, interaction: discord.Interaction, shot: Range[str, 1, MAX_LINE],
                   compare: Optional[Range[str, 1, MAX_LINE]] = None) -> None:
        lines = [read_line(self.bot, line) for line in (shot, compare) if line is not None]  # both checked first
        plans = [await plan_of(interaction, *line) for line in lines]  # every option, by its own command
        results = [await priced_odds(interaction, plan) for plan in plans]
        image = await off_the_loop(interaction, render_odds, picture_of(*results))
        await send_reply(interaction, odds_reply(*results, image=image))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(OddsCog(bot))
