"""/rules and /help through a fake interaction: what the cog sends to Discord."""

from cogs.common.replies import REPLY_KEY
from tests import discord_limits as limits
import shlex
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest
from discord import app_commands

from bot import create_bot
from cogs.rules.commands import help_topics
from config.rules import help_page, resolve
from config.settings import Settings


@pytest.fixture
async def bot(tmp_path):
    bot = create_bot(Settings(data_dir=tmp_path, sync_commands=False, dice_seed=7))
    await bot.load_cogs()
    return bot


def fake_interaction(guild_id: int | None = None, channel_id: int | None = None) -> MagicMock:
    interaction = MagicMock(spec=discord.Interaction)
    interaction.extras = {}
    interaction.id = 1
    interaction.guild_id, interaction.channel_id = guild_id, channel_id
    interaction.namespace = app_commands.Namespace.__new__(app_commands.Namespace)
    interaction.response.is_done = MagicMock(return_value=False)
    interaction.response.send_message = AsyncMock()
    interaction.followup.send = AsyncMock()
    return interaction


async def call(bot, name, *, where: tuple[int, int] | None = None, **options):
    cmd = bot.tree.get_command(name)
    interaction = fake_interaction(*(where or ()))
    interaction.command = cmd
    await cmd.callback(cmd.binding, interaction, **options)
    glance = interaction.response.send_message.await_args.kwargs["embed"]
    limits.assert_accepted(limits.message_problems({"embeds": [glance.to_dict()]}), f"/{name}'s glance")
    assert glance.title == interaction.extras[REPLY_KEY].embed.title  # the answer leads the glance
    return interaction.extras[REPLY_KEY].details()  # the entry in full, as "Details" shows it


async def test_rules_shows_summary_profile_chart_source_and_related(bot):
    embed = await call(bot, "rules", term="canon")
    assert embed.title == "Cannon · Warhammer Fantasy"
    fields = {f.name: f.value for f in embed.fields}
    assert 'Range: 12-48" · Strength: 10 · Special rules: Multiple Wounds (D6/D3)' in fields["Profile: Cannon"]
    assert "**1-2** Destroyed!" in fields["Chart: Black Powder Misfire Chart"]
    assert fields["Source"] == "Warhammer Fantasy Battles, War Machines: Cannons"
    assert fields["Related"].startswith("Great Cannon · ") and "Bounce" in fields["Related"]
    assert "Cannon (Warmaster)" in fields["Related"]


async def test_the_index_is_built_once_when_connected_or_at_first_use(bot):
    cog = bot.get_cog("RulesCog")
    assert cog._index is None
    await cog.on_ready()
    built = cog._index
    assert built is not None and len(built.entries) > 150
    await call(bot, "rules", term="bounce")
    assert cog._index is built


async def test_the_game_option_filters(bot):
    embed = await call(bot, "rules", term="cannon", game="warmaster")
    assert embed.title == "Cannon · Warmaster"


async def test_no_match_still_answers_with_the_nearest_entries(bot):
    embed = await call(bot, "rules", term="xyzzy")
    assert embed.title == "'xyzzy': not in the rulebooks Bombardier holds" and "suggestions" in embed.description
    assert embed.fields[0].value.count("•") >= 3


async def test_a_channel_default_game_ranks_first_when_the_bot_knows_one(bot):
    bot.channel_game = lambda interaction: "warmaster"
    embed = await call(bot, "rules", term="bounce")
    assert embed.title == "Bounce · Warmaster"


@pytest.mark.parametrize("setting, title", [(None, "Cannon · Warhammer Fantasy"), ("warmaster", "Cannon · Warmaster"),
                                            ("fantasy", "Cannon · Warhammer Fantasy")])
async def test_the_channels_settings_game_ranks_its_cannon_first(bot, setting, title):
    from storage.settings import change_settings

    if setting:
        change_settings(bot.store, 5, 6, by=1, game=setting)
    assert await bot.channel_game(fake_interaction(5, 6)) == {None: None, "warmaster": "warmaster",
                                                             "fantasy": "warhammer-fantasy"}[setting]
    assert (await call(bot, "rules", where=(5, 6), term="cannon")).title == title
    assert (await call(bot, "rules", where=(5, 6), term="cannon", game="warmaster")).title == "Cannon · Warmaster"


async def test_a_servers_game_ranks_first_in_its_channels_and_40k_entries_lead_for_40k(bot):
    from storage.settings import change_settings

    change_settings(bot.store, 5, None, by=1, game="40k")
    assert await bot.channel_game(fake_interaction(5, 7)) == "wh40k"
    assert await bot.channel_game(fake_interaction(9, 7)) is None  # another server chose nothing
    assert await bot.channel_game(fake_interaction(None, 7)) is None  # a direct message
    assert (await call(bot, "rules", where=(5, 7), term="explodes")).title == "Penetrating Hit Table · Warhammer 40,000"
    assert (await call(bot, "rules", where=(9, 7), term="explodes")).title == "Black Powder Misfire Chart · Warhammer Fantasy"
    choices = await bot.get_cog("RulesCog").term_autocomplete(fake_interaction(5, 7), "explod")
    assert choices[0].name.endswith("· Warhammer 40,000")


