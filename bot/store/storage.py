"""The storage methods, written once for both databases.

:class:`SqlStorage` implements :class:`~bot.store.protocol.Storage` with the statements of
bot/store/statements.py. A backend (bot/store/sqlite.py, bot/store/postgres.py) supplies
only what differs: how to read outside a transaction (:meth:`SqlStorage._read`), how to run
one transaction (:meth:`SqlStorage._write`, which hands the body a :class:`Connection`),
which of its driver's errors means a constraint was broken, and two hooks (after a
version change, before ratings are stored) that do nothing on SQLite.

Every write is one transaction and checks the game's ``version`` (optimistic
concurrency): its first statement raises the version only if the game is still at the one
the caller read (:func:`~bot.store.statements.bump`), so two writers, even in two
processes, cannot both apply a change on top of the same version.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Coroutine, Iterable, Sequence
from typing import Any, ClassVar, Protocol, TypeVar

from bot.runtime.json_text import compact
from bot.store import statements as q
from bot.store.errors import ChannelBusy, StorageError, VersionConflict
from bot.store.journal import Journal, entry_text
from bot.store.rows import (
    ActionRow,
    DeadlineRow,
    Deadlines,
    GameRef,
    GameRow,
    LessonRow,
    MenuRow,
    RatingRow,
    ResultRow,
    Row,
    SeatRow,
    Tips,
    time_text,
)
from bot.store.statements import Json, Sql

T = TypeVar("T")


class Connection(Protocol):
    """The statements of one transaction, as a backend runs them on its driver."""

    async def execute(self, sql: Sql, /, **params: Any) -> int:
        """Run one statement; how many rows it changed."""
        ...

    async def executemany(self, sql: Sql, params: Iterable[dict[str, Any]]) -> None: ...

    async def fetch(self, sql: Sql, /, **params: Any) -> list[Row]: ...


Body = Callable[[Connection], Coroutine[Any, Any, T]]
#: a change as the journal keeps it (bot/store/journal.py), made from the body's result
Entry = Callable[[Any], str]


_DEADLINE_FIELDS = tuple(f.name for f in dataclasses.fields(DeadlineRow))


def deadline_args(rows: Deadlines) -> list[dict[str, Any]] | None:
    """Turn clocks as the journal keeps them (``DeadlineRow(**d)`` reads one back)."""
    if rows is None:
        return None
    return [{name: getattr(r, name) for name in _DEADLINE_FIELDS} for r in rows]


def _host(host_id: int | None) -> tuple[str, dict[str, Any]]:
    """The :meth:`SqlStorage._bump` extra that makes ``host_id`` the game's host (None:
    keep)."""
    return ("host_id = :host_id", {"host_id": host_id}) if host_id is not None else ("", {})


class SqlStorage:
    """:class:`~bot.store.protocol.Storage` on a SQL database; see the module docstring
    for what a backend adds."""

    #: what the backend's driver raises for a broken unique constraint (a second open game
    #: in a channel)
    _CHANNEL_TAKEN: ClassVar[tuple[type[BaseException], ...]] = ()

    async def _read(self, sql: Sql, /, **params: Any) -> list[Row]:
        """The rows of one query (outside any transaction)."""
        raise NotImplementedError

    #: the journal of the changes (bot/store/journal.py; SQLite only, set before the
    #: first write): the entries are made only while there is one
    journal: Journal | None = None

    async def _write(self, body: Body[T], entry: Entry | None = None) -> T:
        """Run ``body`` as one transaction: committed if it returns, rolled back (nothing
        kept) if it raises. ``entry``: the change as the journal keeps it (a backend with
        a journal has it on disk before it returns)."""
        raise NotImplementedError

    def _entry(self, op: str, game_id: int | None, version: int | None = None,
               **args: Any) -> Entry | None:
        """The journal's entry of a change (None when no journal is kept): the method
        ``op`` and its arguments, without the state snapshot (the restore replays it)."""
        if self.journal is None:
            return None
        if "deadlines" in args:
            args["deadlines"] = deadline_args(args["deadlines"])
        text = entry_text(op, game_id, version, args, time.time())
        return lambda _result: text

    async def _write_one(self, sql: Sql, /, entry: Entry | None = None, **params: Any) -> int:
        """One statement on its own; how many rows it changed."""
        async def body(con: Connection) -> int:
            return await con.execute(sql, **params)
        return await self._write(body, entry)

    async def _write_shown(self, sql: Sql, /, **params: Any) -> int:
        """One statement on its own that records what Discord shows of a game (its turn
        message and the version it shows), never the game itself. A backend may commit it
        without waiting for the disk (SQLite: ``synchronous=NORMAL``): a power cut in the
        moment after it can lose it (a crash of the process cannot), and then the start-up
        posts the game's position once more (``announced_version`` behind), which is what
        happens anyway when the power goes between the post and this write."""
        return await self._write_one(sql, **params)

    async def _bumped(self, con: Connection, game_id: int, version: int,
                      guild_id: int | None) -> None:
        """Called in the transaction that raised the game to ``version``."""

    async def _ratings_taken(self, con: Connection, guild_id: int,
                             rated: list[tuple[int, str]], replace: bool) -> bool:
        """Called first in :meth:`store_ratings`'s transaction: True drops the write (another
        writer rated some of these games meanwhile)."""
        return False

    async def close(self) -> None:
        raise NotImplementedError

    async def rotate_journal(self, stamp: str) -> None:
        """Start the journal's next segment (just before a backup, stamped as it), between
        two commits. Nothing to do without a journal."""

    # ------------------------------------------------------------------ reading
    async def _one(self, sql: Sql, /, **params: Any) -> GameRow | None:
        rows = await self._read(sql, **params)
        return GameRow.from_row(rows[0]) if rows else None

    async def _ref(self, sql: Sql, /, **params: Any) -> GameRef | None:
        rows = await self._read(sql, **params)
        return GameRef.from_row(rows[0]) if rows else None

    async def game(self, game_id: int) -> GameRow | None:
        return await self._one(q.GAME, game_id=game_id)

    async def open_game_in_channel(self, channel_id: int) -> GameRow | None:
        return await self._one(q.OPEN_GAME_IN_CHANNEL, channel_id=channel_id)

    async def games_with_status(self, status: str) -> list[GameRow]:
        """Every game of ``status``; raises :class:`GameUnreadable` if any one is damaged
        (use :meth:`game_refs` and :meth:`game` to read them one by one)."""
        return [GameRow.from_row(r) for r in await self._read(q.GAMES_WITH_STATUS,
                                                              status=status)]

    async def game_refs(self, status: str) -> list[GameRef]:
        """The games of ``status``, by their number columns only: one damaged row cannot
        keep the others from being listed."""
        return [GameRef.from_row(r) for r in await self._read(q.GAME_REFS, status=status)]

    async def game_refs_behind(self, status: str) -> list[GameRef]:
        """The games of ``status`` announced once but not at their current version (the
        process stopped, or another one made the change, before the owner posted it)."""
        return [GameRef.from_row(r) for r in await self._read(q.GAME_REFS_BEHIND,
                                                              status=status)]

    async def game_ref(self, game_id: int) -> GameRef | None:
        return await self._ref(q.GAME_REF, game_id=game_id)

    async def open_game_ref(self, channel_id: int) -> GameRef | None:
        """The open (lobby or active) game of a channel, by its number columns only."""
        return await self._ref(q.OPEN_GAME_REF, channel_id=channel_id)

    async def seats(self, game_id: int) -> list[SeatRow]:
        return [SeatRow.from_row(r) for r in await self._read(q.SEATS, game_id=game_id)]

    async def actions(self, game_id: int) -> list[ActionRow]:
        """The log of a game; raises :class:`GameUnreadable` if an entry is damaged."""
        return [ActionRow.from_row(game_id, r)
                for r in await self._read(q.ACTIONS, game_id=game_id)]

    # ------------------------------------------------------------------ writing
    async def _bump(self, con: Connection, game_id: int, version: int, sets: str = "",
                    **params: Any) -> int:
        """Raise the version from ``version`` (or :class:`VersionConflict`) and set more
        columns (``sets``, with named ``params``); the new version."""
        rows = await con.fetch(q.bump(sets), game_id=game_id, version=version, **params)
        if not rows:
            raise VersionConflict(f"game {game_id} is no longer at version {version}")
        await self._bumped(con, game_id, version + 1, rows[0][0])
        return version + 1

    async def create_game(self, guild_id: int | None, channel_id: int, host_id: int,
                          host_name: str | None, options: dict[str, Any], *,
                          game: str | None = None) -> GameRow:
        """A new lobby of ``game`` (its stored name; None: the column's default); the host
        takes seat 0 unless ``host_name`` is None."""
        named = {} if game is None else {"game": game}

        async def body(con: Connection) -> Row:
            (row,) = await con.fetch(q.CREATE_GAME if game is None else q.CREATE_GAME_OF,
                                     guild_id=guild_id, channel_id=channel_id,
                                     host_id=host_id, options=Json(options), **named)
            if host_name is not None:
                await con.execute(q.ADD_SEAT, game_id=row["id"], seat=0, user_id=host_id,
                                  ai_level=None, name=host_name)
            return row
        entry = None
        if self.journal is not None:
            args = {"guild_id": guild_id, "channel_id": channel_id, "host_id": host_id,
                    "host_name": host_name, "options": options, **named}

            def entry(row: Row) -> str:  # the game's number is known once it is made
                return entry_text("create_game", int(row["id"]), None, args, time.time())
        try:
            return GameRow.from_row(await self._write(body, entry))
        except self._CHANNEL_TAKEN as exc:
            raise ChannelBusy(str(exc)) from None

    async def add_seat(self, game_id: int, version: int, user_id: int | None,
                       ai_level: str | None, name: str) -> int:
        async def body(con: Connection) -> int:
            new = await self._bump(con, game_id, version)
            ((n,),) = await con.fetch(q.COUNT_SEATS, game_id=game_id)
            await con.execute(q.ADD_SEAT, game_id=game_id, seat=n, user_id=user_id,
                              ai_level=ai_level, name=name)
            return new
        return await self._write(body, self._entry("add_seat", game_id, version,
                                                   user_id=user_id, ai_level=ai_level,
                                                   name=name))

    async def remove_seat(self, game_id: int, version: int, seat: int) -> int:
        """Remove a lobby seat; later seats move up one place (one by one, in order, since
        PostgreSQL checks the primary key row by row)."""
        async def body(con: Connection) -> int:
            new = await self._bump(con, game_id, version)
            await con.execute(q.DELETE_SEAT, game_id=game_id, seat=seat)
            for (s,) in await con.fetch(q.SEATS_AFTER, game_id=game_id, seat=seat):
                await con.execute(q.MOVE_SEAT, to=s - 1, game_id=game_id, seat=s)
            return new
        return await self._write(body, self._entry("remove_seat", game_id, version, seat=seat))

    async def _change(self, game_id: int, version: int, deadlines: Deadlines,
                      entry: Entry | None, sets: str = "", **params: Any) -> int:
        """A version change setting game columns, and the game's clocks with it."""
        async def body(con: Connection) -> int:
            new = await self._bump(con, game_id, version, sets, **params)
            await self._write_deadlines(con, game_id, deadlines)
            return new
        return await self._write(body, entry)

    async def start(self, game_id: int, version: int, options: dict[str, Any],
                    state: dict[str, Any], deadlines: Deadlines = None, *,
                    seed_salt: str | None = None, seed_commitment: str | None = None
                    ) -> int:
        """The game starts: its options (the seed among them), first snapshot and clocks,
        and the salt and commitment of its seed (engine/commitment.py)."""
        entry = self._entry("start", game_id, version, options=options, deadlines=deadlines,
                            seed_salt=seed_salt, seed_commitment=seed_commitment)
        return await self._change(game_id, version, deadlines, entry,
                                  "status = 'active', options = :options, state = :state, "
                                  "seed_salt = :seed_salt, seed_commitment = :seed_commitment",
                                  options=Json(options), state=compact(state),
                                  seed_salt=seed_salt, seed_commitment=seed_commitment)

    async def set_status(self, game_id: int, version: int, status: str,
                         deadlines: Deadlines = None) -> int:
        entry = self._entry("set_status", game_id, version, status=status,
                            deadlines=deadlines)
        return await self._change(game_id, version, deadlines, entry, "status = :status",
                                  status=status)

    async def set_options(self, game_id: int, version: int, options: dict[str, Any],
                          deadlines: Deadlines = None) -> int:
        """New game options (e.g. the pace) and the turn clocks they imply."""
        entry = self._entry("set_options", game_id, version, options=options,
                            deadlines=deadlines)
        return await self._change(game_id, version, deadlines, entry, "options = :options",
                                  options=Json(options))

    async def set_autopilot(self, game_id: int, version: int, seat: int,
                            level: str | None, deadlines: Deadlines = None, *,
                            timed_out: bool = False) -> int:
        """Let a computer of ``level`` play a person's seat (None: the person again);
        ``timed_out``: because the person missed their deadlines (``SeatRow.timed_out``)."""
        async def body(con: Connection) -> int:
            new = await self._bump(con, game_id, version)
            await con.execute(q.SET_AUTOPILOT, level=level, game_id=game_id, seat=seat,
                              timed_out=bool(timed_out and level is not None))
            await self._write_deadlines(con, game_id, deadlines)
            return new
        return await self._write(body, self._entry("set_autopilot", game_id, version,
                                                   seat=seat, level=level,
                                                   deadlines=deadlines, timed_out=timed_out))

    async def append_action(self, game_id: int, version: int, seq: int, seat: int,
                            action: dict[str, Any], state: dict[str, Any], status: str,
                            deadlines: Deadlines = None) -> int:
        """One accepted action: log it, store the new snapshot and (if given) the game's
        turn clocks, in one transaction."""
        async def body(con: Connection) -> int:
            new = await self._bump(con, game_id, version, "state = :state, status = :status",
                                   state=compact(state), status=status)
            await con.execute(q.APPEND_ACTION, game_id=game_id, seq=seq, seat=seat,
                              action=Json(action), version=new)
            await self._write_deadlines(con, game_id, deadlines)
            return new
        return await self._write(body, self._entry("append_action", game_id, version,
                                                   seq=seq, seat=seat, action=action,
                                                   status=status, deadlines=deadlines))

    async def replace_seat(self, game_id: int, version: int, seat: int, user_id: int,
                           name: str, deadlines: Deadlines = None, *,
                           host_id: int | None = None) -> int:
        """Another person takes over a person's seat (any autopilot or leave ends);
        ``host_id``: the game's new host (the host's seat changed hands)."""
        sets, params = _host(host_id)

        async def body(con: Connection) -> int:
            new = await self._bump(con, game_id, version, sets, **params)
            if await con.execute(q.REPLACE_SEAT, user_id=user_id, name=name, game_id=game_id,
                                 seat=seat) != 1:
                raise StorageError(f"game {game_id} has no person's seat {seat}")
            await self._write_deadlines(con, game_id, deadlines)
            return new
        return await self._write(body, self._entry("replace_seat", game_id, version,
                                                   seat=seat, user_id=user_id, name=name,
                                                   deadlines=deadlines, host_id=host_id))

    async def leave_seat(self, game_id: int, version: int, seat: int, level: str,
                         deadlines: Deadlines = None, *, host_id: int | None = None) -> int:
        """The person leaves mid-game: a computer of ``level`` plays the seat to the end;
        ``host_id``: the game's new host (the host left)."""
        sets, params = _host(host_id)

        async def body(con: Connection) -> int:
            new = await self._bump(con, game_id, version, sets, **params)
            await con.execute(q.LEAVE_SEAT, level=level, game_id=game_id, seat=seat)
            await self._write_deadlines(con, game_id, deadlines)
            return new
        return await self._write(body, self._entry("leave_seat", game_id, version, seat=seat,
                                                   level=level, deadlines=deadlines,
                                                   host_id=host_id))

    # ------------------------------------------------------------------ turn clocks
    @staticmethod
    async def _write_deadlines(con: Connection, game_id: int, rows: Deadlines) -> None:
        """Replace the game's turn clocks by ``rows`` (None: leave them as they are),
        keeping the higher reminder count of a clock that is still the same one (see
        ``UPSERT_DEADLINE``); the caller's transaction makes it part of the change that
        implied them."""
        if rows is None:
            return
        await con.execute(q.DELETE_OTHER_DEADLINES, game_id=game_id,
                          seats=[r.seat for r in rows])
        if rows:
            await con.executemany(q.UPSERT_DEADLINE, [
                {"game_id": game_id, "seat": r.seat, "since": r.since,
                 "started_at": r.started_at, "due_at": r.due_at, "reminded": r.reminded,
                 "strikes": r.strikes, "covering": r.covering, "nudged": r.nudged}
                for r in rows])

    async def set_deadlines(self, game_id: int, deadlines: Sequence[DeadlineRow]) -> None:
        """Only the turn clocks (at start-up, when they are re-armed: no game change)."""
        async def body(con: Connection) -> None:
            await self._write_deadlines(con, game_id, deadlines)
        await self._write(body, self._entry("set_deadlines", game_id, deadlines=deadlines))

    async def deadlines(self, game_id: int) -> list[DeadlineRow]:
        return [DeadlineRow.from_row(r) for r in await self._read(q.DEADLINES,
                                                                  game_id=game_id)]

    async def update_deadline(self, game_id: int, seat: int, since: int | None, *,
                              due_at: float | None, reminded: int) -> bool:
        """Note a reminder sent or a deadline moved (not a game change: no version bump),
        only while the seat owes the same decision; False if it no longer does."""
        return await self._write_one(q.UPDATE_DEADLINE, due_at=due_at, reminded=reminded,
                                     game_id=game_id, seat=seat, since=since) == 1

    async def set_nudged(self, game_id: int, seat: int, since: int | None) -> bool:
        """Note that the person owing the seat's decision was told of it (a nudge; not a
        game change), only while the seat owes the same decision; False if it no longer
        does."""
        return await self._write_one(q.SET_NUDGED, game_id=game_id, seat=seat,
                                     since=since) == 1

    async def reminders_on(self, user_id: int) -> bool:
        """Whether the person wants turn reminders (the default: yes)."""
        rows = await self._read(q.REMINDERS, user_id=user_id)
        return not rows or bool(rows[0][0])

    async def set_reminders(self, user_id: int, on: bool) -> None:
        await self._write_one(q.SET_REMINDERS, self._entry("set_reminders", None,
                                                           user_id=user_id, on=bool(on)),
                              user_id=user_id, on=bool(on))

    async def user_locales(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The stored client language of each of ``user_ids`` that has one."""
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        return {r[0]: r[1] for r in await self._read(q.USER_LOCALES, user_ids=ids)}

    async def set_user_locale(self, user_id: int, locale: str) -> None:
        await self._write_one(q.SET_USER_LOCALE, self._entry("set_user_locale", None,
                                                             user_id=user_id, locale=locale),
                              user_id=user_id, locale=locale)

    # ------------------------------------------------------------------ lessons and tips
    async def lesson(self, user_id: int) -> LessonRow | None:
        rows = await self._read(q.LESSON_OF_USER, user_id=user_id)
        return LessonRow.from_row(rows[0]) if rows else None

    async def lesson_by_id(self, lesson_id: int) -> LessonRow | None:
        rows = await self._read(q.LESSON, lesson_id=lesson_id)
        return LessonRow.from_row(rows[0]) if rows else None

    async def start_lesson(self, user_id: int, game: str, guild_id: int | None,
                           channel_id: int | None) -> LessonRow:
        """The person's lesson, new at its first page or, asked for again, where it was
        (a left one running again)."""
        async def body(con: Connection) -> Row:
            (row,) = await con.fetch(q.START_LESSON, user_id=user_id, game=game,
                                     guild_id=guild_id, channel_id=channel_id)
            return row
        return LessonRow.from_row(await self._write(body, self._entry(
            "start_lesson", None, user_id=user_id, game=game, guild_id=guild_id,
            channel_id=channel_id)))

    async def set_lesson_step(self, user_id: int, was: int, step: int, status: str) -> bool:
        """The lesson moved from page ``was`` to ``step`` (``status``: running, left or
        finished; finished notes that its end was reached); False if it was no longer at
        ``was`` (another click moved it first)."""
        return await self._write_one(
            q.SET_LESSON_STEP, self._entry("set_lesson_step", None, user_id=user_id, was=was,
                                           step=step, status=status),
            user_id=user_id, was=was, step=step, status=status,
            finished=status == "finished") == 1

    async def set_lesson_place(self, user_id: int, thread_id: int | None,
                               message_id: int | None) -> None:
        await self._write_one(q.SET_LESSON_PLACE, self._entry(
            "set_lesson_place", None, user_id=user_id, thread_id=thread_id,
            message_id=message_id), user_id=user_id, thread_id=thread_id,
            message_id=message_id)

    async def tips(self, user_ids: Sequence[int]) -> dict[int, Tips]:
        """Each of ``user_ids``'s tips (the default for a person without settings)."""
        ids = sorted(set(user_ids))
        found = {r[0]: Tips(bool(r[1]), frozenset(k for k in r[2].split(",") if k))
                 for r in (await self._read(q.TIPS, user_ids=ids) if ids else [])}
        return {u: found.get(u, Tips()) for u in ids}

    async def set_tips(self, user_id: int, on: bool) -> None:
        await self._write_one(q.SET_TIPS, self._entry("set_tips", None, user_id=user_id,
                                                      on=bool(on)),
                              user_id=user_id, on=bool(on))

    async def see_tip(self, user_id: int, kind: str) -> None:
        """The person has had the tip of ``kind`` (a decision's kind)."""
        await self._write_one(q.SEE_TIP, self._entry("see_tip", None, user_id=user_id,
                                                     kind=kind),
                              user_id=user_id, kind=kind)

    async def finished_games(self, user_ids: Sequence[int]) -> dict[int, int]:
        """How many finished games each of ``user_ids`` played, on any server (the
        history's results); people with none are left out."""
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        return {r[0]: int(r[1]) for r in await self._read(q.FINISHED_GAMES, user_ids=ids)}

    # ------------------------------------------------------------------ private menus
    async def private_menus(self, game_id: int | None = None) -> list[MenuRow]:
        """The live DM menus (of one game, or all), oldest first."""
        rows = (await self._read(q.PRIVATE_MENUS) if game_id is None else
                await self._read(q.PRIVATE_MENUS_OF_GAME, game_id=game_id))
        return [MenuRow.from_row(r) for r in rows]

    async def put_private_menu(self, row: MenuRow) -> None:
        """A DM menu was sent, or edited in place to a newer one (same message)."""
        await self._write_one(q.PUT_PRIVATE_MENU, message_id=row.message_id,
                              channel_id=row.channel_id, game_id=row.game_id,
                              user_id=row.user_id, version=row.version, content=row.content,
                              locale=row.locale)

    async def drop_private_menus(self, message_ids: Sequence[int]) -> None:
        """The menus were used or retired."""
        if not message_ids:
            return

        async def body(con: Connection) -> None:
            await con.executemany(q.DROP_PRIVATE_MENU, [{"message_id": m} for m in message_ids])
        await self._write(body)

    # ------------------------------------------------------------------ hand messages
    async def hand_message(self, game_id: int, user_id: int) -> tuple[int, int] | None:
        """The DM (channel, message) that shows ``user_id``'s cards in the game, if sent."""
        rows = await self._read(q.HAND_MESSAGE, game_id=game_id, user_id=user_id)
        return (int(rows[0][0]), int(rows[0][1])) if rows else None

    async def set_hand_message(self, game_id: int, user_id: int, channel_id: int,
                               message_id: int) -> None:
        """The person's hand message in the game is this DM from now on."""
        await self._write_one(q.SET_HAND_MESSAGE, game_id=game_id, user_id=user_id,
                              channel_id=channel_id, message_id=message_id)

    # ------------------------------------------------------------------ turn mutes
    async def turn_mutes(self, game_id: int) -> dict[int, str]:
        """Each person's muted turn in the game (the turn's key text), by user id."""
        return {int(r[0]): str(r[1]) for r in await self._read(q.TURN_MUTES, game_id=game_id)}

    async def set_turn_mute(self, game_id: int, user_id: int, turn_key: str) -> None:
        """The person muted the pings and reminders of ``turn_key`` (not a game change)."""
        await self._write_one(q.SET_TURN_MUTE, game_id=game_id, user_id=user_id,
                              turn_key=turn_key)

    # ------------------------------------------------------------------ presentation
    async def replace_snapshot(self, game_id: int, state: dict[str, Any]) -> None:
        await self._write_one(q.REPLACE_SNAPSHOT, state=compact(state), game_id=game_id)

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        """Where the game is played from now on (not a game change: no version bump)."""
        await self._write_one(q.SET_THREAD, self._entry("set_thread", game_id,
                                                        thread_id=thread_id),
                              thread_id=thread_id, game_id=game_id)

    async def set_turn_message(self, game_id: int, message_id: int | None, turn_key: str | None,
                               announced: int | None = None) -> None:
        """The turn message, the turn it shows and the newest version it shows."""
        await self._write_shown(q.SET_TURN_MESSAGE, message_id=message_id,
                                turn_key=turn_key, announced=announced, game_id=game_id)

    async def flush_shown(self) -> None:
        """Write the records of what is shown that wait for a job to take them along
        (``_write_shown``), now."""

    async def set_panel_message(self, game_id: int, message_id: int | None,
                                announced: int | None = None) -> None:
        """The message holding the game's controls; ``announced``: the version it shows."""
        await self._write_one(q.SET_PANEL_MESSAGE, message_id=message_id, announced=announced,
                              game_id=game_id)

    # ------------------------------------------------------------------ history
    # Derived tables for bot/history/ledger.py: results per seat of finished games and ratings.
    # Everything here can be dropped (clear_history) and rebuilt from the action logs.
    async def latest_game_in_channel(self, channel_id: int,
                                     statuses: tuple[str, ...]) -> GameRow | None:
        """The newest game of the channel with one of ``statuses``."""
        return await self._one(q.LATEST_GAME_IN_CHANNEL, channel_id=channel_id,
                               statuses=list(statuses))

    async def games_without_results(self) -> list[GameRow]:
        """Finished games whose results are not derived yet, oldest first."""
        return [GameRow.from_row(r) for r in await self._read(q.GAMES_WITHOUT_RESULTS)]

    async def finished_at(self, game_id: int) -> str | None:
        """When the game's last action was logged (the log is append-only, so this never
        changes once the game is over), as SQLite writes times: the history tables compare
        these strings."""
        rows = await self._read(q.FINISHED_AT, game_id=game_id)
        return None if not rows or rows[0][0] is None else time_text(rows[0][0])

    async def save_results(self, rows: list[ResultRow]) -> None:
        async def body(con: Connection) -> None:
            await con.executemany(q.SAVE_RESULT, [
                {"game_id": r.game_id, "seat": r.seat, "guild_id": r.guild_id,
                 "channel_id": r.channel_id, "user_id": r.user_id, "ai_level": r.ai_level,
                 "name": r.name, "rank": r.rank, "vp": r.vp, "won": bool(r.won),
                 "opening": r.opening, "finished_at": r.finished_at} for r in rows])
        await self._write(body)

    async def results(self, guild_id: int, *, game_ids: list[int] | None = None,
                      user_id: int | None = None) -> list[ResultRow]:
        """Result rows of a server in game order (finish time, then id), seats in order."""
        if game_ids is not None and not game_ids:
            return []
        sql = q.results(game_ids is not None, user_id is not None)
        params: dict[str, Any] = {"guild_id": guild_id}
        if game_ids is not None:
            params["game_ids"] = list(game_ids)
        if user_id is not None:
            params["user_id"] = user_id
        return [ResultRow.from_row(r) for r in await self._read(sql, **params)]

    async def result_game_ids(self, guild_id: int, channel_id: int | None, limit: int,
                              offset: int = 0) -> list[int]:
        """Finished games of a server (or one channel of it), newest first."""
        params: dict[str, Any] = {"guild_id": guild_id, "limit": limit, "offset": offset}
        if channel_id is not None:
            params["channel_id"] = channel_id
        rows = await self._read(q.result_game_ids(channel_id is not None), **params)
        return [r[0] for r in rows]

    async def ratings(self, guild_id: int) -> dict[int, RatingRow]:
        return {r[1]: RatingRow.from_row(r) for r in await self._read(q.RATINGS,
                                                                      guild_id=guild_id)}

    async def rated_games(self, guild_id: int) -> list[tuple[str, int]]:
        """``(finished_at, game_id)`` of the games the stored ratings include, in order."""
        return [(r[0], r[1]) for r in await self._read(q.RATED_GAMES, guild_id=guild_id)]

    async def store_ratings(self, guild_id: int, rows: list[RatingRow],
                            rated: list[tuple[int, str]], *, replace: bool) -> None:
        """Write ratings and the games they now include, in one transaction; ``replace``
        first drops the server's ratings (a recomputation from scratch)."""
        async def body(con: Connection) -> None:
            if await self._ratings_taken(con, guild_id, rated, replace):
                return
            if replace:
                await con.execute(q.DELETE_RATINGS, guild_id=guild_id)
                await con.execute(q.DELETE_RATED_GAMES, guild_id=guild_id)
            await con.executemany(q.SAVE_RATING, [
                {"guild_id": guild_id, "user_id": r.user_id, "mu": r.mu, "sigma": r.sigma,
                 "games": r.games} for r in rows])
            await con.executemany(q.SAVE_RATED_GAME, [
                {"game_id": g, "guild_id": guild_id, "finished_at": at} for g, at in rated])
        await self._write(body)

    async def clear_history(self) -> None:
        """Drop every derived row (results and ratings); they are rebuilt from the logs."""
        async def body(con: Connection) -> None:
            for sql in q.CLEAR_HISTORY:
                await con.execute(sql)
        await self._write(body)
