"""The picture of a bolt thrower shot (Warhammer Fantasy, War Machines: Bolt Throwers).

:func:`render_bolt_thrower` draws a :class:`~engine.fantasy.bolt_thrower.BoltShot` as the engine
recorded it, for players to repeat on the table. It is laid out as the cannon's and the stone
thrower's pictures are (renders/fantasy/units.py):

* the title bar: weapon, distance to the target, hit or missed, the models hit; the target, the
  crew's Ballistic Skill and the shot's dice by what they were for;
* the target area at true scale on a grid of 1" squares (2", 5" or 10" when inches are too close
  together; the key says which): the bases (ranks R1.. and files F1.. in the unit's own
  numbering) and a bar along the unit's front. A hit: the bolt as a bold arrow coming in from
  the machine to the rank facing it (bending across to the model picked at random in a small
  unit) and straight on through each model struck, the Strength it has there on a tag beside
  the path (S6, S5, ...; when the bases are too small for a tag each, the note where it goes in
  lists them); a slain model is crossed out; a bar across the path where it stops in a model it
  failed to slay ("stops here: R5 F3 not wounded"), or at the last model struck when it slew
  them all at S1 with ranks still behind ("spent"). Without a profile the players roll the
  wounds: the models behind the first are struck only if every one before them is slain, so
  they and that part of the path are hatched and dashed. A miss: the bolt drawn grey, ending
  short of the unit and wide of the line of fire, with "MISSED" (the record holds no place for
  a missed bolt, nor does the rulebook give one: the picture only says it missed);
* below it the stretch from the machine to the target area, shortened behind a break symbol and
  labelled with the true distance, the bolt thrower, the scale bar and the whole shot to scale;
* under the strip, first the roll to hit: "BS 3: needs 5+ (long range ...)" and the die as
  rolled (a 6 and then a second die when more than 6 is needed; none when it cannot hit); for a
  unit too small to be ranked, that the model in the rank is picked at random, and the pick
  dice; under it the models hit, one entry each, in the order of their bases: its
  Strength and what the wound rolls did, with their dice (or, without a profile, its Multiple
  Wounds die and which models must die first); then a key with only what the picture shows.

A model struck is a dark solid base (every hit of a bolt is a full hit, at its own Strength);
one struck only if the models before it die is hatched on white with a dashed edge.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.dice import DieRoll
from engine.fantasy.bolt_thrower import BoltHit, BoltShot
from engine.fantasy.formation import Facing
from engine.fantasy.shooting import Cover
from engine.fantasy.wounding import WoundRoll, wounds_a_hit
from engine.geometry import Point
from renders.canvas import (
    INK, INK_SOFT, MUTED, WHITE, Box, Canvas, Label, LegendItem, Swatch, Viewport, XY, grow, length_text,
    legible, line_height, text_box, text_width, wrap,
)
from renders.fantasy.units import (
    rules_heading,
    BAR_CROSSING, HIT_CROSSING, LABEL, BaseStyle, CalloutLine, Line, PictureLayout, across, base_item,
    below_heading, callouts_per_hit, check_width, column_foot, draw_base_edge, draw_column, draw_inset_frame,
    draw_inset_machine, draw_stretch, draw_unit, finish_panel, frame, front_item, grid_item, grid_step, is_slain,
    keep_clear_of_hits, keep_notes_off_unit, name_size, name_unit, names_clear_of, panel_top, render_png, start_picture,
    target_text, unit_names, who, wound_text,
)

MISS_SHORT = 1.0
"""How far short of the unit's near edge a missed bolt is drawn ending, inches."""
MISS_WIDE = 1.5
"""How far right of the line of fire a missed bolt is drawn ending, inches."""
STOP_DEPTH = 0.75
"""How far into the model it fails to slay the bolt is drawn stopping, as a share of the base's
depth: past its middle, leaving room under the stop bar for the Strength tag."""
_DIE = 28
"""Side of a die drawn in the roll to hit, pixels."""
_HEAD = 20
"""Text size of the headings in the column."""


@dataclass(frozen=True, slots=True)
class _Marks:
    """The sizes of the bolt's marks, chosen from the size of a base on the target area, so
    that a struck base still shows round the path in a unit drawn small."""

    path: int
    """Width of the bolt's path."""
    edge: int
    """Width of the white casing round it."""
    head: float
    """Length of the arrow's head."""
    tag: int
    """Text size of the Strength tags."""
    tags: bool
    """Whether a tag fits each base struck (one above the other, along the path); when they
    do not, the note where the bolt goes in lists the Strengths instead."""


