"""Durable storage of tables: games, seats, the append-only action log, state snapshots.

SQLite through aiosqlite in WAL mode, with numbered schema migrations. The log is the
source of truth; the snapshot in ``games.state`` is a cache the table service checks
against a replay when it loads a game. Every write is one transaction and checks the
game's ``version`` (optimistic concurrency), so even two processes on one file cannot
apply two actions on top of the same version.

:class:`Storage` is the small interface the table service needs; SQLite is the embedded
default, a PostgreSQL backend would implement the same methods.

Failures of the store itself (disk full, database locked past the busy timeout, a
read-only or damaged file, the file deleted or replaced under the running bot) surface as
:class:`StorageUnavailable` with a ``reason``; the transaction is rolled back, so nothing
is half-written and the caller's in-memory state must not advance. A game row or log
entry that cannot be decoded raises :class:`GameUnreadable` for that game only. One
process at a time may open a database file (:mod:`bot.store.file_lock`).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol, TypeVar

import aiosqlite

from bot.runtime.json_text import compact
from bot.store.file_lock import (
    StoreInUse as StoreInUse,  # re-exported: another process has the file
)
from bot.store.file_lock import StoreLock

T = TypeVar("T")
log = logging.getLogger(__name__)

LOBBY, ACTIVE, FINISHED, CANCELLED = "lobby", "active", "finished", "cancelled"
OPEN_STATUSES = (LOBBY, ACTIVE)

MIGRATIONS: list[str] = [
    # 1: the first schema
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game TEXT NOT NULL DEFAULT 'tempus',
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        host_id INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
        options TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        state TEXT,
        panel_message_id INTEGER,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id)
        WHERE status IN ('lobby', 'active');
    CREATE INDEX games_status ON games (status);
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        user_id INTEGER,
        ai_level TEXT,
        name TEXT NOT NULL,
        PRIMARY KEY (game_id, seat),
        CHECK ((user_id IS NULL) <> (ai_level IS NULL))
    );
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seq INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
    CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
    """,
    # 2: a computer may play a person's seat for them ("autopilot", R-ROUND-2 goes on)
    """
    ALTER TABLE seats ADD COLUMN autopilot TEXT;
    """,
    # 3: the version each action made (a restart knows since when each seat owes its
    # decision) and the last version announced (a restart re-posts what a crash lost)
    """
    ALTER TABLE actions ADD COLUMN version INTEGER;
    ALTER TABLE games ADD COLUMN announced_version INTEGER;
    """,
    # 4: a thread per game (the game is played there; NULL: in the channel itself) and the
    # turn message (posted when a turn or phase begins, edited in place by its steps)
    """
    ALTER TABLE games ADD COLUMN thread_id INTEGER;
    ALTER TABLE games ADD COLUMN turn_key TEXT;
    CREATE INDEX games_thread ON games (thread_id);
    """,
    # 5: after the game (bot/history/ledger.py). Both tables are caches derived from the action
    # log and can be dropped and rebuilt: each finished game's result per seat (by
    # replaying the log), and each person's rating per server with the games it covers
    # (recomputed in game order, bot/history/ratings.py)
    """
    CREATE TABLE results (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        user_id INTEGER,
        ai_level TEXT,
        name TEXT NOT NULL,
        rank INTEGER NOT NULL,
        vp INTEGER NOT NULL,
        won INTEGER NOT NULL,
        opening TEXT NOT NULL,
        finished_at TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX results_guild ON results (guild_id, finished_at, game_id);
    CREATE INDEX results_user ON results (guild_id, user_id);
    CREATE TABLE ratings (
        guild_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    );
    CREATE TABLE rated_games (
        game_id INTEGER PRIMARY KEY REFERENCES games (id),
        guild_id INTEGER NOT NULL,
        finished_at TEXT NOT NULL
    );
    """,
    # 6: the turn clock (issue 11). One row per seat of an active game that owes a decision
    # with a deadline or has missed one: since = the game version since which the seat owes
    # it, started_at/due_at in Unix seconds (NULL due_at: no deadline now), reminded = the
    # reminders sent for it (0, 1 at half time, 2 shortly before), strikes = deadlines
    # missed in a row. Rewritten in the same transaction as the change that made them.
    # user_settings: per-person choices (reminders 0 = muted). seats.left_game: the person
    # left mid-game; a computer plays the seat for the rest of the game.
    # PostgreSQL: REAL -> DOUBLE PRECISION, INTEGER ids -> BIGINT; the rest is the same.
    """
    CREATE TABLE deadlines (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        since INTEGER,
        started_at REAL,
        due_at REAL,
        reminded INTEGER NOT NULL DEFAULT 0,
        strikes INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX deadlines_due ON deadlines (due_at) WHERE due_at IS NOT NULL;
    CREATE TABLE user_settings (
        user_id INTEGER PRIMARY KEY,
        reminders INTEGER NOT NULL DEFAULT 1
    );
    ALTER TABLE seats ADD COLUMN left_game INTEGER NOT NULL DEFAULT 0;
    """,
    # 7: what must survive a restart of the turn clock and of people's private menus.
    # deadlines.covering: the turn (engine.undo.turn_key as JSON) in which a computer
    # decides for the seat after its time ran out (NULL: not covered), so a restart neither
    # gives the seat a fresh deadline nor counts the same turn twice. user_settings.locale:
    # the language of the person's Discord client, last seen (DMs are written in it).
    # private_menus: the DM menus (buttons) sent for a decision and not yet used or
    # retired, so that after a restart the stale ones are still edited to "no longer
    # current" (ephemeral replies are not stored: their token dies after 15 minutes).
    """
    ALTER TABLE deadlines ADD COLUMN covering TEXT;
    ALTER TABLE user_settings ADD COLUMN locale TEXT;
    CREATE TABLE private_menus (
        message_id INTEGER PRIMARY KEY,
        channel_id INTEGER NOT NULL,
        game_id INTEGER NOT NULL REFERENCES games (id),
        user_id INTEGER NOT NULL,
        version INTEGER NOT NULL,
        content TEXT NOT NULL,
        locale TEXT NOT NULL
    );
    CREATE INDEX private_menus_game ON private_menus (game_id);
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)


class StorageError(Exception):
    pass


# why the store cannot be used right now (StorageUnavailable.reason)
FULL, BUSY, READONLY, GONE, IO, CORRUPT = "full", "busy", "readonly", "gone", "io", "corrupt"
#: a database server that cannot be reached (PostgreSQL, bot/store/postgres.py)
OFFLINE = "offline"

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


class StorageUnavailable(StorageError):
    """The store refused a read or write for a reason of its own (``reason``: one of
    FULL, BUSY, READONLY, GONE, IO, CORRUPT, OFFLINE). Nothing of the failed transaction
    was kept (PostgreSQL: unless the connection broke during the commit itself; the game's
    version then tells, and the version check makes a retry safe)."""

    def __init__(self, reason: str, detail: str = "") -> None:
        self.reason = reason
        self.detail = detail
        super().__init__(f"storage unavailable ({reason}){': ' + detail if detail else ''}")

    @property
    def key(self) -> str:
        """The message-catalogue key telling a player about it."""
        return f"error.storage_{self.reason}"


class GameUnreadable(StorageError):
    """A stored game (its options or log) cannot be decoded; other games are unaffected."""

    def __init__(self, game_id: int, reason: str) -> None:
        self.game_id = game_id
        self.reason = reason
        super().__init__(f"game {game_id}: {reason}")


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


class BadText(str):
    """A TEXT value that was not valid UTF-8 (decoded with replacement characters).

    The connection's text factory returns it instead of failing the whole query, so one
    damaged row cannot hide every other row of a result; JSON columns refuse it."""


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


def _json_column(game_id: int, column: str, value: Any) -> Any:
    if isinstance(value, BadText):
        raise GameUnreadable(game_id, f"{column} is not valid UTF-8")
    try:
        return json.loads(value)
    except (TypeError, ValueError) as exc:
        raise GameUnreadable(game_id, f"{column} is not valid JSON ({exc})") from None


class ChannelBusy(StorageError):
    """The channel already has an open (lobby or active) game."""


class VersionConflict(StorageError):
    """The game changed since the caller read it."""


@dataclass
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    host_id: int
    status: str
    options: dict[str, Any]
    version: int
    state: dict[str, Any] | None
    panel_message_id: int | None
    #: the newest version whose board reached the channel (None: not known)
    announced_version: int | None = None
    #: the thread the game is played in (None: the channel itself)
    thread_id: int | None = None
    #: which turn or phase the turn message (``panel_message_id``) shows
    turn_key: str | None = None
    #: why the stored snapshot could not be read (``state`` is then None): the log, the
    #: source of truth, rebuilds it
    state_error: str | None = None

    @property
    def play_channel_id(self) -> int:
        """Where the game's board and turn messages go."""
        return self.thread_id or self.channel_id


