"""What the storage reads and writes: a game, its seats, its action log, its turn clocks,
the DM menus, the history tables; each row class built from a database row in one place
(``from_row``), whichever database returned it.

A database row here is what the driver hands back (``sqlite3.Row``, ``asyncpg.Record``):
both are read by column name and by position, in the column order of
bot/store/statements.py. JSON columns arrive as text on both backends and are decoded
here, so a damaged game reads the same way on both.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from bot.store.errors import GameUnreadable
from games.registry import DEFAULT as DEFAULT_GAME


class GameStatus(StrEnum):
    """Where a game is in its life (the ``games.status`` column holds these words)."""

    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    CANCELLED = "cancelled"


LOBBY, ACTIVE, FINISHED, CANCELLED = GameStatus
OPEN_STATUSES = (LOBBY, ACTIVE)

#: a database row as its driver returns it (by name and by position)
Row = Any


class BadText(str):
    """A TEXT value that was not valid UTF-8 (decoded with replacement characters).

    SQLite's connection returns it instead of failing the whole query, so one damaged row
    cannot hide every other row of a result; JSON columns refuse it."""


def json_column(game_id: int, column: str, value: Any) -> Any:
    """A JSON column's text decoded, or :class:`GameUnreadable` naming the column."""
    if isinstance(value, BadText):
        raise GameUnreadable(game_id, f"{column} is not valid UTF-8")
    try:
        return json.loads(value)
    except (TypeError, ValueError) as exc:
        raise GameUnreadable(game_id, f"{column} is not valid JSON ({exc})") from None


def time_text(value: str | datetime) -> str:
    """A stored time as SQLite writes it (ISO, UTC, milliseconds): PostgreSQL returns
    its timestamps as datetimes, and the history tables compare these strings."""
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat(timespec="milliseconds")
    return value


def now_text() -> str:
    """The current time as the SQLite columns hold it (``now()`` in its statements)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


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
    #: the salt and SHA-256 of the seed's commitment (engine/commitment.py), set when the
    #: game starts; None for games started before commitments
    seed_salt: str | None = None
    seed_commitment: str | None = None
    #: which game the table plays (the ``games.game`` column): its name in games.registry
    kind: str = DEFAULT_GAME

    @property
    def play_channel_id(self) -> int:
        """Where the game's board and turn messages go."""
        return self.thread_id or self.channel_id

    @classmethod
    def from_row(cls, row: Row) -> GameRow:
        """Damaged options raise :class:`GameUnreadable`; a damaged snapshot reads as none
        (``state_error`` says why), as the log rebuilds it."""
        game_id = row["id"]
        options = json_column(game_id, "options", row["options"])
        if not isinstance(options, dict):
            raise GameUnreadable(game_id, "options is not a JSON object")
        state, state_error = None, None
        if row["state"]:
            try:
                state = json_column(game_id, "state", row["state"])
            except GameUnreadable as exc:
                state_error = exc.reason
            else:
                if not isinstance(state, dict):
                    state, state_error = None, "state is not a JSON object"
        return cls(
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
            seed_salt=row["seed_salt"],
            seed_commitment=row["seed_commitment"],
            kind=row["game"],
        )


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

    @classmethod
    def from_row(cls, row: Row) -> GameRef:
        return cls(*row)


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
    #: the autopilot was switched on by missed deadlines (bot/table/timeouts.py), not by
    #: a person; cleared when the person takes the seat back
    timed_out: bool = False

    @property
    def is_ai(self) -> bool:
        """A computer decides for this seat (a computer player, or a person's autopilot)."""
        return self.user_id is None or self.autopilot is not None

    @property
    def level(self) -> str | None:
        """The computer level deciding for this seat, if any."""
        return self.ai_level if self.user_id is None else self.autopilot

    @property
    def forfeited(self) -> bool:
        """A person who no longer plays the seat and will not come back to it before the
        end: they left, or missed deadlines put a computer on it (and they have not taken
        it back). At the end of a game this is a leaver (bot/history/ratings.py)."""
        return self.user_id is not None and (
            self.left or (self.timed_out and self.autopilot is not None))

    @classmethod
    def from_row(cls, row: Row) -> SeatRow:
        return cls(row[0], row[1], row[2], row[3], row[4], bool(row[5]), bool(row[6]))


@dataclass(frozen=True)
class ActionRow:
    seq: int
    seat: int
    action: dict[str, Any]
    #: the game version this action made (None in logs written before schema 3)
    version: int | None = None

    @classmethod
    def from_row(cls, game_id: int, row: Row) -> ActionRow:
        """Raises :class:`GameUnreadable` if the entry is not a JSON object."""
        action = json_column(game_id, f"action {row[0]}", row[2])
        if not isinstance(action, dict):
            raise GameUnreadable(game_id, f"action {row[0]} is not a JSON object")
        return cls(row[0], row[1], action, row[3])


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

    @classmethod
    def from_row(cls, row: Row) -> ResultRow:
        return cls(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8],
                   bool(row[9]), row[10], row[11])


@dataclass(frozen=True)
class RatingRow:
    """A person's rating on one server (a cache of bot/history/ratings.py's recomputation)."""

    guild_id: int
    user_id: int
    mu: float
    sigma: float
    games: int

    @classmethod
    def from_row(cls, row: Row) -> RatingRow:
        return cls(*row)


@dataclass(frozen=True)
class DeadlineRow:
    """A seat's turn clock (table ``deadlines``, see SQLite migration 6)."""

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
    #: the turn (the game's Rules.turn_key, Table.turn) in which a computer decides for the
    #: seat because its time ran out (None: not covered); such a row has no deadline
    covering: str | None = None
    #: the person was told of this decision as an away player is (at once, or by a
    #: nudge when they had not acted a few minutes later: bot.timing.nudges)
    nudged: bool = False

    @classmethod
    def from_row(cls, row: Row) -> DeadlineRow:
        # (SQLite keeps the flag as 0/1)
        return cls(*row[:7], *(bool(x) for x in row[7:8]))


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

    @classmethod
    def from_row(cls, row: Row) -> MenuRow:
        return cls(*row)


@dataclass(frozen=True)
class LessonRow:
    """A person's lesson (table ``lessons``, SQLite's migration 12): the page of the game's
    lesson they are at, whether they are in it (``running``), have ``left`` it or have
    reached its end (``finished``), whether they ever reached its end, the server and
    channel it was asked for in, and its private thread and message (no thread: shown in
    a private reply)."""

    id: int
    user_id: int
    game: str
    step: int
    status: str
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    message_id: int | None
    #: the end was reached once (kept when the lesson is gone through again)
    finished: bool

    @classmethod
    def from_row(cls, row: Row) -> LessonRow:
        return cls(int(row[0]), int(row[1]), str(row[2]), int(row[3]), str(row[4]), row[5],
                   row[6], row[7], row[8], bool(row[9]))


@dataclass(frozen=True)
class Tips:
    """A person's tips for their first games: shown or not, the kinds of decision whose
    tip they have had."""

    on: bool = True
    seen: frozenset[str] = frozenset()


#: a game's complete set of turn-clock rows, written with a change (None: leave them)
Deadlines = Sequence[DeadlineRow] | None