def _marks(shot: BoltShot, vp: Viewport) -> _Marks:
    f = shot.formation
    base = min(vp.span(f.cell_width), vp.span(f.cell_depth))
    tag = legible(vp.box[2] + vp.box[0])  # a Strength mark carries information: as big as a name (issue 30)
    if base >= 34:
        path, edge, head = 4, 2, 14
    elif base >= 22:
        path, edge, head = 3, 2, 12
    else:
        path, edge, head = 2, 1, 9
    return _Marks(path, edge, head, tag, vp.span(f.cell_depth) >= tag + 5)


@dataclass(frozen=True, slots=True)
class _Block:
    """The roll to hit (and the pick) at the top of the column, ready to draw: lines of text
    and rows of dice, each with the pixel y of its top."""

    texts: tuple[tuple[float, str, int, tuple[int, int, int]], ...]
    """(top, text, size, colour) of each line of text."""
    dice: tuple[tuple[float, tuple[tuple[DieRoll, str], ...], str], ...]
    """(top, dice with the caption under each, what they came to) of each row of dice."""
    bottom: float


@dataclass(frozen=True, slots=True, kw_only=True)
class _Layout(PictureLayout):
    """Where everything goes on the picture."""

    block: _Block
    marks: _Marks


@dataclass(frozen=True, slots=True)
class _Path:
    """The bolt's path on the target area, in pixels, as drawn."""

    sure: tuple[XY, ...]
    """A hit: from the bottom edge of the target area to the near edge of the first model
    struck, then straight on through the models struck for certain, the arrow's head at its end
    unless `maybe` goes on from there. Empty on a miss."""
    maybe: tuple[XY, XY] | None
    """Through the models struck only if the ones before die: dashed, the head at its end."""
    stop: XY | None
    """Where the bolt stops, in a model it failed to slay."""
    miss: tuple[XY, XY] | None
    """A missed bolt, from the bottom edge to where it is drawn ending."""

    @property
    def lines(self) -> tuple[tuple[XY, XY], ...]:
        """Every straight piece of the bolt as drawn."""
        pieces = list(zip(self.sure, self.sure[1:]))
        return tuple(pieces + [x for x in (self.maybe, self.miss) if x is not None])

    @property
    def tip(self) -> XY:
        """Where the arrow's head points."""
        if self.miss is not None:
            return self.miss[1]
        return self.maybe[1] if self.maybe is not None else self.sure[-1]


@dataclass(frozen=True, slots=True)
class _Drawing:
    """A picture drawn, with where its parts went (for the tests)."""

    canvas: Canvas
    layout: _Layout
    path: _Path
    tags: tuple[tuple[BoltHit, Box], ...]
    """Each model struck and its Strength tag's pixel box."""
    names: tuple[Box, ...]
    """Pixel boxes of the ranks' and files' names written round the unit."""
    hit_bases: tuple[tuple[BoltHit, Box], ...]
    """Each model struck and its base's pixel box."""
    inset: Viewport | None


def render_bolt_thrower(
    shot: BoltShot, *, width: int = 900, max_panel_height: int = 720, inset: bool = True,
) -> bytes:
    """The picture of `shot` as PNG bytes (:func:`renders.fantasy.units.render_png`)."""
    return render_png(_draw, shot, width=width, max_panel_height=max_panel_height, inset=inset)


def _draw(shot: BoltShot, *, width: int, max_panel_height: int, inset: bool) -> _Drawing:
    """The picture of `shot`, drawn, with where its parts went."""
    check_width(width, "bolt thrower")
    layout = _layout(shot, width, max_panel_height)
    canvas = start_picture(layout, _title(shot), _subtitle(shot))
    path, tags, names, hit_bases = _draw_panel(canvas, shot, layout)
    whole = _draw_strip(canvas, shot, layout, inset=inset)
    _draw_block(canvas, layout.block, layout.frame.column[0])
    draw_column(canvas, layout, empty=None, top=layout.block.bottom)
    return _Drawing(canvas, layout, path, tags, names, hit_bases, whole)


# Words.


def _sure(shot: BoltShot) -> tuple[BoltHit, ...]:
    """The models struck for certain."""
    return tuple(h for h in shot.hits if not h.conditional)


def _maybe(shot: BoltShot) -> tuple[BoltHit, ...]:
    """The models struck only if every one before them is slain."""
    return tuple(h for h in shot.hits if h.conditional)


def _stopped(shot: BoltShot) -> BoltHit | None:
    """The model the bolt failed to slay, where it stops; None when it went on through every
    model it could."""
    last = shot.hits[-1] if shot.hits else None
    return last if last is not None and last.wound is not None and not last.wound.slain else None


