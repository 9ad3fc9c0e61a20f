"""A private shot in a campaign battle (issue 19, part 2): the battle's public reports say the
machine's state after it, never the roll's result."""

import json
from pathlib import Path

from cogs.campaign.words import PRIVATE_OUTCOME


async def test_a_private_shot_shows_in_the_battle_report_without_its_result(play):
    await play('/machine add name:"Old Betsy" kind:cannon crew:3')
    await play("/battle start")
    code, shot = await play('/fire cannon distance:30 machine:"Old Betsy" dice:"H 4 8" private:true')
    assert code == 0
    result = shot["summary"][0]
    code, public = await play('/fire cannon distance:24 machine:"Old Betsy" dice:"H 2 2"')
    assert code == 0
    code, out = await play("/battle end")
    report = Path(next(f for f in out["files"] if f.endswith(".md"))).read_text()
    export = json.loads(Path(next(f for f in out["files"] if f.endswith(".json") and not f.endswith("-rolls.json"))).read_text())
    assert result not in report and result not in json.dumps(export)
    assert PRIVATE_OUTCOME in report and public["summary"][0] in report
    private_row, public_row = export["shots"]
    assert private_row["outcome"] == PRIVATE_OUTCOME and private_row["hits"] is None and private_row["fired"] is None
    assert public_row["hits"] is not None
