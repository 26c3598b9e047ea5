"""Play: whose decision it is, applying actions (one transaction each), undo, and the
private menus that lead to them.

A use case: it gets its tables from :class:`~bot.table.tables.Tables`, stores through the
commit path (:class:`~bot.table.commit.Commits`), queues what it did with the
:class:`~bot.table.announce.Announcer` and lets the computers go on after a person.
"""

from __future__ import annotations

import logging
from typing import Any

from bot.store import ACTIVE, SeatRow
from bot.table.clocks import still_covered
from bot.table.commit import Change
from bot.table.model import (
    Outcome,
    Position,
    Stale,
    Table,
    TableError,
    next_since,
    public,
    told_since,
)
from bot.table.parts import UseCase
from games.controls import Panel
from games.port import Declined, NotYourTurn, Refused, UndoRefused
from lang.messages import t

log = logging.getLogger(__name__)

def waiting(table: Table) -> str:
    """Who the game waits for (names and colours), for a refusal."""
    assert table.state is not None
    name = table.port.show.seat_name
    return ", ".join(f"{table.seats[d.seat].name} ({name(d.seat)})"
                     for d in table.port.rules.decisions(table.state)) or "-"


def check_turn(table: Table, user_id: int, version: int | None) -> int:
    """The seat of ``user_id`` if it owes a decision and the control (made at ``version``)
    is still current."""
    if table.game.status != ACTIVE or table.state is None:
        raise TableError("error.not_active", game=table.id)
    seat = table.seat_of(user_id)
    if seat is None:
        raise TableError("error.not_seated", game=table.id)
    if seat not in table.since:
        if version is not None and version < table.version:
            raise Stale()
        raise TableError("error.not_your_turn", waiting=waiting(table))
    if version is not None and not table.since[seat] <= version <= table.version:
        raise Stale()
    if table.seats[seat].left:
        raise TableError("error.left", game=table.id, colour=table.port.show.seat_name(seat))
    if table.seats[seat].autopilot is not None:
        raise TableError("error.on_autopilot")
    return seat


