"""Buttons on results: "Details", "Fire again", "Resolve wounds" and "Roll the misfire chart".

- **Details** (every reply whose full breakdown says more than its glance): the breakdown, every
  die with its purpose, each model's line and the rule per step, answered privately to whoever
  presses it (cogs/common/replies.py, the three layers).
- **Fire again** (every ``/fire`` result): the same command with the same options and new dice;
  a ``dice:`` the players entered is not reused, since new dice are the point.
- **Resolve wounds** (a result whose hits wait for a profile): asks the target's Toughness,
  Wounds, armour save and ward save, then runs the same command again with that profile and the
  first run's dice given back (:class:`~engine.dice.ReplayDice`), so the scatter, the bounce and
  who was hit stay exactly as shown; only the wounding dice are new.
- **Roll the misfire chart** (a misfire on dice the players entered, which stops the procedure
  for the chart): the same shot, its dice given back, and the chart's D6 rolled by the bot.

The buttons carry the id of a stored action (``storage/actions.py``), not the options
themselves, so they keep working after a restart (discord.py's ``DynamicItem`` routes any
``bombardier:<action>:<id>`` press to :class:`ReplyButton`) and for 24 hours. Only the player who
ran the command, or a server manager, may press them; anyone else is told so privately.
"""

from __future__ import annotations

import functools
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common.dice_source import OPTIONS_KEY, REPLAY_KEY, call_command, command_options
from cogs.common.ledger import ANSWER_PRIVATELY_KEY, REPLAY_OF_KEY, entry_ref
from cogs.common.replies import Reply, send_error, stored as in_the_store
from engine.inputs import is_int, quote
from storage.actions import LIFETIME_S, ReplyAction, erased, recall, remember
from storage.contract import StoreError

log = logging.getLogger(__name__)

AGAIN = "again"
WOUNDS = "wounds"
CHART = "chart"
DETAILS = "details"
ODDS = "odds"
LABELS = {AGAIN: "Fire again", WOUNDS: "Resolve wounds", CHART: "Roll the misfire chart", DETAILS: "Details",
          ODDS: "Odds"}
PRICED_COMMANDS = ("fire", "misfire", "shoot", "breath", "combat", "wm", "siege", "40k", "roll")
"""Top-level commands whose shots /odds prices (cogs/odds): their results carry an "Odds" button."""
UNPRICED = ("siege army", "siege fortress", "siege reset")
EXPIRED = (f"This button has expired (buttons work for {LIFETIME_S // 3600} hours after the result): "
           "run the command again.")
ERASED = ("This button no longer works: what it held was erased at a member's request (/settings forget-me). "
          "Run the command again.")
"""A press of a button whose stored action /settings forget-me erased (its user's, or another's reply
that named them), until it would have expired; it names nobody."""
PROFILE = ("toughness", "wounds", "save", "ward")
"""The options the "Resolve wounds" form fills in: every /fire command that offers it has them."""


def offered(reply: Reply) -> tuple[str, ...]:
    """The buttons a reply carries."""
    actions: list[str] = []
    if reply.command.startswith("fire "):
        actions.append(AGAIN)
    if reply.awaits_profile:
        actions.append(WOUNDS)
    if reply.awaits_chart:
        actions.append(CHART)
    if reply.has_details():
        actions.append(DETAILS)
    if reply.dice and reply.command.split()[0] in PRICED_COMMANDS and reply.command not in UNPRICED:
        actions.append(ODDS)
    return tuple(actions)


