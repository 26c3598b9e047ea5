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
from collections.abc import AsyncIterator
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
    # 4: after the game (bot/history.py). Both tables are caches derived from the action
    # log and can be dropped and rebuilt: each finished game's result per seat (by
    # replaying the log), and each person's rating per server with the games it covers
    # (recomputed in game order, bot/ratings.py)
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


@dataclass(frozen=True)
class SeatRow:
    seat: int
    user_id: int | None
    ai_level: str | None
    name: str
    #: a person's seat played by a computer of this level while they are away
    autopilot: str | None = None

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
    """One seat of a finished game, derived from its action log (bot/history.py)."""

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
    """A person's rating on one server (a cache of bot/ratings.py's recomputation)."""

    guild_id: int
    user_id: int
    mu: float
    sigma: float
    games: int


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
                    state: dict[str, Any]) -> int: ...
    async def set_status(self, game_id: int, version: int, status: str) -> int: ...
    async def set_autopilot(self, game_id: int, version: int, seat: int,
                            level: str | None) -> int: ...
    async def append_action(self, game_id: int, version: int, seq: int, seat: int,
                            action: dict[str, Any], state: dict[str, Any], status: str) -> int: ...
    async def actions(self, game_id: int) -> list[ActionRow]: ...
    async def replace_snapshot(self, game_id: int, state: dict[str, Any]) -> None: ...
    async def set_panel_message(self, game_id: int, message_id: int | None,
                                announced: int | None = None) -> None: ...
    # --- history (bot/history.py): derived, rebuildable tables
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
            "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
            (channel_id,))

    async def games_with_status(self, status: str) -> list[GameRow]:
        async with self._lock:
            cur = await self._db.execute("SELECT * FROM games WHERE status = ? ORDER BY id",
                                         (status,))
            rows = await cur.fetchall()
        return [self._game(r) for r in rows]

    async def seats(self, game_id: int) -> list[SeatRow]:
        async with self._lock:
            cur = await self._db.execute(
                "SELECT seat, user_id, ai_level, name, autopilot FROM seats WHERE game_id = ? "
                "ORDER BY seat", (game_id,))
            rows = await cur.fetchall()
        return [SeatRow(r[0], r[1], r[2], r[3], r[4]) for r in rows]

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
                    state: dict[str, Any]) -> int:
        async with self._tx() as db:
            return await self._bump(db, game_id, version,
                                    "status = 'active', options = ?, state = ?",
                                    (_dumps(options), _dumps(state)))

    async def set_status(self, game_id: int, version: int, status: str) -> int:
        async with self._tx() as db:
            return await self._bump(db, game_id, version, "status = ?", (status,))

    async def set_autopilot(self, game_id: int, version: int, seat: int,
                            level: str | None) -> int:
        """Let a computer of ``level`` play a person's seat (None: the person again)."""
        async with self._tx() as db:
            new = await self._bump(db, game_id, version)
            await db.execute("UPDATE seats SET autopilot = ? WHERE game_id = ? AND seat = ? "
                             "AND user_id IS NOT NULL", (level, game_id, seat))
        return new

    async def append_action(self, game_id: int, version: int, seq: int, seat: int,
                            action: dict[str, Any], state: dict[str, Any], status: str) -> int:
        """One accepted action: log it and store the new snapshot, in one transaction."""
        async with self._tx() as db:
            new = await self._bump(db, game_id, version, "state = ?, status = ?",
                                   (_dumps(state), status))
            await db.execute(
                "INSERT INTO actions (game_id, seq, seat, action, at, version) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, seat, _dumps(action), _now(), version + 1))
        return new

    async def replace_snapshot(self, game_id: int, state: dict[str, Any]) -> None:
        async with self._tx() as db:
            await db.execute("UPDATE games SET state = ?, updated_at = ? WHERE id = ?",
                             (_dumps(state), _now(), game_id))

    async def set_panel_message(self, game_id: int, message_id: int | None,
                                announced: int | None = None) -> None:
        """The message holding the game's controls; ``announced``: the version it shows."""
        async with self._tx() as db:
            await db.execute(
                "UPDATE games SET panel_message_id = ?, "
                "announced_version = MAX(COALESCE(announced_version, 0), COALESCE(?, 0)) "
                "WHERE id = ?", (message_id, announced, game_id))

    # ------------------------------------------------------------------ --- history
    # Derived tables for bot/history.py: results per seat of finished games and ratings.
    # Everything here can be dropped (clear_history) and rebuilt from the action logs.

    async def latest_game_in_channel(self, channel_id: int,
                                     statuses: tuple[str, ...]) -> GameRow | None:
        """The newest game of the channel with one of ``statuses``."""
        marks = ", ".join("?" for _ in statuses)
        return await self._one(
            f"SELECT * FROM games WHERE channel_id = ? AND status IN ({marks}) "
            "ORDER BY id DESC LIMIT 1", (channel_id, *statuses))

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
