"""Positions for render tests: random legal games (fast) and hand-edited states."""

from __future__ import annotations

import io
from functools import cache

from PIL import Image

from engine.game import apply_in_place
from engine.record import Record
from engine.setup import new_game
from engine.simulate import play_game
from engine.state import State

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@cache
def game(players: int, seed: int, random_map: bool = True) -> Record:
    """The record of a random legal game (cached: several tests walk the same game)."""
    _, record = play_game(players, seed, random_map=random_map)
    return record


def states(record: Record, every: int = 1) -> list[tuple[int, State]]:
    """``(actions applied, state)`` for every ``every``-th position and the final one."""
    state, _ = record.new_state()
    out = [(0, state.copy())]
    for i, (seat, action) in enumerate(record.moves, 1):
        apply_in_place(state, seat, action)
        if i % every == 0 or i == len(record.moves):
            out.append((i, state.copy()))
    return out


def open_png(data: bytes) -> Image.Image:
    assert data[:8] == PNG_SIGNATURE
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def quiet_state(players: int = 4, seed: int = 3) -> State:
    """A fresh game on a random map, pieces removed, in the action phase."""
    state, _ = new_game(players, seed, random_map=True)
    state.owner = [-1] * len(state.owner)
    state.count = [0] * len(state.count)
    state.phase = "actions"
    return state


def rgb_at(img: Image.Image, xy: tuple[float, float]) -> tuple[int, int, int]:
    px = img.convert("RGB").getpixel((round(xy[0]), round(xy[1])))
    assert isinstance(px, tuple)
    return px[0], px[1], px[2]


def close(a: tuple[int, ...], b: tuple[int, ...], tol: int = 12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))
