"""Time sources: the real one, and one the tests drive.

Deadlines are stored and shown as wall-clock times (Unix seconds: Discord's ``<t:UNIX:R>``
needs them, and they must mean the same after a restart), so :meth:`Clock.now` is
``time.time()``, not the event loop's monotonic clock. Nothing that waits for a deadline
calls ``asyncio.sleep`` itself: it calls :meth:`Clock.sleep_until`, which
:class:`FakeClock` completes only when a test moves its time forward with
:meth:`FakeClock.advance`. No test ever sleeps for a deadline.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from typing import Protocol

#: the longest single real sleep: a wall clock that jumps (NTP, a suspended laptop) is
#: noticed within this many seconds
MAX_NAP = 60.0


def loop_clock() -> float:
    """Monotonic seconds as the running event loop counts them (``loop.time()``;
    ``time.monotonic()`` outside a loop, the same clock as a standard loop's).

    Whatever measures the intervals it then waits out with ``asyncio.sleep`` (the pacing of
    Discord's buckets, tokens' ages) reads this, so the measure and the wait keep to one
    clock even under a loop whose clock is not the wall's (a test loop that skips idle
    waits)."""
    try:
        return asyncio.get_running_loop().time()
    except RuntimeError:
        return time.monotonic()


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the Unix epoch."""
        ...

    async def sleep_until(self, when: float) -> None:
        """Return once ``now() >= when`` (at once if it already is). Cancellable."""
        ...


class SystemClock:
    """The real time."""

    def now(self) -> float:
        return time.time()

    async def sleep_until(self, when: float) -> None:
        while (left := when - time.time()) > 0:
            await asyncio.sleep(min(left, MAX_NAP))


class FakeClock:
    """A clock that stands still until :meth:`advance` moves it; sleepers wake then."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()

    def now(self) -> float:
        return self._now

    async def sleep_until(self, when: float) -> None:
        if when <= self._now:
            await asyncio.sleep(0)  # still a suspension point, as a real sleep would be
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (when, next(self._seq), fut))
        await fut  # a cancelled sleeper leaves a done future behind: skipped on wake

    def advance(self, seconds: float) -> int:
        """Move time forward and wake every sleeper that is due; returns how many woke.
        The woken tasks run when the caller next yields to the event loop."""
        if seconds < 0:
            raise ValueError("time does not go backwards")
        self._now += seconds
        woken = 0
        while self._sleepers and self._sleepers[0][0] <= self._now:
            _, _, fut = heapq.heappop(self._sleepers)
            if not fut.done():
                fut.set_result(None)
                woken += 1
        return woken

    def set(self, when: float) -> int:
        """Move time forward to ``when`` (see :meth:`advance`)."""
        return self.advance(max(0.0, when - self._now))

    @property
    def sleepers(self) -> int:
        """Sleepers still waiting (for tests of the scheduler's cost)."""
        return sum(1 for _, _, f in self._sleepers if not f.done())
