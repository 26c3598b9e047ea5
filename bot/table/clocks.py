"""The turn clocks of the tables: their pace, the deadlines stored with every change, who
muted reminders. The timing itself is bot.timing.turn_clock's; what the table does when a
clock fires is :mod:`bot.table.timeouts`'.

:class:`Clocks` owns the one :class:`~bot.timing.turn_clock.TurnClock` of the process (None:
no deadlines, as in tests and the console) and the cache of reminder settings. The commit
path (:mod:`bot.table.commit`) asks it for the clocks a change implies (:meth:`Clocks.plan`)
and hands them back once stored (:meth:`Clocks.committed`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.store import ACTIVE, DeadlineRow, SeatRow, Storage
from bot.table.model import (
    StorageRefusal,
    Table,
    TableError,
)
from bot.timing import deadlines
from bot.timing.pace import PACES, Pace, UnknownPace, pace, reminder_times
from bot.timing.turn_clock import TurnClock
from lang import i18n
from lang.messages import t

log = logging.getLogger(__name__)

#: the clocks stored with a change: None when the tables have no turn clock
Rows = list[DeadlineRow] | None


def check_pace(name: str | None) -> Pace:
    """The pace called ``name`` (None: the default), or a refusal listing the paces."""
    try:
        return pace(name)
    except UnknownPace:
        raise TableError("error.unknown_pace", pace=str(name)[:30],
                         paces=", ".join(PACES)) from None


def covered_in(table: Table, rows: Mapping[int, DeadlineRow]) -> dict[int, str]:
    """The seats the stored clock ``rows`` say a computer covers in the current turn (the
    seat's person still plays it)."""
    assert table.state is not None
    turn = table.port.rules.turn_key(table.state)
    return {s: k for s, k in deadlines.covered(rows, table.since, turn)
            .items() if s < len(table.seats) and not table.seats[s].is_ai}


def still_covered(table: Table, state: Any, since: dict[int, int]) -> dict[int, str]:
    """The seats a computer still decides for after a change: those that owe a decision in
    the same turn as when their time ran out."""
    key = table.port.rules.turn_key(state)
    return {s: k for s, k in table.covering.items() if s in since and k == key}


class Clocks:
    """The turn clock of every table and the reminder settings of every person."""

    def __init__(self, storage: Storage, turnclock: TurnClock | None,
                 owns: Callable[[int | None], bool]) -> None:
        self.storage = storage
        #: None: no deadlines (tests, the console)
        self.turnclock = turnclock
        self.owns = owns
        #: who muted their reminders (cache of storage.reminders_on)
        self._reminders_on: dict[int, bool] = {}

    @property
    def timed(self) -> bool:
        """Whether the tables have turn clocks (deadlines stored with each change)."""
        return self.turnclock is not None

    # ------------------------------------------------------------------ planning
    def plan(self, table: Table, since: dict[int, int], *,
             seats: list[SeatRow] | None = None, person: int | None = None,
             computer: Mapping[int, str] | None = None, over: bool = False,
             clock: dict[int, DeadlineRow] | None = None, told: Sequence[int] = ()) -> Rows:
        """The game's turn clocks after a change, to store with it (None: no clocks);
        ``told``: the seats the change notifies of their new decision."""
        if self.turnclock is None:
            return None
        return self.turnclock.plan(table, since, seats=seats, person=person,
                                   computer=computer, over=over, clock=clock, told=told)

    def repace(self, table: Table, p: Pace) -> Rows:
        """The clocks after the host changed the pace (pending decisions keep their start)."""
        return self.turnclock.repace(table, p) if self.turnclock is not None else None

    def stopped(self) -> Rows:
        """The clocks of a game that stops (cancelled): none."""
        return [] if self.turnclock is not None else None

    def committed(self, table: Table, rows: Rows) -> None:
        """The change is stored with ``rows``: keep them; only the game's owner arms them
        (another process that accepted a click leaves reminders and deadlines to the owner,
        which reads the stored clocks when it catches up, :meth:`rearm`)."""
        if self.turnclock is None:
            return
        if self.owns(table.game.guild_id):
            self.turnclock.committed(table, rows)
            return
        if rows is not None:
            table.clock = {r.seat: r for r in rows}
        self.turnclock.disarm(table.id)

    # ------------------------------------------------------------------ arming
    async def rearm(self, table: Table) -> None:
        """The game's turn clocks as stored (lock held), after another process changed the
        game: its change was stored with its clocks, and with the seats a computer covers
        after a missed deadline (``DeadlineRow.covering``; a cover ends when that seat's
        person acts, in whichever process). The owner arms them; a clock the other process
        could not plan (it had no turn clock) is planned here and stored. Any other process
        only keeps the rows, to plan its next change from them, and arms nothing. The
        owner also reads the seated people's languages again (another process may have
        seen them)."""
        if self.turnclock is None:
            return
        try:
            stored = {r.seat: r for r in await self.storage.deadlines(table.id)}
            active = table.game.status == ACTIVE and table.state is not None
            table.covering = covered_in(table, stored) if active else {}
            if not self.owns(table.game.guild_id):
                table.clock = stored
                self.turnclock.disarm(table.id)
                return
            # the owner writes the DMs: in the languages another process may have seen
            await i18n.load_user_locales(self.storage, [s.user_id for s in table.seats],
                                         refresh=True)
            if not active:
                table.clock = stored
                self.turnclock.arm(table)  # nothing runs in a game that is not active
                return
            rows = {r.seat: r for r in self.turnclock.plan(table, table.since, clock=stored,
                                                           computer=table.covering)}
            if rows != stored:
                await self.storage.set_deadlines(table.id, list(rows.values()))
        except StorageRefusal as exc:
            log.warning("game %s: cannot read its turn clocks now: %s", table.id, exc)
            return
        table.clock = rows
        self.turnclock.arm(table)

    async def resume(self, table: Table) -> list[int]:
        """Re-arm the game's stored clocks after a restart (lock held); returns the seats
        whose deadline passed while the bot was down."""
        assert self.turnclock is not None
        return await self.turnclock.resume(table, self.storage)

    async def stored(self, table: Table) -> dict[int, DeadlineRow]:
        """The game's clocks as stored (for a table being loaded)."""
        return {r.seat: r for r in await self.storage.deadlines(table.id)}

    # ------------------------------------------------------------------ reading
    def pace_of(self, table: Table) -> Pace | None:
        """The table's pace (None: the tables have no turn clock)."""
        return self.turnclock.pace_of(table) if self.turnclock is not None else None

    def leave_level(self) -> str | None:
        """The computer level that plays the seat of a person who left (None: the game's
        default level)."""
        return self.turnclock.level if self.turnclock is not None else None

    def cover_level(self, table: Table, seat: int) -> str | None:
        """The level of the computer covering ``seat`` after a missed deadline (None: not
        covered)."""
        if self.turnclock is not None and seat in table.covering:
            return self.turnclock.level or table.port.computers.default_level()
        return None

    def due_line(self, table: Table) -> str:
        """The turn message's clock line: the pace and each pending deadline."""
        if self.turnclock is None:
            return ""
        rows = deadlines.pending(table.clock)
        if not rows:
            return ""
        name = table.port.show.seat_name
        due = ", ".join(t("clock.due", colour=name(r.seat), when=int(r.due_at or 0))
                        for r in rows)
        return t("clock.line", pace=t(f"pace.short.{self.turnclock.pace_of(table).name}"),
                 due=due)

    def status_lines(self, table: Table) -> list[str]:
        """For ``/tempus status``: the pace and each pending decision's deadline."""
        if self.turnclock is None:
            return []
        lines = [t("clock.status", pace=t(f"pace.{self.turnclock.pace_of(table).name}"))]
        if table.game.status == ACTIVE:
            for r in deadlines.pending(table.clock):
                lines.append(t("clock.status_due", colour=table.port.show.seat_name(r.seat),
                               name=table.seats[r.seat].name, when=int(r.due_at or 0),
                               strikes=r.strikes))
            for s in sorted(table.covering):
                lines.append(t("clock.status_covering", colour=table.port.show.seat_name(s)))
        return lines

    # ------------------------------------------------------------------ reminders
    def could_remind(self, table: Table, seat: int, within: float) -> bool:
        """Whether the seat's person may get a reminder of the decision they owe within
        ``within`` seconds from now (while they still count as at the table): the table
        has deadlines that close (the live pace), the person has not turned reminders off
        (as far as this process knows) and a reminder is still to come. A reminder hours
        away finds them away, when their turn message asks them anyway."""
        p = self.pace_of(table)
        user = table.seats[seat].user_id
        if self.turnclock is None or p is None or p.seconds is None or user is None \
                or self._reminders_on.get(user) is False:
            return False
        now = self.turnclock.now()
        row = table.clock.get(seat)
        if row is None or row.started_at is None or row.due_at is None:
            return p.seconds / 2 <= within  # not planned yet: the first one, at half time
        return any(stage > row.reminded and now <= when <= now + within
                   for stage, when in reminder_times(row.started_at, row.due_at, p).items())

    async def wants_reminders(self, user_id: int) -> bool:
        on = self._reminders_on.get(user_id)
        if on is None:
            on = self._reminders_on[user_id] = await self.storage.reminders_on(user_id)
        return on

    async def set_reminders(self, user_id: int, on: bool) -> str:
        """``/tempus remind on|off``: turn reminders by DM on or off for this person."""
        await self.storage.set_reminders(user_id, on)
        self._reminders_on[user_id] = on
        return t("remind.on" if on else "remind.off")
