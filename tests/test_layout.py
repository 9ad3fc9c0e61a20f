"""The one-way data flow of DESIGN.md, for renders: they import only the engine's result types
and drawing libraries (the engine's side is tests/engine/test_engine_purity.py)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def imports(folder: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in (ROOT / folder).rglob("*.py"):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = names
    return found


def test_renders_import_only_the_engine_and_drawing_libraries():
    allowed = {"engine", "renders", "PIL", "numpy", "__future__", "dataclasses", "math", "io", "typing",
               "functools", "collections", "enum", "itertools"}
    for path, names in imports("renders").items():
        assert names <= allowed, f"{path} imports {sorted(names - allowed)}"
