"""The static map layer: terrain fills, patterns, coasts, grid and hex labels.

It depends only on the terrain of the 156 hexes, so it is drawn once per map (at
:data:`SUPERSAMPLE` times the final size, then reduced, for smooth edges) and kept in the
map layer cache (:mod:`render.layer_cache`: memory bounded by bytes, and disk, shared by
all worker processes) under a hash of the map; each move only crops it and draws pieces
and the panel on top.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence

from PIL import Image, ImageDraw

from engine.geography import geography
from engine.hexgrid import NEIGHBOUR_IN, NUM_HEXES, col_row, label

from . import palette as P
from .fonts import font
from .geometry import BOARD_H, BOARD_W, EDGE_CORNERS, R, hex_corners, label_centre
from .layer_cache import layer_cache
from .terrain_art import LAKE, OPEN_SEA, fill_of, motif_sprite

SUPERSAMPLE = 3
#: Hex label size (px). Even on the whole map, the widest image (BOARD_W px), this is
#: at least 9 px once Discord shows the image 550 px wide.
LABEL_SIZE = 16
#: the labels' ink on land and on the open sea
LABEL_INK = (20, 20, 24)
LABEL_SEA_INK = (214, 232, 250)
#: Part of the cache key: change it whenever the look of the layer changes, so that
#: layers cached on disk by an older version are not used.
LAYER_VERSION = 3

Terrain = tuple[str | None, ...]


def hex_kinds(terrain: Terrain) -> list[str]:
    """Per hex: its terrain letter, or ``"lake"`` / ``"sea"`` for water."""
    geo = geography(terrain)
    return [
        t if t is not None else (LAKE if geo.lake_of[h] >= 0 else OPEN_SEA)
        for h, t in enumerate(terrain)
    ]


def map_edges(kinds: Sequence[str], ss: int = 1
              ) -> Iterator[tuple[tuple[float, float], tuple[float, float],
                                  tuple[P.RGB, float]]]:
    """Every edge the map draws (each shared edge once, hex by hex): its two corners at
    ``ss`` times the scale, and its style (:func:`edge_style`). The picture and the
    vector board both draw these."""
    for h in range(NUM_HEXES):
        corners = hex_corners(h, ss)
        for direction, (i, j) in enumerate(EDGE_CORNERS):
            n = NEIGHBOUR_IN[h][direction]
            if n is not None and n < h:
                continue  # each shared edge once
            style = edge_style(kinds[h], None if n is None else kinds[n])
            if style is not None:
                yield corners[i], corners[j], style


def edge_style(a: str, b: str | None) -> tuple[P.RGB, float] | None:
    """Colour and width (final pixels) of the edge between hex kinds ``a`` and ``b``
    (``None``: the board edge), or None for no line."""
    water = (OPEN_SEA, LAKE)
    if b is None:
        return (P.COAST, 3.0) if a not in water else None
    if (a in water) != (b in water):
        return P.COAST, 3.0
    if a in water:
        return (P.SEA_GRID, 1.0) if a == OPEN_SEA else (P.mix(P.LAKE, P.LAKE_INK, 0.45), 1.0)
    return P.LAND_GRID, 1.0


def map_key(terrain: Terrain, palette: Image.Image) -> str:
    """A file-name-safe key for a map (its 156 terrains), the palette and this version of
    the look: a layer cached by another version is never used."""
    text = "".join(t or "." for t in terrain)
    digest = hashlib.blake2b(text.encode(), digest_size=12).hexdigest()
    return f"map{LAYER_VERSION}-{BOARD_W}x{BOARD_H}-{_palette_digest(palette)}-{digest}"


_digests: dict[int, tuple[Image.Image, str]] = {}


def _palette_digest(palette: Image.Image) -> str:
    hit = _digests.get(id(palette))
    if hit is None or hit[0] is not palette:
        data = bytes(palette.getpalette() or [])
        hit = (palette, hashlib.blake2b(data, digest_size=4).hexdigest())
        _digests[id(palette)] = hit
    return hit[1]


def terrain_layer(terrain: Terrain, palette: Image.Image, persist: bool = True) -> Image.Image:
    """The whole map (``BOARD_W`` x ``BOARD_H``) for this map, already mapped to
    ``palette`` (a P-mode image: a third of the memory and disk of RGB, and the colours
    the final image is mapped to anyway), from the map layer cache. Shared: callers must
    crop or copy it before drawing on it. ``persist=False`` for a map still being built
    (tile placement): memory only, never written to disk."""
    def make() -> Image.Image:
        return draw_terrain_layer(terrain).quantize(palette=palette, dither=Image.Dither.NONE)

    def valid(img: Image.Image) -> bool:
        return img.mode == "P" and img.size == (BOARD_W, BOARD_H)

    return layer_cache().get(map_key(terrain, palette), make, persist, valid)


def draw_terrain_layer(terrain: Terrain) -> Image.Image:
    """Draw the whole-map layer (no cache)."""
    ss = SUPERSAMPLE
    kinds = hex_kinds(terrain)
    big = Image.new("RGB", (BOARD_W * ss, BOARD_H * ss), P.FRAME)
    d = ImageDraw.Draw(big)
    radius = R * ss
    for h in range(NUM_HEXES):
        corners = hex_corners(h, ss)
        d.polygon(corners, fill=fill_of(kinds[h]))
        col, row = col_row(h)
        sprite = motif_sprite(kinds[h], radius, bool((col + row) & 1))
        cx = (corners[0][0] + corners[3][0]) / 2
        cy = (corners[0][1] + corners[3][1]) / 2
        half = sprite.size[0] // 2
        big.paste(sprite, (round(cx) - half, round(cy) - half), sprite)
    # grid lines first, coasts on top
    edges = [(1 if width > 1 else 0, [a, b], colour, width)
             for a, b, (colour, width) in map_edges(kinds, ss)]
    for _, pts, colour, width in sorted(edges, key=lambda e: e[0]):
        w = max(1, round(width * ss))
        d.line(pts, fill=colour, width=w)
        if w > 2:  # round the joints of thick coast lines
            rr = w / 2
            for x, y in pts:
                d.ellipse([x - rr, y - rr, x + rr, y + rr], fill=colour)
    img = big.reduce(ss)
    _labels(img, kinds)
    return img


def _labels(img: Image.Image, kinds: list[str]) -> None:
    d = ImageDraw.Draw(img)
    for h in range(NUM_HEXES):
        draw_label(d, h, kinds[h])


def draw_label(d: ImageDraw.ImageDraw, h: int, kind: str,
               shift: tuple[float, float] = (0.0, 0.0)) -> None:
    """Hex ``h``'s label (``C4``) as the layer prints it, ``shift`` pixels away from its
    whole-map place (a picture that draws over a label prints it again with this)."""
    f = font(LABEL_SIZE, bold=True)
    x, y = label_centre(h)
    x, y = x + shift[0], y + shift[1]
    if kind == OPEN_SEA:
        d.text((x, y), label(h), font=f, fill=LABEL_SEA_INK, anchor="mm")
    else:
        fill = fill_of(kind)
        d.text((x, y), label(h), font=f, fill=LABEL_INK, anchor="mm",
               stroke_width=2, stroke_fill=P.mix(fill, P.WHITE, 0.55))


def label_mask(d: ImageDraw.ImageDraw, h: int, shift: tuple[float, float] = (0.0, 0.0)
               ) -> None:
    """Where hex ``h``'s label and its edge are, drawn in white on a mask, ``shift``
    pixels away from its whole-map place."""
    x, y = label_centre(h)
    d.text((x + shift[0], y + shift[1]), label(h), font=font(LABEL_SIZE, bold=True),
           fill=255, anchor="mm", stroke_width=3, stroke_fill=255)


def label_box(h: int, shift: tuple[float, float] = (0.0, 0.0)
              ) -> tuple[float, float, float, float]:
    """The pixel box a hex label may cover (the widest label, ``L12``, with its edge)."""
    x, y = label_centre(h)
    x, y = x + shift[0], y + shift[1]
    return x - 0.55 * LABEL_SIZE * 1.6, y - 0.7 * LABEL_SIZE, \
        x + 0.55 * LABEL_SIZE * 1.6, y + 0.7 * LABEL_SIZE
