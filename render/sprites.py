"""Pieces and markers as small antialiased RGBA sprites, drawn once and cached.

Sprites are drawn at :data:`SS` times their size and reduced, so a board only pastes
ready pictures: that keeps a full board render to a few milliseconds.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from . import palette as P
from .fonts import font
from .geometry import TOKEN_R, K, R, corner_offsets
from .scene import Canvas
from .terrain_art import fill_of, motif_sprite
from .words import colour_letter

SS = 4
#: Vertical step between the discs of a stack.
STACK_STEP = 2.5 * K


class Sprite:
    """An RGBA image and the offset of its anchor point inside it."""

    __slots__ = ("image", "anchor")

    def __init__(self, image: Image.Image, anchor: tuple[int, int]) -> None:
        self.image = image
        self.anchor = anchor

    def paste_on(self, base: Canvas, x: float, y: float) -> None:
        ax, ay = self.anchor
        base.paste(self.image, (round(x) - ax, round(y) - ay), self.image)


def _canvas(w: int, h: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    return img, ImageDraw.Draw(img)


def _finish(img: Image.Image, anchor: tuple[int, int]) -> Sprite:
    return Sprite(img.reduce(SS), anchor)


def _text(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: float,
          fill: P.RGB, bold: bool = True) -> None:
    d.text(xy, text, font=font(round(size * SS), bold), fill=fill + (255,), anchor="mm")


#: Where the owner's letter badge sits, from the centre of a token stack / a city.
TOKEN_BADGE = (-0.78 * TOKEN_R, -0.78 * TOKEN_R)
CITY_BADGE = (-18.0 * K, -17.0 * K)
BADGE_R = 8.0 * K


def _badge(d: ImageDraw.ImageDraw, x: float, y: float, letter: str) -> None:
    """The player's letter in a small dark disc (for colour-blind players)."""
    s, r = SS, BADGE_R
    d.ellipse([(x - r) * s, (y - r) * s, (x + r) * s, (y + r) * s], fill=P.OUTLINE + (255,),
              outline=P.WHITE + (255,), width=s)
    _text(d, (x * s, (y + 0.5) * s), letter, 11.5 * K, P.WHITE)


@lru_cache(maxsize=32)
def badge(seat: int, lang: str = "en") -> Sprite:
    """The owner's letter on a token stack or city, pasted after the piece; pasted again
    over anything later drawn across it (an arrow), so that nothing ever hides it."""
    half = math.ceil(BADGE_R) + 2
    img, d = _canvas(2 * half, 2 * half)
    _badge(d, half, half, colour_letter(seat, lang))
    return _finish(img, (half, half))


@lru_cache(maxsize=64)
def token(seat: int, count: int) -> Sprite:
    """A stack of ``count`` tokens of ``seat``: stacked discs and the count (the owner's
    letter is a :func:`badge` at :data:`TOKEN_BADGE`)."""
    colour = P.player_rgb(seat)
    shade = P.mix(colour, P.BLACK, 0.35)
    layers = min(max(count, 1), 4)
    pad = 9 * K
    w = math.ceil(2 * (TOKEN_R + pad))
    h = math.ceil(2 * (TOKEN_R + pad) + STACK_STEP * (layers - 1))
    img, d = _canvas(w, h)
    cx, cy = w / 2, TOKEN_R + pad
    s = SS
    for i in range(layers - 1, -1, -1):
        y = cy + i * STACK_STEP
        fill = colour if i == 0 else shade
        d.ellipse([(cx - TOKEN_R) * s, (y - TOKEN_R) * s, (cx + TOKEN_R) * s, (y + TOKEN_R) * s],
                  fill=fill + (255,), outline=P.OUTLINE + (255,), width=2 * s)
    ring = TOKEN_R - 3.5 * K
    d.ellipse([(cx - ring) * s, (cy - ring) * s, (cx + ring) * s, (cy + ring) * s],
              outline=P.mix(colour, P.WHITE, 0.45) + (255,), width=s)
    _text(d, (cx * s, (cy + 0.5) * s), str(count), (19 if count < 10 else 16) * K,
          P.ink_on(colour))
    return _finish(img, (round(cx), round(cy)))


#: a city's tower: its width, the height of its wall and of its merlons
CITY_SIZE = (34.0 * K, 24.0 * K, 6.0 * K)


def city_outline(cx: float, cy: float) -> list[tuple[float, float]]:
    """The crenellated outline of a city centred on (cx, cy) (its wall's middle)."""
    bw, bh, merlon = CITY_SIZE
    left, right = cx - bw / 2, cx + bw / 2
    top, bottom = cy - bh / 2, cy + bh / 2
    step = bw / 5
    outline: list[tuple[float, float]] = [(left, bottom), (left, top - merlon)]
    for k in range(5):
        x0, x1 = left + k * step, left + (k + 1) * step
        y = top - merlon if k % 2 == 0 else top
        outline += [(x0, y), (x1, y)]
    outline += [(right, top - merlon), (right, bottom)]
    return outline


@lru_cache(maxsize=64)
def city(seat: int, value: int) -> Sprite:
    """A city of ``seat``: a crenellated tower in the player's colour with its value (the
    owner's letter is a :func:`badge` at :data:`CITY_BADGE`)."""
    colour = P.player_rgb(seat)
    bw, bh, merlon = CITY_SIZE
    pad = 9 * K
    w = math.ceil(bw + 2 * pad)
    h = math.ceil(bh + merlon + 2 * pad)
    img, d = _canvas(w, h)
    cx, cy = w / 2, pad + merlon + bh / 2
    pts = [(x * SS, y * SS) for x, y in city_outline(cx, cy)]
    d.polygon(pts, fill=colour + (255,), outline=P.OUTLINE + (255,), width=2 * SS)
    _text(d, (cx * SS, (cy + 1) * SS), str(value), 19 * K, P.ink_on(colour))
    return _finish(img, (round(cx), round(cy)))


