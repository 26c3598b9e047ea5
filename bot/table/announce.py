"""Announcing: the outcome of a change built from public and personal views, and the
per-game queue that hands outcomes to the sink in commit order (computer runs merged).

Part of :class:`bot.table.service.TableService` (see there for how the parts fit).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from bot.store import ACTIVE
from bot.table.base import TableBase
from bot.table.model import (
    Outcome,
    Table,
    event_hexes,
    key_text,
    owes_hand_choice,
)
from bot.table.ui import (
    Panel,
)
from bot.tempus import panels
from bot.tempus.event_text import event_text
from bot.tempus.labels import colour_name
from engine.events import Event, visible
from engine.game import to_act
from engine.state import OVER, State
from engine.views import view

log = logging.getLogger(__name__)


class AnnounceMixin(TableBase):

    def _play_outcome(self, table: Table, before: State | None, events: list[Event], *,
                      actor: int | None, kind: str = "play") -> Outcome:
        state = table.state
        assert state is not None
        seats = table.seats
        private: dict[int, list[str]] = {}
        for e in events:
            if e.private_to is not None:
                with self.personal(table, e.private_to):
                    private.setdefault(e.private_to, []).append(event_text(e))
        hand_views = {}
        for s, p in enumerate(state.players):
            old = before.players[s].hand if before is not None else []
            if sorted(old) != sorted(p.hand) and seats[s].user_id is not None \
                    and not seats[s].left:
                hand_views[s] = view(state, s)
        fresh = [s for s, v in table.since.items() if v == table.version]
        secret = {}
        for s in fresh:
            if not seats[s].is_ai and owes_hand_choice(state, s):
                with self.personal(table, s):
                    secret[s] = panels.secret_panel(state, s)
        with self.public(table):
            return self._public_outcome(table, state, events, actor, kind, private,
                                        hand_views, secret, fresh)

    def _public_outcome(self, table: Table, state: State, events: list[Event],
                        actor: int | None, kind: str, private: dict[int, list[str]],
                        hand_views: dict[int, dict[str, Any]], secret: dict[int, Panel],
                        fresh: list[int]) -> Outcome:
        """The public part of an outcome, written in the current (the game's) language."""
        seats = table.seats
        panel = self._turn_panel(table)
        outcome = Outcome(
            game_id=table.id, channel_id=table.game.channel_id, guild_id=table.game.guild_id,
            version=table.version, kind=kind,
            lines=[event_text(e) for e in visible(events, None)],
            play_channel_id=table.game.play_channel_id, turn_key=key_text(state),
            panel=panel, seats=list(seats),
            public_view=view(state, None), private_lines=private, hand_views=hand_views,
            secret_panels=secret,
            mention=[seats[s].user_id for s in sorted(fresh)  # type: ignore[misc]
                     if s != actor and not seats[s].is_ai],
            highlight=event_hexes(events), actor=actor, locale=self.locale_of(table),
            since=dict(table.since),
        )
        if state.phase == OVER:
            outcome.finished = True
            outcome.record = self._record(table).to_json()
        return outcome

    def _turn_panel(self, table: Table) -> Panel:
        """The turn message's text and controls for the current state (with Undo when a
        player may take back a step)."""
        state = table.state
        assert state is not None
        panel = panels.public_panel(state, table.seats)
        undo = self.undo_seat(table)
        if undo is not None:
            deciding = to_act(state)
            panel = panels.with_undo(panel, None if deciding == [undo]
                                     else colour_name(undo))
        if state.phase != OVER:
            panel = panels.with_help(panel)
        due = self._due_line(table)
        if due and table.game.status == ACTIVE:  # above the prompt, which stays last
            head, _, prompt = panel.text.rpartition("\n")
            panel.text = "\n".join(x for x in (head, due, prompt) if x)
        return panel

    async def turn_panel(self, game_id: int) -> tuple[Panel | None, int]:
        """The turn message's controls now and their version (None when the game is not
        being played): for a private copy when the public one cannot be reached."""
        table = await self.table(game_id)
        async with table.lock:
            if table.state is None or table.game.status != ACTIVE:
                return None, table.version
            return self._turn_panel(table), table.version

    def _hold(self, outcome: Outcome, *, more: bool) -> None:
        """A computer's outcome: kept back while the same seat goes on acting (``more``),
        so a run of its small steps is announced as one message."""
        held = self._held.pop(outcome.game_id, None)
        if held is not None:
            if held.actor == outcome.actor:
                outcome = held.merge(outcome)
            else:
                self._enqueue(held)
        if more:
            self._held[outcome.game_id] = outcome
        else:
            self._enqueue(outcome)

    def _flush(self, game_id: int) -> None:
        held = self._held.pop(game_id, None)
        if held is not None:
            self._enqueue(held)

    def _enqueue(self, outcome: Outcome) -> None:
        """Queue an announcement; anything held back for the game goes out first (merged),
        so announcements always follow commit order."""
        held = self._held.pop(outcome.game_id, None)
        if held is not None:
            outcome = held.merge(outcome)
        self._queue(outcome)

    def _queue(self, outcome: Outcome) -> None:
        """Queue an outcome as it is (a reminder or notice: never merged into a move)."""
        if self.sink is None or not self.owns(outcome.guild_id):
            return  # another process owns the game: storage notified it, it announces
        if self._closing:
            return  # shutting down: it is stored, and announced after the restart
        queue = self._outboxes.get(outcome.game_id)
        if queue is None:
            queue = self._outboxes[outcome.game_id] = asyncio.Queue()
        queue.put_nowait(outcome)
        task = self._publishers.get(outcome.game_id)
        if task is None or task.done():
            self._publishers[outcome.game_id] = asyncio.create_task(
                self._publish_loop(outcome.game_id, queue), name=f"tempus-post-{outcome.game_id}")

    async def _publish_loop(self, game_id: int, queue: asyncio.Queue[Outcome]) -> None:
        """Hand the game's outcomes to the sink in order; ends when the queue is empty
        (:meth:`_queue` starts it again), so a waiting game keeps no task."""
        assert self.sink is not None
        while not queue.empty():
            outcome = queue.get_nowait()
            try:
                await self.sink.publish(outcome)
            except Exception:
                log.exception("game %s: announcing version %s failed", game_id, outcome.version)
            finally:
                queue.task_done()
        # nothing can be queued between the check above and here (no await): forget both
        if self._outboxes.get(game_id) is queue:
            del self._outboxes[game_id]
        if self._publishers.get(game_id) is asyncio.current_task():
            del self._publishers[game_id]

    async def moved(self, game_id: int, thread_id: int) -> None:
        """The game is played in ``thread_id`` from now on (the publisher opened it)."""
        table = self._tables.get(game_id)
        if table is not None:
            table.game.thread_id = thread_id
        self._by_channel[thread_id] = game_id

    async def idle(self) -> None:
        """Wait until no computer player is thinking and every outcome is announced."""
        while True:
            busy = [t for t in self._ai_tasks.values() if not t.done()]
            if busy:
                await asyncio.gather(*busy, return_exceptions=True)
            for q in list(self._outboxes.values()):
                await q.join()
            drain = getattr(self.sink, "drain", None)
            if drain is not None:
                await drain()
            if not any(not t.done() for t in self._ai_tasks.values()):
                return

    async def close(self) -> None:
        self._closing = True
        for task in [*self._ai_tasks.values(), *self._publishers.values()]:
            task.cancel()
        await asyncio.gather(*self._ai_tasks.values(), *self._publishers.values(),
                             return_exceptions=True)
        self._ai_tasks.clear()
        self._publishers.clear()