def _spent(shot: BoltShot) -> bool:
    """Whether the bolt slew every model it struck and stopped with ranks still behind: it had
    no Strength left to go on (the record says so by its last hit, S1 and slain, short of the
    unit's last row)."""
    last = shot.hits[-1] if shot.hits else None
    return (
        last is not None and last.wound is not None and last.wound.slain and last.row < shot.formation.rows
    )


def _stop_words(hit: BoltHit) -> str:
    """Why the bolt stops in `hit`, for the note by the stop bar: "R5 F3 not wounded"."""
    w = hit.wound
    if w.to_wound_needed is None:
        return f"S{hit.strength} cannot wound {who(hit.rank, hit.file)}"
    if not w.wounded:
        return f"{who(hit.rank, hit.file)} not wounded"
    if w.saved:
        return f"{who(hit.rank, hit.file)} saved"
    return f"{who(hit.rank, hit.file)} survives"


def _before(shot: BoltShot, index: int) -> str:
    """What must be slain before the `index`-th model is struck, model by model: "R1 F3 dies",
    "R1 F3 and R2 F3 die", "R1-R3 F3 all die" (from the flank, "R2 F1-F3 all die")."""
    before = shot.hits[:index]
    if len(before) == 1:
        return f"{who(before[0].rank, before[0].file)} dies"
    if len(before) == 2:
        return f"{who(before[0].rank, before[0].file)} and {who(before[1].rank, before[1].file)} die"
    ranks = sorted({h.rank for h in before})
    files = sorted({h.file for h in before})
    rank = f"R{ranks[0]}" if len(ranks) == 1 else f"R{ranks[0]}-R{ranks[-1]}"
    file = f"F{files[0]}" if len(files) == 1 else f"F{files[0]}-F{files[-1]}"
    return f"{rank} {file} all die"


def _modifiers(shot: BoltShot) -> list[str]:
    """The shooting modifiers the shot suffered, by name."""
    parts = []
    if shot.long_range:
        parts.append(f"long range: over {length_text(shot.weapon.range / 2, shot.unit)}")
    if shot.cover is not Cover.NONE:
        parts.append(f"{shot.cover.value} cover")
    if shot.modifier:
        parts.append(f"other modifiers {shot.modifier:+d}")
    return parts


def _needs(shot: BoltShot) -> str:
    """ "BS 3: needs 5+ (long range: over 24")"."""
    mods = _modifiers(shot)
    text = f"BS {shot.ballistic_skill}: needs {shot.to_hit.needed}+" + (f" ({', '.join(mods)})" if mods else "")
    return text + (": cannot hit" if not shot.to_hit.possible else "")


def _missed(shot: BoltShot) -> str:
    """ "MISSED (rolled 2, needs 5+)", or "CANNOT HIT (needs 10+)"."""
    if not shot.to_hit.possible:
        return f"CANNOT HIT (needs {shot.to_hit.needed}+)"
    return f"MISSED ({_rolled(shot)}, needs {shot.to_hit.needed}+)"


def _rolled(shot: BoltShot) -> str:
    """The to-hit roll, in short: "rolled 4", "rolled 6 then 5", "no roll"."""
    return "rolled " + " then ".join(d.face for d in shot.to_hit_dice) if shot.to_hit_dice else "no roll"


def _title(shot: BoltShot) -> str:
    start = f"{shot.weapon.name} · {length_text(shot.distance, shot.unit)} to the target"
    if not shot.hit:
        return f"{start} · {_missed(shot)}"
    sure, maybe = _sure(shot), _maybe(shot)
    hits = f"{len(sure)} model{'s' * (len(sure) != 1)} hit"
    if shot.target.profile is not None:
        slain = sum(h.wound.slain for h in shot.hits if h.wound is not None)
        hits += f", {slain or 'none'} slain"
    if maybe:
        hits += f", up to {len(maybe)} more if each is slain in turn"
    return f"{start} · HIT · {hits}"


def _dice(shot: BoltShot) -> str:
    """The shot's dice by what they were for, in the order rolled."""
    groups: list[tuple[str, list[str]]] = [("to hit", [d.face for d in shot.to_hit_dice])]
    if shot.pick:
        groups.append(("pick", [d.face for d in shot.pick]))
    wounds = [h.wound for h in shot.hits if h.wound is not None]
    for name, die in (
        ("to wound", lambda w: w.to_wound), ("armour", lambda w: w.save), ("ward", lambda w: w.ward),
        ("Multiple Wounds", lambda w: w.multiple_wounds),
    ):
        faces = [die(w).face for w in wounds if die(w) is not None]
        if faces:
            groups.append((name, faces))
    return "dice: " + (", ".join(f"{name} {' '.join(faces)}" for name, faces in groups if faces) or "none")


