"""Overlays on the board: highlighted hexes, the last move, an attack.

``last_move`` (see :func:`render.board.render_board`) is one of
``(hex,)`` a single hex that changed (growth, a city, a placement): a ring;
``(src, dst)`` a move: a white arrow;
``(src, dst, ATTACK)`` an attack: a red arrow with crossed swords.

Rings are drawn under the pieces and arrows over them; the owners' letters go on last
(see :func:`render.board.board_image`). Every function takes ``shift``: what to add to
whole-map positions for the image at hand (which may show only part of the map).
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.hexgrid import NUM_HEXES

from . import palette as P
from .geometry import K, R, hex_centre, piece_centre
from .scene import Canvas
from .sprites import TOKEN_R, Sprite, hex_ring, spot_ring, swords

ATTACK = 1
SS = 4


def _check_hex(h: int) -> int:
    if not isinstance(h, int) or not 0 <= h < NUM_HEXES:
        raise ValueError(f"not a hex id: {h!r}")
    return h


Shift = tuple[float, float]
Box = tuple[float, float, float, float]
NO_SHIFT: Shift = (0.0, 0.0)


def _at(xy: tuple[float, float], shift: Shift) -> tuple[float, float]:
    return xy[0] + shift[0], xy[1] + shift[1]


def check_last_move(last_move: tuple[int, ...] | None) -> tuple[int, ...]:
    """The hexes of ``last_move`` (one of the three forms above); ValueError otherwise."""
    if last_move is None:
        return ()
    if len(last_move) in (1, 2) or (len(last_move) == 3 and last_move[2] == ATTACK):
        return tuple(_check_hex(h) for h in last_move[:2])
    raise ValueError(f"last_move must be (hex,), (src, dst) or (src, dst, ATTACK), "
                     f"not {last_move!r}")


def draw_highlights(base: Canvas, hexes: tuple[int, ...], shift: Shift = NO_SHIFT,
                    colour: P.RGB = P.HIGHLIGHT) -> None:
    ring = hex_ring(colour)
    for h in sorted(set(hexes)):
        ring.paste_on(base, *_at(hex_centre(_check_hex(h)), shift))


def draw_spot(base: Canvas, h: int, shift: Shift = NO_SHIFT) -> None:
    """A ring around the piece place of ``h`` (a single hex that changed; the hexes a
    crop is about)."""
    spot_ring().paste_on(base, *_at(piece_centre(_check_hex(h)), shift))


def draw_attack_target(base: Canvas, dst: int, shift: Shift = NO_SHIFT) -> None:
    """The target of an attack: a red outline (under the pieces)."""
    hex_ring(P.ATTACK).paste_on(base, *_at(hex_centre(dst), shift))


def _sprite_box(sp: Sprite, x: float, y: float) -> Box:
    ax, ay = sp.anchor
    w, h = sp.image.size
    return round(x) - ax, round(y) - ay, round(x) - ax + w, round(y) - ay + h


def draw_swords(base: Canvas, dst: int, shift: Shift = NO_SHIFT) -> Box:
    """Crossed swords at the right corner of an attacked hex: not colour alone.
    Returns the pixel box drawn on."""
    x, y = _at(swords_centre(dst), shift)
    sp = swords()
    sp.paste_on(base, x, y)
    return _sprite_box(sp, x, y)


def swords_centre(dst: int) -> tuple[float, float]:
    """Where the crossed swords of an attack on ``dst`` go: the hex's right corner."""
    cx, cy = hex_centre(dst)
    return cx + 0.69 * R, cy - 0.4 * R


def draw_arrow(base: Canvas, src: int, dst: int, attack: bool,
               occupied: frozenset[int] | None = None, shift: Shift = NO_SHIFT) -> Box:
    """An arrow from ``src`` towards ``dst``, clear of the pieces on ``occupied`` hexes
    (``None``: assume both ends hold pieces). Returns the pixel box drawn on."""
    if src == dst:
        sp = spot_ring()
        x, y = _at(piece_centre(src), shift)
        sp.paste_on(base, x, y)
        return _sprite_box(sp, x, y)
    ends = (occupied is None or src in occupied, occupied is None or dst in occupied)
    img, left, top = _arrow(src, dst, attack, *ends)
    x, y = round(left + shift[0]), round(top + shift[1])
    base.paste(img, (x, y), img)
    return x, y, x + img.size[0], y + img.size[1]


@lru_cache(maxsize=512)
def _arrow(src: int, dst: int, attack: bool, src_piece: bool,
           dst_piece: bool) -> tuple[Image.Image, int, int]:
    """The arrow's RGBA image and its top left corner in whole-map pixels (cached: the
    same move is drawn on every board until the next one)."""
    poly = arrow_polygon(src, dst, src_piece, dst_piece)
    pad = 4
    left = math.floor(min(p[0] for p in poly)) - pad
    top = math.floor(min(p[1] for p in poly)) - pad
    right = math.ceil(max(p[0] for p in poly)) + pad
    bottom = math.ceil(max(p[1] for p in poly)) + pad
    img = Image.new("RGBA", ((right - left) * SS, (bottom - top) * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    pts = [((x - left) * SS, (y - top) * SS) for x, y in poly]
    fill = P.ATTACK if attack else P.HIGHLIGHT
    d.polygon(pts, fill=fill + (255,), outline=P.OUTLINE + (255,), width=round(ARROW_EDGE * SS))
    return img.reduce(SS), left, top


#: the width of an arrow's dark edge (pixels)
ARROW_EDGE = 1.8


def arrow_polygon(src: int, dst: int, src_piece: bool, dst_piece: bool
                  ) -> list[tuple[float, float]]:
    """The outline of the arrow from ``src`` towards ``dst`` in whole-map pixels, from the
    edge of the source piece (``src_piece``: one stands there) to the edge of the target's
    (the board's picture and its vector drawing, render.svg, share it)."""
    (x0, y0), (x1, y1) = piece_centre(src), piece_centre(dst)
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    # from the edge of the source piece to the edge of the target piece
    start = TOKEN_R + 1 if src_piece else 0.3 * R
    end = length - (TOKEN_R + 3 if dst_piece else 0.3 * R)
    if end - start < 24:
        start = max(0.0, end - 24)
    ax, ay = x0 + ux * start, y0 + uy * start
    bx, by = x0 + ux * end, y0 + uy * end
    shaft, head_w, head_l = 4.0 * K, 11.0 * K, 14.0 * K
    nx, ny = -uy, ux
    hx, hy = bx - ux * head_l, by - uy * head_l
    return [
        (ax + nx * shaft, ay + ny * shaft), (hx + nx * shaft, hy + ny * shaft),
        (hx + nx * head_w, hy + ny * head_w), (bx, by),
        (hx - nx * head_w, hy - ny * head_w), (hx - nx * shaft, hy - ny * shaft),
        (ax - nx * shaft, ay - ny * shaft),
    ]
