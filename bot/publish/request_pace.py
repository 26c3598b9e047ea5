"""Discord's global rate limit, kept rather than hit, and spent on what players wait for.

Besides the per-channel buckets (bot/publish/outbox.py), Discord allows a bot about 50 REST
requests per second in all; interaction endpoints (acknowledgements, follow-ups and edits
of the interaction's messages) are not bound to it (developers/topics/rate-limits, "Global
Rate Limit"), and Discord answers 429 with ``X-RateLimit-Global`` past it. discord.py only
reacts to such a 429 (it stops every request until the reset); with a hundred games at once
the bot's board posts and edits, DMs and look-ups together cross the line every second, and
Discord counts each 429 towards the invalid-request limit that bans a bot for an hour.

:func:`install` wraps the client's HTTP ``request`` so that every request that counts
waits for a free slot in a sliding window. Interaction requests never wait: their 3-second
and 15-minute clocks matter more, and Discord does not count them.

Once the budget is spent, the order of the waiting requests decides what players see
late. A request carries a **priority** (:func:`priority`, a context variable set by
whoever makes the request): the board of a game in which a person just acted or is now
prompted (:data:`URGENT`) goes before other boards (:data:`NORMAL`), which go before DMs
that nobody waits on and tidying up (:data:`BACKGROUND`); first come, first served within
one priority. A request that has waited ``AGING`` seconds goes up one priority, so DMs are
late under load but never starve. A request may also say how to tell that it is **no longer wanted**
(:func:`wanted`, e.g. a board edit whose game has moved on while it waited): such a
request is dropped when its turn comes, without spending a slot, by raising
:class:`Superseded` to its caller, which then writes the newest state instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import discord

from bot.publish.outbox import Pacer
from bot.runtime.worker_pool import Superseded
from bot.timing.time_source import loop_clock

#: Discord's limit is 50 per second; the margin covers clock differences and requests
#: that leave the pacer on time but reach Discord bunched (a busy event loop or network:
#: at 45 the load bench still drew a few dozen global 429s while 100 games were set up)
GLOBAL_LIMIT = 40
GLOBAL_PERIOD = 1.0
EXEMPT = ("/interactions/", "/webhooks/")

#: priorities (lower goes first)
URGENT, NORMAL, BACKGROUND = 0, 1, 2
#: seconds of waiting that count as one priority level (no request waits for ever)
AGING = 5.0

_priority: contextvars.ContextVar[int] = contextvars.ContextVar("tempus_priority",
                                                               default=NORMAL)
_wanted: contextvars.ContextVar[Callable[[], bool] | None] = contextvars.ContextVar(
    "tempus_wanted", default=None)


@contextlib.contextmanager
def priority(level: int, wanted: Callable[[], bool] | None = None) -> Iterator[None]:
    """Requests made inside this block (in this task) wait with ``level``; with ``wanted``,
    one that is no longer wanted when its turn comes raises :class:`Superseded`."""
    p, w = _priority.set(level), _wanted.set(wanted)
    try:
        yield
    finally:
        _priority.reset(p)
        _wanted.reset(w)


@dataclass
class _Waiter:
    level: int
    seq: int
    since: float
    future: asyncio.Future[None]
    wanted: Callable[[], bool] | None = None

    def rank(self, now: float) -> tuple[float, int]:
        return (self.level - (now - self.since) / AGING, self.seq)


class GlobalPace:
    """At most ``limit`` requests in any ``period`` seconds; waiting requests are served by
    priority, then in arrival order."""

    def __init__(self, limit: int = GLOBAL_LIMIT, period: float = GLOBAL_PERIOD,
                 clock: Callable[[], float] = loop_clock) -> None:
        self.pacer = Pacer(limit, period, clock)
        self.pacer.period = period  # no per-channel slack: the margin is in the limit
        self.clock = clock
        self._queue: list[_Waiter] = []
        self._seq = itertools.count()
        self._task: asyncio.Task[None] | None = None
        self.waited = 0  # requests that had to wait (for the operator's logs and tests)
        self.dropped = 0  # requests dropped as no longer wanted
        self.granted: dict[int, int] = {}  # by priority

    @property
    def waiting(self) -> int:
        return sum(1 for w in self._queue if not w.future.done())

    def busy(self) -> bool:
        """Whether a request made now would wait (the budget is spent or others wait)."""
        return self.waiting > 0 or self.pacer.delay() > 0

    async def slot(self, level: int = NORMAL, wanted: Callable[[], bool] | None = None
                   ) -> None:
        """Wait for a free slot; raises :class:`Superseded` if ``wanted`` says no when it
        is this request's turn."""
        if not self._queue and self.pacer.delay() <= 0:
            if wanted is not None and not wanted():
                self.dropped += 1
                raise Superseded()
            self._grant(level)
            return
        self.waited += 1
        w = _Waiter(level, next(self._seq), self.clock(),
                    asyncio.get_running_loop().create_future(), wanted)
        self._queue.append(w)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._serve(), name="tempus-global-pace")
        await w.future  # a cancelled waiter is skipped by _serve

    def _grant(self, level: int) -> None:
        self.pacer.note()
        self.granted[level] = self.granted.get(level, 0) + 1

    async def _serve(self) -> None:
        while self._queue:
            delay = self.pacer.delay()
            if delay > 0:
                await asyncio.sleep(delay)
                continue
            now = self.clock()
            w = min(self._queue, key=lambda x: x.rank(now))  # a few hundred at most
            self._queue.remove(w)
            if w.future.done():  # its request was cancelled
                continue
            if w.wanted is not None and not _still(w.wanted):
                self.dropped += 1
                w.future.set_exception(Superseded())
                continue
            self._grant(w.level)
            w.future.set_result(None)


def _still(wanted: Callable[[], bool]) -> bool:
    try:
        return bool(wanted())
    except Exception:  # a broken check must not stop the queue: send it
        return True


def counts(route: discord.http.Route) -> bool:
    """Whether Discord counts this request towards the global limit."""
    return not route.path.startswith(EXEMPT)


def install(http: discord.http.HTTPClient, pace: GlobalPace | None = None) -> GlobalPace:
    """Make ``http`` wait for ``pace`` before each request that counts, with the priority
    (and the test of being still wanted) of the context it is made in."""
    pace = pace or GlobalPace()
    original = http.request

    async def request(route: discord.http.Route, **kwargs: Any) -> Any:
        if counts(route):
            await pace.slot(_priority.get(), _wanted.get())
        return await original(route, **kwargs)

    # every request of this client goes through the pace: the method is replaced on the
    # instance, which mypy refuses for methods in general
    http.request = request  # type: ignore[method-assign]
    return pace