def _subtitle(shot: BoltShot) -> str:
    return f"{target_text(shot.target, 'bolt thrower')} · crew BS {shot.ballistic_skill} · {_dice(shot)}"


def _heading(shot: BoltShot, width: float) -> tuple[tuple[str, int], ...]:
    """The column's heading over the models hit, counting as the title does."""
    if not shot.hits:
        return (("Models hit", _HEAD), ("none: the bolt missed", LABEL))
    sure, maybe = _sure(shot), _maybe(shot)
    text = f"Models hit ({len(sure)}" + (f", +{len(maybe)} only if each is slain)" if maybe else ")")
    return (*((line, _HEAD) for line in wrap(text, size=_HEAD, width=width)),
            *rules_heading(shot.target_rules, shot.immunity, width))


def _outcome(w: WoundRoll) -> str:
    """What the wound rolls did to a model struck, in short (the dice go on the line under)."""
    if w.to_wound_needed is None:
        return "cannot wound"
    if not w.wounded:
        return "not wounded"
    if w.saved:
        return "saved"
    return wound_text(w)


def _wound_dice(shot: BoltShot, w: WoundRoll) -> str | None:
    """The wound dice of a model struck, for the players to check: "to wound 2 (2+), no armour
    save left", "to wound 6 (4+), armour 2 (6+)", "to wound 4 (5+)"; None when the hit could not
    wound (no die was rolled)."""
    if w.to_wound is None:
        return None
    parts = [f"to wound {w.to_wound.face} ({w.to_wound_needed}+)"]
    if not w.wounded:
        return parts[0]
    profile = shot.target.profile
    if w.save is not None:
        parts.append(f"armour {w.save.face} ({w.save_needed}+)")
    elif profile is not None and profile.save is not None:
        parts.append("no armour save left")
    if w.ward is not None:
        parts.append(f"ward {w.ward.face} ({w.ward_needed}+)")
    if w.multiple_wounds is not None:
        parts.append(f"Multiple Wounds {w.multiple_wounds.face}")
    return ", ".join(parts)


def _callout_lines(shot: BoltShot, index: int, width: float) -> tuple[CalloutLine, ...]:
    """One model struck, wrapped to `width` pixels: who, the Strength, what happened (after its
    swatch); the wound dice, what must die first, where the bolt stops."""
    hit = shot.hits[index]
    result = _outcome(hit.wound) if hit.wound is not None else wounds_a_hit(shot.wounds_die)
    headline = f"{who(hit.rank, hit.file)}: S{hit.strength}, {result}"
    lines = [CalloutLine(line, LABEL + 1) for line in wrap(headline, size=LABEL + 1, width=width)]
    lines[0] = CalloutLine(lines[0].text, lines[0].size, _style(hit), is_slain(hit))
    notes = []
    if hit.wound is not None:
        notes.append(_wound_dice(shot, hit.wound))
    if hit.conditional:
        notes.append(f"only if {_before(shot, index)}")
    if index == 0 and shot.pick:
        notes.append("picked at random in its rank")
    if hit is _stopped(shot):
        notes.append("the bolt stops here")
    if index == len(shot.hits) - 1 and _spent(shot):
        notes.append("the bolt is spent here: no Strength left")
    lines += [CalloutLine(line, LABEL - 1) for note in notes if note for line in wrap(note, size=LABEL - 1, width=width)]
    return tuple(lines)


# Layout.


def _miss_end(shot: BoltShot) -> Point:
    """Where a missed bolt is drawn ending: short of the unit and wide of the line of fire."""
    return Point(MISS_WIDE, shot.formation.near - MISS_SHORT)


def _touched(shot: BoltShot) -> list[Point]:
    return [] if shot.hit else [_miss_end(shot)]


def _layout(shot: BoltShot, width: int, max_panel_height: int) -> _Layout:
    fr = frame(shot.formation, _touched(shot), width=width, top=panel_top(()), max_panel_height=max_panel_height)
    panel, column = fr.panel, fr.column
    block = _block(shot, column)
    heading = _heading(shot, column[2] - column[0])
    below = below_heading(block.bottom, heading)
    entries = callouts_per_hit(shot.formation, shot.hits, fr, below, lambda run, room: _callout_lines(shot, run[0], room))
    marks = _marks(shot, panel)
    grid = grid_step(panel)
    legend = _legend(shot, marks, grid)
    top, height = column_foot(fr, entries, below, legend)
    return _Layout(
        width=width, height=height, frame=fr, heading=heading, callouts=entries, legend=legend, legend_top=top,
        grid=grid, block=block, marks=marks,
    )


