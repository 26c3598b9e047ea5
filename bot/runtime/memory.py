"""Keeping the process small while many games wait.

Two things make a long-running bot grow that no single game is to blame for:

- games nobody plays right now (a daily game waits hours for its next move) would stay
  loaded with their whole position and undo history: :meth:`TableService.unload_idle`
  forgets them, and they are loaded again from the store at their next use;
- Python gives freed memory back to the C allocator, but glibc keeps the freed pages of its
  heap unless asked: after a burst (many boards encoded, many games set up at once) the
  resident size stays at the burst's peak. ``malloc_trim(0)`` returns them to the system.

:class:`MemoryKeeper` does both every ``every_s`` seconds, in the bot process. A full
garbage collection of a big heap takes 100-500 ms of the event loop, so it runs only after
games were unloaded (or once every ``TRIM_EVERY_S`` at most otherwise); ``malloc_trim``
itself runs on a thread (ctypes lets go of the GIL while it works).

The keeper also takes over Python's collections of the oldest generation. Python starts
one whenever a quarter more objects than the long-lived ones have survived the young
generations; a busy bot has hundreds of thousands of objects that live for seconds (loaded
games, parsed interactions, waiting coroutines), so at 1,000 games in play it did that a
dozen times a minute, each 0.1-0.5 s with the event loop stopped, and acknowledgements
waited behind them. While the keeper runs, the young generations are collected as before
(a cycle that dies young is freed at once) and the oldest one once every
``COLLECT_EVERY_S``: garbage cycles that lived long wait at most that long. Load bench at
1,000 games: ack p95 250-305 -> 64 ms, garbage collection 120 -> 70 ms of the
event loop per second, resident size unchanged. Raising the youngest generation's threshold
as well (700 -> 10,000) made each young collection long enough to show in the
acknowledgements again (ack p95 123 ms): left at Python's default.

What start-up made (modules, classes, the catalogues, the game content, discord.py's own
objects: some 66,000) lives as long as the process; :func:`freeze_start_up` takes it out
of every later collection once, before any game is loaded, so that a full collection only
looks at what games and clients made: with 60 games in play (the load bench), the
keeper's full collections took 86-99 ms of the event loop before, 3-7 ms after.

Tried and dropped (load bench at 1,000 games): freezing the survivors of each
collection (``gc.freeze``), and collecting only the young generations before a trim. Both
left Python's own full collections as many and as slow (a dozen a minute, 0.1-0.5 s each:
they follow the number of objects that live for seconds, not the keeper), and both raised
the resident size per idle game from about 150 KB to 210-280 KB (a game's objects frozen
with the rest are never freed when it is unloaded; start-up's are never freed anyway).
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import logging
import time
from collections.abc import Callable

from bot.runtime.heap import libc_function
from bot.runtime.tasks import cancel_and_wait

log = logging.getLogger(__name__)

#: a game untouched this long is unloaded (loading it again costs a log replay: ms)
UNLOAD_AFTER_S = 300.0
EVERY_S = 60.0
#: without unloads, give freed pages back at most this often (after a burst of boards)
TRIM_EVERY_S = 600.0
#: the oldest generation is collected this often while the keeper runs (never by Python)
COLLECT_EVERY_S = 60.0
#: a threshold Python's count of young collections never reaches
NEVER = 2**30


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None on a C library without it (musl, macOS)."""
    return libc_function("malloc_trim", ctypes.c_size_t)


def trim() -> bool:
    """Collect garbage and give the allocator's free pages back to the system; whether
    the C library could (False where there is no ``malloc_trim``)."""
    gc.collect()
    fn = _malloc_trim()
    if fn is None:
        return False
    fn(0)
    return True


async def trim_async() -> bool:
    """:func:`trim` with the allocator's part on a thread: the event loop pays only for
    the garbage collection."""
    gc.collect()
    fn = _malloc_trim()
    if fn is None:
        return False
    await asyncio.to_thread(fn, 0)
    return True


