"""The board as vector graphics (SVG): the picture of :mod:`render.board` drawn with the
same geometry, colours, patterns and words, for a page that zooms without blurring.

Pure functions of a view, in the style of python-chess's ``chess.svg``: every option is a
keyword. :func:`board_svg` is one standalone document; a page that keeps the map while
the pieces change asks for its parts: :func:`map_layer` (fills, patterns, coasts, grid and
labels: a function of the map alone, drawn once per map), :func:`pieces_layer` (pieces,
raised stack limits, rings and arrows: what changes with every move) and
:func:`hit_layer` (one invisible polygon per hex, ``data-hex`` its id, for taps).

Coordinates are whole-map pixels (:mod:`render.geometry`): the layers of one map fit any
``viewBox`` (:func:`view_box`, the part :func:`render.board.board_layout_of` shows). What
is drawn and where comes from the modules the picture is drawn by: the hex kinds and the
edges' styles from :mod:`render.terrain_layer`, the terrains' motifs from
:mod:`render.terrain_art` (drawn here through :class:`SvgPen`, which has the ``ImageDraw``
methods they call), the pieces' places and the marks of a position from
:mod:`render.board`, the arrows from :mod:`render.overlays`, the sprites' sizes from
:mod:`render.sprites`, every colour from :mod:`render.palette` and every word from
:mod:`render.words`. No style sheet: presentation attributes only, so a page with a
strict content security policy (no inline styles) shows it as it is.

Every text is escaped; nothing of a person (a name) is drawn.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from engine.hexgrid import NUM_HEXES, col_row, label

from . import palette as P
from .board import RAISE_AT, board_layout_of, board_marks, occupied_hexes, piece_places
from .geometry import (
    BOARD_H,
    BOARD_W,
    TOKEN_R,
    K,
    R,
    corner_offsets,
    hex_centre,
    hex_corners,
    label_centre,
    piece_centre,
)
from .overlays import ARROW_EDGE, arrow_polygon, swords_centre
from .panel import raise_owner
from .sprites import BADGE_R, CITY_BADGE, STACK_STEP, TOKEN_BADGE, city_outline
from .terrain_art import (
    FURROW_GAP,
    FURROW_W,
    LAKE,
    OPEN_SEA,
    fill_of,
    furrow_fields,
    motifs,
    ripples,
)
from .terrain_layer import (
    LABEL_INK,
    LABEL_SEA_INK,
    LABEL_SIZE,
    SUPERSAMPLE,
    hex_kinds,
    map_edges,
)
from .words import DEFAULT_LANG, colour_letter

__all__ = ["board_svg", "map_layer", "pieces_layer", "hit_layer", "view_box", "map_key",
           "SvgPen"]

#: the font the picture's words are drawn in (render.fonts ships DejaVu), then any
FONT = "DejaVu Sans, Verdana, sans-serif"
Colour = Sequence[int]
Point = tuple[float, float]


def _n(v: float) -> str:
    """A coordinate, short: two decimals at most, no trailing zeros."""
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _rgb(c: Colour | None) -> str:
    if c is None:
        return "none"
    return f"#{c[0]:02x}{c[1]:02x}{c[2]:02x}"


def _pts(points: Iterable[Point]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _flat(xy: Sequence[Any]) -> list[Point]:
    """``ImageDraw``'s point lists: pairs, or a flat list of numbers."""
    out: list[Point] = []
    if xy and isinstance(xy[0], (int, float)):
        flat = [float(v) for v in xy]
        return list(zip(flat[::2], flat[1::2]))
    for p in xy:
        out.append((float(p[0]), float(p[1])))
    return out


