"""Terrain patterns: one small picture per terrain, drawn inside a hex.

Each terrain has a fill colour *and* a motif (trees, peaks, humps, tufts, furrowed
fields, waves, ripples) so the map stays readable in greyscale and for colour-blind
players. Motifs are drawn once per terrain at the supersampled scale into an RGBA sprite
clipped to the hex, then pasted onto every hex of that terrain.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, Protocol

from PIL import Image, ImageChops, ImageDraw

from . import palette as P
from .geometry import corner_offsets

#: Terrain keys: the engine's land letters plus the two kinds of water.
OPEN_SEA = "sea"
LAKE = "lake"

#: Where motifs sit, in units of the hex radius, clear of the label at the top.
_SPOTS = ((-0.5, -0.3), (0.5, -0.3), (-0.64, 0.16), (0.64, 0.16),
          (-0.3, 0.6), (0.3, 0.6), (0.0, 0.14))



class Draw(Protocol):
    """What a motif draws with: ``ImageDraw``'s shapes (the picture) or
    :class:`render.svg.SvgPen` (the same pattern in vectors)."""

    def polygon(self, xy: Sequence[Any], fill: Any = None, outline: Any = None,
                width: int = 1) -> None: ...

    def rectangle(self, xy: Sequence[Any], fill: Any = None, outline: Any = None,
                  width: int = 1) -> None: ...

    def line(self, xy: Sequence[Any], fill: Any = None, width: int = 1,
             joint: Any = None) -> None: ...

    def ellipse(self, xy: Sequence[Any], fill: Any = None, outline: Any = None,
                width: int = 1) -> None: ...

    def arc(self, xy: Sequence[Any], start: float, end: float, fill: Any = None,
            width: int = 1) -> None: ...

Motif = Callable[[Draw, float, float, float], None]


def fill_of(terrain: str) -> P.RGB:
    if terrain == OPEN_SEA:
        return P.SEA
    if terrain == LAKE:
        return P.LAKE
    return P.TERRAIN_FILL[terrain]


def _tree(d: Draw, x: float, y: float, r: float) -> None:
    ink = P.TERRAIN_INK["W"]
    s = 0.2 * r
    d.rectangle([x - 0.12 * s, y + 0.55 * s, x + 0.12 * s, y + 1.0 * s], fill=(70, 50, 30))
    d.polygon([(x, y - 1.0 * s), (x - 0.6 * s, y + 0.05 * s), (x + 0.6 * s, y + 0.05 * s)],
              fill=ink)
    d.polygon([(x, y - 0.5 * s), (x - 0.8 * s, y + 0.65 * s), (x + 0.8 * s, y + 0.65 * s)],
              fill=ink)


def _peak(d: Draw, x: float, y: float, r: float) -> None:
    s = 0.24 * r
    ink = P.TERRAIN_INK["M"]
    top = (x, y - 0.85 * s)
    left = (x - 0.95 * s, y + 0.6 * s)
    right = (x + 0.95 * s, y + 0.6 * s)
    d.polygon([top, left, right], fill=(130, 124, 118), outline=ink, width=max(1, int(0.03 * r)))
    # snow cap and shaded flank
    d.polygon([top, (x - 0.33 * s, y - 0.33 * s), (x, y - 0.2 * s), (x + 0.33 * s, y - 0.33 * s)],
              fill=(250, 250, 250))
    d.polygon([top, (x + 0.33 * s, y - 0.33 * s), right, (x + 0.2 * s, y + 0.6 * s)],
              fill=(104, 98, 92))


def _hump(d: Draw, x: float, y: float, r: float) -> None:
    s = 0.17 * r
    w = max(1, int(0.05 * r))
    ink = P.TERRAIN_INK["H"]
    d.arc([x - 1.2 * s, y - 0.6 * s, x + 0.2 * s, y + 0.8 * s], 180, 360, fill=ink, width=w)
    d.arc([x - 0.2 * s, y - 0.3 * s, x + 1.2 * s, y + 1.1 * s], 180, 360, fill=ink, width=w)


def _tuft(d: Draw, x: float, y: float, r: float) -> None:
    s = 0.17 * r
    w = max(1, int(0.045 * r))
    ink = P.TERRAIN_INK["G"]
    for ang, length in ((-125, 0.75), (-90, 1.0), (-55, 0.75)):
        a = math.radians(ang)
        d.line([(x, y + 0.4 * s), (x + length * s * math.cos(a), y + 0.4 * s + length * s *
                                    math.sin(a))], fill=ink, width=w)


def _wave(d: Draw, x: float, y: float, r: float) -> None:
    s = 0.13 * r
    w = max(1, int(0.045 * r))
    ink = P.SEA_INK
    d.arc([x - 2 * s, y - s, x, y + s], 190, 350, fill=ink, width=w)
    d.arc([x - 0.1 * s, y - s, x + 1.9 * s, y + s], 10, 170, fill=ink, width=w)


_MOTIFS: dict[str, Motif] = {"W": _tree, "M": _peak, "H": _hump, "G": _tuft, OPEN_SEA: _wave}
_SPOT_SETS: dict[str, tuple[tuple[float, float], ...]] = {
    "M": ((-0.46, -0.22), (0.46, -0.22), (-0.55, 0.38), (0.55, 0.38), (0.0, 0.7), (0.0, 0.12)),
    OPEN_SEA: ((-0.45, -0.25), (0.45, -0.25), (-0.55, 0.25), (0.5, 0.25), (0.0, 0.05),
               (-0.2, 0.62), (0.3, 0.62)),
}


#: farmland's furrows: their spacing and width, in units of the hex radius
FURROW_GAP = 0.17
FURROW_W = 0.045


def furrow_fields(c: float, r: float) -> list[tuple[list[tuple[float, float]], float]]:
    """Farmland's three fields in a hex of radius ``r`` centred on (c, c): each field's
    outline and the direction (radians) its furrows run in."""
    corners = [(c + x, c + y) for x, y in corner_offsets(r)]
    return [([(c, c), corners[2 * k], corners[(2 * k + 1) % 6], corners[(2 * k + 2) % 6]],
             math.radians(30 + 60 * k)) for k in range(3)]


def _furrows(img: Image.Image, r: float) -> None:
    """Farmland: the hex cut into three fields, each ploughed in its own direction."""
    size = img.size[0]
    c = size / 2
    w = max(1, int(FURROW_W * r))
    gap = FURROW_GAP * r
    fields = furrow_fields(c, r)
    for field, ang in fields:
        stripes = Image.new("RGBA", img.size, (0, 0, 0, 0))
        sd = ImageDraw.Draw(stripes)
        dx, dy = math.cos(ang), math.sin(ang)
        nx, ny = -dy, dx
        n = int(size / gap) + 2
        for i in range(-n, n + 1):
            ox, oy = c + nx * gap * i, c + ny * gap * i
            sd.line([(ox - dx * size, oy - dy * size), (ox + dx * size, oy + dy * size)],
                    fill=P.TERRAIN_INK["F"] + (255,), width=w)
        mask = Image.new("L", img.size, 0)
        ImageDraw.Draw(mask).polygon(field, fill=255)
        mask = ImageChops.multiply(mask, stripes.getchannel("A"))
        img.paste(stripes, (0, 0), mask)
    d = ImageDraw.Draw(img)
    for field, _ in fields:  # field boundaries
        d.line([(c, c), field[1]], fill=P.TERRAIN_INK["F"] + (255,), width=w)


def ripples(d: Draw, c: float, r: float) -> None:
    """Lake: calm concentric ripples (open sea has waves instead), in a hex of radius
    ``r`` centred on (c, c)."""
    w = max(1, int(0.04 * r))
    for cx, cy, k in ((c - 0.38 * r, c - 0.15 * r, 0.9), (c + 0.36 * r, c + 0.3 * r, 1.0)):
        for ring in (0.1, 0.2, 0.3):
            rr = ring * r * k
            d.ellipse([cx - rr * 1.6, cy - rr * 0.7, cx + rr * 1.6, cy + rr * 0.7],
                      outline=P.LAKE_INK + (255,), width=w)


def motifs(d: Draw, terrain: str, half: float, radius: float) -> None:
    """The motifs of ``terrain`` (not farmland's furrows nor a lake's ripples) in a hex of
    circumradius ``radius`` centred on (half, half)."""
    motif = _MOTIFS[terrain]
    for sx, sy in _SPOT_SETS.get(terrain, _SPOTS):
        motif(d, half + sx * radius, half + sy * radius, radius)


@lru_cache(maxsize=32)
def motif_sprite(terrain: str, radius: float, mirrored: bool = False) -> Image.Image:
    """An RGBA picture of ``terrain``'s motif for a hex of circumradius ``radius`` px,
    transparent outside the hex, centred in a square of side ``2 * ceil(radius)``."""
    half = math.ceil(radius)
    size = 2 * half
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    if terrain == "F":
        _furrows(img, radius)
    elif terrain == LAKE:
        ripples(ImageDraw.Draw(img), img.size[0] / 2, radius)
    else:
        motifs(ImageDraw.Draw(img), terrain, half, radius)
    if mirrored:
        img = img.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    mask = Image.new("L", img.size, 0)
    ImageDraw.Draw(mask).polygon(
        [(half + x, half + y) for x, y in corner_offsets(radius * 0.96)], fill=255)
    img.putalpha(ImageChops.multiply(img.getchannel("A"), mask))
    return img
