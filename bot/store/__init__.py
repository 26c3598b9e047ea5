"""Durable storage: games, seats, the append-only action log, state snapshots, turn clocks,
DM menus and the derived history, on SQLite (the default) or PostgreSQL.

The public names: the rows (bot/store/rows.py), the errors (bot/store/errors.py), the
:class:`Storage` interface and its groups by user (bot/store/protocol.py) and
:func:`open_storage`, which picks the database from a ``TEMPUS_DB`` value
(bot/store/opening.py). The storage methods are written once (bot/store/storage.py,
bot/store/statements.py); bot/store/sqlite.py and bot/store/postgres.py hold what each
database does its own way.
"""

from bot.store.errors import (
    BUSY,
    CORRUPT,
    FULL,
    GONE,
    IO,
    OFFLINE,
    READONLY,
    ChannelBusy,
    GameUnreadable,
    StorageError,
    StorageUnavailable,
    VersionConflict,
)
from bot.store.file_lock import StoreInUse
from bot.store.opening import open_storage
from bot.store.protocol import (
    ClockStore,
    GameReads,
    GameWrites,
    HistoryStore,
    LessonStore,
    PeopleStore,
    PostStore,
    SharedStore,
    Storage,
)
from bot.store.rows import (
    ACTIVE,
    CANCELLED,
    FINISHED,
    LOBBY,
    OPEN_STATUSES,
    ActionRow,
    DeadlineRow,
    Deadlines,
    GameRef,
    GameRow,
    GameStatus,
    LessonRow,
    MenuRow,
    RatingRow,
    ResultRow,
    SeatRow,
    Tips,
)

__all__ = [
    "ACTIVE", "BUSY", "CANCELLED", "CORRUPT", "FINISHED", "FULL", "GONE", "IO", "LOBBY",
    "OFFLINE", "OPEN_STATUSES", "READONLY", "ActionRow", "ChannelBusy", "ClockStore",
    "DeadlineRow", "Deadlines", "GameReads", "GameRef", "GameRow", "GameStatus",
    "GameUnreadable", "GameWrites", "HistoryStore", "LessonRow", "LessonStore", "MenuRow",
    "PeopleStore", "PostStore", "RatingRow", "ResultRow", "SeatRow", "SharedStore",
    "Storage", "StorageError", "StorageUnavailable", "StoreInUse", "Tips",
    "VersionConflict", "open_storage",
]
