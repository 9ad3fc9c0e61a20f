"""The pictures of README.md and docs/ are what the bot draws now (scripts/readme_pictures.py), and
each page that shows one quotes the command that drew it."""

from pathlib import Path

import pytest

from scripts import readme_pictures as pictures

ROOT = Path(__file__).resolve().parent.parent
REGENERATE = "run: make docs (or .venv/bin/python scripts/readme_pictures.py), and look at the pictures"


@pytest.fixture(scope="module")
def made() -> dict[str, bytes]:
    return pictures.make()


@pytest.mark.parametrize("picture", pictures.PICTURES, ids=lambda p: p.name)
def test_the_committed_picture_is_what_the_script_makes_now(made, picture):
    path = pictures.IMG / f"{picture.name}.png"
    assert path.exists(), f"docs/img/{picture.name}.png is missing; {REGENERATE}"
    why = pictures.differs(path.read_bytes(), made[picture.name])
    assert why is None, f"docs/img/{picture.name}.png is stale ({why}); {REGENERATE}"


@pytest.mark.parametrize("picture", pictures.PICTURES, ids=lambda p: p.name)
def test_each_page_showing_a_picture_quotes_its_command(picture):
    assert picture.pages
    for page in picture.pages:
        text = (ROOT / page).read_text(encoding="utf-8")
        link = "docs/img/" if page == "README.md" else "img/"
        assert f"]({link}{picture.name}.png)" in text, f"{page} does not show {picture.name}.png"
        assert picture.command in text, f"{page} does not quote {picture.command}"
        if page != "README.md":  # a docs page tells the whole story behind its picture
            for line in picture.setup:
                assert line in text, f"{page} does not quote {line}, which {picture.name}.png runs first"


def test_the_script_refuses_a_picture_the_bot_rolled_for():
    lazy = pictures.Picture("lazy", "/fire cannon distance:30")
    with pytest.raises(pictures.PictureError, match="enter every die"):
        pictures.make((lazy,))


def test_differs_sees_a_changed_picture():
    png = (pictures.IMG / "cannon.png").read_bytes()
    assert pictures.differs(png, png) is None
    assert pictures.differs(png, (pictures.IMG / "blast-40k.png").read_bytes()) is not None
