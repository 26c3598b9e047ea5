"""Storage: migrations, WAL, one open game per channel, versions, the append-only log; the
store's own failures, damaged rows and one process per file."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.store import (
    ACTIVE,
    BUSY,
    CANCELLED,
    CORRUPT,
    IO,
    READONLY,
    ChannelBusy,
    GameUnreadable,
    StorageUnavailable,
    StoreInUse,
    VersionConflict,
)
from bot.store.file_lock import holder
from bot.store.sqlite import SCHEMA_VERSION, SqliteStorage, unavailable

ROOT = Path(__file__).resolve().parents[3]


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
    from bot.store.sqlite import MIGRATIONS

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


# ------------------------------------------------------- the store's own failures
@pytest.mark.asyncio
async def test_a_second_opener_of_the_same_file_is_refused_with_the_holders_pid(
        tmp_path: Path) -> None:
    path = str(tmp_path / "t.db")
    store = await SqliteStorage.open(path)
    try:
        with pytest.raises(StoreInUse) as info:  # in this process, through another path
            await SqliteStorage.open(str(tmp_path / "." / "t.db"))
        assert info.value.pid == os.getpid()
        assert holder(path) is not None
        # another process: the same lock, the same answer
        code = ("import asyncio, sys; from bot.store import StoreInUse\n"
                "from bot.store.sqlite import SqliteStorage\n"
                "try:\n asyncio.run(SqliteStorage.open(sys.argv[1]))\n"
                "except StoreInUse as e:\n print(e.pid); sys.exit(3)\n")
        out = subprocess.run([sys.executable, "-c", code, path], capture_output=True,
                             text=True, timeout=60, cwd=ROOT)
        assert out.returncode == 3, out.stderr
        assert out.stdout.strip() == str(os.getpid())
    finally:
        await store.close()
    assert holder(path) is None, "closing lets go"
    store = await SqliteStorage.open(path)  # and the file opens again
    await store.close()


def test_python_m_bot_refuses_to_start_on_a_database_in_use(tmp_path: Path) -> None:
    """Two bots on one file answered every click twice: the second refuses,
    naming the first, before it connects to Discord; a crashed holder leaves no lock."""
    path = str(tmp_path / "t.db")
    holder_code = ("import asyncio, sys, time; from bot.store.sqlite import SqliteStorage\n"
                   "asyncio.run(SqliteStorage.open(sys.argv[1])); print('open', flush=True)\n"
                   "time.sleep(120)\n")
    first = subprocess.Popen([sys.executable, "-c", holder_code, path], cwd=ROOT,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert first.stdout is not None and first.stdout.readline().strip() == "open"
        env = dict(os.environ, DISCORD_TOKEN="not-a-token",
                   TEMPUS_DISCORD_API="http://127.0.0.1:9/api/v10")
        for args in (["--db", path], ["--offline", "--db", path]):
            out = subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True,
                                 text=True, timeout=60, cwd=ROOT, env=env, input="")
            assert out.returncode == 3, (args, out.stdout, out.stderr)
            assert f"pid {first.pid}" in out.stderr and "already in use" in out.stderr
            assert "Traceback" not in out.stderr
    finally:
        first.kill()  # not a clean exit: the kernel drops the lock anyway
        first.wait(10)
    assert holder(path) is None


@pytest.mark.asyncio
async def test_store_failures_are_typed_and_roll_back(tmp_path: Path) -> None:
    path = str(tmp_path / "t.db")
    store = await SqliteStorage.open(path, busy_timeout=0.1)
    g = await store.create_game(1, 10, 100, "Ann", {})
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    with pytest.raises(StorageUnavailable) as info:
        await store.add_seat(g.id, g.version, 101, None, "Bob")
    assert info.value.reason == BUSY and info.value.key == "error.storage_busy"
    other.execute("ROLLBACK")
    other.close()
    await store._db.execute("PRAGMA query_only=ON")
    with pytest.raises(StorageUnavailable) as info:
        await store.add_seat(g.id, g.version, 101, None, "Bob")
    assert info.value.reason == READONLY
    await store._db.execute("PRAGMA query_only=OFF")
    assert not store._db.in_transaction
    # constraint failures are the caller's business, not the store's
    with pytest.raises(ChannelBusy):
        await store.create_game(1, 10, 101, "Bob", {})
    assert (await store.game(g.id)).version == g.version  # nothing was half-written
    assert await store.add_seat(g.id, g.version, 101, None, "Bob") == g.version + 1
    await store.close()
    assert unavailable(ValueError("x")) is None
    assert unavailable(sqlite3.IntegrityError("x")) is None


@pytest.mark.asyncio
async def test_a_damaged_text_spoils_one_row_not_the_query(tmp_path: Path) -> None:
    """Invalid UTF-8 stopped every read of ``games`` ("Could not decode to UTF-8 column
    'state'"); now only the damaged game is unreadable, and only where it matters."""
    path = str(tmp_path / "t.db")
    store = await SqliteStorage.open(path)
    a = await store.create_game(1, 10, 100, "Ann", {"seed": 1})
    b = await store.create_game(1, 11, 100, "Ann", {"seed": 2})
    c = await store.create_game(1, 12, 100, "Ann", {"seed": 3})
    v = await store.start(a.id, a.version, {"seed": 1}, {"phase": "x"})
    await store.append_action(a.id, v, 0, 0, {"type": "draw_cards"}, {"phase": "y"}, ACTIVE)
    await store.close()
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE games SET state = CAST(x'7bff' AS TEXT) WHERE id = ?", (a.id,))
        raw.execute("UPDATE games SET options = CAST(x'ff' AS TEXT) WHERE id = ?", (b.id,))
        raw.execute("UPDATE seats SET name = CAST(x'416eff' AS TEXT) WHERE game_id = ?",
                    (c.id,))
    store = await SqliteStorage.open(path)
    try:
        game = await store.game(a.id)
        assert game.state is None and "UTF-8" in game.state_error
        assert (await store.actions(a.id))[0].action == {"type": "draw_cards"}
        with pytest.raises(GameUnreadable, match="options is not valid UTF-8"):
            await store.game(b.id)
        with pytest.raises(GameUnreadable):
            await store.games_with_status("lobby")
        refs = await store.game_refs("lobby")
        assert [r.id for r in refs] == [b.id, c.id] and refs[0].channel_id == 11
        (seat,) = await store.seats(c.id)
        assert seat.name == "An\ufffd"  # a damaged name still shows
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_a_database_that_cannot_be_opened_says_why(tmp_path: Path) -> None:
    not_db = tmp_path / "notes.txt"
    not_db.write_text("hello, this is not a database\n" * 200)
    with pytest.raises(StorageUnavailable) as info:
        await SqliteStorage.open(str(not_db))
    assert info.value.reason == CORRUPT
    assert holder(str(not_db)) is None, "a failed open lets go of the lock"
    with pytest.raises(StorageUnavailable) as info:
        await SqliteStorage.open(str(tmp_path / "missing" / "t.db"))
    assert info.value.reason == IO
    with pytest.raises(StorageUnavailable):
        await SqliteStorage.open(str(tmp_path / "nothing.db"), read_only=True)
    assert not (tmp_path / "nothing.db").exists(), "checking creates nothing"
