"""Zero apologies under fuzzing (issue 19, part 5): every command and option, typed free text
included, through the reply path; every input gets a reply Discord accepts, or one clear sentence
that quotes at most about 100 characters of what was typed, and never the apology. The examples
are derandomized and CI-sized (``BOMBARDIER_FUZZ_EXAMPLES``, default 6 per command); ``make fuzz``
runs many more with fresh randomness (benchmarks/bench_fuzz.py prints the counts)."""

from __future__ import annotations

import asyncio
import os

import pytest
from hypothesis import HealthCheck, given, settings

from bot import create_bot
from config.settings import Settings
from tests.fuzz import every_command, options_strategy, run_one

EXAMPLES = int(os.environ.get("BOMBARDIER_FUZZ_EXAMPLES", "6"))
RANDOM = os.environ.get("BOMBARDIER_FUZZ_RANDOM") == "1"


@pytest.fixture(scope="module")
def fuzz_bot(tmp_path_factory):
    loop = asyncio.new_event_loop()
    bot = create_bot(Settings(data_dir=tmp_path_factory.mktemp("fuzz"), sync_commands=False, dice_seed=5))
    loop.run_until_complete(bot.load_cogs())
    yield loop, bot
    bot.store.close()
    loop.close()


def _names() -> list[str]:
    bot = create_bot(Settings(sync_commands=False))
    asyncio.run(bot.load_cogs())
    return [c.qualified_name for c in every_command(bot.tree)]


@pytest.mark.parametrize("name", _names())
def test_every_input_is_answered_within_discords_limits_and_never_with_the_apology(fuzz_bot, name):
    loop, bot = fuzz_bot
    command = next(c for c in every_command(bot.tree) if c.qualified_name == name)

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=not RANDOM, database=None,
              suppress_health_check=list(HealthCheck))
    @given(options_strategy(command))
    def check(kwargs):
        outcome = loop.run_until_complete(run_one(bot, command, kwargs))
        assert outcome.kind != "apology", "\n".join(outcome.logged)
        assert not outcome.problems, outcome.problems

    check()