@lru_cache(maxsize=64)
def stack_bonus(bonus: int, scale: float = 1.0, seat: int = -1, lang: str = "en") -> Sprite:
    """Sanitation's raised stack limit (R-CARD-SAN): a small ``+1`` plate; with ``seat``
    (rules 2: the raise is only that player's) in the player's colour with their letter,
    ``R+1``."""
    text = f"+{bonus}" if seat < 0 else f"{colour_letter(seat, lang)}+{bonus}"
    fill = P.WHITE if seat < 0 else P.player_rgb(seat)
    w, h = math.ceil((26 if seat < 0 else 34) * scale), math.ceil(16 * scale)
    img, d = _canvas(w, h)
    s = SS
    d.rounded_rectangle([1 * s, 1 * s, (w - 1) * s, (h - 1) * s], radius=5 * scale * s,
                        fill=fill + (255,), outline=P.OUTLINE + (255,), width=s)
    _text(d, (w / 2 * s, (h / 2 + 0.5) * s), text, 10 * scale,
          P.OUTLINE if seat < 0 else P.ink_on(fill))
    return _finish(img, (w // 2, h // 2))


@lru_cache(maxsize=4)
def hex_ring(colour: P.RGB = P.HIGHLIGHT, inset: float = 4.0) -> Sprite:
    """Outline for a hex (white: legal targets; red: under attack) with dark edges."""
    radius = R - inset
    half = math.ceil(R) + 2
    img, d = _canvas(2 * half, 2 * half)
    pts = [((half + x) * SS, (half + y) * SS) for x, y in corner_offsets(radius)]
    pts.append(pts[0])
    for width, c in ((7.0, P.OUTLINE), (3.5, colour)):
        d.line(pts, fill=c + (255,), width=round(width * SS), joint="curve")
    return _finish(img, (half, half))


@lru_cache(maxsize=2)
def swords() -> Sprite:
    """Crossed swords in a white disc: marks an attack without relying on colour."""
    r = 10.5 * K
    half = math.ceil(r) + 2
    img, d = _canvas(2 * half, 2 * half)
    s = SS
    d.ellipse([(half - r) * s, (half - r) * s, (half + r) * s, (half + r) * s],
              fill=P.WHITE + (255,), outline=P.OUTLINE + (255,), width=round(1.8 * s))
    d.text((half * s, (half + 0.5) * s), "\u2694", font=font(round(14 * K * s), True),
           fill=P.OUTLINE + (255,), anchor="mm")
    return _finish(img, (half, half))


@lru_cache(maxsize=4)
def spot_ring() -> Sprite:
    """Marks a single hex that just changed (growth, city, placement)."""
    r = TOKEN_R + 7 * K
    half = math.ceil(r) + 4
    img, d = _canvas(2 * half, 2 * half)
    s = SS
    for width, colour in ((7.0, P.OUTLINE), (3.5, P.HIGHLIGHT)):
        d.ellipse([(half - r) * s, (half - r) * s, (half + r) * s, (half + r) * s],
                  outline=colour + (255,), width=round(width * s))
    return _finish(img, (half, half))


@lru_cache(maxsize=64)
def chip(seat: int, radius: float = 12.0, lang: str = "en") -> Sprite:
    """A player's disc with their letter (panel rows, the to-act line)."""
    colour = P.player_rgb(seat)
    half = math.ceil(radius) + 2
    img, d = _canvas(2 * half, 2 * half)
    s = SS
    d.ellipse([(half - radius) * s, (half - radius) * s, (half + radius) * s,
               (half + radius) * s], fill=colour + (255,), outline=P.OUTLINE + (255,),
              width=round(1.5 * s))
    _text(d, (half * s, (half + 0.5) * s), colour_letter(seat, lang), radius * 1.05,
          P.ink_on(colour))
    return _finish(img, (half, half))


@lru_cache(maxsize=64)
def cube(seat: int, side: float = 16.0, lang: str = "en") -> Sprite:
    """A player's era cube (a square with their letter) for the era track."""
    colour = P.player_rgb(seat)
    half = math.ceil(side / 2) + 2
    img, d = _canvas(2 * half, 2 * half)
    s = SS
    a, b = (half - side / 2) * s, (half + side / 2) * s
    d.rounded_rectangle([a, a, b, b], radius=2.5 * s, fill=colour + (255,),
                        outline=P.OUTLINE + (255,), width=round(1.5 * s))
    _text(d, (half * s, (half + 0.5) * s), colour_letter(seat, lang), side * 0.7,
          P.ink_on(colour))
    return _finish(img, (half, half))


@lru_cache(maxsize=64)
def terrain_swatch(kind: str | None, radius: float = 9.0) -> Sprite:
    """A small hex of a terrain, its motif included (era track, cards)."""
    half = math.ceil(radius) + 2
    img, d = _canvas(2 * half, 2 * half)
    pts = [((half + x) * SS, (half + y) * SS) for x, y in corner_offsets(radius)]
    if kind is None:
        d.polygon(pts, fill=P.PANEL_BG + (255,), outline=P.PANEL_MUTED + (255,), width=SS)
        return _finish(img, (half, half))
    d.polygon(pts, fill=fill_of(kind) + (255,))
    motif = motif_sprite(kind, radius * SS)
    m = motif.size[0] // 2
    img.alpha_composite(motif, (half * SS - m, half * SS - m))
    d.polygon(pts, outline=P.OUTLINE + (255,), width=round(1.2 * SS))
    return _finish(img, (half, half))
