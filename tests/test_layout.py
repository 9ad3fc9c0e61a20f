"""The layout of DESIGN.md, proved on the source: a package per game in cogs/, renders/ and engine/,
one-way imports (adapters -> engine -> record -> words and picture), and no import circles.

Imports are read with ast, lazy ones inside functions included, so a circle hidden behind a
function-level import still counts. The engine's own purity is tests/engine/test_engine_purity.py.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ("bot", "cogs", "console", "engine", "renders", "config", "storage")
GAMES = ("fantasy", "warmaster", "wh40k")


def module_of(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def sources() -> dict[str, Path]:
    found = {"bot": ROOT / "bot.py"}
    for top in PROJECT[1:]:
        for path in sorted((ROOT / top).rglob("*.py")):
            found[module_of(path)] = path
    return found


MODULES = sources()


def project_imports(name: str) -> set[str]:
    """The project modules ``name`` imports (at any depth of its code), each resolved to a module."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            # `from pkg import module` names a module; `from module import name` names the module
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        for t in targets:
            while t and t not in MODULES:
                t = t.rpartition(".")[0]
            if t and t != name:
                out.add(t)
    return out


GRAPH = {name: project_imports(name) for name in MODULES}


def test_every_game_has_its_package_in_engine_cogs_and_renders():
    for game in GAMES:
        for top in ("engine", "cogs", "renders"):
            assert (ROOT / top / game / "__init__.py").is_file(), f"{top}/{game}/ is missing"
        assert (ROOT / "cogs" / game / "words" / "__init__.py").is_file(), f"cogs/{game}/words/ is missing"
    for area in ("campaign", "dice", "rules", "common", "odds"):
        assert (ROOT / "cogs" / area / "__init__.py").is_file(), f"cogs/{area}/ is missing"
    assert (ROOT / "renders" / "campaign" / "__init__.py").is_file()
    assert (ROOT / "renders" / "odds" / "__init__.py").is_file() and (ROOT / "engine" / "odds" / "__init__.py").is_file()
    assert (ROOT / "console" / "__init__.py").is_file()


def test_cogs_and_renders_hold_no_loose_game_modules():
    """Only the shared kit stays at the top of renders/; cogs/ has nothing but packages."""
    assert sorted(p.name for p in (ROOT / "cogs").glob("*.py")) == ["__init__.py"]
    assert sorted(p.name for p in (ROOT / "renders").glob("*.py")) == ["__init__.py", "canvas.py"]


@pytest.mark.parametrize("package", sorted(n for n, p in MODULES.items() if p.name == "__init__.py"))
def test_every_package_opens_with_a_docstring_of_what_it_holds(package):
    doc = ast.get_docstring(ast.parse(MODULES[package].read_text(encoding="utf-8")))
    assert doc and len(doc.split()) >= 8, f"{package} has no docstring saying what it holds"


def test_no_import_circles():
    """Tarjan's strongly connected components over every project import: each must be one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    assert not circles, f"import circles: {circles}"


def layer(name: str) -> str:
    return name.split(".")[0]


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_run_one_way(name):
    """engine <- renders, config, storage <- cogs <- console <- bot: nothing imports an adapter above it."""
    allowed = {
        "engine": {"engine"},
        "renders": {"engine", "renders"},
        "config": {"engine", "config"},
        "storage": {"engine", "config", "storage"},
        "cogs": {"engine", "renders", "config", "storage", "cogs"},
        "console": {"engine", "config", "storage", "cogs", "console"},
        "bot": {"engine", "config", "storage", "cogs", "console"},
    }[layer(name)]
    wrong = sorted(t for t in GRAPH[name] if layer(t) not in allowed)
    assert not wrong, f"{name} imports {wrong} above its layer"


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.startswith("cogs.common")))
def test_the_shared_plumbing_knows_no_game(name):
    wrong = sorted(t for t in GRAPH[name] if t.startswith("cogs.") and not t.startswith("cogs.common"))
    assert not wrong, f"{name} (shared plumbing) imports the game packages {wrong}"


@pytest.mark.parametrize("name", sorted(n for n in MODULES if ".words" in n))
def test_words_are_kept_apart_from_the_callbacks(name):
    """How a result reads depends on records and other words, never on a cog's callbacks."""
    cogs_modules = {n for n in MODULES if n.startswith("cogs.") and ".words" not in n and not n.startswith("cogs.common")
                    and MODULES[n].name != "__init__.py"}
    wrong = sorted(GRAPH[name] & cogs_modules)
    assert not wrong, f"{name} imports the cog modules {wrong}"


def test_renders_import_only_the_engine_and_drawing_libraries():
    allowed = {"engine", "renders", "PIL", "numpy", "__future__", "dataclasses", "math", "io", "typing",
               "functools", "collections", "enum", "itertools",
               "struct", "zlib", "isal"}  # the canvas's own PNG writer (chunks, deflate by ISA-L)
    for path in (ROOT / "renders").rglob("*.py"):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module.split(".")[0])
        assert names <= allowed, f"{path.relative_to(ROOT)} imports {sorted(names - allowed)}"


def test_a_newcomer_finds_fire_cannon_by_the_path_alone():
    for path in ("engine/fantasy/cannon.py", "cogs/fantasy/fire.py", "cogs/fantasy/words/cannon.py",
                 "renders/fantasy/cannon.py", "config/rules/fantasy.toml"):
        assert (ROOT / path).is_file(), path