def _block(shot: BoltShot, column: Box) -> _Block:
    """The roll to hit, and for a unit too small to be ranked the pick, from the column's top."""
    width = column[2] - column[0]
    texts: list[tuple[float, str, int, tuple[int, int, int]]] = []
    dice: list[tuple[float, tuple[tuple[DieRoll, str], ...], str]] = []
    y = column[1] + 2

    def write(text: str, size: int, colour: tuple[int, int, int] = INK) -> None:
        nonlocal y
        for line in wrap(text, size=size, width=width):
            texts.append((y, line, size, colour))
            y += line_height(size)

    write("To hit", _HEAD)
    write(_needs(shot), LABEL + 1)
    then = shot.to_hit.then
    if then is not None:
        write(f"more than 6: a 6, then {then}+ on a second die", LABEL - 1, INK_SOFT)
    y += 4
    if shot.to_hit_dice:
        captions = [f"needs {shot.to_hit.first}" + ("+" if shot.to_hit.first < 6 else "")]
        if len(shot.to_hit_dice) > 1:
            captions.append(f"then {then}+")
        dice.append((y, tuple(zip(shot.to_hit_dice, captions)), "HIT" if shot.hit else "MISSED"))
        y += _DIE + 4 + line_height(LABEL - 1) + 6
    else:
        write(f"no roll: {shot.to_hit.needed}+ cannot be rolled", LABEL, INK_SOFT)
        y += 6
    if shot.pick:
        first = shot.hits[0]
        write("Which model", _HEAD)
        write(
            f"fewer than {shot.weapon.ranked_target} models: the model hit in the rank facing the "
            f"{shot.weapon.name.lower()} is picked at random", LABEL - 1, INK_SOFT,
        )
        y += 4
        captions = ["again"] * (len(shot.pick) - 1) + ["D6"]
        dice.append((y, tuple(zip(shot.pick, captions)), f"{who(first.rank, first.file)}"))
        y += _DIE + 4 + line_height(LABEL - 1) + 6
    return _Block(tuple(texts), tuple(dice), y + 6)


# Marks.


def _style(hit: BoltHit | None) -> BaseStyle:
    if hit is None:
        return BaseStyle.PLAIN
    return BaseStyle.CONDITIONAL if hit.conditional else BaseStyle.SOLID


def _die(canvas: Canvas, box: Box, face: str, *, size: int = 18) -> None:
    """A die showing `face`: a white square with rounded corners and a dark edge."""
    canvas.draw.rounded_rectangle(box, radius=4, fill=WHITE, outline=INK, width=2)
    canvas.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 1), face, size=size, anchor="mm")


def _stop_bar(canvas: Canvas, at: XY, *, half: float, width: int = 4) -> None:
    """A bar across the (upward) path at `at`, on a white edge: the bolt stops here."""
    a, b = (at[0] - half, at[1]), (at[0] + half, at[1])
    canvas.line([a, b], fill=WHITE, width=width + 4)
    canvas.line([a, b], fill=INK, width=width)


def _bolt_thrower(canvas: Canvas, tip: XY) -> Box:
    """A bolt thrower seen from above, a crossbow on its stand: the bolt's tip at `tip` (where
    the distance is measured from), the bow across the front, the string drawn back to the
    nut, the stock running back to two splayed legs. Returns its box."""
    x, y = tip
    for side in (-1, 1):
        canvas.line([(x, y + 44), (x + side * 16, y + 62)], fill=INK, width=3)
    canvas.draw.rectangle((x - 4, y + 12, x + 4, y + 56), fill=INK_SOFT, outline=INK)
    bow = (x - 24, y + 10, x + 24, y + 34)
    canvas.draw.arc(bow, 180, 360, fill=INK, width=4)
    canvas.line([(x - 24, y + 22), (x, y + 34), (x + 24, y + 22)], fill=INK_SOFT, width=1)
    canvas.draw.rectangle((x - 5, y + 32, x + 5, y + 37), fill=INK)
    canvas.line([(x, y + 6), (x, y + 33)], fill=INK, width=2)
    canvas.draw.polygon([(x, y), (x - 4, y + 8), (x + 4, y + 8)], fill=INK)
    return x - 24, y, x + 24, y + 62


def _tag(canvas: Canvas, box: Box, text: str, size: int) -> None:
    """A Strength tag: `text` on a small white plate with a dark edge."""
    canvas.draw.rectangle(box, fill=WHITE, outline=INK)
    canvas.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), text, size=size, anchor="mm")


