"""How a ``/rules`` answer and the ``/help`` page read: pure functions of the entries and the
command tree, each to a :class:`Reply` (embed, plain summary, ``--json`` fields)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from cogs.common.replies import COLOUR_MISS, COLOUR_OK, Reply, clip_lines
from config.rules import GAMES, RuleEntry, RulesTable, help_page, outside_rules, resolve
from storage.rules_index import Found

FIELD = 1024
"""Discord's limit on one embed field's value."""
ALSO_SHOWN = 4
"""Other matches named under the answer."""


def table_lines(table: RulesTable) -> list[str]:
    """A profile on one line (``Range: 12-48" · Strength: 10 · ...``); a chart its headings, then a
    row per line (the first cell bold)."""
    if len(table.rows) == 1:
        return [" · ".join(f"{h}: {c}" for h, c in zip(table.headings, table.rows[0]))]
    return [" · ".join(table.headings), *(f"**{row[0]}** {' · '.join(row[1:])}" for row in table.rows)]


def field_chunks(lines: list[str], limit: int = FIELD) -> list[str]:
    """Lines joined into as few field values of at most `limit` characters as they fit in, so a long
    chart runs on into a second field instead of losing rows."""
    chunks: list[list[str]] = [[]]
    for line in lines:
        line = _clip(line, limit)
        if chunks[-1] and len("\n".join([*chunks[-1], line])) > limit:
            chunks.append([])
        chunks[-1].append(line)
    return ["\n".join(c) for c in chunks]


def table_json(table: RulesTable) -> dict[str, Any]:
    return {"title": table.title, "headings": list(table.headings), "rows": [list(r) for r in table.rows]}


def entry_json(e: RuleEntry) -> dict[str, Any]:
    return {"name": e.name, "game": e.game, "source": e.source, "key": e.key}


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def rules_reply(found: Found, related: list[RuleEntry]) -> Reply:
    """The answer to ``/rules``: the best entry in full with its tables, source and related
    entries, and the next matches by name; or, when nothing matched, the nearest entries."""
    first, others = found.entries[0], found.entries[1:]
    if not found.matched:
        return _nearest_reply(found)
    profile = resolve(first.profile) if first.profile else None
    chart = resolve(first.chart) if first.chart else None
    embed = discord.Embed(title=f"{first.name} · {first.game_name}",
                          description=_clip(first.summary, 3800) + "\n" + report_line(), colour=COLOUR_OK)
    summary = [f"{first.name} ({first.game_name}): {first.summary}"]
    for label, table in (("Profile", profile), ("Chart", chart)):
        if table is not None:
            lines = table_lines(table)
            for i, value in enumerate(field_chunks(lines)):
                embed.add_field(name=f"{label}: {table.title}" + (" (continued)" if i else ""), value=value, inline=False)
            summary += [f"{label}: {table.title}"] + [f"  {line.replace('**', '')}" for line in lines]
    embed.add_field(name="Source", value=_clip(first.source, FIELD), inline=False)
    summary.append(f"Source: {first.source}")
    if related:
        names = " · ".join(_name_in(r, first) for r in related)
        embed.add_field(name="Related", value=_clip(names, FIELD), inline=False)
        summary.append(f"Related: {names}")
    also = [e for e in others if e not in related][:ALSO_SHOWN]
    if also:
        names = " · ".join(f"{e.name} ({e.game_name})" for e in also)
        embed.add_field(name="Also matching", value=_clip(names, FIELD), inline=False)
        summary.append(f"Also matching: {names}")
    embed.set_footer(text=f"{first.game_name}: {_covers(first.game)}")
    fields: dict[str, Any] = {
        "query": found.query, "matched": True, "entries": [entry_json(e) for e in (first, *also)],
        "related": [entry_json(e) for e in related],
        "profile": table_json(profile) if profile else None, "chart": table_json(chart) if chart else None,
    }
    return Reply(embed=embed, image=None, filename="", command="rules", system=first.game, dice=(),
                 summary=tuple(summary), fields=fields)


def _name_in(entry: RuleEntry, beside: RuleEntry) -> str:
    return entry.name if entry.game == beside.game else f"{entry.name} ({entry.game_name})"


NOT_HELD = "not in the rulebooks Bombardier holds"
"""What a /rules answer's title says when nothing matches well (issue 30)."""


def report_line() -> str:
    """Where to report a rules mistake, as a link when the host gave the address (help.toml's
    ``report_url`` or ``BOMBARDIER_REPORT_URL``)."""
    url = help_page().report_url
    if url:
        return f"A rules mistake? [Report it]({url}) with the command, the answer and the book's page."
    return "A rules mistake? Report it with the command, the answer and the book's page: /help says where."


def _covers(game: str) -> str:
    out = outside_rules().get(game)
    return f"Bombardier holds {out.covers.split(': ', 1)[-1]}" if out else f"Bombardier holds {GAMES[game]}'s rules"


def _nearest_reply(found: Found) -> Reply:
    lines = [f"{e.name} ({e.game_name})" for e in found.entries]
    asked = found.query.strip()
    if found.elsewhere is not None:
        title = f"'{_clip(asked, 80)}' is not a rule of that game"
        text = (f"It is {found.elsewhere.name} ({found.elsewhere.game_name}). That game's nearest entries, as "
                "suggestions:")
    elif found.outside is not None:
        title = f"{found.outside}: {NOT_HELD}"
        games = [o for o in outside_rules().values() if found.outside in o.rules] or list(outside_rules().values())
        covers = "; ".join(o.covers for o in games)
        text = (f"{found.outside} is a rule of the game, but the rulebooks Bombardier holds do not describe it (they "
                f"hold {covers}), so it will not guess. Entries that mention it, or come nearest, as suggestions:")
    elif asked:
        title = f"'{_clip(asked, 80)}': {NOT_HELD}"
        text = ("Nothing in them matches it well enough to answer, so the bot will not guess. The nearest entries, "
                "as suggestions: pick one with the term option, or ask with the rule's name.")
    else:
        title = "Name a rule, machine, chart or question"
        text = "For example bounce. Some entries to start with:"
    text += "\n" + report_line()
    embed = discord.Embed(title=title[:256], description=text, colour=COLOUR_MISS)
    embed.add_field(name="Try one of these", value=clip_lines([f"• {line}" for line in lines], FIELD), inline=False)
    embed.set_footer(text="Type a few letters in the term option to pick from the list.")
    return Reply(embed=embed, image=None, filename="", command="rules", system=found.entries[0].game, dice=(),
                 summary=(text, *lines), fields={
                     "query": found.query, "matched": False, "did_you_mean": found.weak or found.outside is not None,
                     "not_held": found.outside,
                     "entries": [entry_json(e) for e in found.entries], "related": [], "profile": None, "chart": None,
                 })


HELP_FIRST = ("fire", "rules", "roll", "wm", "40k", "siege", "misfire", "odds", "battle")
"""The commands /help's glance names first, in the order players reach for them (the README's
"ten commands people use most"); the rest follow, and Details has every one."""


@dataclass(frozen=True, slots=True)
class HelpTopic:
    """One top-level command or group as /help shows it."""

    name: str
    description: str
    subcommands: tuple[str, ...]
    example: str | None


def help_reply(topics: list[HelpTopic], texts: dict[str, str]) -> Reply:
    """The /help page: what the bot does, each command with one example, own dice, mistakes."""
    embed = discord.Embed(title="Bombardier: help", description=texts["intro"], colour=COLOUR_OK)
    summary = [texts["intro"]]
    for t in topics:
        lines = [t.description]
        if t.subcommands:
            lines.append("Commands: " + ", ".join(t.subcommands))
        if t.example:
            lines.append(f"Example: `{t.example}`")
        embed.add_field(name=f"/{t.name}", value=_clip("\n".join(lines), FIELD), inline=False)
        summary.append(f"/{t.name}: " + " ".join(line.replace("`", "") for line in lines))
    url = help_page().report_url
    if url:
        texts = {**texts, "report": f"{texts['report']} [Report it here]({url})."}
    for key, title in (("dice", "Entering your own dice"), ("report", "Found a rules mistake?")):
        embed.add_field(name=title, value=_clip(texts[key], FIELD), inline=False)
        summary.append(f"{title} {texts[key]}")
    by_name = {t.name: t for t in topics}
    first = [by_name[n] for n in HELP_FIRST if n in by_name] + [t for t in topics if t.name not in HELP_FIRST]
    glance = (texts["intro"], *(f"• /{t.name}: {t.description}" + (f" (e.g. `{t.example}`)" if t.example else "")
                                for t in first))
    return Reply(embed=embed, image=None, filename="", command="help", system="all", dice=(), summary=tuple(summary),
                 glance_lines=glance, fields={"commands": [
                     {"name": t.name, "description": t.description, "subcommands": list(t.subcommands), "example": t.example}
                     for t in topics
                 ]})
