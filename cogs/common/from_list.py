"""What a reply says of a target taken from an army list (``target:``, cogs/common/target.py):
which values came from the list. Kept apart from target.py so that replies.py can use it without
importing the store.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import discord

TARGET_KEY = "bombardier.target"
"""``interaction.extras`` key: the unit a command's ``target:`` named, and what it filled
(``{"unit", "list", "owner", "filled": {option: value}, "typed": [options typed beside it],
"not_applied": [special rules of the unit the command has no option for]}``)."""


def as_text(name: str, limit: int = 80) -> str:
    """A name from a roster (a member's file), safe to show: one line, at most `limit` characters,
    markdown and mentions escaped."""
    text = " ".join(str(name).split())
    if len(text) > limit:
        text = text[: limit - 1] + "\u2026"
    return discord.utils.escape_markdown(discord.utils.escape_mentions(text))


def _shown(value: Any) -> str:
    if value is True:
        return "yes"
    if isinstance(value, tuple):
        return "/".join(str(v) for v in value)
    return str(value)


def note_line(target: dict[str, Any]) -> str:
    """``From Host of Talabheim: Halberdiers · toughness 3, wounds 1, troop infantry (save typed)``."""
    filled = ", ".join(f"{k.replace('_', ' ')} {_shown(v)}" for k, v in target["filled"].items()) or "nothing"
    typed = f" ({', '.join(target['typed'])} typed)" if target["typed"] else ""
    unused = target.get("not_applied") or []
    missed = f" · not applied by this command: {', '.join(unused)}" if unused else ""
    return f"From {as_text(target['list'])}: {as_text(target['unit'])} · {filled}{typed}{missed}"


def annotate(interaction: Any, reply: Any) -> Any:
    """`reply` with the target's note: first in the footer (the glance shows it), a summary line
    and a ``from_list`` field for ``--json``; unchanged when no target was named."""
    extras = getattr(interaction, "extras", None) or {}
    target = extras.get(TARGET_KEY)
    if not target or "from_list" in reply.fields:
        return reply
    line = note_line(target)
    embed = reply.embed.copy()
    footer = embed.footer.text if embed.footer and embed.footer.text else ""
    embed.set_footer(text=(line + (" · " + footer if footer else ""))[:2000])
    fields = {**reply.fields, "from_list": {**target, "filled": {k: list(v) if isinstance(v, tuple) else v
                                                             for k, v in target["filled"].items()}}}
    return dataclasses.replace(reply, embed=embed, summary=(*reply.summary, line), fields=fields)
