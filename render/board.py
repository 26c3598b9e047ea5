"""The board image: the land, its pieces and overlays, and the panel below, from a
public view; and small crops of the map for private menus.

:func:`render_board` is what the bot posts (called in a worker process or a thread). The
image shows the land (placed tiles and one ring of sea) above the panel, sized so that
hex labels and panel text are at least 9 px high when Discord shows it 550 px wide
(:mod:`render.layout`); ``full=True`` shows the whole 13 x 12 board. :func:`render_crop`
draws just the hexes a private move or attack menu is about, with the legal targets
outlined.

A board is its background (the map layer's crop, drawn once per map and cached,
:mod:`render.terrain_layer`, above the cached static panel) under the steps that draw its
position: piece sprites, overlays and the panel's text from cached glyph masks, recorded
as a :class:`render.scene.Scene`. :func:`render_board` draws, maps to the one 256-colour
palette every map shares and compresses only what differs from the last board this
process drew on the same background (:mod:`render.board_cache`); :func:`board_image`
draws it whole.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image

from engine.hexgrid import EDGE, NUM_HEXES, col_row
from engine.views import VIEW_FORMAT

from . import palette as P
from . import panel
from .board_cache import Background, board_cache
from .encode import build_palette, to_png
from .geometry import BOARD_H, BOARD_W, K, hex_centre, piece_centre
from .layout import Layout, board_layout, crop_layout
from .overlays import (
    ATTACK,
    Shift,
    check_last_move,
    draw_arrow,
    draw_attack_target,
    draw_highlights,
    draw_spot,
    draw_swords,
)
from .scene import Box, Canvas, Scene
from .sprites import (
    BADGE_R,
    CITY_BADGE,
    TOKEN_BADGE,
    badge,
    chip,
    city,
    cube,
    hex_ring,
    spot_ring,
    stack_bonus,
    swords,
    token,
)
from .terrain_layer import Terrain, draw_terrain_layer, map_key, terrain_layer
from .words import DEFAULT_LANG

__all__ = ["ATTACK", "hex_centre", "piece_centre", "render_board", "render_crop",
           "board_image", "crop_image", "board_layout_of", "crop_layout_of"]

MAX_SEATS = 5
#: The whole map's size: the image size of ``render_board(..., full=True)`` is this
#: width and this height plus the panel.
FULL_MAP = (BOARD_W, BOARD_H)


#: where a hex's raised stack limit (Sanitation) is shown, from the hex's centre
RAISE_AT = (16 * K, 18 * K)


def _piece_sheet() -> Image.Image:
    """Every piece sprite on one neutral sheet, to give them palette entries."""
    sprites = []
    for s in range(MAX_SEATS):
        sprites += [token(s, n) for n in (1, 2, 3, 4)]
        sprites += [city(s, v) for v in (2, 3, 4)]
        sprites += [chip(s, 12), chip(s, 9), cube(s), badge(s)]
    sprites += [hex_ring(), hex_ring(P.ATTACK), spot_ring(), stack_bonus(1, K), swords()]
    width = sum(sp.image.size[0] for sp in sprites)
    height = max(sp.image.size[1] for sp in sprites)
    sheet = Image.new("RGB", (width, height + 60), (128, 128, 128))
    x = 0
    for sp in sprites:
        sheet.paste(sp.image, (x, 0), sp.image)
        x += sp.image.size[0]
    draw_arrow(sheet, 0, 2, attack=True)  # hexes A1 -> C1, inside the sheet
    draw_arrow(sheet, 13, 15, attack=False)
    return sheet


def _sample_terrain() -> Terrain:
    """A made-up map in which every terrain borders every other one, open sea and lakes:
    its layer holds every colour (and edge blend) any real map can have."""
    out: list[str | None] = []
    for h in range(NUM_HEXES):
        col, row = col_row(h)
        if h in EDGE or col == 6 or (row == 6 and col < 6) or (col + 3 * row) % 7 == 0:
            out.append(None)
        else:
            out.append("GFWHM"[(col + 2 * row) % 5])
    return tuple(out)


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """The 256 colours every board image is mapped to, the same for every map and
    layout (so a new map during tile placement costs only its terrain layer)."""
    layer = draw_terrain_layer(_sample_terrain())
    static = panel.static_panel(BOARD_W)
    base = Image.new("RGB", (BOARD_W, BOARD_H + static.size[1]))
    base.paste(layer, (0, 0))
    base.paste(static, (0, BOARD_H))
    return build_palette(base, _piece_sheet(), P.key_colours())


def occupied_hexes(v: dict[str, Any]) -> frozenset[int]:
    """The hexes with tokens or a city (an arrow stops at their pieces' edge)."""
    return frozenset(h for h in range(NUM_HEXES)
                     if v["count"][h] > 0 or v["city_owner"][h] >= 0)


def piece_places(v: dict[str, Any]) -> list[tuple[int, str, int, int, float]]:
    """``(hex, "token" | "city", seat, number, dx)`` for every piece on the map."""
    owner, count = v["owner"], v["count"]
    city_owner, city_value = v["city_owner"], v["city_value"]
    out = []
    for h in range(NUM_HEXES):
        has_city = city_owner[h] >= 0
        has_tokens = owner[h] >= 0 and count[h] > 0
        if has_city and has_tokens:  # never happens under the rules; keep both visible
            out.append((h, "city", city_owner[h], city_value[h], -13.0 * K))
            out.append((h, "token", owner[h], count[h], 13.0 * K))
        elif has_city:
            out.append((h, "city", city_owner[h], city_value[h], 0.0))
        elif has_tokens:
            out.append((h, "token", owner[h], count[h], 0.0))
    return out


def _draw_pieces(img: Canvas, v: dict[str, Any], shift: Shift, lang: str) -> None:
    sx, sy = shift
    for h, kind, seat, n, dx in piece_places(v):
        x, y = piece_centre(h)
        sprite = city(seat, n) if kind == "city" else token(seat, n)
        sprite.paste_on(img, x + dx + sx, y + sy)
    _draw_badges(img, v, shift, lang)
    for h in range(NUM_HEXES):
        if v["bonus"][h] > 0:
            cx, cy = hex_centre(h)
            plate = stack_bonus(v["bonus"][h], K, panel.raise_owner(v, h), lang)
            plate.paste_on(img, cx + RAISE_AT[0] + sx, cy + RAISE_AT[1] + sy)


def _draw_badges(img: Canvas, v: dict[str, Any], shift: Shift, lang: str,
                 areas: list[tuple[float, float, float, float]] | None = None) -> None:
    """The owners' letters; with ``areas`` (pixel boxes of arrows and swords drawn over
    the pieces) only those there, again, so nothing on the map ever hides them."""
    sx, sy = shift
    pad = BADGE_R + 1
    for h, kind, seat, _, dx in piece_places(v):
        x, y = piece_centre(h)
        bx, by = CITY_BADGE if kind == "city" else TOKEN_BADGE
        px, py = x + dx + bx + sx, y + by + sy
        if areas is None or any(a - pad <= px <= c + pad and b - pad <= py <= d + pad
                                for a, b, c, d in areas):
            badge(seat, lang).paste_on(img, px, py)


@dataclass(frozen=True)
class Marks:
    """What a board marks besides its pieces, in drawing order: hexes outlined (legal
    targets), rings around piece places (a hex that changed, the hexes a crop is about),
    attacked hexes (a red outline under the pieces) and arrows over the pieces
    ``(src, dst, attack)``. The picture and its vector drawing (render.svg) draw these."""

    highlight: tuple[int, ...] = ()
    spots: tuple[int, ...] = ()
    attacked: tuple[int, ...] = ()
    arrows: tuple[tuple[int, int, bool], ...] = ()


def board_marks(v: dict[str, Any], highlight: tuple[int, ...] = (),
                last_move: tuple[int, ...] | None = None, spots: tuple[int, ...] = ()
                ) -> Marks:
    """The marks of a view's board: an attack in progress is always shown; the last move
    as a ring (one hex) or an arrow, unless it is that attack."""
    combat = v.get("combat")
    fight = bool(combat and last_move and tuple(last_move[:2]) == (combat["src"],
                                                                    combat["dst"]))
    rings = list(spots)
    arrows: list[tuple[int, int, bool]] = []
    if combat:
        arrows.append((combat["src"], combat["dst"], True))
    if last_move and not fight:
        if len(last_move) == 1:
            rings.append(last_move[0])
        else:
            arrows.append((last_move[0], last_move[1], len(last_move) == 3))
    attacked = tuple(dst for src, dst, attack in arrows if attack and src != dst)
    return Marks(tuple(highlight), tuple(rings), attacked, tuple(arrows))


def _draw_map(img: Canvas, v: dict[str, Any], shift: Shift,
              highlight: tuple[int, ...], last_move: tuple[int, ...] | None,
              spots: tuple[int, ...], lang: str) -> None:
    """Rings under the pieces, arrows over them, the owners' letters never covered."""
    marks = board_marks(v, highlight, last_move, spots)
    if marks.highlight:
        draw_highlights(img, marks.highlight, shift)
    for h in marks.spots:
        draw_spot(img, h, shift)
    for dst in marks.attacked:
        draw_attack_target(img, dst, shift)
    _draw_pieces(img, v, shift, lang)
    if not marks.arrows:
        return
    occupied = occupied_hexes(v)
    areas = []
    for src, dst, attack in marks.arrows:
        areas.append(draw_arrow(img, src, dst, attack, occupied, shift))
        if attack and src != dst:
            areas.append(draw_swords(img, dst, shift))
    _draw_badges(img, v, shift, lang, areas)


def _check_view(view: dict[str, Any]) -> None:
    if view.get("format") != VIEW_FORMAT:
        raise ValueError(f"unsupported view format {view.get('format')!r}")


def board_layout_of(view: dict[str, Any], highlight: tuple[int, ...] = (),
                    last_move: tuple[int, ...] | None = None, full: bool = False) -> Layout:
    """Where :func:`board_image` puts things for these arguments (tests, tools). While
    players place tiles the whole board is shown: the next tile may go anywhere next to
    the land."""
    extra = set(highlight) | set(check_last_move(last_move))
    combat = view.get("combat")
    if combat:
        extra |= {combat["src"], combat["dst"]}
    return board_layout(view["terrain"], extra, full or view.get("phase") == "tiles")


def _board_scene(view: dict[str, Any], highlight: tuple[int, ...],
                 last_move: tuple[int, ...] | None, full: bool,
                 lang: str) -> tuple[Layout, Scene]:
    """Where the board goes and the steps that draw its position over the background."""
    _check_view(view)
    for h in highlight:
        check_last_move((h,))
    lay = board_layout_of(view, highlight, last_move, full)
    scene = Scene(lay.size)
    _draw_map(scene, view, lay.shift, tuple(highlight), last_move, (), lang)
    panel.draw_dynamic(scene, view, lay.map_h, lang)
    return lay, scene


def _background(view: dict[str, Any], lay: Layout, lang: str) -> Background:
    """The board's background: its part of the map layer above the static panel."""
    layer = terrain_layer(tuple(view["terrain"]), palette(), view.get("phase") != "tiles")
    static = panel.static_panel(lay.width, lang)

    def whole() -> Image.Image:
        img = Image.new("RGB", lay.size)
        img.paste(layer.crop(lay.box).convert("RGB"), (0, 0))
        img.paste(static, (0, lay.map_h))
        return img

    def restore(img: Image.Image, box: Box) -> None:
        x0, y0, x1, y1 = box
        if y0 < lay.map_h:  # the map's part of the box
            bottom = min(y1, lay.map_h)
            part = layer.crop((lay.x0 + x0, lay.y0 + y0, lay.x0 + x1, lay.y0 + bottom))
            img.paste(part.convert("RGB"), (x0, y0))
        if y1 > lay.map_h:  # the panel's
            top = max(y0, lay.map_h)
            img.paste(static.crop((x0, top - lay.map_h, x1, y1 - lay.map_h)), (x0, top))

    return Background(lay.size, whole, restore)


#: Boards are drawn one at a time in a process. Threads drawing them at once (the bot with
#: ``workers=0``, as its tests run it) gave other pixels a few times in a hundred runs of
#: a test, and only on a loaded machine, although every cache they share is read-only
#: once made; the race was not found, so threads take turns. Worker processes (the
#: bot's default) still draw side by side.
_DRAWING = threading.RLock()


def board_image(view: dict[str, Any], highlight: tuple[int, ...] = (),
                last_move: tuple[int, ...] | None = None, *, full: bool = False,
                lang: str = DEFAULT_LANG) -> Image.Image:
    """The board as an RGB image (see :func:`render_board`), drawn whole."""
    with _DRAWING:
        lay, scene = _board_scene(view, highlight, last_move, full, lang)
        img = _background(view, lay, lang).whole()
        scene.draw_on(img)
        return img


def render_board(view: dict[str, Any], highlight: tuple[int, ...] = (),
                 last_move: tuple[int, ...] | None = None, *, full: bool = False,
                 lang: str = DEFAULT_LANG) -> bytes:
    """PNG of the board for a view (normally the public one, ``engine.view(state, None)``).

    The image shows the land and one ring of sea around it (and any highlighted or
    last-move hex beyond), with the panel below; ``full=True`` shows the whole board, as
    does every board while players place the map tiles.
    ``highlight``: hex ids to outline (legal targets). ``last_move``: ``(hex,)`` for a
    single hex that changed, ``(src, dst)`` for a move, ``(src, dst, ATTACK)`` for an
    attack (``ATTACK == 1``). An attack in progress (``view["combat"]``) is always drawn.
    ``lang``: the language of the words in the image (:mod:`render.words`).
    Only public fields are read, so any seat's view gives the same image as the
    spectator view.

    Drawn only where it differs from the last board this process drew on the same map,
    layout and language (:mod:`render.board_cache`): the same pixels and bytes as
    drawing it whole.
    """
    with _DRAWING:
        lay, scene = _board_scene(view, highlight, last_move, full, lang)
        pal = palette()
        key = (map_key(tuple(view["terrain"]), pal), lay, lang)
        return board_cache().png(key, scene, _background(view, lay, lang), pal)


def crop_image(view: dict[str, Any], hexes: tuple[int, ...], highlight: tuple[int, ...] = (),
               *, lang: str = DEFAULT_LANG) -> Image.Image:
    """The crop as an RGB image (see :func:`render_crop`)."""
    _check_view(view)
    for h in (*hexes, *highlight):
        check_last_move((h,))
    lay = crop_layout((*hexes, *highlight))
    with _DRAWING:
        layer = terrain_layer(tuple(view["terrain"]), palette(),
                              view.get("phase") != "tiles")
        img = layer.crop(lay.box).convert("RGB")
        _draw_map(img, view, lay.shift, tuple(highlight), None, tuple(hexes), lang)
        return img


def render_crop(view: dict[str, Any], hexes: tuple[int, ...], highlight: tuple[int, ...] = (),
                *, lang: str = DEFAULT_LANG) -> bytes:
    """PNG of a small part of the map for a private menu: the ``hexes`` the choice is
    about (ringed; e.g. the stack that moves or attacks), the ``highlight`` hexes (its
    legal targets, outlined) and one ring of hexes around them, without the panel. An
    attack in progress is drawn as on the board. Raises ValueError for a bad hex id or
    when both tuples are empty."""
    return to_png(crop_image(view, hexes, highlight, lang=lang), palette())


def crop_layout_of(hexes: tuple[int, ...], highlight: tuple[int, ...] = ()) -> Layout:
    """Where :func:`crop_image` puts things (tests, tools)."""
    return crop_layout((*hexes, *highlight))