class SvgPen:
    """The ``ImageDraw`` methods the terrain motifs call (:mod:`render.terrain_art`),
    recording SVG elements instead of pixels: the pattern is written once, drawn twice."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def polygon(self, xy: Sequence[Any], fill: Colour | None = None,
                outline: Colour | None = None, width: int = 1) -> None:
        stroke = (f' stroke="{_rgb(outline)}" stroke-width="{_n(width)}"'
                  if outline is not None else "")
        self.parts.append(f'<polygon points="{_pts(_flat(xy))}" fill="{_rgb(fill)}"{stroke}/>')

    def rectangle(self, xy: Sequence[Any], fill: Colour | None = None,
                  outline: Colour | None = None, width: int = 1) -> None:
        (x0, y0), (x1, y1) = _flat(xy)[:2]
        stroke = (f' stroke="{_rgb(outline)}" stroke-width="{_n(width)}"'
                  if outline is not None else "")
        self.parts.append(f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(x1 - x0)}" '
                          f'height="{_n(y1 - y0)}" fill="{_rgb(fill)}"{stroke}/>')

    def line(self, xy: Sequence[Any], fill: Colour | None = None, width: int = 1,
             joint: str | None = None) -> None:
        pts = _flat(xy)
        d = "M" + " L".join(f"{_n(x)} {_n(y)}" for x, y in pts)
        self.parts.append(f'<path d="{d}" fill="none" stroke="{_rgb(fill)}" '
                          f'stroke-width="{_n(width)}"/>')

    def ellipse(self, xy: Sequence[Any], fill: Colour | None = None,
                outline: Colour | None = None, width: int = 1) -> None:
        (x0, y0), (x1, y1) = _flat(xy)[:2]
        # ImageDraw draws the outline inside the box; a stroke is centred on the path
        inset = width / 2 if outline is not None else 0.0
        rx, ry = (x1 - x0) / 2 - inset, (y1 - y0) / 2 - inset
        stroke = (f' stroke="{_rgb(outline)}" stroke-width="{_n(width)}"'
                  if outline is not None else "")
        self.parts.append(f'<ellipse cx="{_n((x0 + x1) / 2)}" cy="{_n((y0 + y1) / 2)}" '
                          f'rx="{_n(rx)}" ry="{_n(ry)}" fill="{_rgb(fill)}"{stroke}/>')

    def arc(self, xy: Sequence[Any], start: float, end: float, fill: Colour | None = None,
            width: int = 1) -> None:
        (x0, y0), (x1, y1) = _flat(xy)[:2]
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        rx, ry = (x1 - x0) / 2 - width / 2, (y1 - y0) / 2 - width / 2
        a, b = math.radians(start), math.radians(end)
        sx, sy = cx + rx * math.cos(a), cy + ry * math.sin(a)
        ex, ey = cx + rx * math.cos(b), cy + ry * math.sin(b)
        large = 1 if (end - start) % 360 > 180 else 0
        # ImageDraw's angles run clockwise on the screen, as SVG's sweep flag 1 does
        self.parts.append(
            f'<path d="M{_n(sx)} {_n(sy)} A{_n(rx)} {_n(ry)} 0 {large} 1 {_n(ex)} {_n(ey)}" '
            f'fill="none" stroke="{_rgb(fill)}" stroke-width="{_n(width)}"/>')

    def text(self) -> str:
        return "".join(self.parts)


# ------------------------------------------------------------------ the map
def map_key(terrain: Sequence[str | None]) -> str:
    """The same text for the same map: the map layer of a view is that of every view of
    this map (a page keeps it while only the pieces change)."""
    return "".join(t or "." for t in terrain)


@lru_cache(maxsize=8)
def _motif_defs() -> str:
    """One group per terrain pattern (and its mirror image), around (0, 0), clipped to the
    hex as the picture's sprites are; drawn at the picture's supersampled size and scaled
    down, so lines are as thick as in the picture."""
    ss = SUPERSAMPLE
    radius = R * ss
    clip = _pts(corner_offsets(radius * 0.96))
    parts = [f'<clipPath id="tp-hexclip"><polygon points="{clip}"/></clipPath>']
    for kind in ("F", "G", "M", "H", "W", LAKE, OPEN_SEA):
        pen = SvgPen()
        if kind == "F":
            parts += _field_clips(radius)
            _furrows(pen, radius)
        elif kind == LAKE:
            ripples(pen, 0.0, radius)
        else:
            motifs(pen, kind, 0.0, radius)
        body = pen.text()
        scale = _n(1 / ss)
        parts.append(f'<g id="tp-{kind}" transform="scale({scale})">'
                     f'<g clip-path="url(#tp-hexclip)">{body}</g></g>')
        parts.append(f'<g id="tp-{kind}-r" transform="scale(-{scale},{scale})">'
                     f'<g clip-path="url(#tp-hexclip)">{body}</g></g>')
    return "<defs>" + "".join(parts) + "</defs>"


def _field_clips(radius: float) -> list[str]:
    """Farmland's three fields as clip paths (once: the pattern and its mirror use them)."""
    return [f'<clipPath id="tp-field{k}"><polygon points="{_pts(field)}"/></clipPath>'
            for k, (field, _) in enumerate(furrow_fields(0.0, radius))]


