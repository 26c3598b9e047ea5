"""Play: whose decision it is, applying actions (one transaction each), undo, and the
controls (buttons, selects, private menus) that lead to them.

Part of :class:`bot.table.service.TableService` (see there for how the parts fit).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import engine
from bot.store import ACTIVE, FINISHED, LOBBY, SeatRow, VersionConflict
from bot.table import rematch
from bot.table.base import TableBase
from bot.table.model import (
    Outcome,
    Reply,
    Table,
    TableError,
    next_since,
)
from bot.table.ui import (
    ACT,
    ADDBOT,
    CANCEL,
    CARDS,
    HELP,
    JOIN,
    LEAVE,
    MENU,
    QUIT,
    START,
    UNDO,
    Panel,
)
from bot.tempus import help_text as guide
from bot.tempus import panels
from bot.tempus.codec import decode_action, shown
from bot.tempus.labels import action_label, colour_name
from bot.tempus.refusal_text import Reason
from engine import actions as A
from engine.actions import Action
from engine.errors import IllegalAction
from engine.game import decisions
from engine.state import OVER
from engine.undo import UNDO_JSON, UndoRefused
from engine.views import view
from lang.messages import t
from render.positions import last_move_of

log = logging.getLogger(__name__)

CARD_ACTIONS: dict[str, Callable[[tuple[int, ...]], Action]] = {
    engine.game.ATTACK_CARDS: lambda c: A.CommitAttackCards(c),
    engine.game.DEFEND_CARDS: lambda c: A.DefendCards(c),
    engine.game.DISCARDING: lambda c: A.Discard(c),
    engine.game.PROGRESS_CARDS: lambda c: A.ProgressCards(c),
}



class PlayMixin(TableBase):

    def _check_turn(self, table: Table, user_id: int, version: int | None) -> int:
        if table.game.status != ACTIVE or table.state is None:
            raise TableError("error.not_active", game=table.id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError("error.not_seated", game=table.id)
        if seat not in table.since:
            if version is not None and version < table.version:
                raise TableError("error.stale")
            raise TableError("error.not_your_turn", waiting=self.waiting(table))
        if version is not None and not table.since[seat] <= version <= table.version:
            raise TableError("error.stale")
        if table.seats[seat].left:
            raise TableError("error.left", game=table.id, colour=colour_name(seat))
        if table.seats[seat].autopilot is not None:
            raise TableError("error.on_autopilot")
        return seat

    def waiting(self, table: Table) -> str:
        assert table.state is not None
        return ", ".join(f"{table.seats[d.seat].name} ({colour_name(d.seat)})"
                         for d in decisions(table.state)) or "-"

    async def act(self, game_id: int, user_id: int, action: Action,
                  version: int | None = None) -> Outcome:
        """Apply ``user_id``'s action; ``version`` is the one its control was made at."""
        table = await self.table(game_id)
        try:
            async with table.lock:
                seat = self._check_turn(table, user_id, version)
                table.covering.pop(seat, None)  # the person is back: the computer stops
                outcome = await self._apply(table, seat, action)
                self._enqueue(outcome)
        finally:
            self._kick_ai(table)
        return outcome

    async def act_many(self, game_id: int, user_id: int, actions: list[Action]) -> Outcome:
        """Several actions in a row (``/tempus move`` = begin the move + move a token),
        each its own transaction, announced together."""
        table = await self.table(game_id)
        outcome: Outcome | None = None
        try:
            async with table.lock:
                seat = self._check_turn(table, user_id, None)
                table.covering.pop(seat, None)
                trial = table.state
                assert trial is not None
                try:  # all or nothing: a refused last step must not spend the marker
                    for action in actions:
                        trial, _ = engine.apply(trial, seat, action)
                except engine.NotYourDecision:
                    raise TableError("error.not_your_turn", waiting=self.waiting(table)) from None
                except IllegalAction as exc:
                    raise TableError("error.illegal", reason=Reason(exc)) from None
                try:
                    for action in actions:
                        step = await self._apply(table, seat, action)
                        outcome = step if outcome is None else outcome.merge(step)
                finally:
                    if outcome is not None:
                        self._enqueue(outcome)
        finally:
            self._kick_ai(table)
        assert outcome is not None
        return outcome

    async def undo(self, game_id: int, user_id: int, version: int | None = None) -> Outcome:
        """Take back ``user_id``'s last step of this turn (engine.undo's rule); the undo is
        logged as an entry of its own, nothing is deleted."""
        table = await self.table(game_id)
        try:
            async with table.lock:
                if table.game.status != ACTIVE or table.state is None:
                    raise TableError("error.not_active", game=table.id)
                seat = table.seat_of(user_id)
                if seat is None:
                    raise TableError("error.not_seated", game=table.id)
                if version is not None and version != table.version:
                    raise TableError("error.stale")
                if table.seats[seat].is_ai:
                    raise TableError("error.on_autopilot")
                if not table.timeline.undo_allowed(seat):
                    raise TableError("error.undo_refused",
                                     reason=Reason(table.timeline.refusal(seat)))
                assert table.state is not None
                before = table.timeline.steps[-1].before
                status = ACTIVE
                since = next_since(table.since, before, seat, table.version + 1)
                table.covering.pop(seat, None)
                covering = self._still_covered(table, before, since)
                rows = self._plan(table, since, person=seat, computer=covering)
                try:
                    new_version = await self.storage.append_action(
                        table.id, table.version, table.log_len, seat, dict(UNDO_JSON),
                        before.to_json(), status, rows)
                except VersionConflict:
                    raise TableError("error.stale") from None
                try:
                    restored = table.timeline.undo(seat)
                except UndoRefused as exc:  # checked above under the lock: cannot happen
                    raise TableError("error.undo_refused", reason=Reason(exc)) from None
                _, undone = table.moves.pop()
                table.game.version = new_version
                table.log_len += 1
                table.state = restored
                table.since = since
                table.covering = covering
                self._committed(table, rows)
                outcome = self._play_outcome(table, None, [], actor=seat)
                with self.public(table):
                    outcome.lines = [t("undo.done", colour=colour_name(seat),
                                       what=action_label(undone))]
                self._enqueue(outcome)
        finally:
            self._kick_ai(table)
        return outcome

    def undo_seat(self, table: Table) -> int | None:
        """The person who may take back their last step now (engine.undo), if any."""
        seat = table.timeline.seat
        if table.game.status != ACTIVE or seat is None or table.seats[seat].is_ai:
            return None
        return seat

    async def _apply(self, table: Table, seat: int, action: Action, *,
                     person: bool = True) -> Outcome:
        """Validate, store (one transaction, with the turn clocks it implies), update the
        cache; caller holds the lock. ``person``: the seat's person decided (not a
        computer), so their missed deadlines no longer count."""
        before = table.state
        assert before is not None
        try:
            new, events = engine.apply(before, seat, action)
        except IllegalAction as exc:
            raise TableError("error.illegal", reason=Reason(exc)) from None
        status = FINISHED if new.phase == OVER else ACTIVE
        since = next_since(table.since, new, seat, table.version + 1)
        covering = self._still_covered(table, new, since)
        rows = self._plan(table, since, person=seat if person else None, computer=covering,
                          over=status == FINISHED)
        try:
            version = await self.storage.append_action(
                table.id, table.version, table.log_len, seat, action.to_json(),
                new.to_json(), status, rows)
        except VersionConflict:
            raise TableError("error.stale") from None
        table.game.version = version
        table.game.status = status
        table.log_len += 1
        table.timeline.record(before, seat, action, events, new)
        table.state = new
        table.moves.append((seat, action))
        table.since = since
        table.covering = covering
        self._committed(table, rows)
        outcome = self._play_outcome(table, before, events, actor=seat)
        outcome.last_move = last_move_of(action)
        return outcome

    async def use(self, game_id: int, version: int, user_id: int, name: str, op: str, arg: str,
                  values: list[str] | None = None, *, can_manage: bool = False) -> Reply:
        """One use of a control (button or select) described by a :class:`~bot.table.ui.Panel`.

        A click refused as stale is tried once more if the game had changed in another
        process (this process's copy was behind); a game of another process is brought up
        to date before its menus are shown."""
        cached = self._tables.get(game_id)
        if cached is not None and not self.owns(cached.game.guild_id) \
                and not await self.refresh(game_id):
            await self._clock_of_foreign_game(cached)
        try:
            return await self._use(game_id, version, user_id, name, op, arg, values,
                                   can_manage=can_manage)
        except TableError as exc:
            if exc.key != "error.stale" or not await self.refresh(game_id):
                raise
        return await self._use(game_id, version, user_id, name, op, arg, values,
                               can_manage=can_manage)

    async def _use(self, game_id: int, version: int, user_id: int, name: str, op: str, arg: str,
                   values: list[str] | None = None, *, can_manage: bool = False) -> Reply:
        if op == JOIN:
            return Reply(outcome=await self.join(game_id, user_id, name))
        if op == LEAVE:
            return Reply(outcome=await self.leave(game_id, user_id))
        if op == ADDBOT:
            return Reply(outcome=await self.add_ai(game_id, user_id))
        if op == START:
            return Reply(outcome=await self.start(game_id, user_id))
        if op == CANCEL:
            return Reply(outcome=await self.cancel(game_id, user_id, can_manage=can_manage))
        if op == QUIT:
            outcome = await self.leave_game(game_id, user_id)
            return Reply(text=t("leave.done", game=game_id), outcome=outcome)
        if op == UNDO:
            outcome = await self.undo(game_id, user_id, version)
            return Reply(text=outcome.lines[0], outcome=outcome)
        if op == HELP:  # the "?" button: help for whoever clicks, privately
            table = await self.table(game_id)
            return Reply(menu=Panel(guide.help_for_user(table, user_id)),
                         version=table.version)
        if op == rematch.REMATCH:
            return await rematch.rematch(self, game_id, user_id, name)
        if op == MENU:
            spec = f"{arg}:{values[0]}" if values else arg
            panel, now = await self.menu(game_id, user_id, spec, version)
            return Reply(menu=panel, version=now)
        if op == ACT:
            text = values[0] if values else arg
            try:
                action = decode_action(text)
            except ValueError:
                raise TableError("error.bad_choice", reason=shown(text)) from None
        elif op == CARDS:
            make = CARD_ACTIONS.get(arg)
            if make is None:
                raise TableError("error.bad_choice", reason=shown(arg))
            bad = [v for v in values or () if not (v.isascii() and v.isdigit() and len(v) < 6)]
            if bad:
                raise TableError("error.bad_choice", reason=shown(bad[0]))
            action = make(tuple(sorted(int(v) for v in values or ())))
        else:
            raise TableError("error.bad_choice", reason=shown(op))
        outcome = await self.act(game_id, user_id, action, version)
        return Reply(text=t("ack.done", what=action_label(action)), outcome=outcome)

    async def menu(self, game_id: int, user_id: int, spec: str,
                   version: int | None = None) -> tuple[Panel, int]:
        """A private menu for ``user_id``'s seat (hand, card choices, targets ...) and the
        version its controls belong to."""
        table = await self.table(game_id)
        async with table.lock:
            if spec == "close":
                return Panel(t("menu.closed")), table.version
            if spec == "hand":
                seat = table.seat_of(user_id)
                if seat is None or table.state is None:
                    raise TableError("hand.spectator", game=table.id)
                if table.seats[seat].left:
                    raise TableError("error.left", game=table.id,
                                     colour=colour_name(seat))
            else:
                seat = self._check_turn(table, user_id, version)
            try:
                panel = panels.menu(table.state, seat, spec, table.id)  # type: ignore[arg-type]
            except panels.MenuError as exc:
                raise TableError(str(exc)) from None
            return panel, table.version

    async def legal(self, game_id: int, user_id: int, prefix: list[Action] | None = None
                    ) -> list[Action]:
        """The legal actions of ``user_id`` now, or after the actions ``prefix`` (tried on a
        copy): for autocomplete. Empty when the user has nothing to decide."""
        table = await self.table(game_id)
        seat = table.seat_of(user_id)
        state = table.state
        if seat is None or state is None or table.game.status != ACTIVE:
            return []
        try:
            for action in prefix or []:
                state, _ = engine.apply(state, seat, action)
        except IllegalAction:
            return []
        return engine.legal_actions(state, seat)

    async def public_view(self, game_id: int) -> tuple[dict[str, Any] | None, list[SeatRow]]:
        table = await self.table(game_id)
        v = None if table.state is None else view(table.state, None)
        return v, list(table.seats)

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

    async def last_game_in_channel(self, channel_id: int) -> int:
        """For looking (board, status, record): the channel's running game, else its last
        finished one (so the final position stays visible until a new game starts), else
        its lobby; TableError when the channel has none."""
        game = await self.storage.latest_game_in_channel(channel_id, (ACTIVE,))
        if game is None:
            game = await self.storage.latest_game_in_channel(channel_id, (FINISHED,))
        if game is None:
            return await self.channel_game_id(channel_id)
        return game.id