async def test_a_store_that_cannot_be_read_leaves_the_lookup_unranked(bot, monkeypatch):
    import sqlite3

    import storage.settings

    def broken(*args):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(storage.settings, "chosen_game", broken)
    assert await bot.channel_game(fake_interaction(5, 6)) is None
    assert (await call(bot, "rules", where=(5, 6), term="canon")).title == "Cannon · Warhammer Fantasy"


async def test_term_autocomplete_gives_keys_within_discords_limits(bot):
    cog = bot.get_cog("RulesCog")
    interaction = fake_interaction()
    choices = await cog.term_autocomplete(interaction, "glanc")
    assert choices[0].value == "wh40k:glancing-hit-table" and choices[0].name == "Glancing Hit Table · Warhammer 40,000"
    assert len(choices) <= 25


async def test_help_lists_every_top_level_command_with_an_example(bot):
    embed = await call(bot, "help")
    names = [f.name for f in embed.fields]
    for c in bot.tree.get_commands():
        assert f"/{c.name}" in names
    fire = next(f.value for f in embed.fields if f.name == "/fire")
    assert "cannon, great-cannon" in fire and 'Example: `/fire cannon' in fire
    assert any("open an issue in the project repository" in f.value.lower() for f in embed.fields)
    assert any(f.name == "Entering your own dice" for f in embed.fields)
    assert len(embed) <= 6000


async def test_help_is_built_from_the_live_tree(bot):
    group = app_commands.Group(name="newgroup", description="A group added later")

    @group.command(name="shoot", description="Shoot at a wall")
    async def shoot(interaction: discord.Interaction) -> None:
        pass

    bot.tree.add_command(group)
    topics = {t.name: t for t in help_topics(bot.tree)}
    assert topics["newgroup"].subcommands == ("shoot",) and topics["newgroup"].example is None


async def test_every_top_level_command_has_a_help_example_naming_it(bot):
    examples = help_page().examples
    for c in bot.tree.get_commands():
        assert c.name in examples, f"config/help.toml has no example for /{c.name}"
        assert shlex.split(examples[c.name])[0] == f"/{c.name}"


async def test_every_entry_fits_in_one_embed(bot):
    from cogs.rules.words import rules_reply
    from storage.rules_index import Found

    index = await bot.get_cog("RulesCog").index()
    for entry in index.entries:
        reply = rules_reply(Found(entry.name, (entry,), True), index.related(entry))
        embed = reply.embed
        assert len(embed) <= 6000 and len(embed.fields) <= 25, entry.key
        assert len(embed.title) <= 256 and all(len(f.value) <= 1024 and len(f.name) <= 256 for f in embed.fields), entry.key
        assert not any("more" in f.value and f.value.split("\n")[-1].startswith("... and") for f in embed.fields), entry.key
        for ref in (entry.profile, entry.chart):
            if ref:  # every row of every table is shown, a long chart running on into a second field
                table = resolve(ref)
                shown = "\n".join(f.value for f in embed.fields if f.name.split(": ", 1)[-1].startswith(table.title))
                assert all(f"**{row[0]}**" in shown or len(table.rows) == 1 for row in table.rows), (entry.key, ref)


async def test_warmaster_and_40k_entries_show_the_engines_tables(bot):
    embed = await call(bot, "rules", term="boiling oil")
    assert embed.title == "Boiling Oil · Warmaster"
    chart = {f.name: f.value for f in embed.fields}["Chart: Boiling oil and rock droppers"]
    assert chart.split("\n")[0] == "D6 · Attacks · Effect" and "**6** 3 · 3 attacks" in chart
    embed = await call(bot, "rules", term="penetrating hit table")
    assert "Chart: Penetrating Hit table (D6)" in [f.name for f in embed.fields]
    assert "**6** Vehicle explodes" in "\n".join(f.value for f in embed.fields)
    embed = await call(bot, "rules", term="siege tower")
    assert {f.name: f.value for f in embed.fields}["Profile: Siege tower"] == (
        "Type: M · Attack: 0 · Hits: 3 · Armour: 3+ · Points: 20 · Min/max: -/-")


def test_a_long_chart_runs_on_into_another_field_without_losing_a_row():
    from cogs.rules.words import field_chunks

    lines = [f"**{i}** " + "x" * 30 for i in range(1, 7)]
    chunks = field_chunks(lines, limit=100)
    assert len(chunks) == 3 and all(len(c) <= 100 for c in chunks)
    assert "\n".join(chunks).split("\n") == lines
    assert field_chunks(["y" * 150], limit=100) == ["y" * 99 + "…"]
