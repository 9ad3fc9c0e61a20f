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
    """The channel's sections as the rules have them: a gate whose tower has fallen is shown fallen
    with it (seed 001, Fortification list, footnote 2), even if it was kept before that was linked."""
    rows = sieges.sections(store, channel_id)
    fallen = {s.section for s in rows if s.breached and not s.gate}
    return Fortress(tuple(SectionState(s.section, DATA.structures[s.kind], s.gate, s.tokens,
                                       s.breached or (s.gate and s.section.endswith(" (gate)") and s.section[:-7] in fallen))
                          for s in rows),
                    None if tested is None else sieges.section_name(tested))


def _kind_name(kind: str) -> str:
    return DATA.structures[kind].name.lower()


def check_kind(store: Store, channel_id: int, name: str, kind: str, gate: bool) -> None:
    """A section keeps the kind it was first named with, and only a gateway tower or a palisade
    tower has a gate (seed 001, Fortification list: footnote 2 is on those two only)."""
    if gate and DATA.structures[kind].gate_points is None:
        raise RulesError(f"gate: a {_kind_name(kind)} has no gate of its own; only a gateway tower or a palisade tower has one. "
                         "Leave gate out, or give kind gateway-tower or palisade-tower.")
    tower = sieges.get_section(store, channel_id, name)
    if tower is not None and not tower.gate and tower.kind != kind:
        has = "" if DATA.structures[tower.kind].gate_points is not None else f" (a {_kind_name(tower.kind)} has no gate)"
        raise RulesError(f"Section '{name}' is a {_kind_name(tower.kind)}, not a {_kind_name(kind)}{has}: give kind {tower.kind}.")
    kept = sieges.get_section(store, channel_id, gate_row(name))
    if kept is not None and kept.kind != kind:
        raise RulesError(f"Section '{name}' is a {_kind_name(kept.kind)} (its gate is kept), not a {_kind_name(kind)}: "
                         f"give kind {kept.kind}.")


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
    with store.transaction():
        check_kind(store, channel_id, name, kind, gate)
        if DATA.structures[kind].gate_points is None:
            return _one_section(store, channel_id, name, kind, gate, dice, procedure, shot)
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
