"""The recap picture: the board now, with every change since a moment marked.

A recap ("What happened?") sums up the steps since a person's previous decision (or since
a round began, for a spectator). Its one picture is the current public board with:

* a white arrow for each token moved (``(Mark.MOVE, src, dst)``);
* a red arrow, the target outlined in red and crossed swords for each fight
  (``(Mark.FIGHT, src, dst)``);
* a ``+n`` disc for tokens grown on a hex (``(Mark.GROW, hex, n)``);
* a double ring around each new city (``(Mark.CITY, hex)``).

Marks are plain tuples of ints, so that the bot can hand them to a worker process. Like
:func:`render.board.render_board`, only public fields of the view are read; the marks
themselves are built by the bot from the public event log (``games/tempus/recap.py``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from enum import IntEnum
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.hexgrid import NUM_HEXES

from . import palette as P
from . import panel
from .board import _check_view, _draw_badges, _draw_pieces, occupied_hexes, palette
from .encode import to_png
from .geometry import TOKEN_R, K, R, hex_centre, piece_centre
from .layout import Layout, board_layout
from .overlays import Box, Shift, draw_arrow, draw_attack_target, draw_swords
from .sprites import SS, Sprite, _canvas, _finish, _text
from .terrain_layer import label_box, label_mask, terrain_layer
from .words import DEFAULT_LANG

__all__ = ["Mark", "Marks", "check_marks", "mark_hexes", "recap_image", "recap_layout_of",
           "render_recap", "grow_spot", "city_spot"]


class Mark(IntEnum):
    """What a mark shows (the first item of a mark tuple)."""

    MOVE = 0  # (MOVE, src, dst): a token moved (or was converted) from src to dst
    FIGHT = 1  # (FIGHT, src, dst): src attacked dst
    GROW = 2  # (GROW, hex, n): n tokens grew (or were placed) on hex
    CITY = 3  # (CITY, hex): a city was built on hex


Marks = tuple[tuple[int, ...], ...]

_SIZES = {Mark.MOVE: 3, Mark.FIGHT: 3, Mark.GROW: 3, Mark.CITY: 2}


def _hex(h: object) -> int:
    if not isinstance(h, int) or isinstance(h, bool) or not 0 <= h < NUM_HEXES:
        raise ValueError(f"not a hex id: {h!r}")
    return h


def check_marks(marks: Iterable[Iterable[int]]) -> Marks:
    """``marks`` as a tuple of checked mark tuples; ValueError for a malformed one."""
    out = []
    for m in marks:
        m = tuple(m)
        if not m:
            raise ValueError("an empty mark")
        try:
            kind = Mark(m[0])
        except ValueError:
            raise ValueError(f"unknown mark {m!r}") from None
        if len(m) != _SIZES[kind]:
            raise ValueError(f"a {kind.name} mark has {_SIZES[kind]} items, not {m!r}")
        if kind == Mark.GROW:
            _hex(m[1])
            if not isinstance(m[2], int) or m[2] < 1:
                raise ValueError(f"a GROW mark counts at least one token: {m!r}")
        else:
            for h in m[1:]:
                _hex(h)
        out.append((int(kind), *m[1:]))
    return tuple(out)


def mark_hexes(marks: Marks) -> tuple[int, ...]:
    """Every hex a mark touches, in order of first mention."""
    out: list[int] = []
    for m in marks:
        out += [m[1]] if m[0] in (Mark.GROW, Mark.CITY) else [m[1], m[2]]
    return tuple(dict.fromkeys(out))


def _with_combat(view: dict[str, Any], marks: Marks) -> Marks:
    """The marks plus the attack in progress, if any (the board always shows it)."""
    combat = view.get("combat")
    if not combat:
        return marks
    fight = (int(Mark.FIGHT), combat["src"], combat["dst"])
    return marks if fight in marks else (*marks, fight)


def recap_layout_of(view: dict[str, Any], marks: Iterable[Iterable[int]]) -> Layout:
    """Where :func:`recap_image` puts things (the land plus every marked hex)."""
    _check_view(view)
    checked = _with_combat(view, check_marks(marks))
    return board_layout(view["terrain"], mark_hexes(checked), view.get("phase") == "tiles")


# ------------------------------------------------------------------ the mark sprites
@lru_cache(maxsize=16)
def _plus(n: int) -> Sprite:
    """``+n`` in a white disc with a dark edge: tokens that grew (not colour alone)."""
    text = f"+{n}" if n > 1 else "+"
    r = 12.0 * K if len(text) < 2 else 13.5 * K
    half = math.ceil(r) + 2
    img, d = _canvas(2 * half, 2 * half)
    s = SS
    d.ellipse([(half - r) * s, (half - r) * s, (half + r) * s, (half + r) * s],
              fill=P.WHITE + (255,), outline=P.OUTLINE + (255,), width=round(1.8 * s))
    _text(d, (half * s, (half + 0.5) * s), text, (20 if n == 1 else 15) * K, P.OUTLINE)
    return _finish(img, (half, half))


@lru_cache(maxsize=2)
def _city_ring() -> Sprite:
    """Two rings around a new city's place: unlike the single ring of a last move."""
    r = TOKEN_R + 11 * K
    half = math.ceil(r) + 5
    img, d = _canvas(2 * half, 2 * half)
    s = SS
    for radius, width, colour in ((r, 8.0, P.OUTLINE), (r, 4.0, P.WHITE),
                                  (r - 6.5 * K, 2.0, P.OUTLINE)):
        d.ellipse([(half - radius) * s, (half - radius) * s, (half + radius) * s,
                   (half + radius) * s], outline=colour + (255,), width=round(width * s))
    return _finish(img, (half, half))