def _furrows(pen: SvgPen, radius: float) -> None:
    """Farmland's fields and furrows (:func:`render.terrain_art.furrow_fields`) around
    (0, 0): each field's furrows clipped to it."""
    ink = P.TERRAIN_INK["F"]
    w = max(1, int(FURROW_W * radius))
    gap = FURROW_GAP * radius
    size = 2 * radius
    for k, (_, ang) in enumerate(furrow_fields(0.0, radius)):
        dx, dy = math.cos(ang), math.sin(ang)
        nx, ny = -dy, dx
        n = int(size / gap) + 2
        d = []
        for i in range(-n, n + 1):
            ox, oy = nx * gap * i, ny * gap * i
            d.append(f"M{_n(ox - dx * size)} {_n(oy - dy * size)} "
                     f"L{_n(ox + dx * size)} {_n(oy + dy * size)}")
        pen.parts.append(f'<path clip-path="url(#tp-field{k})" d="{"".join(d)}" fill="none" '
                         f'stroke="{_rgb(ink)}" stroke-width="{w}"/>')
    for field, _ in furrow_fields(0.0, radius):
        pen.line([field[0], field[1]], fill=ink, width=w)


def map_layer(terrain: Sequence[str | None], *, lang: str = DEFAULT_LANG) -> str:
    """The static map of ``terrain`` (156 hexes' letters, None for water) as one SVG
    group: the frame, each hex's fill and pattern, the grid and coasts, the labels."""
    del lang  # the labels (C4) are the same in every language
    return _map_layer(tuple(terrain))


@lru_cache(maxsize=16)
def _map_layer(terrain: tuple[str | None, ...]) -> str:
    kinds = hex_kinds(terrain)
    out = [_motif_defs(), f'<g class="map"><rect x="0" y="0" width="{BOARD_W}" '
           f'height="{BOARD_H}" fill="{_rgb(P.FRAME)}"/>']
    for h in range(NUM_HEXES):
        out.append(f'<polygon points="{_pts(hex_corners(h))}" fill="{_rgb(fill_of(kinds[h]))}"/>')
    for h in range(NUM_HEXES):
        col, row = col_row(h)
        cx, cy = hex_centre(h)
        mirrored = "-r" if (col + row) & 1 else ""
        out.append(f'<use href="#tp-{kinds[h]}{mirrored}" '
                   f'transform="translate({_n(cx)},{_n(cy)})"/>')
    out.append(_edges(kinds))
    out.append(_labels(kinds))
    out.append("</g>")
    return "".join(out)


def _edges(kinds: list[str]) -> str:
    """Grid lines first, coasts on top; one path per style."""
    paths: dict[tuple[P.RGB, float], list[str]] = {}
    for (x0, y0), (x1, y1), style in map_edges(kinds):
        paths.setdefault(style, []).append(f"M{_n(x0)} {_n(y0)}L{_n(x1)} {_n(y1)}")
    out = []
    for (colour, width), d in sorted(paths.items(), key=lambda kv: kv[0][1]):
        out.append(f'<path d="{"".join(d)}" fill="none" stroke="{_rgb(colour)}" '
                   f'stroke-width="{_n(width)}" stroke-linecap="round" '
                   f'stroke-linejoin="round"/>')
    return "".join(out)


def _labels(kinds: list[str]) -> str:
    out = [f'<g font-family="{FONT}" font-weight="bold" font-size="{LABEL_SIZE}" '
           f'text-anchor="middle" dominant-baseline="central">']
    for h in range(NUM_HEXES):
        x, y = label_centre(h)
        if kinds[h] == OPEN_SEA:
            out.append(f'<text x="{_n(x)}" y="{_n(y)}" fill="{_rgb(LABEL_SEA_INK)}">'
                       f'{label(h)}</text>')
        else:
            edge = P.mix(fill_of(kinds[h]), P.WHITE, 0.55)
            out.append(f'<text x="{_n(x)}" y="{_n(y)}" fill="{_rgb(LABEL_INK)}" '
                       f'stroke="{_rgb(edge)}" stroke-width="4" paint-order="stroke">'
                       f'{label(h)}</text>')
    out.append("</g>")
    return "".join(out)


