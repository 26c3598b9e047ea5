"""``python -m tests.bot.bench_load``: the unchanged bot under load.

For each size N in ``--games`` (e.g. ``10,100,300,1000``) and each deployment shape: a fake
Discord with N text channels spread over ``--guilds`` servers (default N/10, at least 2)
whose ids fall on shard 0 and shard 1 in turn, Discord's real per-channel buckets
(``--fast``: ten times faster) and global limit, the bot as its own process(es) with its
production defaults (render and AI worker processes, the computers' pause), and in every
channel one scripted person who thinks ``--people-think`` seconds (uniform) before each
click and two ``normal`` computer players. After all tables are set up and the bot is
quiet, the person-free state is measured (resident memory per waiting game), then the
people play for ``--seconds`` and one JSON line per size and shape reports:

- ``ack_ms_p50``/``ack_ms_p95``/``ack_ms_max``/``acks_over_3s``: interaction received by
  the fake -> acknowledged;
- ``board_ms_p50``/``board_ms_p95``: a click that applied an action -> the next board
  write (the turn message edited, or a new one posted, with its picture) in that game's
  thread: the "post p95" (the outcome of a click posted where everyone sees it). Only a
  write that carries a picture counts (an earlier version counted any write, and the old
  turn message losing its controls through the click's token, at once, counted as the
  board, which flattered the numbers under load by up to ten seconds);
  ``seen_ms_p50``/``seen_ms_p95`` is that older measure, the first write of any kind (the
  click visibly taken);
- ``board_ms_p50_steady``/``board_ms_p95_steady``: the same for clicks after the first
  ``--warmup`` seconds of the window (default 20): after the idle wait every person clicks
  within the first 1-3 s, a burst of N clicks that the totals include;
- ``board_writes_carried``: the share of board writes (posts and edits of public messages in
  the threads) made with a click's interaction token (bot/publish/carriers.py) rather than through
  the channel routes and the global limit;
- ``actions_per_s``: actions logged in the database during the window (people and
  computers), with ``bot_cpu_ms_per_action`` (the bot processes) and
  ``worker_cpu_ms_per_action`` (their render and AI worker processes together);
- database time per action (the bot runs as ``tests.bot.timed_bot``, the unchanged bot
  with timers around its storage): ``db_ms_per_action`` is the database engine's own time:
  on SQLite the time inside SQLite calls on aiosqlite's connection thread (statements,
  fetches, ``COMMIT`` with its fsync), on PostgreSQL the server's planning and execution
  time of every statement in the bench's database (``pg_stat_statements``, ``COMMIT`` and
  its WAL flush included, fsync on), both over the window; ``db_held_ms_per_action`` is the
  wall time the bot processes held the database (SQLite: the one connection's lock, taken
  only by transactions of several round trips since the busy reads and writes are handed
  to the connection's thread whole and do not hold it, so near 0 under play;
  PostgreSQL: a pooled connection, so concurrent holds add up), which adds round trips and
  event-loop waits to the engine time; ``db_calls_per_action``: SQLite calls or PostgreSQL
  statements; ``db_cpu_ms_per_action``: CPU time of the database: SQLite, the connection
  thread's in those calls (without GIL and I/O waits); PostgreSQL, every process of the
  throw-away server (its backends, WAL writer, checkpointer, autovacuum; not known for a
  server given by URL);
- ``rss_kb_per_game_after_setup``: the bot processes' resident memory right after the N
  games were set up (each waiting on its person), minus before any game, over N; and
  ``rss_kb_per_idle_game``: the same once the games have waited ``--unload-after``
  seconds, so that the bot unloaded them and gave freed memory back (bot.runtime.memory; the bot's
  default is 300 s, the bench uses less to stay short);
- ``rate_limited`` (429s the fake answered, ``rate_limited_where`` by place: ``global:``
  ones are the 50 requests/s of the bot) and ``setup_s``.

Shapes: ``--db sqlite`` (the default: a new file per size), ``pg`` (a throw-away PostgreSQL
server, :mod:`tests.pgserver`, fsync on as in production) or a ``postgresql://`` URL of a
server where the bench may create one database per size (``CREATE DATABASE``; it must
have ``pg_stat_statements`` in ``shared_preload_libraries`` for ``db_ms_per_action``), or
several, comma-separated; ``--processes 1,2``: bot processes, each with an equal share of
the shards (shard count = processes). Every pairing of the listed databases and process
counts runs except SQLite with several processes, which cannot be (one process per SQLite
file); ``--compare`` is the pair: SQLite with one process beside PostgreSQL with
two. Sizes are the outer loop, so each size's lines sit together; a Markdown table of all
of them follows on stderr.

Several processes share one bot token, as a real sharded bot's do, and so Discord's global
limit of 50 requests per second (the fake counts one global bucket per bot). Each process
paces itself to its share of 40 requests per second (``bot/publish/request_pace.py``); the bench
reports any global 429 rather than hiding it with two tokens.

The fake runs in this process and takes its share of the two cores, as the clients of a
real bot would not: the numbers are an upper bound of what players would see.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import asyncpg

from tests.bot.e2e import AVOID_OPS, _op, bot_process, choose, message_version, prompt_users
from tests.bot.fake_discord import FakeDiscord, Message, running, spread_guilds
from tests.bot.fake_ratelimit import EDIT, POST
from tests.bot.timed_bot import ENV as DB_STATS

POLL_S = 0.5  # how often a waiting person looks at the turn message (keeps the fake cheap)


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def ms(values: list[float], q: float | None = None) -> float | None:
    """The median (or the ``q`` quantile) rounded for the report; None when nothing was seen."""
    if not values:
        return None
    return round(statistics.median(values) if q is None else pct(values, q), 1)


def proc_cpu_s(pid: int) -> float:
    """User + system CPU seconds a process has used so far (0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == pid:
                out.append(int(d.name))
    return out


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def logged_actions(db: Path) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0])