def grow_spot(h: int) -> tuple[float, float]:
    """Where the ``+n`` of hex ``h`` goes (whole-map pixels): its lower left, clear of the
    hex label above, the owner's letter and the stack-limit plate at the lower right."""
    x, y = hex_centre(h)
    return x - 0.6 * R, y + 0.38 * R


def city_spot(h: int) -> tuple[float, float]:
    """The centre of the ring around a new city on ``h`` (whole-map pixels)."""
    return piece_centre(h)


def _box(sp: Sprite, x: float, y: float) -> Box:
    ax, ay = sp.anchor
    w, h = sp.image.size
    return round(x) - ax, round(y) - ay, round(x) - ax + w, round(y) - ay + h


def _paste(img: Image.Image, sp: Sprite, xy: tuple[float, float], shift: Shift) -> Box:
    x, y = xy[0] + shift[0], xy[1] + shift[1]
    sp.paste_on(img, x, y)
    return _box(sp, x, y)


def _draw_marks(img: Image.Image, view: dict[str, Any], marks: Marks, shift: Shift,
                lang: str, clean: Image.Image) -> None:
    """Rings, outlines and arrows under the pieces (a long arrow never hides a stack it
    passes); swords and ``+n`` over them, where no piece stands; then the owners' letters
    and the hex labels again wherever something was drawn over them."""
    fights = [(m[1], m[2]) for m in marks if m[0] == Mark.FIGHT]
    moves = [(m[1], m[2]) for m in marks if m[0] == Mark.MOVE]
    grown: dict[int, int] = {}
    for m in marks:
        if m[0] == Mark.GROW:
            grown[m[1]] = grown.get(m[1], 0) + m[2]
    cities = list(dict.fromkeys(m[1] for m in marks if m[0] == Mark.CITY))
    areas: list[Box] = []
    for src, dst in dict.fromkeys(fights):
        if src != dst:
            draw_attack_target(img, dst, shift)
    for h in cities:
        areas.append(_paste(img, _city_ring(), city_spot(h), shift))
    occupied = occupied_hexes(view)
    for src, dst in dict.fromkeys(moves):
        areas.append(draw_arrow(img, src, dst, False, occupied, shift))
    for src, dst in dict.fromkeys(fights):
        areas.append(draw_arrow(img, src, dst, True, occupied, shift))
    _draw_pieces(img, view, shift, lang)
    for _, dst in dict.fromkeys(fights):
        areas.append(draw_swords(img, dst, shift))
    for h, n in grown.items():
        areas.append(_paste(img, _plus(n), grow_spot(h), shift))
    if areas:
        _draw_badges(img, view, shift, lang, areas)
        _draw_labels(img, clean, shift, areas)


def _draw_labels(img: Image.Image, clean: Image.Image, shift: Shift,
                 areas: list[Box]) -> None:
    """The labels (``C4``) of the hexes whose label a mark was drawn over, put back on
    top from the unmarked map ``clean``: a reader finds a hex the recap names by its
    label."""
    for h in range(NUM_HEXES):
        a0, b0, c0, d0 = label_box(h, shift)
        if not any(a < c0 and a0 < c and b < d0 and b0 < dd for a, b, c, dd in areas):
            continue
        box = (max(0, math.floor(a0)), max(0, math.floor(b0)),
               min(img.size[0], math.ceil(c0)), min(img.size[1], math.ceil(d0)))
        if box[0] >= box[2] or box[1] >= box[3]:
            continue
        mask = Image.new("L", (box[2] - box[0], box[3] - box[1]), 0)
        label_mask(ImageDraw.Draw(mask), h, (shift[0] - box[0], shift[1] - box[1]))
        img.paste(clean.crop(box), box[:2], mask)


def recap_image(view: dict[str, Any], marks: Iterable[Iterable[int]], *,
                lang: str = DEFAULT_LANG) -> Image.Image:
    """The recap picture as an RGB image (see :func:`render_recap`)."""
    _check_view(view)
    checked = _with_combat(view, check_marks(marks))
    lay = board_layout(view["terrain"], mark_hexes(checked), view.get("phase") == "tiles")
    layer = terrain_layer(tuple(view["terrain"]), palette(), view.get("phase") != "tiles")
    img = Image.new("RGB", lay.size)
    img.paste(layer.crop(lay.box).convert("RGB"), (0, 0))
    img.paste(panel.static_panel(lay.width, lang), (0, lay.map_h))
    _draw_marks(img, view, checked, lay.shift, lang, img.copy())
    panel.draw_dynamic(img, view, lay.map_h, lang)
    return img


def render_recap(view: dict[str, Any], marks: Iterable[Iterable[int]], *,
                 lang: str = DEFAULT_LANG) -> bytes:
    """PNG of the board of ``view`` (the public view now) with ``marks`` drawn over it
    (see the module docstring), the panel below, as :func:`render.board.render_board`
    draws it. Raises ValueError for a malformed mark or view."""
    return to_png(recap_image(view, marks, lang=lang), palette())
