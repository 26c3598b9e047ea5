"""Group commit on SQLite (bot/store/group_commit.py): writes that wait for the
connection's thread together share one transaction and one fsync, each in a savepoint;
each is answered only after the commit, fails alone when it fails alone, and never
overtakes a job queued before it."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from bot.operator.check_db import check_game
from bot.store import ACTIVE, VersionConflict
from bot.store.errors import StorageUnavailable
from bot.store.sqlite import SqliteStorage
from engine.game import apply_in_place, decisions
from engine.record import Record
from engine.simulate import random_action

OPTIONS = {"seed": 1, "random_map": True}


def trace(steps: int) -> tuple[dict[str, Any], list[tuple[int, dict[str, Any], dict[str, Any]]]]:
    """The start of the game ``OPTIONS`` set up and ``steps`` (seat, action, snapshot
    after) of random play."""
    rng = random.Random(1)
    state, _ = Record.from_stored(OPTIONS, 3).new_state()
    start, out = state.to_json(), []
    for _ in range(steps):
        seat = rng.choice(decisions(state)).seat
        action = random_action(state, seat, rng)
        apply_in_place(state, seat, action)
        out.append((seat, action.to_json(), state.to_json()))
    return start, out


def _trace_statements(store: SqliteStorage, into: list[str]) -> asyncio.Future[None]:
    def note(sql: str) -> None:
        if not sql.startswith(("PRAGMA", "--")):
            into.append(" ".join(sql.split()[:2]))
    return store._on_thread(lambda conn: conn.set_trace_callback(note))


async def _hold_thread(store: SqliteStorage) -> tuple[threading.Event, asyncio.Task[None]]:
    """A job that keeps the connection's thread busy until the event is set (so that
    the writes made meanwhile wait for it together)."""
    go = threading.Event()
    held = asyncio.ensure_future(store._on_thread(lambda conn: go.wait(5) and None))
    await asyncio.sleep(0)  # queued
    return go, held


@pytest.mark.asyncio
async def test_writes_waiting_together_are_one_transaction_and_the_replay_matches(
        tmp_path: Path) -> None:
    """Three games' actions made while the thread is busy: one BEGIN and one COMMIT
    (one fsync) for all of them, every action answered with its version, and every
    game's stored snapshot equals the replay of its stored log."""
    path = str(tmp_path / "t.db")
    store = await SqliteStorage.open(path)
    try:
        start, steps = trace(6)
        games = []
        for i in range(3):
            g = await store.create_game(1, 10 + i, 100, "Ann", {})
            v = await store.add_seat(g.id, g.version, 101, None, "Bob")
            v = await store.add_seat(g.id, v, 102, None, "Cy")
            v = await store.start(g.id, v, OPTIONS, start)
            games.append([g.id, v])
        statements: list[str] = []
        await _trace_statements(store, statements)
        for seq, (seat, action, state) in enumerate(steps):
            statements.clear()
            go, held = await _hold_thread(store)
            writes = [asyncio.ensure_future(store.append_action(
                gid, v, seq, seat, action, state, ACTIVE)) for gid, v in games]
            await asyncio.sleep(0.05)
            assert not any(w.done() for w in writes), "answered only after the commit"
            go.set()
            await held
            for g, w in zip(games, writes, strict=True):
                assert await w == g[1] + 1
                g[1] += 1
            assert statements.count("BEGIN IMMEDIATE") == 1
            assert statements.count("COMMIT") == 1
            assert statements.count("SAVEPOINT write") == 3
        for gid, _ in games:
            ref = await store.game_ref(gid)
            assert ref is not None
            report = await check_game(store, ref, ACTIVE)
            assert report.problems == []
    finally:
        await store.close()
    other = sqlite3.connect(path)
    try:
        assert other.execute("SELECT count(*) FROM actions").fetchone()[0] == 3 * 6
    finally:
        other.close()


@pytest.mark.asyncio
async def test_a_write_that_fails_in_a_batch_fails_alone() -> None:
    store = await SqliteStorage.open(":memory:")
    try:
        a = await store.create_game(1, 10, 100, "Ann", {})
        b = await store.create_game(1, 11, 100, "Ann", {})
        go, held = await _hold_thread(store)
        first = asyncio.ensure_future(store.add_seat(a.id, a.version, 101, None, "Bob"))
        stale = asyncio.ensure_future(store.add_seat(b.id, b.version - 1, 102, None, "Cy"))
        last = asyncio.ensure_future(store.add_seat(b.id, b.version, 103, None, "Di"))
        await asyncio.sleep(0)
        go.set()
        await held
        assert await first == a.version + 1
        with pytest.raises(VersionConflict):
            await stale
        assert await last == b.version + 1
        assert [s.name for s in await store.seats(b.id)] == ["Ann", "Di"]
        assert [s.name for s in await store.seats(a.id)] == ["Ann", "Bob"]
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_a_failed_commit_fails_every_write_of_the_batch_and_keeps_none(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = await SqliteStorage.open(str(tmp_path / "t.db"))
    try:
        a = await store.create_game(1, 10, 100, "Ann", {})
        b = await store.create_game(1, 11, 100, "Ann", {})
        go, held = await _hold_thread(store)
        calls = 0
        real = store._check_file

        def check() -> None:  # the file is gone by the time of the commit
            nonlocal calls
            calls += 1
            if calls == 2:
                raise StorageUnavailable("gone", "the file was deleted")
            real()
        monkeypatch.setattr(store, "_check_file", check)
        writes = [asyncio.ensure_future(store.add_seat(g.id, g.version, 101, None, "Bob"))
                  for g in (a, b)]
        await asyncio.sleep(0)
        go.set()
        await held
        for w in writes:
            with pytest.raises(StorageUnavailable):
                await w
        assert calls == 2, "one transaction: checked before it and before its commit"
        assert [len(await store.seats(g.id)) for g in (a, b)] == [1, 1]
        assert (await store.game(a.id)).version == a.version  # type: ignore[union-attr]
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_a_write_never_joins_a_batch_queued_before_another_job() -> None:
    """A read queued after a batch closes it: a later write runs after the read, as it
    would in a job of its own (the read sees the first write, not the second)."""
    store = await SqliteStorage.open(":memory:")
    try:
        g = await store.create_game(1, 10, 100, "Ann", {})
        go, held = await _hold_thread(store)
        first = asyncio.ensure_future(store.add_seat(g.id, g.version, 101, None, "Bob"))
        await asyncio.sleep(0)
        read = asyncio.ensure_future(store.seats(g.id))
        await asyncio.sleep(0)
        second = asyncio.ensure_future(store.add_seat(g.id, g.version + 1, 102, None, "Cy"))
        await asyncio.sleep(0)
        go.set()
        await held
        assert await first == g.version + 1
        assert [s.name for s in await read] == ["Ann", "Bob"]
        assert await second == g.version + 2
    finally:
        await store.close()