async def pg_actions(url: str) -> int:
    con = await asyncpg.connect(url)
    try:  # (the tag keeps the bench's own statements out of the database time)
        return int(await con.fetchval("SELECT COUNT(*) FROM actions /* bench */"))
    finally:
        await con.close()


async def pg_statement_time(url: str) -> tuple[float, int] | None:
    """Seconds of planning and execution and the number of statements the server has
    counted in this database (``pg_stat_statements``), the bench's own left out; None
    without the extension."""
    con = await asyncpg.connect(url)
    try:
        if not await con.fetchval("SELECT to_regclass('pg_stat_statements') IS NOT NULL "
                                  "/* bench */"):
            return None
        row = await con.fetchrow(
            "SELECT COALESCE(SUM(total_exec_time + total_plan_time), 0) AS ms, "
            "COALESCE(SUM(calls), 0) AS calls FROM pg_stat_statements "
            "WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) "
            "AND query NOT LIKE '%/* bench */%' /* bench */")
        return float(row["ms"]) / 1000, int(row["calls"])
    finally:
        await con.close()


async def new_pg_database(server_url: str, name: str) -> str:
    """Create database ``name`` on the server of ``server_url`` (with
    ``pg_stat_statements`` if the server has it loaded); its URL."""
    con = await asyncpg.connect(server_url)
    try:
        await con.execute(f'CREATE DATABASE "{name}"')
    finally:
        await con.close()
    base, _, _ = server_url.rpartition("/")
    url = f"{base}/{name}"
    con = await asyncpg.connect(url)
    try:
        if await con.fetchval("SELECT current_setting('shared_preload_libraries') "
                              "LIKE '%pg_stat_statements%'"):
            await con.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    finally:
        await con.close()
    return url


def server_cpu_s(postmaster: int | None) -> float | None:
    """CPU seconds of a PostgreSQL server: its postmaster and every process it started."""
    if postmaster is None:
        return None
    return proc_cpu_s(postmaster) + sum(proc_cpu_s(c) for c in children(postmaster))


def db_counters(paths: list[Path]) -> dict[str, float]:
    """The timers of every bot process (:mod:`tests.bot.timed_bot`), added up."""
    total: dict[str, float] = {}
    for p in paths:
        for attempt in range(50):
            try:
                data = json.loads(p.read_text())
                break
            except (OSError, ValueError):
                if attempt == 49:
                    raise
                time.sleep(0.1)
        for k, v in data.items():
            total[k] = total.get(k, 0.0) + float(v)
    return total


def lag_p95(before: dict[str, float], after: dict[str, float]) -> int | None:
    """The event loop's lag p95 in the window, as the upper bound of its histogram
    bucket (:mod:`tests.bot.timed_bot`)."""
    counts = [(int(k.removeprefix("lag_le_")), after[k] - before.get(k, 0.0))
              for k in after if k.startswith("lag_le_")]
    counts.sort()
    total = sum(n for _, n in counts)
    seen = 0.0
    for bound, n in counts:
        seen += n
        if total and seen >= 0.95 * total:
            return bound
    return None