@dataclass(frozen=True)
class GameRef:
    """The plain-number columns of a game: readable even when its texts are damaged."""

    id: int
    guild_id: int | None
    channel_id: int
    host_id: int
    version: int
    announced_version: int | None
    panel_message_id: int | None = None
    thread_id: int | None = None

    @property
    def play_channel_id(self) -> int:
        """Where the game's board and turn messages go."""
        return self.thread_id or self.channel_id


_REF_COLUMNS = ("id, guild_id, channel_id, host_id, version, announced_version, "
                "panel_message_id, thread_id")


@dataclass(frozen=True)
class SeatRow:
    seat: int
    user_id: int | None
    ai_level: str | None
    name: str
    #: a person's seat played by a computer of this level while they are away
    autopilot: str | None = None
    #: the person left the game: the computer (``autopilot``) plays it to the end
    left: bool = False

    @property
    def is_ai(self) -> bool:
        """A computer decides for this seat (a computer player, or a person's autopilot)."""
        return self.user_id is None or self.autopilot is not None

    @property
    def level(self) -> str | None:
        """The computer level deciding for this seat, if any."""
        return self.ai_level if self.user_id is None else self.autopilot


@dataclass(frozen=True)
class ActionRow:
    seq: int
    seat: int
    action: dict[str, Any]
    #: the game version this action made (None in logs written before schema 3)
    version: int | None = None


@dataclass(frozen=True)
class ResultRow:
    """One seat of a finished game, derived from its action log (bot/history/ledger.py)."""

    game_id: int
    seat: int
    guild_id: int  # 0 for a game outside a server
    channel_id: int
    user_id: int | None
    ai_level: str | None
    name: str
    rank: int  # 1 = first (R-END-3; a shared win shares rank 1)
    vp: int
    won: bool
    opening: str  # the seat's first-era actions, e.g. "grow-grow-move"
    finished_at: str  # time of the game's last logged action (ISO, UTC)


@dataclass(frozen=True)
class RatingRow:
    """A person's rating on one server (a cache of bot/history/ratings.py's recomputation)."""

    guild_id: int
    user_id: int
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class DeadlineRow:
    """A seat's turn clock (table ``deadlines``, see migration 6)."""

    seat: int
    #: the game version since which the seat owes its decision (None: owes none now)
    since: int | None = None
    #: Unix seconds: when the decision began, when the computer takes it (None: no limit)
    started_at: float | None = None
    due_at: float | None = None
    #: reminders sent for this decision (0 none, 1 at half time, 2 shortly before)
    reminded: int = 0
    #: deadlines missed in a row (reset when the person decides themselves)
    strikes: int = 0
    #: the turn (bot.table.model.key_text) in which a computer decides for the seat because
    #: its time ran out (None: not covered); such a row has no deadline
    covering: str | None = None