def _tag_box(centre: XY, path_x: float, text: str, marks: _Marks) -> Box:
    """Where the Strength tag of a base goes: just left of the path, level with the base's
    centre."""
    w = text_width(text, size=marks.tag) + 6
    h = marks.tag + 4
    right = path_x - marks.path / 2 - marks.edge - 2
    return right - w, centre[1] - h / 2, right, centre[1] + h / 2


def _path(shot: BoltShot, vp: Viewport) -> _Path:
    """Where the bolt's lines go on the target area, from where the line from the machine comes
    in at the bottom edge: on a hit, to the near edge of the first model struck (straight on,
    or across to a model picked at random in a small unit), then straight on through the
    models struck, into the one it stops in, or out past the last; on a miss, to where it is
    drawn ending."""
    f = shot.formation
    start = vp.px(0.0, vp.y0)
    if not shot.hit:
        return _Path((), None, None, (start, vp.at(_miss_end(shot))))
    first = shot.hits[0]
    row, col = f.cell_of(first.rank, first.file)
    x = f.centre(row, col).x
    entry = vp.px(x, f.near + row * f.cell_depth)
    through = (start, entry) if entry[0] == start[0] else (start, entry, entry)  # a bend for a picked model

    def far_edge(hit: BoltHit) -> float:
        r, _ = f.cell_of(hit.rank, hit.file)
        return f.near + (r + 1) * f.cell_depth

    stopped = _stopped(shot)
    sure, maybe = _sure(shot), _maybe(shot)
    beyond = 0 if f.unit.facing is Facing.REAR else 4  # past the last rank, short of a front bar there
    stop = None
    if stopped is not None:
        r, c = f.cell_of(stopped.rank, stopped.file)
        stop = vp.px(x, f.near + (r + STOP_DEPTH) * f.cell_depth)
        end = stop
    else:
        end = vp.px(x, far_edge(sure[-1]))
    if _spent(shot):
        stop = end = vp.px(x, far_edge(sure[-1]))
        return _Path((*through[:-1], end), None, stop, None)
    if maybe:
        joint = vp.px(x, far_edge(sure[-1]))
        tail = vp.px(x, far_edge(maybe[-1]))
        return _Path((*through[:-1], joint), (joint, (tail[0], tail[1] - beyond)), None, None)
    if stopped is None:
        end = (end[0], end[1] - beyond)
    return _Path((*through[:-1], end), None, stop, None)


def _draw_path(canvas: Canvas, path: _Path, marks: _Marks) -> None:
    """The bolt: a bold dark arrow on a white casing; the part through models struck only if the
    ones before die dashed, its head at the end."""
    if path.miss is not None:
        canvas.arrow(*path.miss, fill=MUTED, width=marks.path, head=marks.head, casing=WHITE, edge=marks.edge)
        return
    pieces = path.lines
    a, d = pieces[-1]
    length = math.dist(a, d)
    ux, uy = (d[0] - a[0]) / length, (d[1] - a[1]) / length
    head = min(marks.head, length)
    neck = (d[0] - ux * head * 0.8, d[1] - uy * head * 0.8)
    casing = marks.path + 2 * marks.edge
    canvas.line([*path.sure, *(path.maybe or ())][:-1] + [neck], fill=WHITE, width=casing)
    sure = list(path.sure) if path.maybe is not None else [*path.sure[:-1], neck]
    canvas.line(sure, fill=INK, width=marks.path)
    if path.maybe is not None:
        canvas.dashed(path.maybe[0], neck, fill=INK, width=marks.path, dash=7, gap=5)
    canvas.arrow((neck[0] - ux, neck[1] - uy), d, fill=INK, width=marks.path, head=head, casing=WHITE, edge=marks.edge)


def _drawn_lines(path: _Path, marks: _Marks) -> list[Line]:
    return [(a, b, marks.path + 2 * marks.edge) for a, b in path.lines]


