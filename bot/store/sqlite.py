"""Durable storage on SQLite (aiosqlite, WAL mode): the embedded default, one bot process
per database file (:mod:`bot.store.file_lock`).

The storage methods themselves are bot/store/storage.py's, written once for both
databases; this module holds what is SQLite's own: opening the file (WAL, ``synchronous =
FULL``, foreign keys, the numbered migrations of bot/store/migrations/sqlite), the one
connection and its thread, transactions, and the mapping of SQLite's errors to
:class:`~bot.store.errors.StorageUnavailable` (disk full, locked past the busy timeout,
read-only, damaged, the file deleted or replaced under the running bot).

The log is the source of truth; the snapshot in ``games.state`` is a cache the table
service checks against a replay when it loads a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.runtime.json_text import compact
from bot.store import migrations
from bot.store import statements as q
from bot.store.errors import (
    BUSY,
    CORRUPT,
    FULL,
    GONE,
    IO,
    READONLY,
    StorageError,
    StorageUnavailable,
    VersionConflict,
)
from bot.store.file_lock import StoreLock
from bot.store.group_commit import Batch, Write
from bot.store.rows import BadText, Row, now_text
from bot.store.statements import Json, Sql
from bot.store.storage import Body, Entry, SqlStorage

T = TypeVar("T")
log = logging.getLogger(__name__)

MIGRATIONS: list[str] = migrations.scripts(migrations.SQLITE)
SCHEMA_VERSION = len(MIGRATIONS)

#: SQLite primary result codes that mean "the store, not the request, is the problem"
_REASONS = {
    sqlite3.SQLITE_FULL: FULL,
    sqlite3.SQLITE_BUSY: BUSY,
    sqlite3.SQLITE_LOCKED: BUSY,
    sqlite3.SQLITE_READONLY: READONLY,
    sqlite3.SQLITE_PERM: READONLY,
    sqlite3.SQLITE_IOERR: IO,
    sqlite3.SQLITE_CANTOPEN: IO,
    sqlite3.SQLITE_NOLFS: IO,
    sqlite3.SQLITE_CORRUPT: CORRUPT,
    sqlite3.SQLITE_NOTADB: CORRUPT,
}


def unavailable(exc: BaseException) -> StorageUnavailable | None:
    """``exc`` as a :class:`StorageUnavailable`, or None if it is not a failure of the store
    (a constraint, a programming error ...)."""
    if isinstance(exc, StorageUnavailable):
        return exc
    if isinstance(exc, UnicodeDecodeError):
        # results are decoded leniently (BadText): only SQLite's own error message can fail
        # to decode, and it quotes damaged bytes of the file (e.g. a damaged schema)
        return StorageUnavailable(CORRUPT, f"SQLite's error message is unreadable: {exc}")
    code = getattr(exc, "sqlite_errorcode", None)
    if not isinstance(exc, sqlite3.Error) or code is None:
        return None
    if code == sqlite3.SQLITE_READONLY_DBMOVED:
        return StorageUnavailable(GONE, str(exc))
    reason = _REASONS.get(code & 0xFF)
    return None if reason is None else StorageUnavailable(reason, str(exc))


@contextlib.contextmanager
def _failures_mapped(broke: Callable[[StorageUnavailable], None] | None = None
                     ) -> Iterator[None]:
    """Failures of the store raised as :class:`StorageUnavailable` (and logged); any other
    error as it is. A failure that means the file is damaged goes to ``broke`` too."""
    try:
        yield
    except (sqlite3.Error, UnicodeDecodeError) as exc:
        mapped = unavailable(exc)
        if mapped is None:
            raise
        log.warning("storage: %s", mapped)
        if mapped.reason == CORRUPT and broke is not None:
            broke(mapped)
        raise mapped from exc


def _text(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return BadText(raw.decode("utf-8", "replace"))


def _file_identity(path: str) -> tuple[int, int] | None:
    """(device, inode) of the file at ``path``; None when there is none."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return st.st_dev, st.st_ino


def _bind(params: dict[str, Any]) -> dict[str, Any]:
    """Parameters as SQLite takes them: JSON columns as their text, a list as a JSON array
    (the statements read it with ``json_each``)."""
    if not any(isinstance(v, Json | list | tuple) for v in params.values()):
        return params
    out = params.copy()
    for name, value in params.items():
        if isinstance(value, Json):
            out[name] = compact(value.value)
        elif isinstance(value, list | tuple):
            out[name] = json.dumps(value)
    return out