class Table:
    """One channel's game and its person, as the bench sees them."""

    def __init__(self, fake: FakeDiscord, channel: int, uid: int, rng: random.Random) -> None:
        self.fake, self.channel, self.uid, self.rng = fake, channel, uid, rng
        self.thread = channel
        self.clicks: list[float] = []  # sent_at of clicks that applied an action

    def turn_message(self) -> Message | None:
        if self.thread == self.channel:  # the thread opens a moment after start
            threads = self.fake.threads_in(self.channel)
            self.thread = threads[-1].id if threads else self.channel
        for m in reversed(self.fake.channel_messages(self.thread)):
            if m.components:
                return m
        return None

    async def set_up(self) -> None:
        await self.fake.slash(self.uid, self.channel, "new", seats=3)
        for _ in range(2):
            await self.fake.slash(self.uid, self.channel, "table addbot", level="normal")
        await self.fake.slash(self.uid, self.channel, "start")

    async def play(self, think: tuple[float, float], until: float) -> None:
        while time.perf_counter() < until:
            msg = self.turn_message()
            if msg is None or self.uid not in prompt_users(msg):
                await asyncio.sleep(POLL_S)
                continue
            await asyncio.sleep(self.rng.uniform(*think))
            start = message_version(msg)
            sent = await self._click(msg, 0)
            if sent is None:
                continue
            deadline = time.perf_counter() + 30
            while time.perf_counter() < deadline:
                if message_version(self.turn_message()) > start:
                    self.clicks.append(sent)
                    break
                await asyncio.sleep(POLL_S / 2)

    async def _click(self, msg: Message, depth: int) -> float | None:
        """Use one control (following private menus); the click's time if it asked for
        an action."""
        controls = [c for c in msg.controls() if _op(c["custom_id"]) not in AVOID_OPS]
        if not controls or depth > 4:
            return None
        acting = [c for c in controls if _op(c["custom_id"]) in ("act", "cards")]
        control = self.rng.choice(acting or controls)
        inter = await self.fake.click(self.uid, msg, control["custom_id"],
                                      choose(control, self.rng))
        menus = [m for m in inter.replies if m.components]
        if menus:
            return await self._click(menus[-1], depth + 1)
        return inter.sent_at if _op(control["custom_id"]) in ("act", "cards") else None


def refused_where(fake: FakeDiscord) -> dict[str, int]:
    """The fake's 429s by the kind of place they were for."""
    out: dict[str, int] = {}
    for r in fake.refusals:
        cid = r.channel_id
        kind = ("global" if r.is_global else "thread" if cid in fake.threads
                else "dm" if cid in fake.dm_channels else "channel" if cid in fake.channel_ids
                else f"{r.route}")
        out[f"{kind}:{r.route}"] = out.get(f"{kind}:{r.route}", 0) + 1
    return out


async def quiet(fake: FakeDiscord, seconds: float, limit: float = 600) -> None:
    end = time.perf_counter() + limit
    while time.perf_counter() - fake.last_change < seconds and time.perf_counter() < end:
        await asyncio.sleep(seconds / 3)


@dataclass(frozen=True)
class Shape:
    """A deployment: the database ("sqlite" or "postgresql") and how many bot processes."""

    db: str
    processes: int

    def possible(self) -> bool:
        return self.processes == 1 or self.db == "postgresql"


TOKEN = "fake-token"  # one bot, one token, however many processes


