"""``python -m benchmarks`` (or ``make bench``): every figure, with its target. Each
``benchmarks/bench_*.py`` module's ``main()`` runs in name order; name modules to run just those
(``python -m benchmarks console roll``)."""

import importlib
import sys
from pathlib import Path

if __name__ == "__main__":
    names = sorted(p.stem.removeprefix("bench_") for p in Path(__file__).parent.glob("bench_*.py"))
    wanted = sys.argv[1:] or names
    unknown = sorted(set(wanted) - set(names))
    if unknown:
        sys.exit(f"no benchmark named {', '.join(unknown)}; there are: {', '.join(names)}")
    for name in wanted:
        importlib.import_module(f"benchmarks.bench_{name}").main()
