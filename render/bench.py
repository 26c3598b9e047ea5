"""``python -m render bench``: how long a board render takes, as one JSON line.

A 5-player game is played by the engine's computer players to the middle of the game
(era 6) and that position is rendered repeatedly, with the legal move targets
highlighted and the last move's arrow. ``first_render_ms`` includes drawing the map
layer (no disk cache: drawn afresh) and the palette; the ``board_ms_*`` figures are what
every later move costs (compose + palette mapping + PNG encode), also broken down by
stage; ``hand_ms_p50`` is a hand image (the DM of a player's cards, 5 cards).
``label_px_at_550`` and ``panel_px_at_550``: how tall the hex labels and the
smallest panel text look when Discord shows the image 550 px wide (font pixel size x
550 / image width, from the sizes actually drawn).

``python -m render bench --maps 100``: boards of 100 different maps drawn round-robin
(what many games at once cost), first pass and steady state.
"""

from __future__ import annotations

import io
import json
import statistics
import time
from typing import Any

from PIL import Image

from engine import view

from . import layer_cache, panel
from .board import board_image, palette, render_board
from .encode import COMPRESS_LEVEL, to_png
from .fonts import recording
from .hand import render_hand
from .layout import label_px_at
from .positions import midgame, move_targets, recent_move
from .terrain_layer import LABEL_SIZE


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def bench(renders: int = 100, players: int = 5, seed: int = 11) -> dict[str, Any]:
    state, record = midgame(players, seed)
    v = view(state, None)
    highlight = move_targets(state)
    last = recent_move(record)
    layer_cache.set_layer_cache(layer_cache.LayerCache(None, 256 << 20))  # memory only
    palette.cache_clear()
    panel.static_panel.cache_clear()
    try:
        t0 = time.perf_counter()
        with recording() as drawn:
            png = render_board(v, highlight, last)
        first = (time.perf_counter() - t0) * 1000
        timings = _repeat(v, highlight, last, renders)
        hand_view = view(state, 0)
        hand_png = render_hand(hand_view)  # the palette made outside the timing
        hands = []
        for _ in range(renders):
            t0 = time.perf_counter()
            render_hand(hand_view)
            hands.append((time.perf_counter() - t0) * 1000)
    finally:
        layer_cache.set_layer_cache(None)
    width = Image.open(io.BytesIO(png)).size[0]
    total, compose, quant, encode = timings
    return {
        "players": players,
        "era": state.era_number,
        "actions_played": len(record.moves),
        "pieces": sum(c > 0 for c in v["count"]) + sum(o >= 0 for o in v["city_owner"]),
        "highlighted": len(highlight),
        "renders": renders,
        "first_render_ms": round(first, 1),
        "board_ms_p50": round(statistics.median(total), 2),
        "board_ms_p95": round(_pct(total, 0.95), 2),
        "compose_ms_p50": round(statistics.median(compose), 2),
        "quantize_ms_p50": round(statistics.median(quant), 2),
        "encode_ms_p50": round(statistics.median(encode), 2),
        "compress_level": COMPRESS_LEVEL,
        "png_bytes": len(png),
        "size": list(Image.open(io.BytesIO(png)).size),
        "hand_ms_p50": round(statistics.median(hands), 2),
        "hand_png_bytes": len(hand_png),
        "label_px_at_550": round(label_px_at(LABEL_SIZE, width), 2),
        "panel_px_at_550": round(label_px_at(min(size for _, size in drawn), width), 2),
    }


def _repeat(v: dict[str, Any], highlight: tuple[int, ...], last: tuple[int, ...] | None,
            renders: int) -> tuple[list[float], ...]:
    pal = palette()
    total, compose, quant, encode = [], [], [], []
    for _ in range(renders):
        t0 = time.perf_counter()
        render_board(v, highlight, last)
        total.append((time.perf_counter() - t0) * 1000)
        # the same work again, stage by stage
        t0 = time.perf_counter()
        img = board_image(v, highlight, last)
        t1 = time.perf_counter()
        p = img.quantize(palette=pal, dither=Image.Dither.NONE)
        t2 = time.perf_counter()
        to_png(p)
        t3 = time.perf_counter()
        compose.append((t1 - t0) * 1000)
        quant.append((t2 - t1) * 1000)
        encode.append((t3 - t2) * 1000)
    return total, compose, quant, encode


def main(renders: int = 100, players: int = 5, seed: int = 11, maps: int = 0) -> None:
    if maps:
        print(json.dumps(bench_maps(maps)))
    else:
        print(json.dumps(bench(renders, players, seed)))


def bench_maps(maps: int = 100, rounds: int = 3, players: int = 5) -> dict[str, Any]:
    """Boards of ``maps`` different maps drawn round-robin, ``rounds`` times over: what
    many games at once cost. ``first`` is the first pass (every map new to this process
    and to a fresh disk cache), ``steady`` the later passes; ``new_process_ms_p50`` is
    a pass after the memory cache was emptied (a new or restarted worker process: its
    layers come from the disk cache)."""
    import tempfile

    from engine import new_game

    views = [view(new_game(players, seed, random_map=True)[0], None) for seed in range(maps)]
    first: list[float] = []
    steady: list[float] = []
    fresh: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        cache = layer_cache.LayerCache.from_env({"TEMPUS_RENDER_CACHE": tmp})
        layer_cache.set_layer_cache(cache)
        try:
            for r in range(rounds):
                for v in views:
                    t0 = time.perf_counter()
                    render_board(v)
                    (first if r == 0 else steady).append((time.perf_counter() - t0) * 1000)
            cache.clear_memory()
            for v in views:
                t0 = time.perf_counter()
                render_board(v)
                fresh.append((time.perf_counter() - t0) * 1000)
        finally:
            layer_cache.set_layer_cache(None)
    return {
        "maps": maps,
        "rounds": rounds,
        "first_ms_p50": round(statistics.median(first), 1),
        "steady_ms_p50": round(statistics.median(steady), 2),
        "steady_ms_p95": round(_pct(steady, 0.95), 2),
        "new_process_ms_p50": round(statistics.median(fresh), 2),
        "memory_cache_mb": round(cache.used_bytes / (1 << 20), 1),
        "memory_cache_maps": len(cache),
        "total_s": round((sum(first) + sum(steady)) / 1000, 2),
    }
