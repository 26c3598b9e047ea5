"""One lazily built object per process (a cache a worker keeps for its lifetime).

The render caches are built from the environment at first use, not at import, so that a
worker process forked or spawned by the bot reads its own settings; tests and benches
replace them with one of their own.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class PerProcess(Generic[T]):
    """Holds the process's one ``T``, built by ``build`` on the first :meth:`get`."""

    def __init__(self, build: Callable[[], T]) -> None:
        self._build = build
        self._value: T | None = None
        self._lock = threading.Lock()

    def get(self) -> T:
        value = self._value
        if value is None:
            with self._lock:
                value = self._value
                if value is None:
                    value = self._value = self._build()
        return value

    def set(self, value: T | None) -> None:
        """Replace the object (tests, benchmarks); None: build it again at the next get."""
        with self._lock:
            self._value = value
