"""Existing databases of both kinds upgrade unchanged now that the migrations are .sql files.

The migrations as the storage held them before (frozen in data/house_migrations.py) build
a database at every old schema version; today's storage opens it, applies what is missing,
and ends with the very schema the old code made at the newest version. A SQLite database
written by the old storage itself (data/house_schema7.db, made by
data/make_house_fixture.py: a game played part-way through the table service, a finished
game with its history, a lobby) opens, every game loads with its log replaying to its
snapshot, and play goes on.
"""

from __future__ import annotations

import itertools
import logging
import random
import re
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.history import ledger
from bot.operator.check_db import check
from bot.store import ACTIVE, FINISHED, LOBBY, DeadlineRow, MenuRow
from bot.store import migrations as files
from bot.store.postgres import PG_SCHEMA_VERSION, PgStorage
from bot.store.sqlite import SCHEMA_VERSION, SqliteStorage
from bot.table.service import TableService
from tests.bot.helpers import CollectSink
from tests.bot.store.data import house_migrations as house
from tests.bot.store.test_storage_failures import next_move

DATA = Path(__file__).parent / "data"
_names = itertools.count()


def _words(sql: str | None) -> str:
    return re.sub(r"\s+", " ", sql or "").strip()


@pytest.mark.parametrize(("dialect", "old"), [(files.SQLITE, house.SQLITE),
                                              (files.POSTGRESQL, house.POSTGRESQL)])
def test_each_migration_file_is_the_old_migration(dialect: str, old: list[str]) -> None:
    """Word for word (only the indentation of the Python strings is gone)."""
    new = files.scripts(dialect)
    assert len(new) >= len(old)
    for number, (was, now) in enumerate(zip(old, new, strict=False), 1):
        assert _words(now) == _words(was), f"{dialect} migration {number}"


# ---------------------------------------------------------------------------- SQLite
def _old_sqlite(path: Path, version: int) -> None:
    """A database at ``version`` as the old storage made it: each migration in its own
    transaction with the version it reached; from version 1 on, a game with a seat."""
    with closing(sqlite3.connect(path, isolation_level=None)) as raw:
        for number in range(1, version + 1):
            raw.execute("BEGIN")
            raw.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            for stmt in _split(house.SQLITE[number - 1]):
                raw.execute(stmt)
            raw.execute("DELETE FROM schema_version")
            raw.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
            raw.execute("COMMIT")
        if version >= 1:
            raw.execute("INSERT INTO games (channel_id, host_id, status, options, created_at, "
                        "updated_at) VALUES (10, 100, 'lobby', '{\"max_seats\": 3}', "
                        "'2024-01-01T00:00:00.000+00:00', '2024-01-01T00:00:00.000+00:00')")
            raw.execute("INSERT INTO seats (game_id, seat, user_id, ai_level, name) "
                        "VALUES (1, 0, 100, NULL, 'Ann')")


def _newer_sqlite(path: Path) -> None:
    """The migration files after the frozen old ones, applied as the storage does."""
    with closing(sqlite3.connect(path, isolation_level=None)) as raw:
        for script in files.scripts(files.SQLITE)[len(house.SQLITE):]:
            for stmt in _split(script):
                raw.execute(stmt)


def _split(script: str) -> list[str]:
    out, buf = [], ""
    for line in script.strip().splitlines():
        buf += line + "\n"
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    return out


def _sqlite_schema(path: Path) -> dict[str, Any]:
    """Everything SQLite knows of the schema: its objects (their SQL words) and each
    table's columns (name, type, not null, default, key)."""
    # read-only: a missing file is an error, not a new empty database
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as raw:
        objects = sorted((r[0], r[1], r[2], _words(r[3])) for r in raw.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master "
            "WHERE name NOT LIKE 'sqlite_%'"))
        tables = [name for kind, name, _, _ in objects if kind == "table"]
        columns = {t: [tuple(c) for c in raw.execute(f"PRAGMA table_info({t})")]
                   for t in tables}
        keys = {t: [tuple(k) for k in raw.execute(f"PRAGMA foreign_key_list({t})")]
                for t in tables}
    return {"objects": objects, "columns": columns, "foreign_keys": keys}