def _draw_panel(canvas: Canvas, shot: BoltShot, layout: _Layout) -> tuple:
    """The target area in layers: table and grid, bases and the unit's front; the bolt, the
    struck bases' edges again over it, the stop bar and the Strength tags; the notes' leaders,
    the names of ranks and files (moved along their rank or file, or left out, where the bolt
    or a tag would cross them), the notes. Returns the bolt's path, the tags, the names' boxes
    and the struck bases."""
    vp, f, marks = layout.panel, shot.formation, layout.marks
    hit_bases, bar = draw_unit(canvas, vp, f, shot.hits, _style, layout.grid)

    path = _path(shot, vp)
    _draw_path(canvas, path, marks)
    for hit, box in hit_bases:
        draw_base_edge(canvas, box, _style(hit))
    if path.stop is not None:
        stop_half = min(vp.span(f.cell_width) / 2 - 2, 12)
        _stop_bar(canvas, path.stop, half=stop_half, width=3 if marks.path >= 3 else 2)
    tags = []
    path_x = path.sure[-1][0] if path.sure else 0.0
    stopped = _stopped(shot)
    for hit, box in hit_bases if marks.tags else ():
        text = f"S{hit.strength}"
        y = (box[1] + box[3]) / 2
        if hit is stopped:  # under the stop bar, in the part of the base the bolt crossed, if it fits
            y = min(max(y, (path.stop[1] + 3 + box[3]) / 2), box[3] - (marks.tag + 4) / 2)
        tag = _tag_box(((box[0] + box[2]) / 2, y), path_x, text, marks)
        _tag(canvas, tag, text, marks.tag)
        tags.append((hit, tag))

    # What the notes keep clear of: the bolt (no leader runs along it), the struck bases and
    # their tags (no leader crosses them if it can help it), the names, the leaders of the list
    # of hits; they would rather not cover the unit's plain bases either.
    lines = _drawn_lines(path, marks)
    for a, b in path.lines:
        canvas.keep_clear_of_line(a, b, path=True)
    keep_clear_of_hits(canvas, hit_bases)
    tag_boxes = tuple(grow(box, 1) for _, box in tags)
    for box in tag_boxes:
        canvas.keep_clear(box, crossing=HIT_CROSSING)
    if path.stop is not None:
        x, y = path.stop
        canvas.keep_clear((x - 14, y - 5, x + 14, y + 5))
    keep_notes_off_unit(canvas, f, vp)
    canvas.keep_clear(grow(bar, 2), crossing=BAR_CROSSING)
    names_clear_of(canvas, unit_names(f, vp, bar, lines, boxes=tag_boxes, size=name_size(canvas.image.width),
                                      aimed=shot.aimed_model))

    notes = _place_notes(canvas, shot, vp, path, marks.tags)
    names = name_unit(canvas, f, vp, bar, lines, notes, boxes=tag_boxes, aimed=shot.aimed_model)
    finish_panel(canvas, vp, notes)
    return path, tuple(tags), names, hit_bases


def _place_notes(canvas: Canvas, shot: BoltShot, vp: Viewport, path: _Path, layout_tags: bool) -> list[Label]:
    """The notes on the target area, each placed clear of the rest: where a missed bolt ends;
    where the bolt goes in (and, for a small unit, that the model was picked at random); where
    the dashed part begins; where it stops."""
    within = grow(vp.box, -4)
    if path.miss is not None:
        return [canvas.place(path.miss[1], [_missed(shot),
                                            "the bolt lands harmlessly"], size=LABEL, within=within)]
    f = shot.formation
    first = shot.hits[0]
    row, col = f.cell_of(first.rank, first.file)
    entry = vp.px(f.centre(row, col).x, f.near + row * f.cell_depth)
    lines = [f"HIT: into {who(first.rank, first.file)} at S{first.strength}"]
    if not layout_tags and len(shot.hits) > 1:
        lines.append("then " + ", ".join(f"S{h.strength}" for h in shot.hits[1:]) + " in the ranks behind")
    if shot.pick:
        lines.append(f"picked at random (D6 {', '.join(d.face for d in shot.pick)})")
    notes = [canvas.place(entry, lines, size=LABEL, within=within)]
    if path.maybe is not None:
        notes.append(canvas.place(path.tip, ["this far only if each", "model struck is slain"], size=LABEL,
                                  within=within, fill=INK_SOFT))
    stopped = _stopped(shot)
    if stopped is not None and path.stop is not None:
        notes.append(canvas.place(path.stop, [f"stops here: {_stop_words(stopped)}"], size=LABEL, within=within))
    elif path.stop is not None:
        notes.append(canvas.place(path.stop, ["spent: no Strength left"], size=LABEL, within=within))
    return notes


# The column's top: the roll to hit.


