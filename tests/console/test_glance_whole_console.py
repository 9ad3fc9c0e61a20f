"""Issue 30, item 1: rule and chart text reaches the channel whole. The glance (what the table
sees) never cuts a rule's sentence or a chart's row; it cuts only lists (models, stands, entries,
dice), saying how many more; and it stays inside Discord's limits."""

import discord
import pytest

from cogs.common.replies import Reply, cut_lists, is_list_item
from cogs.rules.words import rules_reply
from config.rules import resolve, rule_entries
from storage.rules_index import Found
from tests.discord_limits import message_problems


def _glance_problems(embed: discord.Embed) -> list:
    return message_problems({"embeds": [embed.to_dict()]})


def test_every_rules_entry_reaches_the_glance_whole_and_within_discords_limits():
    entries = rule_entries()
    longer = 0
    for e in entries:
        reply = rules_reply(Found(e.name, (e,), matched=True), [])
        glance = reply.glance()
        text = glance.description or ""
        assert e.summary.replace("**", "").strip() in text, e.key
        for ref in (e.chart, e.profile):
            if ref:
                for row in resolve(ref).rows:
                    assert row[0] in text, (e.key, row)
        assert not _glance_problems(glance), e.key
        longer += len(e.summary) > 160
    assert longer >= 100  # most entries are longer than the old 160-character cut


async def test_rules_bounce_says_how_far_the_ball_goes(play):
    code, out = await play("/rules term:bounce")
    text = "\n".join(out["glance"]["lines"])
    assert code == 0 and "Otherwise it travels on that many inches" in text and "…" not in text


async def test_a_stone_throwers_disabled_misfire_says_for_how_long(play):
    code, out = await play('/misfire chart:stonethrower dice:"2"')
    text = "\n".join(out["glance"]["lines"])
    assert code == 0 and "Disabled" in out["glance"]["title"] and "nor in your next turn" in text


async def test_the_cannons_misfire_prompt_is_whole(play):
    code, out = await play('/fire cannon distance:30 dice:"H M"')
    text = "\n".join(out["glance"]["lines"])
    assert code == 0 and "press Roll the misfire chart" in text and "…" not in text


@pytest.mark.parametrize("table", ["glancing", "penetrating", "ordnance"])
async def test_a_40k_damage_table_shows_every_row(play, table):
    code, out = await play(f'/40k damage table:{table} dice:"3"')
    lines = out["glance"]["lines"]
    assert code == 0 and not any("more: see Details" in line for line in lines)
    assert sum(line[:1].isdigit() for line in lines) >= 4 and "…" not in "\n".join(lines)


def test_only_lists_are_cut_and_they_say_how_many_more():
    rule = "A rule sentence that is long. " * 12
    models = [f"R1 F{i}: line {i} unlike the others" for i in range(1, 30)]
    assert all(is_list_item(m) for m in models) and not is_list_item(rule)
    body = cut_lists([rule, *models, "Roll to wound next."], 6)
    assert body[0] == rule and body[-1] == "Roll to wound next."
    assert sum(is_list_item(b) for b in body) < 29
    more = [b for b in body if b.startswith("and ")]
    assert len(more) == 1 and more[0] == f"and {29 - sum(is_list_item(b) for b in body)} more: see Details"
    embed = discord.Embed(title="t", description="**Answer**\n" + rule)
    embed.add_field(name="Hits", value="\n".join(models))
    glance = Reply(embed=embed, image=None, filename="", command="x", system="any", dice=(), summary=()).glance()
    assert rule.strip() in glance.description and "more: see Details" in glance.description
    assert not _glance_problems(glance)


def test_a_short_list_is_never_cut():
    lines = ["Some text", "R1 F1: slain", "R1 F2: saved", "R2 F1: slain"]
    assert cut_lists(lines, 6) == lines


def test_a_full_fields_own_tail_joins_the_one_line_that_says_how_many_more():
    """A field clipped at Discord's 1,024 characters ends its list with ``... and 6 more``; when the
    glance leaves out more of that list, one line says how many: not two notices one under the other."""
    models = [f"R{r} F{f} under the template: 1 slain" for r in range(1, 4) for f in range(1, 4)]
    body = cut_lists(["Stone Thrower: 30\" at the target", *models, "... and 6 more"], 5)
    assert body[-1] == f"and {len(models) - sum(is_list_item(b) for b in body) + 6} more: see Details"
    assert not any(line.startswith("...") for line in body)
    kept = cut_lists(["Stone Thrower: 30\" at the target", *models[:2], "... and 6 more"], 6)
    assert kept[-1] == "... and 6 more"  # nothing left out by the glance: the field's tail says it