def _transaction(conn: sqlite3.Connection, records: list[tuple[str, dict[str, Any]]],
                 body: Callable[[sqlite3.Connection], T], *, durable: bool,
                 check: Callable[[], None]) -> T:
    """One write transaction on the connection's thread: ``records``, then ``body``,
    committed whole (``check`` before and before the commit: the file is still there) or
    rolled back whole. ``durable=False``: committed without an fsync
    (``synchronous=NORMAL`` for this transaction only)."""
    check()
    if not durable:
        conn.execute("PRAGMA synchronous=NORMAL")
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            for sql, params in records:
                conn.execute(sql, params)
            result = body(conn)
            check()
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            raise
    finally:
        if not durable:
            conn.execute("PRAGMA synchronous=FULL")
    return result

class _OnThread:
    """:class:`~bot.store.storage.Connection` on the sqlite3 connection itself, used on its
    thread: each call runs at once and never suspends, so a whole transaction body runs
    there in one hand-over (:func:`_run_to_end`)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: Sql, /, **params: Any) -> int:
        return self._conn.execute(sql.sqlite, _bind(params)).rowcount

    async def executemany(self, sql: Sql, params: Any) -> None:
        self._conn.executemany(sql.sqlite, [_bind(p) for p in params])

    async def fetch(self, sql: Sql, /, **params: Any) -> list[Row]:
        # every row: a statement left half-read would still be active at COMMIT
        return self._conn.execute(sql.sqlite, _bind(params)).fetchall()


def _run_to_end(coro: Coroutine[Any, Any, T]) -> T:
    """The result of a coroutine that never suspends (a transaction body on
    :class:`_OnThread`), run here and now on the calling thread."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise RuntimeError("a SQLite transaction body waited for something other than SQLite")


