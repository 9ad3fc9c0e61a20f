"""The documentation builds from the repository as plain Markdown: every relative link in README.md
and docs/ reaches a file that exists and, for ``#anchor``, a heading of that file (anchors as
GitHub makes them from a heading's text)."""

import re
from collections import Counter
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

FENCE = re.compile(r"^(```|~~~)")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
CODE_SPAN = re.compile(r"`+[^`]*`+")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def prose(text: str) -> list[str]:
    """The lines outside fenced code blocks."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line.strip()):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text lower-cased, markup and punctuation dropped (not
    hyphens or underscores), spaces made hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").strip().lower()
    text = "".join(ch for ch in text if ch.isalnum() or ch in " -_")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: Counter[str] = Counter()
    found = set()
    for line in prose(path.read_text(encoding="utf-8")):
        m = HEADING.match(line)
        if not m:
            continue
        base = slug(m.group(2))
        found.add(base if seen[base] == 0 else f"{base}-{seen[base]}")
        seen[base] += 1
    return found


def links(path: Path) -> list[str]:
    out = []
    for line in prose(path.read_text(encoding="utf-8")):
        out += LINK.findall(CODE_SPAN.sub("", line))
    return out


def test_the_slugs_are_githubs():
    assert slug("`/fire cannon` and `/fire great-cannon`") == "fire-cannon-and-fire-great-cannon"
    assert slug("`/machine add|list|remove|repair`") == "machine-addlistremoverepair"
    assert slug("Warhammer 40,000") == "warhammer-40000"
    assert slug("The cannon (`/wm cannon`) and the bombard") == "the-cannon-wm-cannon-and-the-bombard"


def test_links_are_found_outside_code_only(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("# Top\n\n[a](b.md#c) `[not](x.md)` ![pic](img/p.png)\n```\n[no](y.md)\n# not a heading\n```\n## Top\n")
    assert links(page) == ["b.md#c", "img/p.png"]
    assert anchors(page) == {"top", "top-1"}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page):
    broken = []
    for target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto: ...
            continue
        path_part, _, anchor = target.partition("#")
        file = page if not path_part else (page.parent / unquote(path_part)).resolve()
        if not file.exists():
            broken.append(f"{target}: no file {file.relative_to(ROOT) if file.is_relative_to(ROOT) else file}")
            continue
        if anchor and (file.suffix != ".md" or unquote(anchor) not in anchors(file)):
            broken.append(f"{target}: no heading #{anchor} in {file.name}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_docs_has_pages_and_every_page_is_linked_from_the_index():
    index = (ROOT / "docs" / "README.md").read_text(encoding="utf-8")
    for page in sorted((ROOT / "docs").glob("*.md")):
        if page.name != "README.md":
            assert f"]({page.name}" in index, f"docs/README.md does not link {page.name}"


INVITE = re.compile(r"https://discord\.com/oauth2/authorize\?client_id=APPLICATION_ID&scope=([\w+.]+)&permissions=(\d+)")


@pytest.mark.parametrize("page", ["README.md", "docs/hosting.md"])
def test_the_invite_url_asks_for_exactly_what_the_bot_uses(page):
    import discord

    from bot import create_bot
    from config.settings import Settings

    found = INVITE.findall((ROOT / page).read_text(encoding="utf-8"))
    assert found, f"{page} has no invite URL"
    for scopes, permissions in found:
        assert sorted(scopes.split("+")) == ["applications.commands", "bot"]
        assert int(permissions) == discord.Permissions(send_messages=True, embed_links=True, attach_files=True).value
    intents = create_bot(Settings(sync_commands=False)).intents
    assert not (intents.message_content or intents.members or intents.presences), "the docs say no privileged intents"


def test_the_configuration_reference_has_every_key_and_variable():
    from config import settings

    hosting = (ROOT / "docs" / "hosting.md").read_text(encoding="utf-8")
    for key in settings.KNOWN_KEYS:
        assert f"| `{key}` |" in hosting, f"docs/hosting.md's configuration reference lacks the key {key}"
    source = (ROOT / "config" / "settings.py").read_text(encoding="utf-8")
    variables = set(re.findall(r"\benv(?:\.get\(|\[)\"([A-Z_]+)\"", source)) | set(re.findall(r"\"([A-Z_]+)\" in env", source))
    assert {"DISCORD_TOKEN", "BOMBARDIER_CONFIG", "BOMBARDIER_DATA", "BOMBARDIER_DATABASE"} <= variables
    for name in variables:
        assert f"| `{name}` |" in hosting, f"docs/hosting.md's configuration reference lacks the variable {name}"


SEEDS = ROOT.parent / "shared" / "seeds"


@pytest.mark.skipif(not SEEDS.exists(), reason="the seeds are not beside the project")
def test_no_page_copies_a_run_of_twelve_words_from_a_rulebook():
    """The docs carry the books' facts in our own words (the rules entries' own check,
    tests/rules/test_rules_entries.py, over every page)."""
    from tests.rules.test_rules_entries import runs

    seed_runs: set[tuple[str, ...]] = set()
    for path in sorted(SEEDS.glob("0*.txt")):
        seed_runs |= runs(path.read_text(encoding="utf-8"))
    assert len(seed_runs) > 30000
    copied = {str(p.relative_to(ROOT)): [" ".join(r) for r in runs(p.read_text(encoding="utf-8")) & seed_runs] for p in PAGES}
    assert not {k: v for k, v in copied.items() if v}