# ------------------------------------------------------------------ the position
def _text(x: float, y: float, text: str, size: float, fill: Colour) -> str:
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" fill="{_rgb(fill)}">'
            f"{escape(text)}</text>")


def _token(seat: int, count: int, x: float, y: float) -> str:
    colour = P.player_rgb(seat)
    shade = P.mix(colour, P.BLACK, 0.35)
    out = []
    for i in range(min(max(count, 1), 4) - 1, -1, -1):
        out.append(f'<circle cx="{_n(x)}" cy="{_n(y + i * STACK_STEP)}" r="{_n(TOKEN_R - 1)}" '
                   f'fill="{_rgb(colour if i == 0 else shade)}" stroke="{_rgb(P.OUTLINE)}" '
                   f'stroke-width="2"/>')
    ring = TOKEN_R - 3.5 * K
    out.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(ring - 0.5)}" fill="none" '
               f'stroke="{_rgb(P.mix(colour, P.WHITE, 0.45))}" stroke-width="1"/>')
    out.append(_text(x, y + 0.5, str(count), (19 if count < 10 else 16) * K, P.ink_on(colour)))
    return "".join(out)


def _city(seat: int, value: int, x: float, y: float) -> str:
    colour = P.player_rgb(seat)
    return (f'<polygon points="{_pts(city_outline(x, y))}" fill="{_rgb(colour)}" '
            f'stroke="{_rgb(P.OUTLINE)}" stroke-width="2" stroke-linejoin="miter"/>'
            + _text(x, y + 1, str(value), 19 * K, P.ink_on(colour)))


def _badge(seat: int, x: float, y: float, lang: str) -> str:
    return (f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(BADGE_R - 0.5)}" '
            f'fill="{_rgb(P.OUTLINE)}" stroke="{_rgb(P.WHITE)}" stroke-width="1"/>'
            + _text(x, y + 0.5, colour_letter(seat, lang), 11.5 * K, P.WHITE))


def _raise(bonus: int, seat: int, x: float, y: float, lang: str) -> str:
    """Sanitation's raised stack limit, as :func:`render.sprites.stack_bonus` draws it."""
    text = f"+{bonus}" if seat < 0 else f"{colour_letter(seat, lang)}+{bonus}"
    fill = P.WHITE if seat < 0 else P.player_rgb(seat)
    w, h = (26 if seat < 0 else 34) * K, 16 * K
    return (f'<rect x="{_n(x - w / 2 + 1)}" y="{_n(y - h / 2 + 1)}" width="{_n(w - 2)}" '
            f'height="{_n(h - 2)}" rx="{_n(5 * K)}" fill="{_rgb(fill)}" '
            f'stroke="{_rgb(P.OUTLINE)}" stroke-width="1"/>'
            + _text(x, y + 0.5, text, 10 * K, P.OUTLINE if seat < 0 else P.ink_on(fill)))


def _hex_ring(h: int, colour: Colour) -> str:
    pts = _pts(hex_corners(h, inset=4.0))
    return (f'<polygon points="{pts}" fill="none" stroke="{_rgb(P.OUTLINE)}" stroke-width="7" '
            f'stroke-linejoin="round"/><polygon points="{pts}" fill="none" '
            f'stroke="{_rgb(colour)}" stroke-width="3.5" stroke-linejoin="round"/>')


def _spot(h: int) -> str:
    x, y = piece_centre(h)
    r = TOKEN_R + 7 * K
    return "".join(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="none" '
                   f'stroke="{_rgb(c)}" stroke-width="{w}"/>'
                   for w, c in ((7, P.OUTLINE), (3.5, P.HIGHLIGHT)))


def _swords(dst: int) -> str:
    x, y = swords_centre(dst)
    return (f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(10.5 * K)}" fill="{_rgb(P.WHITE)}" '
            f'stroke="{_rgb(P.OUTLINE)}" stroke-width="1.8"/>'
            + _text(x, y + 0.5, "\u2694", 14 * K, P.OUTLINE))


