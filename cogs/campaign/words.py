"""How settings, campaigns, battles and rosters read: embeds, plain summaries, --json fields, and
the battle report (Markdown) and export (JSON) that ``/battle end`` attaches. A battle's
fortifications are the channel's siege sections (storage/sieges.py, read as the engine's
:class:`SectionState`), shown by ``/battle status`` and listed in the report."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import discord

from engine.warmaster.structure import SectionState
from renders.campaign.battle import BattleBoard, BoardRow, FortRow
from cogs.common.replies import COLOUR_MISS, COLOUR_OK, Reply, clip_lines
from storage.campaigns import (  # noqa: F401  (PRIVATE_OUTCOME: its callers' name for it)
    PRIVATE_OUTCOME, Battle, Campaign, Machine, Shot, ShotTally, ShotTotals, SiegeEvent, silenced_until,
)
from storage.privacy import Forgotten, Purged
from storage.settings import Settings

SYSTEMS = {"fantasy": "warhammer-fantasy", "warmaster": "warmaster", "40k": "wh40k"}
GAME_NAMES = {"fantasy": "Warhammer Fantasy", "warmaster": "Warmaster", "40k": "Warhammer 40,000"}


def _reply(command: str, game: str, title: str, lines: list[str], *, colour=COLOUR_OK,
           fields: dict[str, Any] | None = None, embed_fields: list[tuple[str, list[str]]] = (),
           attachments: tuple[tuple[str, bytes], ...] = (), image: bytes | None = None, filename: str = "") -> Reply:
    embed = discord.Embed(title=title, description="\n".join(lines), colour=colour)
    summary = [title, *lines]
    for name, values in embed_fields:
        embed.add_field(name=name, value=clip_lines(values) or "none", inline=False)
        summary += [f"{name}:", *[f"  {v}" for v in values or ["none"]]]
    return Reply(embed, image, filename, command, SYSTEMS.get(game, game), (), tuple(summary), fields or {},
                 attachments=attachments)


def settings_reply(command: str, s: Settings, where: str, changed: str | None = None) -> Reply:
    role = f"<@&{s.gm_role_id}>" if s.gm_role_id else "none (server managers only)"
    mark = {f: " (this channel)" if f in s.overridden else ""
            for f in ("game", "private_rolls", "gm_role_id", "turns", "joining")}
    lines = [
        f"Default game: **{GAME_NAMES[s.game]}**{mark['game']}",
        f"Private rolls: **{'allowed' if s.private_rolls else 'not allowed'}**{mark['private_rolls']}",
        f"Campaign GM role: **{role}**{mark['gm_role_id']}",
        "Turns move on by: **" + ("players, another one confirming" if s.turns == "players" else "the GM only")
        + f"**{mark['turns']}",
        "Campaigns: **" + ("open to all" if s.joining == "open" else "by invitation (the GM adds players)")
        + f"**{mark['joining']}",
    ]
    title = changed or f"Settings for {where}"
    return _reply(command, s.game, title, lines, fields={"settings": {
        "game": s.game, "private_rolls": s.private_rolls, "gm_role_id": s.gm_role_id, "turns": s.turns,
        "joining": s.joining, "channel_overrides": list(s.overridden)}})


def _counted(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def forget_reply(f: Forgotten) -> Reply:
    """``/settings forget-me``: what went, and what stays and why (answered to the caller alone)."""
    gone = [
        _counted(f.memberships, "campaign membership"), _counted(f.battle_places, "place in a battle", "places in battles"),
        _counted(f.machines, "war machine"), _counted(f.shots, "recorded shot"), _counted(f.buttons, "button action"),
        _counted(f.armies, "army list"),
    ]
    lines = ["Deleted, in every server: " + ", ".join(gone) + "."]
    if f.unnamed:
        lines.append(f"Your id is blanked on {_counted(f.unnamed, 'record')} others keep: settings you changed, "
                     "campaigns and battles you started, machines you added for others.")
    if f.kept_log_entries:
        lines.append(f"Kept: your {_counted(f.kept_log_entries, 'roll log entry', 'roll log entries')}. The roll log is "
                     "sealed evidence: each entry's hash covers the one before it, so removing yours would break the "
                     "check of every later roll for every player of that log. A server manager's /settings "
                     "purge-server removes a server's logs whole.")
    else:
        lines.append("Kept: nothing (you have no roll log entries).")
    reply = _reply("settings forget-me", "any", "The bot has forgotten you", lines, fields={"forgotten": dataclasses.asdict(f)})
    return dataclasses.replace(reply, private=True)


def purge_reply(server: str, p: Purged) -> Reply:
    """``/settings purge-server``: what was removed."""
    counts = [
        _counted(p.settings, "settings row"), _counted(p.campaigns, "campaign"), _counted(p.battles, "battle"),
        _counted(p.machines, "war machine"), _counted(p.shots, "recorded shot"), _counted(p.buttons, "button action"),
        _counted(p.siege_sections, "siege section"), _counted(p.roll_logs, "roll log"),
        _counted(p.roll_entries, "roll log entry", "roll log entries"), _counted(p.armies, "army list"),
    ]
    lines = ["Deleted: " + ", ".join(counts) + ".",
             "Nothing of this server is left in the bot's store; roll numbers and settings start afresh."]
    return _reply("settings purge-server", "any", f"Everything the bot kept for {server} is deleted", lines,
                  fields={"purged": {**dataclasses.asdict(p), "total": p.total}})


def machine_line(m: Machine, battle: Battle | None = None, *, owner: bool = True) -> str:
    bs = f", BS {m.bs}" if m.bs is not None else ""
    who = f" · <@{m.owner_id}>" if owner else ""
    return f"**{m.name}** ({m.kind}, crew {m.crew}/{m.crew_max}{bs}){who}: {m.status(battle)}"


def machine_json(m: Machine, battle: Battle | None = None) -> dict[str, Any]:
    return {"name": m.name, "kind": m.kind, "game": m.game, "crew": m.crew, "crew_max": m.crew_max, "bs": m.bs,
            "owner": m.owner_id, "state": m.state, "status": m.status(battle),
            "silent_until_turn": m.silent_until_turn if m.silenced_in(battle) else None}


def campaign_reply(command: str, game: str, c: Campaign, title: str, battles: list[dict],
                   roster: list[Machine]) -> Reply:
    lines = [f"Members ({len(c.members)}): " + (", ".join(f"<@{u}>" for u in c.members) or "none"),
             f"Battles: {len(battles)}" + (f", one in progress in <#{b['channel_id']}>" if (b := next(
                 (b for b in battles if b["ended_at"] is None), None)) else "")]
    return _reply(command, game, title, lines, embed_fields=[("War machines", [machine_line(m) for m in roster])],
                  fields={"campaign": {"name": c.name, "members": list(c.members), "battles": len(battles),
                                       "machines": [machine_json(m) for m in roster]}})


def battle_json(b: Battle) -> dict[str, Any]:
    return {"id": b.id, "channel": b.channel_id, "campaign": b.campaign, "turn": b.turn, "players": list(b.players),
            "started_by": b.started_by, "started_at": _time(b.started_at),
            "ended_at": _time(b.ended_at) if b.ended_at else None, "turn_asked_by": b.turn_asked_by}


def section_kind(s: SectionState) -> str:
    return f"{s.structure.name}{' gate' if s.gate else ''}"


def section_points(s: SectionState) -> int:
    return s.structure.gate_points if s.gate and s.structure.gate_points else s.structure.points


def section_state(s: SectionState) -> str:
    return "breached" if s.breached else f"{s.tokens} Destruction Token{'s' * (s.tokens != 1)}"


def section_line(s: SectionState) -> str:
    return f"**{s.name}** ({section_kind(s)}, {section_points(s)} structure points): {section_state(s)}"


def section_json(s: SectionState) -> dict[str, Any]:
    return {"section": s.name, "kind": s.structure.key, "gate": s.gate, "structure_points": section_points(s),
            "tokens": s.tokens, "breached": s.breached}


def shots_line(shots: Sequence[Shot] | ShotTally, siege: Sequence[SiegeEvent] = (), siege_count: int | None = None) -> str:
    """``Shots so far: 5 (2 of them siege rolls)``: the roster's shots and the /siege rolls together."""
    n = len(siege) if siege_count is None else siege_count
    line = f"Shots so far: {len(shots) + n}"
    if n:
        line += f" ({n} of them siege roll{'s' if n != 1 else ''})"
    return line


