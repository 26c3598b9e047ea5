"""Which part of the map an image shows, and where the panel goes.

Discord shows an attached image at most about 550 px wide (:data:`DISPLAY_W`), and a phone
shows it at the width of the screen. So a board image shows only the land (the placed
tiles and one ring of sea around them) rather than the whole 13 x 12 board, and its panel
sits *below* the map at the map's width instead of beside it.

The panel is designed once, in units of a 550 px wide display (:data:`DESIGN_W`), and
drawn at ``scale = image width / 550``: every text in it is at least
:data:`MIN_DESIGN_TEXT` design units, hence at least 9 px high when Discord shows the
image 550 px wide, whatever the width of the map. The map keeps one scale
(:data:`render.geometry.R`); its hex labels are sized so that even the whole board
(the widest image) meets the same bound (see :func:`label_px_at`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from engine.hexgrid import NEIGHBOURS, NUM_HEXES

from .geometry import BOARD_H, BOARD_W, HEX_W, R, hex_centre, piece_centre

#: Width in pixels at which Discord displays a large image in a channel.
DISPLAY_W = 550
#: The panel's design width (its units are display pixels at 550 px).
DESIGN_W = 550
#: Smallest text in the panel, in design units (>= 9 px once displayed 550 px wide).
MIN_DESIGN_TEXT = 10
#: Height of the panel in design units (fixed, so a game's images keep one size).
PANEL_DESIGN_H = 326
#: Narrowest board image: the panel needs some room, and Discord never enlarges a
#: smaller image, so 550 px is also where the "9 px at 550" measure stays honest.
MIN_W = 600
#: Space kept around the shown hexes (pixels).
PAD = 8


@dataclass(frozen=True)
class Layout:
    """An image: the map part ``[x0, x0 + width) x [y0, y0 + map_h)`` of the whole map
    (in whole-map pixels) at the top, and ``panel_h`` pixels of panel below it."""

    x0: int
    y0: int
    width: int
    map_h: int
    panel_h: int

    @property
    def size(self) -> tuple[int, int]:
        return self.width, self.map_h + self.panel_h

    @property
    def box(self) -> tuple[int, int, int, int]:
        """The shown part of the whole map, as a crop box."""
        return self.x0, self.y0, self.x0 + self.width, self.y0 + self.map_h

    @property
    def scale(self) -> float:
        """Image pixels per panel design unit."""
        return self.width / DESIGN_W

    @property
    def shift(self) -> tuple[float, float]:
        """Add to whole-map pixel positions to get image positions."""
        return -self.x0, -self.y0

    def at(self, xy: tuple[float, float]) -> tuple[float, float]:
        return xy[0] - self.x0, xy[1] - self.y0

    def hex_centre(self, h: int) -> tuple[float, float]:
        return self.at(hex_centre(h))

    def piece_centre(self, h: int) -> tuple[float, float]:
        return self.at(piece_centre(h))

    def shows(self, h: int) -> bool:
        """Is the centre of hex ``h`` inside the image's map part?"""
        x, y = self.hex_centre(h)
        return 0 <= x < self.width and 0 <= y < self.map_h


def land_region(terrain: Iterable[str | None]) -> frozenset[int]:
    """The land hexes and the ring of hexes around them."""
    land = [h for h, t in enumerate(terrain) if t is not None]
    return frozenset(land).union(*(NEIGHBOURS[h] for h in land)) if land else frozenset()


Extent = tuple[float, float, float, float]


def _extent(hexes: Iterable[int]) -> Extent | None:
    """The pixel extent of the hexes, or None for no hex."""
    xs, ys = [], []
    for h in hexes:
        x, y = hex_centre(h)
        xs.append(x)
        ys.append(y)
    if not xs:
        return None
    return min(xs) - HEX_W / 2, min(ys) - R, max(xs) + HEX_W / 2, max(ys) + R


@lru_cache(maxsize=256)
def _land_extent(terrain: tuple[str | None, ...]) -> Extent | None:
    return _extent(land_region(terrain))


def _union(a: Extent | None, b: Extent | None) -> Extent | None:
    if a is None or b is None:
        return a or b
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


def _box(extent: Extent, min_w: int) -> tuple[int, int, int, int]:
    """Pixel box around ``extent`` (plus :data:`PAD`), at least ``min_w`` wide where the
    map allows, within the whole map."""
    x0 = max(0, int(extent[0]) - PAD)
    y0 = max(0, int(extent[1]) - PAD)
    x1 = min(BOARD_W, int(extent[2]) + 1 + PAD)
    y1 = min(BOARD_H, int(extent[3]) + 1 + PAD)
    if x1 - x0 < min_w:  # widen around the middle, then slide back inside the map
        grow = min(min_w, BOARD_W) - (x1 - x0)
        x0 -= grow // 2
        x1 += grow - grow // 2
        if x0 < 0:
            x1, x0 = x1 - x0, 0
        if x1 > BOARD_W:
            x0, x1 = x0 - (x1 - BOARD_W), BOARD_W
    return x0, y0, x1, y1


def panel_height(width: int) -> int:
    return round(PANEL_DESIGN_H * width / DESIGN_W)


def board_layout(terrain: Iterable[str | None], extra: Iterable[int] = (),
                 full: bool = False) -> Layout:
    """The layout of a board image: the land and its ring of sea, plus the ``extra``
    hexes (highlights, the last move) if they lie outside; the whole map when ``full``
    or when no land has been placed yet."""
    land = None if full else _land_extent(tuple(terrain))
    if land is None:
        x0, y0, x1, y1 = 0, 0, BOARD_W, BOARD_H
    else:
        extent = _union(land, _extent(extra))
        assert extent is not None
        x0, y0, x1, y1 = _box(extent, MIN_W)
    return Layout(x0, y0, x1 - x0, y1 - y0, panel_height(x1 - x0))


def crop_layout(hexes: Iterable[int]) -> Layout:
    """A map-only image around ``hexes`` and their neighbours (no panel)."""
    hexes = [h for h in hexes if 0 <= h < NUM_HEXES]
    if not hexes:
        raise ValueError("a crop needs at least one hex")
    extent = _extent(frozenset(hexes).union(*(NEIGHBOURS[h] for h in hexes)))
    assert extent is not None
    x0, y0, x1, y1 = _box(extent, 0)
    return Layout(x0, y0, x1 - x0, y1 - y0, 0)


def label_px_at(font_px: float, width: int) -> float:
    """How tall text of ``font_px`` pixels looks when the image is shown
    :data:`DISPLAY_W` wide (Discord never enlarges a narrower image)."""
    return font_px * min(1.0, DISPLAY_W / width)