def pieces_layer(view: dict[str, Any], *, highlight: Sequence[int] = (),
                 last_move: tuple[int, ...] | None = None,
                 lang: str = DEFAULT_LANG) -> str:
    """What stands on the map of ``view`` as one SVG group, drawn as the picture draws
    it: outlined hexes (``highlight``), rings and attacked hexes under the pieces, the
    pieces and raised stack limits, arrows (the last move, an attack in progress) over
    them, the owners' letters on top. Reads public fields only (any seat's view gives
    the spectator's group)."""
    marks = board_marks(view, tuple(highlight), last_move)
    out = ['<g class="pieces" font-family="' + FONT + '" font-weight="bold" '
           'text-anchor="middle" dominant-baseline="central">']
    out += [_hex_ring(h, P.HIGHLIGHT) for h in sorted(set(marks.highlight))]
    out += [_spot(h) for h in marks.spots]
    out += [_hex_ring(h, P.ATTACK) for h in marks.attacked]
    places = piece_places(view)
    for h, kind, seat, n, dx in places:
        x, y = piece_centre(h)
        out.append(_city(seat, n, x + dx, y) if kind == "city" else _token(seat, n, x + dx, y))
    for h in range(NUM_HEXES):
        if view["bonus"][h] > 0:
            cx, cy = hex_centre(h)
            out.append(_raise(view["bonus"][h], raise_owner(view, h), cx + RAISE_AT[0],
                              cy + RAISE_AT[1], lang))
    occupied = occupied_hexes(view)
    for src, dst, attack in marks.arrows:
        if src == dst:
            out.append(_spot(src))
            continue
        poly = arrow_polygon(src, dst, src in occupied, dst in occupied)
        out.append(f'<polygon points="{_pts(poly)}" '
                   f'fill="{_rgb(P.ATTACK if attack else P.HIGHLIGHT)}" '
                   f'stroke="{_rgb(P.OUTLINE)}" stroke-width="{_n(ARROW_EDGE)}"/>')
        if attack:
            out.append(_swords(dst))
    for h, kind, seat, _, dx in places:
        x, y = piece_centre(h)
        bx, by = CITY_BADGE if kind == "city" else TOKEN_BADGE
        out.append(_badge(seat, x + dx + bx, y + by, lang))
    out.append("</g>")
    return "".join(out)


@lru_cache(maxsize=1)
def hit_layer() -> str:
    """An invisible polygon per hex (``data-hex``: its id; ``data-label``: ``C4``) over
    everything, so a tap anywhere on a hex finds it."""
    return ('<g class="hits">' + "".join(
        f'<polygon class="hit" data-hex="{h}" data-label={quoteattr(label(h))} '
        f'points="{_pts(hex_corners(h))}" fill="#000" fill-opacity="0"/>'
        for h in range(NUM_HEXES)) + "</g>")


def view_box(view: dict[str, Any], *, highlight: Sequence[int] = (),
             last_move: tuple[int, ...] | None = None, full: bool = False
             ) -> tuple[int, int, int, int]:
    """The part of the map the picture of ``view`` shows (x, y, width, height in
    whole-map pixels): the land and a ring of sea, the whole board while tiles are placed
    or with ``full``."""
    lay = board_layout_of(view, tuple(highlight), last_move, full)
    return lay.x0, lay.y0, lay.width, lay.map_h


def board_svg(view: dict[str, Any], *, highlight: Sequence[int] = (),
              last_move: tuple[int, ...] | None = None, full: bool = False,
              hits: bool = False, lang: str = DEFAULT_LANG,
              size: int | None = None) -> str:
    """The map of ``view`` as a standalone SVG document (no panel: a page shows that as
    text): the map layer, the pieces and marks, and with ``hits`` the tap layer.
    ``size``: the width in pixels the document asks for (None: as wide as its box)."""
    x, y, w, h = view_box(view, highlight=highlight, last_move=last_move, full=full)
    width = w if size is None else size
    height = round(h * width / w)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{x} {y} {w} {h}" '
            f'width="{width}" height="{height}">'
            + map_layer(view["terrain"], lang=lang)
            + pieces_layer(view, highlight=highlight, last_move=last_move, lang=lang)
            + (hit_layer() if hits else "") + "</svg>")
