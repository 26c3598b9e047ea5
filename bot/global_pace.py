"""Discord's global rate limit, kept rather than hit.

Besides the per-channel buckets (bot/outbox.py), Discord allows a bot about 50 REST
requests per second in all, interaction endpoints (acknowledgements and follow-ups)
excepted, and answers 429 with ``X-RateLimit-Global`` past that. discord.py only reacts to
such a 429 (it stops every request until the reset); with a hundred games at once the
bot's DMs, board edits and channel look-ups together cross the line every second, and
Discord counts each 429 towards the invalid-request limit that bans a bot for an hour.

:func:`install` wraps the client's HTTP ``request`` so that every request that counts
waits for a free slot in a sliding window, in arrival order. Interaction requests never
wait: their 3-second and 15-minute clocks matter more, and Discord does not count them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import discord

from .outbox import Pacer

#: Discord's limit is 50 per second; a margin keeps clock differences from crossing it
GLOBAL_LIMIT = 45
GLOBAL_PERIOD = 1.0
EXEMPT = ("/interactions/", "/webhooks/")


class GlobalPace:
    """At most ``limit`` requests in any ``period`` seconds, served first come, first
    served."""

    def __init__(self, limit: int = GLOBAL_LIMIT, period: float = GLOBAL_PERIOD,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.pacer = Pacer(limit, period, clock)
        self.pacer.period = period  # no per-channel slack: the margin is in the limit
        self._turn = asyncio.Lock()
        self.waited = 0  # requests that had to wait (for the operator's logs and tests)

    async def slot(self) -> None:
        async with self._turn:
            delay = self.pacer.delay()
            if delay > 0:
                self.waited += 1
            while delay > 0:
                await asyncio.sleep(delay)
                delay = self.pacer.delay()
            self.pacer.note()


def counts(route: discord.http.Route) -> bool:
    """Whether Discord counts this request towards the global limit."""
    return not route.path.startswith(EXEMPT)


def install(http: discord.http.HTTPClient, pace: GlobalPace | None = None) -> GlobalPace:
    """Make ``http`` wait for ``pace`` before each request that counts."""
    pace = pace or GlobalPace()
    original = http.request

    async def request(route: discord.http.Route, **kwargs: Any) -> Any:
        if counts(route):
            await pace.slot()
        return await original(route, **kwargs)

    http.request = request  # type: ignore[method-assign]
    return pace
