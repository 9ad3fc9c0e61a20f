"""The /odds picture (renders/odds.py): a target shaded by each model's chance of being hit and
bars of the outcomes, one shot or two side by side; text sized for Discord's 400-pixel preview."""

import io

from PIL import Image

from renders.odds.picture import SMALL, TEXT, WIDTH, OddsPicture, render_odds


def test_a_shot_with_a_target_and_two_shots_compared_draw():
    one = OddsPicture("Odds: /fire cannon distance:30", "estimated", "Models slain",
                      tuple((f"{v} slain", v / 10, None) for v in range(5)),
                      grid=((0.1, 0.3, 0.1), (0.05, 0.2, 0.05)), grid_title="Chance each model is hit")
    two = OddsPicture("Odds: two", "exact", "Outcomes", (("no effect", 0.5, 0.67), ("glancing", 0.17, 0.17)),
                      legend=("/first", "/second"))
    for picture in (one, two):
        png = Image.open(io.BytesIO(render_odds(picture)))
        assert png.format == "PNG" and png.width == WIDTH


def test_its_text_reads_at_discords_preview_size():
    # 400 px wide, the smallest label stands at least 8 px tall
    assert SMALL * 400 / WIDTH >= 8 and TEXT * 400 / WIDTH >= 8


def test_the_centre_of_landing_is_marked_on_the_unit_or_at_its_edge_toward_it():
    grid = ((0.1, 0.3, 0.1), (0.05, 0.2, 0.05))
    plain = OddsPicture("Odds", "exact", "Outcomes", (("no hit", 0.5, None),), grid=grid, grid_title="Chance")
    on = OddsPicture("Odds", "exact", "Outcomes", (("no hit", 0.5, None),), grid=grid, grid_title="Chance",
                     landing=(0.5, 1.5))
    beyond = OddsPicture("Odds", "exact", "Outcomes", (("no hit", 0.5, None),), grid=grid, grid_title="Chance",
                         landing=(-3.0, 1.5))
    images = [Image.open(io.BytesIO(render_odds(p))).convert("RGB") for p in (plain, on, beyond)]
    assert images[0].size == images[1].size == images[2].size
    assert images[0].tobytes() != images[1].tobytes() != images[2].tobytes()
