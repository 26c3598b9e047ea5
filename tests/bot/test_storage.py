"""Storage: migrations, WAL, one open game per channel, versions, the append-only log."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.storage import (
    ACTIVE,
    CANCELLED,
    SCHEMA_VERSION,
    ChannelBusy,
    SqliteStorage,
    VersionConflict,
)


@pytest.mark.asyncio
async def test_migrations_wal_and_reopen(tmp_path: Path) -> None:
    path = str(tmp_path / "t.db")
    store = await SqliteStorage.open(path)
    assert await store.schema_version() == SCHEMA_VERSION
    async with store._db.execute("PRAGMA synchronous") as cur:
        assert (await cur.fetchone())[0] == 2, "FULL: announced actions survive a power cut"
    await store.create_game(1, 10, 100, "Ann", {"max_seats": 3})
    await store.close()
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store = await SqliteStorage.open(path)  # migrating again is a no-op
    assert (await store.open_game_in_channel(10)) is not None
    await store.close()


@pytest.mark.asyncio
async def test_one_open_game_per_channel() -> None:
    store = await SqliteStorage.open(":memory:")
    g = await store.create_game(1, 10, 100, "Ann", {})
    with pytest.raises(ChannelBusy):
        await store.create_game(1, 10, 101, "Bob", {})
    await store.create_game(1, 11, 101, "Bob", {})  # another channel is fine
    await store.set_status(g.id, g.version, CANCELLED)
    await store.create_game(1, 10, 102, "Cy", {})  # a closed game frees the channel
    await store.close()


@pytest.mark.asyncio
async def test_seats_renumber_and_versions() -> None:
    store = await SqliteStorage.open(":memory:")
    g = await store.create_game(None, 10, 100, "Ann", {})
    v = await store.add_seat(g.id, g.version, 101, None, "Bob")
    v = await store.add_seat(g.id, v, None, "random", "Computer 1")
    v = await store.add_seat(g.id, v, 103, None, "Dee")
    with pytest.raises(VersionConflict):
        await store.add_seat(g.id, v - 1, 104, None, "Eve")
    v = await store.remove_seat(g.id, v, 1)
    seats = await store.seats(g.id)
    assert [(s.seat, s.name, s.is_ai) for s in seats] == [
        (0, "Ann", False), (1, "Computer 1", True), (2, "Dee", False)]
    assert (await store.game(g.id)).version == v == 4
    await store.close()


@pytest.mark.asyncio
async def test_action_log_is_append_only_and_versioned() -> None:
    store = await SqliteStorage.open(":memory:")
    g = await store.create_game(None, 10, 100, "Ann", {})
    v = await store.start(g.id, g.version, {"seed": 1}, {"phase": "x"})
    v = await store.append_action(g.id, v, 0, 0, {"type": "draw_cards"}, {"phase": "y"}, ACTIVE)
    with pytest.raises(VersionConflict):
        await store.append_action(g.id, v - 1, 1, 0, {"type": "end_turn"}, {"phase": "z"},
                                  ACTIVE)
    with pytest.raises(sqlite3.IntegrityError):  # the same seq twice
        await store.append_action(g.id, v, 0, 0, {"type": "end_turn"}, {}, ACTIVE)
    game = await store.game(g.id)
    assert game.state == {"phase": "y"} and game.version == v
    rows = await store.actions(g.id)
    assert [(r.seq, r.action["type"]) for r in rows] == [(0, "draw_cards")]
    for sql in ("UPDATE actions SET seat = 2", "DELETE FROM actions"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            await store._db.execute(sql)
    await store.close()


@pytest.mark.asyncio
async def test_an_old_database_is_migrated_in_place(tmp_path: Path) -> None:
    """A database written by schema 1 (before autopilot) opens, keeps its games, gains the
    new column."""
    from bot.storage import MIGRATIONS

    path = tmp_path / "old.db"
    with sqlite3.connect(path) as raw:
        raw.executescript(MIGRATIONS[0])
        raw.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        raw.execute("INSERT INTO schema_version VALUES (1)")
        raw.execute("INSERT INTO games (channel_id, host_id, status, options, created_at, "
                    "updated_at) VALUES (10, 100, 'lobby', '{\"max_seats\": 3}', 'x', 'x')")
        raw.execute("INSERT INTO seats VALUES (1, 0, 100, NULL, 'Ann')")
    store = await SqliteStorage.open(str(path))
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        (seat,) = await store.seats(1)
        assert seat.user_id == 100 and seat.autopilot is None and not seat.is_ai
    finally:
        await store.close()
