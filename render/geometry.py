"""Pixel geometry of the whole map: where each hex, label and piece goes.

The board is 13 x 12 pointy-top hexes in the engine's "odd-r" layout (odd rows shifted
half a hex right, see :mod:`engine.hexgrid`). All functions take an optional ``scale`` so
the supersampled terrain layer and the final image share one set of formulas. Positions are
in whole-map pixels; an image that shows part of the map shifts them (:mod:`render.layout`).
"""

from __future__ import annotations

import math

from engine.hexgrid import COLUMNS, NUM_HEXES, ROWS, col_row

#: Hex circumradius (centre to corner) in final-image pixels.
R = 38.0
#: Size of the pieces and marks relative to the hexes they were first drawn for (R = 42).
K = R / 42.0
#: Radius of a token disc.
TOKEN_R = 0.43 * R
#: Hex width (flat side to flat side).
HEX_W = math.sqrt(3) * R
#: Space around the hexes inside the board frame.
MARGIN = 16

#: Size of the whole map (every hex of the board) in pixels; images show a part of it.
BOARD_W = math.ceil((COLUMNS + 0.5) * HEX_W + 2 * MARGIN)
BOARD_H = math.ceil((2 + (ROWS - 1) * 1.5) * R + 2 * MARGIN)

#: Corner angles of a pointy-top hex, starting at the top corner and going clockwise.
_CORNER_ANGLES = tuple(math.radians(-90 + 60 * k) for k in range(6))
#: Corner pairs bounding the edge towards each direction E, SE, SW, W, NW, NE.
EDGE_CORNERS = tuple(((1 + d) % 6, (2 + d) % 6) for d in range(6))


def hex_centre(h: int, scale: float = 1.0) -> tuple[float, float]:
    """Centre of hex ``h`` (engine hex id) in image pixels (times ``scale``)."""
    col, row = col_row(h)
    x = MARGIN + HEX_W / 2 + col * HEX_W + (row & 1) * HEX_W / 2
    y = MARGIN + R + row * 1.5 * R
    return x * scale, y * scale


def hex_corners(h: int, scale: float = 1.0, inset: float = 0.0) -> list[tuple[float, float]]:
    """The six corners of hex ``h``, clockwise from the top, pulled in by ``inset`` pixels."""
    cx, cy = hex_centre(h, scale)
    r = (R - inset) * scale
    return [(cx + r * math.cos(a), cy + r * math.sin(a)) for a in _CORNER_ANGLES]


def corner_offsets(radius: float) -> list[tuple[float, float]]:
    """Corners of a pointy-top hex of circumradius ``radius`` around (0, 0)."""
    return [(radius * math.cos(a), radius * math.sin(a)) for a in _CORNER_ANGLES]


def label_centre(h: int) -> tuple[float, float]:
    """Where the hex's label (``C4``) is printed: the upper part of the hex."""
    x, y = hex_centre(h)
    return x, y - 0.56 * R


def piece_centre(h: int) -> tuple[float, float]:
    """Where a token stack or city stands: just below the hex centre."""
    x, y = hex_centre(h)
    return x, y + 0.17 * R


def token_swatch(h: int) -> tuple[float, float]:
    """A point on the top token of a stack on ``h`` that shows the plain player colour
    (clear of the count and the letter badge): for pixel probes."""
    x, y = piece_centre(h)
    return x - 0.45 * TOKEN_R, y + 0.45 * TOKEN_R


def hex_at_pixel(x: float, y: float) -> int | None:
    """The hex containing pixel (x, y), or None outside the grid. The nearest centre
    decides, as hexes are exactly the cells nearest to their centres."""
    best, best_d = None, math.inf
    for h in range(NUM_HEXES):
        cx, cy = hex_centre(h)
        d = (cx - x) ** 2 + (cy - y) ** 2
        if d < best_d:
            best, best_d = h, d
    if best_d > R * R:
        return None
    return best