class SqliteStorage(SqlStorage):
    """:class:`~bot.store.protocol.Storage` on one aiosqlite connection; a lock keeps
    transactions whole. Every write runs whole on the connection's thread
    (:meth:`_tx_on_thread`), every read as one hand-over (:meth:`_on_thread`).

    Before every commit the database file is checked to be the one opened (same device
    and inode): a file deleted or replaced under the running bot would otherwise take
    commits that nobody will ever read."""

    _CHANNEL_TAKEN = (sqlite3.IntegrityError,)

    def __init__(self, db: aiosqlite.Connection, path: str, *,
                 file_lock: StoreLock | None = None) -> None:
        self._db = db
        self.path = path
        self._lock = asyncio.Lock()
        self._file_lock = file_lock
        self._abspath = None if _in_memory(path) else os.path.abspath(path)
        self._identity = None if self._abspath is None else _file_identity(self._abspath)
        self._wal_identity: tuple[int, int] | None = None
        #: why every write is refused until a restart (the file deleted, replaced or
        #: damaged under the running bot); None while the file is sound
        self.broken: StorageUnavailable | None = None
        #: told once when the storage breaks (the players of the games in play are told)
        self.on_broken: Callable[[StorageUnavailable], None] | None = None
        self._loop = asyncio.get_running_loop()
        #: records of what Discord shows (``_write_shown``) not written yet, by statement
        #: and game (the newest of each): they ride with the next job on the connection's
        #: thread, or go on their own after ``SHOWN_WAIT_S``
        self._shown: dict[tuple[str, int], dict[str, Any]] = {}
        self._shown_timer: asyncio.TimerHandle | None = None
        self._shown_flush: asyncio.Task[None] | None = None
        #: the write transactions queued on the connection's thread as one job that more
        #: may still join (bot/store/group_commit.py): the last job queued, not started
        self._open_batch: Batch | None = None
        #: a quick check started because a write met something it should not have
        self._suspect_check: asyncio.Task[list[str]] | None = None

    @classmethod
    async def open(cls, path: str, *, busy_timeout: float = 5.0,
                   read_only: bool = False) -> SqliteStorage:
        """Open (creating and migrating) the database at ``path``.

        Raises :class:`StoreInUse` when another process has it open, and
        :class:`StorageUnavailable` when the file cannot be opened or written.
        ``busy_timeout``: seconds to wait for another program's lock on the file.
        ``read_only``: inspect an existing file without locking, migrating or writing
        (``python -m bot check-db``; the bot may be running on it)."""
        file_lock = None
        if not read_only and not _in_memory(path):
            try:
                file_lock = StoreLock.acquire(path)
            except OSError as exc:  # e.g. a read-only or missing directory
                reason = READONLY if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM) \
                    else IO
                raise StorageUnavailable(reason, f"cannot lock {path}: {exc.strerror}") \
                    from exc
        try:
            if read_only:
                if not Path(path).is_file():
                    raise StorageUnavailable(IO, f"no database file at {path}")
                db = await aiosqlite.connect(Path(path).absolute().as_uri() + "?mode=ro",
                                             uri=True, isolation_level=None)
            else:
                db = await aiosqlite.connect(path, isolation_level=None)
        except BaseException as exc:
            if file_lock is not None:
                file_lock.release()
            mapped = unavailable(exc)
            if mapped is not None and mapped is not exc:
                raise mapped from exc
            raise
        db.row_factory = sqlite3.Row
        db.text_factory = _text
        store = cls(db, path, file_lock=file_lock)
        try:
            await store._configure(busy_timeout, read_only)
        except BaseException as exc:
            await store.close()
            mapped = unavailable(exc)
            if mapped is not None and mapped is not exc:
                raise mapped from exc
            raise
        return store

    async def _configure(self, busy_timeout: float, read_only: bool) -> None:
        db = self._db
        # the statements are PostgreSQL's too: now() is the time as the columns hold it
        await db.create_function("now", 0, now_text)
        await db.execute(f"PRAGMA busy_timeout={max(0, int(busy_timeout * 1000))}")
        if read_only:
            await db.execute("PRAGMA query_only=ON")
            return
        await db.execute("PRAGMA journal_mode=WAL")
        # FULL: a commit is on disk (fsync) before the bot announces the action, so even a
        # power cut loses nothing announced; NORMAL would only survive a process crash
        await db.execute("PRAGMA synchronous=FULL")
        await db.execute("PRAGMA foreign_keys=ON")
        await self.migrate()
        if self._abspath is not None:
            self._identity = _file_identity(self._abspath)
            self._wal_identity = _file_identity(self._abspath + "-wal")

    async def close(self) -> None:
        if self._suspect_check is not None:
            await asyncio.gather(self._suspect_check, return_exceptions=True)
        await self._flush_shown()
        self._open_batch = None
        if self._shown_timer is not None:
            self._shown_timer.cancel()
            self._shown_timer = None
        moved = self._abspath is not None and _file_identity(self._abspath) != self._identity
        try:
            await self._db.close()
        finally:
            if self.journal is not None:
                self.journal.close()
            if moved:
                self._retire_wal()
            if self._file_lock is not None:
                self._file_lock.release()
                self._file_lock = None

    def _retire_wal(self) -> None:
        """After the database file was deleted or replaced: SQLite leaves our write-ahead
        log beside the path, where it would be applied to whatever file is opened there
        next (damaging it). Keep it under another name instead."""
        assert self._abspath is not None
        wal = self._abspath + "-wal"
        if self._wal_identity is None or _file_identity(wal) != self._wal_identity:
            return  # not ours (or none): leave it
        kept = f"{wal}.orphaned-{os.getpid()}"
        with contextlib.suppress(OSError):
            os.replace(wal, kept)
            Path(self._abspath + "-shm").unlink(missing_ok=True)
            log.error("the database file was deleted or replaced: its write-ahead log is "
                      "kept as %s, away from the new file", kept)

    def _check_file(self) -> None:
        """Refuse to write unless the file at our path is still the one we opened, and
        sound as far as we know."""
        if self.broken is not None:
            raise StorageUnavailable(self.broken.reason, self.broken.detail)
        if self._abspath is None:
            return
        now = _file_identity(self._abspath)
        if now is not None and now == self._identity:
            return
        detail = (f"{self._abspath} was deleted" if now is None else
                  f"{self._abspath} was replaced by another file")
        self._break(StorageUnavailable(GONE, detail))
        raise StorageUnavailable(GONE, detail)

    def _break(self, why: StorageUnavailable) -> None:
        """From now on refuse every write (a file deleted, replaced or damaged under the
        running bot would take commits that nobody can read back); say so once, with what
        the operator should do."""
        if self.broken is not None:
            return
        self.broken = why
        if why.reason == GONE:
            log.error("the database %s; refusing every write until the bot is restarted",
                      why.detail.removeprefix(f"{self._abspath} "))
        else:
            log.error("the database %s is damaged (%s): refusing every write from now on. "
                      "Stop the bot, run `python -m bot restore --db %s` (the last backup "
                      "and every change since, from the journal), and start the bot again",
                      self.path, why.detail, self.path)
        if self.on_broken is not None:
            # (a write finds it on the connection's thread: the callback runs on the loop)
            self._loop.call_soon_threadsafe(self.on_broken, why)

    async def rotate_journal(self, stamp: str) -> None:
        journal = self.journal
        if journal is not None:
            # on the connection's thread: between two batches, never inside one
            await self._on_thread(lambda _conn: journal.rotate(stamp))

    async def writable(self) -> str | None:
        """Whether a write would be taken now (the health probe): None if so, else why
        not. Takes the write lock and lets it go at once, writing nothing."""
        def job(conn: sqlite3.Connection) -> None:
            self._check_file()
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("ROLLBACK")
        try:
            await self._on_thread(job)
        except StorageUnavailable as exc:
            return f"{exc.reason}: {exc.detail}" if exc.detail else exc.reason
        return None

    async def quick_check(self) -> list[str]:
        """SQLite's ``PRAGMA quick_check`` on a connection of its own, in a thread (the
        bot's connection and the event loop go on meanwhile): nothing when the file is
        sound; otherwise the storage breaks (:meth:`_break`). A file already known to be
        broken, or in memory, is not checked."""
        if self._abspath is None or self.broken is not None:
            return []
        problems = await asyncio.to_thread(_quick_check, self._abspath)
        if problems and self.broken is None:
            self._break(StorageUnavailable(CORRUPT, "; ".join(problems[:3])))
        return problems

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction of several round trips (the migrations); failures of the
        store become :class:`StorageUnavailable` after a rollback, so nothing of it is
        kept."""
        await self._flush_shown()
        async with self._lock:
            self._open_batch = None  # its statements are queued after it
            with _failures_mapped(self._break):
                self._check_file()
                await self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                    self._check_file()
                    await self._db.execute("COMMIT")
                    self._note_wal()
                except BaseException:
                    await self._rollback()
                    raise

    async def _tx_on_thread(self, body: Callable[[sqlite3.Connection], T],
                            entry: Entry | None = None) -> T:
        """One write transaction run whole on the connection's thread: one hand-over to
        it and back instead of one per statement. Under load the event loop is slow to
        take each result back, and a transaction of several round trips (:meth:`_tx`)
        waits for it at every statement while holding the one connection. Same
        guarantees as :meth:`_tx` (nothing of a failed one is kept). Writes that wait
        for the thread together are committed together, each in a savepoint, with one
        fsync (bot/store/group_commit.py): it joins the last job queued if that is a
        batch of writes the thread has not started. ``entry``: the change as the journal
        keeps it (written with the batch, before its commit)."""
        async with self._lock:  # not inside another transaction; free: no wait at all
            pass
        write = Write(body, self._take_shown(), self._loop.create_future(), entry)
        batch = self._open_batch
        if batch is None or not batch.join(write):
            batch = Batch(self._loop, self._check_file, [write], self.journal)
            try:
                await self._on_thread(batch.run, shown=False, batch=batch)
            except asyncio.CancelledError:
                raise  # (it is queued: it runs, and answers the writes that joined it)
            except BaseException as exc:
                batch.fail_unstarted(exc)  # it could not be queued
        try:
            with _failures_mapped(self._break):
                result: T = await write.future
        except BaseException:
            self._keep_shown(write.records, returned=True)
            raise
        self._note_wal()
        return result

    def _note_wal(self) -> None:
        """Remember our write-ahead log once the first commit made it (:meth:`_retire_wal`)."""
        if self._wal_identity is None and self._abspath is not None:
            self._wal_identity = _file_identity(self._abspath + "-wal")

    async def _on_thread(self, job: Callable[[sqlite3.Connection], T], *,
                         shown: bool = True, batch: Batch | None = None) -> T:
        """Run ``job`` on the connection's thread as one hand-over, after every call handed
        over before it. It waits while a transaction of several round trips (:meth:`_tx`,
        :meth:`_reading`) holds the connection, but does not hold it itself: the thread
        runs the jobs one after another, so nothing can come between a job's statements,
        and the next job starts at once instead of after the event loop has taken this
        one's result back (under load the loop is slow to do so, and the connection
        would sit idle while every other game queued for it). ``shown``: records of what
        Discord shows that wait (``_write_shown``) are written first, in a transaction of
        their own, so the job reads them (a write transaction takes them in itself).
        ``batch``: the job is that batch of writes, which more may join until another job
        is queued after it."""
        async with self._lock:  # not inside another transaction; free: no wait at all
            pass
        pending = self._take_shown() if shown else []
        if pending:
            inner = job

            def job(conn: sqlite3.Connection) -> T:
                self._write_shown_now(conn, pending)
                return inner(conn)
        try:
            with _failures_mapped(self._break):
                # aiosqlite (pinned) has no public "run this on the connection's thread";
                # its _execute queues the job before its first await, so jobs keep their
                # order (and the batch is open exactly while it is the last one queued)
                self._open_batch = batch
                return await self._db._execute(job, self._db._conn)
        except BaseException:
            self._keep_shown(pending, returned=True)
            raise

    # ------------------------------------------------------------------ what is shown
    #: a record of what Discord shows waits at most this long for a job to take it along
    SHOWN_WAIT_S = 0.05

    async def _write_shown(self, sql: Sql, /, **params: Any) -> int:
        """Keep the record for the next job on the connection's thread (any read or write
        takes it along: no hand-over and no commit of its own) or ``SHOWN_WAIT_S`` from
        now, whichever comes first; of several records of one game, the newest (with the
        highest version shown). Until then the records are in memory only: a crash loses
        at most that much, and the start-up then posts the position again (see
        ``SqlStorage._write_shown``). Returns 1 (rows changed is not known yet)."""
        self._keep_shown([(sql.sqlite, _bind(params))])
        return 1

    def _keep_shown(self, records: list[tuple[str, dict[str, Any]]], *,
                    returned: bool = False) -> None:
        """Records to write with the next job; ``returned``: given back by a failed job,
        so older than any record of the same game kept since, which wins over them. A
        newer record of the same game wins; the highest version shown stays."""
        for sql, params in records:
            key = (sql, int(params["game_id"]))
            old = self._shown.get(key)
            if old is not None and "announced" in params:
                shown = [v for v in (old.get("announced"), params["announced"])
                         if v is not None]
                announced = max(shown) if shown else None
                params = {**(old if returned else params), "announced": announced}
            elif old is not None and returned:
                continue
            self._shown[key] = params
        if self._shown and self._shown_timer is None:
            self._shown_timer = self._loop.call_later(self.SHOWN_WAIT_S, self._shown_due)

    def _take_shown(self) -> list[tuple[str, dict[str, Any]]]:
        """The waiting records, taken for a job about to be handed over."""
        if self._shown_timer is not None:
            self._shown_timer.cancel()
            self._shown_timer = None
        taken = [(sql, params) for (sql, _), params in self._shown.items()]
        self._shown = {}
        return taken

    def _shown_due(self) -> None:
        self._shown_timer = None
        if self._shown and (self._shown_flush is None or self._shown_flush.done()):
            self._shown_flush = asyncio.ensure_future(self._flush_shown())

    async def flush_shown(self) -> None:
        await self._flush_shown()

    async def _flush_shown(self) -> None:
        """Write the waiting records now (on their own: no other job came)."""
        if not self._shown:
            return
        try:
            await self._on_thread(lambda conn: None)
        except Exception as exc:  # kept for the next job (_on_thread gave them back)
            log.warning("could not record the turn messages shown: %s", exc)

    def _write_shown_now(self, conn: sqlite3.Connection,
                         records: list[tuple[str, dict[str, Any]]]) -> None:
        """The records in a transaction of their own without an fsync (on the thread)."""
        _transaction(conn, records, lambda _conn: None, durable=False, check=self._check_file)

    async def _fetch(self, sql: str, args: tuple[Any, ...] | dict[str, Any] = ()) -> list[Any]:
        """The rows of one query, read in one hand-over (:meth:`_on_thread`)."""
        return await self._on_thread(lambda conn: conn.execute(sql, args).fetchall())

    async def _read(self, sql: Sql, /, **params: Any) -> list[Row]:
        return await self._fetch(sql.sqlite, _bind(params))

    async def _write(self, body: Body[T], entry: Entry | None = None) -> T:
        try:
            return await self._tx_on_thread(lambda conn: _run_to_end(body(_OnThread(conn))),
                                            entry)
        except VersionConflict:
            self._check_soon()
            raise

    def _check_soon(self) -> None:
        """Run the quick check now, not at its next turn. One process writes the file and
        the table service checks a game's version before it writes, so a version conflict
        here is rare; damaged pages can cause it without any error of SQLite's (the row is
        not found where it is), and then every action of the game would be refused as
        stale until the periodic check."""
        if self._suspect_check is None or self._suspect_check.done():
            self._suspect_check = asyncio.ensure_future(self.quick_check())


    async def _rollback(self) -> None:
        # some errors (SQLITE_FULL, SQLITE_IOERR ...) already rolled the transaction back
        if self._db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                await self._db.execute("ROLLBACK")

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[aiosqlite.Connection]:
        await self._flush_shown()
        async with self._lock:
            self._open_batch = None  # its statements are queued after it
            with _failures_mapped(self._break):
                yield self._db

    async def schema_version(self) -> int:
        async with self._reading() as db:
            cur = await db.execute(
                "SELECT name FROM sqlite_master WHERE type='table' AND name='schema_version'")
            if await cur.fetchone() is None:
                return 0
            cur = await db.execute(q.SCHEMA_VERSION.sqlite)
            row = await cur.fetchone()
            return int(row[0] or 0) if row else 0

    async def migrate(self) -> None:
        """Apply every migration newer than the database, each in its own transaction."""
        current = await self.schema_version()
        if current > SCHEMA_VERSION:
            raise StorageError(f"database schema {current} is newer than this bot "
                               f"({SCHEMA_VERSION}); upgrade the bot")
        for number in range(current + 1, SCHEMA_VERSION + 1):
            async with self._tx() as db:
                await db.execute(q.CREATE_SCHEMA_VERSION.sqlite)
                for stmt in _statements(MIGRATIONS[number - 1]):
                    await db.execute(stmt)
                for sql in q.SET_SCHEMA_VERSION:
                    await db.execute(sql.sqlite, {"version": number})

    async def integrity_problems(self) -> list[str]:
        """SQLite's ``PRAGMA integrity_check``: nothing when the file is sound."""
        async with self._reading() as db:
            # as bytes: the report may quote damaged text that is not valid UTF-8
            cur = await db.execute(
                "SELECT CAST(integrity_check AS BLOB) FROM pragma_integrity_check")
            rows = [bytes(r[0]).decode("utf-8", "replace") for r in await cur.fetchall()]
        return [] if rows == ["ok"] else rows

    async def foreign_key_problems(self) -> list[tuple[Any, ...]]:
        """``PRAGMA foreign_key_check``: rows (table, rowid, parent, fk) pointing at nothing."""
        async with self._reading() as db:
            cur = await db.execute("PRAGMA foreign_key_check")
            return [tuple(r) for r in await cur.fetchall()]