class Play(UseCase):
    async def act(self, game_id: int, user_id: int, action: Any,
                  version: int | None = None) -> Outcome:
        """Apply ``user_id``'s action; ``version`` is the one its control was made at."""
        table = await self.tables.get(game_id)
        try:
            async with table.lock:
                seat = check_turn(table, user_id, version)
                table.covering.pop(seat, None)  # the person is back: the computer stops
                outcome = await self.commits.apply(table, seat, action)
                # what has one possible answer now is answered with it, in one announcement
                forced = await self.computers.answer_forced(table, outcome)
                assert forced is not None
                outcome = forced
                self.announcer.enqueue(outcome)
        finally:
            self.computers.kick(table)
        return outcome

    async def act_many(self, game_id: int, user_id: int, actions: list[Any],
                       version: int | None = None) -> Outcome:
        """Several actions in a row (``/tempus move`` = begin the move + move a token; a
        last token's "and stop moving"), each its own transaction, announced together;
        ``version`` as for :meth:`act`."""
        table = await self.tables.get(game_id)
        outcome: Outcome | None = None
        try:
            async with table.lock:
                seat = check_turn(table, user_id, version)
                table.covering.pop(seat, None)
                trial = table.state
                assert trial is not None
                try:  # all or nothing: a refused last step must not spend the marker
                    for action in actions:
                        trial, _ = table.port.rules.apply(trial, seat, action)
                except NotYourTurn:
                    raise TableError("error.not_your_turn", waiting=waiting(table)) from None
                except Refused as exc:
                    raise TableError("error.illegal", reason=exc.reason) from None
                try:
                    for action in actions:
                        step = await self.commits.apply(table, seat, action)
                        outcome = step if outcome is None else outcome.merge(step)
                    outcome = await self.computers.answer_forced(table, outcome)
                finally:
                    if outcome is not None:
                        self.announcer.enqueue(outcome)
        finally:
            self.computers.kick(table)
        assert outcome is not None
        return outcome

    async def undo(self, game_id: int, user_id: int, version: int | None = None) -> Outcome:
        """Take back ``user_id``'s last step of this turn (the game's undo rule); the undo is
        logged as an entry of its own, nothing is deleted."""
        table = await self.tables.get(game_id)
        try:
            async with table.lock:
                if table.game.status != ACTIVE or table.state is None:
                    raise TableError("error.not_active", game=table.id)
                seat = table.seat_of(user_id)
                if seat is None:
                    raise TableError("error.not_seated", game=table.id)
                if version is not None and version != table.version:
                    raise Stale()
                if table.seats[seat].is_ai:
                    raise TableError("error.on_autopilot")
                rules, show = table.port.rules, table.port.show
                if not table.timeline.undo_allowed(seat):
                    raise TableError("error.undo_refused", reason=table.timeline.refusal(seat))
                deciding = told_since(table, seat)
                if deciding:
                    raise TableError("error.undo_told", who=", ".join(
                        f"{table.seats[s].name} ({show.seat_name(s)})" for s in deciding))
                before = table.timeline.last_before()
                since = next_since(rules, table.since, before, seat, table.version + 1)
                table.covering.pop(seat, None)
                covering = still_covered(table, before, since)
                _, undone = table.moves[-1]  # the step taken back (always the last one)
                current = table.state  # the hands before the undo: only changed ones go out

                def undid(table: Table) -> None:
                    try:
                        restored = table.timeline.undo(seat)
                    except UndoRefused as exc:  # checked above under the lock: cannot happen
                        raise TableError("error.undo_refused", reason=exc.reason) from None
                    table.moves.pop()
                    table.log_len += 1
                    table.state = restored

                def told(table: Table) -> Outcome:
                    outcome = self.outcomes.play(table, current, [], actor=seat)
                    with public(table):
                        outcome.lines = [t("undo.done", colour=show.seat_name(seat),
                                           what=show.action_label(undone))]
                    return outcome

                outcome = await self.commits.commit(table, Change(
                    lambda rows: self.storage.append_action(
                        table.id, table.version, table.log_len, seat, dict(rules.undo_json),
                        before.to_json(), ACTIVE, rows),
                    self.clocks.plan(table, since, person=seat, computer=covering),
                    since=since, covering=covering, update=undid), told)
                self.announcer.enqueue(outcome)
        finally:
            self.computers.kick(table)
        return outcome

    async def help(self, game_id: int, user_id: int) -> tuple[Panel, int]:
        """The "?" button: help for whoever clicks, privately, and the game's version."""
        table = await self.tables.get(game_id)
        return Panel(table.port.show.help_for_user(table, user_id)), table.version

    async def menu(self, game_id: int, user_id: int, spec: str,
                   version: int | None = None) -> tuple[Panel, int]:
        """A private menu for ``user_id``'s seat (hand, card choices, targets ...) and the
        version its controls belong to."""
        table = await self.tables.get(game_id)
        async with table.lock:
            if spec == "close":
                return Panel(t("menu.closed")), table.version
            if spec == "hand":
                seat = table.seat_of(user_id)
                if seat is None:
                    raise TableError("hand.spectator", game=table.id)
                if table.state is None:  # seated in the lobby: no cards before the start
                    raise TableError("hand.lobby", game=table.id)
                if table.seats[seat].left:
                    raise TableError("error.left", game=table.id,
                                     colour=table.port.show.seat_name(seat))
            else:
                seat = check_turn(table, user_id, version)
            state = table.state
            assert state is not None  # a seat owing a decision, or the hand of a started game
            try:
                panel = table.port.show.menu(state, seat, spec, table.id)
            except Declined as exc:
                raise TableError(exc.key, **exc.kwargs) from None
            return panel, table.version

    async def turn_panel(self, game_id: int) -> tuple[Panel | None, int]:
        """The turn message's controls now and their version (None when the game is not
        being played): for a private copy when the public one cannot be reached."""
        table = await self.tables.get(game_id)
        async with table.lock:
            if table.state is None or table.game.status != ACTIVE:
                return None, table.version
            return self.outcomes.turn_panel(table), table.version

    async def menu_position(self, game_id: int) -> Position | None:
        """For DM menus stored before a restart (bot.publish.private_menus): the game's
        seats and owed decisions, or None if another process runs the game."""
        ref = await self.storage.game_ref(game_id)
        if ref is None:
            return [], {}
        if not self.owns(ref.guild_id):
            return None
        table = await self.tables.get(game_id)
        return table.seats, (table.since if table.game.status == ACTIVE else {})

    async def legal(self, game_id: int, user_id: int, prefix: list[Any] | None = None
                    ) -> list[Any]:
        """The legal actions of ``user_id`` now, or after the actions ``prefix`` (tried on a
        copy): for autocomplete. Empty when the user has nothing to decide."""
        table = await self.tables.get(game_id)
        seat = table.seat_of(user_id)
        state = table.state
        if seat is None or state is None or table.game.status != ACTIVE:
            return []
        if table.seats[seat].left:  # a computer plays it: its cards are nobody's to see
            return []
        rules = table.port.rules
        try:
            for action in prefix or []:
                state, _ = rules.apply(state, seat, action)
        except Refused:
            return []
        return rules.legal_actions(state, seat)

    async def public_view(self, game_id: int) -> tuple[dict[str, Any] | None, list[SeatRow]]:
        table = await self.tables.get(game_id)
        v = None if table.state is None else table.port.rules.view(table.state, None)
        return v, list(table.seats)
