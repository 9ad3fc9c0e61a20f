"""/40k through a fake interaction: what the cog sends to Discord."""

from cogs.common.replies import REPLY_KEY
import io

import pytest
from discord import app_commands
from PIL import Image

from tests.cogs.fantasy.test_fire_cog import bot, fake_interaction  # noqa: F401  (the shared bot fixture)


def command(bot, name):
    return bot.tree.get_command("40k").get_command(name)


async def run(bot, name, **options):
    cmd = command(bot, name)
    interaction = fake_interaction()
    interaction.command = cmd
    try:
        await cmd.callback(cmd.binding, interaction, **options)
    except Exception as e:
        await bot.tree.on_error(interaction, app_commands.CommandInvokeError(cmd, e))
    return interaction


async def test_the_group_has_every_command_described(bot):
    group = bot.tree.get_command("40k")
    assert {c.name for c in group.commands} == {"penetrate", "damage", "ordnance", "assault", "tank-shock", "terrain", "firing"}
    for c in group.commands:
        assert c.description and all(p.description for p in c.parameters)


async def test_penetrate_sends_an_embed_with_the_hit_and_the_damage(bot):
    interaction = await run(bot, "penetrate", armour=13, strength=9, dice="4 3")
    kwargs = interaction.response.send_message.await_args.kwargs
    assert kwargs["embed"].title == "Glancing hit: crew stunned." and "file" not in kwargs
    assert kwargs["embed"].description.endswith("Dice: penetration 4 · glancing damage 3 (all yours)")
    details = interaction.extras[REPLY_KEY].details()
    assert "`4` penetration · entered" in next(f.value for f in details.fields if f.name == "Dice")


async def test_ordnance_attaches_its_picture(bot):
    interaction = await run(bot, "ordnance", distance=30.0, strength=8, dice="@60 2 4 2 5")
    kwargs = interaction.response.send_message.await_args.kwargs
    # the landscape glance picture in the embed, the full diagram its thumbnail (issue 30)
    glance, full = kwargs["files"]
    assert (glance.filename, full.filename) == ("ordnance-glance.png", "ordnance.png")
    assert kwargs["embed"].image.url == "attachment://ordnance-glance.png"
    assert kwargs["embed"].thumbnail.url == "attachment://ordnance.png"
    assert Image.open(io.BytesIO(full.fp.read())).format == "PNG"


@pytest.mark.parametrize("name, options, message", [
    ("penetrate", {"armour": 12}, "needs its Strength"),
    ("ordnance", {"distance": 30.0, "strength": 8, "armour": "thirteen"}, "not three Armour Values"),
    ("assault", {"attacks": 2, "armour": 10, "moved": "stationary", "weapon": "krak", "strength": 4}, "always Strength 6"),
])
async def test_mistakes_are_one_ephemeral_sentence(bot, name, options, message):
    interaction = await run(bot, name, **options)
    kwargs = interaction.response.send_message.await_args.kwargs
    assert kwargs["ephemeral"] is True and message in kwargs["content"]
