"""/wm and /siege through a fake interaction: what the cogs send to Discord."""

from unittest.mock import MagicMock

from discord import app_commands

from cogs.common.replies import ERROR_KEY, REPLY_KEY
from tests.cogs.fantasy.test_fire_cog import bot, fake_interaction  # noqa: F401  (the fixture)


async def run(bot, group: str, name: str, channel: int = 5, **options):
    cmd = bot.tree.get_command(group).get_command(name)
    interaction = fake_interaction()
    interaction.command = cmd
    interaction.channel_id = channel
    interaction.client = MagicMock()
    try:
        await cmd.callback(cmd.binding, interaction, **options)
    except Exception as e:
        await bot.tree.on_error(interaction, app_commands.CommandInvokeError(cmd, e))
    return interaction


async def test_both_groups_register_every_command_with_descriptions(bot):
    wm, siege = bot.tree.get_command("wm"), bot.tree.get_command("siege")
    assert {c.name for c in wm.commands} == {"shoot", "cannon", "helblaster", "bone-thrower", "elven-bolt-thrower", "rock-lobber"}
    assert {c.name for c in siege.commands} == {"structure", "batter", "oil", "artillery", "assault", "sally-gate", "scenario",
                                                 "army", "fortress", "reset", "dig"}
    for c in [*wm.commands, *siege.commands]:
        assert c.description and all(p.description for p in c.parameters)


async def test_cannon_sends_an_embed_with_its_picture(bot):
    interaction = await run(bot, "wm", "cannon", distance=30.0, cannons=2, dice="4 4 4 4 1 1 1 1 2 2 2 2")
    kwargs = interaction.response.send_message.await_args.kwargs
    glance, full = kwargs["files"]  # the landscape glance picture in the embed, the full diagram its thumbnail
    assert full.filename == "wm_cannon.png" and kwargs["embed"].thumbnail.url == "attachment://wm_cannon.png"
    assert kwargs["embed"].image.url == f"attachment://{glance.filename}" == "attachment://wm_cannon-glance.png"
    assert interaction.extras[REPLY_KEY].fields["units"][0]["hits_taken"] == 4


async def test_structure_keeps_tokens_per_channel(bot):
    await run(bot, "siege", "structure", kind="wall", section="w", hits=1, dice="1")
    i2 = await run(bot, "siege", "structure", kind="wall", section="w", hits=0, dice="1")
    assert i2.extras[REPLY_KEY].fields["structure"]["tokens_before"] == 1
    other = await run(bot, "siege", "structure", channel=6, kind="wall", section="w", hits=0)
    assert other.extras[REPLY_KEY].fields["structure"]["tokens_before"] == 0


async def test_a_mistake_is_an_ephemeral_sentence(bot):
    interaction = await run(bot, "wm", "cannon", distance=30.0, near="a horde of goblins")
    assert "not a unit" in interaction.extras[ERROR_KEY]
    assert interaction.response.send_message.await_args.kwargs["ephemeral"] is True
