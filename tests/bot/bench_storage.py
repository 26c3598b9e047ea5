"""``python -m tests.bot.bench_storage``: storage speed under many concurrent games, SQLite
and PostgreSQL side by side.

Each of ``--games`` games (3 seats, started with a real Tempus position) gets
``--actions`` accepted actions, written as the table service writes them
(``append_action``: the version check, the log entry and the new snapshot in one
transaction), all games at once. Payloads come from a real random game, so the log entries
and snapshots have their real sizes. Prints a table: appends per second over the run and
database time per action (how long one ``append_action`` call took, waiting for the
connection included: p50, p95, mean), the process's CPU time per append (SQLite: the
event loop and the connection's thread; not known for several processes), and with the
journal of changes the bot keeps beside a SQLite file (bot/store/journal.py,
``--journal``) its syncs per append: one per group commit, beside SQLite's own.

SQLite runs in this process (one connection, WAL, ``synchronous=FULL``); PostgreSQL is a
throw-away server started from the local binaries with the production settings (fsync
on, ``synchronous_commit=on``), or ``--url``; ``--processes`` splits the games over that
many processes (each with its own connection pool), as sharded bot processes do.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from bot.store import ACTIVE
from bot.store.journal import Journal
from bot.store.opening import open_storage
from bot.store.sqlite import SqliteStorage
from engine.game import apply_in_place, decisions
from engine.setup import new_game
from engine.simulate import random_action

Trace = list[tuple[int, dict[str, Any], dict[str, Any]]]


def trace(steps: int, seed: int = 1) -> tuple[dict[str, Any], Trace]:
    """A start position and ``steps`` (seat, action, snapshot after) of random games."""
    rng = random.Random(seed)
    state, _ = new_game(3, seed, random_map=True)
    start = state.to_json()
    out: Trace = []
    while len(out) < steps:
        if not decisions(state):
            state, _ = new_game(3, rng.randrange(1 << 30), random_map=True)
        seat = rng.choice(decisions(state)).seat
        action = random_action(state, seat, rng)
        apply_in_place(state, seat, action)
        out.append((seat, action.to_json(), state.to_json()))
    return start, out


async def _setup(target: str, games: int, start: dict[str, Any]) -> list[tuple[int, int]]:
    store = await open_storage(target)
    try:
        made = []
        base = random.randrange(1 << 40)  # fresh channels: runs may share a database
        for i in range(games):
            g = await store.create_game(1, base + i, 100, "Ann", {"max_seats": 3})
            v = await store.add_seat(g.id, g.version, 101, None, "Bob")
            v = await store.add_seat(g.id, v, 102, None, "Cy")
            v = await store.start(g.id, v, {"seed": 1, "random_map": True}, start)
            made.append((g.id, v))
        return made
    finally:
        await store.close()


async def _load(target: str, games: list[tuple[int, int]], steps: Trace,
                journal: Path | None = None) -> tuple[list[float], float, int, float]:
    store = await open_storage(target)
    if journal is not None and isinstance(store, SqliteStorage):
        store.journal = Journal(journal, "bench")  # as the bot keeps it (bot.client.app)
    latencies: list[float] = []

    async def play(game_id: int, version: int) -> None:
        for seq, (seat, action, state) in enumerate(steps):
            t0 = time.perf_counter()
            version = await store.append_action(game_id, version, seq, seat, action, state,
                                                ACTIVE)
            latencies.append(time.perf_counter() - t0)

    try:
        t0, cpu0 = time.perf_counter(), time.process_time()
        await asyncio.gather(*(play(g, v) for g, v in games))
        wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
        kept = getattr(store, "journal", None)
        return latencies, wall, kept.syncs if isinstance(kept, Journal) else 0, cpu
    finally:
        await store.close()


def _worker(target: str, games: list[tuple[int, int]], steps: Trace,
            go_at: float) -> tuple[list[float], float, float]:
    time.sleep(max(0.0, go_at - time.time()))
    began = time.time()
    latencies, _, _, _ = asyncio.run(_load(target, games, steps))
    return latencies, began, time.time()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def run(backend: str, target: str, games: int, actions: int, processes: int,
        journal: Path | None = None) -> dict[str, Any]:
    start, steps = trace(actions)
    made = asyncio.run(_setup(target, games, start))
    syncs, cpu = 0, float("nan")
    if processes <= 1:
        latencies, wall, syncs, cpu = asyncio.run(_load(target, made, steps, journal))
    else:
        parts = [made[i::processes] for i in range(processes)]
        go_at = time.time() + 2.0  # all processes start together, after their imports
        with ProcessPoolExecutor(processes) as pool:
            results = list(pool.map(_worker, [target] * processes, parts,
                                    [steps] * processes, [go_at] * processes))
        latencies = [x for r in results for x in r[0]]
        wall = max(r[2] for r in results) - min(r[1] for r in results)
    return {
        "backend": backend, "processes": processes, "games": games,
        "appends": len(latencies), "appends_per_s": len(latencies) / wall,
        "db_ms_p50": pct(latencies, 0.5) * 1000, "db_ms_p95": pct(latencies, 0.95) * 1000,
        "db_ms_mean": statistics.fmean(latencies) * 1000,
        "snapshot_kb": len(str(steps[-1][2])) / 1024,
        "journal": f"{syncs / len(latencies):.2f}" if journal is not None else "off",
        "cpu_ms": cpu / len(latencies) * 1000,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bot.bench_storage",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--games", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--actions", type=int, default=20, help="actions per game")
    parser.add_argument("--processes", type=int, default=1,
                        help="PostgreSQL: processes sharing the games (SQLite: always 1)")
    parser.add_argument("--journal", choices=("on", "off", "both"), default="on",
                        help="SQLite: keep the journal of changes as the bot does (on, the "
                        "default), or not (off), or run both ways")
    parser.add_argument("--url", help="an existing PostgreSQL database (emptied tables are "
                        "not needed: games are added)")
    args = parser.parse_args(argv)
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    rows = []
    server = None
    try:
        for backend in backends:
            for n in args.games:
                if backend == "sqlite":
                    ways = ["on", "off"] if args.journal == "both" else [args.journal]
                    for way in ways:
                        with tempfile.TemporaryDirectory() as tmp:
                            journal = Path(tmp) / "backups" if way == "on" else None
                            rows.append(run(backend, str(Path(tmp) / "bench.db"), n,
                                            args.actions, 1, journal))
                    continue
                if args.url:
                    url = args.url
                else:
                    if server is None:
                        from tests.pgserver import PgServer, pg_bin_dir

                        bindir = pg_bin_dir()
                        if bindir is None:
                            print("no PostgreSQL binaries: skipping postgresql",
                                  file=sys.stderr)
                            break
                        server = PgServer(bindir, durable=True)
                        server.start()
                    url = server.create_database(f"bench{n}_{os.getpid()}")
                for procs in sorted({1, args.processes}):
                    rows.append(run(backend, url, n, args.actions, procs))
    finally:
        if server is not None:
            server.stop()
    print(f"| backend | processes | games | appends | appends/s | db ms p50 | db ms p95 | "
          f"db ms mean | CPU ms/append | journal syncs/append |  (snapshot "
          f"{rows[0]['snapshot_kb']:.1f} KB, cores {os.cpu_count()})")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['backend']} | {r['processes']} | {r['games']} | {r['appends']} | "
              f"{r['appends_per_s']:.0f} | {r['db_ms_p50']:.1f} | {r['db_ms_p95']:.1f} | "
              f"{r['db_ms_mean']:.1f} | {r['cpu_ms']:.3f} | {r['journal']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
