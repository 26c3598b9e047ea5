"""Announcing: the per-game queue that hands outcomes to the sink in commit order, and the
computer outcomes held back so that a run of one computer seat's small steps is announced
as one message.

:class:`Announcer` owns the queues, their tasks and the held outcomes; nothing else
touches the sink's queue. Slow image posting never delays the next interaction's
acknowledgement: the sink works from the queue in a task of its own per game.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from bot.table.model import Menus, Outcome, Sink, Table

log = logging.getLogger(__name__)


class Announcer:
    def __init__(self, sink: Sink | None, owns: Callable[[int | None], bool]) -> None:
        self.sink = sink
        self.owns = owns
        #: per game: outcomes waiting for the sink, and the task handing them over (both
        #: dropped when the queue is empty, so a waiting game keeps none)
        self.outboxes: dict[int, asyncio.Queue[Outcome]] = {}
        self.publishers: dict[int, asyncio.Task[None]] = {}
        #: per game: a computer's outcome kept back while the same seat goes on acting
        self._held: dict[int, Outcome] = {}
        #: set by close(): no new announcement starts (stored ones are announced at restart)
        self._closing = False
        #: told every change as it is committed, besides the sink, in commit order and
        #: whoever owns the game (the live pages, bot/web): each of a computer's steps on
        #: its own, although the thread gets a run of them as one message; without its
        #: position (a listener that needs it reads the table); each must return at once
        self.listeners: list[Callable[[Outcome], None]] = []

    def busy(self, game_id: int) -> bool:
        """Whether something of the game is held back or being announced."""
        post = self.publishers.get(game_id)
        return game_id in self._held or (post is not None and not post.done())

    # ------------------------------------------------------------------ ordering
    def hold(self, outcome: Outcome, *, more: bool) -> None:
        """A computer's outcome: kept back while the same seat goes on acting (``more``),
        so a run of its small steps is announced as one message."""
        self._tell(outcome)
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

    def flush(self, game_id: int) -> None:
        """What was held back for the game goes out now."""
        held = self._held.pop(game_id, None)
        if held is not None:
            self._enqueue(held)

    def enqueue(self, outcome: Outcome) -> None:
        """Queue an announcement; anything held back for the game goes out first (merged),
        so announcements always follow commit order."""
        self._tell(outcome)
        self._enqueue(outcome)

    def notice(self, outcome: Outcome) -> None:
        """A notice of its own (a line added to the turn message would be an edit, and
        Discord pings nobody for an edit); what was held back for the game goes out
        first."""
        self._tell(outcome)
        self.flush(outcome.game_id)
        self._queue(outcome)

    def queue(self, outcome: Outcome) -> None:
        """Queue an outcome as it is (a reminder or notice: never merged into a move)."""
        self._tell(outcome)
        self._queue(outcome)

    def _tell(self, outcome: Outcome) -> None:
        for listener in self.listeners if not self._closing else ():
            try:
                listener(outcome)
            except Exception:  # a listener's failure never stops the announcement
                log.exception("game %s: a listener failed", outcome.game_id)

    def _enqueue(self, outcome: Outcome) -> None:
        held = self._held.pop(outcome.game_id, None)
        if held is not None:
            outcome = held.merge(outcome)
        self._queue(outcome)

    def _queue(self, outcome: Outcome) -> None:
        """To the sink. A computer's step held back to go out merged with the next one
        goes out here alone only if that next one never came (the computers stopped, a
        notice came first): its position is filled in now, from the table, which no
        other change has moved on since (that change's outcome would have taken it in)."""
        if self.sink is None or not self.owns(outcome.guild_id):
            return  # another process owns the game: storage notified it, it announces
        if self._closing:
            return  # shutting down: it is stored, and announced after the restart
        outcome = outcome.filled()
        queue = self.outboxes.get(outcome.game_id)
        if queue is None:
            queue = self.outboxes[outcome.game_id] = asyncio.Queue()
        queue.put_nowait(outcome)
        task = self.publishers.get(outcome.game_id)
        if task is None or task.done():
            self.publishers[outcome.game_id] = asyncio.create_task(
                self._publish_loop(outcome.game_id, queue), name=f"tempus-post-{outcome.game_id}")

    async def _publish_loop(self, game_id: int, queue: asyncio.Queue[Outcome]) -> None:
        """Hand the game's outcomes to the sink in order; ends when the queue is empty
        (:meth:`queue` starts it again), so a waiting game keeps no task."""
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
        if self.outboxes.get(game_id) is queue:
            del self.outboxes[game_id]
        if self.publishers.get(game_id) is asyncio.current_task():
            del self.publishers[game_id]

    # ------------------------------------------------------------------ the sink's menus
    def menus_timed_out(self, table: Table, seat: int) -> None:
        """The seat's private menus are retired saying a computer decided (not the person)."""
        menus: Menus | None = getattr(self.sink, "menus", None)
        user = table.seats[seat].user_id
        if callable(getattr(menus, "timed_out", None)) and user is not None:
            assert menus is not None
            menus.timed_out(table.id, user)

    # ------------------------------------------------------------------ the end
    async def drain(self) -> None:
        """Wait until every queued outcome is handed over, and the sink has written it."""
        for q in list(self.outboxes.values()):
            await q.join()
        drain = getattr(self.sink, "drain", None)
        if drain is not None:
            await drain()

    def stop(self) -> None:
        """No new announcement starts from now on (close)."""
        self._closing = True

    async def close(self) -> None:
        """Stop handing outcomes over (they are stored: announced after the restart)."""
        tasks = list(self.publishers.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.publishers.clear()