async def one_size(games: int, shape: Shape, seconds: float, think: tuple[float, float],
                   period: float, seed: int, guilds: int, unload_after: float,
                   pg_server: str | None = None, pg_pid: int | None = None,
                   warmup: float = 20.0) -> dict[str, object]:
    """One size and shape on a new SQLite file, or (``pg_server``: a server's URL) a new
    PostgreSQL database there; ``pg_pid``: the server's postmaster, for its CPU time."""
    channels = tuple(3000 + g for g in range(games))
    layout = spread_guilds(channels, guilds, shard_count=2)
    with tempfile.TemporaryDirectory() as tmp:
        db: Path | str = Path(tmp) / "load.db"
        count: Callable[[], Awaitable[int]]
        server_time: Callable[[], Awaitable[tuple[float, int] | None]] | None = None
        if shape.db == "postgresql":
            assert pg_server is not None
            url = await new_pg_database(
                pg_server, f"load_{games}_{shape.processes}_{os.getpid()}_{seed}")
            db = url

            async def count() -> int:
                return await pg_actions(url)

            async def server_time() -> tuple[float, int] | None:
                return await pg_statement_time(url)
        else:
            path = db

            async def count() -> int:
                return logged_actions(path)  # type: ignore[arg-type]
        n = shape.processes
        memory_every = max(1.0, min(10.0, unload_after / 3))
        stats = [Path(tmp) / f"db-stats-{p}.json" for p in range(n)]
        logs = [Path(tmp) / f"bot-{p}.log" for p in range(n)]
        async with contextlib.AsyncExitStack() as stack:
            fake = await stack.enter_async_context(running(
                guilds=layout, post_per=period, edit_per=period, webhook_per=period * 0.4,
                shards=n))
            procs = [await stack.enter_async_context(bot_process(
                fake, db, logs[p], ai_delay=0.8, production=True,
                shards=[p] if n > 1 else None, shard_count=n, token=TOKEN,
                module="tests.bot.timed_bot",
                env={DB_STATS: str(stats[p]), "TEMPUS_UNLOAD_AFTER": str(unload_after),
                     "TEMPUS_MEMORY_EVERY": str(memory_every)}))
                for p in range(n)]
            await quiet(fake, 2.0)
            await asyncio.sleep(memory_every + 1)  # the start-up's garbage given back too
            base_rss = sum(rss_kb(p.pid) for p in procs)
            rng = random.Random(seed)
            tables = [Table(fake, c, 100_000 + i, random.Random(rng.random()))
                      for i, c in enumerate(channels)]
            t0 = time.perf_counter()
            gate = asyncio.Semaphore(16)

            async def set_up(t: Table) -> None:
                async with gate:
                    await t.set_up()
            await asyncio.gather(*(set_up(t) for t in tables))
            await quiet(fake, 3 * period)
            setup_s = time.perf_counter() - t0
            setup_rss = sum(rss_kb(p.pid) for p in procs)
            await asyncio.sleep(unload_after + memory_every + 2)
            idle_rss = sum(rss_kb(p.pid) for p in procs)
            acks_before = set(fake.interactions)
            refused_before = len(fake.refusals)
            n0 = await count()
            workers = [w for p in procs for w in children(p.pid)]
            pids = [p.pid for p in procs]
            cpu0 = sum(map(proc_cpu_s, pids)), sum(map(proc_cpu_s, workers))
            pg0 = server_cpu_s(pg_pid)
            db0, server0 = db_counters(stats), await server_time() if server_time else None
            w0 = time.perf_counter()
            w0_fake = fake.now()
            steady_from = w0_fake + warmup  # the opening burst is over by then
            until = w0 + seconds
            await asyncio.gather(*(t.play(think, until) for t in tables))
            window = time.perf_counter() - w0
            w1_fake = fake.now()
            cpu1 = sum(map(proc_cpu_s, pids)), sum(map(proc_cpu_s, workers))
            pg1 = server_cpu_s(pg_pid)
            db1, server1 = db_counters(stats), await server_time() if server_time else None
            actions = await count() - n0
            log = "".join(p.read_text(errors="replace") for p in logs)
        fake.check()
    # per thread: (when, with a click's token, with a picture) of every public write
    thread_writes: dict[int, list[tuple[float, bool, bool]]] = {}
    carried = total = 0
    for w in fake.public_writes():  # a click's token may carry the board (bot/carriers)
        if w.kind in (POST, EDIT):
            thread_writes.setdefault(w.channel_id, []).append(
                (w.t, w.interaction, w.files > 0))
            carried += w.interaction
            total += 1
    pictures = sum(1 for w in fake.public_writes()
                   if w.kind in (POST, EDIT) and w.files > 0 and w0_fake <= w.t <= w1_fake)
    board, steady, seen = [], [], []
    by_route: dict[bool, list[float]] = {True: [], False: []}
    for t in tables:
        times = sorted(thread_writes.get(t.thread, ()))
        for sent in t.clicks:
            # the board: the first write after the click that carries a picture (a write
            # without one, such as the old message's controls coming off, shows the click
            # was taken but not the position after it)
            after = next((x for x in times if x[0] >= sent and x[2]), None)
            first = next((x for x in times if x[0] >= sent), None)
            if first is not None:
                seen.append((first[0] - sent) * 1000)
            if after is not None:
                board.append((after[0] - sent) * 1000)
                by_route[after[1]].append(board[-1])
                if sent >= steady_from:
                    steady.append(board[-1])
    acks = [(i.acked_at - i.sent_at) * 1000 for k, i in fake.interactions.items()
            if k not in acks_before and i.acked_at is not None]
    per = max(1, actions)
    if server0 is not None and server1 is not None:
        db_ms: float | None = (server1[0] - server0[0]) * 1000 / per
        calls = (server1[1] - server0[1]) / per
    elif shape.db == "sqlite":
        db_ms = (db1["engine_s"] - db0["engine_s"]) * 1000 / per
        calls = (db1["engine_calls"] - db0["engine_calls"]) / per
    else:
        db_ms = calls = None
    if shape.db == "sqlite":
        db_cpu: float | None = (db1["engine_cpu_s"] - db0["engine_cpu_s"]) * 1000 / per
    else:
        db_cpu = None if pg0 is None or pg1 is None else (pg1 - pg0) * 1000 / per
    return {
        "games": games, "db": shape.db, "processes": n, "guilds": guilds,
        "bucket_s": period, "think_s": list(think), "setup_s": round(setup_s, 1),
        "window_s": round(window, 1), "clicks": len(board), "actions": actions,
        "actions_per_s": round(actions / window, 1),
        "ack_ms_p50": ms(acks),
        "ack_ms_p95": ms(acks, .95), "ack_ms_max": round(max(acks, default=0), 1),
        "acks_over_3s": sum(1 for a in acks if a > 3000),
        "board_ms_p50": ms(board),
        "board_ms_p95": ms(board, .95),
        "seen_ms_p50": ms(seen),
        "seen_ms_p95": ms(seen, .95),
        "board_ms_p50_steady": ms(steady),
        "board_ms_p95_steady": ms(steady, .95),
        "board_writes_carried": round(carried / max(1, total), 2),
        # by the route of the write that showed the click's board
        "board_ms_p95_carried": ms(by_route[True], .95),
        "board_ms_p95_channel": ms(by_route[False], .95),
        "clicks_shown_by_channel": len(by_route[False]),
        "db_ms_per_action": None if db_ms is None else round(db_ms, 2),
        # boards drawn per board written (above 1: drawn, then dropped as out of date)
        "boards_drawn_per_written": round((db1["boards_drawn"] - db0["boards_drawn"])
                                          / max(1, pictures), 2),
        "db_held_ms_per_action": round((db1["held_s"] - db0["held_s"]) * 1000 / per, 2),
        "db_calls_per_action": None if calls is None else round(calls, 1),
        "db_cpu_ms_per_action": None if db_cpu is None else round(db_cpu, 2),
        "loop_lag_ms_p95": lag_p95(db0, db1),
        "gc_ms_per_s": round((db1["gc_s"] - db0["gc_s"]) * 1000 / window, 1),
        "gc_full": int(db1["gc_full_count"] - db0["gc_full_count"]),
        "gc_over_100ms": int(db1["gc_over_100ms"] - db0["gc_over_100ms"]),
        "bot_cpu_ms_per_action": round((cpu1[0] - cpu0[0]) * 1000 / per, 1),
        "worker_cpu_ms_per_action": round((cpu1[1] - cpu0[1]) * 1000 / per, 1),
        "rss_kb_per_game_after_setup": round((setup_rss - base_rss) / games, 1),
        "rss_kb_per_idle_game": round((idle_rss - base_rss) / games, 1),
        "rate_limited": fake.rate_limited(), "rate_limited_where": refused_where(fake),
        "rate_limited_in_window": len(fake.refusals) - refused_before,
        "bot_errors_logged": log.count("Traceback"),
    }


