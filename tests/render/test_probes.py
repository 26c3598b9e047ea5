"""Pixel probes: terrain colours where the terrain is, player colours where the pieces are.

The probes draw the whole board (``full=True``), whose map part has whole-map pixel
positions, so :func:`render.geometry.hex_centre` finds each hex in the image."""

from __future__ import annotations

from collections import Counter

from PIL import Image

from engine import view
from engine.hexgrid import NUM_HEXES, parse_label
from render import palette as P
from render.board import FULL_MAP, board_image, hex_centre, render_board
from render.geometry import HEX_W, R, hex_at_pixel, label_centre, piece_centre, token_swatch
from render.terrain_art import LAKE, OPEN_SEA, fill_of
from render.terrain_layer import hex_kinds
from tests.render.helpers import close, open_png, quiet_state, rgb_at


def _dominant(img: Image.Image, h: int) -> tuple[int, int, int]:
    """Most common colour in a box around the hex centre."""
    x, y = hex_centre(h)
    box = img.convert("RGB").crop((round(x - 0.4 * R), round(y - 0.3 * R),
                                   round(x + 0.4 * R), round(y + 0.5 * R)))
    colour, _ = Counter(box.getdata()).most_common(1)[0]
    return colour


def test_terrain_fill_at_hex_centres() -> None:
    state = quiet_state()
    img = open_png(render_board(view(state, None), full=True))
    kinds = hex_kinds(tuple(state.terrain))
    seen = set()
    for h in range(NUM_HEXES):
        assert close(_dominant(img, h), fill_of(kinds[h])), (h, kinds[h])
        seen.add(kinds[h])
    assert {"G", "F", "W", "H", "M", OPEN_SEA} <= seen


def test_lake_differs_from_open_sea() -> None:
    """A lake (R-MOVE-6) is drawn in its own colour and pattern, not as open sea."""
    state = quiet_state()
    ter = list(state.terrain)
    # carve a lake: a land hex with all six neighbours land becomes enclosed water
    from engine.hexgrid import NEIGHBOURS

    inner = next(h for h in range(NUM_HEXES) if ter[h] is not None and len(NEIGHBOURS[h]) == 6
                 and all(ter[n] is not None for n in NEIGHBOURS[h]))
    ter[inner] = None
    state.terrain = ter
    kinds = hex_kinds(tuple(ter))
    assert kinds[inner] == LAKE
    img = open_png(render_board(view(state, None), full=True))
    assert close(_dominant(img, inner), P.LAKE)
    assert not close(P.LAKE, P.SEA, 40)


def test_terrains_differ_in_greyscale() -> None:
    """Readable without colour: fills differ in lightness (patterns differ as well)."""
    def grey(c: tuple[int, int, int]) -> float:
        return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]

    greys = sorted(grey(fill_of(k)) for k in ("G", "F", "W", "H", "M", LAKE, OPEN_SEA))
    assert all(b - a >= 4 for a, b in zip(greys, greys[1:])), greys


def test_red_tokens_show_red_at_the_token() -> None:
    state = quiet_state()
    land = [h for h in range(NUM_HEXES) if state.terrain[h] is not None]
    red, blue = land[0], land[5]
    state.owner[red], state.count[red] = 0, 3
    state.owner[blue], state.count[blue] = 1, 1
    img = open_png(render_board(view(state, None), full=True))
    assert close(rgb_at(img, token_swatch(red)), P.player_rgb(0))
    assert close(rgb_at(img, token_swatch(blue)), P.player_rgb(1))
    assert P.PLAYER_RGB["Red"] == P.player_rgb(0)
    # an empty hex shows no player colour there
    empty = land[10]
    assert not close(rgb_at(img, token_swatch(empty)), P.player_rgb(0), 30)


def test_city_shows_owner_colour() -> None:
    state = quiet_state()
    h = next(h for h in range(NUM_HEXES) if state.terrain[h] == "G")
    state.city_owner[h], state.city_value[h] = 2, 4
    img = open_png(render_board(view(state, None), full=True))
    x, y = piece_centre(h)
    assert close(rgb_at(img, (x - 11, y + 7)), P.player_rgb(2))


def test_highlight_outlines_the_hex() -> None:
    state = quiet_state()
    h = parse_label("F6")
    v = view(state, None)
    plain = board_image(v, full=True)
    lit = board_image(v, highlight=(h,), full=True)
    x, y = hex_centre(h)
    edge = (x, y + R - 5.5)  # on the ring, just inside the bottom corner
    assert close(rgb_at(lit, edge), P.HIGHLIGHT, 30)
    assert not close(rgb_at(plain, edge), P.HIGHLIGHT, 30)
    assert rgb_at(lit, (x, y)) == rgb_at(plain, (x, y))


def test_geometry_helpers() -> None:
    assert FULL_MAP[0] < FULL_MAP[1] * 1.3  # the map alone is about square
    a, b = hex_centre(parse_label("A1")), hex_centre(parse_label("B1"))
    assert abs((b[0] - a[0]) - HEX_W) < 1e-9 and a[1] == b[1]
    c = hex_centre(parse_label("A2"))  # odd rows shift half a hex right
    assert abs(c[0] - a[0] - HEX_W / 2) < 1e-9
    for h in range(NUM_HEXES):
        x, y = hex_centre(h)
        assert 0 < x < FULL_MAP[0] and 0 < y < FULL_MAP[1]
        assert hex_at_pixel(x, y) == h
        assert hex_at_pixel(*label_centre(h)) == h
        assert hex_at_pixel(*token_swatch(h)) == h
    assert hex_at_pixel(FULL_MAP[0] - 3, 3) is None
