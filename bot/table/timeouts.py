"""What a table does when time matters: the host changes the pace, a reminder is due, a
seat's time runs out (a computer then decides for it, and after ``strikes`` missed
deadlines in a row the seat stays on autopilot).

A use case: the turn clock (bot.timing.turn_clock) calls :meth:`Timeouts.remind` and
:meth:`Timeouts.timeout`; the commands call :meth:`Timeouts.set_pace`.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from bot.history.ratings import is_rated
from bot.store import ACTIVE, LOBBY
from bot.table.clocks import check_pace
from bot.table.commit import Change, lobby_change
from bot.table.model import (
    Outcome,
    Reminder,
    Stale,
    StorageRefusal,
    Table,
    TableError,
    public,
    with_seat,
)
from bot.table.parts import UseCase
from bot.timing.nudges import nudge_at
from bot.timing.pace import reminder_stage
from bot.timing.turn_clock import TurnClock
from lang import i18n
from lang.messages import t

log = logging.getLogger(__name__)


class Timeouts(UseCase):
    async def set_pace(self, game_id: int, user_id: int, name: str, *,
                       can_manage: bool = False) -> Outcome:
        """The host (or a channel manager) changes the time per decision; pending decisions
        keep their start, so a longer pace extends them (see bot.timing.deadlines.repace)."""
        p = check_pace(name)
        table = await self.tables.get(game_id)
        async with table.lock:
            if table.game.status not in (LOBBY, ACTIVE):
                raise TableError("error.not_active", game=table.id)
            if user_id != table.game.host_id and not can_manage:
                raise TableError("error.pace_denied", host=table.game.host_id)
            if table.game.options.get("pace") == p.name:
                raise TableError("error.pace_same", game=table.id, pace=t(f"pace.{p.name}"))
            options = {**table.game.options, "pace": p.name}

            def repaced(table: Table) -> None:
                table.game.options = options

            def said() -> str:
                return t("clock.pace_changed", user=user_id, pace=t(f"pace.{p.name}"))

            if table.game.status == LOBBY:
                def lobby_told(table: Table) -> Outcome:
                    with public(table):
                        return self.outcomes.lobby(table, said())

                outcome = await self.commits.commit(table, lobby_change(
                    lambda: self.storage.set_options(table.id, table.version, options),
                    repaced), lobby_told)
                self.announcer.enqueue(outcome)
                return outcome

            def told(table: Table) -> Outcome:
                assert table.state is not None
                outcome = self.outcomes.play(table, table.state, [], actor=None)
                with public(table):
                    outcome.lines = [said()]
                return outcome

            outcome = await self.commits.commit(table, Change(
                lambda rows: self.storage.set_options(table.id, table.version, options, rows),
                self.clocks.repace(table, p), update=repaced), told)
            self.announcer.enqueue(outcome)
        return outcome

    def _turnclock(self) -> TurnClock:
        """The turn clock that fired (the tables have one, or nothing fires)."""
        turnclock = self.clocks.turnclock
        assert turnclock is not None
        return turnclock

    async def remind(self, game_id: int, seat: int) -> None:
        """The scheduler: a reminder may be due for ``seat``. Noted before it is sent, so
        it is sent at most once; a person who muted reminders gets none, nor one who
        muted the pings of this turn."""
        turnclock = self._turnclock()
        table = await self.tables.get(game_id)
        async with table.lock:
            if not self.owns(table.game.guild_id):  # the owner's clock fires
                turnclock.disarm(table.id)
                return
            row = table.clock.get(seat)
            if table.game.status != ACTIVE or row is None or row.due_at is None \
                    or row.started_at is None:
                return
            stage = reminder_stage(row.started_at, row.due_at, turnclock.now(),
                                   turnclock.pace_of(table))
            if stage <= row.reminded:  # not yet (the deadline moved): wait again
                turnclock.arm(table)
                return
            if not await self.storage.update_deadline(table.id, seat, row.since,
                                                      due_at=row.due_at, reminded=stage):
                log.warning("game %s: seat %s's clock is not the stored one", table.id, seat)
                return
            table.clock[seat] = replace(row, reminded=stage)
            turnclock.arm(table)
            user = table.seats[seat].user_id
            if user is None or not await self.clocks.wants_reminders(user):
                return
            if table.state is not None and self.outcomes.presence.muted(
                    table.id, user, table.port.rules.turn_key(table.state)):
                return  # they muted this turn from its turn message
            await i18n.load_user_locales(self.storage, [user])  # the DM in their language
            self.announcer.queue(self.outcomes.remind(
                table, Reminder(user, seat, table.port.show.seat_name(seat), row.due_at, stage)))

    async def nudge(self, game_id: int, seat: int) -> None:
        """The scheduler: the person owing ``seat``'s decision may not have acted a few
        minutes after it became theirs (bot.timing.nudges). If so they get now the one
        notification an away player gets (noted first, so it is sent at most once), unless
        they muted this turn; someone still clicking in the game is left alone for now."""
        turnclock = self._turnclock()
        table = await self.tables.get(game_id)
        async with table.lock:
            if not self.owns(table.game.guild_id):  # the owner's clock fires
                turnclock.disarm(table.id)
                return
            row = table.clock.get(seat)
            user = table.seats[seat].user_id if seat < len(table.seats) else None
            if table.game.status != ACTIVE or table.state is None or row is None \
                    or user is None or seat not in table.since or table.seats[seat].is_ai:
                return
            when = nudge_at(row, turnclock.pace_of(table),
                            self.outcomes.presence.last_seen(table.id, user))
            if when is None or when > turnclock.now():  # told, or still clicking: wait
                turnclock.arm(table)
                return
            if not await self.storage.set_nudged(table.id, seat, row.since):
                log.warning("game %s: seat %s's clock is not the stored one", table.id, seat)
                return
            table.clock[seat] = replace(row, nudged=True)
            turnclock.arm(table)
            if self.outcomes.presence.muted(table.id, user, table.port.rules.turn_key(table.state)):
                return  # they muted this turn from its turn message
            await i18n.load_user_locales(self.storage, [user])  # a DM in their language
            self.announcer.enqueue(self.outcomes.nudge(table, seat))

    async def timeout(self, game_id: int, seat: int) -> None:
        """The scheduler: ``seat``'s time may be up. A computer then decides for the seat
        while it owes a decision in this turn (announced in the game's thread); after
        ``turnclock.strikes`` missed deadlines in a row the seat stays on autopilot until
        its person takes it back."""
        turnclock = self._turnclock()
        table = await self.tables.get(game_id)
        async with table.lock:
            if not self.owns(table.game.guild_id):  # the owner's clock fires
                turnclock.disarm(table.id)
                return
            row = table.clock.get(seat)
            state = table.state
            if table.game.status != ACTIVE or state is None or row is None \
                    or row.due_at is None:
                return
            if row.due_at > turnclock.now():  # moved meanwhile: wait again
                turnclock.arm(table)
                return
            if seat not in table.since or table.seats[seat].is_ai:
                return  # no clock runs for such a seat (bot.timing.deadlines): nothing to do
            strikes = row.strikes + 1
            user = table.seats[seat].user_id
            level = turnclock.level or table.port.computers.default_level()
            if strikes >= turnclock.strikes:
                after = with_seat(table.seats, seat, autopilot=level)
                covering = {s: k for s, k in table.covering.items() if s != seat}
                rows = self.clocks.plan(
                    table, table.since, seats=after, computer=covering,
                    clock={**table.clock, seat: replace(row, strikes=strikes)})
                try:
                    outcome = await self.commits.commit(table, Change(
                        lambda rows: self.storage.set_autopilot(table.id, table.version, seat,
                                                                level, rows, timed_out=True),
                        rows, covering=covering, reseat=True),
                        lambda table: self.outcomes.play(table, state, [], actor=None))
                except Stale:
                    log.error("game %s: changed outside its lock", table.id)
                    return
                self.announcer.menus_timed_out(table, seat)
                with public(table):
                    line = t("clock.autopilot", user=user, colour=table.port.show.seat_name(seat),
                             level=level, n=strikes)
                    if is_rated(s.user_id for s in table.seats):  # bot/history/ratings.py
                        line = f"{line}\n{t('clock.autopilot.rated', user=user)}"
                # the notice opens the turn message that the computer's moves then go
                # into: it is read before them, and pings the person
                outcome.lines = [line, *outcome.lines]
                outcome.told = [user] if user is not None else []
                self.announcer.enqueue(outcome)
            else:
                # the computer covers the rest of this turn: stored at once (a restart, or
                # another process, keeps it covered: no fresh deadline, no second strike);
                # not a change of the game (no new version): its clocks only
                covering = {**table.covering, seat: table.port.rules.turn_key(state)}
                rows = self.clocks.plan(
                    table, table.since, computer=covering,
                    clock={**table.clock, seat: replace(row, strikes=strikes)})
                try:
                    await self.storage.set_deadlines(table.id, rows or [])
                except StorageRefusal as exc:  # covered here; the deadline fires again
                    log.warning("game %s: the cover of seat %s is not stored: %s", table.id,
                                seat, exc)  # after a restart (counted once: not stored)
                table.covering = covering
                self.clocks.committed(table, rows)
                self.announcer.menus_timed_out(table, seat)
                notice = self.outcomes.play(table, state, [], actor=None, notify=[])
                with public(table):
                    notice.lines = [t("clock.timeout", user=user,
                                      colour=table.port.show.seat_name(seat),
                                      level=level, n=strikes, limit=turnclock.strikes)]
                # a turn message of its own, which the computer's moves then go into: the
                # notice is read before them (not below a log that already shows them),
                # and pings the person
                notice.told = [user] if user is not None else []
                self.announcer.enqueue(notice)
        self.computers.kick(table)
