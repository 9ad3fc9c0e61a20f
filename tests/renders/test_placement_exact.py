"""Label placement made faster (issue 26) chooses exactly as before: the same spot and the same
leader for every label, over random scenes of things kept clear, lines and areas. The reference
below is Canvas.place as it was (each candidate's every leader end costed in full, each box and
line tested with clip_segment); the canvas's own skips only what cannot change the choice."""

from __future__ import annotations

import math

import numpy as np
import pytest

from renders import canvas as kit
from renders.canvas import Canvas, Label, clip_segment, grow, union


class Reference(Canvas):
    __slots__ = ()

    def _clear_of_lines(self, box):
        left, top, right, bottom = padded = grow(box, 3)
        for a, b, _, r in self._lines:
            if r[0] <= right and left <= r[2] and r[1] <= bottom and top <= r[3] and clip_segment(a, b, padded):
                return False
        return True

    def _leader_cost(self, anchor, end, homes, *, enough):
        length = math.dist(anchor, end)
        if length <= kit._PLACE_RADII[0] + 2:
            return 0.0
        cost = length + max(length - kit._LEADER_SHORT, 0.0)
        for t, _ in self._areas:
            inside = clip_segment(anchor, end, t)
            if inside is not None:
                cost += math.dist(*inside)
        x0, x1 = min(anchor[0], end[0]), max(anchor[0], end[0])
        y0, y1 = min(anchor[1], end[1]), max(anchor[1], end[1])
        for i, (t, crossing) in enumerate(self._taken):
            if (t[0] <= x1 and x0 <= t[2] and t[1] <= y1 and y0 <= t[3]
                    and i not in homes and clip_segment(anchor, end, t) is not None):
                cost += crossing
        if cost >= enough:
            return cost
        dx, dy = end[0] - anchor[0], end[1] - anchor[1]
        quarter, half = (anchor[0] + dx / 4, anchor[1] + dy / 4), (anchor[0] + dx / 2, anchor[1] + dy / 2)
        for a, b, turn, r in self._lines:
            if r[0] > x1 + 8 or r[2] < x0 - 8 or r[1] > y1 + 8 or r[3] < y0 - 8:
                continue
            if kit.distance_to_segment(anchor, a, b) <= 4:
                if turn and kit._angle_between((dx, dy), (b[0] - a[0], b[1] - a[1])) < turn:
                    cost += kit._LEADER_LOST
                continue
            if kit._segments_cross(anchor, end, a, b):
                cost += kit._LEADER_CROSSING / 2
            if (kit.distance_to_segment(quarter, a, b) <= 7 and kit.distance_to_segment(half, a, b) <= 7
                    and kit._angle_between((dx, dy), (b[0] - a[0], b[1] - a[1])) < kit._LEADER_MIN_ANGLE):
                cost += kit._LEADER_LOST
        return cost

    def place(self, anchor, lines, *, size=12, within, fill=kit.INK, role=""):
        w, h = kit.plate_size(lines, size=size)
        homes = [i for i, (t, _) in enumerate(self._taken) if t[0] <= anchor[0] <= t[2] and t[1] <= anchor[1] <= t[3]]
        offsets, radii = kit._spots(w, h)
        boxes = offsets + np.array([anchor[0], anchor[1], anchor[0], anchor[1]])
        left, top, right, bottom = boxes.T
        fits = (left >= within[0]) & (top >= within[1]) & (right <= within[2]) & (bottom <= within[3])
        if self._taken:
            t = np.array([box for box, _ in self._taken]).T[:, None, :]
            fits &= ~((left[:, None] < t[2]) & (t[0] < right[:, None]) & (top[:, None] < t[3])
                      & (t[1] < bottom[:, None])).any(axis=1)
        covering = np.zeros(len(boxes))
        for (x0, y0, x1, y1), weight in self._areas:
            across = np.minimum(right, x1) - np.maximum(left, x0)
            down = np.minimum(bottom, y1) - np.maximum(top, y0)
            touched = (across > 0) & (down > 0)
            covering += np.where(touched, weight * (0.5 + 0.5 * across * down / (w * h)), 0.0)
        base = radii / 4 + covering
        bound = base + np.where(radii > kit._PLACE_RADII[0] + 2, radii, 0.0)
        chosen, cost, chosen_end = None, math.inf, anchor
        for i in np.argsort(bound, kind="stable").tolist():
            if bound[i] >= cost:
                break
            box = tuple(boxes[i].tolist())
            if not fits[i] or not self._clear_of_lines(box):
                continue
            for end in kit._leader_ends(anchor, box):
                score = base[i] + self._leader_cost(anchor, end, homes, enough=cost - base[i])
                if score < cost:
                    chosen, cost, chosen_end = box, score, end
                if score <= base[i] + 1.5 * math.dist(anchor, end):
                    break
        if chosen is None:
            spots = [kit._beside(anchor, w, h, side, r) for r in kit._PLACE_RADII for side in kit._PLACE_SIDES]
            inside = [b for b in spots if union([b, within]) == within]
            chosen = min(inside or spots[:1], key=self._conflicts)
            chosen_end = kit._nearest_on_box(anchor, chosen)
        end = chosen_end
        leader = (anchor, end) if math.dist(anchor, end) > kit._PLACE_RADII[0] + 2 else None
        if leader is not None:
            self.keep_clear_of_line(*leader)
        self.keep_clear(grow(chosen, 4))
        label = Label(chosen, tuple(lines), size, fill, leader, role)
        self.labels.append(label)
        return label


