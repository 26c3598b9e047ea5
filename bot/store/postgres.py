"""PostgreSQL storage (asyncpg): the same storage as SQLite, shared by several bot
processes.

Why a second backend: past one process (gateway sharding), every process must see every
game, and the database is where actions are serialised. Each write is one transaction whose
first statement is ``UPDATE games SET version = version + 1 ... WHERE id = :game_id AND
version = :version``: the row lock it takes makes a concurrent writer wait, and that
writer's version check then matches nothing, so of two actions made on the same version
exactly one is stored and the other gets :class:`~bot.store.errors.VersionConflict`. The
in-process ``asyncio.Lock`` of the table service only saves round trips; it is not the
guarantee.

The storage methods themselves are bot/store/storage.py's, written once for both
databases; this module holds what is PostgreSQL's own: the connection pool, transactions,
the mapping of its errors to :class:`~bot.store.errors.StorageUnavailable`, and two things
only several processes need. A write made for a game this process does not own (see
:mod:`bot.cluster.ownership`) also sends a ``NOTIFY`` inside the same transaction
(:attr:`PgStorage.notify_when`), so the owner hears of it exactly when it is committed and
never of a rolled-back one; and the writes of one server's ratings are serialised
(:meth:`PgStorage._ratings_taken`).

Schema: the numbered files of bot/store/migrations/postgresql (:data:`PG_MIGRATIONS`),
applied in order at start-up, all of them in one transaction under
``pg_advisory_xact_lock``: of two processes starting at once, the second waits and then
finds nothing left to do. bot/store/migrations/__init__.py says how to extend them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import asyncpg

from bot.runtime.json_text import compact
from bot.store import migrations
from bot.store import pg_notify as notify_pg
from bot.store import statements as q
from bot.store.errors import (
    BUSY,
    CORRUPT,
    FULL,
    IO,
    OFFLINE,
    READONLY,
    StorageError,
    StorageUnavailable,
)
from bot.store.rows import Row
from bot.store.statements import Json, Sql
from bot.store.storage import Body, Connection, Entry, SqlStorage

T = TypeVar("T")
log = logging.getLogger(__name__)

#: key of the advisory lock that serialises schema migrations across processes
MIGRATION_LOCK = 0x74656D70  # "temp"
#: first key of the advisory locks that serialise one server's rating writes
_RATINGS_LOCK = 0x72617465  # "rate"

PG_MIGRATIONS: list[str] = migrations.scripts(migrations.POSTGRESQL)
PG_SCHEMA_VERSION = len(PG_MIGRATIONS)


async def _init_connection(con: asyncpg.Connection) -> None:
    # JSONB: written from Python values, read as its text, which bot/store/rows.py decodes
    # as it does SQLite's
    await con.set_type_codec("jsonb", encoder=compact, decoder=str, schema="pg_catalog")


def _args(sql: Sql, params: dict[str, Any]) -> list[Any]:
    """PostgreSQL's positional arguments (a JSON column's value as such: the codec
    encodes it)."""
    return [v.value if isinstance(v, Json) else v for v in sql.args(params)]


def _changed(status: str) -> int:
    """Rows changed, from a command status such as ``UPDATE 1`` or ``INSERT 0 3``."""
    tail = status.rsplit(" ", 1)[-1]
    return int(tail) if tail.isdigit() else 0


class _Transaction:
    """:class:`~bot.store.storage.Connection` on a pooled asyncpg connection in a
    transaction."""

    def __init__(self, con: asyncpg.Connection) -> None:
        self.con = con

    async def execute(self, sql: Sql, /, **params: Any) -> int:
        return _changed(await self.con.execute(sql.postgresql, *_args(sql, params)))

    async def executemany(self, sql: Sql, params: Any) -> None:
        await self.con.executemany(sql.postgresql, [_args(sql, p) for p in params])

    async def fetch(self, sql: Sql, /, **params: Any) -> list[Row]:
        return await self.con.fetch(sql.postgresql, *_args(sql, params))


#: SQLSTATE classes and codes that mean "the database, not the request, is the problem"
_REASONS_BY_CODE = {
    "53100": FULL,  # disk_full
    "53200": FULL,  # out_of_memory
    "53300": BUSY,  # too_many_connections
    "40001": BUSY,  # serialization_failure
    "40P01": BUSY,  # deadlock_detected
    "55P03": BUSY,  # lock_not_available
    "57014": BUSY,  # query_canceled (statement_timeout)
    "25006": READONLY,  # read_only_sql_transaction (a standby, or default read-only)
    "42501": READONLY,  # insufficient_privilege
    "XX001": CORRUPT,  # data_corrupted
    "XX002": CORRUPT,  # index_corrupted
}
_REASONS_BY_CLASS = {"08": OFFLINE, "57": OFFLINE, "53": FULL, "58": IO}


def unavailable(exc: BaseException) -> StorageUnavailable | None:
    """``exc`` as a :class:`StorageUnavailable`, or None if it is not a failure of the
    database (a constraint, a version conflict, a programming error ...)."""
    if isinstance(exc, StorageUnavailable):
        return exc
    if isinstance(exc, asyncpg.PostgresError):
        code = getattr(exc, "sqlstate", None) or ""
        reason = _REASONS_BY_CODE.get(code) or _REASONS_BY_CLASS.get(code[:2])
        return None if reason is None else StorageUnavailable(reason, str(exc))
    if isinstance(exc, asyncpg.InterfaceError) and "closed" in str(exc):
        return StorageUnavailable(OFFLINE, str(exc))  # "connection is closed"
    if isinstance(exc, OSError | asyncio.TimeoutError | ConnectionError):
        # the server cannot be reached (refused, reset, unreachable, pool/connect timeout)
        return StorageUnavailable(OFFLINE, f"{type(exc).__name__}: {exc}")
    return None


async def migrate(con: asyncpg.Connection) -> int:
    """Bring the schema up to date in one transaction, serialised across processes by an
    advisory lock; returns how many migrations this call applied."""
    async with con.transaction():
        await con.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await con.execute(q.CREATE_SCHEMA_VERSION.postgresql)
        current = await con.fetchval(q.SCHEMA_VERSION.postgresql) or 0
        if current > PG_SCHEMA_VERSION:
            raise StorageError(f"database schema {current} is newer than this bot "
                               f"({PG_SCHEMA_VERSION}); upgrade the bot")
        for number in range(current + 1, PG_SCHEMA_VERSION + 1):
            await con.execute(PG_MIGRATIONS[number - 1])
        if current < PG_SCHEMA_VERSION:
            for sql in q.SET_SCHEMA_VERSION:
                await con.execute(sql.postgresql, *sql.args({"version": PG_SCHEMA_VERSION}))
        return PG_SCHEMA_VERSION - current


class PgStorage(SqlStorage):
    """:class:`~bot.store.protocol.Storage` on an asyncpg connection pool.

    Failures of the database (server unreachable or restarting, disk full, a read-only
    standby, lock or statement timeouts ...) surface as
    :class:`~bot.store.errors.StorageUnavailable` with a ``reason``, as on SQLite; the
    transaction is rolled back. One case differs: when the connection breaks while the
    ``COMMIT`` is under way, the server may or may not have committed. The caller treats it
    as not done; if it was done, the game's version has moved on, so the next write on the
    old version gets :class:`~bot.store.errors.VersionConflict` and the table service reloads
    the game (nothing applied twice, nothing lost)."""

    _CHANNEL_TAKEN = (asyncpg.UniqueViolationError,)

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self.url = url
        #: called with a game's guild id on every version change; True: tell the game's
        #: owner by NOTIFY in the same transaction (set by :mod:`bot.cluster.coordinator`)
        self.notify_when: Callable[[int | None], bool] | None = None

    @classmethod
    async def open(cls, url: str, *, min_size: int = 1, max_size: int = 10,
                   read_only: bool = False, timeout: float = 10.0) -> PgStorage:
        """Connect (and migrate, unless ``read_only``: then every transaction is read-only,
        for ``python -m bot check-db`` beside a running bot). Raises
        :class:`~bot.store.errors.StorageUnavailable` when the server cannot be reached."""
        settings = {"default_transaction_read_only": "on"} if read_only else None
        try:
            pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size,
                                             init=_init_connection, timeout=timeout,
                                             server_settings=settings)
        except Exception as exc:
            mapped = unavailable(exc)
            if mapped is not None:
                raise mapped from exc
            raise
        store = cls(pool, url)
        try:
            if not read_only:
                await store.migrate()
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        await self._pool.close()

    @asynccontextmanager
    async def _con(self) -> AsyncIterator[asyncpg.Connection]:
        """A pooled connection; failures of the database become StorageUnavailable."""
        try:
            async with self._pool.acquire() as con:
                yield con
        except Exception as exc:
            mapped = unavailable(exc)
            if mapped is None or mapped is exc:
                raise
            log.warning("storage: %s", mapped)
            raise mapped from exc

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[asyncpg.Connection]:
        """One transaction (rolled back on any failure)."""
        async with self._con() as con, con.transaction():
            yield con

    async def migrate(self) -> int:
        async with self._con() as con:
            return await migrate(con)

    async def writable(self) -> str | None:
        """Whether a write would be taken now (the health probe): None if so, else why
        not (a server that cannot be reached, a read-only standby)."""
        try:
            async with self._con() as con:
                standby = await con.fetchval("SELECT pg_is_in_recovery()")
        except StorageUnavailable as exc:
            return f"{exc.reason}: {exc.detail}" if exc.detail else exc.reason
        return "readonly: the server is a standby" if standby else None

    async def quick_check(self) -> list[str]:
        """Nothing to do here: PostgreSQL checks its own pages (data checksums) and its
        errors of damaged data (XX001, XX002) are refusals like any other."""
        return []

    async def schema_version(self) -> int:
        async with self._con() as con:
            exists = await con.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
            if not exists:
                return 0
            return int(await con.fetchval(q.SCHEMA_VERSION.postgresql) or 0)

    async def integrity_problems(self) -> list[str]:
        """Data-page checksum failures PostgreSQL has counted in this database (reported
        only when the cluster was initialised with checksums): nothing when sound."""
        async with self._con() as con:
            failures = await con.fetchval(
                "SELECT checksum_failures FROM pg_stat_database "
                "WHERE datname = current_database()")
        return [f"{failures} data page checksum failure(s)"] if failures else []

    async def foreign_key_problems(self) -> list[tuple[Any, ...]]:
        """Rows pointing at no game, as ``(table, key, parent, 0)`` like SQLite's
        ``foreign_key_check`` (PostgreSQL enforces the keys; this finds rows written while
        they were switched off, e.g. by ``session_replication_role = replica``)."""
        out: list[tuple[Any, ...]] = []
        async with self._con() as con:
            for table, key in (("seats", "seat"), ("actions", "seq"), ("results", "seat"),
                               ("rated_games", "game_id"), ("deadlines", "seat"),
                               ("private_menus", "message_id"),
                               ("hand_messages", "user_id"), ("turn_mutes", "user_id")):
                rows = await con.fetch(
                    f"SELECT t.game_id, t.{key} FROM {table} t WHERE NOT EXISTS "
                    "(SELECT 1 FROM games g WHERE g.id = t.game_id) ORDER BY 1, 2")
                out.extend((table, f"{r[0]}/{r[1]}", "games", 0) for r in rows)
        return out

    # ------------------------------------------------------------------ the storage's own
    async def _read(self, sql: Sql, /, **params: Any) -> list[Row]:
        async with self._con() as con:
            return await con.fetch(sql.postgresql, *_args(sql, params))

    async def _write(self, body: Body[T], entry: Entry | None = None) -> T:
        # no journal of its own: PostgreSQL's write-ahead log is one (README, 'Backups')
        async with self._tx() as con:
            return await body(_Transaction(con))

    async def _write_one(self, sql: Sql, /, entry: Entry | None = None, **params: Any) -> int:
        # a statement on its own is a transaction of its own: no BEGIN/COMMIT round trips
        async with self._con() as con:
            return _changed(await con.execute(sql.postgresql, *_args(sql, params)))

    async def _bumped(self, con: Connection, game_id: int, version: int,
                      guild_id: int | None) -> None:
        if self.notify_when is not None and self.notify_when(guild_id):
            assert isinstance(con, _Transaction)
            await notify_pg.notify(con.con, game_id, version)

    async def _ratings_taken(self, con: Connection, guild_id: int,
                             rated: list[tuple[int, str]], replace: bool) -> bool:
        """Several processes may bring one server's ratings up to date at once (each one's
        ``bot.history.ledger.sync`` lock is its own). The writes of a server are serialised
        by an advisory lock, and an incremental write (not ``replace``) that includes a game
        another process has rated meanwhile is dropped: it was computed from ratings that
        are no longer current, and applying it would count that game twice or undo the
        other's work. The next sync applies whatever is still missing."""
        assert isinstance(con, _Transaction)
        await con.con.execute("SELECT pg_advisory_xact_lock($1, $2)", _RATINGS_LOCK,
                              guild_id & 0x7FFFFFFF)
        if replace or not rated or not await con.con.fetchval(
                "SELECT EXISTS (SELECT 1 FROM rated_games WHERE game_id = ANY($1::bigint[]))",
                [g for g, _ in rated]):
            return False
        log.info("ratings of server %s: another process rated these games first", guild_id)
        return True
