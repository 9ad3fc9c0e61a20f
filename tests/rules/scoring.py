"""Scoring a /rules question set (tests/rules/*.tsv): one function shared by the tests and
benchmarks/bench_rules.py, so both report the same figures."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).parent
TUNED = HERE / "questions.tsv"
"""The project's question set: the ranking has been tuned on it."""
HELD_OUT = HERE / "questions_heldout.tsv"
"""Questions the ranking is never tuned on (issue 30)."""
GAME = {"fantasy": "warhammer-fantasy", "warmaster": "warmaster", "40k": "wh40k"}
NOT_HELD = "-"
"""The key of a question the rulebooks Bombardier holds do not answer."""


def questions(path: Path = TUNED) -> list[tuple[str, str, str | None]]:
    """(question, expected key or "-", the channel's game or None), in file order."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            question, key, *game = line.split("\t")
            rows.append((question, key, GAME[game[0]] if game else None))
    return rows


@dataclass(frozen=True)
class Score:
    n: int
    first: int
    """Answered with the expected entry first (or, for a question not held, not answered)."""
    within_three: int
    misses: tuple[str, ...]

    def line(self, name: str) -> str:
        return (f"{name}: top-1 {self.first}/{self.n} = {self.first / self.n:.1%}, "
                f"top-3 {self.within_three}/{self.n} = {self.within_three / self.n:.1%}")


def score(index, rows: list[tuple[str, str, str | None]]) -> Score:
    first = within_three = 0
    misses = []
    for question, key, game in rows:
        found = index.search(question, preferred=game)
        got = [e.key for e in found.entries]
        if key == NOT_HELD:
            ok = not found.matched
            first += ok
            within_three += ok
            if not ok:
                misses.append(f"{question!r}: answered {got[:1]} (not held)")
            continue
        if found.matched and got[:1] == [key]:
            first += 1
        else:
            misses.append(f"{question!r}: {'matched' if found.matched else 'not matched'} {got[:3]}, wanted {key}")
        within_three += key in got[:3]
    return Score(len(rows), first, within_three, tuple(misses))