COLUMNS = (("games", "games"), ("db", "db"), ("processes", "proc"),
           ("actions_per_s", "actions/s"), ("ack_ms_p95", "ack p95 ms"),
           ("board_ms_p50", "board p50 ms"), ("board_ms_p95", "board (post) p95 ms"),
           ("board_ms_p95_steady", "board p95 after warm-up ms"),
           ("seen_ms_p95", "first write p95 ms"),
           ("board_writes_carried", "carried by clicks"),
           ("db_ms_per_action", "db ms/action"), ("db_cpu_ms_per_action", "db CPU ms/action"),
           ("db_held_ms_per_action", "db held ms/action"),
           ("loop_lag_ms_p95", "loop lag p95 ms"), ("gc_ms_per_s", "gc ms/s"),
           ("bot_cpu_ms_per_action", "bot CPU ms/action"),
           ("boards_drawn_per_written", "boards drawn/written"), ("rate_limited", "429s"),
           ("acks_over_3s", "acks > 3 s"))


def table(rows: list[dict[str, object]]) -> str:
    """The results as a Markdown table."""
    lines = ["| " + " | ".join(title for _, title in COLUMNS) + " |",
             "|" + " --- |" * len(COLUMNS)]
    lines += ["| " + " | ".join(str(r.get(k)) for k, _ in COLUMNS) + " |" for r in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bot.bench_load",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="10,100", help="sizes, comma-separated")
    parser.add_argument("--seconds", type=float, default=60.0, help="playing window per size")
    parser.add_argument("--people-think", default="1-3", help="seconds, e.g. 1-3")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--warmup", type=float, default=20.0,
                        help="seconds at the start of the window whose clicks the *_steady "
                             "board numbers leave out (every person's first click comes at "
                             "once after the idle wait: a burst no real server sees)")
    parser.add_argument("--unload-after", type=float, default=30.0,
                        help="the bot's TEMPUS_UNLOAD_AFTER: seconds before a waiting game "
                             "leaves memory (measured after this wait)")
    parser.add_argument("--fast", action="store_true",
                        help="Discord's buckets ten times faster (5 writes per 0.5 s)")
    parser.add_argument("--db", "--backend", default="sqlite",
                        help="sqlite, pg or postgresql (a throw-away PostgreSQL server) or a "
                             "postgresql:// URL (one new database per size on that server); "
                             "several comma-separated")
    parser.add_argument("--processes", default="1",
                        help="bot processes sharing the shards (2 or more need PostgreSQL); "
                             "several comma-separated")
    parser.add_argument("--compare", action="store_true",
                        help="SQLite with one process beside PostgreSQL with two, per size")
    parser.add_argument("--guilds", type=int, default=0,
                        help="servers the channels are spread over (default N/10, at least 2)")
    args = parser.parse_args(argv)
    lo, _, hi = args.people_think.partition("-")
    think = (float(lo), float(hi or lo))
    dbs = ["sqlite", "pg"] if args.compare else [
        "pg" if d == "postgresql" else d for d in args.db.split(",")]
    counts = [1, 2] if args.compare else [int(x) for x in args.processes.split(",")]
    if args.compare and (args.db != "sqlite" or args.processes != "1"):
        parser.error("--compare picks --db and --processes itself")
    pg_server: str | None = None
    kinds = []
    for d in dbs:
        if d.startswith(("postgresql://", "postgres://")):
            pg_server = d
        elif d not in ("sqlite", "pg"):
            parser.error(f"--db {d!r}: sqlite, pg or a postgresql:// URL")
        kinds.append("sqlite" if d == "sqlite" else "postgresql")
    shapes = [Shape(k, c) for k in dict.fromkeys(kinds) for c in counts]
    if any(c < 1 for c in counts):
        parser.error("--processes: 1 or more")
    for shape in shapes:
        if not shape.possible():
            print(f"(skipped: SQLite with {shape.processes} processes; one process per "
                  "SQLite file)", file=sys.stderr)
    shapes = [sh for sh in shapes if sh.possible()]
    if args.compare:
        shapes = [Shape("sqlite", 1), Shape("postgresql", 2)]
    if not shapes:
        parser.error("nothing to run")
    server = None
    pg_pid: int | None = None
    if "pg" in dbs:
        from tests.pgserver import PgServer, pg_bin_dir

        bindir = pg_bin_dir()
        if bindir is None:
            parser.error("--db pg: no PostgreSQL binaries (initdb, pg_ctl) found")
        server = PgServer(bindir, durable=True, stat_statements=True)
        server.start()
        pg_server = server.url()
        pg_pid = server.postmaster_pid()
    rows = []
    try:
        for n in (int(x) for x in args.games.split(",")):
            guilds = args.guilds or max(2, n // 10)
            for shape in shapes:
                result = asyncio.run(one_size(n, shape, args.seconds, think,
                                              0.5 if args.fast else 5.0, args.seed,
                                              min(guilds, n), args.unload_after, pg_server,
                                              pg_pid, args.warmup))
                rows.append(result)
                print(json.dumps(result), flush=True)
    finally:
        if server is not None:
            server.stop()
    print(table(rows), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
