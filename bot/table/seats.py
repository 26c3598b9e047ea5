"""Seats changing hands during a game: autopilot, leaving, replacing a player.

A use case: it gets its tables from :class:`~bot.table.tables.Tables`, stores through the
commit path (:class:`~bot.table.commit.Commits`), queues what it did with the
:class:`~bot.table.announce.Announcer` and lets the computers take over a seat.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.history.ratings import is_rated
from bot.store import ACTIVE, LOBBY, SeatRow
from bot.table.commit import Change
from bot.table.model import (
    Outcome,
    Table,
    TableError,
    public,
    with_seat,
)
from bot.table.parts import UseCase
from games.controls import (
    QUIT,
    Button,
    Panel,
)
from lang.messages import t

log = logging.getLogger(__name__)


def next_host(seats: list[SeatRow], leaving: int) -> int | None:
    """Who becomes the host when the host leaves ``leaving`` mid-game: the next person in
    seat order (after the leaver, round the table) who still plays their seat, else the
    next one still seated on autopilot; None if only computers are left (the host role
    then stays, and only a channel manager can replace or change the pace)."""
    order = [seats[(leaving + i) % len(seats)] for i in range(1, len(seats))]
    people = [s for s in order if s.user_id is not None and not s.left]
    for s in people:
        if s.autopilot is None:
            return s.user_id
    return people[0].user_id if people else None


class Seats(UseCase):
    def _told(self, lines: Callable[[Table], list[str]], hands: tuple[int, ...] = ()
              ) -> Callable[[Table], Outcome]:
        """The outcome of a seat changing hands: the position with ``lines`` (written in
        the game's language); ``hands``: seats whose new person gets the hand."""
        def told(table: Table) -> Outcome:
            state = table.state
            assert state is not None
            outcome = self.outcomes.play(table, state, [], actor=None)
            if hands:
                outcome.hand_views = {s: table.port.rules.view(state, s) for s in hands}
            with public(table):
                outcome.lines = lines(table)
            return outcome
        return told

    async def autopilot(self, game_id: int, user_id: int, target: int | None, on: bool,
                        level: str | None = None, *, can_manage: bool = False) -> Outcome:
        """A computer plays ``target``'s seat (default: the caller's) from now on, or the
        person again. Anyone may do it for their own seat; the host or a channel manager
        for an absent player; only the seat's owner (or they) may take it back."""
        table = await self.tables.get(game_id)
        players = table.port.computers
        level = level or players.default_level()
        if level not in players.levels():
            raise TableError("error.unknown_level", level=level,
                             levels=", ".join(players.levels()))
        async with table.lock:
            if table.game.status == LOBBY:  # what would be right: a computer seat
                raise TableError("error.autopilot_lobby", game=table.id)
            if table.game.status != ACTIVE:
                raise TableError("error.not_active", game=table.id)
            target = user_id if target is None else target
            seat = table.seat_of(target)
            if seat is None:
                raise TableError("error.not_seated_other", user=target, game=table.id)
            if target != user_id and user_id != table.game.host_id and not can_manage:
                raise TableError("error.autopilot_denied", host=table.game.host_id)
            if table.seats[seat].left:
                raise TableError("error.left_other", user=target, game=table.id,
                                 host=table.game.host_id)
            current = table.seats[seat].autopilot
            if (current is not None) == on:
                raise TableError("error.autopilot_already" if on else "error.autopilot_not_on",
                                 user=target)
            after = with_seat(table.seats, seat, autopilot=level if on else None)
            since = table.since if on else {  # the person decides again from now on
                s: table.version + 1 if s == seat else v for s, v in table.since.items()}
            covering = {s: k for s, k in table.covering.items() if s != seat}
            rows = self.clocks.plan(table, since, seats=after, person=None if on else seat,
                                    computer=covering)
            key = "autopilot.on" if on else "autopilot.off"
            who = target
            outcome = await self.commits.commit(table, Change(
                lambda rows: self.storage.set_autopilot(table.id, table.version, seat,
                                                        level if on else None, rows),
                rows, since=since, covering=covering, reseat=True),
                self._told(lambda table: [t(key, user=who, colour=table.port.show.seat_name(seat),
                                            level=t(f"level.{level}"))]))
            self.announcer.enqueue(outcome)
        self.computers.kick(table)
        return outcome

    async def leave_panel(self, game_id: int, user_id: int) -> tuple[Panel, int] | None:
        """``/tempus leave`` during a game: the private confirmation to show (None: the
        game has not started, a plain leave applies)."""
        table = await self.tables.get(game_id)
        if table.game.status == LOBBY:
            return None
        if table.game.status != ACTIVE:
            raise TableError("error.not_active", game=table.id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError("error.not_seated", game=table.id)
        if table.seats[seat].left:
            raise TableError("error.left", game=table.id, colour=table.port.show.seat_name(seat))
        text = t("leave.confirm", game=table.id, colour=table.port.show.seat_name(seat),
                 level=self.clocks.leave_level() or table.port.computers.default_level())
        if is_rated(s.user_id for s in table.seats):  # bot/history/ratings.py
            text = f"{text}\n{t('leave.rated')}"
        panel = Panel(text,
                      [(Button(t("btn.leave_game"), QUIT, style="danger"),)])
        return panel, table.version

    async def leave_game(self, game_id: int, user_id: int) -> Outcome:
        """The person leaves a running game: a computer plays their seat to the end and
        their cards go to nobody (the seat's hand is never shown again)."""
        table = await self.tables.get(game_id)
        async with table.lock:
            if table.game.status != ACTIVE:
                raise TableError("error.not_active", game=table.id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("error.not_seated", game=table.id)
            if table.seats[seat].left:
                raise TableError("error.left", game=table.id,
                                 colour=table.port.show.seat_name(seat))
            level = self.clocks.leave_level() or table.port.computers.default_level()
            after = with_seat(table.seats, seat, autopilot=level, left=True)
            covering = {s: k for s, k in table.covering.items() if s != seat}
            rows = self.clocks.plan(table, table.since, seats=after, computer=covering)
            host = next_host(after, seat) if user_id == table.game.host_id else None

            def lines(table: Table) -> list[str]:
                out = [t("leave.public", user=user_id, colour=table.port.show.seat_name(seat),
                         level=level)]
                if host is not None:
                    out.append(t("seats.host_passed", user=host, game=table.id))
                return out

            outcome = await self.commits.commit(table, Change(
                lambda rows: self.storage.leave_seat(table.id, table.version, seat, level,
                                                     rows, host_id=host),
                rows, covering=covering, reseat=True, update=_host(host)), self._told(lines))
            self.announcer.enqueue(outcome)
        self.computers.kick(table)
        return outcome

    async def replace(self, game_id: int, user_id: int, old_user: int, new_user: int,
                      new_name: str, *, new_is_bot: bool = False,
                      can_manage: bool = False) -> Outcome:
        """The host (or a channel manager) gives ``old_user``'s seat to ``new_user``, who
        gets the hand by DM and decides from now on (with a fresh clock)."""
        table = await self.tables.get(game_id)
        async with table.lock:
            if table.game.status == LOBBY:
                raise TableError("error.replace_lobby", game=table.id, old=old_user,
                                 new=new_user)
            if table.game.status != ACTIVE:
                raise TableError("error.not_active", game=table.id)
            if user_id != table.game.host_id and not can_manage:
                raise TableError("error.replace_denied", host=table.game.host_id)
            if new_is_bot:
                raise TableError("error.replace_bot", user=new_user)
            seat = table.seat_of(old_user)
            if seat is None:
                raise TableError("error.not_seated_other", user=old_user, game=table.id)
            # the one who left it may be given their own seat back: /tempus join sends a
            # leaver to the host for exactly that
            back = new_user == old_user and table.seats[seat].left
            if table.seat_of(new_user) is not None and not back:
                raise TableError("error.replace_seated", user=new_user, game=table.id)
            after = with_seat(table.seats, seat, user_id=new_user, name=new_name,
                              autopilot=None, left=False)
            since = {s: table.version + 1 if s == seat else v for s, v in table.since.items()}
            covering = {s: k for s, k in table.covering.items() if s != seat}
            clock = {s: r for s, r in table.clock.items() if s != seat}  # no strikes
            rows = self.clocks.plan(table, since, seats=after, computer=covering, clock=clock)
            # the host's seat changes hands: so does the host role
            host = new_user if old_user == table.game.host_id else None

            def lines(table: Table) -> list[str]:
                colour = table.port.show.seat_name(seat)
                out = [t("replace.back", user=new_user, colour=colour) if back
                       else t("replace.done", old=old_user, new=new_user, colour=colour)]
                if host is not None:
                    out.append(t("seats.host_passed", user=host, game=table.id))
                return out

            outcome = await self.commits.commit(table, Change(
                lambda rows: self.storage.replace_seat(table.id, table.version, seat,
                                                       new_user, new_name, rows, host_id=host),
                rows, since=since, covering=covering, reseat=True, update=_host(host)),
                self._told(lines, hands=(seat,)))
            self.announcer.enqueue(outcome)
        self.computers.kick(table)
        return outcome


def _host(host: int | None) -> Callable[[Table], None]:
    """The host role passes to ``host`` (None: it stays)."""
    def update(table: Table) -> None:
        if host is not None:
            table.game.host_id = host
    return update
