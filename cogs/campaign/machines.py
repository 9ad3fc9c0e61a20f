"""War machines from the roster behind ``/fire <kind> machine:<name>``.

The fire callbacks take the machine before the engine call and hand it to the shot's job:

    aim = await take_aim(self.bot, interaction, "cannon", machine)   # None without machine:
    shot, reply = await fired(interaction, lambda: fire_cannon(...), render_cannon, cannon_reply,
                              bot=self.bot, aim=aim)                  # bs=aimed_bs(aim, bs)
    await send_reply(interaction, reply)

``fired`` (cogs/fantasy/fire.py) calls :func:`shot_recorded` in the shot's own job, after its words
(state, shot log, a reply field), and keeps the reply there.

:func:`take_aim` refuses (ephemerally, through the RulesError path) a machine that is not the
caller's, is of another kind, is destroyed, or cannot fire until a later turn, or when no battle is
in progress in the channel. :func:`shot_recorded` applies the misfire chart's outcome to the machine
and logs the shot, in the same transaction as the roll's log entry, reading the machine again (a
shot that raced another one which silenced or destroyed it is refused then, and nothing is logged).
"""

import re
from dataclasses import dataclass
from typing import Any

import discord
from discord.app_commands import Choice

from cogs.common.access import Actor, PermissionRefused, actor, in_store
from cogs.campaign.words import PRIVATE_OUTCOME
from cogs.common.dice_source import serving
from cogs.common.from_list import as_text
from cogs.common.ledger import is_private
from cogs.common.replies import Reply
from engine.errors import RulesError
from engine.fantasy.profiles import MisfireOutcome
from storage import campaigns
from storage.campaigns import PRIVATE_REASON, Battle, Effect, Machine
from engine.roster import Unit, is_war_machine, target_values, value_of


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of war machine a roster can hold."""

    key: str
    name: str
    game: str
    crew: int
    """Default crew when the owner gives none."""


KINDS = {k.key: k for k in (
    Kind("cannon", "Cannon", "fantasy", 3),
    Kind("great-cannon", "Great Cannon", "fantasy", 3),
    Kind("stone-thrower", "Stone Thrower", "fantasy", 3),
    Kind("bolt-thrower", "Bolt Thrower", "fantasy", 2),
    Kind("fire-thrower", "Fire Thrower", "fantasy", 3),
    Kind("wm-artillery", "Warmaster artillery", "warmaster", 2),
    Kind("40k-vehicle", "40k vehicle", "40k", 1),
)}
"""Roster kinds. Default crews are our choice (the rulebook leaves crews to the army lists; the
bolt thrower's two is the book's minimum to wind it). A Warmaster artillery or machine unit's
"crew" is its stands; a 40k vehicle is its own one crew. Only the Fantasy kinds fire with
``/fire ... machine:``; the others are kept on the roster and in the battle's report."""

UNIT_KINDS = (
    ("fire-thrower", re.compile(r"fire ?thrower|warpfire|flame cannon", re.I)),
    ("great-cannon", re.compile(r"great\s*cannon", re.I)),
    ("cannon", re.compile(r"cannon|bombard", re.I)),
    ("stone-thrower", re.compile(r"stone thrower|rock lobb|catapult|trebuchet|mortar|screaming skull|plagueclaw|"
                                 r"doom diver|grudge thrower", re.I)),
    ("bolt-thrower", re.compile(r"bolt thrower|spear chukka|ballista|repeater|skull ?cracker|reaper", re.I)),
)
"""A Fantasy list's war machine by its name, for the roster kind whose procedure it fires with."""


def from_unit(unit: Unit, game: str | None) -> tuple[str, int | None, int | None]:
    """(kind, crew, BS) for a war machine of an army list; crew and BS None where the list does not
    give them (the kind's default crew is used; BS is typed when the machine fires)."""
    if not is_war_machine(unit):
        raise RulesError(f"{as_text(unit.label)} is not a war machine in its list: /machine add from: takes a war machine, "
                         "Warmaster artillery or a 40k vehicle.")
    bs = max((b for p in unit.profiles if (b := value_of(p.get("BS", "Ballistic Skill"))) is not None), default=None)
    if game == "warmaster":
        stands = target_values(unit, "warmaster").get("stands")
        return "wm-artillery", stands, None
    if game == "wh40k":
        return "40k-vehicle", 1, bs
    names = (unit.name, unit.label, *(p.name for p in unit.profiles))  # a machine named "Old Betsy" has a Great Cannon profile
    for kind, pattern in UNIT_KINDS:
        if any(pattern.search(n) for n in names):
            return kind, None, bs  # a list names the crew's profile, not how many: the kind's default crew
    raise RulesError(f"{as_text(unit.label)}: the bot does not know which war machine this is: give kind: too "
                     f"({', '.join(k for k, v in KINDS.items() if v.game == 'fantasy')}).")

