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


def section_test(store: Store, channel_id: int, section: str, kind: str, gate: bool, dice, *, procedure=None, **shot):
    """A structure test (or `procedure(tokens=...)`, e.g. a battering attempt) of a named section:
    its tokens from the store, the outcome written back."""
    name = sieges.section_name(section)
    if not name or len(name) > 40:
        raise RulesError(f"Section '{quote(section)}': give a name of 1 to 40 characters.")

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
