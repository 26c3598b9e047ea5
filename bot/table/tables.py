"""The games loaded in this process: loading one from the store (replaying its log, checked
against the snapshot), the per-game load locks, the games set aside because they cannot be
loaded, which game a channel plays, and forgetting idle games.

:class:`Tables` owns that cache; every use case gets its table here (:meth:`Tables.get`).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterator

from bot.runtime.keyed_lock import KeyedLocks
from bot.store import ACTIVE, FINISHED, LOBBY, GameRow, GameUnreadable, Storage
from bot.table import newcomers
from bot.table.clocks import Clocks, covered_in
from bot.table.model import (
    SetAside,
    StorageRefusal,
    Table,
    TableError,
    next_since,
    replay_move,
)
from bot.table.presence import Presence
from bot.table.tips import TipsOfFirstGames
from games.port import Refused
from games.registry import UnknownGame

log = logging.getLogger(__name__)


class Tables:
    def __init__(self, storage: Storage, clocks: Clocks,
                 presence: Presence | None = None,
                 tips: TipsOfFirstGames | None = None) -> None:
        self.storage = storage
        self.clocks = clocks
        #: the tips of people's first games: a loaded game's people's are read
        self.tips = tips
        #: who muted which turn: a loaded game's stored mutes are put back there
        self.presence = presence
        #: the games loaded in this process, by id
        self._tables: dict[int, Table] = {}
        #: channel (or thread) id -> its open game's id (autocomplete speed)
        self._by_channel: dict[int, int] = {}
        #: per game: held while it is loaded from the store (loads of different games overlap)
        self.load_locks = KeyedLocks()
        #: games that could not be loaded, by id: refused with a clear message until a
        #: restart; the application tells each channel once (``SetAside.notice``)
        self.set_aside: dict[int, SetAside] = {}

    def __contains__(self, game_id: int) -> bool:
        return game_id in self._tables

    def __iter__(self) -> Iterator[Table]:
        return iter(list(self._tables.values()))

    def cached(self, game_id: int) -> Table | None:
        """The game if it is loaded (never loads it)."""
        return self._tables.get(game_id)

    async def get(self, game_id: int) -> Table:
        """The game, loaded from the store at its first use (TableError: no such game, or
        it is set aside)."""
        table = self._tables.get(game_id)
        if table is not None:
            table.touched = time.monotonic()
            return table
        if game_id in self.set_aside:
            raise TableError("error.game_set_aside", game=game_id)
        async with self.load_locks(game_id):
            table = self._tables.get(game_id)
            if table is None:
                try:
                    game = await self.storage.game(game_id)
                    if game is None:
                        raise TableError("error.no_game")
                    table = await self.load(game)
                except TableError:
                    raise  # no such game, or the store is unavailable now: not its fault
                except Exception as exc:
                    await self._set_aside(game_id, exc)
                    raise TableError("error.game_set_aside", game=game_id) from None
                self._tables[game_id] = table
        return table

    async def adopt(self, game_id: int, build: Callable[[], Awaitable[Table]]
                    ) -> Table | None:
        """Register the table ``build`` makes as loaded, with its lock held (the caller
        releases it); None if the game was loaded meanwhile."""
        async with self.load_locks(game_id):
            if game_id in self._tables:
                return None
            table = await build()
            await table.lock.acquire()  # a new lock: free
            self._tables[game_id] = table
        return table

    def forget(self, table: Table) -> None:
        """Drop ``table`` from the cache (loaded afresh, or set aside, at its next use)."""
        if self._tables.get(table.id) is table:
            del self._tables[table.id]

    def unload_idle(self, idle_s: float, busy: Callable[[Table], bool]) -> int:
        """Forget the games nobody has used for ``idle_s`` seconds and that are not
        ``busy``; returns how many."""
        now = time.monotonic()
        gone = [gid for gid, table in self._tables.items()
                if now - table.touched >= idle_s and not busy(table)]
        for gid in gone:
            del self._tables[gid]
            if self.tips is not None:
                self.tips.forget(gid)
        return len(gone)

    async def _set_aside(self, game_id: int, exc: Exception) -> None:
        """Keep a game that cannot be loaded out of play (logged once)."""
        damaged = isinstance(exc, GameUnreadable | Refused | UnknownGame | ValueError | KeyError)
        # an operator reads the game's own refusal, as the log says it (not a player's words)
        cause = exc.cause if isinstance(exc, Refused) and exc.cause is not None else exc
        log.error("game %s: cannot be loaded, set aside until repaired "
                  "(python -m bot check-db): %s", game_id, cause, exc_info=not damaged)
        ref = None
        with contextlib.suppress(Exception):
            ref = await self.storage.game_ref(game_id)
        self.set_aside[game_id] = SetAside(
            game_id, ref.channel_id if ref else None, ref.guild_id if ref else None,
            f"{type(cause).__name__}: {cause}")

    async def load(self, game: GameRow) -> Table:
        """Build the table from the log; repair the snapshot if it differs from the replay."""
        seats = await self.storage.seats(game.id)
        table = Table(game, seats)
        if game.status in (LOBBY, ACTIVE):  # who is new to the game: the lobby, the tips
            await newcomers.know(self.storage, table)
        if game.status == LOBBY:
            return table
        if self.tips is not None and game.status == ACTIVE:
            await self.tips.know(table)
        rules = table.port.rules
        state = rules.first_state(game.options, len(seats))
        rows = await self.storage.actions(game.id)
        # versions of logs written before schema 3: as if lobby and start came first
        offset = game.version - len(rows)
        started = rows[0].version - 1 if rows and rows[0].version is not None else offset
        since = next_since(rules, {}, state, None, started)
        announced = game.announced_version
        told: list[bool] = []  # per effective move: announced before the stop?
        for i, row in enumerate(rows):
            made = row.version if row.version is not None else i + 1 + offset
            new = announced is not None and made > announced
            if rules.is_undo(row.action):
                state = table.timeline.undo(row.seat)
                undone_seat, undone = table.moves.pop()
                if not told.pop():
                    table.unannounced.pop()  # taken back before anyone saw it
                elif new:
                    table.unannounced.append((undone_seat, undone, None))
            else:
                action = rules.action_from_json(row.action)
                events = replay_move(table, state, row.seat, action)
                told.append(not new)
                if new:
                    table.unannounced.append((row.seat, action, events))
            since = next_since(rules, since, state, row.seat, made)
        table.since = since
        table.log_len = len(rows)
        if self.clocks.timed and game.status == ACTIVE:
            # as stored with the last change (armed by the owner: resume_all, rearm)
            table.clock = await self.clocks.stored(table)
        if self.presence is not None and game.status == ACTIVE:
            self.presence.restore(game.id, await self.storage.turn_mutes(game.id))
        if game.state != state.to_json():
            log.warning("game %s: snapshot %s; rebuilt from the log", game.id,
                        game.state_error or "differs from the replayed log")
            try:
                await self.storage.replace_snapshot(game.id, state.to_json())
            except StorageRefusal as exc:  # the replay is right; repair it next time
                log.warning("game %s: could not store the rebuilt snapshot: %s", game.id, exc)
        table.state = state
        # a computer covering a seat's turn after a missed deadline goes on doing so
        table.covering = covered_in(table, table.clock)
        return table

    # ------------------------------------------------------------------ channels
    async def channel_game_id(self, channel_id: int) -> int:
        """The open (lobby or active) game of a channel; cached for autocomplete speed."""
        game_id = self._by_channel.get(channel_id)
        if game_id is not None:
            table = self._tables.get(game_id)
            if table is not None and table.game.status in (LOBBY, ACTIVE):
                return game_id
        game = await self.storage.open_game_ref(channel_id)  # numbers only: never damaged
        if game is None:
            self._by_channel.pop(channel_id, None)
            raise TableError("error.no_game")
        self._by_channel[channel_id] = game.id
        return game.id

    async def last_game_in_channel(self, channel_id: int, *, newer_lobby: bool = False
                                   ) -> int:
        """For looking (board, status, record): the channel's running game, else its last
        finished one (so the final position stays visible until a new game starts), else
        its lobby; TableError when the channel has none. With ``newer_lobby`` (status,
        which shows a lobby as well as a game) a lobby opened after that finished game,
        such as its rematch, comes first: it is what the channel is about now."""
        game = await self.storage.latest_game_in_channel(channel_id, (ACTIVE,))
        if game is None:
            game = await self.storage.latest_game_in_channel(channel_id, (FINISHED,))
            if game is not None and newer_lobby:
                lobby = await self.storage.latest_game_in_channel(channel_id, (LOBBY,))
                if lobby is not None and lobby.id > game.id:
                    return lobby.id
        if game is None:
            return await self.channel_game_id(channel_id)
        return game.id

    def moved(self, game_id: int, thread_id: int) -> None:
        """The game is played in ``thread_id`` from now on (the publisher opened it)."""
        table = self._tables.get(game_id)
        if table is not None:
            table.game.thread_id = thread_id
        self._by_channel[thread_id] = game_id

    def channel_closed(self, channel_id: int) -> None:
        """The channel's game ended without being loaded (a set-aside game cancelled)."""
        self._by_channel.pop(channel_id, None)

    def repaired(self, game_id: int) -> None:
        """The set-aside game is gone (cancelled): no longer refused."""
        self.set_aside.pop(game_id, None)
