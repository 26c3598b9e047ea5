"""One scheduler for every game: reminders and deadlines, fired through a callback.

A heap of ``(due, seq, key)`` and a table ``key -> (due, seq, kind)``; ``key`` is
``(game id, seat)``, ``kind`` what to do then (a :class:`~bot.timing.pace.Due`). A key has at
most one live entry: :meth:`Scheduler.schedule` replaces it, :meth:`Scheduler.cancel`
drops it, and an entry left in the heap by either is recognised as stale by its ``seq`` and
skipped (the heap is rebuilt when stale entries outnumber live ones).

A single task sleeps until the earliest due time
(:meth:`~bot.timing.time_source.Clock.sleep_until`) and
is woken early only when an earlier entry arrives. So an idle game (a person who does not
answer for a day) costs one heap entry and one dict entry, no task, no timer and no CPU
until its time comes; the cost of arming is O(log n).

Each due entry is handed to the callback in a task of its own (tracked, so :meth:`settle`
can wait for it), so one slow firing (a computer thinking) does not delay other games.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
from collections.abc import Awaitable, Callable, Hashable
from typing import Any

from bot.timing.time_source import Clock

log = logging.getLogger(__name__)

Fire = Callable[[Hashable, str, float], Awaitable[None]]


class Scheduler:
    def __init__(self, clock: Clock, fire: Fire | None = None) -> None:
        self.clock = clock
        #: called as ``fire(key, kind, due)`` when an entry is due; set before start()
        self.fire = fire
        self._heap: list[tuple[float, int, Hashable]] = []
        self._live: dict[Hashable, tuple[float, int, str]] = {}
        self._seq = itertools.count()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._sleeping_until: float | None = None
        self._firing: set[asyncio.Task[None]] = set()
        #: (key, kind, due, fired at) of the last firings, for the benchmark
        self.on_fired: Callable[[Hashable, str, float, float], None] | None = None

    # ------------------------------------------------------------------ arming
    def schedule(self, key: Hashable, when: float, kind: str) -> None:
        """``key`` fires ``kind`` at ``when`` (replacing whatever it had)."""
        old = self._live.get(key)
        if old is not None and old[0] == when and old[2] == kind:
            return
        seq = next(self._seq)
        self._live[key] = (when, seq, kind)
        heapq.heappush(self._heap, (when, seq, key))
        self._compact()
        if self._sleeping_until is None or when < self._sleeping_until:
            self._wake.set()

    def wake(self) -> None:
        """Look at the clock again now (it was moved: a test or a benchmark jumped it)."""
        self._wake.set()

    def cancel(self, key: Hashable) -> None:
        if self._live.pop(key, None) is not None:
            self._compact()

    def cancel_game(self, game_id: int) -> None:
        """Drop every entry whose key is ``(game_id, ...)``."""
        for key in [k for k in self._live if isinstance(k, tuple) and k and k[0] == game_id]:
            self.cancel(key)

    def due(self, key: Hashable) -> tuple[float, str] | None:
        entry = self._live.get(key)
        return None if entry is None else (entry[0], entry[2])

    def next_due(self) -> float | None:
        """The earliest live due time (None: nothing scheduled)."""
        self._drop_stale()
        return self._heap[0][0] if self._heap else None

    def __len__(self) -> int:
        return len(self._live)

    def _drop_stale(self) -> None:
        while self._heap:
            when, seq, key = self._heap[0]
            live = self._live.get(key)
            if live is not None and live[1] == seq:
                return
            heapq.heappop(self._heap)

    def _compact(self) -> None:
        if len(self._heap) > 2 * len(self._live) + 64:
            self._heap = [(w, s, k) for k, (w, s, _) in self._live.items()]
            heapq.heapify(self._heap)

    # ------------------------------------------------------------------ running
    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="tempus-scheduler")

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            self._drop_stale()
            if not self._heap:
                self._sleeping_until = None
                await self._wake.wait()
                continue
            when = self._heap[0][0]
            now = self.clock.now()
            if when > now:
                self._sleeping_until = when
                sleeper = asyncio.ensure_future(self.clock.sleep_until(when))
                waker = asyncio.ensure_future(self._wake.wait())
                try:
                    await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    sleeper.cancel()
                    waker.cancel()
                    self._sleeping_until = None
                continue
            _, seq, key = heapq.heappop(self._heap)
            live = self._live.get(key)
            if live is None or live[1] != seq:
                continue
            del self._live[key]
            self._spawn(key, live[2], live[0], now)

    def _spawn(self, key: Hashable, kind: str, due: float, now: float) -> None:
        if self.on_fired is not None:
            self.on_fired(key, kind, due, now)
        if self.fire is None:
            return
        task = asyncio.create_task(self._fire(key, kind, due), name=f"tempus-due-{key}")
        self._firing.add(task)
        task.add_done_callback(self._firing.discard)

    async def _fire(self, key: Hashable, kind: str, due: float) -> None:
        assert self.fire is not None
        try:
            await self.fire(key, kind, due)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("scheduled %s for %s failed", kind, key)

    async def settle(self) -> None:
        """Until nothing is due and no firing is in progress (tests: after
        :meth:`~bot.timing.time_source.FakeClock.advance`, which only wakes the scheduler's
        task)."""
        for _ in range(10_000):
            for _ in range(5):
                await asyncio.sleep(0)
            if self._firing:
                await asyncio.gather(*list(self._firing), return_exceptions=True)
                continue
            when = self.next_due()
            if when is None or when > self.clock.now():
                return
        raise RuntimeError("the scheduler does not settle")

    async def close(self) -> None:
        tasks: list[asyncio.Task[Any]] = [*self._firing]
        if self._task is not None:
            tasks.append(self._task)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._task = None
        self._firing.clear()
