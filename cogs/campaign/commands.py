"""``/settings``, ``/campaign``, ``/battle`` and ``/machine``: remote campaign play, kept in the store.

Thin: who is asking (cogs/common/access.py), one storage call (storage/settings.py, storage/campaigns.py),
a reply (cogs/campaign/words.py). Every change is one transaction, run off the event loop.

No ``from __future__ import annotations`` here: discord.py reads the option types from the
callbacks' annotations.
"""

import asyncio
import dataclasses
import re
from typing import Optional

import discord
from discord import app_commands
from discord.app_commands import Choice, Range
from discord.ext import commands

from cogs.campaign import machines as roster_kinds
from cogs.common.access import Actor, PermissionRefused, actor, in_store
from cogs.common.ledger import log_store
from cogs.campaign.words import (
    GAME_NAMES, battle_board, battle_end_reply, battle_reply, campaign_reply, forget_reply, purge_reply, roster_reply,
    settings_reply, with_roll_log,
)
from cogs.common.replies import COLOUR_BAD, defer, off_the_loop, send_reply
from cogs.warmaster.fortress_state import fortress
from engine.errors import RulesError
from engine.roster import is_war_machine
from cogs.common.from_list import as_text
from cogs.common.target import find_unit
from engine.inputs import quote
from renders.campaign.battle import render_battle
from cogs.dice.words.log import export_files, fit_upload, head_line, withheld_words
from storage import armies, campaigns, privacy, roll_log
from storage.campaigns import MAX_CREW
from storage.settings import GAMES, JOINING_RULES, TURN_RULES, change_settings, settings_for

SCOPE_CHOICES = [Choice(name="this server", value="server"), Choice(name="this channel only", value="channel")]
GAME_CHOICES = [Choice(name=GAME_NAMES[g], value=g) for g in GAMES]
TURN_CHOICES = [Choice(name="players (others confirm)", value="players"), Choice(name="the GM only", value="gm")]
JOINING_CHOICES = [Choice(name="open to all", value="open"), Choice(name="by invitation (GM adds)", value="invite")]
assert [c.value for c in TURN_CHOICES] == list(TURN_RULES) and [c.value for c in JOINING_CHOICES] == list(JOINING_RULES)
KIND_CHOICES = [Choice(name=k.name, value=k.key) for k in roster_kinds.KINDS.values()]


def mentioned_id(value, what: str) -> int:
    """The id behind a Discord object, or a mention or id typed in the console (``<@&123>``, ``123``)."""
    if hasattr(value, "id"):
        return value.id
    found = re.fullmatch(r"\s*<?[@#]?[&!]?(\d{1,20})>?\s*", str(value), re.ASCII)
    if not found:
        raise RulesError(f"'{quote(str(value))}' is not a {what}: mention one, or give its id.")
    return int(found.group(1))


def display_name(interaction: discord.Interaction, user_id: int) -> str:
    """A player's name for a picture (a mention only renders in text)."""
    guild = interaction.guild
    member = guild.get_member(user_id) if isinstance(guild, discord.Guild) else None
    if member is not None:
        return member.display_name
    if user_id == interaction.user.id:
        return getattr(interaction.user, "display_name", "you")
    return f"player {user_id}"


