"""Storage, the same tests on both backends: SQLite (a file) and PostgreSQL (a real server
started by the ``pg_server`` fixture). Versions, the one-open-game-per-channel rule, the
append-only log, serialisation of two writers on the same version across connections,
migrations run once by two processes starting together, and the two schemas kept alike."""

from __future__ import annotations

import asyncio
import inspect
import socket
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import pytest
import pytest_asyncio

from bot.store import (
    ACTIVE,
    CANCELLED,
    FINISHED,
    LOBBY,
    ChannelBusy,
    Storage,
    VersionConflict,
)
from bot.store import pg_notify as notify_pg
from bot.store.opening import is_postgres_url, open_storage
from bot.store.postgres import PG_SCHEMA_VERSION, PgStorage
from bot.store.sqlite import SqliteStorage


@dataclass
class Backend:
    name: str
    target: str  # the TEMPUS_DB value: a file or a postgresql:// URL
    #: what a broken constraint or the append-only trigger raises
    integrity: tuple[type[BaseException], ...]
    opened: list[Storage] = field(default_factory=list)

    async def open(self) -> Storage:
        store = await open_storage(self.target)
        self.opened.append(store)
        return store

    async def raw(self, store: Storage, sql: str) -> None:
        """Run SQL around the storage class (as a careless tool would)."""
        if isinstance(store, SqliteStorage):
            await store._db.execute(sql)
        else:
            assert isinstance(store, PgStorage)
            await store._pool.execute(sql)