@dataclass(frozen=True)
class MenuRow:
    """A private menu sent by DM and still live (table ``private_menus``, migration 7)."""

    message_id: int
    channel_id: int
    game_id: int
    user_id: int
    #: the game version its controls were made at
    version: int
    #: the text it shows (kept when it is retired) and the language it is written in
    content: str
    locale: str


#: a game's complete set of turn-clock rows, written with a change (None: leave them)
Deadlines = Sequence[DeadlineRow] | None


class Storage(Protocol):
    async def close(self) -> None: ...
    async def create_game(self, guild_id: int | None, channel_id: int, host_id: int,
                          host_name: str | None, options: dict[str, Any]) -> GameRow: ...
    async def game(self, game_id: int) -> GameRow | None: ...
    async def open_game_in_channel(self, channel_id: int) -> GameRow | None: ...
    async def games_with_status(self, status: str) -> list[GameRow]: ...
    async def game_refs(self, status: str) -> list[GameRef]: ...
    async def game_refs_behind(self, status: str) -> list[GameRef]: ...
    async def game_ref(self, game_id: int) -> GameRef | None: ...
    async def open_game_ref(self, channel_id: int) -> GameRef | None: ...
    async def seats(self, game_id: int) -> list[SeatRow]: ...
    async def add_seat(self, game_id: int, version: int, user_id: int | None,
                       ai_level: str | None, name: str) -> int: ...
    async def remove_seat(self, game_id: int, version: int, seat: int) -> int: ...
    async def start(self, game_id: int, version: int, options: dict[str, Any],
                    state: dict[str, Any], deadlines: Deadlines = None) -> int: ...
    async def set_status(self, game_id: int, version: int, status: str,
                         deadlines: Deadlines = None) -> int: ...
    async def set_autopilot(self, game_id: int, version: int, seat: int,
                            level: str | None, deadlines: Deadlines = None) -> int: ...
    async def append_action(self, game_id: int, version: int, seq: int, seat: int,
                            action: dict[str, Any], state: dict[str, Any], status: str,
                            deadlines: Deadlines = None) -> int: ...
    async def set_options(self, game_id: int, version: int, options: dict[str, Any],
                          deadlines: Deadlines = None) -> int: ...
    async def replace_seat(self, game_id: int, version: int, seat: int, user_id: int,
                           name: str, deadlines: Deadlines = None, *,
                           host_id: int | None = None) -> int: ...
    async def leave_seat(self, game_id: int, version: int, seat: int, level: str,
                         deadlines: Deadlines = None, *, host_id: int | None = None) -> int: ...
    async def set_deadlines(self, game_id: int, deadlines: Sequence[DeadlineRow]) -> None: ...
    async def deadlines(self, game_id: int) -> list[DeadlineRow]: ...
    async def update_deadline(self, game_id: int, seat: int, since: int | None, *,
                              due_at: float | None, reminded: int) -> bool: ...
    async def reminders_on(self, user_id: int) -> bool: ...
    async def set_reminders(self, user_id: int, on: bool) -> None: ...
    async def user_locales(self, user_ids: Sequence[int]) -> dict[int, str]: ...
    async def set_user_locale(self, user_id: int, locale: str) -> None: ...
    async def private_menus(self, game_id: int | None = None) -> list[MenuRow]: ...
    async def put_private_menu(self, row: MenuRow) -> None: ...
    async def drop_private_menus(self, message_ids: Sequence[int]) -> None: ...
    async def actions(self, game_id: int) -> list[ActionRow]: ...
    async def replace_snapshot(self, game_id: int, state: dict[str, Any]) -> None: ...
    async def set_panel_message(self, game_id: int, message_id: int | None,
                                announced: int | None = None) -> None: ...
    async def set_thread(self, game_id: int, thread_id: int | None) -> None: ...
    async def set_turn_message(self, game_id: int, message_id: int | None, turn_key: str | None,
                               announced: int | None = None) -> None: ...
    # --- history (bot/history/ledger.py): derived, rebuildable tables
    async def latest_game_in_channel(self, channel_id: int,
                                     statuses: tuple[str, ...]) -> GameRow | None: ...
    async def games_without_results(self) -> list[GameRow]: ...
    async def finished_at(self, game_id: int) -> str | None: ...
    async def save_results(self, rows: list[ResultRow]) -> None: ...
    async def results(self, guild_id: int, *, game_ids: list[int] | None = None,
                      user_id: int | None = None) -> list[ResultRow]: ...
    async def result_game_ids(self, guild_id: int, channel_id: int | None, limit: int,
                              offset: int = 0) -> list[int]: ...
    async def ratings(self, guild_id: int) -> dict[int, RatingRow]: ...
    async def rated_games(self, guild_id: int) -> list[tuple[str, int]]: ...
    async def store_ratings(self, guild_id: int, rows: list[RatingRow],
                            rated: list[tuple[int, str]], *, replace: bool) -> None: ...
    async def clear_history(self) -> None: ...


def _bump_sql(game_id: int, version: int, sets: str = "", args: tuple[Any, ...] = ()
              ) -> tuple[str, tuple[Any, ...]]:
    """The statement that raises a game's version from ``version`` and sets more columns."""
    extra = f", {sets}" if sets else ""
    return (f"UPDATE games SET version = version + 1, updated_at = ?{extra} "
            "WHERE id = ? AND version = ?", (_now(), *args, game_id, version))


def _bumped(rowcount: int, game_id: int, version: int) -> int:
    """The new version, or :class:`VersionConflict` if the game was not at ``version``."""
    if rowcount != 1:
        raise VersionConflict(f"game {game_id} is no longer at version {version}")
    return version + 1


# Writing a game's clocks: the seats not in the new rows lose theirs; each new row replaces
# its seat's, except that a clock that is still the same one (same decision, ``since``, and
# the same start and deadline) keeps the higher reminder count. A change planned from a copy
# read before the owner noted a reminder (``update_deadline``, another process on
# PostgreSQL) must not put the lower count back: the owner would send that reminder again.
_DELETE_OTHER_DEADLINES = ("DELETE FROM deadlines WHERE game_id = ? "
                           "AND seat NOT IN (SELECT value FROM json_each(?))")
