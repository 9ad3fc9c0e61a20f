"""/roll and /log through a fake interaction: what the cog sends to Discord, and who may reveal."""

from unittest.mock import AsyncMock, MagicMock

from cogs.common.replies import REPLY_KEY
import discord
import pytest
from discord import app_commands

from bot import create_bot
from cogs.common.dice_source import serving
from config.settings import Settings


@pytest.fixture
async def bot(tmp_path):
    bot = create_bot(Settings(data_dir=tmp_path, sync_commands=False, dice_seed=7))
    await bot.load_cogs()
    yield bot
    await bot.close()


def fake_interaction(*, guild: bool = True, manager: bool = False) -> MagicMock:
    interaction = MagicMock(spec=discord.Interaction)
    interaction.extras = {}
    interaction.id = 1
    interaction.guild = MagicMock() if guild else None
    interaction.guild_id = 555 if guild else None
    interaction.channel_id = 777
    interaction.user = discord.Object(id=4242)
    interaction.permissions = discord.Permissions(manage_guild=manager)
    interaction.response.is_done = MagicMock(return_value=False)
    interaction.response.send_message = AsyncMock()
    interaction.response.defer = AsyncMock()  # /log export and /log reveal defer first
    interaction.followup.send = AsyncMock()
    return interaction


async def run(bot, path: str, interaction=None, **options):
    cmd = bot.tree.get_command(path.split()[0])
    if " " in path:
        cmd = cmd.get_command(path.split()[1])
    interaction = interaction or fake_interaction()
    interaction.command = cmd
    interaction.client = bot
    interaction.namespace = tuple(options.items())
    serving.set(interaction)  # as the command tree's interaction_check does
    try:
        await cmd.callback(cmd.binding, interaction, **options)
    except Exception as e:
        await bot.tree.on_error(interaction, app_commands.CommandInvokeError(cmd, e))
    return interaction


async def test_roll_lists_every_die_with_rerolls_struck_and_the_log_hash(bot):
    interaction = await run(bot, "roll", expression="4d6>=4 r1", dice="1 4 5 2 6")
    kwargs = interaction.response.send_message.await_args.kwargs
    assert not kwargs.get("ephemeral")
    assert kwargs["embed"].title == "4d6>=4r1: 3 successes of 4"
    assert kwargs["embed"].footer.text.startswith("Roll #1 in the log · hash ")
    embed = interaction.extras[REPLY_KEY].details()
    assert embed.fields[0].value == "[~~1~~ **6** **4** **5** 2]"
    assert embed.footer.text.startswith("Roll #1 in the log · hash ")
    assert any(f.name == "Roll log" and "committed" in f.value for f in embed.fields)


async def test_a_syntax_error_is_ephemeral_with_its_caret(bot):
    interaction = await run(bot, "roll", expression="2d6+x")
    kwargs = interaction.response.send_message.await_args.kwargs
    assert kwargs["ephemeral"] is True
    assert kwargs["content"].endswith("```\n2d6+x\n    ^\n```")


async def test_only_managers_reveal_the_secret(bot):
    await run(bot, "roll", expression="1d6")
    refused = await run(bot, "log reveal", fake_interaction(manager=False))
    kwargs = refused.response.send_message.await_args.kwargs
    assert kwargs["ephemeral"] is True and "Manage Server" in kwargs["content"]
    allowed = await run(bot, "log reveal", fake_interaction(manager=True))
    kwargs = allowed.response.send_message.await_args.kwargs
    assert kwargs["embed"].title == "Roll log secret revealed"
    assert [f.filename for f in kwargs["files"]] == ["roll-log-epoch1.json", "roll-log-epoch1.csv", "roll-log-epoch1.html"]


async def test_log_export_attaches_json_and_csv(bot):
    await run(bot, "roll", expression="2d6")
    interaction = await run(bot, "log export")
    kwargs = interaction.response.send_message.await_args.kwargs
    assert [f.filename for f in kwargs["files"]] == ["roll-log-epoch1.json", "roll-log-epoch1.csv", "roll-log-epoch1.html"]


async def test_channels_of_other_servers_have_their_own_logs(bot):
    await run(bot, "roll", expression="1d6")
    other = fake_interaction()
    other.guild_id = 556
    shown = await run(bot, "log show", other)
    assert "Nothing has been rolled" in shown.response.send_message.await_args.kwargs["embed"].description


def test_a_long_result_is_shortened_in_log_show_and_its_hash_kept():
    from cogs.dice.words.log import entry_lines
    from engine.ledger import Entry

    fields = {f: None for f in Entry.__dataclass_fields__}
    fields.update(number=1, user="7", command="fire stone-thrower", options={}, dice=(), summary=("x" * 3000,),
                  hash="ab" * 32)
    text = entry_lines(Entry(**fields))
    assert len(text) <= 1000 and text.endswith(f"0 dice · hash {'ab' * 6}") and "…" in text