def _quick_check(path: str) -> list[str]:
    """``PRAGMA quick_check`` of the file at ``path``, read-only (run in a thread)."""
    try:
        conn = sqlite3.connect(Path(path).absolute().as_uri() + "?mode=ro", uri=True,
                               timeout=5.0)
    except sqlite3.Error as exc:
        mapped = unavailable(exc)
        return [str(exc)] if mapped is not None and mapped.reason == CORRUPT else []
    try:
        rows = conn.execute("SELECT CAST(quick_check AS BLOB) FROM pragma_quick_check"
                            ).fetchall()
        found = [bytes(r[0]).decode("utf-8", "replace") for r in rows]
        return [] if found == ["ok"] else found
    except (sqlite3.Error, UnicodeDecodeError) as exc:
        mapped = unavailable(exc)
        # busy or gone: not a verdict on the file's pages (the next check tries again)
        return [str(exc)] if mapped is not None and mapped.reason == CORRUPT else []
    finally:
        conn.close()


def _in_memory(path: str) -> bool:
    return path in ("", ":memory:")


def _statements(script: str) -> list[str]:
    """Split a migration into statements (triggers contain ';' inside BEGIN ... END)."""
    out: list[str] = []
    buf: list[str] = []
    for line in script.strip().splitlines():
        buf.append(line)
        joined = "\n".join(buf).strip()
        if joined.endswith(";") and sqlite3.complete_statement(joined):
            out.append(joined)
            buf = []
    if "\n".join(buf).strip():
        out.append("\n".join(buf).strip())
    return out
