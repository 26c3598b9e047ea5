"""``python -m tests.bot.bench_clock``: the turn clock with many games waiting on absent
players, in one process.

Opens ``--games`` three-seat games at the live pace (a real SQLite file, the real table
service, one scheduler) in which nobody ever answers, then measures:

- ``sched_bytes_per_game``: memory the scheduler holds per waiting game (tracemalloc of a
  scheduler armed with one entry per game, minus an empty one);
- ``rss_mb_per_1000_games``: the whole process's growth for the games (tables, states,
  scheduler), for context;
- ``idle_cpu_ms_per_game_hour``: process CPU while every game waits (``--idle`` seconds
  of real time, nothing due), per game and hour; ``tasks`` counts asyncio tasks then (one
  scheduler task, not one per game);
- ``fire_ms_p50/p95``: deadline -> the scheduler hands it over;
- ``action_ms_p50/p95``: deadline -> the computer's decision for the seat is stored.

For the last two the clock jumps to shortly before the first deadline, so that the
deadlines come due in real time over the span the games were opened in. Prints one JSON
line.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import resource
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from bot.store.rows import Deadlines
from bot.store.sqlite import SqliteStorage
from bot.table.service import TableService
from bot.timing.pace import PACES
from bot.timing.scheduler import Scheduler
from bot.timing.time_source import SystemClock
from tests.bot.bench import pct


class ShiftedClock(SystemClock):
    """The real time plus an offset the bench moves forward."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        return time.time() + self.offset

    async def sleep_until(self, when: float) -> None:
        while (left := when - self.now()) > 0:
            await asyncio.sleep(min(left, 60.0))


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def scheduler_bytes(n: int) -> float:
    """Bytes per entry of a scheduler armed with ``n`` entries (keys as the service's)."""
    sched = Scheduler(SystemClock())
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for i in range(n):
        sched.schedule((i, i % 5), 1e12 + i, "deadline")
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / n


async def main_async(games: int, idle_s: float) -> dict[str, Any]:
    clock = ShiftedClock()
    sched = Scheduler(clock)
    with tempfile.TemporaryDirectory() as tmp:
        store = await SqliteStorage.open(str(Path(tmp) / "bench.db"))
        svc = TableService(store, None, ai_delay=0, seed_source=lambda: 7, scheduler=sched)
        fired: dict[int, float] = {}
        due_of: dict[int, float] = {}

        def on_fired(key: Any, kind: str, due: float, at: float) -> None:
            if kind == "deadline":
                fired.setdefault(key[0], clock.now() - due)
                due_of.setdefault(key[0], due)
        sched.on_fired = on_fired
        acted: dict[int, float] = {}
        real_append = store.append_action

        async def append_action(game_id: int, version: int, seq: int, seat: int,
                                action: dict[str, Any], state: dict[str, Any], status: str,
                                deadlines: Deadlines = None) -> int:
            out = await real_append(game_id, version, seq, seat, action, state, status,
                                    deadlines)
            if game_id in due_of and game_id not in acted:
                acted[game_id] = clock.now() - due_of[game_id]
            return out
        # timed on purpose, on this one storage object
        store.append_action = append_action  # type: ignore[method-assign]

        rss0 = rss_mb()
        t0 = time.perf_counter()
        for i in range(games):
            o = await svc.lobby.create(1, 10_000 + i, 1_000_000 + 3 * i, "a", seats=3,
                                 pace_name="live", seed=i)
            await svc.join(o.game_id, 1_000_001 + 3 * i, "b")
            await svc.join(o.game_id, 1_000_002 + 3 * i, "c")
            await svc.start(o.game_id, 1_000_000 + 3 * i)
        opened_s = time.perf_counter() - t0
        rss1 = rss_mb()
        assert len(sched) == games, (len(sched), games)

        # idle: every game waits, nothing is due for a while
        await asyncio.sleep(0.5)
        tasks = len(asyncio.all_tasks())
        cpu0 = time.process_time()
        await asyncio.sleep(idle_s)
        idle_cpu = time.process_time() - cpu0

        # the deadlines come due: jump to shortly before the first one (the reminders
        # whose time has passed go out at once, one per game), then wait in real time
        deadlines = sorted(r.due_at for t in svc.tables for r in t.clock.values()
                           if r.due_at is not None)
        clock.offset += deadlines[0] - clock.now() - 3.0
        sched.wake()
        span = deadlines[-1] - deadlines[0]
        t1 = time.perf_counter()
        while len(acted) < games and time.perf_counter() - t1 < span + 60:
            await asyncio.sleep(0.2)
        await sched.close()
        await svc.close()
        await store.close()
    fire = [x * 1000 for x in fired.values()]
    act = [x * 1000 for x in acted.values()]
    return {
        "games": games,
        "open_s": round(opened_s, 1),
        "sched_bytes_per_game": round(scheduler_bytes(games)),
        "rss_mb_per_1000_games": round((rss1 - rss0) * 1000 / games, 1),
        "idle_s": idle_s,
        "idle_cpu_ms_per_game_hour": round(idle_cpu * 1000 / games * 3600 / idle_s, 3),
        "tasks": tasks,
        "deadline_span_s": round(span, 1),
        "fired": len(fire),
        "fire_ms_p50": round(pct(fire, 0.5), 1),
        "fire_ms_p95": round(pct(fire, 0.95), 1),
        "acted": len(act),
        "action_ms_p50": round(pct(act, 0.5), 1),
        "action_ms_p95": round(pct(act, 0.95), 1),
        "pace_s": PACES["live"].seconds,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--idle", type=float, default=10.0, help="seconds of idle measurement")
    args = ap.parse_args()
    print(json.dumps(asyncio.run(main_async(args.games, args.idle))))


if __name__ == "__main__":
    main()