def battle_reply(command: str, game: str, b: Battle, title: str, roster: list[Machine],
                 shots: Sequence[Shot] | ShotTally, image: bytes | None = None,
                 sections: tuple[SectionState, ...] | None = None, note: str | None = None,
                 siege: Sequence[SiegeEvent] = (), siege_count: int | None = None) -> Reply:
    """A battle; with `sections` (``/battle status``) its fortifications too: an embed field and
    ``--json`` ``fortifications``; `note` is a line on what the command just did; `siege`, the
    battle's /siege rolls (the last of `siege_count`), count among its shots."""
    lines = ([note] if note else []) + [
        f"Turn **{b.turn}**" + (f" · campaign **{b.campaign}**" if b.campaign else ""),
        "Players: " + (", ".join(f"<@{u}>" for u in b.players) or "none"),
        shots_line(shots, siege, siege_count)]
    if b.turn_asked_by is not None and not note:
        lines.append(f"<@{b.turn_asked_by}> asked to move on from turn {b.turn}: another player or the GM confirms.")
    embed_fields = [("War machines", [machine_line(m, b) for m in roster])]
    fields = {"battle": battle_json(b), "machines": [machine_json(m, b) for m in roster]}
    if siege:
        embed_fields.append(("Siege rolls", [siege_line(e) for e in siege]))
        fields["siege"] = [siege_json(e) for e in siege]
    if siege or siege_count:
        fields["siege_rolls"] = len(siege) if siege_count is None else siege_count
    if sections is not None:
        if sections:
            embed_fields.append(("Fortifications", [section_line(s) for s in sections]))
        fields["fortifications"] = [section_json(s) for s in sections]
    return _reply(command, game, title, lines, embed_fields=embed_fields, fields=fields, image=image, filename="battle.png")


