"""An export past Discord's upload limit is compressed into one ZIP and the reply says so; past
it even compressed, one sentence says how to export less; never a message Discord would refuse
and never silence (issue 15, part 0)."""

from __future__ import annotations

import io
import json
import os
import zipfile

import pytest

from cogs.dice.words.log import export_reply, fit_upload
from engine.errors import RulesError
from tests import discord_limits as limits
from tests.engine.test_ledger import SECRET, build_log

COMMANDS = [("2d6+1", None), ("10d6>=4", None), ("1a 1s", None)] * 20


def a_log():
    return {**build_log(SECRET, COMMANDS), "epoch": 1}  # as storage/roll_log.py exports it


def test_an_export_that_fits_goes_as_it_is():
    data = a_log()
    reply = export_reply(data)
    assert [n.rsplit(".", 1)[1] for n, _ in reply.attachments] == ["json", "csv", "html"]
    assert reply.fields["compressed"] is False


def test_past_the_limit_the_files_go_in_one_zip_and_the_reply_says_so():
    data = a_log()
    full = sum(len(b) for _, b in export_reply(data).attachments)
    reply = export_reply(data, budget=full - 1)  # a limit just under the export's size
    ((name, packed),) = reply.attachments
    assert name == "roll-log-epoch1.zip" and len(packed) < full - 1
    with zipfile.ZipFile(io.BytesIO(packed)) as z:
        assert sorted(z.namelist()) == ["roll-log-epoch1.csv", "roll-log-epoch1.html", "roll-log-epoch1.json"]
        assert json.loads(z.read("roll-log-epoch1.json")) == data  # whole, and it still verifies as before
    assert "compressed into roll-log-epoch1.zip" in reply.embed.description and reply.fields["compressed"] is True
    assert not limits.message_problems({"embeds": [reply.glance().to_dict()]}, dict(reply.attachments))


def test_too_big_even_compressed_is_one_sentence():
    with pytest.raises(RulesError, match="too big to attach even compressed .* export one epoch at a time with epoch:N"):
        fit_upload((("a.json", os.urandom(5000)),), "a", budget=1000)  # random bytes do not compress
