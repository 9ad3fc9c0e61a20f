"""The page attached to every roll log export: ``verifier.html`` (beside this module) with the
export inside it. Opened in any current browser with nothing installed and no network, it checks
the export as ``python bot.py verify`` does (the chain, the seals, the commitment, every bot die
with the browser's WebCrypto, the posted head) and shows each roll. docs/roll-log.md says how."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

TEMPLATE = Path(__file__).with_name("verifier.html")
SLOT = "__EXPORT__"


@lru_cache(maxsize=1)
def _template() -> str:
    return TEMPLATE.read_text(encoding="utf-8")


def page(data: dict[str, Any] | None) -> bytes:
    """The page with `data` (an export) inside it; None: the page alone, to drop an export on."""
    text = "" if data is None else json.dumps(data, ensure_ascii=False).replace("</", "<\\/").replace("<!--", "<\\!--")
    return _template().replace(SLOT, text, 1).encode("utf-8")
