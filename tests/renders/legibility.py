"""The legibility rule (docs/pictures.md), read from a picture's own layout.

A picture shown :data:`~renders.canvas.PREVIEW` pixels wide, as Discord shows it on a phone:

* every text the picture writes (issue 30: it all carries information): the title, which carries
  the count of models or stands hit, every label (the name of a rank, a file, a stand or a model,
  written by what it names or on it), every mark, the key, the notes, the lists' sub-lines and the
  scale bar's figures are at least :data:`~renders.canvas.PREVIEW_TYPE` pixels tall (their type
  size);
* the target area (the true-scale drawing of the target) is at least half the picture's width;
* no label covers a model, a base, a stand or a hull (a mark written on its own body sits on it,
  its middle inside it, and covers no other), no label crosses a line of fire or the shot's path, and no two labels
  touch. Labels here are the plates the picture places (:attr:`Canvas.labels`) and the names it
  writes (role :data:`~renders.canvas.LABEL`).

Everything is checked geometrically, with shapely, from what the canvas recorded as it drew
(:attr:`Canvas.written`, :attr:`Canvas.bodies`, :attr:`Canvas.paths`, :attr:`Canvas.target`), not
by looking at pixels.
"""

from __future__ import annotations

from shapely import STRtree, unary_union
from shapely.geometry import LineString, Polygon, box

from renders.canvas import LABEL, MARK, NAME, PREVIEW, PREVIEW_TYPE, TITLE, Canvas

TOUCH = 0.5
"""Pixels two shapes may share along an edge before they count as overlapping (antialiasing)."""


def faults(canvas: Canvas, *, what: str = "picture") -> list[str]:
    """Every way `canvas` breaks the legibility rule, one sentence each (empty: it keeps it)."""
    out: list[str] = []
    shrink = PREVIEW / canvas.image.width
    titles = [w for w in canvas.written if w.role == TITLE]
    if not titles:
        out.append(f"{what}: no title written")
    for w in canvas.written:  # every text carries information: the key, sub-lines, marks, notes, scale, all
        if w.size * shrink < PREVIEW_TYPE - 1e-9:
            out.append(f"{what}: {w.role or 'text'} {w.text!r} is {w.size * shrink:.1f} px at {PREVIEW} px wide")
        if w.role == TITLE and w.text.endswith("…"):
            out.append(f"{what}: the title is cut short: {w.text!r}")
    if canvas.target is None:
        out.append(f"{what}: no target area recorded")
    else:
        share = (canvas.target[2] - canvas.target[0]) / canvas.image.width
        if share < 0.5:
            out.append(f"{what}: the target area is {share:.0%} of the width")

    bodies = [Polygon(b) for b in canvas.bodies]
    paths = [LineString(p) for p in canvas.paths if p[0] != p[1]]
    if canvas.hidden:  # lines drawn under the models show only where no body covers them
        covered = unary_union(bodies) if bodies else None
        for p in canvas.hidden:
            if p[0] != p[1]:
                shown = LineString(p) if covered is None else LineString(p).difference(covered)
                paths += [g for g in getattr(shown, "geoms", [shown]) if not g.is_empty]
    labels: list[tuple[str, Polygon, int | None]] = [
        (" / ".join(label.lines), box(*shrunk(label.box)), None) for label in canvas.labels
    ]
    plates = [label.box for label in canvas.labels]
    labels += [(w.text, box(*shrunk(w.box)), None) for w in canvas.written
               if w.role == LABEL and not any(inside(w.box, plate) for plate in plates)]
    marks = [(w.text, box(*shrunk(w.box)), w.owner) for w in canvas.written if w.role in (MARK, NAME)]
    body_tree = STRtree(bodies) if bodies else None
    path_tree = STRtree(paths) if paths else None

    for text, shape, _ in labels:
        if body_tree is not None:
            for i in body_tree.query(shape, predicate="intersects"):
                if shape.intersection(bodies[i]).area > TOUCH:
                    out.append(f"{what}: label {text!r} covers a model or base (body {i})")
                    break
        if path_tree is not None and len(path_tree.query(shape, predicate="intersects")):
            out.append(f"{what}: label {text!r} crosses a line of fire")
    for text, shape, owner in marks:
        if owner is None or not bodies[owner].buffer(TOUCH).contains(shape.centroid):
            out.append(f"{what}: mark {text!r} is not on its own body")
        if path_tree is not None and len(path_tree.query(shape, predicate="intersects")):
            out.append(f"{what}: mark {text!r} crosses a line of fire")
        if body_tree is not None:
            for i in body_tree.query(shape, predicate="intersects"):
                if i != owner and shape.intersection(bodies[i]).area > TOUCH:
                    out.append(f"{what}: mark {text!r} covers another body (body {i})")
                    break
    everything = labels + marks
    for i, (text, shape, _) in enumerate(everything):
        for other, other_shape, _ in everything[i + 1:]:
            if shape.intersection(other_shape).area > TOUCH:
                out.append(f"{what}: labels {text!r} and {other!r} overlap")
    return out


def inside(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Whether box `a` lies within box `b` (a plate's own line of text)."""
    return b[0] <= a[0] and b[1] <= a[1] and a[2] <= b[2] and a[3] <= b[3]


def shrunk(b: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """A text's box less the pixel of antialiasing round its ink."""
    return b[0] + 1, b[1] + 1, b[2] - 1, b[3] - 1
