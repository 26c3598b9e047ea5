"""A rate limit per link: a token bucket per key (a link's MAC), memory bounded.

Every request on a link takes one token from its bucket; the bucket holds ``burst`` and
refills at ``rate`` a second. A page's own use (its first load, a tap now and then, the
one stream it keeps open) stays far below it; a script hammering one link is answered
"too many requests" at once, before any work.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Hashable


class RateLimit:
    def __init__(self, rate: float = 5.0, burst: float = 20.0, *, keys: int = 20_000,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._now = now
        #: key -> (tokens left, when counted); the least recently used go first
        self._buckets: OrderedDict[Hashable, tuple[float, float]] = OrderedDict()
        self._keys = keys

    def allow(self, key: Hashable, cost: float = 1.0) -> bool:
        """Whether a request on ``key`` may go ahead now (and count it if so)."""
        now = self._now()
        tokens, then = self._buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        ok = tokens >= cost
        self._buckets[key] = (tokens - cost if ok else tokens, now)
        while len(self._buckets) > self._keys:
            self._buckets.popitem(last=False)
        return ok
