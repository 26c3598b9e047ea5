"""``python -m render bench``: how long a board render takes, as one JSON line.

A 5-player random game is played and its busiest position (most pieces on the board) is
rendered repeatedly with a highlight and a last-move arrow. ``first_render_ms`` includes
drawing and caching the map layer and palette; the ``board_ms_*`` figures are what every
later move costs (compose + palette mapping + PNG encode), broken down as well.
"""

from __future__ import annotations

import json
import statistics
import time
from typing import Any

from PIL import Image

from engine import view
from engine.game import apply_in_place
from engine.hexgrid import NEIGHBOURS
from engine.simulate import play_game

from .board import board_image, palette_for, render_board
from .encode import COMPRESS_LEVEL, to_png
from .replay import last_move_of


def busiest_position(players: int = 5, seed: int = 11) -> tuple[dict[str, Any], tuple[int, ...],
                                                                tuple[int, ...] | None]:
    """(public view, highlight, last_move) at the position with the most pieces."""
    _, record = play_game(players, seed)
    state, _ = record.new_state()
    best, best_n, best_i = state.copy(), -1, 0
    for i, (seat, action) in enumerate(record.moves):
        apply_in_place(state, seat, action)
        n = sum(c > 0 for c in state.count) + sum(o >= 0 for o in state.city_owner)
        if n > best_n and state.phase == "actions":
            best, best_n, best_i = state.copy(), n, i
    v = view(best, None)
    mine = [h for h, o in enumerate(best.owner) if o == best.turn]
    targets = sorted({n for h in mine for n in NEIGHBOURS[h] if best.terrain[n] is not None})
    last = last_move_of(record.moves[best_i][1]) or (mine[0],) if mine else None
    return v, tuple(targets), last


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def bench(renders: int = 100, players: int = 5, seed: int = 11) -> dict[str, Any]:
    v, highlight, last = busiest_position(players, seed)
    t0 = time.perf_counter()
    png = render_board(v, highlight, last)
    first = (time.perf_counter() - t0) * 1000
    total, compose, quant, encode = [], [], [], []
    pal = palette_for(tuple(v["terrain"]))
    for _ in range(renders):
        t0 = time.perf_counter()
        png = render_board(v, highlight, last)
        total.append((time.perf_counter() - t0) * 1000)
        # the same work in its three stages
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
    return {
        "players": players,
        "renders": renders,
        "pieces": sum(c > 0 for c in v["count"]) + sum(o >= 0 for o in v["city_owner"]),
        "first_render_ms": round(first, 1),
        "board_ms_p50": round(statistics.median(total), 2),
        "board_ms_p95": round(_pct(total, 0.95), 2),
        "compose_ms_p50": round(statistics.median(compose), 2),
        "quantize_ms_p50": round(statistics.median(quant), 2),
        "encode_ms_p50": round(statistics.median(encode), 2),
        "compress_level": COMPRESS_LEVEL,
        "png_bytes": len(png),
        "size": list(Image.open(__import__("io").BytesIO(png)).size),
    }


def main(renders: int = 100, players: int = 5, seed: int = 11) -> None:
    print(json.dumps(bench(renders, players, seed)))
