"""Group commit on SQLite: the write transactions that wait for the connection's thread
together are committed together, with one ``COMMIT`` and so one fsync.

On SQLite with ``synchronous=FULL`` most of a write's cost on the connection's thread is
its commit's fsync of the write-ahead log (on the development machine about half of the
thread's CPU per action). Under load several games' actions wait for the thread while it
writes one; each of them would pay for an fsync of its own.

A :class:`Batch` is one job on the connection's thread. The first write that finds no
open batch queues a new one (:meth:`bot.store.sqlite.SqliteStorage._tx_on_thread`); every
write after it joins it while the batch is **open**: not started on the thread yet, and
no other job queued on the thread after it (a read, a flush of what is shown, a
transaction of several round trips). So a write joins only a job that would have run
just before its own: the order of the thread's jobs, as the event loop queued them, is
kept, and nothing that a job queued later reads or writes can come between.

On the thread (:meth:`Batch.run`) each write runs in a savepoint of one transaction: one
that raises (a version conflict, a broken constraint) is rolled back to its savepoint
alone and fails alone; the others are committed. The transaction is committed, with one
fsync, before any of its writes is answered: each is as durable, when its caller hears
of it, as a transaction of its own. If the commit fails (or SQLite rolled the whole
transaction back after an error of the store, such as a full disk), every write not yet
failed fails with that error and nothing of them is kept. A batch of one write runs the
same statements as a transaction of its own (no savepoint).

With a journal (bot/store/journal.py) the entries of the writes that succeeded are
appended to it after the statements and before the ``COMMIT``, and synced beside it: a
write is answered only once it is on disk in both. If the journal cannot be written,
nothing is committed; if the commit fails after it, the batch is marked there as not
committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.store.errors import FULL, IO, StorageUnavailable
from bot.store.journal import Journal, Pending

#: a statement with its parameters (the records of what Discord shows, see
#: ``SqliteStorage._write_shown``)
Record = tuple[str, dict[str, Any]]


@dataclass
class Write:
    """One write transaction waiting for its batch: ``records`` first, then ``body``,
    both on the connection's thread; ``future`` gets the body's result or its error."""

    body: Callable[[sqlite3.Connection], Any]
    records: list[Record]
    future: asyncio.Future[Any]
    #: the journal's text of the change, from the body's result (None: not journaled)
    entry: Callable[[Any], str] | None = None


@dataclass
class Batch:
    """The writes of one job on the connection's thread."""

    loop: asyncio.AbstractEventLoop
    #: raises (``StorageUnavailable``) unless the database file is still the one opened
    check: Callable[[], None]
    writes: list[Write] = field(default_factory=list)
    #: where the writes' entries go before the commit (None: no journal)
    journal: Journal | None = None
    #: the thread took the writes: no more may join
    started: bool = False
    guard: threading.Lock = field(default_factory=threading.Lock)

    def join(self, write: Write) -> bool:
        """Add ``write`` unless the thread has taken the batch already."""
        with self.guard:
            if self.started:
                return False
            self.writes.append(write)
            return True

    def take(self) -> list[Write]:
        """The writes, once: no more join after this."""
        with self.guard:
            if self.started:
                return []
            self.started = True
            return self.writes

    def fail_unstarted(self, exc: BaseException) -> None:
        """The batch could not be queued (e.g. the connection is closed): its writes fail
        with ``exc`` (on the event loop)."""
        for w in self.take():
            if not w.future.done():
                w.future.set_exception(exc)

    def run(self, conn: sqlite3.Connection) -> None:
        """On the connection's thread: the writes in one transaction, each answered after
        the commit (or with its error)."""
        writes = self.take()
        if not writes:
            return
        try:
            outcomes = _transaction(conn, writes, self.check, self.journal)
        except BaseException as exc:  # (e.g. the connection broke under it)
            outcomes = [(False, exc)] * len(writes)
        for w, (ok, value) in zip(writes, outcomes, strict=True):
            self.loop.call_soon_threadsafe(_settle, w.future, ok, value)


def _settle(future: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if future.done():  # (its caller gave up: the write was made all the same)
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


def _journal(journal: Journal, writes: list[Write], outcomes: list[tuple[bool, Any]]
             ) -> Pending | None:
    """Append the entries of the writes that succeeded, their sync started (None: nothing
    to append). A failure to write them is a failure of the store."""
    texts = [w.entry(value) for w, (ok, value) in zip(writes, outcomes, strict=True)
             if ok and w.entry is not None]
    if not texts:
        return None
    try:
        return journal.append(texts)
    except OSError as exc:
        reason = FULL if exc.errno in (errno.ENOSPC, errno.EDQUOT) else IO
        raise StorageUnavailable(reason, f"the journal {journal.path}: {exc.strerror or exc}"
                                 ) from exc


def _transaction(conn: sqlite3.Connection, writes: list[Write], check: Callable[[], None],
                 journal: Journal | None = None) -> list[tuple[bool, Any]]:
    """Run ``writes`` in one transaction (``check`` before it and before the commit);
    each one's outcome: ``(True, result)`` or ``(False, error)``."""
    alone = len(writes) == 1
    outcomes: list[tuple[bool, Any]] = []
    journaled: Pending | None = None
    try:
        check()
    except BaseException as exc:
        return [(False, exc)] * len(writes)
    try:
        conn.execute("BEGIN IMMEDIATE")
        for w in writes:
            if not alone:
                conn.execute("SAVEPOINT write")
            try:
                for sql, params in w.records:
                    conn.execute(sql, params)
                result = w.body(conn)
            except BaseException as exc:
                if alone or not conn.in_transaction:
                    raise  # the whole transaction goes (SQLite may have ended it)
                conn.execute("ROLLBACK TO write")
                conn.execute("RELEASE write")
                outcomes.append((False, exc))
                continue
            if not alone:
                conn.execute("RELEASE write")
            outcomes.append((True, result))
        if journal is not None:
            journaled = _journal(journal, writes, outcomes)
        check()
        conn.execute("COMMIT")
    except BaseException as exc:
        if journaled is not None and journal is not None:
            with contextlib.suppress(OSError):
                journaled.wait()  # (its line first, then the mark)
            journal.abort(journaled.batch)
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        # nothing of the transaction is kept: every write not failed on its own fails
        failed = [(False, value) if not ok else (False, exc) for ok, value in outcomes]
        return failed + [(False, exc)] * (len(writes) - len(failed))
    if journaled is not None:
        try:
            journaled.wait()
        except OSError as exc:  # committed: it stands, and no later batch is taken
            journaled.failed_after_commit(exc)
    return outcomes
