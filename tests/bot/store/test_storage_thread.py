"""SqliteStorage's one-hand-over jobs: in order, never inside another
transaction, and without holding the connection while the event loop is busy."""

from __future__ import annotations

import asyncio
import time

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
