"""``python -m render bench``: how long a board render takes, as one JSON line.

A 5-player game is played by the engine's computer players to the middle of the game
(era 6). ``board_ms_*`` is what a game's board costs as the bot draws them: the positions
after each of the game's last ``--renders`` actions, in order, each with its action's
overlay (the move's arrow, its hexes outlined), drawn by :func:`render.board.render_board`
in one process; each board after the first is drawn only where it differs from the one
before (:mod:`render.board_cache`). ``board_cpu_ms_p50`` is the same in the thread's CPU
time (steadier than the wall clock on a shared machine; ``whole_cpu_ms_p50`` likewise).
``every_2nd_ms_p50``: every other position only, as each of two render workers sees a
game's boards.
``whole_ms_*``: each position drawn whole, as a game's first board in a process (nothing
kept for its map) is; ``compose_ms_p50``, ``quantize_ms_p50`` and ``encode_ms_p50`` break
that down. ``changed_px_mean`` and ``bands_mean``: how much of a board was drawn again,
in pixels and in bands of rows compressed again.

``first_render_ms`` includes drawing the map layer (no disk cache: drawn afresh) and the
palette; ``hand_ms_p50`` is a hand image (the DM of a player's cards, 5 cards).
``label_px_at_550`` and ``panel_px_at_550``: how tall the hex labels and the smallest
panel text look when Discord shows the image 550 px wide (font pixel size x 550 / image
width, from the sizes actually drawn).

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
from engine.game import apply_in_place

from . import board_cache, layer_cache, panel
from .board import board_image, palette, render_board
from .encode import COMPRESS_LEVEL
from .fonts import recording
from .hand import render_hand
from .layout import label_px_at
from .png_bands import BandedPng
from .positions import last_move_of, midgame, move_targets, recent_move
from .terrain_layer import LABEL_SIZE

Board = tuple[dict[str, Any], tuple[int, ...], tuple[int, ...] | None]


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def _ms(values: list[float], q: float | None = None) -> float:
    return round(statistics.median(values) if q is None else _pct(values, q), 2)


def game_boards(players: int = 5, seed: int = 11, count: int = 100) -> list[Board]:
    """The boards of the midgame's last ``count`` actions, in order: the public view
    after each action, its hexes outlined and its overlay (the last overlay when the
    action has none, as the bot shows it)."""
    _, record = midgame(players, seed)
    state, _ = record.new_state()
    out: list[Board] = []
    last: tuple[int, ...] | None = None
    start = max(0, len(record.moves) - count)
    for i, (seat, action) in enumerate(record.moves):
        apply_in_place(state, seat, action)
        last = last_move_of(action) or last
        if i >= start:
            out.append((view(state, None), tuple(last[:2]) if last else (), last))
    return out


def bench(renders: int = 100, players: int = 5, seed: int = 11) -> dict[str, Any]:
    state, record = midgame(players, seed)
    v = view(state, None)
    highlight = move_targets(state)
    last = recent_move(record)
    boards = game_boards(players, seed, renders)
    layer_cache.set_layer_cache(layer_cache.LayerCache(None, 256 << 20))  # memory only
    cache = board_cache.BoardCache(256 << 20)
    board_cache.set_board_cache(cache)
    palette.cache_clear()
    panel.static_panel.cache_clear()
    try:
        t0 = time.perf_counter()
        with recording() as drawn:
            png = render_board(v, highlight, last)
        first = (time.perf_counter() - t0) * 1000
        cache.clear()
        wall, cpu = _sequence(boards, cache)
        every_2nd, _ = _sequence(boards[::2], cache)
        stats = _drawn_again(boards, cache)
        whole, whole_cpu, compose, quant, encode = _whole(boards, cache)
        hand_view = view(state, 0)
        hand_png = render_hand(hand_view)  # the palette made outside the timing
        hands = []
        for _ in range(renders):
            t0 = time.perf_counter()
            render_hand(hand_view)
            hands.append((time.perf_counter() - t0) * 1000)
    finally:
        layer_cache.set_layer_cache(None)
        board_cache.set_board_cache(None)
    width = Image.open(io.BytesIO(png)).size[0]
    return {
        "players": players,
        "era": state.era_number,
        "actions_played": len(record.moves),
        "pieces": sum(c > 0 for c in v["count"]) + sum(o >= 0 for o in v["city_owner"]),
        "highlighted": len(highlight),
        "renders": len(boards),
        "first_render_ms": round(first, 1),
        "board_ms_p50": _ms(wall),
        "board_ms_p95": _ms(wall, .95),
        "board_cpu_ms_p50": _ms(cpu),
        "every_2nd_ms_p50": _ms(every_2nd),
        "whole_ms_p50": _ms(whole),
        "whole_ms_p95": _ms(whole, .95),
        "whole_cpu_ms_p50": _ms(whole_cpu),
        "compose_ms_p50": _ms(compose),
        "quantize_ms_p50": _ms(quant),
        "encode_ms_p50": _ms(encode),
        **stats,
        "compress_level": COMPRESS_LEVEL,
        "png_bytes": len(png),
        "size": list(Image.open(io.BytesIO(png)).size),
        "hand_ms_p50": round(statistics.median(hands), 2),
        "hand_png_bytes": len(hand_png),
        "label_px_at_550": round(label_px_at(LABEL_SIZE, width), 2),
        "panel_px_at_550": round(label_px_at(min(size for _, size in drawn), width), 2),
    }


def _sequence(boards: list[Board], cache: board_cache.BoardCache
              ) -> tuple[list[float], list[float]]:
    """Wall and CPU ms of each board after the first, drawn in order over the one before."""
    cache.clear()
    wall, cpu = [], []
    for k, (v, highlight, last) in enumerate(boards):
        t0, c0 = time.perf_counter(), time.thread_time()
        render_board(v, highlight, last)
        if k:
            wall.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.thread_time() - c0) * 1000)
    return wall, cpu


def _drawn_again(boards: list[Board], cache: board_cache.BoardCache) -> dict[str, float]:
    cache.clear()
    before = board_cache.Stats(**vars(cache.stats))
    for v, highlight, last in boards:
        render_board(v, highlight, last)
    changed = max(1, cache.stats.changed - before.changed)
    return {"changed_px_mean": round((cache.stats.changed_px - before.changed_px) / changed),
            "bands_mean": round((cache.stats.bands - before.bands) / changed, 1)}


def _whole(boards: list[Board], cache: board_cache.BoardCache) -> tuple[list[float], ...]:
    """Each board drawn whole (nothing kept), and the same work again stage by stage."""
    pal = palette()
    whole, cpu, compose, quant, encode = [], [], [], [], []
    for v, highlight, last in boards:
        cache.clear()
        t0, c0 = time.perf_counter(), time.thread_time()
        render_board(v, highlight, last)
        whole.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.thread_time() - c0) * 1000)
        t0 = time.perf_counter()
        img = board_image(v, highlight, last)
        t1 = time.perf_counter()
        p = img.quantize(palette=pal, dither=Image.Dither.NONE)
        t2 = time.perf_counter()
        BandedPng.encode(p).png()
        t3 = time.perf_counter()
        compose.append((t1 - t0) * 1000)
        quant.append((t2 - t1) * 1000)
        encode.append((t3 - t2) * 1000)
    return whole, cpu, compose, quant, encode


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