@pytest_asyncio.fixture(params=["sqlite", "postgresql"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    if request.param == "sqlite":
        b = Backend("sqlite", str(tmp_path / "t.db"), (sqlite3.IntegrityError,))
    else:
        url = request.getfixturevalue("pg_url")
        b = Backend("postgresql", url, (asyncpg.IntegrityConstraintViolationError,))
    yield b
    for store in b.opened:
        await store.close()


@pytest.mark.asyncio
async def test_the_factory_picks_the_backend(backend: Backend) -> None:
    store = await backend.open()
    expected = PgStorage if backend.name == "postgresql" else SqliteStorage
    assert isinstance(store, expected)
    assert is_postgres_url(backend.target) == (backend.name == "postgresql")


@pytest.mark.asyncio
async def test_one_open_game_per_channel(backend: Backend) -> None:
    store = await backend.open()
    g = await store.create_game(1, 10, 100, "Ann", {"max_seats": 3})
    assert (g.status, g.version, g.options, g.state) == (LOBBY, 0, {"max_seats": 3}, None)
    with pytest.raises(ChannelBusy):
        await store.create_game(1, 10, 101, "Bob", {})
    other = await store.create_game(1, 11, 101, "Bob", {})  # another channel is fine
    await store.set_status(g.id, g.version, CANCELLED)
    again = await store.create_game(1, 10, 102, "Cy", {})  # a closed game frees the channel
    assert len({g.id, other.id, again.id}) == 3
    assert (await store.open_game_in_channel(10)).id == again.id
    assert [x.id for x in await store.games_with_status(CANCELLED)] == [g.id]
    assert [x.id for x in await store.games_with_status(LOBBY)] == [other.id, again.id]
    host_only = await store.create_game(None, 12, 103, None, {})  # a host who does not play
    assert host_only.guild_id is None and await store.seats(host_only.id) == []
    assert await store.game(10_000) is None


@pytest.mark.asyncio
async def test_seats_renumber_and_versions(backend: Backend) -> None:
    store = await backend.open()
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
    with pytest.raises(backend.integrity):  # a seat must be a person or a computer
        await store.add_seat(g.id, v, None, None, "Nobody")
    assert (await store.game(g.id)).version == v, "a failed write changes nothing"
    v = await store.set_autopilot(g.id, v, 0, "random")
    v = await store.set_autopilot(g.id, v, 1, "random")  # a computer seat: unchanged
    seats = await store.seats(g.id)
    assert [(s.autopilot, s.level, s.is_ai) for s in seats] == [
        ("random", "random", True), (None, "random", True), (None, None, False)]
    with pytest.raises(VersionConflict):
        await store.set_autopilot(g.id, v - 1, 0, None)


@pytest.mark.asyncio
async def test_the_seed_commitment_and_timed_out_seats_are_kept(backend: Backend) -> None:
    """The salt and commitment stored at the start come back after the store is opened
    again (a restart); a game started without them reads as none. A seat put on
    autopilot by missed deadlines says so until its person takes it back, or is
    replaced."""
    store = await backend.open()
    g = await store.create_game(None, 10, 100, "Ann", {})
    v = await store.add_seat(g.id, g.version, 101, None, "Bob")
    salt, digest = "ab" * 16, "cd" * 32
    v = await store.start(g.id, v, {"seed": 1}, {"p": 0}, seed_salt=salt,
                          seed_commitment=digest)
    old = await store.create_game(None, 11, 100, "Ann", {})
    await store.start(old.id, old.version, {"seed": 2}, {"p": 0})
    v = await store.set_autopilot(g.id, v, 1, "normal", timed_out=True)
    await store.close()
    store = await backend.open()
    game = await store.game(g.id)
    assert (game.seed_salt, game.seed_commitment) == (salt, digest)
    assert [(g2.seed_salt, g2.seed_commitment) for g2 in await store.games_with_status(ACTIVE)
            if g2.id == old.id] == [(None, None)]
    seats = await store.seats(g.id)
    assert (seats[1].timed_out, seats[1].forfeited) == (True, True)
    assert not seats[0].timed_out and not seats[0].forfeited
    v = await store.set_autopilot(g.id, v, 1, None)  # Bob is back
    assert not (await store.seats(g.id))[1].timed_out
    v = await store.set_autopilot(g.id, v, 1, "normal", timed_out=True)
    v = await store.replace_seat(g.id, v, 1, 102, "Cy")
    assert not (await store.seats(g.id))[1].timed_out
    v = await store.leave_seat(g.id, v, 1, "normal")
    assert (await store.seats(g.id))[1].forfeited


@pytest.mark.asyncio
async def test_action_log_is_append_only_and_versioned(backend: Backend) -> None:
    store = await backend.open()
    g = await store.create_game(None, 10, 100, "Ann", {})
    with pytest.raises(VersionConflict):
        await store.start(g.id, g.version + 1, {"seed": 1}, {"phase": "x"})
    v = await store.start(g.id, g.version, {"seed": 1}, {"phase": "x"})
    game = await store.game(g.id)
    assert (game.status, game.options, game.state) == (ACTIVE, {"seed": 1}, {"phase": "x"})
    v = await store.append_action(g.id, v, 0, 0, {"type": "draw_cards"}, {"phase": "y"}, ACTIVE)
    with pytest.raises(VersionConflict):
        await store.append_action(g.id, v - 1, 1, 0, {"type": "end_turn"}, {"phase": "z"},
                                  ACTIVE)
    with pytest.raises(backend.integrity):  # the same seq twice
        await store.append_action(g.id, v, 0, 0, {"type": "end_turn"}, {}, ACTIVE)
    game = await store.game(g.id)
    assert game.state == {"phase": "y"} and game.version == v == 2
    v = await store.append_action(g.id, v, 1, 2, {"type": "undo"}, {"phase": "x", "n": [1]},
                                  FINISHED)
    rows = await store.actions(g.id)
    assert [(r.seq, r.seat, r.action, r.version) for r in rows] == [
        (0, 0, {"type": "draw_cards"}, 2), (1, 2, {"type": "undo"}, 3)]
    game = await store.game(g.id)
    assert (game.status, game.state, game.version) == (FINISHED, {"phase": "x", "n": [1]}, 3)
    for sql in ("UPDATE actions SET seat = 2", "DELETE FROM actions"):
        with pytest.raises(backend.integrity, match="append-only"):
            await backend.raw(store, sql)
    assert len(await store.actions(g.id)) == 2


@pytest.mark.asyncio
async def test_messages_threads_and_announced_versions(backend: Backend) -> None:
    store = await backend.open()
    g = await store.create_game(5, 10, 100, "Ann", {})
    await store.set_thread(g.id, 77)
    assert (await store.open_game_in_channel(77)).id == g.id  # found from its thread too
    await store.set_panel_message(g.id, 500)
    game = await store.game(g.id)
    assert (game.panel_message_id, game.announced_version, game.play_channel_id) == (500, 0, 77)
    await store.set_turn_message(g.id, 501, '{"turn":1}', announced=3)
    await store.set_turn_message(g.id, 502, '{"turn":2}', announced=2)  # never goes back
    game = await store.game(g.id)
    assert (game.panel_message_id, game.turn_key, game.announced_version) == (
        502, '{"turn":2}', 3)
    await store.set_panel_message(g.id, None, announced=4)
    assert (await store.game(g.id)).announced_version == 4
    assert (await store.game(g.id)).version == 0, "presentation is not a game change"
    await store.replace_snapshot(g.id, {"fixed": True})
    assert (await store.game(g.id)).state == {"fixed": True}


@pytest.mark.asyncio
async def test_reopening_keeps_everything_and_migrates_nothing(backend: Backend) -> None:
    store = await backend.open()
    g = await store.create_game(1, 10, 100, "Ann", {"max_seats": 3})
    v = await store.start(g.id, g.version, {"seed": 7}, {"p": 1})
    await store.append_action(g.id, v, 0, 0, {"type": "x"}, {"p": 2}, ACTIVE)
    await store.close()
    backend.opened.remove(store)
    again = await backend.open()
    game = await again.game(g.id)
    assert (game.version, game.state, game.options) == (2, {"p": 2}, {"seed": 7})
    assert [r.action for r in await again.actions(g.id)] == [{"type": "x"}]
    if isinstance(again, PgStorage):
        assert await again.migrate() == 0
        assert await again.schema_version() == PG_SCHEMA_VERSION


@pytest.mark.asyncio
async def test_two_writers_on_one_version_exactly_one_wins(backend: Backend) -> None:
    """Two storage objects (two connections, as two processes have) append on the same
    version at the same moment, many times over: each time exactly one is stored and the
    other gets VersionConflict; the log has no gap and no double. (SQLite admits one
    process per file, bot/store/file_lock.py: there the two writers share one storage.)"""
    a = await backend.open()
    b = a if backend.name == "sqlite" else await backend.open()
    g = await a.create_game(1, 10, 100, "Ann", {})
    v = await a.start(g.id, g.version, {"seed": 1}, {"n": 0})
    winners = []
    for seq in range(25):
        results = await asyncio.gather(
            a.append_action(g.id, v, seq, 0, {"by": "a", "seq": seq}, {"n": seq}, ACTIVE),
            b.append_action(g.id, v, seq, 1, {"by": "b", "seq": seq}, {"n": seq}, ACTIVE),
            return_exceptions=True)
        won = [r for r in results if isinstance(r, int)]
        lost = [r for r in results if isinstance(r, BaseException)]
        assert len(won) == 1 and len(lost) == 1, results
        assert isinstance(lost[0], VersionConflict), lost[0]
        v = won[0]
        winners.append("a" if isinstance(results[0], int) else "b")
    rows = await b.actions(g.id)
    assert [r.seq for r in rows] == list(range(25))
    assert [r.action["by"] for r in rows] == winners
    assert [r.version for r in rows] == list(range(2, 27)) and v == 26


@pytest.mark.asyncio
async def test_postgres_two_processes_starting_together_migrate_once(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ten processes' worth of storages open a fresh database at once: the advisory lock
    lets exactly one of them apply the migrations (all of them); the others wait for it
    and find nothing to do."""
    from bot.store import postgres as storage_pg

    real, applied_at_open = storage_pg.migrate, []

    async def counted(con: asyncpg.Connection) -> int:
        applied_at_open.append(await real(con))
        return applied_at_open[-1]

    monkeypatch.setattr(storage_pg, "migrate", counted)
    opened = await asyncio.gather(*(PgStorage.open(pg_url, max_size=2) for _ in range(10)))
    try:
        assert sorted(applied_at_open) == [0] * 9 + [PG_SCHEMA_VERSION], applied_at_open
        applied = await asyncio.gather(*(s.migrate() for s in opened))
        assert applied == [0] * 10
        con = await asyncpg.connect(pg_url)
        try:
            assert await con.fetchval("SELECT count(*) FROM schema_version") == 1
            assert await con.fetchval("SELECT version FROM schema_version") == PG_SCHEMA_VERSION
        finally:
            await con.close()
    finally:
        for s in opened:
            await s.close()


@pytest.mark.asyncio
async def test_postgres_migrations_are_one_transaction(pg_url: str) -> None:
    """A migration that fails leaves the database as it was (PostgreSQL DDL is
    transactional): no half-made schema, no version recorded."""
    import bot.store.postgres as pg

    saved = list(pg.PG_MIGRATIONS)
    pg.PG_MIGRATIONS.append("CREATE TABLE later (x INTEGER); SELECT no_such_function();")
    pg.PG_SCHEMA_VERSION = len(pg.PG_MIGRATIONS)
    try:
        with pytest.raises(asyncpg.UndefinedFunctionError):
            await PgStorage.open(pg_url)
    finally:
        pg.PG_MIGRATIONS[:] = saved
        pg.PG_SCHEMA_VERSION = len(saved)
    con = await asyncpg.connect(pg_url)
    try:
        assert await con.fetchval("SELECT to_regclass('games') IS NULL")
        assert await con.fetchval("SELECT to_regclass('later') IS NULL")
    finally:
        await con.close()
    store = await PgStorage.open(pg_url)
    assert await store.schema_version() == PG_SCHEMA_VERSION
    await store.close()


@pytest.mark.asyncio
async def test_postgres_refuses_a_newer_schema(pg_url: str) -> None:
    store = await PgStorage.open(pg_url)
    await store._pool.execute("UPDATE schema_version SET version = version + 1")
    await store.close()
    with pytest.raises(Exception, match="newer than this bot"):
        await PgStorage.open(pg_url)


@pytest.mark.asyncio
async def test_postgres_notifies_foreign_commits_only_when_committed(pg_url: str) -> None:
    """A version change for a game of another process's server sends (game, version) to
    the listeners when it commits; a refused write sends nothing; a game of this process's
    own servers sends nothing."""
    store = await PgStorage.open(pg_url)
    heard: list[tuple[int, int]] = []
    got = asyncio.Event()

    async def on_change(game_id: int, version: int) -> None:
        heard.append((game_id, version))
        got.set()

    listener = notify_pg.Listener(pg_url, on_change)
    await listener.start()
    try:
        store.notify_when = lambda guild_id: guild_id == 2  # guild 2 is another's
        mine = await store.create_game(1, 10, 100, "Ann", {})
        theirs = await store.create_game(2, 11, 100, "Ann", {})
        await store.add_seat(mine.id, 0, 101, None, "Bob")
        with pytest.raises(VersionConflict):
            await store.add_seat(theirs.id, 5, 101, None, "Bob")
        await store.add_seat(theirs.id, 0, 101, None, "Bob")
        await asyncio.wait_for(got.wait(), 10)
        await listener.idle()
        assert heard == [(theirs.id, 1)]
    finally:
        await listener.close()
        await store.close()


def _public_methods(cls: type) -> dict[str, inspect.Signature]:
    """Its own and inherited (most of them are bot/store/storage.py's, shared)."""
    return {name: inspect.signature(fn) for name, fn in inspect.getmembers(cls, callable)
            if not name.startswith("_") and name != "open"}


def test_both_backends_offer_the_same_methods() -> None:
    """Every public method of the SQLite storage exists on PostgreSQL with the same
    parameters (a method added to one backend only fails here)."""
    sqlite_methods = _public_methods(SqliteStorage)
    pg_methods = _public_methods(PgStorage)
    missing = sorted(set(sqlite_methods) - set(pg_methods))
    assert not missing, f"PgStorage lacks {missing}: implement them in bot/store/postgres.py"
    for name, sig in sqlite_methods.items():
        assert list(sig.parameters) == list(pg_methods[name].parameters), name
    for name in vars(Storage):
        if not name.startswith("_"):
            assert name in pg_methods, name


@pytest.mark.asyncio
async def test_both_schemas_have_the_same_tables_and_columns(tmp_path: Path,
                                                             pg_url: str) -> None:
    """A table or column added by a SQLite migration needs its PostgreSQL migration too
    (bot/store/migrations/__init__.py says how)."""
    lite = await SqliteStorage.open(str(tmp_path / "s.db"))
    try:
        tables = [r[0] for r in await (await lite._db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' "
            "AND name NOT LIKE 'sqlite_%'")).fetchall()]
        lite_schema = {}
        for table in tables:
            cols = await (await lite._db.execute(f"PRAGMA table_info({table})")).fetchall()
            lite_schema[table] = sorted(c[1] for c in cols)
    finally:
        await lite.close()
    pg = await PgStorage.open(pg_url)
    try:
        rows = await pg._pool.fetch(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'public'")
    finally:
        await pg.close()
    pg_schema: dict[str, list[str]] = {}
    for r in rows:
        pg_schema.setdefault(r["table_name"], []).append(r["column_name"])
    assert {k: sorted(v) for k, v in pg_schema.items()} == lite_schema


async def _eventually(check: Callable[[], Awaitable[Any]], timeout: float = 10) -> Any:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        value = await check()
        if value or asyncio.get_running_loop().time() > deadline:
            return value
        await asyncio.sleep(0.02)


@pytest.mark.asyncio
async def test_listener_reconnects_and_catches_up(pg_url: str) -> None:
    """The listener's connection is killed by the server: it reconnects and calls
    ``on_connect`` (where the owner checks what it missed), then hears again."""
    heard: list[tuple[int, int]] = []
    connects = 0

    async def on_change(game_id: int, version: int) -> None:
        heard.append((game_id, version))

    async def on_connect() -> None:
        nonlocal connects
        connects += 1

    listener = notify_pg.Listener(pg_url, on_change, on_connect=on_connect, retry_s=0.05)
    await listener.start()
    con = await asyncpg.connect(pg_url)
    try:
        assert connects == 1
        await con.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          "WHERE pid <> pg_backend_pid() AND datname = current_database()")

        async def reconnected() -> bool:
            return connects == 2 and listener.connected.is_set()

        assert await _eventually(reconnected)
        await con.execute("SELECT pg_notify($1, $2)", notify_pg.CHANNEL, "7:3")
        await con.execute("SELECT pg_notify($1, $2)", notify_pg.CHANNEL, "junk")

        async def got() -> bool:
            await listener.idle()
            return bool(heard)

        assert await _eventually(got)
        assert heard == [(7, 3)]
    finally:
        await con.close()
        await listener.close()


def test_notification_payloads() -> None:
    assert notify_pg.parse(notify_pg.payload(12, 40)) == (12, 40)
    for bad in ("", "12", "a:b", "12:", ":3"):
        assert notify_pg.parse(bad) is None


# --------------------------------------------------------------- parity with main's storage
@pytest.mark.asyncio
async def test_number_refs_and_latest_game_of_a_channel(backend: Backend) -> None:
    """``game_refs``/``game_ref``/``open_game_ref`` (the columns readable even when a
    game's texts are damaged) and ``latest_game_in_channel``, found from the thread too."""
    store = await backend.open()
    a = await store.create_game(5, 10, 100, "Ann", {"seed": 1})
    await store.set_thread(a.id, 70)
    await store.set_panel_message(a.id, 900, announced=0)
    v = await store.start(a.id, a.version, {"seed": 1}, {"p": 0})
    await store.set_status(a.id, v, FINISHED)
    b = await store.create_game(None, 10, 101, "Bob", {"seed": 2})
    await store.set_thread(b.id, 71)
    ref = await store.game_ref(a.id)
    assert (ref.id, ref.guild_id, ref.channel_id, ref.host_id, ref.version,
            ref.announced_version, ref.panel_message_id, ref.thread_id) == (
        a.id, 5, 10, 100, 2, 0, 900, 70)
    assert await store.game_ref(10_000) is None
    assert [r.id for r in await store.game_refs(FINISHED)] == [a.id]
    assert [r.id for r in await store.game_refs(LOBBY)] == [b.id]
    assert (await store.open_game_ref(71)).id == b.id
    assert (await store.open_game_ref(10)).id == b.id
    assert await store.open_game_ref(70) is None  # the finished game's thread
    assert (await store.latest_game_in_channel(70, (FINISHED,))).id == a.id
    assert (await store.latest_game_in_channel(10, (FINISHED, LOBBY))).id == b.id
    assert (await store.latest_game_in_channel(10, (FINISHED,))).id == a.id
    assert await store.latest_game_in_channel(10, (ACTIVE,)) is None


async def _damage(backend: Backend, store: Storage, game_id: int, column: str,
                  value: str) -> None:
    """Write a value the storage itself never writes (as a careless tool would)."""
    if backend.name == "sqlite":
        assert isinstance(store, SqliteStorage)
        await store._db.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (value, game_id))
    else:
        assert isinstance(store, PgStorage)
        cast = "::jsonb" if column == "options" else ""
        await store._pool.execute(f"UPDATE games SET {column} = $1{cast} WHERE id = $2",
                                  value, game_id)


@pytest.mark.asyncio
async def test_a_damaged_game_spoils_itself_only(backend: Backend) -> None:
    """Options that are not an object: that game is unreadable (GameUnreadable), listing
    by refs still works; a snapshot that is not JSON reads as none with ``state_error``
    (the log rebuilds it); a log entry that is not an object: GameUnreadable."""
    from bot.store import GameUnreadable

    store = await backend.open()
    a = await store.create_game(1, 10, 100, "Ann", {"seed": 1})
    b = await store.create_game(1, 11, 100, "Ann", {"seed": 2})
    v = await store.start(a.id, a.version, {"seed": 1}, {"phase": "x"})
    await store.append_action(a.id, v, 0, 0, {"type": "draw_cards"}, {"phase": "y"}, ACTIVE)
    await _damage(backend, store, a.id, "state", "{not json")
    game = await store.game(a.id)
    assert game.state is None and "JSON" in game.state_error
    await _damage(backend, store, a.id, "state", "[1, 2]")
    assert (await store.game(a.id)).state_error == "state is not a JSON object"
    await _damage(backend, store, b.id, "options", "[1]")
    with pytest.raises(GameUnreadable, match="options is not a JSON object"):
        await store.game(b.id)
    with pytest.raises(GameUnreadable):
        await store.games_with_status(LOBBY)
    assert [r.id for r in await store.game_refs(LOBBY)] == [b.id]
    assert (await store.open_game_ref(11)).id == b.id
    if backend.name == "sqlite":
        assert isinstance(store, SqliteStorage)
        await store._db.execute("DROP TRIGGER actions_no_update")
        await store._db.execute("UPDATE actions SET action = '7' WHERE game_id = ?", (a.id,))
    else:
        assert isinstance(store, PgStorage)
        await store._pool.execute("ALTER TABLE actions DISABLE TRIGGER actions_no_change")
        await store._pool.execute("UPDATE actions SET action = '7'::jsonb")
    with pytest.raises(GameUnreadable, match="action 0 is not a JSON object"):
        await store.actions(a.id)


@pytest.mark.asyncio
async def test_postgres_failures_of_the_server_are_typed(pg_server: Any, pg_url: str) -> None:
    """As on SQLite (tests/bot/store/test_storage.py), a failure of the database is a
    StorageUnavailable with a reason, the transaction is rolled back, and the storage works
    again once the cause is gone: a lost connection (the server ended it), a lock held past
    ``lock_timeout``, a read-only session, a server that is not there."""
    from bot.store import BUSY, OFFLINE, READONLY, StorageUnavailable
    from bot.store.postgres import unavailable

    store = await PgStorage.open(pg_url, min_size=1, max_size=1)
    admin = await asyncpg.connect(pg_url)
    try:
        g = await store.create_game(1, 10, 100, "Ann", {})
        # the connection is lost in the middle of a write (the server ends it while the
        # write waits for a row lock another program holds): offline, nothing written
        tx = admin.transaction()
        await tx.start()
        await admin.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", g.id)
        write = asyncio.create_task(store.add_seat(g.id, g.version, 101, None, "Bob"))

        async def waiting() -> list[int]:
            return [r[0] for r in await admin.fetch(
                "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND datname = current_database()")]

        (pid,) = await _eventually(waiting)
        await admin.execute("SELECT pg_terminate_backend($1)", pid)
        with pytest.raises(StorageUnavailable) as info:
            await write
        assert info.value.reason == OFFLINE and info.value.key == "error.storage_offline"
        await tx.rollback()
        assert (await store.game(g.id)).version == g.version  # the pool reconnected
        assert [s.name for s in await store.seats(g.id)] == ["Ann"]
        # a row lock held by another program beyond lock_timeout: busy, nothing written
        await admin.execute(f"ALTER DATABASE {pg_url.rsplit('/', 1)[1]} "
                            "SET lock_timeout = '200ms'")
        impatient = await PgStorage.open(pg_url, max_size=1)
        tx = admin.transaction()
        await tx.start()
        await admin.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", g.id)
        try:
            with pytest.raises(StorageUnavailable) as info:
                await impatient.add_seat(g.id, g.version, 101, None, "Bob")
            assert info.value.reason == BUSY
        finally:
            await tx.rollback()
            await impatient.close()
        assert [s.name for s in await store.seats(g.id)] == ["Ann"]
        assert await store.add_seat(g.id, g.version, 101, None, "Bob") == g.version + 1
        # constraint failures stay the caller's business
        with pytest.raises(ChannelBusy):
            await store.create_game(1, 10, 102, "Cy", {})
    finally:
        await admin.close()
        await store.close()
    reader = await PgStorage.open(pg_url, read_only=True)
    try:
        with pytest.raises(StorageUnavailable) as info:
            await reader.set_thread(g.id, 5)
        assert info.value.reason == READONLY
        assert (await reader.game(g.id)).thread_id is None
    finally:
        await reader.close()
    with pytest.raises(StorageUnavailable) as info:
        await PgStorage.open(f"postgresql://nobody@127.0.0.1:{_closed_port()}/x", timeout=5)
    assert info.value.reason == OFFLINE
    assert unavailable(ValueError("x")) is None
    assert unavailable(asyncpg.UniqueViolationError("x")) is None


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # nothing listens there once the socket is closed


async def _history_of(store: Storage) -> dict[str, Any]:
    """Everything bot.history.ledger derives and shows, in a backend-neutral form."""
    from bot.history import ledger as hist
    from tests.bot.history.test_history import GUILD

    results = await store.results(GUILD)
    return {
        "results": [(r.game_id, r.seat, r.guild_id, r.channel_id, r.user_id, r.ai_level,
                     r.name, r.rank, r.vp, r.won, r.opening) for r in results],
        "ordered_by_time": [r.finished_at for r in results] == sorted(
            r.finished_at for r in results),
        "ratings": {u: (round(r.mu, 9), round(r.sigma, 9), r.games)
                    for u, r in (await store.ratings(GUILD)).items()},
        "rated": [g for _, g in await store.rated_games(GUILD)],
        "pages": [await store.result_game_ids(GUILD, None, 3, k) for k in (0, 3, 6)],
        "channel": await store.result_game_ids(GUILD, 11, 10),
        "of_user_4": sorted({r.game_id for r in await store.results(GUILD, user_id=4)}),
        "two_games": [(r.game_id, r.seat) for r in await store.results(
            GUILD, game_ids=[results[0].game_id, results[-1].game_id])],
        "none": await store.results(GUILD, game_ids=[]),
        "board": [(e.user_id, e.games, e.wins) for e in await hist.leaderboard(store, GUILD)],
    }


@pytest.mark.asyncio
async def test_history_is_the_same_on_both_backends(tmp_path: Path, pg_url: str) -> None:
    """The same games stored on SQLite and on PostgreSQL give the same results, ratings,
    listings and leaderboard through bot.history.ledger; rebuilding from the logs and repairing a
    lost bookkeeping row give the same numbers again."""
    from bot.history import ledger as hist
    from tests.bot.history.test_history import store_game

    lineups = [[1, 2, 3], [2, 3, 4, None], [1, 3, None], [4, 1, 2], [3, None, None],
               [1, 2, 4]]
    seen = []
    for target in (str(tmp_path / "h.db"), pg_url):
        store = await open_storage(target)
        try:
            ids = []
            for k, people in enumerate(lineups):
                ids.append(await store_game(store, people, 70 + k, channel=10 + k % 2))
                if k % 2:
                    assert await hist.sync(store) == ids[-2:]
            await store_game(store, [1, 2, 3], 99, stop_after=5)  # unfinished: no result
            assert await store.games_without_results() == []
            assert await store.finished_at(ids[0]) is not None
            assert await store.finished_at(10_000) is None
            first = await _history_of(store)
            assert first["ordered_by_time"] and first["none"] == []
            await hist.rebuild(store)
            assert await _history_of(store) == first
            rated = await store.rated_games(1)
            await store.store_ratings(1, [], [], replace=False)  # nothing: a no-op
            await store.clear_history()
            assert await store.results(1) == [] and await store.ratings(1) == {}
            assert [g.id for g in await store.games_without_results()] == ids
            await hist.sync(store)
            assert await store.rated_games(1) == rated
            seen.append(first)
        finally:
            await store.close()
    assert seen[0] == seen[1]


@pytest.mark.asyncio
async def test_postgres_two_processes_rating_at_once_count_each_game_once(
        pg_url: str) -> None:
    """Processes bring ratings up to date independently (bot.history.ledger's lock is per
    process): whatever the interleaving, every game is rated exactly once, and the ratings
    equal a recomputation from scratch."""
    from bot.history import ledger as hist
    from bot.history import ratings as R
    from tests.bot.history.test_history import GUILD, store_game

    a, b, c = [await PgStorage.open(pg_url, max_size=2) for _ in range(3)]
    try:
        lineups = [[1, 2, 3], [2, 3, 4], [1, 3, 4, None], [4, 1, 2], [2, 4, 1], [1, 2, 3, 4]]
        for k, people in enumerate(lineups):
            await store_game(a, people, 20 + k)
            if k % 2:
                await asyncio.gather(hist.sync(a), hist.sync(b), hist.sync(c))
        await asyncio.gather(hist.sync(a), hist.sync(b))
        scratch = R.recompute(hist.rated_games(await a.results(GUILD)))
        assert len(await a.rated_games(GUILD)) == len(lineups)
        got = {u: (r.mu, r.sigma, r.games) for u, r in (await b.ratings(GUILD)).items()}
        assert got == {u: (s.mu, s.sigma, s.games) for u, s in scratch.items()}
    finally:
        for s in (a, b, c):
            await s.close()


@pytest.mark.asyncio
async def test_check_db_on_postgres(pg_url: str) -> None:
    """``python -m bot check-db --db postgresql://...`` checks the games as on SQLite,
    read-only beside a running bot; a server that cannot be reached is unusable (exit 2)."""
    import random

    from bot.operator.check_db import check
    from bot.table.service import TableService
    from tests.bot.helpers import CollectSink
    from tests.bot.store.test_storage_failures import next_move, started

    store = await PgStorage.open(pg_url)
    try:
        svc = TableService(store, CollectSink(), ai_delay=0, seed_source=lambda: 7)
        rng = random.Random(1)
        ids = []
        for ch in (10, 11):
            g = await started(svc, ch, seed=ch)
            for _ in range(4):
                uid, action, version = await next_move(svc, g, rng)
                await svc.act(g, uid, action, version)
            ids.append(g)
        await svc.idle()
        await svc.close()
        report = await check(pg_url)
        assert report.ok and report.exit_code() == 0, report.lines()
        assert [g.actions for g in report.games] == [4, 4]
        await store._pool.execute("UPDATE games SET state = '{\"phase\": 1}' WHERE id = $1",
                                  ids[1])
        report = await check(pg_url)
        assert report.exit_code() == 1 and report.database_ok
        assert not report.games[0].problems and report.games[1].problems, report.lines()
    finally:
        await store.close()
    report = await check(f"postgresql://nobody@127.0.0.1:{_closed_port()}/x")
    assert report.exit_code() == 2 and report.fatal


def test_a_database_url_is_shown_without_its_password() -> None:
    from bot.store.opening import without_password

    assert without_password("postgresql://bot:s3cret@db:5432/tempus") == \
        "postgresql://bot:***@db:5432/tempus"
    assert without_password("postgresql://bot@db/tempus") == "postgresql://bot@db/tempus"
    assert without_password("tempus.db") == "tempus.db"


# --------------------------------------------------------------- the turn clock
@pytest.mark.asyncio
async def test_deadlines_are_written_with_the_change_that_implies_them(
        backend: Backend) -> None:
    """start/append_action/set_autopilot/set_options/set_status write the game's clocks in
    their own transaction (None: leave them); a refused change (stale version) writes no
    clock; set_deadlines replaces them without a version change; each game has its own."""
    from bot.store import DeadlineRow

    store = await backend.open()
    g = await store.create_game(1, 10, 100, "Ann", {})
    v = await store.add_seat(g.id, g.version, 101, None, "Bob")
    other = await store.create_game(1, 11, 100, "Ann", {})
    assert await store.deadlines(g.id) == []
    first = [DeadlineRow(0, 2, 1000.0, 1180.5, 0, 0), DeadlineRow(1, 2, 1000.0, 1180.5, 0, 1)]
    v = await store.start(g.id, v, {"seed": 1, "pace": "live"}, {"p": 0}, first)
    assert await store.deadlines(g.id) == first
    v = await store.append_action(g.id, v, 0, 0, {"type": "x"}, {"p": 1}, ACTIVE)  # None
    assert await store.deadlines(g.id) == first, "None leaves the clocks as they are"
    second = [DeadlineRow(1, 2, 1000.0, 1180.5, 1, 0), DeadlineRow(2, strikes=2)]
    v = await store.append_action(g.id, v, 1, 0, {"type": "y"}, {"p": 2}, ACTIVE, second)
    assert await store.deadlines(g.id) == second
    with pytest.raises(VersionConflict):  # refused: neither the action nor its clocks
        await store.append_action(g.id, v - 1, 2, 1, {"type": "z"}, {"p": 3}, ACTIVE, [])
    with pytest.raises(backend.integrity):  # the same seq twice: rolled back with it
        await store.append_action(g.id, v, 1, 1, {"type": "z"}, {"p": 3}, ACTIVE, [])
    assert await store.deadlines(g.id) == second and len(await store.actions(g.id)) == 2
    v = await store.set_autopilot(g.id, v, 1, "random", [DeadlineRow(1, strikes=3)])
    assert await store.deadlines(g.id) == [DeadlineRow(1, strikes=3)]
    v = await store.set_options(g.id, v, {"seed": 1, "pace": "daily"}, first)
    assert (await store.game(g.id)).options == {"seed": 1, "pace": "daily"}
    assert await store.deadlines(g.id) == first
    await store.set_deadlines(other.id, [DeadlineRow(0, 0, 5.0, None, 0, 0)])
    await store.set_deadlines(g.id, second)
    assert (await store.game(g.id)).version == v, "re-arming is not a game change"
    assert await store.deadlines(g.id) == second
    assert await store.deadlines(other.id) == [DeadlineRow(0, 0, 5.0, None, 0, 0)]
    await store.set_status(g.id, v, FINISHED, [])
    assert await store.deadlines(g.id) == [] and await store.deadlines(other.id) != []
    big = DeadlineRow(0, 7, 1_800_000_000.125, 1_800_086_400.125, 2, 0)
    await store.set_deadlines(other.id, [big])  # wall-clock seconds keep their fraction
    assert await store.deadlines(other.id) == [big]


@pytest.mark.asyncio
async def test_a_change_planned_from_stale_clocks_keeps_a_reminder_noted_since(
        backend: Backend) -> None:
    """Another process read the clocks, then the owner noted reminders (update_deadline),
    then the other process stored a change with its copy: a seat that still owes the same
    decision on the same clock keeps the higher reminder count (else the owner sends the
    reminder again); a new clock (another decision, or a moved deadline: a new pace) takes
    the count it is written with; the writer's strikes count; a seat left out loses its
    clock. The same through every writer (append_action, set_options, set_deadlines)."""
    from dataclasses import replace

    from bot.store import DeadlineRow

    store = await backend.open()
    g = await store.create_game(1, 10, 100, "Ann", {})
    v = await store.add_seat(g.id, g.version, 101, None, "Bob")
    first = [DeadlineRow(0, 2, 1000.0, 1180.5, 0, 0), DeadlineRow(1, 2, 1000.0, 1180.5, 0, 0)]
    v = await store.start(g.id, v, {"seed": 1, "pace": "live"}, {"p": 0}, first)
    stale = await store.deadlines(g.id)  # what the other process read
    assert await store.update_deadline(g.id, 0, 2, due_at=1180.5, reminded=2)
    assert await store.update_deadline(g.id, 1, 2, due_at=1180.5, reminded=1)
    # seat 1 decided (its next decision has a new clock); seat 0 still owes the same one
    fresh = DeadlineRow(1, v + 1, 1010.0, 1190.5, 0, 0)
    v = await store.append_action(g.id, v, 0, 1, {"type": "x"}, {"p": 1}, ACTIVE,
                                  [stale[0], fresh])
    assert await store.deadlines(g.id) == [replace(stale[0], reminded=2), fresh]
    v = await store.set_options(g.id, v, {"seed": 1, "pace": "live"},
                                [replace(stale[0], strikes=1)])
    assert await store.deadlines(g.id) == [DeadlineRow(0, 2, 1000.0, 1180.5, 2, 1)]
    await store.set_deadlines(g.id, [stale[0]])
    assert await store.deadlines(g.id) == [DeadlineRow(0, 2, 1000.0, 1180.5, 2, 0)]
    moved = DeadlineRow(0, 2, 1000.0, 1500.0, 1, 0)  # a new pace: its own reminders
    v = await store.set_options(g.id, v, {"seed": 1, "pace": "slow"}, [moved])
    assert await store.deadlines(g.id) == [moved]
    other = DeadlineRow(0, v + 1, 1000.0, 1500.0, 0, 0)  # a new decision, same times
    v = await store.append_action(g.id, v, 1, 0, {"type": "y"}, {"p": 2}, ACTIVE, [other])
    assert await store.deadlines(g.id) == [other]
    await store.set_deadlines(g.id, [DeadlineRow(0, None, strikes=1)])
    assert await store.update_deadline(g.id, 0, None, due_at=None, reminded=3)
    await store.set_deadlines(g.id, [DeadlineRow(0, None, strikes=1)])
    assert await store.deadlines(g.id) == [DeadlineRow(0, None, strikes=1)], \
        "a row without a decision is not a clock"


@pytest.mark.asyncio
async def test_update_deadline_only_while_the_seat_owes_the_same_decision(
        backend: Backend) -> None:
    from bot.store import DeadlineRow

    store = await backend.open()
    g = await store.create_game(1, 10, 100, "Ann", {})
    v = await store.start(g.id, g.version, {"seed": 1}, {"p": 0},
                          [DeadlineRow(0, 1, 10.0, 190.0), DeadlineRow(1, None, strikes=1)])
    assert await store.update_deadline(g.id, 0, 1, due_at=190.0, reminded=1)
    assert not await store.update_deadline(g.id, 0, 2, due_at=500.0, reminded=2)  # other
    assert not await store.update_deadline(g.id, 2, 1, due_at=500.0, reminded=2)  # no row
    assert not await store.update_deadline(g.id + 1, 0, 1, due_at=500.0, reminded=2)
    assert await store.update_deadline(g.id, 1, None, due_at=None, reminded=0)  # NULL since
    assert await store.deadlines(g.id) == [DeadlineRow(0, 1, 10.0, 190.0, 1, 0),
                                           DeadlineRow(1, None, None, None, 0, 1)]
    assert (await store.game(g.id)).version == v, "a reminder is not a game change"


@pytest.mark.asyncio
async def test_reminder_settings_per_person(backend: Backend) -> None:
    store = await backend.open()
    big = 1 << 60  # Discord ids need 64 bits
    assert await store.reminders_on(big) and await store.reminders_on(5)
    await store.set_reminders(big, False)
    await store.set_reminders(big, False)  # again: still one setting
    assert not await store.reminders_on(big) and await store.reminders_on(5)
    await store.set_reminders(big, True)
    assert await store.reminders_on(big)


@pytest.mark.asyncio
async def test_leaving_and_replacing_a_seat(backend: Backend) -> None:
    """leave_seat: a computer plays the person's seat to the end (``left``);
    replace_seat: another person takes it (autopilot and leave end); a computer player's
    seat cannot be given to a person; each writes its clocks with it."""
    from bot.store import DeadlineRow, StorageError

    store = await backend.open()
    g = await store.create_game(1, 10, 100, "Ann", {})
    v = await store.add_seat(g.id, g.version, 101, None, "Bob")
    v = await store.add_seat(g.id, v, None, "random", "Computer 1")
    v = await store.start(g.id, v, {"seed": 1}, {"p": 0}, [DeadlineRow(1, 3, 1.0, 2.0)])
    v = await store.leave_seat(g.id, v, 1, "normal", [])
    seats = await store.seats(g.id)
    assert [(s.user_id, s.autopilot, s.left, s.is_ai) for s in seats] == [
        (100, None, False, False), (101, "normal", True, True), (None, None, False, True)]
    assert await store.deadlines(g.id) == []
    v = await store.leave_seat(g.id, v, 2, "normal")  # a computer's seat: unchanged
    assert (await store.seats(g.id))[2] == seats[2]
    v = await store.replace_seat(g.id, v, 1, 103, "Cy", [DeadlineRow(1, v + 1, 5.0, 9.0)])
    seats = await store.seats(g.id)
    assert [(s.user_id, s.name, s.autopilot, s.left) for s in seats[:2]] == [
        (100, "Ann", None, False), (103, "Cy", None, False)]
    assert await store.deadlines(g.id) == [DeadlineRow(1, v, 5.0, 9.0)]
    with pytest.raises(StorageError, match="no person's seat 2"):
        await store.replace_seat(g.id, v, 2, 104, "Dee", [])
    assert (await store.game(g.id)).version == v, "a refused replacement changes nothing"
    assert await store.deadlines(g.id) == [DeadlineRow(1, v, 5.0, 9.0)]
    with pytest.raises(VersionConflict):
        await store.leave_seat(g.id, v - 1, 0, "random", [])
    assert not (await store.seats(g.id))[0].left


@pytest.mark.asyncio
async def test_host_changes_with_a_leave_or_a_replacement(backend: Backend) -> None:
    """leave_seat/replace_seat with ``host_id`` pass the host role in the same transaction
    (a host who leaves or is replaced mid-game); without it the host stays."""
    store = await backend.open()
    g = await store.create_game(1, 10, 100, "Ann", {})
    v = await store.add_seat(g.id, g.version, 101, None, "Bob")
    v = await store.start(g.id, v, {"seed": 1}, {"p": 0}, [])
    v = await store.leave_seat(g.id, v, 0, "normal", [], host_id=101)
    assert (await store.game(g.id)).host_id == 101
    v = await store.replace_seat(g.id, v, 1, 102, "Cy", [], host_id=102)
    assert (await store.game(g.id)).host_id == 102
    v = await store.replace_seat(g.id, v, 0, 103, "Dee", [])
    assert (await store.game(g.id)).host_id == 102, "no host_id: the host stays"
    with pytest.raises(VersionConflict):
        await store.leave_seat(g.id, v - 1, 1, "normal", [], host_id=103)
    assert (await store.game(g.id)).host_id == 102, "a refused change passes nothing"


@pytest.mark.asyncio
async def test_covered_seats_locales_and_private_menus_are_kept(backend: Backend) -> None:
    """Migration 7 / PG 4: a clock row keeps the turn a computer covers; each person's
    client language; the live DM menus (put, replaced in place, read by game, dropped)."""
    from bot.store import DeadlineRow, MenuRow

    store = await backend.open()
    g = await store.create_game(1, 10, 100, "Ann", {})
    covered = DeadlineRow(1, None, None, None, 0, 2, '["turn",3,1]')
    v = await store.start(g.id, g.version, {"seed": 1}, {"p": 0},
                          [DeadlineRow(0, 1, 10.0, 190.0), covered])
    assert await store.deadlines(g.id) == [DeadlineRow(0, 1, 10.0, 190.0), covered]
    await store.set_deadlines(g.id, [covered])
    assert await store.deadlines(g.id) == [covered]

    big = 1 << 60
    assert await store.user_locales([big, 5]) == {}
    await store.set_reminders(5, False)
    await store.set_user_locale(big, "pl")
    await store.set_user_locale(5, "en-US")
    await store.set_user_locale(5, "pl")
    assert await store.user_locales([big, 5, 6]) == {big: "pl", 5: "pl"}
    assert not await store.reminders_on(5), "the language leaves the reminder choice"
    assert await store.user_locales([]) == {}

    other = await store.create_game(1, 11, 100, "Ann", {})
    a = MenuRow(big + 1, big + 2, g.id, big, v, "Choose ✓", "pl")
    b = MenuRow(7, 8, other.id, 100, 0, "Pick", "en-US")
    await store.put_private_menu(a)
    await store.put_private_menu(b)
    newer = MenuRow(big + 1, big + 2, g.id, big, v + 1, "Choose again", "pl")
    await store.put_private_menu(newer)  # the same message edited to a newer menu
    assert await store.private_menus() == [b, newer]
    assert await store.private_menus(g.id) == [newer]
    await store.drop_private_menus([newer.message_id, 12345])
    assert await store.private_menus() == [b]
    await store.drop_private_menus([])
    assert (await store.game(g.id)).version == v, "menus and settings are no game change"


@pytest.mark.asyncio
async def test_each_persons_hand_message_is_kept_per_game(backend: Backend) -> None:
    """Migration 8 / PG 5: the DM that shows a person's cards in a game, found again after
    a restart; replaced when it is posted anew; per person and game, not per seat."""
    store = await backend.open()
    g = await store.create_game(1, 10, 100, "Ann", {})
    other = await store.create_game(1, 11, 100, "Ann", {})
    big = 1 << 60
    assert await store.hand_message(g.id, 100) is None
    await store.set_hand_message(g.id, 100, big + 1, big + 2)
    await store.set_hand_message(other.id, 100, big + 1, 7)
    await store.set_hand_message(g.id, 101, 5, 6)
    assert await store.hand_message(g.id, 100) == (big + 1, big + 2)
    assert await store.hand_message(other.id, 100) == (big + 1, 7)
    assert await store.hand_message(g.id, 101) == (5, 6)
    await store.set_hand_message(g.id, 100, big + 1, big + 3)  # deleted, posted anew
    assert await store.hand_message(g.id, 100) == (big + 1, big + 3)
    assert (await store.game(g.id)).version == g.version, "a hand message is no game change"


@pytest.mark.asyncio
async def test_a_persons_muted_turn_is_kept_per_game(backend: Backend) -> None:
    """SQLite migration 10 / PG 7: "No pings this turn" is kept, per person and game, a
    later turn's mute replacing the earlier; it is no game change."""
    store = await backend.open()
    g = await store.create_game(1, 10, 100, "Ann", {})
    other = await store.create_game(1, 11, 100, "Ann", {})
    big = 1 << 60
    assert await store.turn_mutes(g.id) == {}
    await store.set_turn_mute(g.id, 100, "3:actions:0")
    await store.set_turn_mute(g.id, big, "3:actions:0")
    await store.set_turn_mute(other.id, 100, "1:tokens:2")
    assert await store.turn_mutes(g.id) == {100: "3:actions:0", big: "3:actions:0"}
    await store.set_turn_mute(g.id, 100, "4:actions:1")  # a later turn muted
    assert await store.turn_mutes(g.id) == {100: "4:actions:1", big: "3:actions:0"}
    assert await store.turn_mutes(other.id) == {100: "1:tokens:2"}
    assert (await store.game(g.id)).version == g.version, "a mute is no game change"


@pytest.mark.asyncio
async def test_lessons_tips_and_finished_games_per_person(backend: Backend) -> None:
    """A person's lesson goes on where it was when asked for again, moves from the page it
    was read at only, remembers that its end was reached; tips are on until switched off
    and remember the kinds shown; finished games are counted from the results."""
    store = await backend.open()
    big = 1 << 60
    assert await store.lesson(big) is None
    row = await store.start_lesson(big, "tempus", 7, 8)
    assert (row.user_id, row.step, row.status, row.finished, row.thread_id) == \
        (big, 0, "running", False, None)
    assert await store.lesson_by_id(row.id) == row
    assert await store.set_lesson_step(big, 0, 5, "running")
    assert not await store.set_lesson_step(big, 0, 6, "running")  # a second click on page 0
    await store.set_lesson_place(big, 99, 100)
    assert await store.set_lesson_step(big, 5, 5, "left")
    again = await store.start_lesson(big, "tempus", 7, 9)
    assert (again.id, again.step, again.status, again.channel_id, again.thread_id) == \
        (row.id, 5, "running", 9, 99)
    assert await store.set_lesson_step(big, 5, 37, "finished")
    assert await store.set_lesson_step(big, 37, 0, "running")  # from the start again
    done = await store.lesson(big)
    assert done is not None and done.finished and done.step == 0
    other = await store.start_lesson(5, "tempus", None, None)
    assert other.id != row.id and not other.finished

    tips = await store.tips([big, 5])
    assert tips[big].on and tips[big].seen == frozenset()
    await store.see_tip(big, "turn")
    await store.see_tip(big, "move")
    await store.set_tips(5, False)
    tips = await store.tips([big, 5])
    assert tips[big].seen == {"turn", "move"} and tips[big].on and not tips[5].on
    await store.set_reminders(big, False)  # another setting of the same person
    assert (await store.tips([big]))[big].seen == {"turn", "move"}
    assert await store.finished_games([big, 5]) == {}
