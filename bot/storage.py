"""Durable storage of tables: games, seats, the append-only action log, state snapshots.

SQLite through aiosqlite in WAL mode, with numbered schema migrations. The log is the
source of truth; the snapshot in ``games.state`` is a cache the table service checks
against a replay when it loads a game. Every write is one transaction and checks the
game's ``version`` (optimistic concurrency), so even two processes on one file cannot
apply two actions on top of the same version.

:class:`Storage` is the small interface the table service needs; SQLite is the embedded
default, a PostgreSQL backend would implement the same methods.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

import aiosqlite

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
    # 5: the turn clock (issue 11). One row per seat of an active game that owes a decision
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
]
SCHEMA_VERSION = len(MIGRATIONS)


class StorageError(Exception):
    pass


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

    @property
    def play_channel_id(self) -> int:
        """Where the game's board and turn messages go."""
        return self.thread_id or self.channel_id


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
class DeadlineRow:
    """A seat's turn clock (table ``deadlines``, see migration 5)."""

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


#: a game's complete set of turn-clock rows, written with a change (None: leave them)
Deadlines = Sequence[DeadlineRow] | None


class Storage(Protocol):
    async def close(self) -> None: ...
    async def create_game(self, guild_id: int | None, channel_id: int, host_id: int,
                          host_name: str | None, options: dict[str, Any]) -> GameRow: ...
    async def game(self, game_id: int) -> GameRow | None: ...
    async def open_game_in_channel(self, channel_id: int) -> GameRow | None: ...
    async def games_with_status(self, status: str) -> list[GameRow]: ...
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
                           name: str, deadlines: Deadlines = None) -> int: ...
    async def leave_seat(self, game_id: int, version: int, seat: int, level: str,
                         deadlines: Deadlines = None) -> int: ...
    async def set_deadlines(self, game_id: int, deadlines: Sequence[DeadlineRow]) -> None: ...
    async def deadlines(self, game_id: int) -> list[DeadlineRow]: ...
    async def update_deadline(self, game_id: int, seat: int, since: int | None, *,
                              due_at: float | None, reminded: int) -> bool: ...
    async def reminders_on(self, user_id: int) -> bool: ...
    async def set_reminders(self, user_id: int, on: bool) -> None: ...
    async def actions(self, game_id: int) -> list[ActionRow]: ...
    async def replace_snapshot(self, game_id: int, state: dict[str, Any]) -> None: ...
    async def set_panel_message(self, game_id: int, message_id: int | None,
                                announced: int | None = None) -> None: ...
    async def set_thread(self, game_id: int, thread_id: int | None) -> None: ...
    async def set_turn_message(self, game_id: int, message_id: int | None, turn_key: str | None,
                               announced: int | None = None) -> None: ...


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"))


