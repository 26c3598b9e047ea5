"""Every sampled position of random 3-, 4- and 5-player games renders to a valid PNG."""

from __future__ import annotations

import pytest

from engine import view
from engine.record import Record
from render.board import FULL_MAP, board_layout_of, render_board
from render.hand import hand_size, render_hand
from render.positions import last_move_of, move_targets
from tests.render.helpers import game, open_png, states


@pytest.mark.parametrize("players,seed,every", [(3, 1, 3), (4, 2, 4), (5, 3, 5)])
def test_random_game_positions_render(players: int, seed: int, every: int) -> None:
    record = game(players, seed)
    positions = states(record, every)
    assert positions[-1][1].phase == "over"
    for i, state in positions:
        last = last_move_of(record.moves[i - 1][1]) if i else None
        targets = move_targets(state)
        png = render_board(view(state, None), targets, last)
        img = open_png(png)
        assert img.size == board_layout_of(view(state, None), targets, last).size, f"action {i}"
        assert img.format == "PNG"
        assert len(png) < 250_000
        seat = view(state, None)["decisions"][0]["seat"] if state.phase != "over" else 0
        own = view(state, seat)
        hand = open_png(render_hand(own))
        assert hand.size == hand_size(len(own["players"][seat]["hand"]),
                                      len(_notes(own, seat)))


def _notes(v: dict, seat: int) -> list[str]:
    from render.hand import _notes

    return _notes(v, seat)


def test_tile_placement_phase_renders() -> None:
    """R-SETUP-4: while players place tiles the map (and its cached layer) changes
    every move; the empty board and partial maps must draw too."""
    record: Record = game(3, 4, random_map=False)
    positions = [(i, s) for i, s in states(record) if s.phase == "tiles"]
    assert len(positions) >= 3
    for i, state in positions[:: max(1, len(positions) // 4)]:
        v = view(state, None)
        last = last_move_of(record.moves[i - 1][1]) if i else None
        img = open_png(render_board(v, (), last))
        assert img.size == board_layout_of(v, (), last).size
        assert img.size[0] <= FULL_MAP[0]


def test_last_move_forms() -> None:
    record = game(4, 2)
    state = states(record, 100)[1][1]
    v = view(state, None)
    plain = render_board(v)
    for last in [(30,), (30, 31), (30, 44, 1), (30, 110)]:
        assert render_board(v, (), last) != plain
    for bad in [(1, 2, 3, 4), (1, 2, 7), (999,), (-1, 3)]:
        with pytest.raises(ValueError):
            render_board(v, (), bad)
    with pytest.raises(ValueError):
        render_board(v, (500,))


def test_unknown_view_format_is_refused() -> None:
    state = states(game(3, 1), 1000)[0][1]
    v = view(state, None)
    v["format"] = 99
    with pytest.raises(ValueError):
        render_board(v)


def test_threads_render_the_same_bytes() -> None:
    """The bot may render in threads (asyncio.to_thread): shared caches stay consistent."""
    from concurrent.futures import ThreadPoolExecutor

    record = game(5, 3)
    views = [view(s, None) for _, s in states(record, 60)]
    expected = [render_board(v) for v in views]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(render_board, views * 3))
    assert got == expected * 3


def test_bytes_do_not_depend_on_cache_history() -> None:
    """The same view gives the same PNG whatever was drawn before (fresh caches, another
    map first): the palette is shared by all maps, never learnt from a position."""
    from render import board, layer_cache, panel

    a = view(states(game(4, 2), 1000)[1][1], None)
    b = view(states(game(5, 3), 1000)[1][1], None)
    first = render_board(a)
    board.palette.cache_clear()
    panel.static_panel.cache_clear()
    layer_cache.layer_cache().clear_memory()  # the layer comes back from disk
    render_board(b)
    assert render_board(a) == first
    layer_cache.set_layer_cache(layer_cache.LayerCache(None, 1))  # drawn afresh, no disk
    try:
        board.palette.cache_clear()
        assert render_board(a) == first
    finally:
        layer_cache.set_layer_cache(None)
