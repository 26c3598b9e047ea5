"""Overlays on the board: highlighted hexes, the last move, an attack.

``last_move`` (see :func:`render.board.render_board`) is one of
``(hex,)`` a single hex that changed (growth, a city, a placement): a ring;
``(src, dst)`` a move: a white arrow;
``(src, dst, ATTACK)`` an attack: a red arrow with crossed swords.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from engine.hexgrid import NUM_HEXES

from . import palette as P
from .geometry import R, hex_centre, piece_centre
from .sprites import TOKEN_R, hex_ring, spot_ring, swords

ATTACK = 1
SS = 4


def _check_hex(h: int) -> int:
    if not isinstance(h, int) or not 0 <= h < NUM_HEXES:
        raise ValueError(f"not a hex id: {h!r}")
    return h


def draw_highlights(base: Image.Image, hexes: tuple[int, ...]) -> None:
    ring = hex_ring()
    for h in sorted(set(hexes)):
        ring.paste_on(base, *hex_centre(_check_hex(h)))


def draw_last_move(base: Image.Image, last_move: tuple[int, ...],
                   occupied: frozenset[int] = frozenset()) -> None:
    """Draw ``last_move`` in one of the three forms in the module docstring; arrows stop
    short of the pieces on ``occupied`` hexes."""
    if len(last_move) == 1:
        spot_ring().paste_on(base, *piece_centre(_check_hex(last_move[0])))
    elif len(last_move) == 2:
        draw_arrow(base, _check_hex(last_move[0]), _check_hex(last_move[1]), False, occupied)
    elif len(last_move) == 3 and last_move[2] == ATTACK:
        draw_arrow(base, _check_hex(last_move[0]), _check_hex(last_move[1]), True, occupied)
    else:
        raise ValueError(f"last_move must be (hex,), (src, dst) or (src, dst, ATTACK), "
                         f"not {last_move!r}")


def draw_arrow(base: Image.Image, src: int, dst: int, attack: bool,
               occupied: frozenset[int] | None = None) -> None:
    """An arrow from ``src`` towards ``dst``, clear of the pieces on ``occupied`` hexes
    (``None``: assume both ends hold pieces)."""
    if src == dst:
        spot_ring().paste_on(base, *piece_centre(src))
        return
    (x0, y0), (x1, y1) = piece_centre(src), piece_centre(dst)
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    # from the edge of the source piece to the edge of the target piece
    start = TOKEN_R + 1 if occupied is None or src in occupied else 0.3 * R
    end = length - (TOKEN_R + 3 if occupied is None or dst in occupied else 0.3 * R)
    if end - start < 24:
        start = max(0.0, end - 24)
    ax, ay = x0 + ux * start, y0 + uy * start
    bx, by = x0 + ux * end, y0 + uy * end
    shaft, head_w, head_l = 4.0, 11.0, 14.0
    nx, ny = -uy, ux
    hx, hy = bx - ux * head_l, by - uy * head_l
    poly = [
        (ax + nx * shaft, ay + ny * shaft), (hx + nx * shaft, hy + ny * shaft),
        (hx + nx * head_w, hy + ny * head_w), (bx, by),
        (hx - nx * head_w, hy - ny * head_w), (hx - nx * shaft, hy - ny * shaft),
        (ax - nx * shaft, ay - ny * shaft),
    ]
    pad = 16
    left = math.floor(min(p[0] for p in poly)) - pad
    top = math.floor(min(p[1] for p in poly)) - pad
    right = math.ceil(max(p[0] for p in poly)) + pad
    bottom = math.ceil(max(p[1] for p in poly)) + pad
    img = Image.new("RGBA", ((right - left) * SS, (bottom - top) * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    pts = [((x - left) * SS, (y - top) * SS) for x, y in poly]
    fill = P.ATTACK if attack else P.HIGHLIGHT
    d.polygon(pts, fill=fill + (255,), outline=P.OUTLINE + (255,), width=round(1.8 * SS))
    small = img.reduce(SS)
    base.paste(small, (left, top), small)
    if attack:  # the target gets a red outline and crossed swords, not colour alone
        cx, cy = hex_centre(dst)
        hex_ring(P.ATTACK).paste_on(base, cx, cy)
        swords().paste_on(base, cx + 0.69 * R, cy - 0.4 * R)
