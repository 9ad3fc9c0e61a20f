"""How the roll log reads: ``/log show``, ``/log export`` and ``/log reveal`` (the line a roll
shows when it starts a chain is cogs/common/ledger.py's). Pure functions of storage's records and the export JSON."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

import discord

from cogs.common.ledger import chain_words
from cogs.common.replies import COLOUR_OK, Reply, shorten
from engine.errors import RulesError
from engine.ledger import Entry
from cogs.dice.words.verifier import page
from storage.roll_log import Chain, Reveal, export_csv

VERIFY_HINT = ("Anyone can check an export with nothing installed: open the attached .html page in a browser "
               "(or python bot.py verify <export.json> --head <hash>)")


ENTRY_ROOM = 520
"""Characters of one entry in /log show's details: ten entries (its most) within Discord's 6,000
per message; the export keeps every line."""

PRIVATE_HIDDEN = "a private roll (its result: to the roller, the GM role and managers, and in the export)"


def hidden(e: Entry, viewer: str | None) -> bool:
    """A private entry's result is hidden from `viewer` (None: one who sees every result)."""
    return viewer is not None and dict(e.options).get("private") is True and e.user != viewer


def entry_summary(e: Entry, viewer: str | None) -> str:
    if hidden(e, viewer):
        return PRIVATE_HIDDEN
    return ("(private) " if dict(e.options).get("private") is True else "") + "; ".join(e.summary)


def entry_lines(e: Entry, viewer: str | None = None, limit: int = ENTRY_ROOM) -> str:
    entered = sum(1 for d in e.dice if d.by == "player")
    dice = f"{len(e.dice)} dice" + (f" ({entered} entered)" if entered else "")
    last = f"{dice} · hash {e.hash[:12]}"
    first = f"<@{e.user}>: " + entry_summary(e, viewer)
    room = limit - len(last) - 1  # the hash line always shows; a long result is shortened at a word
    if len(first) > room:
        first = shorten(first, room)
    return f"{first}\n{last}"


def battle_words(battles: list[dict]) -> str:
    """``battle:3 (ended, 12 rolls), battle:5 (in progress, 2 rolls)``."""
    return ", ".join(f"battle:{b['id']} ({'ended' if b['ended'] else 'in progress'}, {b['rolls']} roll(s))"
                     for b in battles)


def battles_reply(battles: list[dict]) -> Reply:
    """/log export where the channel's own log is empty but its battles have logs."""
    text = (f"This channel's own log has no rolls yet; its battles' logs are {battle_words(battles)}. "
            f"/log export battle:N exports one (with its page to check it).")
    embed = discord.Embed(title="Roll logs here", description=text, colour=COLOUR_OK)
    return Reply(embed=embed, image=None, filename="", command="log export", system="any", dice=(), summary=(text,),
                 fields={"entries": 0, "battles": battles})


def show_reply(chain: Chain | None, entries: list[Entry], asked: int, *, viewer: str | None = None,
               battles: list[dict] | None = None) -> Reply:
    """`viewer`: the user id asking, whose view hides other players' private results; None for
    one who sees them all (the GM role, managers). `battles`: the channel's battle logs, named
    when the channel's own log is empty."""
    if chain is None and battles:
        text = (f"Nothing has been rolled in this channel outside its battles; their logs are {battle_words(battles)} "
                "(/log export battle:N).")
        embed = discord.Embed(title="Roll log", description=text, colour=COLOUR_OK)
        return Reply(embed=embed, image=None, filename="", command="log show", system="any", dice=(),
                     summary=(text,), fields={"entries": [], "battles": battles})
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
    glance = tuple(f"#{e.number} /{e.command} · <@{e.user}>: {shorten(entry_summary(e, viewer).split('; Dice:')[0], 110)}"
                   for e in entries)
    return Reply(embed=embed, image=None, filename="", command="log show", system="any", dice=(), summary=summary,
                 glance_lines=glance,
                 fields={"chain": chain.chain, "epoch": chain.epoch, "commitment": chain.commitment,
                         "asked": asked, "entries": shown})


def export_files(data: dict[str, Any], stem: str, *, csv: bool = True) -> tuple[tuple[str, bytes], ...]:
    """An export's attachments: the JSON, the CSV, and the page that checks it with nothing
    installed (the export inside it: cogs/dice/words/verifier.py)."""
    return (
        (f"{stem}.json", json.dumps(data, indent=1, ensure_ascii=False).encode("utf-8")),
        *(((f"{stem}.csv", export_csv(data).encode("utf-8")),) if csv else ()),
        (f"{stem}.html", page(data)),
    )


def _files(data: dict[str, Any]) -> tuple[tuple[str, bytes], ...]:
    return export_files(data, f"roll-log-epoch{data['epoch']}")


def withheld_words(r: Reveal) -> str:
    """Why a revealed epoch's log is not attached: it began before private rolls could be sealed,
    and it holds some, so posting it would show them in full."""
    n = r.withheld
    return (f"The log is not attached: this epoch began before private rolls could be sealed, and it holds {n} "
            f"private roll{'s' * (n != 1)}, which would show in full. The GM or a manager gets it whole with "
            f"/log export epoch:{r.export['epoch']} (the secret in it), to check against the head hash above.")


