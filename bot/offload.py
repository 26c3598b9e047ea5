"""Running CPU-heavy work (rendering, computer players) off the event loop.

With ``workers > 0`` a process pool does the work, so that neither Pillow's pure-Python
parts nor an AI search hold the GIL while the bot must acknowledge interactions within
Discord's 3 seconds. With ``workers == 0`` a thread is used (tests, the console).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


class Offloader:
    def __init__(self, workers: int = 0) -> None:
        self.workers = workers
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        if workers > 0:
            ctx = multiprocessing.get_context("spawn")
            self._pool = concurrent.futures.ProcessPoolExecutor(workers, mp_context=ctx)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        if self._pool is None:
            return await asyncio.to_thread(fn, *args)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, fn, *args)

    async def warm_up(self) -> None:
        """Start the worker processes (imports included) before the first real job."""
        if self._pool is not None:
            from . import images

            await asyncio.gather(*(self.run(images.warm) for _ in range(self.workers)))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
