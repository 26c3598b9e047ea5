"""SqliteStorage's one-hand-over jobs: in order, never inside another
transaction, and without holding the connection while the event loop is busy."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
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


def _on_disk(path: Path, game_id: int) -> tuple[int | None, str | None, int | None]:
    """The turn message's record as another connection reads it from the file."""
    con = sqlite3.connect(path)
    try:
        row = con.execute("SELECT panel_message_id, turn_key, announced_version FROM games "
                          "WHERE id = ?", (game_id,)).fetchone()
        return row[0], row[1], row[2]
    finally:
        con.close()


@pytest.mark.asyncio
async def test_the_turn_message_record_rides_with_the_next_job(tmp_path: Path) -> None:
    """A turn message's record (what Discord shows, not the game) is not a hand-over and
    a commit of its own: the next write takes it into its transaction (one commit, at
    FULL), a read writes it first (and sees it), and with no job in ``SHOWN_WAIT_S`` it
    is written on its own, without an fsync (``synchronous=NORMAL``). Of several records
    of a game the newest wins, with the highest version shown."""
    path = tmp_path / "t.db"
    store = await SqliteStorage.open(str(path))
    store.SHOWN_WAIT_S = 30.0  # type: ignore[misc]  # no job of its own in this part
    try:
        game = await store.create_game(1, 10, 100, "Ann", {})
        statements: list[tuple[str, int]] = []

        def level(conn: sqlite3.Connection) -> int:
            return int(conn.execute("PRAGMA synchronous").fetchone()[0])

        def note(conn: sqlite3.Connection, sql: str) -> None:
            if not sql.startswith(("PRAGMA", "--")):
                statements.append((sql.split()[0], level(conn)))
        await store._on_thread(lambda conn: conn.set_trace_callback(lambda sql: note(conn, sql)))
        await store.set_turn_message(game.id, 77, "turn 1", 3)
        await store.set_turn_message(game.id, 78, "turn 2", 5)
        await store.set_turn_message(game.id, 78, "turn 2", 4)  # (an older version)
        assert statements == [], "nothing handed over yet"
        assert _on_disk(path, game.id) == (None, None, None)
        await store.set_thread(game.id, 5)
        assert [k for k, _ in statements] == ["BEGIN", "UPDATE", "UPDATE", "COMMIT"]
        assert {lvl for _, lvl in statements} == {2}, "in the write's own FULL commit"
        assert _on_disk(path, game.id) == (78, "turn 2", 5)

        statements.clear()
        await store.set_turn_message(game.id, 79, "turn 3", 6)
        row = await store.game(game.id)  # a read sees it: written first
        assert row is not None and (row.panel_message_id, row.announced_version) == (79, 6)
        assert [k for k, _ in statements][:3] == ["BEGIN", "UPDATE", "COMMIT"]
        assert statements[0][1] == 1, "on its own: NORMAL, no fsync"
        assert await store._on_thread(level) == 2

        statements.clear()
        store.SHOWN_WAIT_S = 0.05  # type: ignore[misc]
        await store.set_turn_message(game.id, 80, "turn 4", 7)
        await asyncio.sleep(0.3)
        assert _on_disk(path, game.id) == (80, "turn 4", 7), "written on its own meanwhile"
        assert statements[0] == ("BEGIN", 1)

        store.SHOWN_WAIT_S = 30.0  # type: ignore[misc]
        await store.set_turn_message(game.id, 81, "turn 5", 8)
    finally:
        await store.close()
    assert _on_disk(path, game.id) == (81, "turn 5", 8), "closing writes what waits"


@pytest.mark.asyncio
async def test_a_failed_write_keeps_the_turn_message_record_for_the_next(
        tmp_path: Path) -> None:
    store = await SqliteStorage.open(str(tmp_path / "t.db"))
    store.SHOWN_WAIT_S = 30.0  # type: ignore[misc]
    try:
        game = await store.create_game(1, 10, 100, "Ann", {})
        await store.set_turn_message(game.id, 77, "turn 1", 3)
        with pytest.raises(ZeroDivisionError):
            await store._tx_on_thread(lambda conn: 1 // 0)
        row = await store.game(game.id)
        assert row is not None and (row.panel_message_id, row.announced_version) == (77, 3)
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_a_failed_write_does_not_put_back_an_older_turn_message_record(
        tmp_path: Path) -> None:
    """A write that took the game's turn-message record along fails while a newer record
    of the same game is waiting: the newer one is what gets stored (the version shown is
    the highest either had)."""
    store = await SqliteStorage.open(str(tmp_path / "t.db"))
    store.SHOWN_WAIT_S = 30.0  # type: ignore[misc]
    try:
        game = await store.create_game(1, 10, 100, "Ann", {})
        await store.set_turn_message(game.id, 77, "turn 1", 3)
        release = threading.Event()

        def fails_later(conn: object) -> int:
            release.wait(5)
            return 1 // 0

        failing = asyncio.create_task(store._tx_on_thread(fails_later))
        await asyncio.sleep(0.05)  # the failing write has taken the record along
        await store.set_turn_message(game.id, 88, "turn 2", 4)
        release.set()
        with pytest.raises(ZeroDivisionError):
            await failing
        row = await store.game(game.id)
        assert row is not None
        assert (row.panel_message_id, row.turn_key, row.announced_version) == (88, "turn 2", 4)
    finally:
        await store.close()