FIRES_WITH = {
    "cannon": ("cannon",),
    "great-cannon": ("great-cannon",),
    "stone-thrower": ("stone-thrower",),
    "bolt-thrower": ("bolt-thrower",),
    "fire-thrower": ("fire-thrower",),
    "grapeshot": ("cannon", "great-cannon"),
}
"""Which roster kinds each ``/fire`` subcommand can fire: grapeshot is a cannon's load."""

MACHINE_OPTION = "Your roster machine"
"""The ``machine:`` option's description, short for /fire's 4000 characters."""


@dataclass(frozen=True, slots=True)
class Aim:
    """A roster machine cleared to fire in this channel's battle."""

    actor: Actor
    battle: Battle
    machine: Machine
    command: str


def autocomplete(command: str):
    """The ``machine:`` autocomplete of ``/fire <command>``: the caller's machines that can fire it,
    ready ones first, each with its state."""
    kinds = FIRES_WITH[command]

    def choices(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        store = interaction.client.store
        battle = campaigns.current_battle(store, interaction.guild_id, interaction.channel_id or 0)
        typed = current.strip().lower()
        found = [m for m in campaigns.machines(store, interaction.guild_id, owner_id=interaction.user.id, kinds=kinds)
                 if typed in m.name.lower()]
        found.sort(key=lambda m: m.status(battle) != "ready")
        return [Choice(name=f"{m.name} ({m.status(battle)})"[:100], value=m.name) for m in found][:25]

    async def complete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return [] if interaction.guild_id is None else await in_store(choices, interaction, current)

    return complete


def owned_autocomplete(*, anyone_for_gm: bool = True):
    """Autocomplete of ``/machine remove|repair``: the caller's machines (a GM sees all)."""

    def choices(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        store = interaction.client.store
        who = actor(interaction, store)
        owner = None if (anyone_for_gm and who.gm) else who.user_id
        typed = current.strip().lower()
        found = [m for m in campaigns.machines(store, who.guild_id, owner_id=owner) if typed in m.name.lower()]
        return [Choice(name=f"{m.name} ({m.kind}, {m.status()})"[:100], value=m.name) for m in found][:25]

    async def complete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return [] if interaction.guild_id is None else await in_store(choices, interaction, current)

    return complete


def _check(store, who: Actor, command: str, name: str) -> Aim:
    machine = campaigns.get_machine(store, who.guild_id, name)
    if machine.owner_id != who.user_id:
        raise PermissionRefused(f"{machine.name} belongs to <@{machine.owner_id}>: you can fire only your own war machines.")
    if machine.kind not in FIRES_WITH[command]:
        fits = " or ".join(KINDS[k].name.lower() for k in FIRES_WITH[command])
        raise RulesError(f"{machine.name} is a {KINDS[machine.kind].name.lower() if machine.kind in KINDS else machine.kind}; "
                         f"/fire {command} needs a {fits}.")
    battle = campaigns.current_battle(store, who.guild_id, who.channel_id)
    if battle is None:
        raise RulesError(f"{machine.name} fires in a battle: start one in this channel with /battle start "
                         "(or leave machine: out to fire without a roster).")
    if who.user_id not in battle.players:
        raise PermissionRefused(campaigns.NOT_A_PLAYER)
    why = campaigns.refusal(machine, battle)
    if why:
        raise RulesError(why)
    return Aim(who, battle, machine, command)


async def take_aim(bot, interaction: discord.Interaction, command: str, name: str | None) -> Aim | None:
    """The roster machine `name` cleared to fire ``/fire <command>`` now, or None without one."""
    if name is None:
        return None
    return await in_store(lambda: _check(bot.store, actor(interaction, bot.store), command, name))


def aimed_bs(aim: Aim | None, bs: int | None) -> int | None:
    """The Ballistic Skill to use: the one typed, else the machine's stored one."""
    return bs if bs is not None or aim is None else aim.machine.bs


def effect_of(shot: Any) -> Effect:
    """What the shot's misfire (if any) does to the machine, from the chart row."""
    misfire = getattr(shot, "misfire", None)
    if misfire is None:
        return Effect()
    row = misfire.row
    return Effect(
        destroyed=row.outcome is MisfireOutcome.DESTROYED, silent_turns=row.silent_turns, wounds=row.wounds,
        reason=f"{row.title.rstrip('!')}, {misfire.chart.name} {misfire.roll.face}",
    )


def hits_of(shot: Any) -> int:
    """Models certainly hit (grapeshot: shots that hit; hits that depend on the players' wound rolls
    are left out)."""
    volley = getattr(shot, "volley", None)
    if volley is not None:
        return volley.hits
    return sum(1 for h in getattr(shot, "hits", ()) if not getattr(h, "conditional", False))


def shot_outcome(reply: Reply) -> str:
    """The outcome the battle keeps for a shot: the reply's first line, or for a private roll
    (``private:true``) only that it was one (cogs/campaign/words.py, PRIVATE_OUTCOME)."""
    interaction = serving.get()
    if interaction is not None and is_private(interaction):
        return PRIVATE_OUTCOME
    return reply.summary[0] if reply.summary else ""


def shot_recorded(bot, aim: Aim | None, shot: Any, reply: Reply) -> None:
    """Record the shot against the machine and the battle, and show the machine's state after it:
    handed to the reply as the change to commit with its roll log entry (one transaction), in the
    shot's own job (a work lane's thread, before the reply is kept: cogs/fantasy/fire.py ``fired``)."""
    if aim is None:
        return
    misfire = getattr(shot, "misfire", None)
    if misfire is not None and misfire.awaits_roll:  # not over yet: recorded once the chart is rolled
        reply.embed.add_field(name="War machine", value=f"**{aim.machine.name}**: its state waits for the misfire chart roll",
                              inline=False)
        reply.fields["machine"] = {"name": aim.machine.name, "kind": aim.machine.kind, "status": "awaiting chart roll",
                                   "battle": aim.battle.id}
        return
    outcome = shot_outcome(reply)
    private = outcome == PRIVATE_OUTCOME
    effect = effect_of(shot)

    def commit() -> None:
        # Runs in the transaction that appends the roll's log entry (cogs/common/ledger.py).
        machine, logged = campaigns.record_shot(
            bot.store, aim.actor.guild_id, aim.battle.id, aim.machine.id,
            user_id=aim.actor.user_id, kind=aim.command, fired=bool(getattr(shot, "fired", True)),
            hits=hits_of(shot), outcome=outcome, effect=effect, private=private,
        )
        state = logged.state_after
        if private and effect.reason and f"({PRIVATE_REASON}" in state:
            # the machine keeps "after a private shot" for everyone; its roller's own answer says the row
            state = state.replace(f"({PRIVATE_REASON}", f"({effect.reason}", 1)
        reply.embed.add_field(
            name="War machine",
            value=f"**{machine.name}**: {state}; crew {machine.crew}/{machine.crew_max} (turn {logged.turn})",
            inline=False,
        )
        reply.fields["machine"] = {
            "name": machine.name, "kind": machine.kind, "crew": machine.crew, "crew_max": machine.crew_max,
            "state": machine.state, "status": state, "silent_until_turn": machine.silent_until_turn
            if machine.state == "silenced" else None, "turn": logged.turn, "battle": aim.battle.id,
        }

    reply.commit_with_log.append(commit)


def after_siege_roll(bot, interaction: discord.Interaction, reply: Reply, *, section: str | None = None,
                     result: Any = None) -> Reply:
    """A /siege roll made in a channel where a battle runs counts as a shot of that battle (issue
    18): who rolled, which command, and for a kept section its Destruction Tokens before and after
    and what fell. Handed to the reply as the change to commit with its roll log entry, so both
    are kept or neither; outside a battle nothing is added. Only the battle's players roll into it."""
    guild, channel = interaction.guild_id, interaction.channel_id
    if guild is None or channel is None or not reply.dice:
        return reply
    user = interaction.user.id
    outcome = shot_outcome(reply)
    before = after = fell = None
    if section is not None and result is not None:
        before, after = result.tokens_before, result.tokens_after
        if result.destroyed:
            what = result.structure.name.lower()
            fell = f"the gate of {what} '{section}'" if result.gate else f"{what} '{section}'"
            if result.structure.gate_points is not None and not result.gate:
                fell += " and its gate with it"

    def commit() -> None:
        event = campaigns.record_siege_event(bot.store, guild, channel, user_id=user, command=reply.command,
                                             section=section, tokens_before=before, tokens_after=after, fell=fell,
                                             outcome=outcome)
        if event is None:
            return
        line = f"Counted as a shot of battle {event.battle_id} (turn {event.turn})" + (f": {fell} fell" if fell else "")
        reply.embed.add_field(name="Battle", value=line, inline=False)
        reply.fields["battle_shot"] = {"battle": event.battle_id, "turn": event.turn, "section": section,
                                       "tokens_before": before, "tokens_after": after, "fell": fell}

    reply.commit_with_log.append(commit)
    return reply