async def army_machines(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """``/machine add from:``: the war machines of the caller's army lists."""
    if interaction.guild_id is None:
        return []
    typed = current.strip().casefold()

    def choices():  # the lists read and looked through off the event loop
        lists = armies.armies(interaction.client.store, interaction.guild_id, (interaction.user.id,))
        return [Choice(name=f"{u.label} ({a.name})"[:100], value=u.label[:100]) for a in lists for u in a.roster.units
                if is_war_machine(u) and typed in u.label.casefold()][:25]

    try:
        return await asyncio.wait_for(asyncio.to_thread(choices), 2.0)
    except Exception:  # an autocomplete never fails for the store
        return []


async def campaign_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    if interaction.guild_id is None:
        return []
    typed = current.strip().lower()
    names = await in_store(campaigns.campaign_names, interaction.client.store, interaction.guild_id)
    return [Choice(name=n, value=n) for n in names if typed in n.lower()][:25]



def display_names(interaction: discord.Interaction, user_ids) -> dict[int, str]:
    """The names the server shows for `user_ids`, as far as the bot knows them without asking
    Discord (the presser, cached members and users); a report names the others "player N"."""
    out = {}
    guild = interaction.guild
    for uid in user_ids:
        if uid == interaction.user.id:
            out[uid] = interaction.user.display_name
            continue
        member = guild.get_member(uid) if hasattr(guild, "get_member") else None
        user = member or (interaction.client.get_user(uid) if hasattr(interaction.client, "get_user") else None)
        if user is not None:
            out[uid] = user.display_name
    return out

class CampaignCogBase(commands.Cog):
    """What the four cogs share: the store, and each command's store work run off the event loop
    (:meth:`stored`), so a write waiting for the file's lock never holds up other commands."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def store(self):
        return self.bot.store

    async def stored(self, interaction: discord.Interaction, work):
        """Run ``work(who)`` in a thread, `who` being the caller (:class:`Actor`); its result."""
        return await in_store(lambda: work(actor(interaction, self.store)))


class SettingsCog(CampaignCogBase):
    """Server and channel settings, for server managers."""

    settings = app_commands.Group(name="settings", description="Server and channel settings (server managers)")

    async def _change(self, interaction, scope: str, title: str, **changes) -> None:
        def work(who: Actor):
            who.require_manager("change the bot's settings")
            channel = who.channel_id if scope == "channel" else None
            return channel, change_settings(self.store, who.guild_id, channel, by=who.user_id, **changes)

        channel, s = await self.stored(interaction, work)
        where = "this channel" if channel else "this server"
        await send_reply(interaction, settings_reply(f"settings {interaction.command.name}", s, where, f"{title} ({where})"))

    @settings.command(name="game", description="The default game here: Warhammer Fantasy, Warmaster or 40k")
    @app_commands.describe(game="The game commands here assume", scope="Whole server (default) or this channel")
    @app_commands.choices(game=GAME_CHOICES, scope=SCOPE_CHOICES)
    async def game_(self, interaction: discord.Interaction, game: str, scope: str = "server") -> None:
        await self._change(interaction, scope, f"Default game: {GAME_NAMES[game]}", game=game)

    @settings.command(name="private-rolls", description="Whether players may ask for rolls only they see")
    @app_commands.describe(allowed="true: private rolls allowed", scope="Whole server (default) or this channel")
    @app_commands.choices(scope=SCOPE_CHOICES)
    async def private_rolls(self, interaction: discord.Interaction, allowed: bool, scope: str = "server") -> None:
        await self._change(interaction, scope, f"Private rolls {'allowed' if allowed else 'not allowed'}",
                           private_rolls=allowed)

    @settings.command(name="gm-role", description="The role that runs campaigns (leave out to clear)")
    @app_commands.describe(role="The campaign GM role; none: server managers only",
                           scope="Whole server (default) or this channel")
    @app_commands.choices(scope=SCOPE_CHOICES)
    async def gm_role(self, interaction: discord.Interaction, role: Optional[discord.Role] = None,
                      scope: str = "server") -> None:
        role_id = None if role is None else mentioned_id(role, "role")
        title = f"Campaign GM role: <@&{role_id}>" if role_id else "Campaign GM role cleared"
        await self._change(interaction, scope, title, gm_role_id=role_id)

    @settings.command(name="turns", description="Who moves a battle's turn on: players (others confirm) or the GM")
    @app_commands.describe(rule="players: with others in the battle, one confirms; gm: GM role only",
                           scope="Whole server (default) or this channel")
    @app_commands.choices(rule=TURN_CHOICES, scope=SCOPE_CHOICES)
    async def turns(self, interaction: discord.Interaction, rule: str, scope: str = "server") -> None:
        words = "players, confirmed by another player" if rule == "players" else "the GM only"
        await self._change(interaction, scope, f"Turns move on by: {words}", turns=rule)

    @settings.command(name="joining", description="Whether anyone may join campaigns or the GM adds players")
    @app_commands.describe(rule="open: /campaign join; invite: the GM adds with /campaign add",
                           scope="Whole server (default) or this channel")
    @app_commands.choices(rule=JOINING_CHOICES, scope=SCOPE_CHOICES)
    async def joining(self, interaction: discord.Interaction, rule: str, scope: str = "server") -> None:
        words = "open to all" if rule == "open" else "by invitation (the GM adds players)"
        await self._change(interaction, scope, f"Campaigns: {words}", joining=rule)

    @settings.command(name="show", description="The settings this channel uses")
    async def show(self, interaction: discord.Interaction) -> None:
        s = await self.stored(interaction, lambda who: settings_for(self.store, who.guild_id, who.channel_id))
        await send_reply(interaction, settings_reply("settings show", s, "this channel"))

    @settings.command(name="forget-me", description="Delete what the bot keeps about you (sealed roll logs stay)")
    async def forget_me(self, interaction: discord.Interaction) -> None:
        forgotten = await in_store(privacy.forget_user, self.store, interaction.user.id)
        await send_reply(interaction, forget_reply(forgotten))

    @settings.command(name="purge-server", description="Managers: delete everything the bot keeps for this server")
    @app_commands.describe(confirm="This server's name or id, to confirm")
    async def purge_server(self, interaction: discord.Interaction, confirm: Range[str, 1, 100]) -> None:
        guild = interaction.guild
        name = getattr(guild, "name", None)
        channels = [c.id for c in (*getattr(guild, "channels", ()), *getattr(guild, "threads", ()))]

        def work(who: Actor):
            who.require_manager("delete everything the bot keeps for this server")
            typed = " ".join(confirm.split())
            if typed != str(who.guild_id) and (name is None or typed.casefold() != " ".join(name.split()).casefold()):
                server = f"'{name}' or {who.guild_id}" if name else str(who.guild_id)
                raise RulesError(f"'{typed[:100]}' is not this server: give its name or id ({server}) to confirm. "
                                 "Nothing was deleted.")
            return privacy.purge_guild(self.store, who.guild_id, channels)

        purged = await self.stored(interaction, work)
        await send_reply(interaction, purge_reply(name or f"server {interaction.guild_id}", purged))


class CampaignCog(CampaignCogBase):
    """Campaigns: a named group of players on one server."""

    campaign = app_commands.Group(name="campaign", description="Campaigns on this server: create, join, info, leave")

    async def _answer(self, interaction, title: str, change) -> None:
        """`change(who)` gives the campaign; the reply shows it with its battles and machines."""
        def work(who: Actor):
            c = change(who)
            battles = campaigns.campaign_battles(self.store, who.guild_id, c.id)
            roster = [m for m in campaigns.machines(self.store, who.guild_id) if m.owner_id in c.members]
            return who, c, battles, roster

        who, c, battles, roster = await self.stored(interaction, work)
        await send_reply(interaction, campaign_reply(f"campaign {interaction.command.name}", who.game, c,
                                                     title.format(name=c.name), battles, roster))

    @campaign.command(name="create", description="Start a campaign on this server (GM role or Manage Server)")
    @app_commands.describe(name=f"The campaign's name (up to {campaigns.MAX_NAME} characters)")
    async def create(self, interaction: discord.Interaction, name: str) -> None:
        def change(who: Actor):
            who.require_gm("create a campaign")
            return campaigns.create_campaign(self.store, who.guild_id, name, by=who.user_id)

        await self._answer(interaction, "Campaign {name} created", change)

    @campaign.command(name="join", description="Join a campaign on this server")
    @app_commands.describe(name="The campaign")
    @app_commands.autocomplete(name=campaign_autocomplete)
    async def join(self, interaction: discord.Interaction, name: str) -> None:
        await self._answer(interaction, "You joined {name}", lambda who: campaigns.join_campaign(
            self.store, who.guild_id, name, who.user_id, invited=who.joining == "open" or who.gm))

    @campaign.command(name="add", description="Add a player to a campaign (GM role or Manage Server)")
    @app_commands.describe(name="The campaign", player="The player to add")
    @app_commands.autocomplete(name=campaign_autocomplete)
    async def add(self, interaction: discord.Interaction, name: str, player: discord.Member) -> None:
        player_id = mentioned_id(player, "member")

        def change(who: Actor):
            who.require_gm("add a player to a campaign")
            return campaigns.join_campaign(self.store, who.guild_id, name, player_id)

        await self._answer(interaction, f"<@{player_id}> added to {{name}}", change)

    @campaign.command(name="leave", description="Leave a campaign")
    @app_commands.describe(name="The campaign")
    @app_commands.autocomplete(name=campaign_autocomplete)
    async def leave(self, interaction: discord.Interaction, name: str) -> None:
        await self._answer(interaction, "You left {name}",
                           lambda who: campaigns.leave_campaign(self.store, who.guild_id, name, who.user_id))

    @campaign.command(name="info", description="A campaign's members, battles and war machines")
    @app_commands.describe(name="The campaign")
    @app_commands.autocomplete(name=campaign_autocomplete)
    async def info(self, interaction: discord.Interaction, name: str) -> None:
        await self._answer(interaction, "Campaign {name}", lambda who: campaigns.get_campaign(self.store, who.guild_id, name))


class BattleCog(CampaignCogBase):
    """A battle in a channel: its turn, its players, their war machines."""

    battle = app_commands.Group(name="battle", description="The battle in this channel: start, turn, end, status")

    async def _battle(self, interaction, change):
        """`change(who)` gives the battle; returns the caller, the battle, its players' machines and its shots."""
        def work(who: Actor):
            b = change(who)
            roster = [m for m in campaigns.machines(self.store, b.guild_id) if m.owner_id in b.players]
            return who, b, roster, campaigns.shot_tally(self.store, who.guild_id, b.id)  # counted in SQL

        return await self.stored(interaction, work)

    @battle.command(name="start", description="Start a battle in this channel at turn 1")
    @app_commands.describe(campaign="The campaign it belongs to (its members play)")
    @app_commands.autocomplete(campaign=campaign_autocomplete)
    async def start(self, interaction: discord.Interaction, campaign: Optional[str] = None) -> None:
        def change(who: Actor):
            players: tuple[int, ...] = ()
            if campaign is not None:
                c = campaigns.get_campaign(self.store, who.guild_id, campaign)
                if who.user_id not in c.members and not who.gm:
                    raise PermissionRefused(f"To start a battle of {c.name} you must be in it (/campaign join) "
                                            f"or have {who.gm_words()}.")
                players = c.members
            b, chain = campaigns.start_battle_logged(self.store, who.guild_id, who.channel_id, self.bot.new_secret,
                                                     by=who.user_id, campaign=campaign, players=players,
                                                     log=log_store(self.bot))
            opened.append(chain)
            return b

        opened: list = []
        who, b, roster, shots = await self._battle(interaction, change)
        chain = opened[0]
        reply = battle_reply("battle start", who.game, b, "Battle started: turn 1", roster, shots)
        await send_reply(interaction, with_roll_log(reply, [
            f"Every roll in this channel until /battle end goes to the battle's log ({chain.chain}).",
            f"The bot committed to its secret: SHA-256 {chain.commitment}",
            "/battle end reveals the secret and attaches the log with a page that checks every roll in a browser, nothing to install.",
        ], {"chain": chain.chain, "epoch": chain.epoch, "commitment": chain.commitment}))

    @battle.command(name="turn", description="Move the battle on (players: another player confirms)")
    async def turn(self, interaction: discord.Interaction) -> None:
        asked: list = []

        def change(who: Actor):
            if who.gm:
                return campaigns.next_turn(self.store, who.guild_id, who.channel_id)
            if who.turns == "gm":
                raise PermissionRefused(f"Here only {who.gm_words()} moves the turn on (/settings turns).")
            ask = campaigns.ask_next_turn(self.store, who.guild_id, who.channel_id, who.user_id)
            asked.append(ask)
            return ask.battle

        who, b, roster, shots = await self._battle(interaction, change)
        if asked and not asked[0].moved:
            others = ", ".join(f"<@{u}>" for u in asked[0].waiting_for)
            title = f"Turn {b.turn}: moving on when another player confirms"
            note = (f"<@{who.user_id}> asked to move on from turn {b.turn}. Any other player ({others}) or the GM "
                    "confirms with /battle turn.")
            await send_reply(interaction, battle_reply("battle turn", who.game, b, title, roster, shots, note=note))
            return
        await send_reply(interaction, battle_reply("battle turn", who.game, b, f"Turn {b.turn}", roster, shots))

    @battle.command(name="join", description="Play in the battle here (a campaign's battle: its members)")
    async def join(self, interaction: discord.Interaction) -> None:
        who, b, roster, shots = await self._battle(
            interaction, lambda who: campaigns.join_battle(self.store, who.guild_id, who.channel_id, who.user_id))
        await send_reply(interaction, battle_reply("battle join", who.game, b, "You joined the battle", roster, shots))

    @battle.command(name="add", description="Add a player to the battle here (GM role or Manage Server)")
    @app_commands.describe(player="The player to add")
    async def add(self, interaction: discord.Interaction, player: discord.Member) -> None:
        player_id = mentioned_id(player, "member")

        def change(who: Actor):
            who.require_gm("add a player to a battle")
            b = campaigns.battle_here(self.store, who.guild_id, who.channel_id)
            campaigns.add_player(self.store, who.guild_id, b.id, player_id)
            return campaigns.get_battle(self.store, who.guild_id, b.id)

        who, b, roster, shots = await self._battle(interaction, change)
        await send_reply(interaction, battle_reply("battle add", who.game, b, "Player added to the battle", roster,
                                                   shots, note=f"<@{player_id}> now plays in this battle."))

    @battle.command(name="end", description="End the battle: a summary, a Markdown report, a JSON export")
    async def end(self, interaction: discord.Interaction) -> None:
        def change(who: Actor):
            b = campaigns.battle_here(self.store, who.guild_id, who.channel_id)
            if who.user_id != b.started_by and not who.gm:
                raise PermissionRefused(f"Only the player who started this battle (<@{b.started_by}>) or someone "
                                        f"with {who.gm_words()} can end it.")
            ended, r = campaigns.end_battle_revealed(self.store, who.guild_id, who.channel_id, self.bot.new_secret,
                                                          log=log_store(self.bot))
            revealed.append(r)
            return ended

        revealed: list = []
        await defer(interaction)  # the whole battle is read, reported and its log packed: "thinking..." first
        who, b, roster, _ = await self._battle(interaction, change)

        def read():
            return (campaigns.battle_shots(self.store, who.guild_id, b.id),  # the report lists them all
                    campaigns.shot_totals(self.store, who.guild_id, b.id),  # and adds them up in SQL
                    fortress(self.store, who.channel_id).sections,
                    campaigns.battle_siege_events(self.store, who.guild_id, b.id))

        shots, totals, sections, siege = await in_store(read)
        r = revealed[0]
        people = {b.started_by, *b.players, *(s.user_id for s in shots), *(e.user_id for e in siege),
                  *(m.owner_id for m in roster)}
        names = display_names(interaction, people)
        channel = getattr(getattr(interaction, "channel", None), "name", None)  # the report names it, not its id

        def report():  # grows with the battle's shots: in the work pool
            return revealed_log(battle_end_reply(who.game, b, roster, shots, sections, names, siege, totals=totals,
                                                 channel=channel), b, r)

        await send_reply(interaction, await off_the_loop(interaction, report))

    @battle.command(name="reveal", description="Reveal an ended battle's roll log that missed its reveal (GM)")
    @app_commands.describe(battle="The battle's number (default: the newest here that needs it)")
    async def reveal(self, interaction: discord.Interaction, battle: Optional[Range[int, 1, 2**53]] = None) -> None:
        def change(who: Actor):
            who.require_gm("reveal a battle's roll log")
            b, r = campaigns.reveal_ended_battle(self.store, who.guild_id, who.channel_id, battle, self.bot.new_secret)
            revealed.append(r)
            return b

        revealed: list = []
        who, b, roster, shots = await self._battle(interaction, change)
        reply = battle_reply("battle reveal", who.game, b, f"Battle {b.id}: its roll log revealed", roster, shots)
        await send_reply(interaction, await off_the_loop(interaction, revealed_log, reply, b, revealed[0]))

    @battle.command(name="status", description="The battle here: turn, players, war machines, fortifications")
    async def status(self, interaction: discord.Interaction) -> None:
        who, b, roster, shots = await self._battle(
            interaction, lambda who: campaigns.battle_here(self.store, who.guild_id, who.channel_id))
        sections = (await in_store(fortress, self.store, who.channel_id)).sections  # the channel's /siege
        siege_count, siege = await in_store(campaigns.siege_tally, self.store, who.guild_id, b.id)
        board = battle_board(b, roster, shots, lambda uid: display_name(interaction, uid), sections, siege, siege_count)
        image = await off_the_loop(interaction, render_battle, board)
        await send_reply(interaction, battle_reply("battle status", who.game, b, f"Battle: turn {b.turn}",
                                                   roster, shots, image, sections, siege=siege, siege_count=siege_count))


def revealed_log(reply, b: campaigns.Battle, r: roll_log.Reveal):
    """A battle reply with its revealed roll log (/battle end, /battle reveal): the count, the secret,
    the head hash to check against, and the export with the page that checks it with nothing installed."""
    data = r.export
    stem = f"battle-{b.guild_id}-{b.id}-rolls"
    log_files = () if r.withheld else export_files(data, stem, csv=False)  # never a private roll in full
    files, packed = fit_upload((*reply.attachments, *log_files), f"battle-{b.guild_id}-{b.id}")
    lines = [
        f"{len(data['entries'])} roll(s) in the battle's log ({data['chain']}), attached as JSON.",
        f"The secret was {r.secret.hex()}; its SHA-256 is the commitment posted at the start, {data['commitment']}.",
        head_line(data),
        withheld_words(r) if r.withheld else
        f"Anyone can check every roll with nothing installed: open the attached {stem}.html in a browser and "
        f"paste the head hash above (or python bot.py verify {stem}.json --head HASH).",
    ] + ([packed] if packed else [])
    return with_roll_log(dataclasses.replace(reply, attachments=()), lines, {
        "chain": data["chain"], "epoch": data["epoch"], "commitment": data["commitment"], "secret": r.secret.hex(),
        "entries": len(data["entries"]), "head": data["head"], "count": data["count"], "compressed": packed is not None,
    }, files)


class MachineCog(CampaignCogBase):
    """War machine rosters: each player's machines on this server."""

    machine = app_commands.Group(name="machine", description="War machine rosters: add, list, remove, repair")

    def _mine_or_gm(self, who: Actor, name: str, to: str) -> campaigns.Machine:
        m = campaigns.get_machine(self.store, who.guild_id, name)
        if m.owner_id != who.user_id and not who.gm:
            raise PermissionRefused(f"{m.name} belongs to <@{m.owner_id}>: to {to} another player's war machine you "
                                    f"need {who.gm_words()}.")
        return m

    @machine.command(name="add", description="Add a war machine to your roster (or a player's, as GM)")
    @app_commands.describe(
        name=f"Its name, unique on this server (up to {campaigns.MAX_NAME} characters)", kind="What it is",
        crew="Crew models (default: 3; bolt thrower 2)", bs="Crew's best Ballistic Skill",
        owner="Whose it is (default you; others need the GM role)", from_="A war machine of the owner's army list",
    )
    @app_commands.rename(from_="from")
    @app_commands.choices(kind=KIND_CHOICES)
    @app_commands.autocomplete(from_=army_machines)
    async def add(self, interaction: discord.Interaction, name: Optional[str] = None, kind: Optional[str] = None,
                  crew: Optional[Range[int, 1, MAX_CREW]] = None, bs: Optional[Range[int, 0, 10]] = None,
                  owner: Optional[discord.Member] = None, from_: Optional[str] = None) -> None:
        owner_id = None if owner is None else mentioned_id(owner, "member")
        if from_ is None and (name is None or kind is None):
            raise RulesError("/machine add needs name: and kind:, or from: a war machine of your army list (/army import).")

        def work(who: Actor):
            mine = who.user_id if owner_id is None else owner_id
            if mine != who.user_id:
                who.require_gm("add a war machine to another player's roster")
            the_name, the_kind, the_crew, the_bs = name, kind, crew, bs
            if from_ is not None:  # the list gives what was not typed
                army, unit, _ = find_unit(armies.armies(self.store, who.guild_id, (mine,)), from_, option="from")
                listed, listed_crew, listed_bs = roster_kinds.from_unit(unit, army.roster.game)
                if name is None and len(as_text(unit.label, 100)) > campaigns.MAX_NAME:
                    raise RulesError(f"from: '{as_text(unit.label, 60)}' is longer than a machine's name may be "
                                     f"({campaigns.MAX_NAME} characters): give name: too.")
                the_name, the_kind = name or as_text(unit.label, 100), kind or listed  # a roster's name stays text
                the_crew, the_bs = crew or listed_crew, bs if bs is not None else listed_bs
            k = roster_kinds.KINDS[the_kind]
            m = campaigns.add_machine(self.store, who.guild_id, name=the_name, kind=the_kind, game=k.game,
                                      crew=the_crew or k.crew, owner_id=mine, by=who.user_id, bs=the_bs)
            return who, m, campaigns.current_battle(self.store, who.guild_id, who.channel_id)

        who, m, battle = await self.stored(interaction, work)
        await send_reply(interaction, roster_reply("machine add", who.game, f"{m.name} joins the roster",
                                                   [m], battle, m))

    @machine.command(name="list", description="War machines on this server, with their state")
    @app_commands.describe(owner="Only this player's (default: everyone's)")
    async def list_(self, interaction: discord.Interaction, owner: Optional[discord.Member] = None) -> None:
        owner_id = None if owner is None else mentioned_id(owner, "member")

        def work(who: Actor):
            return (who, campaigns.machines(self.store, who.guild_id, owner_id=owner_id),
                    campaigns.current_battle(self.store, who.guild_id, who.channel_id))

        who, roster, battle = await self.stored(interaction, work)
        title = f"War machines of <@{owner_id}>" if owner_id else "War machines on this server"
        await send_reply(interaction, roster_reply("machine list", who.game, title, roster, battle))

    @machine.command(name="remove", description="Take a war machine off the roster")
    @app_commands.describe(name="The machine")
    @app_commands.autocomplete(name=roster_kinds.owned_autocomplete())
    async def remove(self, interaction: discord.Interaction, name: str) -> None:
        def work(who: Actor):
            self._mine_or_gm(who, name, "remove")
            m = campaigns.remove_machine(self.store, who.guild_id, name)
            return (who, m, campaigns.machines(self.store, who.guild_id, owner_id=m.owner_id),
                    campaigns.current_battle(self.store, who.guild_id, who.channel_id))

        who, m, left, battle = await self.stored(interaction, work)
        await send_reply(interaction, roster_reply(
            "machine remove", who.game, f"{m.name} removed from the roster of <@{m.owner_id}>", left, battle, m,
            colour=COLOUR_BAD, empty=f"<@{m.owner_id}> has no war machines left."))

    @machine.command(name="repair", description="Bring a war machine back: ready, full crew (GM, or between battles)")
    @app_commands.describe(name="The machine")
    @app_commands.autocomplete(name=roster_kinds.owned_autocomplete())
    async def repair(self, interaction: discord.Interaction, name: str) -> None:
        def work(who: Actor):
            self._mine_or_gm(who, name, "repair")
            m = campaigns.repair_machine(self.store, who.guild_id, name, gm=who.gm)
            return who, m, campaigns.current_battle(self.store, who.guild_id, who.channel_id)

        who, m, battle = await self.stored(interaction, work)
        await send_reply(interaction, roster_reply("machine repair", who.game, f"{m.name} repaired", [m], battle, m))


async def setup(bot: commands.Bot) -> None:
    for cog in (SettingsCog, CampaignCog, BattleCog, MachineCog):
        await bot.add_cog(cog(bot))
