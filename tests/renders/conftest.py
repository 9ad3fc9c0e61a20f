"""The renders tier: golden images and the option that rewrites them.

Golden pictures live in ``tests/renders/golden/``. A test renders its record and compares the
picture with the golden one pixel by pixel, with a small tolerance (antialiased text may differ
by a shade between FreeType builds). After a deliberate change to a picture, look at the new
pictures and rewrite the golden ones with::

    make test ARGS=--regen-golden   (or .venv/bin/python -m pytest --regen-golden)
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

GOLDEN = Path(__file__).parent / "golden"
TOLERANCE = 24
"""Largest difference in any channel for a pixel to count as unchanged."""
MAX_CHANGED = 0.002
"""Share of pixels allowed to differ by more than TOLERANCE."""


def decode(png: bytes) -> Image.Image:
    """PNG bytes as a loaded RGB image."""
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


@pytest.fixture
def golden(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[str, bytes], None]:
    """``golden(name, png)``: compare `png` with ``golden/<name>.png`` (or rewrite it under
    --regen-golden). On a mismatch the new picture is saved beside the test's tmp_path and its
    path is in the failure message."""
    regen = request.config.getoption("--regen-golden", default=False)

    def check(name: str, png: bytes) -> None:
        path = GOLDEN / f"{name}.png"
        if regen:
            GOLDEN.mkdir(exist_ok=True)
            path.write_bytes(png)
            return
        if not path.exists():
            pytest.fail(f"no golden picture {path.name}: run pytest tests/renders --regen-golden and look at it")
        want, got = decode(path.read_bytes()), decode(png)
        actual = tmp_path / f"{name}.png"
        if want.size != got.size:
            actual.write_bytes(png)
            pytest.fail(f"{name}: size {got.size}, golden {want.size}; new picture at {actual}")
        diff = np.abs(np.asarray(want, dtype=np.int16) - np.asarray(got, dtype=np.int16)).max(axis=2)
        changed = float((diff > TOLERANCE).mean())
        if changed > MAX_CHANGED:
            actual.write_bytes(png)
            pytest.fail(f"{name}: {changed:.2%} of pixels differ from the golden picture; new picture at {actual}")

    return check
