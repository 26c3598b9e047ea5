"""The board image: map, pieces, overlays and the side panel, from a public view.

:func:`render_board` is what the bot calls (in a worker process or a thread). The map
layer is cached per map (keyed on the terrain tuple) and one 256-colour palette serves
every map; each call copies the cached layer, pastes cached piece sprites, draws the
panel text (from cached glyph masks) and encodes.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image

from engine.hexgrid import EDGE, NUM_HEXES, col_row
from engine.views import VIEW_FORMAT

from . import palette as P
from . import panel
from .encode import build_palette, to_png
from .geometry import IMAGE_SIZE, hex_centre, piece_centre
from .overlays import ATTACK, draw_arrow, draw_highlights, draw_last_move
from .sprites import chip, city, cube, hex_ring, spot_ring, stack_bonus, swords, token
from .terrain_layer import Terrain, terrain_layer

__all__ = ["ATTACK", "IMAGE_SIZE", "hex_centre", "piece_centre", "render_board",
           "board_image"]

MAX_SEATS = 5


@lru_cache(maxsize=16)
def base_layer(terrain: Terrain) -> Image.Image:
    """Map plus the static half of the panel. Cached: copy before drawing on it."""
    img = Image.new("RGB", IMAGE_SIZE)
    img.paste(terrain_layer(terrain), (0, 0))
    panel.draw_static(img)
    return img


def _piece_sheet() -> Image.Image:
    """Every piece sprite on one neutral sheet, to give them palette entries."""
    sprites = []
    for s in range(MAX_SEATS):
        sprites += [token(s, n) for n in (1, 2, 3, 4)]
        sprites += [city(s, v) for v in (2, 3, 4)]
        sprites += [chip(s, 12), chip(s, 9), cube(s)]
    sprites += [hex_ring(), hex_ring(P.ATTACK), spot_ring(), stack_bonus(1), swords()]
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
    """The 256 colours every board image is mapped to, the same for every map (so a new
    map during tile placement costs only its terrain layer)."""
    return build_palette(base_layer(_sample_terrain()), _piece_sheet(), P.key_colours())


def _draw_pieces(img: Image.Image, v: dict[str, Any]) -> None:
    owner, count = v["owner"], v["count"]
    city_owner, city_value, bonus = v["city_owner"], v["city_value"], v["bonus"]
    for h in range(NUM_HEXES):
        x, y = piece_centre(h)
        has_city = city_owner[h] >= 0
        has_tokens = owner[h] >= 0 and count[h] > 0
        if has_city and has_tokens:  # never happens under the rules; keep both visible
            city(city_owner[h], city_value[h]).paste_on(img, x - 13, y)
            token(owner[h], count[h]).paste_on(img, x + 13, y)
        elif has_city:
            city(city_owner[h], city_value[h]).paste_on(img, x, y)
        elif has_tokens:
            token(owner[h], count[h]).paste_on(img, x, y)
        if bonus[h] > 0:
            cx, cy = hex_centre(h)
            stack_bonus(bonus[h]).paste_on(img, cx + 16, cy + 18)


def board_image(view: dict[str, Any], highlight: tuple[int, ...] = (),
                last_move: tuple[int, ...] | None = None) -> Image.Image:
    """The board as an RGB image (see :func:`render_board`)."""
    if view.get("format") != VIEW_FORMAT:
        raise ValueError(f"unsupported view format {view.get('format')!r}")
    img = base_layer(tuple(view["terrain"])).copy()
    if highlight:
        draw_highlights(img, tuple(highlight))
    _draw_pieces(img, view)
    occupied = frozenset(h for h in range(NUM_HEXES)
                         if view["count"][h] > 0 or view["city_owner"][h] >= 0)
    combat = view.get("combat")
    if combat:
        draw_arrow(img, combat["src"], combat["dst"], True, occupied)
    if last_move:
        fight = combat and tuple(last_move[:2]) == (combat["src"], combat["dst"])
        if not fight:
            draw_last_move(img, tuple(last_move), occupied)
    panel.draw_dynamic(img, view)
    return img


def render_board(view: dict[str, Any], highlight: tuple[int, ...] = (),
                 last_move: tuple[int, ...] | None = None) -> bytes:
    """PNG of the board for a view (normally the public one, ``engine.view(state, None)``).

    ``highlight``: hex ids to outline (legal targets). ``last_move``: ``(hex,)`` for a
    single hex that changed, ``(src, dst)`` for a move, ``(src, dst, ATTACK)`` for an
    attack (``ATTACK == 1``). An attack in progress (``view["combat"]``) is always drawn.
    Only public fields are read, so any seat's view gives the same image as the
    spectator view.
    """
    img = board_image(view, highlight, last_move)
    return to_png(img, palette())