def siege_line(e: SiegeEvent) -> str:
    """``Turn 2, /siege structure at West wall: tokens 1 -> 2``; ``... : the wall fell``."""
    where = f" at {e.section}" if e.section else ""
    if e.fell:
        what = f"{e.fell} fell"
    elif e.tokens_before is not None:
        what = f"Destruction Tokens {e.tokens_before} -> {e.tokens_after}"
    else:
        what = e.outcome
    return f"Turn {e.turn}, /{e.command}{where}: {what}"


def siege_json(e: SiegeEvent) -> dict[str, Any]:
    return {"turn": e.turn, "command": e.command, "user": e.user_id, "section": e.section,
            "tokens_before": e.tokens_before, "tokens_after": e.tokens_after, "fell": e.fell,
            "outcome": e.outcome, "at": e.at}


def private_apart(totals: ShotTotals) -> str:
    """How many private shots a battle's totals leave out (their hits and misfires are their rollers'):
    ``; 1 private shot, not counted`` or nothing."""
    n = totals.private
    return f"; {n} private shot{'s' * (n != 1)}, not counted" if n else ""


def shown_hits(s: Shot) -> str:
    return "-" if s.outcome == PRIVATE_OUTCOME else str(s.hits)


def battle_board(b: Battle, roster: list[Machine], shots: Sequence[Shot] | ShotTally, owner_name,
                 sections: tuple[SectionState, ...] = (), siege: Sequence[SiegeEvent] = (),
                 siege_count: int | None = None) -> BattleBoard:
    """What the /battle status picture shows; `owner_name(user_id)` names a player."""
    lost_at: dict[str, int] = {}
    silences: dict[str, list[tuple[int, int]]] = {}
    if isinstance(shots, ShotTally):
        lost_at.update(shots.lost_at)
        for machine, turn, until in shots.silences:
            silences.setdefault(machine, []).append((turn, until))
    else:
        for s in shots:
            if s.state_after.startswith("destroyed"):
                lost_at.setdefault(s.machine, s.turn)
            until = silenced_until(s.state_after)
            if until is not None:
                silences.setdefault(s.machine, []).append((s.turn, until))
    siege_n = len(siege) if siege_count is None else siege_count
    rows = []
    for m in roster:
        state = "destroyed" if m.state == "destroyed" else "silenced" if m.silenced_in(b) else "ready"
        rows.append(BoardRow(m.name, m.kind, owner_name(m.owner_id), m.crew, m.crew_max, state,
                             m.silent_until_turn if state == "silenced" else None, lost_at.get(m.name),
                             tuple(silences.get(m.name, ()))))
    title = f"Battle {b.id}: turn {b.turn}" + (f" · {b.campaign}" if b.campaign else "")
    sub = f"{len(b.players)} player{'s' if len(b.players) != 1 else ''} · {len(shots)} shot{'s' if len(shots) != 1 else ''} from the roster"
    if siege_n:
        sub += f" · {siege_n} siege roll{'s' if siege_n != 1 else ''}"
    forts = tuple(FortRow(x.name, section_kind(x), section_points(x), x.tokens, x.breached) for x in sections)
    return BattleBoard(title, sub, b.turn, tuple(rows), forts)


