"""One asyncio lock per key (a game), forgotten as soon as nobody holds or waits for it.

Loading a game from the store must happen once even when several clicks for it arrive
together, but the loads of *different* games must not queue behind one another: after a
restart or a quiet spell, a thousand people may come back at once, and one lock for all
loads made the last of them wait a minute for the 999 before it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Hashable


class KeyedLocks:
    """``async with locks(key):`` holds the lock of ``key`` only."""

    def __init__(self) -> None:
        #: key -> (its lock, how many hold it or wait for it)
        self._locks: dict[Hashable, tuple[asyncio.Lock, int]] = {}

    @contextlib.asynccontextmanager
    async def __call__(self, key: Hashable) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def __len__(self) -> int:
        """How many keys are held or waited for now."""
        return len(self._locks)
