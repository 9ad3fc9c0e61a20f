"""/fire fire-thrower, /shoot, /breath and /combat through a fake interaction: what the cogs send."""

import io

from discord import app_commands

from cogs.common.replies import REPLY_KEY
from PIL import Image

from tests.cogs.fantasy.test_fire_cog import bot, fake_interaction  # noqa: F401  (the fixture and helper)


async def run(bot, cmd, **options):
    interaction = fake_interaction()
    interaction.command = cmd
    try:
        await cmd.callback(cmd.binding, interaction, **options)
    except Exception as e:
        await bot.tree.on_error(interaction, app_commands.CommandInvokeError(cmd, e))
    return interaction


async def test_the_fire_thrower_sends_an_embed_with_its_picture(bot):
    cmd = bot.tree.get_command("fire").get_command("fire-thrower")
    interaction = await run(bot, cmd, distance=8.0, toughness=3, leadership=7, dice="4")
    kwargs = interaction.response.send_message.await_args.kwargs
    embed, (glance, file) = kwargs["embed"], kwargs["files"]  # the glance picture, then the full diagram (issue 30)
    assert embed.title.startswith("The flame goes 4\" forward")
    assert embed.image.url == "attachment://fire-thrower-glance.png" == f"attachment://{glance.filename}"
    assert embed.thumbnail.url == "attachment://fire-thrower.png" and Image.open(io.BytesIO(file.fp.read())).format == "PNG"
    details = interaction.extras[REPLY_KEY].details()
    assert any(f.name == "Panic" for f in details.fields) and any(f.name == "Rules applied" for f in details.fields)


async def test_shoot_sends_the_volley_and_its_rules(bot):
    cmd = bot.tree.get_command("shoot")
    interaction = await run(bot, cmd, shots=2, bs=3, strength=4, toughness=3, ap=1, dice="1 1")
    embed = interaction.response.send_message.await_args.kwargs["embed"]
    assert embed.title == "2 shots, 0 hits, 0 unsaved wounds, 0 models slain."
    rules = next(f.value for f in interaction.extras[REPLY_KEY].details().fields if f.name == "Rules applied")
    assert "Armour Piercing (1)" in rules


async def test_a_combat_mistake_is_one_ephemeral_sentence(bot):
    cmd = bot.tree.get_command("combat").get_command("attacks")
    interaction = await run(bot, cmd, attacks=1, ws=3, enemy_ws=3, strength=3, toughness=3, strikes="first")
    kwargs = interaction.response.send_message.await_args.kwargs
    assert kwargs.get("ephemeral") and "give initiative" in kwargs["content"]


async def test_breath_sends_its_hits(bot):
    cmd = bot.tree.get_command("breath")
    interaction = await run(bot, cmd, distance=6.5, strength=4, ranks=1, files=9)
    embed = interaction.response.send_message.await_args.kwargs["embed"]
    assert embed.title.startswith("5 models under the template")
