"""A board a phone can read: the image shows the land, its text is big enough at 550 px.

The measure: font pixel height x 550 / image width must be at least 9 for the
hex labels and for every text of the panel, where the sizes are the ones actually drawn
(recorded while drawing) and the width is the rendered image's.
"""

from __future__ import annotations

import re

import pytest
from PIL import ImageDraw

from engine import view
from engine.hexgrid import NEIGHBOURS, NUM_HEXES, label
from render import panel
from render.board import FULL_MAP, board_image, board_layout_of, crop_image, render_crop
from render.fonts import recording
from render.geometry import HEX_W, R, hex_centre
from render.layout import DISPLAY_W, MIN_W, label_px_at, land_region
from render.overlays import ATTACK
from render.sprites import BADGE_R, CITY_BADGE, TOKEN_BADGE
from render.terrain_layer import draw_terrain_layer
from tests.render.helpers import game, open_png, quiet_state, states

LABEL = re.compile(r"^[A-M](1[0-2]|[1-9])$")


def _midgame(players: int, seed: int):
    """A position in the action phase, about half way through a random game."""
    positions = [s for _, s in states(game(players, seed), 7) if s.phase == "actions"]
    return positions[len(positions) // 2]


def _label_sizes(terrain) -> set[int]:
    """Font pixel sizes of the hex labels, recorded while drawing the map layer."""
    sizes: set[int] = set()
    original = ImageDraw.ImageDraw.text

    def spy(self, xy, text, *args, **kwargs):  # type: ignore[no-untyped-def]
        if isinstance(text, str) and LABEL.match(text):
            sizes.add(kwargs["font"].size)
        return original(self, xy, text, *args, **kwargs)

    ImageDraw.ImageDraw.text = spy  # type: ignore[method-assign]
    try:
        draw_terrain_layer(tuple(terrain))
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]
    return sizes


def _panel_sizes(v: dict, **kwargs) -> tuple[int, list[tuple[str, int]]]:
    """Width of the board image and every panel text drawn, with its pixel size."""
    panel.static_panel.cache_clear()  # so the static half is drawn (and recorded) too
    with recording() as drawn:
        img = board_image(v, **kwargs)
    return img.size[0], drawn


@pytest.mark.parametrize("players,seed", [(3, 1), (4, 2), (5, 3)])
def test_text_is_9px_at_550_wide(players: int, seed: int) -> None:
    state = _midgame(players, seed)
    v = view(state, None)
    for full in (False, True):
        width, drawn = _panel_sizes(v, full=full)
        assert width >= MIN_W
        labels = _label_sizes(v["terrain"])
        assert labels, "no hex label drawn"
        assert min(labels) * DISPLAY_W / width >= 9, (players, full, labels, width)
        assert label_px_at(min(labels), width) >= 9
        texts = [t for t, _ in drawn]
        assert any("3" in t or "1" in t for t in texts) and len(drawn) > 40
        smallest = min(size for _, size in drawn)
        assert smallest * DISPLAY_W / width >= 9, (players, full, smallest, width)


def test_board_shows_the_land_and_one_ring_of_sea() -> None:
    for players, seed in ((3, 1), (4, 2), (5, 3)):
        v = view(_midgame(players, seed), None)
        lay = board_layout_of(v)
        land = [h for h in range(NUM_HEXES) if v["terrain"][h] is not None]
        ring = land_region(v["terrain"])
        for h in ring:  # every placed tile and the sea around it is wholly in the image
            x, y = lay.hex_centre(h)
            assert x + 1 >= HEX_W / 2 and x + HEX_W / 2 <= lay.width + 1, label(h)
            assert y + 1 >= R and y + R <= lay.map_h + 1, label(h)
        assert set(NEIGHBOURS[land[0]]) <= ring
        full = board_layout_of(v, full=True)
        assert (full.x0, full.y0, full.width, full.map_h) == (0, 0, *FULL_MAP)
        assert lay.width <= full.width and lay.map_h <= full.map_h


def _island(centre: str = "D5", rings: int = 1) -> dict:
    """A public view whose only land is the hexes within ``rings`` steps of ``centre``."""
    from engine.hexgrid import parse_label

    state = quiet_state()
    keep = {parse_label(centre)}
    for _ in range(rings):
        keep |= {n for h in keep for n in NEIGHBOURS[h]}
    state.terrain = [t if h in keep else None for h, t in enumerate(state.terrain)]
    state.terrain = [t or "G" if h in keep else None for h, t in enumerate(state.terrain)]
    return view(state, None)


