"""What the storage raises, whichever database is behind it.

Failures of the store itself (disk full, database locked past the busy timeout, a
read-only or damaged file, the file deleted or replaced under the running bot, a database
server that cannot be reached) surface as :class:`StorageUnavailable` with a ``reason``;
the transaction is rolled back, so nothing is half-written and the caller's in-memory
state must not advance. A game row or log entry that cannot be decoded raises
:class:`GameUnreadable` for that game only. Each backend maps its own driver's errors to
these (``unavailable`` in bot/store/sqlite.py and bot/store/postgres.py).
"""

from __future__ import annotations


class StorageError(Exception):
    pass


# why the store cannot be used right now (StorageUnavailable.reason)
FULL, BUSY, READONLY, GONE, IO, CORRUPT = "full", "busy", "readonly", "gone", "io", "corrupt"
#: a database server that cannot be reached (PostgreSQL)
OFFLINE = "offline"


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


class ChannelBusy(StorageError):
    """The channel already has an open (lobby or active) game."""


class VersionConflict(StorageError):
    """The game changed since the caller read it."""