def _time(t: float) -> str:
    return dt.datetime.fromtimestamp(t, dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def namer(names: Mapping[int, str] | None) -> Callable[[int], str]:
    """A user's display name for a report file, from `names` (what the server shows); one it does
    not know is "player 1", "player 2"... in order of appearance, never its raw id (ids are in the
    JSON export only)."""
    known = dict(names or {})
    unknown: dict[int, str] = {}

    def name(user_id: int) -> str:
        if user_id in known:
            return known[user_id].replace("|", "/")
        return unknown.setdefault(user_id, f"player {len(unknown) + 1}")

    return name


def battle_report(b: Battle, roster: list[Machine], shots: list[Shot], sections: tuple[SectionState, ...] = (),
                  names: Mapping[int, str] | None = None, siege: Sequence[SiegeEvent] = (), *,
                  totals: ShotTotals, channel: str | None = None) -> str:
    """The Markdown report ``/battle end`` attaches: people by their display names (`names`); the
    battle's /siege rolls turn by turn (`siege`); its totals as counted in SQL (`totals`,
    storage.campaigns.shot_totals)."""
    name = namer(names)
    out = [f"# Battle report: battle {b.id}" + (f", campaign {b.campaign}" if b.campaign else ""), "",
           f"- Channel: {'#' + channel if channel else f'channel {b.channel_id}'}",
           f"- Started: {_time(b.started_at)} by {name(b.started_by)}",
           f"- Ended: {_time(b.ended_at) if b.ended_at else 'in progress'}", f"- Turns: {b.turn}",
           f"- Players: {', '.join(name(u) for u in b.players) or 'none'}",
           f"- Shots: {totals.shots} ({totals.misfired} misfired), hits: {totals.hits}{private_apart(totals)}",
           f"- War machines lost: {', '.join(totals.lost) or 'none'}",
           f"- Siege rolls: {len(siege)}" + (f" ({', '.join(e.fell for e in siege if e.fell)} fell)"
                                              if any(e.fell for e in siege) else ""),
           f"- Fortifications breached: {', '.join(x.name for x in sections if x.breached) or 'none'}",
           "", "## Shots", ""]
    if shots:
        out += ["| # | turn | machine | command | player | hits | outcome | machine after |",
                "| --- | --- | --- | --- | --- | --- | --- | --- |"]
        for i, s in enumerate(shots, 1):
            cells = [str(i), str(s.turn), s.machine, f"/fire {s.kind}", name(s.user_id), shown_hits(s), s.outcome,
                     s.state_after]
            out.append("| " + " | ".join(c.replace("|", "/") for c in cells) + " |")
    else:
        out.append("No war machine fired from the roster.")
    out += ["", "## Siege, turn by turn", ""]
    if siege:
        for turn in dict.fromkeys(e.turn for e in siege):
            out.append(f"### Turn {turn}")
            out.append("")
            for e in (e for e in siege if e.turn == turn):
                tokens = ("" if e.tokens_before is None else
                          f"; Destruction Tokens {e.tokens_before} -> {e.tokens_after}")
                fell = f"; **{e.fell} fell**" if e.fell else ""
                out.append(f"- /{e.command}" + (f" at {e.section}" if e.section else "") + f" by {name(e.user_id)}"
                           + f"{tokens}{fell}: {e.outcome}".replace("\n", " "))
            out.append("")
        out.pop()
    else:
        out.append("No siege roll during this battle.")
    out += ["", "## War machines at the end", ""]
    out += [f"- {m.name} ({m.kind}, owner {name(m.owner_id)}): crew {m.crew}/{m.crew_max}, {m.status(b)}" for m in roster] or ["- none"]
    out += ["", "## Fortifications at the end", ""]
    if sections:
        out += ["| section | kind | structure points | Destruction Tokens | state |", "| --- | --- | --- | --- | --- |"]
        for x in sections:
            cells = [x.name, section_kind(x), str(section_points(x)), "-" if x.breached else str(x.tokens),
                     "breached" if x.breached else "standing"]
            out.append("| " + " | ".join(c.replace("|", "/") for c in cells) + " |")
    else:
        out.append("No siege in this channel.")
    return "\n".join(out) + "\n"


def battle_export(b: Battle, roster: list[Machine], shots: list[Shot],
                  sections: tuple[SectionState, ...] = (), siege: Sequence[SiegeEvent] = (), *,
                  totals: ShotTotals) -> dict[str, Any]:
    """The JSON export ``/battle end`` attaches: the battle, every shot, the siege rolls, the
    machines and the fortifications at the end (its totals as `battle_report`'s)."""
    return {
        "battle": battle_json(b),
        "totals": {"turns": b.turn, "shots": totals.shots, "hits": totals.hits, "misfired": totals.misfired,
                   "private_shots": totals.private, "machines_lost": list(totals.lost),
                   "siege_rolls": len(siege), "sections_fallen": [e.fell for e in siege if e.fell]},
        "siege": [siege_json(e) for e in siege],
        "shots": [{"turn": s.turn, "machine": s.machine, "command": f"fire {s.kind}", "user": s.user_id,
                   **({"fired": None, "hits": None} if s.outcome == PRIVATE_OUTCOME else {"fired": s.fired, "hits": s.hits}),
                   "outcome": s.outcome, "machine_after": s.state_after,
                   "at": s.at} for s in shots],
        "machines": [machine_json(m, b) for m in roster],
        "fortifications": [section_json(x) for x in sections],
    }


def in_battle(sections: Sequence[SectionState], siege: Sequence[SiegeEvent]) -> tuple[SectionState, ...]:
    """The fortress sections this battle's /siege rolls tested or battered: a section made before
    the battle (or in another game) and never rolled at during it is none of the battle's."""
    rolled = {e.section.casefold() for e in siege if e.section}  # as typed ("North Gate"); kept folded
    return tuple(x for x in sections if x.name.casefold().removesuffix(" (gate)") in rolled)  # a gate: "gatehouse (gate)"


def battle_end_reply(game: str, b: Battle, roster: list[Machine], shots: list[Shot],
                     sections: tuple[SectionState, ...] = (), names: Mapping[int, str] | None = None,
                     siege: Sequence[SiegeEvent] = (), *, totals: ShotTotals, channel: str | None = None) -> Reply:
    sections = in_battle(sections, siege)
    export = battle_export(b, roster, shots, sections, siege, totals=totals)
    counted = export["totals"]
    siege_part = f" · siege rolls: **{len(siege)}**" if siege else ""
    lines = [f"Turns: **{b.turn}** · shots: **{counted['shots']}**{siege_part} · hits: **{counted['hits']}**"
             + (f" ({private_apart(totals)[2:]})" if totals.private else ""),
             "War machines lost: " + (", ".join(counted["machines_lost"]) or "none"),
             "Players: " + (", ".join(f"<@{u}>" for u in b.players) or "none")]
    stem = f"battle-{b.guild_id}-{b.id}"
    if sections:
        breached = [x.name for x in sections if x.breached]
        lines.insert(2, f"Fortifications breached: {len(breached)} of {len(sections)}" + (f" ({', '.join(breached)})" if breached else ""))
    files = ((f"{stem}.md", battle_report(b, roster, shots, sections, names, siege, totals=totals, channel=channel).encode()),
             (f"{stem}.json", json.dumps(export, indent=2, ensure_ascii=False).encode()))
    return _reply("battle end", game, f"Battle over after {b.turn} turn{'s' if b.turn != 1 else ''}", lines,
                  colour=COLOUR_MISS, fields={"battle": battle_json(b), "totals": counted}, attachments=files)


def roster_reply(command: str, game: str, title: str, roster: list[Machine], battle: Battle | None,
                 machine: Machine | None = None, colour=COLOUR_OK,
                 empty: str = "No war machines on this roster yet: /machine add.") -> Reply:
    fields: dict[str, Any] = {"machines": [machine_json(m, battle) for m in roster]}
    if machine is not None:
        fields["machine"] = machine_json(machine, battle)
    lines = [machine_line(m, battle) for m in roster] or [empty]
    return _reply(command, game, title, lines, fields=fields, colour=colour)




def with_roll_log(reply: Reply, lines: list[str], log: dict[str, Any],
                  files: tuple[tuple[str, bytes], ...] = ()) -> Reply:
    """A battle reply with its roll log: the commitment at the start, the secret and the log's
    export (JSON, for ``bot.py verify``) at the end; ``--json`` gets them as ``roll_log``."""
    reply.embed.add_field(name="Roll log", value=clip_lines(lines), inline=False)
    return dataclasses.replace(reply, summary=(*reply.summary, "Roll log:", *[f"  {x}" for x in lines]),
                               fields={**reply.fields, "roll_log": log}, attachments=(*reply.attachments, *files))