def scene(seed: int):
    """A random picture's worth of things kept clear, lines and areas, then labels to place."""
    rng = np.random.default_rng(seed)
    taken = []
    for _ in range(rng.integers(5, 40)):
        x, y = rng.uniform(0, 560), rng.uniform(0, 380)
        taken.append(((x, y, x + rng.uniform(4, 60), y + rng.uniform(4, 40)), float(rng.choice([0, 10, 60, 250]))))
    lines = []
    for _ in range(rng.integers(0, 12)):
        a = (float(rng.uniform(0, 600)), float(rng.uniform(0, 400)))
        b = (float(rng.uniform(0, 600)), float(rng.uniform(0, 400)))
        if rng.random() < 0.3:  # some lines along a box's edge or axis-aligned: the touching cases
            b = (a[0], b[1])
        lines.append((a, b, bool(rng.random() < 0.5)))
    areas = [((float(x), float(y), float(x + 120), float(y + 80)), 300.0)
             for x, y in rng.uniform(0, 400, size=(rng.integers(0, 3), 2))]
    labels = []
    for _ in range(rng.integers(1, 8)):
        if taken and rng.random() < 0.6:  # most anchors on something drawn (a model hit)
            (x0, y0, x1, y1), _ = taken[rng.integers(len(taken))]
            anchor = (float(rng.uniform(x0, x1)), float(rng.uniform(y0, y1)))
        else:
            anchor = (float(rng.uniform(0, 600)), float(rng.uniform(0, 400)))
        text = ["R1 F" + str(int(rng.integers(1, 20))), "slain"][: int(rng.integers(1, 3))]
        labels.append((anchor, text, int(rng.choice([12, 14, 18]))))
    return taken, lines, areas, labels


def build(cls, taken, lines, areas):
    c = cls(600, 400)
    for box, crossing in taken:
        c.keep_clear(box, crossing=crossing)
    for a, b, path in lines:
        c.keep_clear_of_line(a, b, path=path)
    for box, cost in areas:
        c.rather_not_cover(box, cost=cost)
    return c


@pytest.mark.parametrize("seed", range(150))
def test_placement_chooses_exactly_as_the_exhaustive_reference(seed):
    taken, lines, areas, labels = scene(seed)
    fast, reference = build(Canvas, taken, lines, areas), build(Reference, taken, lines, areas)
    for anchor, text, size in labels:
        got = fast.place(anchor, text, size=size, within=(0, 0, 600, 400))
        want = reference.place(anchor, text, size=size, within=(0, 0, 600, 400))
        assert (got.box, got.leader) == (want.box, want.leader), (seed, anchor, text)
