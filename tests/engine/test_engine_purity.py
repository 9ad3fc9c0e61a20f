"""DESIGN.md's engine contract, checked on the source: pure functions over frozen records, chance
only through engine.dice, no I/O, nothing imported from the adapters."""

from __future__ import annotations

import ast
import dataclasses
import importlib
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
SOURCES = sorted(ENGINE.rglob("*.py"))
FORBIDDEN = {"random", "secrets", "discord", "cogs", "renders", "storage", "config", "bot", "sqlite_utils", "PIL"}
NO_IO = {"open", "print", "input"}


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ENGINE.parent).with_suffix("").parts).removesuffix(".__init__")


def test_the_engine_has_sources():
    assert any(p.name == "cannon.py" for p in SOURCES)


@pytest.mark.parametrize("path", SOURCES, ids=module_name)
def test_engine_module_imports_nothing_forbidden(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            imported.add(node.module.split(".")[0])
    assert not imported & FORBIDDEN


@pytest.mark.parametrize("path", SOURCES, ids=module_name)
def test_engine_module_does_no_io_and_draws_no_global_randomness(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    assert not calls & NO_IO
    if path.name != "dice.py":
        attributes = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        assert "random" not in attributes and "default_rng" not in attributes


@pytest.mark.parametrize("path", SOURCES, ids=module_name)
def test_engine_records_are_frozen_with_slots(path):
    module = importlib.import_module(module_name(path))
    for name, obj in vars(module).items():
        if isinstance(obj, type) and dataclasses.is_dataclass(obj) and obj.__module__ == module.__name__:
            assert obj.__dataclass_params__.frozen, f"{name} is not frozen"
            assert "__slots__" in vars(obj), f"{name} has no slots"
