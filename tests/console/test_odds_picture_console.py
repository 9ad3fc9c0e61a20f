"""Issue 30, item 4: the /odds picture is whole (never cut off, however many outcomes) and shows
the outcomes the words give, with the same names and numbers, in count order."""

import sys

import pytest

from renders.canvas import Canvas
from renders.odds.picture import BAR_H, render_odds


@pytest.fixture
def pictures(monkeypatch, bot):
    drawn: list = []
    canvases: list[Canvas] = []
    encode = Canvas.png

    def keep(self):
        canvases.append(self)
        return encode(self)

    def render(picture):
        drawn.append(picture)
        return render_odds(picture)

    monkeypatch.setattr(sys.modules["cogs.odds.commands"], "render_odds", render)  # the module the bot loaded
    monkeypatch.setattr(Canvas, "png", keep)
    return drawn, canvases


README_SHOWCASE = '/odds shot:"fire cannon distance:30 ranks:5 files:6 toughness:3 aim_file:3"'


@pytest.mark.parametrize("line", [README_SHOWCASE, '/odds shot:"40k penetrate strength:9 armour:13"',
                                  '/odds shot:"fire stone-thrower distance:30 ranks:4 files:5 toughness:3"'])
async def test_every_bar_is_drawn_inside_the_picture(play, pictures, line):
    drawn, canvases = pictures
    code, out = await play(line)
    assert code == 0 and drawn
    canvas = canvases[-1]
    bars = [w for w in canvas.written if w.text in {b[0] for b in drawn[-1].bars}]
    assert len(bars) == len(drawn[-1].bars) > 0
    assert max(w.box[3] for w in bars) + BAR_H / 2 <= canvas.image.height


async def test_the_picture_names_and_numbers_the_outcomes_as_the_words_do(play, pictures):
    drawn, canvases = pictures
    code, out = await play(README_SHOWCASE)
    words = {o["outcome"]: o["chance"] for o in out["odds"]["outcomes"]}
    bars = drawn[-1].bars
    assert len(bars) > 5 and {label for label, _, _ in bars} <= set(words)
    for label, chance, _ in bars:
        assert chance == words[label]
        assert f"{label}: {chance * 100:.1f}%" in "\n".join(out["summary"]) or any(
            line.startswith(f"{label}: {chance * 100:.1f}%") for line in out["glance"]["lines"])
    written = {w.text for w in canvases[-1].written}
    assert all(f"{chance * 100:.1f}%" in written for _, chance, _ in bars)
    assert "no hit" in words and "0 slain" in words  # never folded together


async def test_the_bars_run_in_count_order(play, pictures):
    drawn, _ = pictures
    await play('/odds shot:"fire cannon distance:30 ranks:5 files:6 toughness:3" '
               'compare:"fire great-cannon distance:30 ranks:5 files:6 toughness:3"')
    labels = [b[0] for b in drawn[-1].bars]
    counts = [int(label.split()[0]) for label in labels if label.split()[0].isdigit()]
    assert counts == sorted(counts) and len(counts) >= 3
    first_count = next(i for i, label in enumerate(labels) if label.split()[0].isdigit())
    assert all(label.split()[0].isdigit() for label in labels[first_count:])
