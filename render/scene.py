"""A picture as the list of drawing steps that make it, each with the pixels it may touch.

The board is drawn into a :class:`Scene` instead of straight onto an image: the same
sprite pastes, text masks, lines and boxes, recorded in order. Drawn onto the board's
background (:meth:`Scene.draw_on`) they give exactly the picture drawing them directly
gave. Kept from one board to the next, they tell which pixels can differ
(:func:`changed_boxes`): every pixel outside the boxes of the steps that came or went is
covered by the same steps in the same order over the same background, so it is the same.
Only the changed boxes are drawn again (:meth:`Scene.draw_on` with ``only``), over the
background restored there.

Every step changes each pixel from that pixel alone (an alpha paste, a text mask, a
filled shape): no step reads its neighbours, so drawing a step whole over a canvas whose
pixels are right only inside some boxes leaves those boxes right.

A scene has the methods of ``Image.paste`` and of ``ImageDraw`` that the board uses, so
the drawing code takes either a scene or an image.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any

from PIL import Image, ImageDraw

Box = tuple[int, int, int, int]
RGB = tuple[int, int, int]
Point = tuple[float, float]


class Step:
    """One drawing step: ``key`` says what it draws where (equal keys draw equal pixels),
    ``box`` the pixels it may change, ``args`` what :meth:`draw` needs."""

    __slots__ = ("kind", "key", "box", "args")

    def __init__(self, kind: str, key: Hashable, box: Box, args: tuple[Any, ...]) -> None:
        self.kind = kind
        self.key = key
        self.box = box
        self.args = args

    def draw(self, img: Image.Image, pen: ImageDraw.ImageDraw) -> None:
        if self.kind == "paste":
            im, box, mask = self.args
            img.paste(im, box, mask)
        elif self.kind == "line":
            xy, fill, width = self.args
            pen.line(xy, fill=fill, width=width)
        elif self.kind == "rectangle":
            xy, fill, outline = self.args
            pen.rectangle(xy, fill=fill, outline=outline)
        else:
            xy, radius, fill, outline = self.args
            pen.rounded_rectangle(xy, radius=radius, fill=fill, outline=outline)


def _points(xy: Sequence[Point] | Sequence[float]) -> tuple[Point, ...]:
    flat: list[float] = []
    for p in xy:
        if isinstance(p, (int, float)):
            flat.append(float(p))
        else:
            flat.extend(float(v) for v in p)
    return tuple(zip(flat[::2], flat[1::2]))


def _around(points: tuple[Point, ...], margin: float) -> Box:
    """The pixels within ``margin`` of the points' extent, generously rounded."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    m = math.ceil(margin) + 2
    return (math.floor(min(xs)) - m, math.floor(min(ys)) - m,
            math.ceil(max(xs)) + m + 1, math.ceil(max(ys)) + m + 1)


class Scene:
    """Drawing steps in order, for an image of ``size`` (see the module docstring)."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size
        self.steps: list[Step] = []
        self._seen: dict[Hashable, int] = {}

    def _add(self, kind: str, key: Hashable, box: Box, args: tuple[Any, ...]) -> None:
        """Record a step; the same step again gets a key of its own (the second time a
        sprite is pasted at a place), so that every key in a scene is unique."""
        n = self._seen.get(key, 0)
        self._seen[key] = n + 1
        self.steps.append(Step(kind, key if n == 0 else (key, n), box, args))

    # --- what the drawing code calls: Image.paste and ImageDraw's shapes ---

    def paste(self, im: Image.Image | RGB, box: tuple[int, int] | Box,
              mask: Image.Image | None = None) -> None:
        # an image by identity (the steps hold theirs, so an id is not reused while the
        # step lives; sprites and text masks are cached, so the same look is the same
        # object), a colour by value
        if isinstance(im, Image.Image):
            if len(box) == 2:
                w, h = im.size
                box = (box[0], box[1], box[0] + w, box[1] + h)
            key: Hashable = (id(im), box, id(mask))
        else:
            key = (im, box, id(mask))
        assert len(box) == 4
        self._add("paste", key, box, (im, box, mask))

    def line(self, xy: Sequence[Point], fill: RGB | None = None, width: int = 1) -> None:
        pts = _points(xy)
        self._add("line", ("line", pts, fill, width), _around(pts, width),
                  (list(pts), fill, width))

    def rectangle(self, xy: Sequence[Point], fill: RGB | None = None,
                  outline: RGB | None = None) -> None:
        pts = _points(xy)
        self._add("rectangle", ("rectangle", pts, fill, outline), _around(pts, 1),
                  (list(pts), fill, outline))

    def rounded_rectangle(self, xy: Sequence[Point], radius: float = 0,
                          fill: RGB | None = None, outline: RGB | None = None) -> None:
        pts = _points(xy)
        self._add("rounded", ("rounded", pts, radius, fill, outline), _around(pts, 1),
                  (list(pts), radius, fill, outline))

    # --- drawing the steps ---

    def draw_on(self, img: Image.Image, only: Sequence[Box] | None = None) -> None:
        """Every step onto ``img``; with ``only``, just the steps that touch one of those
        boxes (the pixels inside the boxes come out as drawing every step would make
        them, provided they held the background before)."""
        pen = ImageDraw.Draw(img)
        if only is None:
            for step in self.steps:
                step.draw(img, pen)
            return
        for step in self.steps:
            x0, y0, x1, y1 = step.box
            for b in only:
                if x0 < b[2] and b[0] < x1 and y0 < b[3] and b[1] < y1:
                    step.draw(img, pen)
                    break


def clip(box: Box, size: tuple[int, int]) -> Box | None:
    """``box`` inside an image of ``size``; None when nothing of it is."""
    x0, y0 = max(0, box[0]), max(0, box[1])
    x1, y1 = min(size[0], box[2]), min(size[1], box[3])
    return (x0, y0, x1, y1) if x0 < x1 and y0 < y1 else None


def changed_boxes(old: Sequence[Step], new: Sequence[Step],
                  size: tuple[int, int]) -> list[Box] | None:
    """The boxes (inside ``size``, merged where they overlap) outside of which the
    pictures of ``old`` and ``new`` over the same background are the same; None when
    the steps both have are not in the same order (draw everything again)."""
    old_keys = {s.key: s for s in old}
    new_keys = {s.key: s for s in new}
    gone = old_keys.keys() - new_keys.keys()
    come = new_keys.keys() - old_keys.keys()
    if [s.key for s in old if s.key in new_keys] != [s.key for s in new if s.key in old_keys]:
        return None
    boxes = [old_keys[k].box for k in gone] + [new_keys[k].box for k in come]
    return merge([c for c in (clip(b, size) for b in boxes) if c is not None])


#: Boxes closer than this (pixels) are drawn as one: fewer calls for a few more pixels.
MERGE_GAP = 4


def merge(boxes: list[Box], gap: int = MERGE_GAP) -> list[Box]:
    """Boxes that overlap or nearly touch joined into their common bounding box, until
    none do."""
    out = list(boxes)
    merged = True
    while merged:
        merged = False
        out.sort()
        result: list[Box] = []
        for b in out:
            for i, r in enumerate(result):
                if b[0] <= r[2] + gap and r[0] <= b[2] + gap and \
                        b[1] <= r[3] + gap and r[1] <= b[3] + gap:
                    result[i] = (min(r[0], b[0]), min(r[1], b[1]),
                                 max(r[2], b[2]), max(r[3], b[3]))
                    merged = True
                    break
            else:
                result.append(b)
        out = result
    return out


#: What the drawing code draws on: an image, or a scene that records the drawing.
Canvas = Image.Image | Scene