class ReplyButton(discord.ui.DynamicItem[discord.ui.Button], template=r"bombardier:(?P<action>again|wounds|chart|details|odds):(?P<id>[0-9a-f]{16})"):
    """One button on one result; the custom id names the action and the stored reply."""

    def __init__(self, action: str, action_id: str) -> None:
        style = discord.ButtonStyle.primary if action == AGAIN else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=LABELS[action], style=style, custom_id=f"bombardier:{action}:{action_id}"))
        self.action = action
        self.action_id = action_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]) -> ReplyButton:
        return cls(match["action"], match["id"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await press(interaction, self.action, self.action_id)


def may_press(interaction: discord.Interaction, stored: ReplyAction) -> bool:
    if interaction.user.id == stored.user_id:
        return True
    permissions = getattr(interaction, "permissions", None)
    return bool(permissions and permissions.manage_guild)


async def press(interaction: discord.Interaction, action: str, action_id: str) -> None:
    """What pressing a reply's button does, with every refusal private to the presser."""
    bot = interaction.client
    if action in (DETAILS, ODDS):  # answered to the presser alone: a defer on the way is private too
        interaction.extras[ANSWER_PRIVATELY_KEY] = True
    # off the event loop, deferring if the store is slow (not for the form: a modal must come first)
    stored = await in_the_store(None if action == WOUNDS else interaction, recall, bot.store, action_id)
    if stored is None and await in_the_store(None if action == WOUNDS else interaction, erased, bot.store, action_id,
                                             interaction.guild_id):
        await send_error(interaction, ERASED)  # /settings forget-me took what it held: say so, and nothing more
        return
    if stored is None or stored.expired() or stored.guild_id != interaction.guild_id:
        await send_error(interaction, EXPIRED)
        return
    if action == DETAILS and not stored.options.get("private"):  # anyone may read them, privately
        await show_details(interaction, stored)
        return
    if action == ODDS and not stored.options.get("private"):  # the same shot priced, for the presser's eyes
        await show_odds(interaction, stored)
        return
    if not may_press(interaction, stored):
        await send_error(interaction, f"Only <@{stored.user_id}>, who ran this command, or a server manager (Manage Server) can press its buttons.")
        return
    options = {k: v for k, v in stored.options.items() if k != "dice"}
    if action == DETAILS:  # a private result's details: its roller's (or a manager's) alone
        await show_details(interaction, stored)
    elif action == ODDS:
        await show_odds(interaction, stored)
    elif action == AGAIN:
        await rerun(interaction, stored.command, options)
    elif action == CHART:  # the same shot, its dice given back, and the chart's D6 rolled by the bot
        await rerun(interaction, stored.command, options, replay=stored.dice, replay_of=stored.log_entry)
    else:
        await interaction.response.send_modal(ProfileForm(stored))


async def show_details(interaction: discord.Interaction, stored: ReplyAction) -> None:
    """The reply's full breakdown, to the presser alone."""
    if stored.details is None:
        await send_error(interaction, EXPIRED)
        return
    embed = discord.Embed.from_dict(stored.details)
    if interaction.response.is_done():  # deferred (privately) while the store was slow
        await interaction.followup.send(embed=embed, ephemeral=True)
    else:
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def show_odds(interaction: discord.Interaction, stored: ReplyAction) -> None:
    """The odds of the same shot (its options, not its dice), answered to the presser alone, by
    the /odds extension (``bot.price_shot``)."""
    price = getattr(interaction.client, "price_shot", None)
    if price is None:
        await send_error(interaction, "Odds are not available on this bot right now: try /odds.")
        return
    options = {k: v for k, v in stored.options.items() if k not in ("dice", "private", "machine", "section")}
    await price(interaction, stored.command, options)


def find_command(tree: app_commands.CommandTree, name: str) -> app_commands.Command | None:
    for command in tree.walk_commands():
        if isinstance(command, app_commands.Command) and command.qualified_name == name:
            return command
    return None


async def rerun(interaction: discord.Interaction, name: str, options: dict[str, Any], replay=None, replay_of=None) -> None:
    """Run a command again for a button, as the command tree would have: same callback, same
    error handling, a new reply."""
    bot = interaction.client
    command = find_command(bot.tree, name)
    if command is None:  # a command since renamed or removed
        await send_error(interaction, EXPIRED)
        return
    params = {p.display_name: p for p in command.parameters}
    kwargs = {params[k].name: v for k, v in options.items() if k in params}
    interaction.extras[OPTIONS_KEY] = options
    if replay is not None:
        interaction.extras[REPLAY_KEY] = replay
        interaction.extras[REPLAY_OF_KEY] = replay_of  # the log names the entry the dice come from
    await call_command(command, interaction, kwargs)


def read_profile(command: app_commands.Command, raw: dict[str, str]) -> dict[str, int]:
    """The form's answers as options, checked against the command's own bounds.
    Raises ValueError with the sentence to show."""
    params = {p.display_name: p for p in command.parameters}
    out: dict[str, int] = {}
    for name in PROFILE:
        text = raw.get(name, "").strip()
        if not text:
            if name == "toughness":
                raise ValueError("Toughness is needed to resolve wounds.")
            continue
        param = params[name]
        if not is_int(text):
            raise ValueError(f"{name.capitalize()}: '{quote(text)}' is not a whole number.")
        value = int(text)
        low, high = param.min_value, param.max_value
        if (low is not None and value < low) or (high is not None and value > high):
            raise ValueError(f"{name.capitalize()}: {value} is out of bounds: give {low:g} to {high:g}.")
        out[name] = value
    return out


class ProfileForm(discord.ui.Modal):
    """The target's profile, asked for when a result's hits wait for one."""

    def __init__(self, stored: ReplyAction) -> None:
        super().__init__(title="Resolve wounds: the target's profile", timeout=900)
        self.stored = stored
        self.answers = {
            "toughness": discord.ui.TextInput(label="Toughness", placeholder="e.g. 3", max_length=2),
            "wounds": discord.ui.TextInput(label="Wounds per model", placeholder="1 when left empty", required=False, max_length=2),
            "save": discord.ui.TextInput(label="Armour save (the 4 of 4+)", placeholder="none when left empty", required=False, max_length=1),
            "ward": discord.ui.TextInput(label="Ward save (the 5 of 5+)", placeholder="none when left empty", required=False, max_length=1),
        }
        for field in self.answers.values():
            self.add_item(field)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await resolve_wounds(interaction, self.stored, {k: f.value for k, f in self.answers.items()})


async def resolve_wounds(interaction: discord.Interaction, stored: ReplyAction, raw: dict[str, str]) -> None:
    command = find_command(interaction.client.tree, stored.command)
    if command is None:
        await send_error(interaction, EXPIRED)
        return
    try:
        profile = read_profile(command, raw)
    except ValueError as e:
        await send_error(interaction, f"{e} Press Resolve wounds again to fix it.")
        return
    options = {k: v for k, v in stored.options.items() if k not in ("dice", *PROFILE)} | profile
    await rerun(interaction, stored.command, options, replay=stored.dice, replay_of=stored.log_entry)


class ButtonsCog(commands.Cog):
    """Gives every reply its buttons, and answers them, also after a restart."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ReplyButton)
        self.bot.reply_buttons = self.buttons_for
        self.bot.keep_buttons = self.keep
        self.bot.button_view = view_for

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ReplyButton)
        self.bot.reply_buttons = self.bot.keep_buttons = self.bot.button_view = None

    def keep(self, interaction: discord.Interaction, reply: Reply) -> tuple[tuple[str, ...], str] | None:
        """The reply's buttons kept in the store, in the calling thread (a worker's: send_reply's one
        round trip, cogs/common/replies.py ``keep``): the actions and the id they carry, or None when
        it has none, or when the store cannot keep them (the answer then goes out without them)."""
        actions = offered(reply)
        if not actions:
            return None
        try:
            action_id = remember(
                self.bot.store, guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                user_id=interaction.user.id, command=reply.command, options=command_options(interaction),
                dice=reply.dice, log_entry=entry_ref(interaction),
                details=reply.details().to_dict() if DETAILS in actions else None,
            )
        except StoreError as e:
            log.warning("a reply's buttons could not be stored, so it is sent without them: %s", e)
            return None
        return actions, action_id

    async def buttons_for(self, interaction: discord.Interaction, reply: Reply) -> SentButtons | None:
        kept = await in_the_store(interaction, self.keep, interaction, reply)  # the store's write off the event loop
        return None if kept is None else view_for(*kept)


def view_for(actions: tuple[str, ...], action_id: str) -> SentButtons:
    """The buttons of a kept reply, to send with it (on the event loop: cheap, see :class:`SentButtons`)."""
    return SentButtons(actions, action_id)


def full_view(actions: tuple[str, ...], action_id: str) -> discord.ui.View:
    """The buttons of a kept reply as a discord.py view, finished."""
    view = discord.ui.View(timeout=None)
    for action in actions:
        view.add_item(ReplyButton(action, action_id))
    # Sent finished (issue 26): its buttons are DynamicItems, found again by their custom id and the
    # store, so discord.py need keep nothing of it. (An unfinished view sent on an ephemeral reply gets
    # a 15-minute timeout task whose context holds the interaction, its reply and its picture.)
    view.stop()
    return view


_PLACEHOLDER = "0" * 16


@functools.lru_cache(maxsize=64)
def _template(actions: tuple[str, ...]) -> tuple[tuple[dict[str, Any], tuple[dict[str, Any], ...]], ...]:
    """The components of :func:`full_view` for these buttons, once: rows and their buttons."""
    rows = full_view(actions, _PLACEHOLDER).to_components()
    return tuple(({k: v for k, v in row.items() if k != "components"}, tuple(row["components"])) for row in rows)


class SentButtons:
    """A kept reply's buttons as they are sent (issue 26): the components Discord receives, and what
    discord.py reads of a view it is sent with, no more. Sent finished, a view is only its
    components to discord.py (the buttons are DynamicItems: a press is routed by its custom id and
    the store, restart or not); building a ``discord.ui.View`` and its items for every reply cost the
    event loop some 50 us, where these are copied from the components of one view built once per set
    of buttons (the same JSON: tests/cogs/common/test_sent_buttons.py). :attr:`children` builds the
    full view when asked."""

    __discord_ui_view__ = True
    timeout: float | None = None

    def __init__(self, actions: tuple[str, ...], action_id: str) -> None:
        self.actions = tuple(actions)
        self.action_id = action_id

    def to_components(self) -> list[dict[str, Any]]:
        own = f":{self.action_id}"
        return [{**row, "components": [{**button, "custom_id": button["custom_id"].replace(f":{_PLACEHOLDER}", own)}
                                       for button in buttons]}
                for row, buttons in _template(self.actions)]

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return True

    def has_components_v2(self) -> bool:
        return False

    @property
    def children(self) -> list[discord.ui.Item]:
        return full_view(self.actions, self.action_id).children


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ButtonsCog(bot))
