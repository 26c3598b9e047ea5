"""The table service: lobby, play and computer players, without any Discord.

Each call loads the game (cached in memory, checked against its log on first load), lets
the engine validate and apply, stores the result in one transaction, and only then hands
an :class:`Outcome` (texts, views, controls) to the **sink** that announces it: the
Discord publisher, the offline console, or a test. Outcomes of one game reach the sink in
commit order through a per-game queue, so slow image posting never delays the next
interaction's acknowledgement.

Concurrency: a per-game ``asyncio.Lock`` plus a version check. Controls carry the version
they were made at; a choice is accepted only if its seat has owed the same decision ever
since (``since[seat] <= version``), so a double click or a stale button is refused while
players choosing at the same time (the progress phase) do not invalidate each other.

Several processes (bot.cluster.coordinator, PostgreSQL): the version check in storage is
the guarantee, the lock only an optimisation. A process works (computer players,
announcements) only for the games it ``owns``; one that accepted an action for another's
game leaves announcing to the owner, which catches up through :meth:`TableService.refresh`.

How it is built: :class:`TableService` is a facade over parts that each own their state,
wired once in its constructor (each part gets what it uses, nothing else):

- :class:`~bot.table.tables.Tables`: the loaded games, their load locks, games set aside;
- :class:`~bot.table.clocks.Clocks`: the turn clock and reminder settings;
- :class:`~bot.table.announce.Announcer`: the per-game outcome queues, held outcomes;
- :class:`~bot.table.computers.Computers`: the computer players' tasks;
- :class:`~bot.table.outcomes.Outcomes` (what a change looks like),
  :class:`~bot.table.commit.Commits` (the one commit path: store with the version, update
  the cached table, clocks, outcome) and :class:`~bot.table.catch_up.CatchUp` (the same
  for a change another process stored) keep no state.

The use cases call those parts, never each other: :mod:`~bot.table.lobby` (and the rematch
rules, :mod:`~bot.table.rematch`), :mod:`~bot.table.play`, :mod:`~bot.table.seats`,
:mod:`~bot.table.timeouts`, :mod:`~bot.table.sync`, :mod:`~bot.table.lessons` (a person's
lesson, which is no table); :mod:`~bot.table.clicks` dispatches a
click to them through a table of handlers. :mod:`bot.table.model` holds the data they share.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from bot.runtime.worker_pool import Offloader
from bot.store import ACTIVE, Storage
from bot.table import model
from bot.table.announce import Announcer
from bot.table.catch_up import CatchUp
from bot.table.clicks import Clicks
from bot.table.clocks import Clocks
from bot.table.commit import Commits
from bot.table.computers import Computers
from bot.table.lessons import Lessons
from bot.table.lobby import Lobby, new_seed
from bot.table.model import (
    Outcome,
    OutcomeKind,
    Ownership,
    Refusing,
    Reminder,
    Reply,
    SetAside,
    Sink,
    StorageRefusal,
    Table,
    TableError,
    public,
    record_of,
)
from bot.table.outcomes import Outcomes
from bot.table.parts import Parts
from bot.table.play import Play, check_turn, waiting
from bot.table.presence import Presence
from bot.table.recaps import Recaps
from bot.table.seats import Seats
from bot.table.sync import Sync
from bot.table.tables import Tables
from bot.table.timeouts import Timeouts
from bot.table.tips import TipsOfFirstGames
from bot.timing.presence import AT_TABLE_S
from bot.timing.scheduler import Scheduler
from bot.timing.turn_clock import TurnClock
from games.controls import Panel
from lang.messages import t

__all__ = ["Outcome", "Reminder", "Reply", "SetAside", "StorageRefusal", "Table", "TableError",
           "TableService"]


class TableService:
    """The whole service, as the Discord layer, the console and the tests use it: every
    method hands over to the part or use case that does the job."""

    def __init__(
        self,
        storage: Storage,
        sink: Sink | None = None,
        *,
        ai_delay: float = 0.8,
        ai_budget_s: float | None = None,
        offloader: Offloader | None = None,
        seed_source: Callable[[], int] | None = None,
        scheduler: Scheduler | None = None,
        at_table_s: float = AT_TABLE_S,
    ) -> None:
        """``scheduler``: the one scheduler of the process; with it, tables have a pace and
        nobody waits forever (bot.timing.turn_clock). None: no deadlines (tests, the console).
        ``at_table_s``: how long after a click a person counts as at the table (no pings,
        no DM for a secret choice; bot.timing.presence)."""
        # every call turns StorageUnavailable into a refusal the player can read; the
        # Refusing forwards every attribute (__getattr__), so it is a Storage
        self.storage: Storage = Refusing(storage)
        self.sink = sink
        self.offloader = offloader or Offloader(0)
        self.ownership = Ownership()
        owns = self.ownership
        turnclock = TurnClock(scheduler) if scheduler is not None else None
        # the parts, each the one owner of its state
        self.clocks = Clocks(self.storage, turnclock, owns)
        #: who is at which table (recent clicks) and who muted their pings
        self.presence = Presence(scheduler.clock if scheduler is not None else None,
                                 at_table_s)
        #: the tips of people's first games (what each has had, the tip of each turn)
        self.tips = TipsOfFirstGames(self.storage)
        self.tables = Tables(self.storage, self.clocks, self.presence, self.tips)
        self.announcer = Announcer(sink, owns)
        self.outcomes = Outcomes(self.clocks, self.presence, self.tips)
        self.commits = Commits(self.storage, self.clocks, self.outcomes)
        self.catch_up = CatchUp(self.storage, self.tables, self.clocks, self.outcomes,
                                self.announcer, owns)
        self.computers = Computers(self.commits, self.announcer, self.catch_up, self.clocks,
                                   owns, self.offloader, delay=ai_delay, budget_s=ai_budget_s)
        # the use cases: each reads the parts through one bundle and owns no state
        parts = Parts(self.storage, self.tables, self.commits, self.catch_up, self.outcomes,
                      self.announcer, self.clocks, self.computers, owns, self.tips)
        self.lobby = Lobby(parts, seed=seed_source or new_seed)
        self.play = Play(parts)
        self.seats = Seats(parts)
        self.timeouts = Timeouts(parts)
        self.sync = Sync(parts)
        self.recaps = Recaps(parts, self.offloader)
        #: /tempus learn: each person's lesson (no table of its own)
        self.lessons = Lessons(parts)
        self.clicks = Clicks(self.tables, self.lobby, self.play, self.seats, self.sync, owns,
                             self.recaps, self.presence, self.lessons)
        if turnclock is not None:
            # the scheduler calls back into the use case that decides what happens (the
            # clock sits below the table service and knows nothing of it: a callback)
            turnclock.on_remind = self.timeouts.remind
            turnclock.on_deadline = self.timeouts.timeout
            turnclock.on_nudge = self.timeouts.nudge
            turnclock.last_seen = self.presence.last_seen

    # ------------------------------------------------------------------ settings
    @property
    def owns(self) -> Callable[[int | None], bool]:
        """Whether this process works for a game of this server (computer players,
        announcements); set by bot.cluster.coordinator when processes share the shards."""
        return self.ownership.owns

    @owns.setter
    def owns(self, owns: Callable[[int | None], bool]) -> None:
        self.ownership.owns = owns

    @property
    def turnclock(self) -> TurnClock | None:
        """The turn clock of the tables (owned by :class:`~bot.table.clocks.Clocks`)."""
        return self.clocks.turnclock

    @property
    def set_aside(self) -> dict[int, SetAside]:
        """Games that could not be loaded, by id (see :class:`~bot.table.tables.Tables`)."""
        return self.tables.set_aside

    # ------------------------------------------------------------------ loading
    def unload_idle(self, idle_s: float) -> int:
        """Forget the games nobody has used for ``idle_s`` seconds and that have nothing
        running (no lock held, no computer thinking, nothing waiting to be announced, no
        seat covered after a missed deadline); returns how many. A game is loaded again
        from the store at its next use, exactly as after a restart, so a bot with many
        slow (daily) games keeps in memory only the ones being played. Clicks too old to
        make anyone at a table are dropped with them."""
        self.presence.forget_idle()
        return self.tables.unload_idle(idle_s, self._busy)

    def _busy(self, table: Table) -> bool:
        return (table.lock.locked() or bool(table.covering) or self.announcer.busy(table.id)
                or self.computers.busy(table.id))

    async def record(self, game_id: int) -> dict[str, Any]:
        return record_of(await self.tables.get(game_id)).to_json()

    async def moved(self, game_id: int, thread_id: int) -> None:
        """The publisher opened the game's thread (its callback, awaited like the others)."""
        self.tables.moved(game_id, thread_id)

    async def left_thread(self, game_id: int) -> None:
        """The game's thread was locked or deleted (bot/publish/lost_threads.py): it is
        played in its channel from now on; the position is posted there anew."""
        table = await self.tables.get(game_id)
        table.game.thread_id = None
        if table.game.status != ACTIVE or table.state is None:
            return
        async with table.lock:
            outcome = self.outcomes.play(table, table.state, [], actor=None,
                                         kind=OutcomeKind.RESUME)
            with public(table):
                outcome.lines = [t("thread.lost.here", game=game_id)]
            self.announcer.enqueue(outcome)

    # ------------------------------------------------------------------ the lobby
    async def join(self, game_id: int, user_id: int, name: str) -> Outcome:
        # a command is a use of the game's controls, as a click is (clicks.py): whoever
        # just joined or started is at the table, and the first turn does not ping them
        self.presence.seen(game_id, user_id)
        return await self.lobby.join(game_id, user_id, name)

    async def add_ai(self, game_id: int, user_id: int, level: str | None = None) -> Outcome:
        self.presence.seen(game_id, user_id)
        return await self.lobby.add_ai(game_id, user_id, level)

    async def start(self, game_id: int, user_id: int) -> Outcome:
        self.presence.seen(game_id, user_id)
        return await self.lobby.start(game_id, user_id)

    # ------------------------------------------------------------------ play
    async def act(self, game_id: int, user_id: int, action: Any,
                  version: int | None = None) -> Outcome:
        self.presence.seen(game_id, user_id)
        return await self.play.act(game_id, user_id, action, version)

    async def act_many(self, game_id: int, user_id: int, actions: list[Any]) -> Outcome:
        self.presence.seen(game_id, user_id)
        return await self.play.act_many(game_id, user_id, actions)

    async def undo(self, game_id: int, user_id: int, version: int | None = None) -> Outcome:
        self.presence.seen(game_id, user_id)
        return await self.play.undo(game_id, user_id, version)

    async def why_not_deciding(self, game_id: int, user_id: int) -> TableError | None:
        """Why ``user_id`` owes no decision in the game now (not seated, not their turn,
        not started ...), as the refusal an action of theirs would get; None if they owe
        one. Changes nothing."""
        table = await self.tables.get(game_id)
        try:
            check_turn(table, user_id, None)
        except TableError as exc:
            return exc
        return None

    def undo_seat(self, table: Table) -> int | None:
        return model.undo_seat(table)

    def waiting(self, table: Table) -> str:
        return waiting(table)

    async def menu(self, game_id: int, user_id: int, spec: str,
                   version: int | None = None) -> tuple[Panel, int]:
        self.presence.seen(game_id, user_id)
        return await self.play.menu(game_id, user_id, spec, version)

    # ------------------------------------------------------------------ seats
    # ------------------------------------------------------------------ clocks
    async def clock_lines(self, game_id: int) -> list[str]:
        """For ``/tempus status``: the pace and each pending decision's deadline."""
        if not self.clocks.timed:
            return []
        return self.clocks.status_lines(await self.tables.get(game_id))

    # ------------------------------------------------------------------ languages
    @staticmethod
    def locale_of(table: Table) -> str:
        return model.locale_of(table)

    def public(self, table: Table) -> contextlib.AbstractContextManager[str]:
        return model.public(table)

    def personal(self, table: Table, seat: int) -> contextlib.AbstractContextManager[str]:
        return model.personal(table, seat)

    # ------------------------------------------------------------------ the end
    async def idle(self) -> None:
        """Wait until no computer player is thinking and every outcome is announced (and
        the turn messages' records are stored)."""
        while True:
            await self.computers.wait()
            await self.announcer.drain()
            if not self.computers.running():
                await self.storage.flush_shown()
                return

    async def close(self) -> None:
        self.announcer.stop()
        await asyncio.gather(self.computers.close(), self.announcer.close(),
                             self.tips.close())
