"""The siege side of ``/siege``: the channel's fortress sections kept in the store, read
into engine records. The commands themselves are in cogs/warmaster/siege.py."""

from __future__ import annotations

from config.gamedata import warmaster
from engine.errors import RulesError
from engine.inputs import quote
from engine.warmaster.structure import Fortress, SectionState, StructureTest, structure_test
from storage import sieges
from storage.database import Store

DATA = warmaster()


def fortress(store: Store, channel_id: int, tested: str | None = None) -> Fortress:
    return Fortress(tuple(SectionState(s.section, DATA.structures[s.kind], s.gate, s.tokens, s.breached)
                          for s in sieges.sections(store, channel_id)),
                    None if tested is None else sieges.section_name(tested))


def gate_row(name: str) -> str:
    """Where the gate of the gateway tower `name` keeps its tokens: one structure, two targets
    (seed 001, Fortification list, footnote 2), so the gate is the tower's name and "(gate)"."""
    return f"{name} (gate)"


def section_test(store: Store, channel_id: int, section: str, kind: str, gate: bool, dice, *, procedure=None, **shot):
    """A structure test (or `procedure(tokens=...)`, e.g. a battering attempt) of a named section:
    its tokens from the store, the outcome written back.

    A tower that carries a gateway is one structure with two targets: `gate` tests the gate on
    its own points (kept as the tower's name and "(gate)"); once the tower falls the gate falls
    with it and cannot be targeted; the gate falling leaves the tower standing."""
    name = sieges.section_name(section)
    if not name or len(name) > 40:
        raise RulesError(f"Section '{quote(section)}': give a name of 1 to 40 characters.")
    if DATA.structures[kind].gate_points is None:
        return _one_section(store, channel_id, name, kind, gate, dice, procedure, shot)
    with store.transaction():
        tower = sieges.get_section(store, channel_id, name)
        if gate:
            if tower is not None and tower.gate:
                # A gate kept under its own name before towers and gates were linked.
                return _one_section(store, channel_id, name, kind, gate, dice, procedure, shot)
            if tower is not None and tower.breached:
                raise RulesError(f"The {DATA.structures[kind].name.lower()} '{name}' has fallen, and its gate fell with it.")
            return _one_section(store, channel_id, gate_row(name), kind, True, dice, procedure, shot)
        result = _one_section(store, channel_id, name, kind, False, dice, procedure, shot)
        row = gate_row(name)
        kept = sieges.get_section(store, channel_id, row)
        if result.destroyed and (kept is not None or kind == "gateway-tower") and not (kept and kept.breached):
            sieges.put_section(store, channel_id, sieges.Section(row, kind, True, 0, True))
        return result


def _one_section(store: Store, channel_id: int, name: str, kind: str, gate: bool, dice, procedure, shot):

    def run(tokens: int, before: sieges.Section | None) -> StructureTest:
        if before is not None:
            if before.breached:
                raise RulesError(f"Section '{name}' has already fallen; /siege reset starts a new siege.")
            if (before.kind, before.gate) != (kind, gate):
                raise RulesError(f"Section '{name}' is a {before.kind}{' gate' if before.gate else ''}, not a {kind}{' gate' if gate else ''}.")
        if procedure is not None:
            return procedure(tokens=tokens)
        return structure_test(DATA.structures[kind], dice, tokens=tokens, gate=gate, **shot)

    _, result = sieges.update_section(store, channel_id, name, kind, gate, run)
    return result
