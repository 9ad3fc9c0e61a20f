"""How the roll log reads: ``/log show``, ``/log export`` and ``/log reveal`` (the line a roll
shows when it starts a chain is cogs/common/ledger.py's). Pure functions of storage's records and the export JSON."""

from __future__ import annotations

import json
from typing import Any

import discord

from cogs.common.ledger import chain_words
from cogs.common.replies import COLOUR_OK, Reply
from engine.ledger import Entry
from storage.roll_log import Chain, Reveal, export_csv

VERIFY_HINT = "Anyone can check an export offline: python bot.py verify <export.json>"


PRIVATE_HIDDEN = "a private roll (its result: to the roller, the GM role and managers, and in the export)"


def hidden(e: Entry, viewer: str | None) -> bool:
    """A private entry's result is hidden from `viewer` (None: one who sees every result)."""
    return viewer is not None and dict(e.options).get("private") is True and e.user != viewer


def entry_summary(e: Entry, viewer: str | None) -> str:
    if hidden(e, viewer):
        return PRIVATE_HIDDEN
    return ("(private) " if dict(e.options).get("private") is True else "") + "; ".join(e.summary)


def entry_lines(e: Entry, viewer: str | None = None, limit: int = 1000) -> str:
    entered = sum(1 for d in e.dice if d.by == "player")
    dice = f"{len(e.dice)} dice" + (f" ({entered} entered)" if entered else "")
    last = f"{dice} · hash {e.hash[:12]}"
    first = f"<@{e.user}>: " + entry_summary(e, viewer)
    room = limit - len(last) - 1  # the hash line always shows; a long result is shortened
    if len(first) > room:
        first = first[: room - 1] + "…"
    return f"{first}\n{last}"


def show_reply(chain: Chain | None, entries: list[Entry], asked: int, *, viewer: str | None = None) -> Reply:
    """`viewer`: the user id asking, whose view hides other players' private results; None for
    one who sees them all (the GM role, managers)."""
    if chain is None:
        embed = discord.Embed(title="Roll log", description="Nothing has been rolled in this channel yet.", colour=COLOUR_OK)
        return Reply(embed=embed, image=None, filename="", command="log show", system="any", dice=(),
                     summary=("Nothing has been rolled in this channel yet.",), fields={"entries": []})
    rolls = chain.next_roll - 1 if chain.logged is None else chain.logged
    head = (f"{chain_words(chain.chain).capitalize()}, epoch {chain.epoch}: {rolls} roll(s). "
            f"Commitment (SHA-256 of the secret): {chain.commitment}")
    embed = discord.Embed(title=f"Roll log: the last {len(entries)} of {rolls}", description=head, colour=COLOUR_OK)
    names = [f"#{e.number} /{e.command} · {e.time[:16].replace('T', ' ')} UTC"[:256] for e in entries]
    # Ten long results would pass Discord's 6,000 characters for the whole embed: each entry gets
    # its share of what the title, description, footer and field names leave.
    fixed = len(embed.title) + len(head) + len(VERIFY_HINT) + sum(map(len, names))
    share = max(120, min(1000, (5900 - fixed) // max(1, len(entries))))
    for name, e in zip(names, entries):
        embed.add_field(name=name, value=entry_lines(e, viewer, share), inline=False)
    if not entries:
        embed.add_field(name="No rolls yet", value="This epoch has no rolls yet.", inline=False)
    embed.set_footer(text=VERIFY_HINT)
    summary = (head,) + tuple(f"#{e.number} {e.command}: {entry_summary(e, viewer)}" for e in entries)
    shown = [{"roll": e.number, "time": e.time, "user": e.user, "command": e.command, "private": True, "hash": e.hash}
             if hidden(e, viewer) else e.json() for e in entries]
    return Reply(embed=embed, image=None, filename="", command="log show", system="any", dice=(), summary=summary,
                 fields={"chain": chain.chain, "epoch": chain.epoch, "commitment": chain.commitment,
                         "asked": asked, "entries": shown})


def _files(data: dict[str, Any]) -> tuple[tuple[str, bytes], ...]:
    stem = f"roll-log-epoch{data['epoch']}"
    return (
        (f"{stem}.json", json.dumps(data, indent=1, ensure_ascii=False).encode("utf-8")),
        (f"{stem}.csv", export_csv(data).encode("utf-8")),
    )


def export_reply(data: dict[str, Any]) -> Reply:
    n = len(data["entries"])
    revealed = data["secret"] is not None
    text = (f"{chain_words(data['chain']).capitalize()}, epoch {data['epoch']}: {n} roll(s), as JSON and CSV. "
            + ("The secret is revealed: the bot's dice can be checked." if revealed else
               "The secret is not revealed yet: the chain can be checked now, the dice after /log reveal."))
    embed = discord.Embed(title="Roll log export", description=text, colour=COLOUR_OK)
    embed.set_footer(text=VERIFY_HINT)
    return Reply(embed=embed, image=None, filename="", command="log export", system="any", dice=(), summary=(text,),
                 fields={"chain": data["chain"], "epoch": data["epoch"], "entries": n, "revealed": revealed},
                 attachments=_files(data))


def reveal_reply(r: Reveal) -> Reply:
    data = r.export
    text = (f"The secret of epoch {data['epoch']} ({len(data['entries'])} roll(s)) is {r.secret.hex()}; its SHA-256 is "
            f"the commitment {data['commitment']}. Rolls from now on use a new secret (epoch {data['epoch'] + 1}), "
            f"commitment {r.next_commitment}.")
    embed = discord.Embed(title="Roll log secret revealed", description=text, colour=COLOUR_OK)
    embed.set_footer(text=VERIFY_HINT)
    return Reply(embed=embed, image=None, filename="", command="log reveal", system="any", dice=(), summary=(text,),
                 fields={"chain": data["chain"], "epoch": data["epoch"], "secret": r.secret.hex(),
                         "commitment": data["commitment"], "next_commitment": r.next_commitment},
                 attachments=_files(data))