def test_small_map_gives_a_smaller_image_and_the_full_board_stays_available() -> None:
    v = _island()
    part = board_image(v)
    whole = board_image(v, full=True)
    assert whole.size[0] == FULL_MAP[0]
    assert part.size[0] == MIN_W and part.size[1] < whole.size[1]
    # the panel scales with the width: the same design, so the same size on a display
    assert (part.size[1] - board_layout_of(v).map_h) * FULL_MAP[0] == \
        pytest.approx((whole.size[1] - FULL_MAP[1]) * MIN_W, abs=FULL_MAP[0])


def test_highlight_or_move_outside_the_land_widens_the_view() -> None:
    v = _island()
    ring = land_region(v["terrain"])
    far = max((h for h in range(NUM_HEXES) if h not in ring),
              key=lambda h: min(abs(hex_centre(h)[0] - hex_centre(r)[0]) +
                                abs(hex_centre(h)[1] - hex_centre(r)[1]) for r in ring))
    assert not board_layout_of(v).shows(far)
    assert board_layout_of(v, (far,)).shows(far)
    inside = next(iter(ring))
    assert board_layout_of(v, (), (inside, far)).shows(far)
    assert board_layout_of(v, (), (inside, far, ATTACK)).shows(far)


def test_empty_map_shows_the_whole_board() -> None:
    record = game(3, 4, random_map=False)
    first = states(record)[0][1]
    assert all(t is None for t in first.terrain)
    assert board_image(view(first, None)).size[0] == FULL_MAP[0]


def test_crop_covers_its_hexes_and_a_ring() -> None:
    state = _midgame(4, 2)
    v = view(state, None)
    src = next(h for h in range(NUM_HEXES) if v["count"][h] > 0)
    targets = tuple(n for n in NEIGHBOURS[src] if v["terrain"][n] is not None)[:3]
    img = open_png(render_crop(v, (src,), targets))
    from render.board import crop_layout_of

    lay = crop_layout_of((src,), targets)
    assert img.size == lay.size and lay.panel_h == 0
    for h in {src, *targets} | set(NEIGHBOURS[src]):
        assert lay.shows(h), label(h)
    assert img.size[0] < FULL_MAP[0] / 2
    with pytest.raises(ValueError):
        render_crop(v, (), ())
    with pytest.raises(ValueError):
        render_crop(v, (999,), ())


def _badge_pixels(img, xy: tuple[float, float]) -> list[tuple[int, int, int]]:
    x, y = xy
    r = int(BADGE_R) - 1
    return [img.getpixel((round(x) + dx, round(y) + dy))
            for dx in range(-r, r + 1) for dy in range(-r, r + 1) if dx * dx + dy * dy <= r * r]


def test_outlines_and_arrows_never_hide_the_owners_letter() -> None:
    """Highlight rings, last-move rings and arrows, attack rings and swords: the owner's
    letter on a stack or city is drawn over all of them."""
    state = quiet_state()
    land = [h for h in range(NUM_HEXES) if state.terrain[h] is not None
            and all(state.terrain[n] is not None for n in NEIGHBOURS[h])]
    a = land[len(land) // 2]
    # pieces on a and on every neighbour: arrows from a pass by the neighbours' letters
    b = NEIGHBOURS[a][0]
    state.owner[a], state.count[a] = 0, 3
    for k, n in enumerate(NEIGHBOURS[a]):
        if k % 2:
            state.city_owner[n], state.city_value[n] = 1, 3
        else:
            state.owner[n], state.count[n] = 2, 2
    v = view(state, None)
    plain = board_image(v, full=True)
    places = {a: TOKEN_BADGE}
    for k, n in enumerate(NEIGHBOURS[a]):
        places[n] = CITY_BADGE if k % 2 else TOKEN_BADGE
    from render.geometry import piece_centre

    for extra in [dict(highlight=tuple(places)), dict(last_move=(a,)),
                  *[dict(last_move=(a, n)) for n in NEIGHBOURS[a]],
                  *[dict(last_move=(n, a, ATTACK)) for n in NEIGHBOURS[a]],
                  dict(highlight=tuple(places), last_move=(a, b, ATTACK))]:
        lit = board_image(v, full=True, **extra)
        assert lit.tobytes() != plain.tobytes(), extra
        for h, (dx, dy) in places.items():
            x, y = piece_centre(h)
            spot = (x + dx, y + dy)
            assert _badge_pixels(lit, spot) == _badge_pixels(plain, spot), (extra, label(h))
    # the same in a crop (compared with the plain whole board, shifted)
    from render.board import crop_layout_of

    crop = crop_image(v, (a,), tuple(NEIGHBOURS[a]))
    lay = crop_layout_of((a,), tuple(NEIGHBOURS[a]))
    for h, (dx, dy) in places.items():
        x, y = piece_centre(h)
        assert _badge_pixels(crop, (x + dx - lay.x0, y + dy - lay.y0)) == \
            _badge_pixels(plain, (x + dx, y + dy)), label(h)