@pytest.fixture(scope="module")
def old_sqlite_schema(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("old") / "old.db"
    _old_sqlite(path, len(house.SQLITE))
    return _sqlite_schema(path)


@pytest.fixture(scope="module")
def current_sqlite_schema(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The old schema with the migrations added since (bot/store/migrations)."""
    path = tmp_path_factory.mktemp("current") / "current.db"
    _old_sqlite(path, len(house.SQLITE))
    _newer_sqlite(path)
    return _sqlite_schema(path)


@pytest.mark.asyncio
@pytest.mark.parametrize("version", range(len(house.SQLITE) + 1))
async def test_a_sqlite_database_of_every_old_version_upgrades_to_the_old_schema(
        version: int, tmp_path: Path, current_sqlite_schema: dict[str, Any]) -> None:
    path = tmp_path / "t.db"
    _old_sqlite(path, version)
    store = await SqliteStorage.open(str(path))
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        if version >= 1:
            (seat,) = await store.seats(1)
            assert (seat.user_id, seat.name, seat.autopilot, seat.left) == (100, "Ann", None,
                                                                           False)
            assert (await store.game(1)).options == {"max_seats": 3}
    finally:
        await store.close()
    assert _sqlite_schema(path) == current_sqlite_schema


def test_the_house_database_has_the_old_schema(old_sqlite_schema: dict[str, Any]) -> None:
    assert _sqlite_schema(DATA / "house_schema7.db") == old_sqlite_schema


# ---------------------------------------------------------------------------- PostgreSQL
async def _old_postgres(url: str, version: int) -> None:
    con = await asyncpg.connect(url)
    try:
        async with con.transaction():
            await con.execute("CREATE TABLE IF NOT EXISTS schema_version "
                              "(version INTEGER NOT NULL)")
            for number in range(1, version + 1):
                await con.execute(house.POSTGRESQL[number - 1])
            if version:
                await con.execute("INSERT INTO schema_version (version) VALUES ($1)", version)
                await con.execute("INSERT INTO games (channel_id, host_id, status, options) "
                                  "VALUES (10, 100, 'lobby', '{\"max_seats\": 3}')")
                await con.execute("INSERT INTO seats (game_id, seat, user_id, ai_level, name) "
                                  "VALUES (1, 0, 100, NULL, 'Ann')")
    finally:
        await con.close()


async def _postgres_schema(url: str) -> dict[str, Any]:
    con = await asyncpg.connect(url)
    try:
        async def rows(sql: str) -> list[tuple[Any, ...]]:
            return sorted(tuple(r) for r in await con.fetch(sql))
        return {
            "columns": await rows(
                "SELECT table_name, column_name, data_type, is_nullable, column_default, "
                "collation_name, is_identity FROM information_schema.columns "
                "WHERE table_schema = 'public'"),
            "indexes": await rows("SELECT tablename, indexname, indexdef FROM pg_indexes "
                                  "WHERE schemaname = 'public'"),
            "constraints": await rows(
                "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) "
                "FROM pg_constraint WHERE connamespace = 'public'::regnamespace"),
            "triggers": await rows(
                "SELECT tgrelid::regclass::text, tgname, pg_get_triggerdef(oid) "
                "FROM pg_trigger WHERE NOT tgisinternal"),
            "functions": [(name, _words(src)) for name, src in await rows(
                "SELECT proname, prosrc FROM pg_proc "
                "WHERE pronamespace = 'public'::regnamespace")],
        }
    finally:
        await con.close()


@pytest.mark.asyncio
async def test_a_postgres_database_of_every_old_version_upgrades_to_the_old_schema(
        pg_server: Any) -> None:
    reference = pg_server.create_database(f"upgrade_old_{next(_names)}")
    await _old_postgres(reference, len(house.POSTGRESQL))
    con = await asyncpg.connect(reference)
    try:  # and the migrations added since
        for script in files.scripts(files.POSTGRESQL)[len(house.POSTGRESQL):]:
            await con.execute(script)
    finally:
        await con.close()
    expected = await _postgres_schema(reference)
    for version in range(len(house.POSTGRESQL) + 1):
        url = pg_server.create_database(f"upgrade_{version}_{next(_names)}")
        await _old_postgres(url, version)
        store = await PgStorage.open(url)
        try:
            assert await store.schema_version() == PG_SCHEMA_VERSION
            if version:
                assert (await store.game(1)).options == {"max_seats": 3}
                assert [s.name for s in await store.seats(1)] == ["Ann"]
        finally:
            await store.close()
        assert await _postgres_schema(url) == expected, f"from version {version}"


# ---------------------------------------------------------------------------- the old file
PLAYED, DONE, WAITING = 1, 2, 3  # the three games of house_schema7.db


@pytest.mark.asyncio
async def test_a_database_written_by_the_old_storage_loads_and_play_goes_on(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "house.db"
    shutil.copyfile(DATA / "house_schema7.db", path)
    report = await check(str(path))  # every log replays to its game's snapshot
    assert report.ok and [g.game_id for g in report.games] == [PLAYED, DONE, WAITING], \
        report.lines()
    caplog.set_level(logging.WARNING)
    store = await SqliteStorage.open(str(path))
    svc = TableService(store, CollectSink(), ai_delay=0, seed_source=lambda: 7)
    try:
        game = await store.game(PLAYED)
        assert (game.status, game.version, game.thread_id, game.turn_key) == (
            ACTIVE, 33, 7700, '["turn",1,0]')
        table = await svc.tables.get(PLAYED)
        assert table.state.to_json() == game.state and table.version == 33
        assert len(await store.actions(PLAYED)) == 30
        assert await store.deadlines(PLAYED) == [
            DeadlineRow(0, 3, 1000.0, 1180.5, 1, 0),
            DeadlineRow(1, None, strikes=1, covering='["turn",2,1]')]
        assert not await store.reminders_on(101) and await store.reminders_on(100)
        assert await store.user_locales([100, 102]) == {102: "pl"}
        assert await store.private_menus() == [MenuRow(9001, 9002, PLAYED, 102, 3, "Choose",
                                                       "pl")]
        assert (await store.game(DONE)).status == FINISHED
        assert await ledger.sync(store) == []  # its results were derived by the old code
        assert len(await store.results(1, game_ids=[DONE])) == 3
        assert len(await store.ratings(1)) == 2
        assert (await store.game(WAITING)).status == LOBBY
        assert len(await store.seats(WAITING)) == 2
        # play goes on: the played game moves on, the lobby starts
        rng = random.Random(2)
        for _ in range(10):
            uid, action, version = await next_move(svc, PLAYED, rng)
            await svc.act(PLAYED, uid, action, version)
        await svc.join(WAITING, 101, "Bob")
        await svc.start(WAITING, 100)
        await svc.idle()
        assert (await store.game(PLAYED)).version == 43
        assert len(await store.actions(PLAYED)) == 40
        assert (await store.game(WAITING)).status == ACTIVE
    finally:
        await svc.close()
        await store.close()
    assert not [r for r in caplog.records if "rebuilt from the log" in r.getMessage()]
    report = await check(str(path))
    assert report.ok and report.games[0].actions == 40, report.lines()
