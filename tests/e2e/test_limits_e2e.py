"""The stand-in refuses what Discord refuses, and the real discord.py client reads its refusals
as Discord's own (HTTP 400, code 50035, the failing field)."""

from __future__ import annotations

import discord
import pytest

from tests import discord_limits as limits
from tests.e2e.standin import APP_ID


@pytest.mark.refusals_expected
async def test_an_over_long_message_gets_discords_400_with_the_field(live_bot, standin):
    webhook = discord.Webhook.partial(APP_ID, "token-over", client=live_bot)
    with pytest.raises(discord.HTTPException) as refused:
        await webhook.send(embed=discord.Embed(title="t", description="d" * 4097))
    assert refused.value.status == 400 and refused.value.code == 50035
    assert "embeds.0.description" in refused.value.text
    with pytest.raises(discord.HTTPException) as refused:
        await webhook.send(embeds=[discord.Embed(description="d" * 3500), discord.Embed(description="d" * 3500)])
    assert refused.value.code == 50035 and "6000" in refused.value.text
    (record, why), (_, why2) = standin.refused
    assert record.path == f"/webhooks/{APP_ID}/token-over" and why[0].path == ("embeds", 0, "description")
    assert why2[0].code == "MAX_EMBED_SIZE_EXCEEDED"
    standin.refused.clear()
    sent = await webhook.send(content="x" * 2000, wait=True)  # at the limit is fine
    assert sent.content == "x" * 2000


async def test_the_synced_commands_fit_discord_with_a_quarter_to_spare(live_bot, standin):
    """Every top-level command, as synced, is within Discord's schema limits and at most 3,000 of
    its 4,000 characters, so an option can still be added (the sizes are printed: -s shows them)."""
    assert standin.global_commands
    limits.assert_accepted(limits.commands_problems(standin.global_commands), "the command schema")
    sizes = {c["name"]: limits.command_size(c) for c in standin.global_commands}
    for name, size in sorted(sizes.items(), key=lambda kv: -kv[1]):
        print(f"/{name}: {size} of {limits.COMMAND_SIZE} characters")
    over = {n: s for n, s in sizes.items() if s > limits.HEADROOM}
    assert not over, f"past {limits.HEADROOM} characters (25% headroom under Discord's 4,000): {over}"
