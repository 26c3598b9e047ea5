"""SqliteStorage's one-hand-over jobs: in order, never inside another
transaction, and without holding the connection while the event loop is busy."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest

from bot.store.sqlite import SqliteStorage


@pytest.mark.asyncio
async def test_a_read_waits_for_an_open_transaction_and_sees_its_end() -> None:
    store = await SqliteStorage.open(":memory:")
    try:
        game = await store.create_game(1, 10, 100, "Ann", {})
        seen: list[int] = []
        async with store._tx() as db:
            await db.execute("UPDATE games SET host_id = 555 WHERE id = ?", (game.id,))
            read = asyncio.create_task(store.game(game.id))
            await asyncio.sleep(0.05)
            assert not read.done(), "a one-hand-over read never runs inside another's tx"
        row = await read
        seen.append(row.host_id if row else -1)
        assert seen == [555]
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_jobs_run_in_order_and_do_not_hold_the_connection_lock() -> None:
    store = await SqliteStorage.open(":memory:")
    try:
        order: list[str] = []

        def slow(conn: object) -> str:
            time.sleep(0.1)
            order.append("slow")
            return "slow"
        first = asyncio.create_task(store._on_thread(slow))
        await asyncio.sleep(0)  # queued on the connection's thread
        assert not store._lock.locked(), "the next job may be queued at once"
        second = asyncio.create_task(
            store._on_thread(lambda conn: order.append("quick") or "quick"))
        await asyncio.sleep(0)  # the second job is handed over too
        # the event loop is busy for a while: the thread does not wait for it between jobs
        time.sleep(0.3)
        assert order == ["slow", "quick"]
        assert await first == "slow" and await second == "quick"
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_only_the_turn_message_is_committed_without_an_fsync(tmp_path: Path) -> None:
    """What Discord shows (the turn message and the version it shows) is committed with
    ``synchronous=NORMAL``: no fsync of its own, the next action's commit takes it to the
    disk. Everything else, the game's actions first, is committed with FULL, and the
    connection is back at FULL after it (a failed write included)."""
    store = await SqliteStorage.open(str(tmp_path / "t.db"))
    try:
        game = await store.create_game(1, 10, 100, "Ann", {})
        levels: list[int] = []

        def level(conn: sqlite3.Connection) -> int:
            return int(conn.execute("PRAGMA synchronous").fetchone()[0])

        def note(conn: sqlite3.Connection, sql: str) -> None:
            if sql.startswith("UPDATE games"):
                levels.append(level(conn))
        # each UPDATE of the games table notes the level it is committed at
        await store._on_thread(lambda conn: conn.set_trace_callback(
            lambda sql: note(conn, sql) if not sql.startswith("PRAGMA") else None))
        await store.set_turn_message(game.id, 77, "turn 1", 3)
        await store.set_thread(game.id, 5)
        assert levels == [1, 2]  # NORMAL, then FULL
        assert await store._on_thread(level) == 2
        row = await store.game(game.id)
        assert row is not None and (row.panel_message_id, row.turn_key) == (77, "turn 1")
        assert row.announced_version == 3
        with pytest.raises(ZeroDivisionError):
            await store._tx_on_thread(lambda conn: 1 // 0, durable=False)
        assert await store._on_thread(level) == 2
    finally:
        await store.close()
