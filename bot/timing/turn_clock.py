"""The turn clock of every game: which deadlines a change implies, and arming them.

The table service asks :meth:`TurnClock.plan` for a game's clocks before each commit (they
are stored in the same transaction, see :mod:`bot.timing.deadlines`), then hands them back with
:meth:`TurnClock.committed`, which keeps them with the table and (re)arms the one
:class:`~bot.timing.scheduler.Scheduler`: per waiting seat a single entry, for its next reminder or
its deadline. When an entry is due the scheduler calls :meth:`_fire`, which passes it to
the service (``on_remind`` / ``on_deadline``): the service re-checks under the game's lock
that the seat still owes that decision before it does anything.

After a restart :meth:`resume` re-arms every stored clock; a deadline that passed while
the bot was down is moved a short grace period past the start-up and reported, so it
fires once and people are told. A seat a computer was covering (its deadline passed
before the restart, in the same turn) stays covered: no new deadline, no second strike.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable, Mapping, Sequence
from typing import Protocol

from bot.store import ACTIVE, DeadlineRow, GameRow, SeatRow, Storage
from bot.timing import deadlines
from bot.timing.nudges import nudge_at
from bot.timing.pace import PACES, Due, Pace, next_event
from bot.timing.scheduler import Scheduler
from lang import i18n


class Table(Protocol):
    """What the turn clock reads and keeps of a table (bot.table.model.Table is one)."""

    game: GameRow
    seats: list[SeatRow]
    since: dict[int, int]
    covering: dict[int, str]
    clock: dict[int, DeadlineRow]

    @property
    def id(self) -> int: ...

    @property
    def turn(self) -> str | None: ...


#: deadlines missed in a row before the seat stays on autopilot
STRIKES = 3

SeatHook = Callable[[int, int], Awaitable[None]]


class TurnClock:
    def __init__(self, scheduler: Scheduler, *, strikes: int = STRIKES,
                 level: str | None = None) -> None:
        self.scheduler = scheduler
        self.clock = scheduler.clock
        self.strikes = strikes
        #: the computer level that decides for a seat whose time ran out (None: the game's
        #: default level)
        self.level = level
        #: set by the table service: called as (game id, seat)
        self.on_remind: SeatHook | None = None
        self.on_deadline: SeatHook | None = None
        self.on_nudge: SeatHook | None = None
        #: set by the table service: a person's last click in a game (game id, user id),
        #: if this process saw one: a nudge waits until they have left it alone for long
        self.last_seen: Callable[[int, int], float | None] | None = None
        scheduler.fire = self._fire

    def now(self) -> float:
        return self.clock.now()

    @staticmethod
    def pace_of(table: Table) -> Pace:
        """The table's pace; tables from before the turn clock have none."""
        return PACES.get(str(table.game.options.get("pace", "none")), PACES["none"])

    # ------------------------------------------------------------------ planning
    def plan(self, table: Table, since: Mapping[int, int], *,
             seats: Sequence[SeatRow] | None = None, person: int | None = None,
             computer: Mapping[int, str] | None = None, over: bool = False,
             clock: Mapping[int, DeadlineRow] | None = None,
             told: Sequence[int] = ()) -> list[DeadlineRow]:
        """The game's clocks after a change (to store with it); ``over``: the game ends;
        ``clock``: the clocks before the change, if not the table's; ``told``: seats the
        change notifies of their new decision (no nudge for it)."""
        if over:
            return []
        rows = deadlines.plan(table.clock if clock is None else clock, since,
                              seats if seats is not None else table.seats,
                              self.pace_of(table), self.now(), person=person,
                              computer=computer or {}, told=told)
        return list(rows.values())

    def repace(self, table: Table, p: Pace) -> list[DeadlineRow]:
        rows = deadlines.repace(table.clock, table.since, table.seats, p, self.now(),
                                computer=table.covering)
        return list(rows.values())

    def committed(self, table: Table, rows: Sequence[DeadlineRow] | None) -> None:
        """The change is stored: keep its clocks (None: unchanged) and arm them."""
        if rows is not None:
            table.clock = {r.seat: r for r in rows}
        self.arm(table)

    def arm(self, table: Table) -> None:
        """One scheduler entry per seat with a running clock: its nudge (if the person
        may still need one, bot.timing.nudges), else its next reminder or its deadline;
        every other seat of the game has none."""
        p = self.pace_of(table)
        active = table.game.status == ACTIVE
        for seat in {*range(len(table.seats)), *table.clock}:
            row = table.clock.get(seat)
            key = (table.id, seat)
            if active and row is not None and row.due_at is not None \
                    and row.started_at is not None:
                when, kind = next_event(row.started_at, row.due_at, row.reminded, p)
                user = table.seats[seat].user_id if seat < len(table.seats) else None
                seen = (self.last_seen(table.id, user)
                        if self.last_seen is not None and user is not None else None)
                nudge = nudge_at(row, p, seen)
                if nudge is not None and nudge < when:
                    when, kind = nudge, Due.NUDGE
                self.scheduler.schedule(key, when, kind)
            else:
                self.scheduler.cancel(key)
        self.scheduler.start()

    def disarm(self, game_id: int) -> None:
        self.scheduler.cancel_game(game_id)

    async def resume(self, table: Table, storage: Storage) -> list[int]:
        """Re-arm a game's stored clocks after a restart; returns the seats whose deadline
        passed while the bot was down (now due after the grace period). The seats a
        computer covered in the current turn go on being covered (``table.covering``).
        The seated people's languages are read back too (their DMs follow them)."""
        stored = {r.seat: r for r in await storage.deadlines(table.id)}
        cover = (deadlines.covered(stored, table.since, table.turn)
                 if table.turn is not None else {})
        cover = {s: k for s, k in cover.items() if not table.seats[s].is_ai}
        rows, late = deadlines.restart(stored, table.since, table.seats, self.pace_of(table),
                                       self.now(), computer=cover)
        if rows != stored:
            await storage.set_deadlines(table.id, list(rows.values()))
        table.clock = rows
        table.covering = cover
        self.arm(table)
        await i18n.load_user_locales(storage, [s.user_id for s in table.seats])
        return late

    # ------------------------------------------------------------------ firing
    async def _fire(self, key: Hashable, kind: str, due: float) -> None:
        assert isinstance(key, tuple)
        game_id, seat = key
        hook = {Due.REMIND: self.on_remind, Due.NUDGE: self.on_nudge}.get(
            Due(kind), self.on_deadline)
        if hook is not None:
            await hook(game_id, seat)