def head_line(data: dict[str, Any]) -> str:
    """The head hash and count a player checks an export against (posted in the channel)."""
    n = data.get("count", len(data["entries"]))
    head = data.get("head") or (data["entries"][-1]["hash"] if data["entries"] else data["commitment"])
    return (f"Head hash after {n} entr{'y' if n == 1 else 'ies'}: {head}. An export that does not end with it "
            "was cut short or changed.")


UPLOAD_BUDGET = 24 * 1024 * 1024
"""Bytes of attachments one reply may carry: Discord refuses a message whose files pass 25 MiB,
and the message itself takes a little."""


def fit_upload(files: tuple[tuple[str, bytes], ...], stem: str,
               budget: int = UPLOAD_BUDGET) -> tuple[tuple[tuple[str, bytes], ...], str | None]:
    """The export's files as they fit one message: as they are; else one ZIP of them all
    (deflated: a log's JSON, CSV and page shrink about tenfold), with a sentence saying so; else
    a RulesError saying how to export less (never a message Discord would refuse)."""
    if sum(len(b) for _, b in files) <= budget:
        return files, None
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as z:
        for name, body in files:
            z.writestr(name, body)
    packed = out.getvalue()
    size = sum(len(b) for _, b in files)
    if len(packed) > budget:
        raise RulesError(f"This log is too big to attach even compressed ({len(packed) / 2**20:.0f} MiB of "
                         f"{size / 2**20:.0f} MiB; Discord takes {budget / 2**20:.0f} MiB): export one epoch at a "
                         "time with epoch:N (each /log reveal starts a new one).")
    note = (f"The files come to {size / 2**20:.1f} MiB, past Discord's upload limit, so they are compressed into "
            f"{stem}.zip ({len(packed) / 2**20:.1f} MiB): unzip it, then open the .html page as usual.")
    return ((f"{stem}.zip", packed),), note


def export_reply(data: dict[str, Any], battles: list[dict] = (), *, budget: int = UPLOAD_BUDGET) -> Reply:
    """`battles`: the channel's other battle logs, named so they can be exported too. Past the
    upload limit the files go in one ZIP, and the reply says so (:func:`fit_upload`)."""
    n = len(data["entries"])
    revealed = data["secret"] is not None
    sealed = [e["roll"] for e in data["entries"] if e.get("sealed")]
    text = (f"{chain_words(data['chain']).capitalize()}, epoch {data['epoch']}: {n} roll(s), as JSON and CSV, and a page "
            "that checks it: open the .html file in a browser, nothing to install. "
            + ("The secret is revealed: the bot's dice can be checked." if revealed else
               "The secret is not revealed yet: the chain can be checked now, the dice after /log reveal.")
            + (f" {len(sealed)} private roll(s) of other players are sealed: in the chain, their content hidden."
               if sealed else "")
            + (f" This channel's battle logs: {battle_words(list(battles))} (/log export battle:N)." if battles else ""))
    files, packed = fit_upload(_files(data), f"roll-log-epoch{data['epoch']}", budget)
    if packed:
        text += " " + packed
    embed = discord.Embed(title="Roll log export", description=text, colour=COLOUR_OK)
    embed.set_footer(text=VERIFY_HINT)
    return Reply(embed=embed, image=None, filename="", command="log export", system="any", dice=(), summary=(text,),
                 fields={"chain": data["chain"], "epoch": data["epoch"], "entries": n, "revealed": revealed,
                         "head": data.get("head"), "count": data.get("count", n), "sealed": sealed,
                         "compressed": packed is not None},
                 attachments=files)


def unseal_reply(chain: str, e: Entry) -> Reply:
    text = (f"Roll {e.number} of {chain_words(chain)} (/{e.command}, by <@{e.user}>) is unsealed: every export from "
            f"now on shows it in full, and both verifiers check it against the seal it had ({e.seal}).")
    embed = discord.Embed(title="Private roll unsealed", description=text, colour=COLOUR_OK)
    return Reply(embed=embed, image=None, filename="", command="log unseal", system="any", dice=(), summary=(text,),
                 fields={"chain": chain, "roll": e.number, "seal": e.seal, "entry": e.json()})


def reveal_reply(r: Reveal) -> Reply:
    data = r.export
    text = (f"The secret of epoch {data['epoch']} ({len(data['entries'])} roll(s)) is {r.secret.hex()}; its SHA-256 is "
            f"the commitment {data['commitment']}. {head_line(data)} Rolls from now on use a new secret "
            f"(epoch {data['epoch'] + 1}), commitment {r.next_commitment}.")
    files, packed = fit_upload(_files(data), f"roll-log-epoch{data['epoch']}") if not r.withheld else ((), None)
    if packed:
        text += " " + packed
    if r.withheld:
        text += " " + withheld_words(r)
    embed = discord.Embed(title="Roll log secret revealed", description=text, colour=COLOUR_OK)
    embed.set_footer(text=VERIFY_HINT)
    return Reply(embed=embed, image=None, filename="", command="log reveal", system="any", dice=(), summary=(text,),
                 fields={"chain": data["chain"], "epoch": data["epoch"], "secret": r.secret.hex(),
                         "commitment": data["commitment"], "next_commitment": r.next_commitment,
                         "head": data["head"], "count": data["count"], "compressed": packed is not None},
                 attachments=files)
