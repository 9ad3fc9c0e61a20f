"""The pictures of README.md and docs/, made by the bot itself.

Each picture is a real command run through the offline console (the same command tree, engine and
renderers Discord gets), with every die entered, so the same code always draws the same picture.
``tests/test_readme_pictures.py`` fails when a committed picture is not what this makes now.

    .venv/bin/python scripts/readme_pictures.py          rewrite docs/img/*.png
    .venv/bin/python scripts/readme_pictures.py --check  exit 1 when one is stale (pixels compared)
"""

from __future__ import annotations

import argparse
import asyncio
import io
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

IMG = ROOT / "docs" / "img"


@dataclass(frozen=True)
class Picture:
    name: str
    """docs/img/<name>.png"""
    command: str
    """The command whose reply carries the picture (every die entered)."""
    setup: tuple[str, ...] = ()
    """Commands run first, in the picture's own server and channel."""
    pages: tuple[str, ...] = ()
    """Pages (from the project root) that show the picture and quote its command."""
    preview: int | None = None
    """Shrink the picture to this many pixels wide, as Discord shows it on a phone (docs/pictures.md)."""
    glance: bool = False
    """The glance picture the channel's embed shows (renders/canvas.py, its glance section) rather than the full diagram."""


PICTURES = (
    Picture("cannon", '/fire cannon distance:30 ranks:4 files:5 dice:"@330 4 8"',
            pages=("README.md", "docs/fantasy.md")),
    Picture("cannon-400", '/fire cannon distance:30 ranks:4 files:5 dice:"@330 4 8"', preview=400, glance=True,
            pages=("README.md", "docs/pictures.md")),
    Picture("stone-thrower", '/fire stone-thrower distance:36 ranks:5 files:10 dice:"H 4"',
            pages=("docs/fantasy.md",)),
    Picture("blast-40k", '/40k ordnance distance:24 strength:8 models:10 per_row:5 dice:"@60 2 2 6 6"',
            pages=("README.md", "docs/wh40k.md")),
    Picture("wm-cannon", '/wm cannon distance:40 stands:3 formation:column dice:"4 5 6 2 6 1 3 2 4 2 5 1"',
            pages=("docs/warmaster.md",)),
    Picture("siege-fortress", "/siege fortress", setup=(
        '/siege structure kind:wall section:"north wall" hits:2 dice:"3 4"',
        '/siege structure kind:gateway section:gate hits:4 dice:"4 5 3 6"',
    ), pages=("docs/warmaster.md",)),
    Picture("battle-status", "/battle status", setup=(
        '/campaign create name:"Border Wars"',
        '/machine add name:"Old Betsy" kind:cannon crew:3 bs:3',
        '/machine add name:"Grudge Thrower" kind:stone-thrower crew:3 bs:3',
        '/machine add name:"Sharpshooter" kind:bolt-thrower crew:2 bs:4',
        '/battle start campaign:"Border Wars"',
        '/fire cannon distance:30 machine:"Old Betsy" dice:"@0 M 3"',
        '/fire stone-thrower distance:36 machine:"Grudge Thrower" dice:"H 6"',
        "/battle turn",
        '/fire bolt-thrower distance:20 machine:"Sharpshooter" dice:"5"',
    ), pages=("README.md", "docs/campaigns.md")),
    Picture("odds-cannon", '/odds shot:"fire cannon distance:30 ranks:5 files:6 toughness:3 aim_file:3"',
            pages=("README.md", "docs/odds.md")),
)


class PictureError(Exception):
    """A picture's command failed, drew no picture, or let the bot roll a die."""


async def _make(pictures: tuple[Picture, ...], data_dir: Path) -> dict[str, bytes]:
    from bot import create_bot
    from config.settings import Settings
    from console import offline as console
    from cogs.common.replies import ERROR_KEY, FAILURE_KEY, REPLY_KEY

    import engine.odds.enumeration

    engine.odds.enumeration.SECONDS = None  # odds bounded by dice alone: the same throws on every machine
    bot = create_bot(Settings(data_dir=data_dir, sync_commands=False, dice_seed=1))
    await bot.load_cogs()
    made = {}
    try:
        for n, picture in enumerate(pictures, start=1):
            where = {"guild_id": 9000 + n, "channel_id": 9100 + n}  # each picture its own server
            for line in (*picture.setup, picture.command):
                interaction = await console.invoke(bot, line, **where)
                failed = interaction.extras.get(ERROR_KEY) or interaction.extras.get(FAILURE_KEY)
                if failed:
                    raise PictureError(f"{picture.name}: {line}: {failed}")
                reply = interaction.extras[REPLY_KEY]
                rolled = [d for d in reply.dice if d.by.value != "player"]
                if rolled:
                    raise PictureError(f"{picture.name}: {line}: enter every die (the bot rolled {len(rolled)})")
            if reply.image is None:
                raise PictureError(f"{picture.name}: {picture.command} drew no picture")
            from renders.canvas import glance_of

            image = glance_of(reply.image) if picture.glance else reply.image
            if image is None:
                raise PictureError(f"{picture.name}: {picture.command} drew no glance picture")
            made[picture.name] = bytes(image) if picture.preview is None else shrink(image, picture.preview)
    finally:
        await bot.close()
    return made


def shrink(png: bytes, width: int) -> bytes:
    """The PNG shrunk to `width` pixels wide (Lanczos), as a phone shows it in a message."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    small = image.resize((width, round(image.height * width / image.width)), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    small.save(out, format="PNG", optimize=True)
    return out.getvalue()


def make(pictures: tuple[Picture, ...] = PICTURES) -> dict[str, bytes]:
    """Every picture's PNG bytes, from a fresh bot with a throwaway data folder."""
    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(_make(pictures, Path(tmp)))


def differs(want: bytes, got: bytes, *, tolerance: int = 24, share: float = 0.002) -> str | None:
    """Why two PNGs are not the same picture (size, or more than `share` of pixels off by more than
    `tolerance` in a channel: antialiased text may differ by a shade between FreeType builds), or None."""
    import numpy as np
    from PIL import Image

    a, b = (Image.open(io.BytesIO(png)).convert("RGB") for png in (want, got))
    if a.size != b.size:
        return f"size {b.size}, committed {a.size}"
    diff = np.abs(np.asarray(a, dtype=np.int16) - np.asarray(b, dtype=np.int16)).max(axis=2)
    changed = float((diff > tolerance).mean())
    return f"{changed:.2%} of pixels differ" if changed > share else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with docs/img instead of writing")
    args = parser.parse_args(argv)
    made = make()
    stale = []
    for name, png in made.items():
        path = IMG / f"{name}.png"
        if args.check:
            why = "missing" if not path.exists() else differs(path.read_bytes(), png)
            if why:
                stale.append(f"docs/img/{name}.png: {why}")
        else:
            IMG.mkdir(parents=True, exist_ok=True)
            path.write_bytes(png)
            print(f"docs/img/{name}.png")
    for line in stale:
        print(line)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