class SqliteStorage:
    """:class:`Storage` on one aiosqlite connection; a lock keeps transactions whole."""

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self._db = db
        self.path = path
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str) -> SqliteStorage:
        db = await aiosqlite.connect(path, isolation_level=None)
        db.row_factory = sqlite3.Row
        await db.execute("PRAGMA journal_mode=WAL")
        # FULL: a commit is on disk (fsync) before the bot announces the action, so even a
        # power cut loses nothing announced; NORMAL would only survive a process crash
        await db.execute("PRAGMA synchronous=FULL")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA busy_timeout=5000")
        store = cls(db, path)
        await store.migrate()
        return store

    async def close(self) -> None:
        await self._db.close()

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            else:
                await self._db.execute("COMMIT")

    async def schema_version(self) -> int:
        async with self._lock:
            cur = await self._db.execute(
                "SELECT name FROM sqlite_master WHERE type='table' AND name='schema_version'")
            if await cur.fetchone() is None:
                return 0
            cur = await self._db.execute("SELECT version FROM schema_version")
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

    # ------------------------------------------------------------------ reading
    @staticmethod
    def _game(row: sqlite3.Row) -> GameRow:
        return GameRow(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            host_id=row["host_id"],
            status=row["status"],
            options=json.loads(row["options"]),
            version=row["version"],
            state=json.loads(row["state"]) if row["state"] else None,
            panel_message_id=row["panel_message_id"],
            announced_version=row["announced_version"],
            thread_id=row["thread_id"],
            turn_key=row["turn_key"],
        )

    async def _one(self, sql: str, args: tuple[Any, ...]) -> GameRow | None:
        async with self._lock:
            cur = await self._db.execute(sql, args)
            row = await cur.fetchone()
        return None if row is None else self._game(row)

    async def game(self, game_id: int) -> GameRow | None:
        return await self._one("SELECT * FROM games WHERE id = ?", (game_id,))

    async def open_game_in_channel(self, channel_id: int) -> GameRow | None:
        return await self._one(
            "SELECT * FROM games WHERE (channel_id = ? OR thread_id = ?) "
            "AND status IN ('lobby', 'active') ORDER BY id DESC LIMIT 1",
            (channel_id, channel_id))

    async def games_with_status(self, status: str) -> list[GameRow]:
        async with self._lock:
            cur = await self._db.execute("SELECT * FROM games WHERE status = ? ORDER BY id",
                                         (status,))
            rows = await cur.fetchall()
        return [self._game(r) for r in rows]

    async def seats(self, game_id: int) -> list[SeatRow]:
        async with self._lock:
            cur = await self._db.execute(
                "SELECT seat, user_id, ai_level, name, autopilot, left_game FROM seats "
                "WHERE game_id = ? ORDER BY seat", (game_id,))
            rows = await cur.fetchall()
        return [SeatRow(r[0], r[1], r[2], r[3], r[4], bool(r[5])) for r in rows]

    async def actions(self, game_id: int) -> list[ActionRow]:
        async with self._lock:
            cur = await self._db.execute(
                "SELECT seq, seat, action, version FROM actions WHERE game_id = ? ORDER BY seq",
                (game_id,))
            rows = await cur.fetchall()
        return [ActionRow(r[0], r[1], json.loads(r[2]), r[3]) for r in rows]

    # ------------------------------------------------------------------ writing
    async def _bump(self, db: aiosqlite.Connection, game_id: int, version: int,
                    sets: str = "", args: tuple[Any, ...] = ()) -> int:
        """Raise the version from ``version`` (or fail) and set more columns."""
        extra = f", {sets}" if sets else ""
        cur = await db.execute(
            f"UPDATE games SET version = version + 1, updated_at = ?{extra} "
            "WHERE id = ? AND version = ?",
            (_now(), *args, game_id, version))
        if cur.rowcount != 1:
            raise VersionConflict(f"game {game_id} is no longer at version {version}")
        return version + 1

    async def create_game(self, guild_id: int | None, channel_id: int, host_id: int,
                          host_name: str | None, options: dict[str, Any]) -> GameRow:
        """A new lobby; the host takes seat 0 unless ``host_name`` is None."""
        now = _now()
        try:
            async with self._tx() as db:
                cur = await db.execute(
                    "INSERT INTO games (guild_id, channel_id, host_id, status, options, "
                    "created_at, updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?)",
                    (guild_id, channel_id, host_id, _dumps(options), now, now))
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
                                   (_dumps(options), _dumps(state)))
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
        async with self._tx() as db:
            new = await self._bump(db, game_id, version, "state = ?, status = ?",
                                   (_dumps(state), status))
            await db.execute(
                "INSERT INTO actions (game_id, seq, seat, action, at, version) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, seat, _dumps(action), _now(), version + 1))
            await self._write_deadlines(db, game_id, deadlines)
        return new

    async def set_options(self, game_id: int, version: int, options: dict[str, Any],
                          deadlines: Deadlines = None) -> int:
        """New game options (e.g. the pace) and the turn clocks they imply."""
        async with self._tx() as db:
            new = await self._bump(db, game_id, version, "options = ?", (_dumps(options),))
            await self._write_deadlines(db, game_id, deadlines)
        return new

    async def replace_seat(self, game_id: int, version: int, seat: int, user_id: int,
                           name: str, deadlines: Deadlines = None) -> int:
        """Another person takes over a person's seat (any autopilot or leave ends)."""
        async with self._tx() as db:
            new = await self._bump(db, game_id, version)
            cur = await db.execute(
                "UPDATE seats SET user_id = ?, name = ?, autopilot = NULL, left_game = 0 "
                "WHERE game_id = ? AND seat = ? AND user_id IS NOT NULL",
                (user_id, name, game_id, seat))
            if cur.rowcount != 1:
                raise StorageError(f"game {game_id} has no person's seat {seat}")
            await self._write_deadlines(db, game_id, deadlines)
        return new

    async def leave_seat(self, game_id: int, version: int, seat: int, level: str,
                         deadlines: Deadlines = None) -> int:
        """The person leaves mid-game: a computer of ``level`` plays the seat to the end."""
        async with self._tx() as db:
            new = await self._bump(db, game_id, version)
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
        """Replace the game's turn clocks by ``rows`` (None: leave them as they are); the
        caller's transaction makes it part of the change that implied them."""
        if rows is None:
            return
        await db.execute("DELETE FROM deadlines WHERE game_id = ?", (game_id,))
        for r in rows:
            await db.execute(
                "INSERT INTO deadlines (game_id, seat, since, started_at, due_at, reminded, "
                "strikes) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, r.seat, r.since, r.started_at, r.due_at, r.reminded, r.strikes))

    async def set_deadlines(self, game_id: int, deadlines: Sequence[DeadlineRow]) -> None:
        """Only the turn clocks (at start-up, when they are re-armed: no game change)."""
        async with self._tx() as db:
            await self._write_deadlines(db, game_id, deadlines)

    async def deadlines(self, game_id: int) -> list[DeadlineRow]:
        async with self._lock:
            cur = await self._db.execute(
                "SELECT seat, since, started_at, due_at, reminded, strikes FROM deadlines "
                "WHERE game_id = ? ORDER BY seat", (game_id,))
            rows = await cur.fetchall()
        return [DeadlineRow(r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows]

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
        async with self._lock:
            cur = await self._db.execute(
                "SELECT reminders FROM user_settings WHERE user_id = ?", (user_id,))
            row = await cur.fetchone()
        return row is None or bool(row[0])

    async def set_reminders(self, user_id: int, on: bool) -> None:
        async with self._tx() as db:
            await db.execute(
                "INSERT INTO user_settings (user_id, reminders) VALUES (?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET reminders = excluded.reminders",
                (user_id, int(on)))

    async def replace_snapshot(self, game_id: int, state: dict[str, Any]) -> None:
        async with self._tx() as db:
            await db.execute("UPDATE games SET state = ?, updated_at = ? WHERE id = ?",
                             (_dumps(state), _now(), game_id))

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        """Where the game is played from now on (not a game change: no version bump)."""
        async with self._tx() as db:
            await db.execute("UPDATE games SET thread_id = ? WHERE id = ?", (thread_id, game_id))

    async def set_turn_message(self, game_id: int, message_id: int | None, turn_key: str | None,
                               announced: int | None = None) -> None:
        """The turn message, the turn it shows and the newest version it shows."""
        async with self._tx() as db:
            await db.execute(
                "UPDATE games SET panel_message_id = ?, turn_key = ?, "
                "announced_version = MAX(COALESCE(announced_version, 0), COALESCE(?, 0)) "
                "WHERE id = ?", (message_id, turn_key, announced, game_id))

    async def set_panel_message(self, game_id: int, message_id: int | None,
                                announced: int | None = None) -> None:
        """The message holding the game's controls; ``announced``: the version it shows."""
        async with self._tx() as db:
            await db.execute(
                "UPDATE games SET panel_message_id = ?, "
                "announced_version = MAX(COALESCE(announced_version, 0), COALESCE(?, 0)) "
                "WHERE id = ?", (message_id, announced, game_id))


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
