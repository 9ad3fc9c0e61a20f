"""The verifier page in a real browser: Debian's chromium driven by Playwright's Python client
(its own browser download is not used). Skips, saying why, where either is missing; .ci/run
installs chromium so CI always runs these."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def browser():
    """Chromium, for one test module at a time: Playwright's sync client runs an event loop in the
    main thread while it is open, and every asyncio test run after it would find that loop running
    ('asyncio.run() cannot be called from a running event loop'), as they did in any run that put
    tests/verifier before other tiers."""
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium found (apt-get install chromium; .ci/run does it): the verifier page's browser tests are skipped")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the playwright package is not installed (requirements.lock has it): browser tests skipped")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_FLAGS, headless=True)
        yield b
        b.close()


class Page:
    """The verifier page opened from a file, as a player opens it."""

    def __init__(self, browser, tmp_path: Path) -> None:
        self._browser = browser
        self._tmp = tmp_path
        self.page = browser.new_page()
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))

    def open(self, html: bytes, name: str = "roll-log.html") -> dict:
        """Open the page; the verdict on the export inside it (or the idle state of an empty one)."""
        path = self._tmp / name
        path.write_bytes(html)
        self.page.goto(path.as_uri())
        self.page.wait_for_selector('#summary[data-state="done"], #summary[data-state="idle"]:not(:empty)')
        state = self.page.eval_on_selector("#summary", "e => e.dataset.state")
        return self.result() if state != "idle" else {"state": "idle"}

    def result(self, timeout: float = 30_000) -> dict:
        self.page.wait_for_selector('#summary[data-state="done"]', timeout=timeout)
        data = self.page.eval_on_selector("#summary", "e => ({...e.dataset, text: e.textContent})")
        assert not self.errors, self.errors
        return data

    def choose(self, data: dict, name: str = "other.json") -> dict:
        path = self._tmp / name
        path.write_text(json.dumps(data, indent=1))
        self.page.eval_on_selector("#summary", "e => { e.dataset.state = 'waiting'; }")
        self.page.set_input_files("#file", str(path))
        return self.result()

    def check_head(self, head: str) -> dict:
        self.page.fill("#head", head)
        self.page.eval_on_selector("#summary", "e => { e.dataset.state = 'waiting'; }")
        self.page.click("#check")
        return self.result()

    def rows(self) -> list[dict]:
        self.page.wait_for_selector('#summary[data-table="done"]')
        return self.page.eval_on_selector_all(
            "#rolls tbody tr", "rs => rs.map(r => ({roll: r.dataset.roll, bad: r.classList.contains('bad'), "
            "sealed: r.classList.contains('sealed'), text: r.textContent}))")


@pytest.fixture
def verifier_page(browser, tmp_path):
    page = Page(browser, tmp_path)
    yield page
    page.page.close()
