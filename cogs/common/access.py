"""Who is asking, and what they may change: the permission checks of campaign play.

- Server managers (Manage Server, or Administrator) may do everything, including ``/settings``.
- The campaign GM role (``/settings gm-role``) may change campaigns and battles and edit anyone's
  roster.
- Everyone else manages their own: joins and leaves campaigns (unless the server's campaigns are
  by invitation: then the GM adds players), joins a battle explicitly (/battle join), adds and
  removes their own machines, repairs them between battles, fires only their own machines and only
  into a battle they play in, and moves the turn on as the server's turn rule allows
  (``/settings turns``: with other players in the battle, one of them or the GM confirms it, so
  nobody skips their own machine's silence alone).

A refusal is a :class:`PermissionRefused` (a RulesError, so the tree's one handler sends it
ephemerally) naming what is missing.
"""

from dataclasses import dataclass
from typing import Any, Callable, TypeVar

import discord

from engine.errors import RulesError
from storage.settings import settings_for

T = TypeVar("T")


class PermissionRefused(RulesError):
    """The user lacks a permission; the message names it."""


@dataclass(frozen=True, slots=True)
class Actor:
    """The user behind one command, where they typed it."""

    user_id: int
    guild_id: int
    channel_id: int
    roles: frozenset[int]
    manager: bool
    """Manage Server (or Administrator) in this channel."""
    gm_role_id: int | None
    """The server's (or channel's) campaign GM role."""
    game: str = "fantasy"
    """The channel's default game (storage/settings.py)."""
    turns: str = "players"
    """Who moves a battle's turn on here (storage/settings.py TURN_RULES)."""
    joining: str = "open"
    """How players join campaigns here (storage/settings.py JOINING_RULES)."""

    @property
    def gm(self) -> bool:
        """A server manager or a holder of the GM role."""
        return self.manager or (self.gm_role_id is not None and self.gm_role_id in self.roles)

    def gm_words(self) -> str:
        role = f"the campaign GM role (<@&{self.gm_role_id}>)" if self.gm_role_id else "the campaign GM role"
        return f"{role} or the Manage Server permission"

    def require_gm(self, to: str) -> None:
        if not self.gm:
            raise PermissionRefused(f"To {to} you need {self.gm_words()}.")

    def require_manager(self, to: str) -> None:
        if not self.manager:
            raise PermissionRefused(f"To {to} you need the Manage Server permission.")


def actor(interaction: discord.Interaction, store) -> Actor:
    """The user of `interaction` with their roles and rights; refuses outside a server."""
    if interaction.guild_id is None:
        raise RulesError("Campaigns, battles and rosters live in a server: use this command in a server channel.")
    perms = getattr(interaction, "permissions", None)
    if perms is None:
        perms = getattr(interaction.user, "guild_permissions", None)
    manager = bool(perms and (perms.manage_guild or perms.administrator))
    roles = frozenset(r.id for r in getattr(interaction.user, "roles", ()) or ())
    here = settings_for(store, interaction.guild_id, interaction.channel_id)
    return Actor(interaction.user.id, interaction.guild_id, interaction.channel_id or 0, roles, manager,
                 here.gm_role_id, here.game, here.turns, here.joining)


async def in_store(work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """A store call off the event loop: a write may wait for another process's lock, and a store
    that is away gives up after about 2 s; the command being served defers meanwhile if it must
    (cogs/common/replies.py, ``stored``)."""
    from cogs.common.replies import stored  # (replies' plumbing imports this module's callers)

    return await stored(None, work, *args, **kwargs)
