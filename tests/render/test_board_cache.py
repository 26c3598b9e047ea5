"""render.board_cache: a board drawn only where it changed since the game's last board is
the board drawn whole, pixel for pixel and byte for byte, over random games: the first
board of a game, the board after every kind of action, boards several actions apart,
a map that changes (tile placement), other languages and layouts, and a cache that
keeps nothing."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from engine import view
from engine.record import Record
from render import board, board_cache, panel
from render.board import board_layout_of, palette, render_board
from render.png_bands import BandedPng
from render.positions import last_move_of
from tests.render.helpers import game, open_png, states

Board = tuple[dict[str, Any], tuple[int, ...], tuple[int, ...] | None]


@pytest.fixture
def cache() -> Iterator[board_cache.BoardCache]:
    kept = board_cache.BoardCache(256 << 20)
    board_cache.set_board_cache(kept)
    yield kept
    board_cache.set_board_cache(None)


def drawn_directly(v: dict[str, Any], highlight: tuple[int, ...],
                   last: tuple[int, ...] | None, full: bool = False,
                   lang: str = "en") -> Image.Image:
    """The board as it was drawn before scenes: every piece, overlay and text straight
    onto the background image, then mapped to the palette."""
    lay = board_layout_of(v, highlight, last, full)
    img = board._background(v, lay, lang).whole()
    board._draw_map(img, v, lay.shift, tuple(highlight), last, (), lang)
    panel.draw_dynamic(img, v, lay.map_h, lang)
    return img.quantize(palette=palette(), dither=Image.Dither.NONE)


def drawn_whole(v: dict[str, Any], highlight: tuple[int, ...],
                last: tuple[int, ...] | None, full: bool = False, lang: str = "en") -> bytes:
    """The PNG of the board drawn whole (no board kept to start from)."""
    return BandedPng.encode(drawn_directly(v, highlight, last, full, lang)).png()


def check(png: bytes, v: dict[str, Any], highlight: tuple[int, ...],
          last: tuple[int, ...] | None, full: bool = False, lang: str = "en") -> None:
    expected = drawn_directly(v, highlight, last, full, lang)
    got = open_png(png)
    assert (got.mode, got.size) == ("P", expected.size)
    assert got.getpalette() == expected.getpalette()
    assert got.tobytes() == expected.tobytes(), "not the pixels of the whole drawing"
    whole = BandedPng.encode(expected)
    assert png == whole.png(), "not the bytes of the whole drawing: " + where_differ(png, whole)


def where_differ(png: bytes, whole: BandedPng) -> str:
    """Where two files of the same pixels part (a failure's clue: which chunk, and in the
    pixel data which band, or only the checksum)."""
    def chunks(data: bytes) -> dict[bytes, bytes]:
        out: dict[bytes, bytes] = {}
        at = 8
        while at < len(data):
            n = int.from_bytes(data[at:at + 4], "big")
            out[data[at + 4:at + 8]] = data[at + 8:at + 8 + n]
            at += 12 + n
        return out
    mine, theirs = chunks(png), chunks(whole.png())
    parts = [name.decode() for name in theirs if mine.get(name) != theirs[name]]
    idat, want = mine.get(b"IDAT", b""), theirs[b"IDAT"]
    first = next((i for i, (x, y) in enumerate(zip(idat, want)) if x != y),
                 min(len(idat), len(want)))
    band, end = -1, 2  # after the zlib header
    for k, data in enumerate(whole.bands):
        if first < end + len(data):
            band = k
            break
        end += len(data)
    return (f"chunks differing {parts}; IDAT {len(idat)} against {len(want)} bytes, first "
            f"difference at {first} (band {band} of {len(whole.bands)}; -1: the end)")


def overlay(record: Record, i: int) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    """The highlight and last move the bot shows after action ``i`` (the last overlay)."""
    last = None
    for _, action in reversed(record.moves[:i]):
        last = last_move_of(action)
        if last is not None:
            break
    return (tuple(last[:2]) if last else ()), last


def picks(record: Record, rng: random.Random, every: int = 9) -> list[int]:
    """Positions to draw, in order: before and after each of the first two actions of
    every kind (so every kind is drawn over the board just before it), and a random
    sample besides (boards several actions apart)."""
    seen: dict[str, int] = {}
    out = {0}
    for i, (_, action) in enumerate(record.moves, 1):
        kind = type(action).__name__
        seen[kind] = seen.get(kind, 0) + 1
        if seen[kind] <= 2:
            out |= {i - 1, i}
        elif rng.randrange(every) == 0:
            out.add(i)
    return sorted(out)


GAMES = [(3, 4, True), (4, 14, True), (5, 3, True), (3, 24, False)]


@pytest.mark.parametrize("players,seed,random_map", GAMES)
def test_a_game_drawn_where_it_changed_is_the_game_drawn_whole(
        cache: board_cache.BoardCache, players: int, seed: int, random_map: bool) -> None:
    record = game(players, seed, random_map)
    rng = random.Random(seed)
    wanted = picks(record, rng)
    by_step: dict[str, int] = {}
    before = 0
    for i, state in states(record):
        if i not in wanted:
            continue
        v = view(state, None)
        highlight, last = overlay(record, i)
        changed = cache.stats.changed + cache.stats.unchanged
        png = render_board(v, highlight, last)
        check(png, v, highlight, last)
        if i and i - 1 == before and cache.stats.changed + cache.stats.unchanged > changed:
            kind = type(record.moves[i - 1][1]).__name__
            by_step[kind] = by_step.get(kind, 0) + 1
        before = i
    kinds = {type(a).__name__ for _, a in record.moves} - {"PlaceTile"}  # a new map
    assert kinds <= by_step.keys(), "every kind of action drawn over the board before it"
    assert cache.stats.whole >= 1 and cache.stats.changed > len(wanted) // 2


def test_the_kinds_of_change_covered() -> None:
    """The games above hold fights (attack, defence, occupying, naming a city's
    terrain), growth, cities, progress, every card, and the tile placement."""
    kinds = {type(a).__name__ for p, s, r in GAMES for _, a in game(p, s, r).moves}
    assert {"Attack", "CommitAttackCards", "DefendCards", "Occupy", "NameCityTerrain",
            "MoveToken", "GrowToken", "BuildCity", "ProgressCards", "Discard", "EndTurn",
            "PlaySanitation", "PlayReligion", "PlayTransport", "PlayGovernment",
            "PlayHealthCare", "PlaceTile", "PlaceStartToken"} <= kinds


def test_boards_far_apart_out_of_order_and_in_other_shapes(
        cache: board_cache.BoardCache) -> None:
    """Any board may follow any other on the same map: the cache compares whatever it
    kept. Languages and the whole-map view keep boards of their own."""
    record = game(4, 5)
    positions = states(record, 7)
    rng = random.Random(7)
    for _ in range(30):
        i, state = rng.choice(positions)
        v = view(state, None)
        highlight, last = overlay(record, i)
        full = rng.random() < 0.2
        lang = rng.choice(["en", "pl"])
        check(render_board(v, highlight, last, full=full, lang=lang), v, highlight, last,
              full, lang)
    assert cache.stats.changed > 10


def test_the_same_board_again_is_the_same_file(cache: board_cache.BoardCache) -> None:
    record = game(3, 4)
    _, state = states(record, 50)[3]
    v = view(state, None)
    first = render_board(v, (40,), (40,))
    assert render_board(v, (40,), (40,)) == first
    assert cache.stats.unchanged == 1
    check(first, v, (40,), (40,))


def test_a_cache_that_keeps_nothing_draws_every_board_whole() -> None:
    tiny = board_cache.BoardCache(1000)
    board_cache.set_board_cache(tiny)
    try:
        record = game(3, 4)
        for i, state in states(record, 60):
            v = view(state, None)
            highlight, last = overlay(record, i)
            check(render_board(v, highlight, last), v, highlight, last)
        assert len(tiny) == 0 and tiny.stats.changed == 0 and tiny.stats.whole > 3
    finally:
        board_cache.set_board_cache(None)


def test_the_least_recently_used_board_goes_first() -> None:
    kept = board_cache.BoardCache(256 << 20)
    board_cache.set_board_cache(kept)
    try:
        views = [view(states(game(3, s), 1000)[0][1], None) for s in (1, 2, 3)]
        for v in views:
            render_board(v)
        one = kept.used_bytes / 3
        kept.max_bytes = int(2.5 * one)
        render_board(views[0])  # used: the oldest now is the second map's
        kept.max_bytes = int(2.5 * one)
        render_board(view(states(game(3, 4), 1000)[0][1], None))  # a fourth map
        assert len(kept) == 2 and kept.used_bytes <= kept.max_bytes
        whole = kept.stats.whole
        render_board(views[0])
        assert kept.stats.whole == whole, "the map used last was kept"
        render_board(views[1])
        assert kept.stats.whole == whole + 1, "the least recently used map was dropped"
    finally:
        board_cache.set_board_cache(None)


def test_threads_drawing_the_same_game_at_once(cache: board_cache.BoardCache) -> None:
    """The bot draws in threads when it has no worker processes: a thread takes the
    kept board it draws on, so two threads never patch the same one."""
    record = game(3, 4)
    boards: list[Board] = []
    for i, state in states(record, 3)[40:70]:
        highlight, last = overlay(record, i)
        boards.append((view(state, None), highlight, last))
    expected = [drawn_whole(*b) for b in boards]
    errors: list[str] = []

    def draw(offset: int) -> None:
        for k in range(len(boards)):
            j = (k + offset) % len(boards)
            png = render_board(*boards[j])
            if png != expected[j]:
                whole = BandedPng.encode(drawn_directly(*boards[j]))
                errors.append(f"board {j} in thread {offset}: {where_differ(png, whole)}")

    threads = [threading.Thread(target=draw, args=(n * 7,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