def _draw_block(canvas: Canvas, block: _Block, x: float) -> None:
    for top, text, size, colour in block.texts:
        canvas.text((x, top), text, size=size, fill=colour, anchor="lt")
    for top, row, result in block.dice:
        left = x
        for i, (die, caption) in enumerate(row):
            if i:
                canvas.text((left + 2, top + _DIE / 2), "then", size=LABEL - 1, fill=INK_SOFT, anchor="lm")
                left += text_width("then", size=LABEL - 1) + 8
            box = (left, top, left + _DIE, top + _DIE)
            _die(canvas, box, die.face)
            cap = text_box(((box[0] + box[2]) / 2, box[3] + 3), caption, size=LABEL - 1, anchor="mt")
            if cap[0] < x:  # keep the caption in the column
                canvas.text((x, box[3] + 3), caption, size=LABEL - 1, fill=INK_SOFT, anchor="lt")
                end = x + text_width(caption, size=LABEL - 1)
            else:
                canvas.text(((box[0] + box[2]) / 2, box[3] + 3), caption, size=LABEL - 1, fill=INK_SOFT, anchor="mt")
                end = cap[2]
            left = max(box[2], end) + 8
        y = top + _DIE / 2
        canvas.arrow((left, y), (left + 16, y), fill=INK, width=2, head=7)
        canvas.text((left + 22, y), result, size=_HEAD, anchor="lm")


# The shortened stretch, the bolt thrower, the whole shot.


def _draw_strip(canvas: Canvas, shot: BoltShot, layout: _Layout, *, inset: bool) -> Viewport | None:
    box = draw_stretch(
        canvas, layout.frame, distance=f"to the target {length_text(shot.distance, shot.unit)}",
        name=shot.weapon.name, machine=_bolt_thrower, unit=shot.unit, inset=inset,
    )
    return _draw_inset(canvas, shot, layout, box) if box is not None else None


def _draw_inset(canvas: Canvas, shot: BoltShot, layout: _Layout, box: Box) -> Viewport:
    """The whole shot at true scale in `box`: the bolt thrower, the unit, (dashed) the stretch
    the target area shows, and the bolt: to the model it struck, or, missed, grey and wide."""
    f = shot.formation
    vp = draw_inset_frame(canvas, box, layout.panel, f, _touched(shot))
    origin = vp.px(0.0, 0.0)
    if shot.hit:
        last = shot.hits[-1]
        row, col = f.cell_of(last.rank, last.file)
        first_row, _ = f.cell_of(shot.hits[0].rank, shot.hits[0].file)
        canvas.line([origin, vp.at(f.centre(first_row, col))], fill=INK, width=2)
        canvas.line([vp.at(f.centre(first_row, col)), vp.at(f.centre(row, col))], fill=INK, width=2)
    else:
        canvas.line([origin, vp.at(_miss_end(shot))], fill=MUTED, width=2)
    draw_inset_machine(canvas, vp)
    return vp


# The key.


def _legend(shot: BoltShot, marks: _Marks, grid: int) -> tuple[LegendItem, ...]:
    """The key: only the marks this picture shows, and the grid's squares."""

    head = min(marks.head, 10)

    def arrow(ink: tuple[int, int, int]) -> Swatch:
        return lambda c, b: c.arrow(*across(b), fill=ink, width=marks.path, head=head)

    def bar(c: Canvas, b: Box) -> None:
        x, y = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        c.line([(x - 7, y), (x + 7, y)], fill=INK, width=3)

    items = []
    if not shot.hit:
        items.append(LegendItem("the bolt: missed, lands harmlessly", arrow(MUTED)))
    else:
        items.append(LegendItem("the bolt's path", arrow(INK)))
        if _maybe(shot):
            items.append(LegendItem("on only if each model is slain",
                                    lambda c, b: c.dashed(*across(b), fill=INK, width=marks.path, dash=7, gap=5)))
        if _stopped(shot) is not None:
            items.append(LegendItem("the bolt stops here", bar))
        elif _spent(shot):
            items.append(LegendItem("the bolt is spent here", bar))
        strengths = [h.strength for h in shot.hits]
        span = f"S{strengths[0]}" if len(strengths) == 1 else f"S{strengths[0]}-S{strengths[-1]}"

        def tag(c: Canvas, b: Box) -> None:  # the plate alone: its words say what it holds
            x, y = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
            c.draw.rectangle((x - 12, y - 7, x + 12, y + 7), fill=WHITE, outline=INK)

        if marks.tags:
            items.append(LegendItem(f"Strength at that model ({span})", tag))
        if _sure(shot):
            items.append(base_item("struck by the bolt", BaseStyle.SOLID))
        if _maybe(shot):
            items.append(base_item("struck only if those before die", BaseStyle.CONDITIONAL))
        if any(is_slain(h) for h in shot.hits):
            items.append(base_item("slain", BaseStyle.PLAIN, slain=True))
    items.append(front_item())
    items.append(grid_item(grid, shot.unit))
    return tuple(items)