_UPSERT_DEADLINE = (
    "INSERT INTO deadlines (game_id, seat, since, started_at, due_at, reminded, strikes, "
    "covering) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET "
    "reminded = CASE WHEN deadlines.since IS NOT NULL "
    "AND deadlines.since = excluded.since "
    "AND deadlines.started_at IS NOT DISTINCT FROM excluded.started_at "
    "AND deadlines.due_at IS NOT DISTINCT FROM excluded.due_at "
    "THEN MAX(deadlines.reminded, excluded.reminded) ELSE excluded.reminded END, "
    "since = excluded.since, started_at = excluded.started_at, due_at = excluded.due_at, "
    "strikes = excluded.strikes, covering = excluded.covering")
_DEADLINE_COLUMNS = "seat, since, started_at, due_at, reminded, strikes, covering"
_MENU_COLUMNS = "message_id, channel_id, game_id, user_id, version, content, locale"


def _deadline_params(game_id: int, rows: Sequence[DeadlineRow]) -> list[tuple[Any, ...]]:
    return [(game_id, r.seat, r.since, r.started_at, r.due_at, r.reminded, r.strikes,
             r.covering) for r in rows]


def _host(host_id: int | None) -> tuple[str, tuple[Any, ...]]:
    """The :func:`_bump_sql` extra that makes ``host_id`` the game's host (None: keep)."""
    return ("host_id = ?", (host_id,)) if host_id is not None else ("", ())


def _seats_json(rows: Sequence[DeadlineRow]) -> str:
    return json.dumps([r.seat for r in rows])


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")