_start_up_frozen = False


def freeze_start_up() -> bool:
    """Take everything alive now out of every later collection (``gc.freeze``), once per
    process; whether it did now. For the end of start-up, before any game is loaded: a
    game's objects must stay collectable (see the module's docstring)."""
    global _start_up_frozen
    if _start_up_frozen:
        return False
    _start_up_frozen = True
    gc.collect()  # garbage is not frozen
    gc.freeze()
    return True


#: the running keepers (one per bot, several in a test process) and Python's thresholds
#: from before the first of them started
_keepers: set[MemoryKeeper] = set()
_thresholds: list[tuple[int, int, int]] = []


def _take_over_oldest(keeper: MemoryKeeper) -> None:
    """Python no longer collects the oldest generation on its own while ``keeper`` runs."""
    if not _keepers:
        _thresholds[:] = [gc.get_threshold()]
    _keepers.add(keeper)
    young, middle, _ = _thresholds[0]
    gc.set_threshold(young, middle, NEVER)


def _give_back_oldest(keeper: MemoryKeeper) -> None:
    """Python's own thresholds again once the last running keeper has stopped."""
    if keeper not in _keepers:
        return
    _keepers.discard(keeper)
    if not _keepers:
        gc.set_threshold(*_thresholds.pop())


class MemoryKeeper:
    """Every ``every_s`` seconds: unload the games idle for ``unload_after_s`` (through
    ``unload``, which returns how many it unloaded), call each of ``also`` (other per-game
    or per-channel things that are dropped when idle, e.g. empty outboxes), then
    :func:`trim`. From :meth:`start` to :meth:`close` it also collects the oldest
    generation every ``collect_every_s`` (and Python does not; see the module's
    docstring)."""

    def __init__(self, unload: Callable[[float], int], *, every_s: float = EVERY_S,
                 unload_after_s: float = UNLOAD_AFTER_S,
                 also: tuple[Callable[[], object], ...] = (),
                 trim_every_s: float = TRIM_EVERY_S,
                 collect_every_s: float = COLLECT_EVERY_S) -> None:
        self._unload = unload
        self._also = also
        self.every_s = every_s
        self.unload_after_s = unload_after_s
        self.trim_every_s = trim_every_s
        self.collect_every_s = collect_every_s
        self._trimmed_at = self._collected_at = time.monotonic()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None and self.every_s > 0:
            _take_over_oldest(self)
            self._collected_at = time.monotonic()
            self._task = asyncio.create_task(self._run(), name="tempus-memory")

    def once(self) -> int:
        """Unload and forget; returns how many games were unloaded."""
        gone = self._unload(self.unload_after_s)
        for forget in self._also:
            forget()
        return gone

    def trim_due(self, gone: int) -> bool:
        """Whether this round trims: after unloads, else when ``trim_every_s`` has passed."""
        return gone > 0 or time.monotonic() - self._trimmed_at >= self.trim_every_s

    def collect_due(self) -> bool:
        """Whether this round collects the oldest generation (a trim does anyway)."""
        return time.monotonic() - self._collected_at >= self.collect_every_s

    async def round(self) -> int:
        """One round: :meth:`once`, then a trim when :meth:`trim_due`, else a full
        collection when :meth:`collect_due`."""
        t0 = time.perf_counter()
        gone = self.once()
        trimmed = False
        if self.trim_due(gone):
            self._trimmed_at = self._collected_at = time.monotonic()
            trimmed = await trim_async()
        elif self.collect_due():
            self._collected_at = time.monotonic()
            gc.collect()
        log.debug("memory: %d idle game(s) unloaded, trimmed=%s, %.1f ms", gone, trimmed,
                  (time.perf_counter() - t0) * 1000)
        return gone

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every_s)
            try:
                await self.round()
            except Exception:  # never let housekeeping take the bot down
                log.exception("memory housekeeping failed")

    async def close(self) -> None:
        await cancel_and_wait(self._task)
        self._task = None
        _give_back_oldest(self)
