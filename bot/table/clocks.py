"""The turn clock of each table (issue 11): its pace, the deadlines stored with every
change, reminders, and a computer deciding when time is up. The timing itself is
bot.timing.turn_clock's; this part decides what the table does when a clock fires.

Part of :class:`bot.table.service.TableService` (see there for how the parts fit).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import replace

from bot.publish.private_menus import Position, PrivateMenus
from bot.store import ACTIVE, LOBBY, DeadlineRow, SeatRow, VersionConflict
from bot.table.base import TableBase
from bot.table.model import (
    Outcome,
    Reminder,
    StorageRefusal,
    Table,
    TableError,
    key_text,
    with_seat,
)
from bot.tempus.labels import colour_name
from bot.timing import deadlines
from bot.timing.pace import PACES, Pace, UnknownPace, pace, reminder_stage
from engine.state import State
from lang import i18n
from lang.messages import t

log = logging.getLogger(__name__)


class ClockMixin(TableBase):

    def _check_pace(self, name: str | None) -> Pace:
        try:
            return pace(name)
        except UnknownPace:
            raise TableError("error.unknown_pace", pace=str(name)[:30],
                             paces=", ".join(PACES)) from None

    def _plan(self, table: Table, since: dict[int, int], *,
              seats: list[SeatRow] | None = None, person: int | None = None,
              computer: Mapping[int, str] | None = None, over: bool = False,
              clock: dict[int, DeadlineRow] | None = None) -> list[DeadlineRow] | None:
        """The game's turn clocks after a change, to store with it (None: no clocks)."""
        if self.turnclock is None:
            return None
        return self.turnclock.plan(table, since, seats=seats, person=person,
                                   computer=computer, over=over, clock=clock)

    def _committed(self, table: Table, rows: list[DeadlineRow] | None) -> None:
        """The change is stored with ``rows``: keep them; only the game's owner arms them
        (another process that accepted a click leaves reminders and deadlines to the owner,
        which reads the stored clocks when it catches up, :meth:`_rearm`)."""
        if self.turnclock is None:
            return
        if self.owns(table.game.guild_id):
            self.turnclock.committed(table, rows)
            return
        if rows is not None:
            table.clock = {r.seat: r for r in rows}
        self.turnclock.disarm(table.id)

    async def _rearm(self, table: Table) -> None:
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
            table.covering = self._covered_in(table, stored) if active else {}
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

    @staticmethod
    def _covered_in(table: Table, rows: Mapping[int, DeadlineRow]) -> dict[int, str]:
        """The seats the stored clock ``rows`` say a computer covers in the current turn
        (the seat's person still plays it)."""
        assert table.state is not None
        return {s: k for s, k in deadlines.covered(rows, table.since, key_text(table.state))
                .items() if s < len(table.seats) and not table.seats[s].is_ai}

    async def menu_position(self, game_id: int) -> Position | None:
        """For DM menus stored before a restart (bot.publish.private_menus): the game's seats and
        owed decisions, or None if another process runs the game."""
        ref = await self.storage.game_ref(game_id)
        if ref is None:
            return [], {}
        if not self.owns(ref.guild_id):
            return None
        table = await self.table(game_id)
        return table.seats, (table.since if table.game.status == ACTIVE else {})

    def _menus_timed_out(self, table: Table, seat: int) -> None:
        """The seat's private menus are retired saying a computer decided (not the person)."""
        menus = getattr(self.sink, "menus", None)
        user = table.seats[seat].user_id
        if isinstance(menus, PrivateMenus) and user is not None:
            menus.timed_out(table.id, user)

    @staticmethod
    def _still_covered(table: Table, state: State, since: dict[int, int]) -> dict[int, str]:
        """The seats a computer still decides for after a change: those that owe a
        decision in the same turn as when their time ran out."""
        key = key_text(state)
        return {s: k for s, k in table.covering.items() if s in since and k == key}

    def _notice(self, table: Table, line: str, user: int | None) -> None:
        """A notice of its own in the game's thread that pings ``user`` (a line added to
        the turn message would be an edit, and Discord pings nobody for an edit); what
        was held back for the game goes out first."""
        self._flush(table.id)
        self._queue(Outcome(
            table.id, table.game.channel_id, table.game.guild_id, table.version, "notice",
            [line], play_channel_id=table.game.play_channel_id, seats=list(table.seats),
            mention=[user] if user is not None else [], since=dict(table.since),
            locale=self.locale_of(table)))

    def _due_line(self, table: Table) -> str:
        """The turn message's clock line: the pace and each pending deadline."""
        if self.turnclock is None:
            return ""
        rows = deadlines.pending(table.clock)
        if not rows:
            return ""
        due = ", ".join(t("clock.due", colour=colour_name(r.seat), when=int(r.due_at or 0))
                        for r in rows)
        return t("clock.line", pace=t(f"pace.short.{self.turnclock.pace_of(table).name}"),
                 due=due)

    async def clock_lines(self, game_id: int) -> list[str]:
        """For ``/tempus status``: the pace and each pending decision's deadline."""
        if self.turnclock is None:
            return []
        table = await self.table(game_id)
        lines = [t("clock.status", pace=t(f"pace.{self.turnclock.pace_of(table).name}"))]
        if table.game.status == ACTIVE:
            for r in deadlines.pending(table.clock):
                lines.append(t("clock.status_due", colour=colour_name(r.seat),
                               name=table.seats[r.seat].name, when=int(r.due_at or 0),
                               strikes=r.strikes))
            for s in sorted(table.covering):
                lines.append(t("clock.status_covering", colour=colour_name(s)))
        return lines

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

    async def set_pace(self, game_id: int, user_id: int, name: str, *,
                       can_manage: bool = False) -> Outcome:
        """The host (or a channel manager) changes the time per decision; pending decisions
        keep their start, so a longer pace extends them (see bot.timing.deadlines.repace)."""
        p = self._check_pace(name)
        table = await self.table(game_id)
        async with table.lock:
            if table.game.status not in (LOBBY, ACTIVE):
                raise TableError("error.not_active", game=table.id)
            if user_id != table.game.host_id and not can_manage:
                raise TableError("error.pace_denied", host=table.game.host_id)
            if table.game.options.get("pace") == p.name:
                raise TableError("error.pace_same", game=table.id, pace=t(f"pace.{p.name}"))
            options = {**table.game.options, "pace": p.name}

            def said() -> str:
                return t("clock.pace_changed", user=user_id, pace=t(f"pace.{p.name}"))
            if table.game.status == LOBBY:
                async def change() -> int:
                    version = await self.storage.set_options(table.id, table.version, options)
                    table.game.options = options
                    return version
                return await self._lobby_change(table, change, said)
            rows = self.turnclock.repace(table, p) if self.turnclock is not None else None
            try:
                table.game.version = await self.storage.set_options(table.id, table.version,
                                                                    options, rows)
            except VersionConflict:
                raise TableError("error.stale") from None
            table.game.options = options
            self._committed(table, rows)
            assert table.state is not None
            outcome = self._play_outcome(table, table.state, [], actor=None)
            with self.public(table):
                outcome.lines = [said()]
            self._enqueue(outcome)
        return outcome

    async def remind(self, game_id: int, seat: int) -> None:
        """The scheduler: a reminder may be due for ``seat``. Noted before it is sent, so
        it is sent at most once; a person who muted reminders gets none."""
        assert self.turnclock is not None
        table = await self.table(game_id)
        async with table.lock:
            if not self.owns(table.game.guild_id):  # the owner's clock fires
                self.turnclock.disarm(table.id)
                return
            row = table.clock.get(seat)
            if table.game.status != ACTIVE or row is None or row.due_at is None \
                    or row.started_at is None:
                return
            stage = reminder_stage(row.started_at, row.due_at, self.turnclock.now(),
                                   self.turnclock.pace_of(table))
            if stage <= row.reminded:  # not yet (the deadline moved): wait again
                self.turnclock.arm(table)
                return
            if not await self.storage.update_deadline(table.id, seat, row.since,
                                                      due_at=row.due_at, reminded=stage):
                log.warning("game %s: seat %s's clock is not the stored one", table.id, seat)
                return
            table.clock[seat] = replace(row, reminded=stage)
            self.turnclock.arm(table)
            user = table.seats[seat].user_id
            if user is None or not await self.wants_reminders(user):
                return
            await i18n.load_user_locales(self.storage, [user])  # the DM in their language
            self._queue(Outcome(
                table.id, table.game.channel_id, table.game.guild_id, table.version, "remind",
                [], play_channel_id=table.game.play_channel_id, seats=list(table.seats),
                since=dict(table.since), locale=self.locale_of(table),
                reminders=[Reminder(user, seat, colour_name(seat), row.due_at, stage)]))

    async def timeout(self, game_id: int, seat: int) -> None:
        """The scheduler: ``seat``'s time may be up. A computer then decides for the seat
        while it owes a decision in this turn (announced in the game's thread); after
        ``turnclock.strikes`` missed deadlines in a row the seat stays on autopilot until
        its person takes it back."""
        assert self.turnclock is not None
        table = await self.table(game_id)
        async with table.lock:
            if not self.owns(table.game.guild_id):  # the owner's clock fires
                self.turnclock.disarm(table.id)
                return
            row = table.clock.get(seat)
            state = table.state
            if table.game.status != ACTIVE or state is None or row is None \
                    or row.due_at is None:
                return
            if row.due_at > self.turnclock.now():  # moved meanwhile: wait again
                self.turnclock.arm(table)
                return
            if seat not in table.since or table.seats[seat].is_ai:
                return  # no clock runs for such a seat (bot.timing.deadlines): nothing to do
            strikes = row.strikes + 1
            user = table.seats[seat].user_id
            level = self.turnclock.level
            if strikes >= self.turnclock.strikes:
                after = with_seat(table.seats, seat, autopilot=level)
                covering = {s: k for s, k in table.covering.items() if s != seat}
                rows = self._plan(table, table.since, seats=after, computer=covering,
                                  clock={**table.clock, seat: replace(row, strikes=strikes)})
                try:
                    table.game.version = await self.storage.set_autopilot(
                        table.id, table.version, seat, level, rows)
                except VersionConflict:
                    log.error("game %s: changed outside its lock", table.id)
                    return
                table.seats = await self.storage.seats(table.id)
                table.covering = covering
                self._committed(table, rows)
                self._menus_timed_out(table, seat)
                with self.public(table):
                    line = t("clock.autopilot", user=user, colour=colour_name(seat),
                             level=level, n=strikes)
                self._notice(table, line, user)
                self._enqueue(self._play_outcome(table, state, [], actor=None))
            else:
                # the computer covers the rest of this turn: stored at once (a restart, or
                # another process, keeps it covered: no fresh deadline, no second strike)
                covering = {**table.covering, seat: key_text(state)}
                rows = self._plan(table, table.since, computer=covering,
                                  clock={**table.clock, seat: replace(row, strikes=strikes)})
                try:
                    await self.storage.set_deadlines(table.id, rows or [])
                except StorageRefusal as exc:  # covered here; the deadline fires again
                    log.warning("game %s: the cover of seat %s is not stored: %s", table.id,
                                seat, exc)  # after a restart (counted once: not stored)
                table.covering = covering
                self._committed(table, rows)
                self._menus_timed_out(table, seat)
                with self.public(table):
                    line = t("clock.timeout", user=user, colour=colour_name(seat),
                             level=level, n=strikes, limit=self.turnclock.strikes)
                self._notice(table, line, user)
        self._kick_ai(table)
