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
import math
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
    future: asyncio.Future[int]
    wanted: Callable[[], bool] | None = None
    answered: bool = False

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
        #: requests granted and not yet answered, by ticket: their grant times
        self._flying: dict[int, float] = {}
        self._tickets = itertools.count()
        self._freed = asyncio.Event()
        self.waited = 0  # requests that had to wait (for the operator's logs and tests)
        self.dropped = 0  # requests dropped as no longer wanted
        self.granted: dict[int, int] = {}  # by priority

    @property
    def waiting(self) -> int:
        return sum(1 for w in self._queue if not w.future.done())

    def busy(self) -> bool:
        """Whether a request made now would wait (the budget is spent or others wait)."""
        return self.waiting > 0 or self._delay() > 0

    def _delay(self) -> float:
        """Seconds until a request may go (0: now; inf: when one in flight is answered).

        A request counts from its grant until ``period`` after its answer: it reaches
        Discord somewhere in between, so any ``period`` at Discord holds at most ``limit``
        of them, however late a busy event loop sends them or however slowly they travel
        (counted from the grant alone, bunched requests drew global 429s while the load
        bench set 100 games up)."""
        p = self.pacer
        now = self.clock()
        while p._times and now - p._times[0] >= p.period:
            p._times.popleft()
        # in flight and granted longer ago than the window: no longer in ``_times``
        old = sum(1 for t in self._flying.values() if now - t >= p.period)
        over = len(p._times) + old - p.limit
        if over < 0:
            return 0.0
        if over < len(p._times):
            return p._times[over] + p.period - now
        return math.inf

    async def slot(self, level: int = NORMAL, wanted: Callable[[], bool] | None = None,
                   *, answered: bool = False) -> int:
        """Wait for a free slot; raises :class:`Superseded` if ``wanted`` says no when it
        is this request's turn. ``answered``: the caller calls :meth:`done` with the
        returned ticket once the request is answered, and it counts until a period after
        that (else from its grant only)."""
        if not self._queue and self._delay() <= 0:
            if wanted is not None and not wanted():
                self.dropped += 1
                raise Superseded()
            return self._grant(level, answered)
        self.waited += 1
        w = _Waiter(level, next(self._seq), self.clock(),
                    asyncio.get_running_loop().create_future(), wanted, answered)
        self._queue.append(w)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._serve(), name="tempus-global-pace")
        return await w.future  # a cancelled waiter is skipped by _serve

    def _grant(self, level: int, answered: bool = False) -> int:
        self.pacer.note()
        self.granted[level] = self.granted.get(level, 0) + 1
        ticket = next(self._tickets)
        if answered:
            self._flying[ticket] = self.clock()
        return ticket

    def done(self, ticket: int) -> None:
        """The request of ``ticket`` was answered: it counts from now for one period."""
        granted = self._flying.pop(ticket, None)
        if granted is None:
            return
        times = self.pacer._times
        with contextlib.suppress(ValueError):
            times.remove(granted)
        times.append(self.clock())
        self._freed.set()

    async def _serve(self) -> None:
        while self._queue:
            delay = self._delay()
            if delay > 0:
                self._freed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._freed.wait(), min(delay, self.pacer.period))
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
            w.future.set_result(self._grant(w.level, w.answered))


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
        if not counts(route):
            return await original(route, **kwargs)
        ticket = await pace.slot(_priority.get(), _wanted.get(), answered=True)
        try:
            return await original(route, **kwargs)
        finally:
            pace.done(ticket)

    # every request of this client goes through the pace: the method is replaced on the
    # instance, which mypy refuses for methods in general
    http.request = request  # type: ignore[method-assign]
    return pace
