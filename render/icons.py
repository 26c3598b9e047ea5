"""Small pictures for the nine card types, drawn with plain shapes (no image files).

Each function draws into a square box of side ``s`` at (x, y) with ink colour ``ink``.
They are drawn at a supersampled size by :func:`card_icon` and cached.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from . import palette as P

SS = 4
Draw = ImageDraw.ImageDraw
RGBA = tuple[int, int, int, int]


def _book(d: Draw, x: float, y: float, s: float, ink: RGBA, w: int) -> None:
    mid = x + s / 2
    d.polygon([(mid, y + 0.3 * s), (x + 0.06 * s, y + 0.2 * s), (x + 0.06 * s, y + 0.82 * s),
               (mid, y + 0.92 * s)], outline=ink, width=w)
    d.polygon([(mid, y + 0.3 * s), (x + 0.94 * s, y + 0.2 * s), (x + 0.94 * s, y + 0.82 * s),
               (mid, y + 0.92 * s)], outline=ink, width=w)
    for k in range(3):
        yy = y + (0.42 + 0.14 * k) * s
        d.line([(x + 0.18 * s, yy - 0.03 * s), (mid - 0.1 * s, yy)], fill=ink, width=w // 2)
        d.line([(mid + 0.1 * s, yy), (x + 0.82 * s, yy - 0.03 * s)], fill=ink, width=w // 2)


def _tower(d: Draw, x: float, y: float, s: float, ink: RGBA, w: int) -> None:
    left, right, top, bottom = x + 0.18 * s, x + 0.82 * s, y + 0.12 * s, y + 0.94 * s
    step = (right - left) / 5
    pts = [(left, bottom), (left, top)]
    for k in range(5):
        yy = top if k % 2 == 0 else top + 0.14 * s
        pts += [(left + k * step, yy), (left + (k + 1) * step, yy)]
    pts += [(right, top), (right, bottom)]
    d.polygon(pts, fill=ink)
    d.chord([x + 0.38 * s, y + 0.56 * s, x + 0.62 * s, y + 0.9 * s], 180, 360, fill=P.WHITE)
    d.rectangle([x + 0.38 * s, y + 0.72 * s, x + 0.62 * s, bottom], fill=P.WHITE)


def _cross(d: Draw, x: float, y: float, s: float, ink: RGBA, w: int) -> None:
    a, b = 0.36, 0.64
    d.rectangle([x + a * s, y + 0.1 * s, x + b * s, y + 0.9 * s], fill=ink)
    d.rectangle([x + 0.1 * s, y + a * s, x + 0.9 * s, y + b * s], fill=ink)


def _at(x: float, y: float, s: float, *unit: tuple[float, float]) -> list[tuple[float, float]]:
    """Points given in units of the box side, moved to the box at (x, y)."""
    return [(x + u * s, y + v * s) for u, v in unit]


def _crown(d: Draw, x: float, y: float, s: float, ink: RGBA, w: int) -> None:
    d.polygon(_at(x, y, s, (0.08, 0.3), (0.3, 0.55), (0.5, 0.18), (0.7, 0.55), (0.92, 0.3),
                  (0.84, 0.74), (0.16, 0.74)), fill=ink)
    d.rectangle([x + 0.16 * s, y + 0.8 * s, x + 0.84 * s, y + 0.9 * s], fill=ink)
    for px, py in ((0.08, 0.3), (0.5, 0.18), (0.92, 0.3)):
        r = 0.07 * s
        d.ellipse([x + px * s - r, y + py * s - r, x + px * s + r, y + py * s + r], fill=ink)


def _wheel(d: Draw, x: float, y: float, s: float, ink: RGBA, w: int) -> None:
    cx, cy, r = x + 0.5 * s, y + 0.5 * s, 0.4 * s
    d.ellipse([cx - r, cy - r, cx + r, cy + r], outline=ink, width=int(w * 1.4))
    for k in range(8):
        a = math.pi * k / 4
        d.line([(cx, cy), (cx + r * math.cos(a), cy + r * math.sin(a))], fill=ink, width=w)
    hub = 0.1 * s
    d.ellipse([cx - hub, cy - hub, cx + hub, cy + hub], fill=ink)


def _drop(d: Draw, x: float, y: float, s: float, ink: RGBA, w: int) -> None:
    cx, r = x + 0.5 * s, 0.28 * s
    cy = y + 0.64 * s
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=ink)
    d.polygon([(cx, y + 0.06 * s), (cx - r * 0.93, cy - r * 0.35), (cx + r * 0.93, cy - r * 0.35)],
              fill=ink)
    hl = 0.09 * s
    d.ellipse([cx - 0.13 * s - hl, cy - hl, cx - 0.13 * s + hl, cy + hl], fill=P.WHITE)


def _sword(d: Draw, x: float, y: float, s: float, ink: RGBA, w: int) -> None:
    # blade from lower left to upper right, guard across it
    d.line([(x + 0.28 * s, y + 0.72 * s), (x + 0.88 * s, y + 0.12 * s)], fill=ink,
           width=int(w * 1.8))
    d.polygon([(x + 0.88 * s, y + 0.12 * s), (x + 0.94 * s, y + 0.06 * s),
               (x + 0.92 * s, y + 0.16 * s)], fill=ink)
    d.line([(x + 0.16 * s, y + 0.5 * s), (x + 0.5 * s, y + 0.84 * s)], fill=ink, width=int(w * 1.5))
    d.line([(x + 0.3 * s, y + 0.7 * s), (x + 0.1 * s, y + 0.9 * s)], fill=ink, width=int(w * 1.8))


def _sun(d: Draw, x: float, y: float, s: float, ink: RGBA, w: int) -> None:
    cx, cy = x + 0.5 * s, y + 0.5 * s
    for k in range(12):
        a = math.pi * k / 6
        r0, r1 = 0.3 * s, (0.46 if k % 2 == 0 else 0.4) * s
        d.line([(cx + r0 * math.cos(a), cy + r0 * math.sin(a)),
                (cx + r1 * math.cos(a), cy + r1 * math.sin(a))], fill=ink, width=w)
    r = 0.22 * s
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=ink)


def _columns(d: Draw, x: float, y: float, s: float, ink: RGBA, w: int) -> None:
    d.polygon([(x + 0.5 * s, y + 0.08 * s), (x + 0.06 * s, y + 0.3 * s),
               (x + 0.94 * s, y + 0.3 * s)], fill=ink)
    d.rectangle([x + 0.1 * s, y + 0.82 * s, x + 0.9 * s, y + 0.92 * s], fill=ink)
    for k in range(4):
        cx = x + (0.2 + 0.2 * k) * s
        d.rectangle([cx - 0.05 * s, y + 0.36 * s, cx + 0.05 * s, y + 0.78 * s], fill=ink)


ICONS: dict[str, Callable[[Draw, float, float, float, RGBA, int], None]] = {
    "EDU": _book, "FOR": _tower, "HEA": _cross, "LEA": _crown, "TRA": _wheel,
    "SAN": _drop, "WEA": _sword, "REL": _sun, "GOV": _columns,
}


@lru_cache(maxsize=32)
def card_icon(kind: str, size: int, ink: P.RGB = P.PANEL_INK) -> Image.Image:
    """The icon of card type ``kind`` (``"WEA"``...) as an RGBA image ``size`` px square."""
    s = size * SS
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    draw = ICONS.get(kind)
    if draw is not None:
        draw(d, 0, 0, s, ink + (255,), max(1, round(s * 0.06)))
    return img.reduce(SS)
