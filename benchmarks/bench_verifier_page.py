"""The roll log's page (cogs/dice/words/verifier.html) checking a 10,000-entry export in headless
Chromium (Debian's chromium through Playwright, as tests/verifier): the time from reading the
export (its JSON parsed) to the verdict, as the page measures it (``data-ms``), beside
``bot.py verify`` on the same export, and the page's size. Target: under 2 s. Printed, never asserted; skipped without Chromium."""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

from cogs.dice.words.verifier import page
from engine.ledger import commitment, dice_for_roll, export, make_entry, verify
from engine.roll import roll

SECRET = bytes(range(32))
CHAIN = "battle:1"
LINES = ["2d6+1", "1a 1s", "3d6", "1d20", "10d6>=4"]


def big_export(n: int = 10_000) -> dict:
    entries, previous = [], commitment(SECRET)
    for k in range(1, n + 1):
        text = LINES[k % len(LINES)]
        result = roll(text, dice_for_roll(SECRET, k, CHAIN))
        e = make_entry(previous=previous, number=k, time="2026-11-23T20:00:00+00:00", user=str(k % 7), command="roll",
                       options={"expression": text, "private": k % 50 == 0}, dice=result.dice,
                       summary=[f"{x.expression.text}: {x.total}" for x in result.expressions], salt=k.to_bytes(16, "big"))
        entries.append(e.sealed() if k % 50 == 0 else e)
        previous = e.hash
    return json.loads(json.dumps(export(chain=CHAIN, commitment_hex=commitment(SECRET), secret=SECRET, entries=entries)))


def main() -> None:
    from tests.verifier.conftest import CHROMIUM_FLAGS, chromium_path

    path = chromium_path()
    if path is None:
        print("verifier page: no Chromium found (apt-get install chromium): skipped")
        return
    from playwright.sync_api import sync_playwright

    data = big_export()
    dice = sum(len(e.get("dice", ())) for e in data["entries"])
    started = time.perf_counter()
    assert verify(data, head=data["head"]).ok
    python_s = time.perf_counter() - started
    html = page(data)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        file = Path(tmp) / "roll-log.html"
        file.write_bytes(html)
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_FLAGS, headless=True)
        times = []
        for _ in range(3):
            tab = browser.new_page()
            tab.goto(file.as_uri())
            tab.wait_for_selector('#summary[data-state="done"]', timeout=120_000)
            shown = tab.eval_on_selector("#summary", "e => ({...e.dataset})")
            assert shown["ok"] == "true", shown
            times.append(int(shown["ms"]) / 1000)
            phases = shown.get("phases", "")
            tab.close()
        browser.close()
    print(f"{'verifier page: 10,000 entries, ' + str(dice) + ' dice, headless Chromium (3 loads)':<60} "
          f"{min(times):6.2f}-{max(times):.2f} s   target < 2 s")
    print(f"{'  phases of the last load (ms: canonical JSON, seals, links, hashes, dice)':<60} {phases}")
    print(f"{'  the same export with python bot.py verify':<60} {python_s:6.2f} s")
    print(f"{'  page size with the export inside':<60} {len(html) / 1e6:6.2f} MB")


if __name__ == "__main__":
    main()