class SqliteStorage:
    """:class:`Storage` on one aiosqlite connection; a lock keeps transactions whole.

    Before every commit the database file is checked to be the one opened (same device
    and inode): a file deleted or replaced under the running bot would otherwise take
    commits that nobody will ever read."""

    def __init__(self, db: aiosqlite.Connection, path: str, *,
                 file_lock: StoreLock | None = None) -> None:
        self._db = db
        self.path = path
        self._lock = asyncio.Lock()
        self._file_lock = file_lock
        self._abspath = None if _in_memory(path) else os.path.abspath(path)
        self._identity = None if self._abspath is None else _file_identity(self._abspath)
        self._wal_identity: tuple[int, int] | None = None
        self._gone_reported = False

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
        moved = self._abspath is not None and _file_identity(self._abspath) != self._identity
        try:
            await self._db.close()
        finally:
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
        """Refuse to write unless the file at our path is still the one we opened."""
        if self._abspath is None:
            return
        now = _file_identity(self._abspath)
        if now is not None and now == self._identity:
            return
        detail = (f"{self._abspath} was deleted" if now is None else
                  f"{self._abspath} was replaced by another file")
        if not self._gone_reported:
            self._gone_reported = True
            log.error("the database %s; refusing every write until the bot is restarted",
                      detail.removeprefix(f"{self._abspath} "))
        raise StorageUnavailable(GONE, detail)

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction; failures of the store become :class:`StorageUnavailable`
        after a rollback, so nothing of it is kept."""
        async with self._lock:
            try:
                self._check_file()
                await self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                    self._check_file()
                    await self._db.execute("COMMIT")
                    if self._wal_identity is None and self._abspath is not None:
                        self._wal_identity = _file_identity(self._abspath + "-wal")
                except BaseException:
                    await self._rollback()
                    raise
            except (sqlite3.Error, UnicodeDecodeError) as exc:
                mapped = unavailable(exc)
                if mapped is None:
                    raise
                log.warning("storage: %s", mapped)
                raise mapped from exc

    async def _tx_on_thread(self, body: Callable[[sqlite3.Connection], T]) -> T:
        """One write transaction run whole on the connection's thread: one hand-over to
        it and back instead of one per statement. Under load the event loop is slow to
        take each result back, and every statement of :meth:`_tx` waits for it while
        holding the one connection; the busiest writes (an action, the turn message) use
        this. Same guarantees as :meth:`_tx` (nothing of a failed one is kept)."""
        def run(conn: sqlite3.Connection) -> T:
            self._check_file()
            conn.execute("BEGIN IMMEDIATE")
            try:
                result = body(conn)
                self._check_file()
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
                raise
            return result

        result = await self._on_thread(run)
        if self._wal_identity is None and self._abspath is not None:
            self._wal_identity = _file_identity(self._abspath + "-wal")
        return result

    async def _on_thread(self, job: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``job`` on the connection's thread as one hand-over, after every call handed
        over before it. It waits while a transaction of several round trips (:meth:`_tx`,
        :meth:`_reading`) holds the connection, but does not hold it itself: the thread
        runs the jobs one after another, so nothing can come between a job's statements,
        and the next job starts at once instead of after the event loop has taken this
        one's result back (issue 16: under load the loop is slow to do so, and the
        connection sat idle while every other game queued for it)."""
        async with self._lock:  # not inside another transaction; free: no wait at all
            pass
        try:
            # aiosqlite (pinned) has no public "run this on the connection's thread"; its
            # _execute queues the job before its first await, so jobs keep their order
            return await self._db._execute(job, self._db._conn)
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            mapped = unavailable(exc)
            if mapped is None:
                raise
            log.warning("storage: %s", mapped)
            raise mapped from exc

    async def _fetch(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        """The rows of one query, read in one hand-over (:meth:`_on_thread`)."""
        return await self._on_thread(lambda conn: conn.execute(sql, args).fetchall())

    async def _rollback(self) -> None:
        # some errors (SQLITE_FULL, SQLITE_IOERR ...) already rolled the transaction back
        if self._db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                await self._db.execute("ROLLBACK")

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            try:
                yield self._db
            except (sqlite3.Error, UnicodeDecodeError) as exc:
                mapped = unavailable(exc)
                if mapped is None:
                    raise
                log.warning("storage: %s", mapped)
                raise mapped from exc

    async def schema_version(self) -> int:
        async with self._reading() as db:
            cur = await db.execute(
                "SELECT name FROM sqlite_master WHERE type='table' AND name='schema_version'")
            if await cur.fetchone() is None:
                return 0
            cur = await db.execute("SELECT version FROM schema_version")
            row = await cur.fetchone()
            return int(row[0]) if row else 0

    async def migrate(self) -> None:
        """Apply every migration newer than the database, each in its own transaction."""
        current = await self.schema_version()
        if current > SCHEMA_VERSION:
            raise StorageError(f"database schema {current} is newer than this bot "
                               f"({SCHEMA_VERSION}); upgrade the bot")
        for number in range(current + 1, SCHEMA_VERSION + 1):
            async with self._tx() as db:
                await db.execute("CREATE TABLE IF NOT EXISTS schema_version "
                                 "(version INTEGER NOT NULL)")
                for stmt in _statements(MIGRATIONS[number - 1]):
                    await db.execute(stmt)
                await db.execute("DELETE FROM schema_version")
                await db.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))

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

    # ------------------------------------------------------------------ reading
    @staticmethod
    def _game(row: sqlite3.Row) -> GameRow:
        """A game from its row: damaged options raise :class:`GameUnreadable`; a damaged
        snapshot reads as none (``state_error`` says why), as the log rebuilds it."""
        game_id = row["id"]
        options = _json_column(game_id, "options", row["options"])
        if not isinstance(options, dict):
            raise GameUnreadable(game_id, "options is not a JSON object")
        state, state_error = None, None
        if row["state"]:
            try:
                state = _json_column(game_id, "state", row["state"])
            except GameUnreadable as exc:
                state_error = exc.reason
            else:
                if not isinstance(state, dict):
                    state, state_error = None, "state is not a JSON object"
        return GameRow(
            id=game_id,
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            host_id=row["host_id"],
            status=row["status"],
            options=options,
            version=row["version"],
            state=state,
            panel_message_id=row["panel_message_id"],
            announced_version=row["announced_version"],
            thread_id=row["thread_id"],
            turn_key=row["turn_key"],
            state_error=state_error,
        )

    async def _one(self, sql: str, args: tuple[Any, ...]) -> GameRow | None:
        rows = await self._fetch(sql, args)
        return self._game(rows[0]) if rows else None

    async def game(self, game_id: int) -> GameRow | None:
        return await self._one("SELECT * FROM games WHERE id = ?", (game_id,))

    async def open_game_in_channel(self, channel_id: int) -> GameRow | None:
        return await self._one(
            "SELECT * FROM games WHERE (channel_id = ? OR thread_id = ?) "
            "AND status IN ('lobby', 'active') ORDER BY id DESC LIMIT 1",
            (channel_id, channel_id))

    async def games_with_status(self, status: str) -> list[GameRow]:
        """Every game of ``status``; raises :class:`GameUnreadable` if any one is damaged
        (use :meth:`game_refs` and :meth:`game` to read them one by one)."""
        rows = await self._fetch("SELECT * FROM games WHERE status = ? ORDER BY id", (status,))
        return [self._game(r) for r in rows]

    async def game_refs(self, status: str) -> list[GameRef]:
        """The games of ``status``, by their number columns only: one damaged row cannot
        keep the others from being listed."""
        rows = await self._fetch(
            f"SELECT {_REF_COLUMNS} FROM games WHERE status = ? ORDER BY id", (status,))
        return [GameRef(*r) for r in rows]

    async def game_refs_behind(self, status: str) -> list[GameRef]:
        """The games of ``status`` announced once but not at their current version (the
        process stopped, or another one made the change, before the owner posted it)."""
        rows = await self._fetch(
            f"SELECT {_REF_COLUMNS} FROM games WHERE status = ? "
            "AND announced_version < version ORDER BY id", (status,))
        return [GameRef(*r) for r in rows]

    async def game_ref(self, game_id: int) -> GameRef | None:
        return await self._ref("WHERE id = ?", (game_id,))

    async def open_game_ref(self, channel_id: int) -> GameRef | None:
        """The open (lobby or active) game of a channel, by its number columns only."""
        return await self._ref("WHERE (channel_id = ? OR thread_id = ?) "
                               "AND status IN ('lobby', 'active') ORDER BY id DESC LIMIT 1",
                               (channel_id, channel_id))

    async def _ref(self, where: str, args: tuple[Any, ...]) -> GameRef | None:
        rows = await self._fetch(f"SELECT {_REF_COLUMNS} FROM games {where}", args)
        return GameRef(*rows[0]) if rows else None

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._fetch(
            "SELECT seat, user_id, ai_level, name, autopilot, left_game FROM seats "
            "WHERE game_id = ? ORDER BY seat", (game_id,))
        return [SeatRow(r[0], r[1], r[2], r[3], r[4], bool(r[5])) for r in rows]

    async def actions(self, game_id: int) -> list[ActionRow]:
        """The log of a game; raises :class:`GameUnreadable` if an entry is damaged."""
        rows = await self._fetch(
            "SELECT seq, seat, action, version FROM actions WHERE game_id = ? ORDER BY seq",
            (game_id,))
        out = []
        for r in rows:
            action = _json_column(game_id, f"action {r[0]}", r[2])
            if not isinstance(action, dict):
                raise GameUnreadable(game_id, f"action {r[0]} is not a JSON object")
            out.append(ActionRow(r[0], r[1], action, r[3]))
        return out

    # ------------------------------------------------------------------ writing
    async def _bump(self, db: aiosqlite.Connection, game_id: int, version: int,
                    sets: str = "", args: tuple[Any, ...] = ()) -> int:
        """Raise the version from ``version`` (or fail) and set more columns."""
        cur = await db.execute(*_bump_sql(game_id, version, sets, args))
        return _bumped(cur.rowcount, game_id, version)

    async def create_game(self, guild_id: int | None, channel_id: int, host_id: int,
                          host_name: str | None, options: dict[str, Any]) -> GameRow:
        """A new lobby; the host takes seat 0 unless ``host_name`` is None."""
        now = _now()
        try:
            async with self._tx() as db:
                cur = await db.execute(
                    "INSERT INTO games (guild_id, channel_id, host_id, status, options, "
                    "created_at, updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?)",
                    (guild_id, channel_id, host_id, compact(options), now, now))
                game_id = cur.lastrowid
                if host_name is not None:
                    await db.execute(
                        "INSERT INTO seats (game_id, seat, user_id, ai_level, name) "
                        "VALUES (?, 0, ?, NULL, ?)", (game_id, host_id, host_name))
        except sqlite3.IntegrityError as exc:
            raise ChannelBusy(str(exc)) from None
        game = await self.game(int(game_id or 0))
        assert game is not None
        return game

    async def add_seat(self, game_id: int, version: int, user_id: int | None,
                       ai_level: str | None, name: str) -> int:
        async with self._tx() as db:
            new = await self._bump(db, game_id, version)
            cur = await db.execute("SELECT COUNT(*) FROM seats WHERE game_id = ?", (game_id,))
            (n,) = await cur.fetchone()  # type: ignore[misc]
            await db.execute(
                "INSERT INTO seats (game_id, seat, user_id, ai_level, name) VALUES (?, ?, ?, ?, ?)",
                (game_id, n, user_id, ai_level, name))
        return new

    async def remove_seat(self, game_id: int, version: int, seat: int) -> int:
        """Remove a lobby seat; later seats move up one place."""
        async with self._tx() as db:
            new = await self._bump(db, game_id, version)
            await db.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat))
            cur = await db.execute(
                "SELECT seat FROM seats WHERE game_id = ? AND seat > ? ORDER BY seat",
                (game_id, seat))
            for (s,) in await cur.fetchall():
                await db.execute("UPDATE seats SET seat = ? WHERE game_id = ? AND seat = ?",
                                 (s - 1, game_id, s))
        return new

    async def start(self, game_id: int, version: int, options: dict[str, Any],
                    state: dict[str, Any], deadlines: Deadlines = None) -> int:
        async with self._tx() as db:
            new = await self._bump(db, game_id, version,
                                   "status = 'active', options = ?, state = ?",
                                   (compact(options), compact(state)))
            await self._write_deadlines(db, game_id, deadlines)
        return new

    async def set_status(self, game_id: int, version: int, status: str,
                         deadlines: Deadlines = None) -> int:
        async with self._tx() as db:
            new = await self._bump(db, game_id, version, "status = ?", (status,))
            await self._write_deadlines(db, game_id, deadlines)
        return new

    async def set_autopilot(self, game_id: int, version: int, seat: int,
                            level: str | None, deadlines: Deadlines = None) -> int:
        """Let a computer of ``level`` play a person's seat (None: the person again)."""
        async with self._tx() as db:
            new = await self._bump(db, game_id, version)
            await db.execute("UPDATE seats SET autopilot = ? WHERE game_id = ? AND seat = ? "
                             "AND user_id IS NOT NULL", (level, game_id, seat))
            await self._write_deadlines(db, game_id, deadlines)
        return new

    async def append_action(self, game_id: int, version: int, seq: int, seat: int,
                            action: dict[str, Any], state: dict[str, Any], status: str,
                            deadlines: Deadlines = None) -> int:
        """One accepted action: log it, store the new snapshot and (if given) the game's
        turn clocks, in one transaction."""
        def body(conn: sqlite3.Connection) -> int:
            new = _bumped(conn.execute(*_bump_sql(game_id, version, "state = ?, status = ?",
                                                  (compact(state), status))).rowcount,
                          game_id, version)
            conn.execute(
                "INSERT INTO actions (game_id, seq, seat, action, at, version) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, seat, compact(action), _now(), version + 1))
            if deadlines is not None:
                conn.execute(_DELETE_OTHER_DEADLINES, (game_id, _seats_json(deadlines)))
                conn.executemany(_UPSERT_DEADLINE, _deadline_params(game_id, deadlines))
            return new
        return await self._tx_on_thread(body)

    async def set_options(self, game_id: int, version: int, options: dict[str, Any],
                          deadlines: Deadlines = None) -> int:
        """New game options (e.g. the pace) and the turn clocks they imply."""
        async with self._tx() as db:
            new = await self._bump(db, game_id, version, "options = ?", (compact(options),))
            await self._write_deadlines(db, game_id, deadlines)
        return new

    async def replace_seat(self, game_id: int, version: int, seat: int, user_id: int,
                           name: str, deadlines: Deadlines = None, *,
                           host_id: int | None = None) -> int:
        """Another person takes over a person's seat (any autopilot or leave ends);
        ``host_id``: the game's new host (the host's seat changed hands)."""
        async with self._tx() as db:
            new = await self._bump(db, game_id, version, *_host(host_id))
            cur = await db.execute(
                "UPDATE seats SET user_id = ?, name = ?, autopilot = NULL, left_game = 0 "
                "WHERE game_id = ? AND seat = ? AND user_id IS NOT NULL",
                (user_id, name, game_id, seat))
            if cur.rowcount != 1:
                raise StorageError(f"game {game_id} has no person's seat {seat}")
            await self._write_deadlines(db, game_id, deadlines)
        return new

    async def leave_seat(self, game_id: int, version: int, seat: int, level: str,
                         deadlines: Deadlines = None, *, host_id: int | None = None) -> int:
        """The person leaves mid-game: a computer of ``level`` plays the seat to the end;
        ``host_id``: the game's new host (the host left)."""
        async with self._tx() as db:
            new = await self._bump(db, game_id, version, *_host(host_id))
            await db.execute("UPDATE seats SET autopilot = ?, left_game = 1 "
                             "WHERE game_id = ? AND seat = ? AND user_id IS NOT NULL",
                             (level, game_id, seat))
            await self._write_deadlines(db, game_id, deadlines)
        return new

    # ------------------------------------------------------------------ turn clocks
    # Plain SQL on purpose (one DELETE + INSERTs, one guarded UPDATE, an upsert): the same
    # statements work on PostgreSQL with $1.. placeholders.
    @staticmethod
    async def _write_deadlines(db: aiosqlite.Connection, game_id: int,
                               rows: Deadlines) -> None:
        """Replace the game's turn clocks by ``rows`` (None: leave them as they are),
        keeping the higher reminder count of a clock that is still the same one (see
        ``_UPSERT_DEADLINE``); the caller's transaction makes it part of the change that
        implied them."""
        if rows is None:
            return
        await db.execute(_DELETE_OTHER_DEADLINES, (game_id, _seats_json(rows)))
        await db.executemany(_UPSERT_DEADLINE, _deadline_params(game_id, rows))

    async def set_deadlines(self, game_id: int, deadlines: Sequence[DeadlineRow]) -> None:
        """Only the turn clocks (at start-up, when they are re-armed: no game change)."""
        async with self._tx() as db:
            await self._write_deadlines(db, game_id, deadlines)

    async def deadlines(self, game_id: int) -> list[DeadlineRow]:
        rows = await self._fetch(
            f"SELECT {_DEADLINE_COLUMNS} FROM deadlines WHERE game_id = ? ORDER BY seat",
            (game_id,))
        return [DeadlineRow(*r) for r in rows]

    async def update_deadline(self, game_id: int, seat: int, since: int | None, *,
                              due_at: float | None, reminded: int) -> bool:
        """Note a reminder sent or a deadline moved (not a game change: no version bump),
        only while the seat owes the same decision; False if it no longer does."""
        async with self._tx() as db:
            cur = await db.execute(
                "UPDATE deadlines SET due_at = ?, reminded = ? "
                "WHERE game_id = ? AND seat = ? AND since IS NOT DISTINCT FROM ?",
                (due_at, reminded, game_id, seat, since))
            return cur.rowcount == 1

    async def reminders_on(self, user_id: int) -> bool:
        """Whether the person wants turn reminders (the default: yes)."""
        rows = await self._fetch(
            "SELECT reminders FROM user_settings WHERE user_id = ?", (user_id,))
        return not rows or bool(rows[0][0])

    async def set_reminders(self, user_id: int, on: bool) -> None:
        async with self._tx() as db:
            await db.execute(
                "INSERT INTO user_settings (user_id, reminders) VALUES (?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET reminders = excluded.reminders",
                (user_id, int(on)))

    async def user_locales(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The stored client language of each of ``user_ids`` that has one."""
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        rows = await self._fetch(
            "SELECT user_id, locale FROM user_settings WHERE locale IS NOT NULL AND "
            f"user_id IN ({', '.join('?' * len(ids))})", tuple(ids))
        return {r[0]: r[1] for r in rows}

    async def set_user_locale(self, user_id: int, locale: str) -> None:
        async with self._tx() as db:
            await db.execute(
                "INSERT INTO user_settings (user_id, locale) VALUES (?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale",
                (user_id, locale))

    # ------------------------------------------------------------------ private menus
    async def private_menus(self, game_id: int | None = None) -> list[MenuRow]:
        """The live DM menus (of one game, or all), oldest first."""
        where, args = ("WHERE game_id = ? ", (game_id,)) if game_id is not None else ("", ())
        rows = await self._fetch(
            f"SELECT {_MENU_COLUMNS} FROM private_menus {where}ORDER BY message_id", args)
        return [MenuRow(*r) for r in rows]

    async def put_private_menu(self, row: MenuRow) -> None:
        """A DM menu was sent, or edited in place to a newer one (same message)."""
        async with self._tx() as db:
            await db.execute(
                f"INSERT INTO private_menus ({_MENU_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (message_id) DO UPDATE SET channel_id = excluded.channel_id, "
                "game_id = excluded.game_id, user_id = excluded.user_id, "
                "version = excluded.version, content = excluded.content, "
                "locale = excluded.locale",
                (row.message_id, row.channel_id, row.game_id, row.user_id, row.version,
                 row.content, row.locale))

    async def drop_private_menus(self, message_ids: Sequence[int]) -> None:
        """The menus were used or retired."""
        if not message_ids:
            return
        async with self._tx() as db:
            await db.executemany("DELETE FROM private_menus WHERE message_id = ?",
                                 [(m,) for m in message_ids])

    async def replace_snapshot(self, game_id: int, state: dict[str, Any]) -> None:
        async with self._tx() as db:
            await db.execute("UPDATE games SET state = ?, updated_at = ? WHERE id = ?",
                             (compact(state), _now(), game_id))

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        """Where the game is played from now on (not a game change: no version bump)."""
        async with self._tx() as db:
            await db.execute("UPDATE games SET thread_id = ? WHERE id = ?", (thread_id, game_id))

    async def set_turn_message(self, game_id: int, message_id: int | None, turn_key: str | None,
                               announced: int | None = None) -> None:
        """The turn message, the turn it shows and the newest version it shows."""
        def body(conn: sqlite3.Connection) -> None:
            conn.execute(
                "UPDATE games SET panel_message_id = ?, turn_key = ?, "
                "announced_version = MAX(COALESCE(announced_version, 0), COALESCE(?, 0)) "
                "WHERE id = ?", (message_id, turn_key, announced, game_id))
        await self._tx_on_thread(body)

    async def set_panel_message(self, game_id: int, message_id: int | None,
                                announced: int | None = None) -> None:
        """The message holding the game's controls; ``announced``: the version it shows."""
        async with self._tx() as db:
            await db.execute(
                "UPDATE games SET panel_message_id = ?, "
                "announced_version = MAX(COALESCE(announced_version, 0), COALESCE(?, 0)) "
                "WHERE id = ?", (message_id, announced, game_id))

    # ------------------------------------------------------------------ --- history
    # Derived tables for bot/history/ledger.py: results per seat of finished games and ratings.
    # Everything here can be dropped (clear_history) and rebuilt from the action logs.

    async def latest_game_in_channel(self, channel_id: int,
                                     statuses: tuple[str, ...]) -> GameRow | None:
        """The newest game of the channel with one of ``statuses``."""
        marks = ", ".join("?" for _ in statuses)
        return await self._one(
            f"SELECT * FROM games WHERE (channel_id = ? OR thread_id = ?) "
            f"AND status IN ({marks}) ORDER BY id DESC LIMIT 1",
            (channel_id, channel_id, *statuses))

    async def games_without_results(self) -> list[GameRow]:
        """Finished games whose results are not derived yet, oldest first."""
        async with self._lock:
            cur = await self._db.execute(
                "SELECT * FROM games g WHERE status = 'finished' AND NOT EXISTS "
                "(SELECT 1 FROM results r WHERE r.game_id = g.id) ORDER BY id")
            rows = await cur.fetchall()
        return [self._game(r) for r in rows]

    async def finished_at(self, game_id: int) -> str | None:
        """When the game's last action was logged (the log is append-only, so this never
        changes once the game is over)."""
        async with self._lock:
            cur = await self._db.execute("SELECT MAX(at) FROM actions WHERE game_id = ?",
                                         (game_id,))
            row = await cur.fetchone()
        return None if row is None else row[0]

    async def save_results(self, rows: list[ResultRow]) -> None:
        async with self._tx() as db:
            await db.executemany(
                "INSERT OR REPLACE INTO results (game_id, seat, guild_id, channel_id, user_id, "
                "ai_level, name, rank, vp, won, opening, finished_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(r.game_id, r.seat, r.guild_id, r.channel_id, r.user_id, r.ai_level, r.name,
                  r.rank, r.vp, int(r.won), r.opening, r.finished_at) for r in rows])

    async def results(self, guild_id: int, *, game_ids: list[int] | None = None,
                      user_id: int | None = None) -> list[ResultRow]:
        """Result rows of a server in game order (finish time, then id), seats in order."""
        sql = "SELECT * FROM results WHERE guild_id = ?"
        args: list[Any] = [guild_id]
        if game_ids is not None:
            if not game_ids:
                return []
            sql += f" AND game_id IN ({', '.join('?' for _ in game_ids)})"
            args += game_ids
        if user_id is not None:
            sql += " AND game_id IN (SELECT game_id FROM results WHERE guild_id = ? " \
                   "AND user_id = ?)"
            args += [guild_id, user_id]
        sql += " ORDER BY finished_at, game_id, seat"
        async with self._lock:
            cur = await self._db.execute(sql, tuple(args))
            rows = await cur.fetchall()
        return [ResultRow(r["game_id"], r["seat"], r["guild_id"], r["channel_id"], r["user_id"],
                          r["ai_level"], r["name"], r["rank"], r["vp"], bool(r["won"]),
                          r["opening"], r["finished_at"]) for r in rows]

    async def result_game_ids(self, guild_id: int, channel_id: int | None, limit: int,
                              offset: int = 0) -> list[int]:
        """Finished games of a server (or one channel of it), newest first."""
        sql = "SELECT DISTINCT game_id, finished_at FROM results WHERE guild_id = ?"
        args: list[Any] = [guild_id]
        if channel_id is not None:
            sql += " AND channel_id = ?"
            args.append(channel_id)
        sql += " ORDER BY finished_at DESC, game_id DESC LIMIT ? OFFSET ?"
        args += [limit, offset]
        async with self._lock:
            cur = await self._db.execute(sql, tuple(args))
            rows = await cur.fetchall()
        return [r[0] for r in rows]

    async def ratings(self, guild_id: int) -> dict[int, RatingRow]:
        async with self._lock:
            cur = await self._db.execute(
                "SELECT guild_id, user_id, mu, sigma, games FROM ratings WHERE guild_id = ?",
                (guild_id,))
            rows = await cur.fetchall()
        return {r[1]: RatingRow(r[0], r[1], r[2], r[3], r[4]) for r in rows}

    async def rated_games(self, guild_id: int) -> list[tuple[str, int]]:
        """``(finished_at, game_id)`` of the games the stored ratings include, in order."""
        async with self._lock:
            cur = await self._db.execute(
                "SELECT finished_at, game_id FROM rated_games WHERE guild_id = ? "
                "ORDER BY finished_at, game_id", (guild_id,))
            rows = await cur.fetchall()
        return [(r[0], r[1]) for r in rows]

    async def store_ratings(self, guild_id: int, rows: list[RatingRow],
                            rated: list[tuple[int, str]], *, replace: bool) -> None:
        """Write ratings and the games they now include, in one transaction; ``replace``
        first drops the server's ratings (a recomputation from scratch)."""
        async with self._tx() as db:
            if replace:
                await db.execute("DELETE FROM ratings WHERE guild_id = ?", (guild_id,))
                await db.execute("DELETE FROM rated_games WHERE guild_id = ?", (guild_id,))
            await db.executemany(
                "INSERT OR REPLACE INTO ratings (guild_id, user_id, mu, sigma, games) "
                "VALUES (?, ?, ?, ?, ?)",
                [(guild_id, r.user_id, r.mu, r.sigma, r.games) for r in rows])
            await db.executemany(
                "INSERT OR REPLACE INTO rated_games (game_id, guild_id, finished_at) "
                "VALUES (?, ?, ?)", [(g, guild_id, at) for g, at in rated])

    async def clear_history(self) -> None:
        """Drop every derived row (results and ratings); they are rebuilt from the logs."""
        async with self._tx() as db:
            for table in ("rated_games", "ratings", "results"):
                await db.execute(f"DELETE FROM {table}")


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
