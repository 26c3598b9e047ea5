"""``python -m tests.bot.timed_bot``: ``python -m bot`` unchanged, plus two database timers
for the load bench (:mod:`tests.bot.bench_load`), written as JSON to the file named by
``$TEMPUS_BENCH_DB_STATS`` five times a second.

- ``engine_s``/``engine_calls`` (SQLite only): wall time spent inside SQLite calls on
  aiosqlite's connection thread (every statement, fetch and ``COMMIT``, the fsync of
  ``synchronous=FULL`` included), measured on that thread around each call. This is the
  SQLite counterpart of PostgreSQL's server-side statement time, which the bench reads from
  ``pg_stat_statements`` instead (the server is another process). It includes the time the
  thread waits to take the GIL back after SQLite released it (the price of running SQLite
  in the bot's process); ``engine_cpu_s`` is the thread's CPU time in the same calls.
- ``held_s``/``held_count`` (both backends): wall time the bot held the database, as its
  event loop sees it: SQLite, the storage's one lock (taken by the transactions of several
  round trips; the jobs handed to the connection's thread whole, which are most reads and
  the busy writes, pass it without holding it); PostgreSQL, a pooled
  connection from acquire to release. It adds to the engine time what the bot pays around
  it: round trips to the server, waking the event loop between statements.

And one render counter, ``boards_drawn``: boards the render workers finished (a board
drawn but then not written, because the game moved on meanwhile, is wasted work).

And two event-loop gauges, for why acknowledgements are late under load:

- ``lag_le_<ms>``: a histogram of how long a callback handed to the event loop from
  another thread waits before it runs, sampled every ``LAG_EVERY_S`` (an interaction
  that arrives waits about as long before its handler starts);
- ``gc_s``/``gc_count``/``gc_full_count``/``gc_over_100ms``: the bot process's garbage
  collections (``gc.callbacks``); a full collection stops the event loop while it runs.

For diagnosis, files on request: ``$TEMPUS_BENCH_GC_LOG`` gets a line per collection over
100 ms (``$TEMPUS_BENCH_GC_LOG_MS``, if set), ``$TEMPUS_BENCH_GC_TYPES`` the collector's
objects counted by type every 20 s,
``$TEMPUS_BENCH_MEM`` the resident memory by kind of mapping every 30 s (and, in
``$TEMPUS_BENCH_MEM.malloc``, Python's small-object allocator's own statistics: how much of
its arenas is in use and how much is free but held), ``$TEMPUS_BENCH_CPROFILE``
cProfile's statistics of the event loop's thread (:func:`_cprofile`),
``$TEMPUS_BENCH_STAGES`` where a board's time goes, over each 10 s
(:func:`_trace_stages`: from the commit to the outbox running the game's item, to the
drawn board, to the write answered, and the write's route; the render slot's wait; each
job's time in the worker pool).

Nothing in ``bot/`` changes: the timers wrap ``aiosqlite.Connection._execute``,
``SqliteStorage`` (its lock), ``PgStorage._con`` and ``Offloader._call`` before the bot
starts. The render and AI worker processes (``spawn``) import this module as
``__mp_main__``, which installs nothing (they open no database).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import json
import os
import sys
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from typing import Any, Literal, TypeVar

import aiosqlite.core

from bot.client import app
from bot.runtime import worker_pool as offload
from bot.store import postgres as storage_pg
from bot.store import sqlite as storage
from games.tempus import images

ENV = "TEMPUS_BENCH_DB_STATS"
PERIOD_S = 0.2
LAG_EVERY_S = 0.05
#: upper bounds of the lag histogram's buckets, ms (the last catches everything)
LAG_BUCKETS_MS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10**9)

T = TypeVar("T")

# The timers below replace methods of the bot's classes on purpose, before the bot starts
# (``# type: ignore[method-assign]``); each wrapper has the signature of what it wraps, so
# that mypy still sees a wrapper or a call of the original that no longer matches.


class Counters:
    def __init__(self) -> None:
        self.guard = threading.Lock()
        self.engine_s = 0.0
        self.engine_cpu_s = 0.0
        self.engine_calls = 0
        self.held_s = 0.0
        self.held_count = 0
        self.boards_drawn = 0
        self.lags = dict.fromkeys(LAG_BUCKETS_MS, 0)
        self.gc_s = 0.0
        self.gc_count = 0
        self.gc_full_count = 0
        self.gc_over_100ms = 0

    def engine(self, seconds: float, cpu_s: float) -> None:
        with self.guard:  # (several aiosqlite threads: the bot's, check-db's ...)
            self.engine_s += seconds
            self.engine_cpu_s += cpu_s
            self.engine_calls += 1

    def held(self, seconds: float) -> None:
        self.held_s += seconds  # the event loop's thread only
        self.held_count += 1

    def snapshot(self) -> dict[str, float]:
        with self.guard:
            return {"engine_s": self.engine_s, "engine_cpu_s": self.engine_cpu_s,
                    "engine_calls": self.engine_calls,
                    "held_s": self.held_s, "held_count": self.held_count,
                    "boards_drawn": self.boards_drawn,
                    **{f"lag_le_{b}": n for b, n in self.lags.items()},
                    "gc_s": self.gc_s, "gc_count": self.gc_count,
                    "gc_full_count": self.gc_full_count, "gc_over_100ms": self.gc_over_100ms}

    def lag(self, seconds: float) -> None:
        ms = seconds * 1000
        for b in LAG_BUCKETS_MS:
            if ms <= b:
                self.lags[b] += 1
                return


COUNTERS = Counters()


def _timed_call(function: Callable[[], Any]) -> Callable[[], Any]:
    def timed() -> Any:
        start, cpu = time.perf_counter(), time.thread_time()
        try:
            return function()
        finally:
            COUNTERS.engine(time.perf_counter() - start, time.thread_time() - cpu)
    return timed


class TimedLock(asyncio.Lock):
    """``asyncio.Lock`` that adds the time from each acquire to its release."""

    _since = 0.0

    async def acquire(self) -> Literal[True]:
        got = await super().acquire()
        self._since = time.perf_counter()
        return got

    def release(self) -> None:
        COUNTERS.held(time.perf_counter() - self._since)
        super().release()


def install() -> None:
    original_execute = aiosqlite.core.Connection._execute

    async def _execute(self: aiosqlite.Connection, fn: Callable[..., Any], *args: Any,
                       **kwargs: Any) -> Any:
        return await original_execute(self, _timed_call(functools.partial(fn, *args,
                                                                          **kwargs)))
    aiosqlite.core.Connection._execute = _execute  # type: ignore[method-assign]

    original_init = storage.SqliteStorage.__init__

    def __init__(self: storage.SqliteStorage, *args: Any, **kwargs: Any) -> None:
        original_init(self, *args, **kwargs)
        self._lock = TimedLock()
    storage.SqliteStorage.__init__ = __init__  # type: ignore[method-assign]

    original_call = offload.Offloader._call

    async def _call(self: offload.Offloader, fn: Callable[..., T], *args: Any) -> T:
        out = await original_call(self, fn, *args)
        if fn is images.board_png_and_alt:
            COUNTERS.boards_drawn += 1  # the event loop's thread only
        return out
    offload.Offloader._call = _call  # type: ignore[method-assign]

    original_hook = app.TempusBot.setup_hook

    async def setup_hook(self: app.TempusBot) -> None:
        await original_hook(self)
        threading.Thread(target=_lag_sampler, args=(asyncio.get_running_loop(),),
                         daemon=True, name="loop-lag").start()
        spec = os.environ.get("TEMPUS_BENCH_CPROFILE")
        if spec:
            _cprofile(asyncio.get_running_loop(), spec)
    app.TempusBot.setup_hook = setup_hook  # type: ignore[method-assign]
    gc.callbacks.append(_gc_timer)

    original_con = storage_pg.PgStorage._con

    @contextlib.asynccontextmanager
    async def _con(self: storage_pg.PgStorage) -> AsyncIterator[Any]:  # asyncpg: untyped
        async with original_con(self) as con:
            start = time.perf_counter()
            try:
                yield con
            finally:
                COUNTERS.held(time.perf_counter() - start)
    storage_pg.PgStorage._con = _con  # type: ignore[method-assign]


STAGES: dict[str, list[float]] = {}


def _stage(name: str, seconds: float) -> None:
    STAGES.setdefault(name, []).append(seconds * 1000)


def _trace_stages(path: str, every_s: float = 10.0) -> None:
    """Time the turn message's writes (bot.publish.publisher) by stage, for boards a person waits
    on (URGENT) and the others: ``queued`` commit -> the outbox runs the game's item,
    ``drawn`` commit -> the board drawn (the render slot's wait and the drawing),
    ``write`` the write itself (the global pace's wait for a channel route, Discord's
    answer), by route (``carried`` with a click's token, ``channel``); and the render
    slot's wait by level, and each job's time in the worker pool by function (sent, run,
    answered). Each line of ``path`` holds the last ``every_s`` seconds."""
    from bot.publish import publisher
    from bot.table.model import Outcome

    P = publisher.DiscordPublisher
    original_sync, original_write = P._sync, P._write

    def kind(o: Outcome) -> str:
        return "urgent" if P._urgency(o) == publisher.URGENT else "normal"

    async def _sync(self: publisher.DiscordPublisher, turn: publisher.TurnMessage) -> bool:
        o = turn.outcome
        if o is not None:
            _stage(f"{kind(o)}.queued", time.perf_counter() - o.committed_at)
        return await original_sync(self, turn)

    async def _write(self: publisher.DiscordPublisher, turn: publisher.TurnMessage,
                     o: Outcome, serial: int, png: bytes | None, alt: str | None) -> bool:
        start = time.perf_counter()
        route = "carried" if self._carrier(turn) is not None else "channel"
        _stage(f"{kind(o)}.drawn", start - o.committed_at)
        try:
            return await original_write(self, turn, o, serial, png, alt)
        finally:
            _stage(f"{kind(o)}.write.{route}", time.perf_counter() - start)
    P._sync, P._write = _sync, _write  # type: ignore[method-assign]

    Off = offload.Offloader
    original_newest, original_call = Off.newest, Off._call

    @contextlib.asynccontextmanager
    async def newest(self: offload.Offloader, key: Hashable, level: int = 0
                     ) -> AsyncIterator[Callable[..., Awaitable[Any]]]:
        start = time.perf_counter()
        async with original_newest(self, key, level) as run:
            _stage(f"render.slot_wait.level{level}", time.perf_counter() - start)
            yield run

    async def call(self: offload.Offloader, fn: Callable[..., T], *args: Any) -> T:
        start = time.perf_counter()
        try:
            return await original_call(self, fn, *args)
        finally:
            _stage(f"offload.{getattr(fn, '__name__', '?')}", time.perf_counter() - start)
    Off.newest, Off._call = newest, call  # type: ignore[method-assign]

    def dump() -> None:
        while True:
            time.sleep(every_s)
            out = {}
            for name in sorted(STAGES):
                values = STAGES.pop(name)  # (a write that lands meanwhile starts anew)
                v = sorted(values)
                out[name] = {"n": len(values), "p50": round(v[len(v) // 2]),
                             "p95": round(v[int(len(v) * .95)])}
            with open(path, "a") as f:
                print(json.dumps({"t": time.time(), **out}), file=f)
    threading.Thread(target=dump, daemon=True, name="stages").start()


def _cprofile(loop: asyncio.AbstractEventLoop, spec: str) -> None:
    """Diagnosis only ($TEMPUS_BENCH_CPROFILE = ``path,delay,seconds``): cProfile over the
    event loop's thread from ``delay`` seconds after start-up for ``seconds``, its
    statistics dumped to ``path`` (exact call counts; the times are cProfile's, inflated
    by its own cost, and are the thread's CPU time: on a core shared with the workers,
    wall time would also count the moments the core was theirs)."""
    import cProfile

    path, delay, seconds = spec.split(",")
    profiler = cProfile.Profile(time.thread_time)

    def stop() -> None:
        profiler.disable()
        profiler.dump_stats(path)
    loop.call_later(float(delay), profiler.enable)
    loop.call_later(float(delay) + float(seconds), stop)


def _lag_since(sent: float) -> None:
    COUNTERS.lag(time.perf_counter() - sent)


def _lag_sampler(loop: asyncio.AbstractEventLoop) -> None:
    while not loop.is_closed():
        sent = time.perf_counter()
        try:
            loop.call_soon_threadsafe(_lag_since, sent)
        except RuntimeError:  # the loop closed meanwhile
            return
        time.sleep(LAG_EVERY_S)


_gc_started = 0.0


def _gc_timer(phase: str, info: dict[str, int]) -> None:
    global _gc_started
    if phase == "start":
        _gc_started = time.perf_counter()
        return
    took = time.perf_counter() - _gc_started
    # a file: the slow ones (over $TEMPUS_BENCH_GC_LOG_MS, default 100), one a line
    slow_log = os.environ.get("TEMPUS_BENCH_GC_LOG")
    if slow_log and took * 1000 > float(os.environ.get("TEMPUS_BENCH_GC_LOG_MS") or 100):
        with open(slow_log, "a") as f:
            print(f"{time.time():.1f} gc gen {info.get('generation')} {took * 1000:.0f} ms "
                  f"collected {info.get('collected')} frozen {gc.get_freeze_count()}", file=f)
    with COUNTERS.guard:
        COUNTERS.gc_s += took
        COUNTERS.gc_count += 1
        COUNTERS.gc_full_count += info.get("generation") == 2
        COUNTERS.gc_over_100ms += took > 0.1


def _type_census(path: str, every_s: float = 20.0) -> None:
    """Diagnosis only ($TEMPUS_BENCH_GC_TYPES): what the collector's objects are, by type,
    every ``every_s`` (appended to ``path``)."""
    import collections

    while True:
        time.sleep(every_s)
        objs = gc.get_objects()
        c = collections.Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in objs)
        del objs
        with open(path, "a") as f:
            print(json.dumps({"t": time.time(), "total": sum(c.values()),
                              "top": c.most_common(40)}), file=f)


def _memory_census(path: str, every_s: float = 30.0) -> None:
    """Diagnosis only ($TEMPUS_BENCH_MEM): where the resident memory is (by mapping kind,
    from /proc/self/smaps) and pymalloc's own statistics, every ``every_s``."""
    import collections
    import re

    while True:
        time.sleep(every_s)
        kinds: collections.Counter[str] = collections.Counter()
        name = ""
        with open("/proc/self/smaps") as f:
            for line in f:
                head = line.split()
                if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
                    name = head[5] if len(head) > 5 else "[anon]"
                    if name.startswith("/"):
                        name = "file:" + name.rsplit("/", 1)[-1]
                elif head and head[0] == "Rss:":
                    kinds[name] += int(head[1])
        fd = os.open(path + ".malloc", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        saved = os.dup(2)
        try:
            os.dup2(fd, 2)
            os.write(2, f"--- {time.time()}\n".encode())
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            os.close(fd)
        with open(path, "a") as f:
            print(json.dumps({"t": time.time(), "rss_kb": sum(kinds.values()),
                              "tracked": len(gc.get_objects()),
                              "by_kind": kinds.most_common(12)}), file=f)


def _writer(path: str) -> None:
    tmp = f"{path}.tmp"
    while True:
        with open(tmp, "w") as f:
            json.dump(COUNTERS.snapshot(), f)
        os.replace(tmp, path)
        time.sleep(PERIOD_S)


if __name__ == "__main__":
    from bot.__main__ import main

    install()
    out = os.environ.get(ENV)
    census = os.environ.get("TEMPUS_BENCH_GC_TYPES")
    if census:
        threading.Thread(target=_type_census, args=(census,), daemon=True).start()
    mem = os.environ.get("TEMPUS_BENCH_MEM")
    if mem:
        threading.Thread(target=_memory_census, args=(mem,), daemon=True).start()
    stages = os.environ.get("TEMPUS_BENCH_STAGES")
    if stages:
        _trace_stages(stages)
    if out:
        threading.Thread(target=_writer, args=(out,), daemon=True, name="db-stats").start()
    sys.exit(main(sys.argv[1:]))
