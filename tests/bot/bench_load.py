"""``python -m tests.bot.bench_load``: the unchanged bot under load (issue 16).

For each size N in ``--games`` (e.g. ``10,100,300,1000``): a fake Discord with N text
channels and Discord's real per-channel buckets (``--fast``: ten times faster), the bot as
its own process with its production defaults (render and AI worker processes, the
computers' pause), and in every channel one scripted person who thinks ``--people-think``
seconds (uniform) before each click and two ``normal`` computer players. After all tables
are set up and the bot is quiet, the person-free state is measured (resident memory per
waiting game), then the people play for ``--seconds`` and one JSON line per size reports:

- ``ack_ms_p50``/``ack_ms_p95``/``ack_ms_max``/``acks_over_3s``: interaction received by
  the fake -> acknowledged;
- ``board_ms_p50``/``board_ms_p95``: a click that applied an action -> the next board
  write (the turn message edited, or a new one posted) in that game's thread;
- ``actions_per_s``: actions logged in the database during the window (people and
  computers), with ``bot_cpu_ms_per_action`` (the bot process) and
  ``worker_cpu_ms_per_action`` (its render and AI worker processes together);
- ``rss_kb_per_idle_game``: the bot process's resident memory with N games waiting on
  their person, minus before any game, over N;
- ``rate_limited`` (429s the fake answered) and ``setup_s``.

``--db``: ``sqlite`` (the default: a new file per size), ``pg`` (a throw-away PostgreSQL
server, :mod:`tests.pgserver`, with fsync on as in production) or a ``postgresql://`` URL
of a server where the bench may create one database per size (``CREATE DATABASE``).

The fake runs in this process and takes its share of the two cores, as the clients of a
real bot would not: the numbers are an upper bound of what players would see.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncpg

from .e2e import AVOID_OPS, _op, bot_process, choose, message_version, prompt_users
from .fake_discord import FakeDiscord, Message, running
from .fake_ratelimit import EDIT, POST

POLL_S = 0.5  # how often a waiting person looks at the turn message (keeps the fake cheap)


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


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
    try:
        return int(await con.fetchval("SELECT COUNT(*) FROM actions"))
    finally:
        await con.close()


async def new_pg_database(server_url: str, name: str) -> str:
    """Create database ``name`` on the server of ``server_url``; its URL."""
    con = await asyncpg.connect(server_url)
    try:
        await con.execute(f'CREATE DATABASE "{name}"')
    finally:
        await con.close()
    base, _, _ = server_url.rpartition("/")
    return f"{base}/{name}"


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
            await self.fake.slash(self.uid, self.channel, "addbot", level="normal")
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


async def one_size(games: int, seconds: float, think: tuple[float, float], period: float,
                   seed: int, pg_server: str | None = None) -> dict[str, object]:
    """One size on a new SQLite file, or (``pg_server``: a server's URL) a new PostgreSQL
    database there."""
    channels = tuple(3000 + g for g in range(games))
    with tempfile.TemporaryDirectory() as tmp:
        db: Path | str = Path(tmp) / "load.db"
        count: Callable[[], Awaitable[int]]
        if pg_server is not None:
            url = await new_pg_database(pg_server, f"load_{games}_{os.getpid()}_{seed}")
            db = url

            async def count() -> int:
                return await pg_actions(url)
        else:
            path = db

            async def count() -> int:
                return logged_actions(path)  # type: ignore[arg-type]
        async with running(channel_ids=channels, post_per=period, edit_per=period) as fake, \
                bot_process(fake, db, Path(tmp) / "bot.log", ai_delay=0.8,
                            production=True) as proc:
            await quiet(fake, 2.0)
            base_rss = rss_kb(proc.pid)
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
            idle_rss = rss_kb(proc.pid)
            acks_before = set(fake.interactions)
            n0 = await count()
            workers = children(proc.pid)
            cpu0 = proc_cpu_s(proc.pid), sum(proc_cpu_s(w) for w in workers)
            w0 = time.perf_counter()
            until = w0 + seconds
            await asyncio.gather(*(t.play(think, until) for t in tables))
            window = time.perf_counter() - w0
            cpu1 = proc_cpu_s(proc.pid), sum(proc_cpu_s(w) for w in workers)
            actions = await count() - n0
            log = (Path(tmp) / "bot.log").read_text(errors="replace")
        fake.check()
    thread_writes: dict[int, list[float]] = {}
    for w in fake.limiter.writes:
        if not w.interaction and w.kind in (POST, EDIT):
            thread_writes.setdefault(w.channel_id, []).append(w.t)
    board = []
    for t in tables:
        times = sorted(thread_writes.get(t.thread, ()))
        for sent in t.clicks:
            after = next((x for x in times if x >= sent), None)
            if after is not None:
                board.append((after - sent) * 1000)
    acks = [(i.acked_at - i.sent_at) * 1000 for k, i in fake.interactions.items()
            if k not in acks_before and i.acked_at is not None]
    per = max(1, actions)
    return {
        "games": games, "db": "postgresql" if pg_server else "sqlite", "bucket_s": period,
        "think_s": list(think), "setup_s": round(setup_s, 1),
        "window_s": round(window, 1), "clicks": len(board), "actions": actions,
        "actions_per_s": round(actions / window, 1),
        "ack_ms_p50": round(statistics.median(acks), 1) if acks else None,
        "ack_ms_p95": round(pct(acks, .95), 1), "ack_ms_max": round(max(acks, default=0), 1),
        "acks_over_3s": sum(1 for a in acks if a > 3000),
        "board_ms_p50": round(statistics.median(board), 1) if board else None,
        "board_ms_p95": round(pct(board, .95), 1),
        "bot_cpu_ms_per_action": round((cpu1[0] - cpu0[0]) * 1000 / per, 1),
        "worker_cpu_ms_per_action": round((cpu1[1] - cpu0[1]) * 1000 / per, 1),
        "rss_kb_per_idle_game": round((idle_rss - base_rss) / games, 1),
        "rate_limited": fake.rate_limited(), "rate_limited_where": refused_where(fake),
        "bot_errors_logged": log.count("Traceback"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bot.bench_load",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="10,100", help="sizes, comma-separated")
    parser.add_argument("--seconds", type=float, default=60.0, help="playing window per size")
    parser.add_argument("--people-think", default="1-3", help="seconds, e.g. 1-3")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fast", action="store_true",
                        help="Discord's buckets ten times faster (5 writes per 0.5 s)")
    parser.add_argument("--db", default="sqlite",
                        help="sqlite, pg (a throw-away PostgreSQL server) or a "
                             "postgresql:// URL (one new database per size on that server)")
    args = parser.parse_args(argv)
    lo, _, hi = args.people_think.partition("-")
    think = (float(lo), float(hi or lo))
    server = None
    pg_server: str | None = None
    if args.db == "pg":
        from tests.pgserver import PgServer, pg_bin_dir

        bindir = pg_bin_dir()
        if bindir is None:
            parser.error("--db pg: no PostgreSQL binaries (initdb, pg_ctl) found")
        server = PgServer(bindir, durable=True)
        server.start()
        pg_server = server.url()
    elif args.db.startswith(("postgresql://", "postgres://")):
        pg_server = args.db
    elif args.db != "sqlite":
        parser.error(f"--db {args.db!r}: sqlite, pg or a postgresql:// URL")
    try:
        for n in (int(x) for x in args.games.split(",")):
            result = asyncio.run(one_size(n, args.seconds, think, 0.5 if args.fast else 5.0,
                                          args.seed, pg_server))
            print(json.dumps(result), flush=True)
    finally:
        if server is not None:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
