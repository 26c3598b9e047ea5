"""Hex geometry of the 13 x 12 board: labels, axial coordinates, neighbours.

Hexes are plain ints ``row * columns + col`` everywhere in the engine (fast to copy and
to index lists with). Labels like ``C4`` (column letter, row number from 1) are only for
people. The layout is pointy-top "odd-r": odd rows (0-based) sit half a hex to the right.
"""

from __future__ import annotations

import re

from .content import CONTENT

COLUMNS = CONTENT.columns
ROWS = CONTENT.rows
NUM_HEXES = COLUMNS * ROWS

#: Axial direction vectors in ring order E, SE, SW, W, NW, NE (clockwise from east).
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
DIRECTION_NAMES = ("E", "SE", "SW", "W", "NW", "NE")

_LABEL_RE = re.compile(r"^\s*([A-Za-z])\s*0*(\d{1,2})\s*$")


def col_row(h: int) -> tuple[int, int]:
    return h % COLUMNS, h // COLUMNS


def hex_at(col: int, row: int) -> int | None:
    """The hex at an offset position, or None off the board."""
    if 0 <= col < COLUMNS and 0 <= row < ROWS:
        return row * COLUMNS + col
    return None


def to_axial(h: int) -> tuple[int, int]:
    col, row = col_row(h)
    return col - (row - (row & 1)) // 2, row


def from_axial(q: int, r: int) -> int | None:
    return hex_at(q + (r - (r & 1)) // 2, r)


def label(h: int) -> str:
    col, row = col_row(h)
    return f"{chr(ord('A') + col)}{row + 1}"


def parse_label(text: str) -> int:
    """``"c04"`` -> hex int. Raises ValueError with a readable message."""
    m = _LABEL_RE.match(text or "")
    if not m:
        raise ValueError(f"{text!r} is not a hex label: use a column letter and a row, like C4")
    col = ord(m.group(1).upper()) - ord("A")
    row = int(m.group(2)) - 1
    h = hex_at(col, row)
    if h is None:
        last = chr(ord("A") + COLUMNS - 1)
        raise ValueError(f"{text!r} is off the board: columns run A-{last}, rows 1-{ROWS}")
    return h


def _neighbour(h: int, direction: int) -> int | None:
    q, r = to_axial(h)
    dq, dr = DIRECTIONS[direction]
    return from_axial(q + dq, r + dr)


#: NEIGHBOUR_IN[h][d] = the neighbour of h in direction d (E, SE, SW, W, NW, NE) or None.
NEIGHBOUR_IN: tuple[tuple[int | None, ...], ...] = tuple(
    tuple(_neighbour(h, d) for d in range(6)) for h in range(NUM_HEXES)
)


def neighbour(h: int, direction: int) -> int | None:
    return NEIGHBOUR_IN[h][direction]


def _build_neighbours() -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(n for n in NEIGHBOUR_IN[h] if n is not None) for h in range(NUM_HEXES))


#: NEIGHBOURS[h] = the in-board neighbours of hex h.
NEIGHBOURS: tuple[tuple[int, ...], ...] = _build_neighbours()
#: Hexes on the board edge (fewer than 6 neighbours on the board).
EDGE: frozenset[int] = frozenset(h for h in range(NUM_HEXES) if len(NEIGHBOURS[h]) < 6)


def adjacent(a: int, b: int) -> bool:
    return b in NEIGHBOURS[a]


def tile_hexes(centre: int, rotation: int) -> list[tuple[int, int]] | None:
    """``[(hex, ring_index or -1 for the centre), ...]`` for a tile, or None if it sticks out.

    Ring entry ``i`` (E, SE, ... NE) lands in direction ``(i + rotation) % 6``.
    """
    around = NEIGHBOUR_IN[centre]
    out = [(centre, -1)]
    for i in range(6):
        n = around[(i + rotation) % 6]
        if n is None:
            return None
        out.append((n, i))
    return out


def distance(a: int, b: int) -> int:
    aq, ar = to_axial(a)
    bq, br = to_axial(b)
    return (abs(aq - bq) + abs(ar - br) + abs((aq + ar) - (bq + br))) // 2
