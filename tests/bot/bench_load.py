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

The fake and the people run in this process, and ``--pin`` (default ``auto``) keeps it on
one core and the bot (its processes, their render and AI workers, and a throw-away
PostgreSQL server) on the others (``os.sched_setaffinity``; what they start inherits it):
the bot is measured on cores of its own, as a real bot would be, not on a machine the fake
and a thousand scripted people load as much. ``bench_cores_busy`` tells whether the
bench's own core kept up (near 1.0 it did not, and the latencies are the bench's);
``bot_cores_busy`` how much of its cores the bot's side used. ``--pin off`` shares every
core as before. Other jobs on the machine still share the cores: note the load.

``--find-rate``: per size, the games are set up once and the people then play windows of
``--seconds``, thinking less in each (``--steps``), until two windows in a row miss the
limits. A line per window (``"mode": "step"``, ``within_limits``), then a summary
(``"mode": "summary"``): the highest rate of actions a window sustained with the board
p95 after its warm-up within ``--board-p95`` (1 s), the acknowledgement p95 within
``--ack-p95`` (50 ms) and no 429; that rate per bot core (``per_bot_core``); and as live
games per bot core at a human pace (``live_games_per_bot_core``, the model of
:mod:`tests.bot.human_pace`: a person deciding every ``--human-think`` seconds, 10-30, two
computers per game, with the computers' actions per person's action measured in that
window). ``cpu_bound_live_games_per_core`` is the same from the CPU per action alone
(bot and workers): what a core would carry if nothing but its CPU time limited it.
``computer_actions_per_person_action`` and ``boards_drawn_per_action`` are reported for
every window.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg

from tests.bot import profile_split
from tests.bot.e2e import AVOID_OPS, _op, bot_process, choose, message_version, prompt_users
from tests.bot.fake_discord import FakeDiscord, Message, running, spread_guilds
from tests.bot.fake_ratelimit import EDIT, POST
from tests.bot.human_pace import HumanPace
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


#: the actions in the log, and those of people (the rest are the computers')
COUNT_ACTIONS = ("SELECT COUNT(*), COUNT(s.user_id) FROM actions a LEFT JOIN seats s "
                 "ON s.game_id = a.game_id AND s.seat = a.seat /* bench */")


def logged_actions(db: Path) -> tuple[int, int]:
    """Actions logged so far, and how many of them people made."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30) as conn:
        total, people = conn.execute(COUNT_ACTIONS).fetchone()
        return int(total), int(people)


async def pg_actions(url: str) -> tuple[int, int]:
    con = await asyncpg.connect(url)
    try:  # (the tag keeps the bench's own statements out of the database time)
        row = await con.fetchrow(COUNT_ACTIONS)
        return int(row[0]), int(row[1])
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


class Pace:
    """How long the scripted people think before each click: one object all tables read,
    so a run can change it between windows (``--find-rate``)."""

    def __init__(self, think: tuple[float, float]) -> None:
        self.think = think


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

    async def play(self, pace: Pace, until: float) -> None:
        while time.perf_counter() < until:
            msg = self.turn_message()
            if msg is None or self.uid not in prompt_users(msg):
                await asyncio.sleep(POLL_S)
                continue
            await asyncio.sleep(self.rng.uniform(*pace.think))
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


def refused_where(fake: FakeDiscord, since: int = 0) -> dict[str, int]:
    """The fake's 429s (from the ``since``-th on) by the kind of place they were for."""
    out: dict[str, int] = {}
    for r in fake.refusals[since:]:
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


@dataclass(frozen=True)
class Pinning:
    """Which cores the bench itself (the fake Discord and the scripted people) and the
    bot (its processes, their render and AI workers, a throw-away PostgreSQL server) may
    use: apart, so that the bench measures the bot and not the machine's load from the
    fake. None: anywhere."""

    bench: frozenset[int] | None
    bot: frozenset[int] | None

    @classmethod
    def parse(cls, text: str) -> Pinning:
        """``auto`` (the first core for the bench, the others for the bot, when there are
        two or more), ``off``, or ``BENCH:BOT`` as core lists (``0:1``, ``0:1-3``)."""
        if text == "off":
            return cls(None, None)
        if text == "auto":
            cores = sorted(os.sched_getaffinity(0))
            if len(cores) < 2:
                return cls(None, None)
            return cls(frozenset(cores[:1]), frozenset(cores[1:]))
        bench, sep, bot = text.partition(":")
        if not sep:
            raise ValueError(f"--pin {text!r}: auto, off or BENCH:BOT (e.g. 0:1)")
        pins = cls(_cores(bench), _cores(bot))
        if pins.bench and pins.bot and pins.bench & pins.bot:
            raise ValueError(f"--pin {text!r}: the bench and the bot share a core")
        return pins

    @property
    def bot_cores(self) -> int:
        """Cores the bot's side may use (all the machine's when not pinned)."""
        return len(self.bot) if self.bot else len(os.sched_getaffinity(0))

    def describe(self) -> str:
        def show(cores: frozenset[int] | None) -> str:
            return "any" if cores is None else ",".join(map(str, sorted(cores)))
        return f"bench {show(self.bench)}, bot {show(self.bot)}"


def _cores(text: str) -> frozenset[int]:
    out: set[int] = set()
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return frozenset(out)


def pin_process_tree(pid: int, cores: frozenset[int]) -> None:
    """Every thread of ``pid`` and of its children onto ``cores`` (what they start later
    inherits it)."""
    for proc in (pid, *children(pid)):
        for task in Path(f"/proc/{proc}/task").iterdir():
            with contextlib.suppress(OSError):
                os.sched_setaffinity(int(task.name), cores)


TOKEN = "fake-token"  # one bot, one token, however many processes


@dataclass(frozen=True)
class Profile:
    """py-spy over the bot processes and their workers during a window (``--profile``):
    from ``delay`` seconds into the window for ``seconds``, ``rate`` samples a second,
    raw stacks into ``directory`` (see :mod:`tests.bot.profile_split`). Only samples of
    a thread holding the GIL count (``--gil``: Python's own idle-wait detection counts a
    thread waiting in ``select`` or on a condition as busy); time in C that releases the
    GIL (SQLite's, on aiosqlite's thread) is not in it, the bench's ``db_cpu_ms_per_action``
    has it. py-spy runs on the bench's core."""

    directory: Path
    delay: float
    seconds: float
    rate: int = 50

    async def record(self, pid: int, name: str) -> Path:
        await asyncio.sleep(self.delay)
        out = self.directory / f"{name}.txt"
        spy = await asyncio.create_subprocess_exec(
            "py-spy", "record", "--pid", str(pid), "--subprocesses", "--format", "raw",
            "--rate", str(self.rate), "--duration", str(round(self.seconds)), "--gil",
            "--output", str(out), stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE)
        _, err = await spy.communicate()
        if spy.returncode:
            print(f"py-spy on {pid}: {err.decode(errors='replace')[-500:]}", file=sys.stderr)
        return out

    def table(self, files: list[Path], bot_ms: float, workers_ms: float) -> str:
        """The samples of a window's recordings by role and kind of work, with their
        share of the window's CPU time per action (Markdown)."""
        stacks: Counter[tuple[str, ...]] = Counter()
        for f in files:
            if f.exists():
                stacks.update(profile_split.read_raw(f.read_text().splitlines()))
        table = profile_split.split(stacks)
        return profile_split.markdown(table,
                                      profile_split.cpu_split(table, bot_ms, workers_ms))


@dataclass
class Mark:
    """The counters at one moment of a run (a window lies between two marks)."""

    wall: float
    fake_t: float
    cpu_bot: float
    cpu_workers: float
    cpu_bench: float
    pg_cpu: float | None
    db: dict[str, float]
    server: tuple[float, int] | None
    actions: int
    person_actions: int
    refusals: int
    fake_errors: int  # what the fake flagged so far (fake.errors)
    clicks: list[int]  # per table, how many clicks it had made
    requests: Counter[str] = field(default_factory=Counter)  # the fake's, by route
    profiles: list[Path] = field(default_factory=list)  # py-spy's, of the window it ends


class Run:
    """One size and shape: a fake Discord, the bot process(es) against it, and ``games``
    tables, each with a scripted person and two ``normal`` computers. People play in
    windows (:meth:`play`); :meth:`report` sums one window up."""

    def __init__(self, games: int, shape: Shape, period: float, seed: int, guilds: int,
                 unload_after: float | None, pg_server: str | None = None,
                 pg_pid: int | None = None, pins: Pinning = Pinning(None, None)) -> None:
        self.games, self.shape, self.period, self.seed = games, shape, period, seed
        self.guilds, self.unload_after = guilds, unload_after
        self.pg_server, self.pg_pid, self.pins = pg_server, pg_pid, pins
        # None: the bot's own defaults (games unloaded after 300 s, memory given back every
        # 60 s); a short wait (to measure the idle games' memory) makes the bot collect
        # the oldest generation every few seconds and reload waiting games from their
        # records, which costs it CPU a real bot does not spend
        self.memory_every = None if unload_after is None else \
            max(1.0, min(10.0, unload_after / 3))
        self.stack = contextlib.AsyncExitStack()
        self.tables: list[Table] = []
        self.log = ""

    async def __aenter__(self) -> Run:
        channels = tuple(3000 + g for g in range(self.games))
        layout = spread_guilds(channels, self.guilds, shard_count=2)
        tmp = Path(self.stack.enter_context(tempfile.TemporaryDirectory()))
        self.server_time: Callable[[], Awaitable[tuple[float, int] | None]] | None = None
        sqlite_file = tmp / "load.db"
        db: Path | str = sqlite_file
        if self.shape.db == "postgresql":
            assert self.pg_server is not None
            url = await new_pg_database(
                self.pg_server,
                f"load_{self.games}_{self.shape.processes}_{os.getpid()}_{self.seed}")
            db = url

            async def count() -> tuple[int, int]:
                return await pg_actions(url)

            async def server_time() -> tuple[float, int] | None:
                return await pg_statement_time(url)
            self.server_time = server_time
        else:
            async def count() -> tuple[int, int]:
                return logged_actions(sqlite_file)
        self.count: Callable[[], Awaitable[tuple[int, int]]] = count
        n = self.shape.processes
        self.stats = [tmp / f"db-stats-{p}.json" for p in range(n)]
        self.logs = [tmp / f"bot-{p}.log" for p in range(n)]
        self.fake = await self.stack.enter_async_context(running(
            guilds=layout, post_per=self.period, edit_per=self.period,
            webhook_per=self.period * 0.4, shards=n))
        self.procs = [await self.stack.enter_async_context(bot_process(
            self.fake, db, self.logs[p], ai_delay=0.8, production=True,
            shards=[p] if n > 1 else None, shard_count=n, token=TOKEN,
            module="tests.bot.timed_bot", cpus=None if self.pins.bot is None else
            set(self.pins.bot),
            env={DB_STATS: str(self.stats[p]), **self._memory_env()}))
            for p in range(n)]
        self.stack.push_async_callback(self._read_logs)
        await quiet(self.fake, 2.0)
        await asyncio.sleep((self.memory_every or 0) + 1)  # the start-up's garbage given back
        self.base_rss = sum(rss_kb(p.pid) for p in self.procs)
        rng = random.Random(self.seed)
        self.tables = [Table(self.fake, c, 100_000 + i, random.Random(rng.random()))
                       for i, c in enumerate(channels)]
        return self

    def _memory_env(self) -> dict[str, str]:
        if self.unload_after is None or self.memory_every is None:
            return {}
        return {"TEMPUS_UNLOAD_AFTER": str(self.unload_after),
                "TEMPUS_MEMORY_EVERY": str(self.memory_every)}

    async def _read_logs(self) -> None:
        self.log = "".join(p.read_text(errors="replace") for p in self.logs)

    async def __aexit__(self, *exc: object) -> None:
        await self.stack.aclose()
        if exc[0] is None and self.fake.errors:
            # reported (per window: fake_errors_in_window), not raised: a run that pushed
            # the bot past what it sustains would otherwise lose every row it measured
            print(f"the fake flagged {len(self.fake.errors)}: "
                  f"{'; '.join(self.fake.errors[:5])}", file=sys.stderr)

    async def set_up(self) -> None:
        """Every table's game started (16 at a time), then the bot left to go quiet."""
        t0 = time.perf_counter()
        gate = asyncio.Semaphore(16)

        async def set_up(t: Table) -> None:
            async with gate:
                await t.set_up()
        await asyncio.gather(*(set_up(t) for t in self.tables))
        await quiet(self.fake, 3 * self.period)
        self.setup_s = time.perf_counter() - t0
        self.setup_rss = sum(rss_kb(p.pid) for p in self.procs)

    async def wait_idle(self) -> None:
        """Long enough that the bot unloads the waiting games and gives memory back."""
        assert self.unload_after is not None and self.memory_every is not None
        await asyncio.sleep(self.unload_after + self.memory_every + 2)
        self.idle_rss = sum(rss_kb(p.pid) for p in self.procs)

    def workers(self) -> list[int]:
        return [w for p in self.procs for w in children(p.pid)]

    async def mark(self) -> Mark:
        pids = [p.pid for p in self.procs]
        actions, people = await self.count()
        return Mark(wall=time.perf_counter(), fake_t=self.fake.now(),
                    cpu_bot=sum(map(proc_cpu_s, pids)),
                    cpu_workers=sum(map(proc_cpu_s, self.workers())),
                    cpu_bench=proc_cpu_s(os.getpid()), pg_cpu=server_cpu_s(self.pg_pid),
                    db=db_counters(self.stats),
                    server=await self.server_time() if self.server_time else None,
                    actions=actions, person_actions=people,
                    refusals=len(self.fake.refusals),
                    fake_errors=len(self.fake.errors),
                    clicks=[len(t.clicks) for t in self.tables],
                    requests=Counter(self.fake.requests))

    async def play(self, pace: Pace, seconds: float, profile: Profile | None = None
                   ) -> tuple[Mark, Mark]:
        """The people play for ``seconds``; the marks before and after. ``profile``:
        py-spy records every bot process and its workers meanwhile."""
        start = await self.mark()
        spies = [] if profile is None else [
            asyncio.create_task(profile.record(p.pid, f"{self.games}-{self.shape.db}-"
                                               f"{self.shape.processes}-{k}-{pace.think[0]}"))
            for k, p in enumerate(self.procs)]
        await asyncio.gather(*(t.play(pace, start.wall + seconds) for t in self.tables))
        end = await self.mark()
        end.profiles = [await spy for spy in spies]
        return start, end

    def report(self, a: Mark, b: Mark, warmup: float, think: tuple[float, float]
               ) -> dict[str, object]:
        """The window between marks ``a`` and ``b`` (call it after the run: a click's
        board may be written after its window ended). ``warmup``: seconds at the start
        whose clicks the ``*_steady`` board numbers leave out."""
        fake, shape = self.fake, self.shape
        window = b.wall - a.wall
        steady_from = a.fake_t + warmup
        # per thread: (when, with a click's token, with a picture) of every public write
        thread_writes: dict[int, list[tuple[float, bool, bool]]] = {}
        carried = total = 0
        for w in fake.public_writes():  # a click's token may carry the board (bot/carriers)
            if w.kind in (POST, EDIT):
                thread_writes.setdefault(w.channel_id, []).append(
                    (w.t, w.interaction, w.files > 0))
                if a.fake_t <= w.t <= b.fake_t:
                    carried += w.interaction
                    total += 1
        pictures = sum(1 for w in fake.public_writes()
                       if w.kind in (POST, EDIT) and w.files > 0
                       and a.fake_t <= w.t <= b.fake_t)
        board, steady, seen = [], [], []
        by_route: dict[bool, list[float]] = {True: [], False: []}
        for k, t in enumerate(self.tables):
            times = sorted(thread_writes.get(t.thread, ()))
            for sent in t.clicks[a.clicks[k]:b.clicks[k]]:
                # the board: the first write after the click that carries a picture (a
                # write without one, such as the old message's controls coming off,
                # shows the click was taken but not the position after it)
                after = next((x for x in times if x[0] >= sent and x[2]), None)
                first = next((x for x in times if x[0] >= sent), None)
                if first is not None:
                    seen.append((first[0] - sent) * 1000)
                if after is not None:
                    board.append((after[0] - sent) * 1000)
                    by_route[after[1]].append(board[-1])
                    if sent >= steady_from:
                        steady.append(board[-1])
        acks = [(i.acked_at - i.sent_at) * 1000 for i in fake.interactions.values()
                if a.fake_t <= i.sent_at < b.fake_t and i.acked_at is not None]
        actions = b.actions - a.actions
        per = max(1, actions)
        db0, db1 = a.db, b.db
        if a.server is not None and b.server is not None:
            db_ms: float | None = (b.server[0] - a.server[0]) * 1000 / per
            calls: float | None = (b.server[1] - a.server[1]) / per
        elif shape.db == "sqlite":
            db_ms = (db1["engine_s"] - db0["engine_s"]) * 1000 / per
            calls = (db1["engine_calls"] - db0["engine_calls"]) / per
        else:
            db_ms = calls = None
        if shape.db == "sqlite":
            db_cpu: float | None = (db1["engine_cpu_s"] - db0["engine_cpu_s"]) * 1000 / per
        else:
            db_cpu = None if a.pg_cpu is None or b.pg_cpu is None else \
                (b.pg_cpu - a.pg_cpu) * 1000 / per
        people = b.person_actions - a.person_actions
        bot_cpu = (b.cpu_bot - a.cpu_bot) + (b.cpu_workers - a.cpu_workers)
        if shape.db == "postgresql" and a.pg_cpu is not None and b.pg_cpu is not None:
            bot_cpu += b.pg_cpu - a.pg_cpu  # a throw-away server runs on the bot's cores
        drawn = db1["boards_drawn"] - db0["boards_drawn"]
        return {
            "games": self.games, "db": shape.db, "processes": shape.processes,
            "guilds": self.guilds, "bucket_s": self.period, "think_s": list(think),
            "pinned": self.pins.describe(),
            "setup_s": round(getattr(self, "setup_s", 0.0), 1),
            "window_s": round(window, 1), "clicks": len(board), "actions": actions,
            "actions_per_s": round(actions / window, 1),
            "ack_ms_p50": ms(acks),
            "ack_ms_p95": ms(acks, .95), "ack_ms_max": round(max(acks, default=0), 1),
            "acks_over_3s": sum(1 for x in acks if x > 3000),
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
            "boards_drawn_per_written": round(drawn / max(1, pictures), 2),
            "boards_drawn_per_action": round(drawn / per, 2),
            "db_held_ms_per_action": round((db1["held_s"] - db0["held_s"]) * 1000 / per, 2),
            "db_calls_per_action": None if calls is None else round(calls, 1),
            "db_cpu_ms_per_action": None if db_cpu is None else round(db_cpu, 2),
            "loop_lag_ms_p95": lag_p95(db0, db1),
            "gc_ms_per_s": round((db1["gc_s"] - db0["gc_s"]) * 1000 / window, 1),
            "gc_full": int(db1["gc_full_count"] - db0["gc_full_count"]),
            "gc_over_100ms": int(db1["gc_over_100ms"] - db0["gc_over_100ms"]),
            "bot_cpu_ms_per_action": round((b.cpu_bot - a.cpu_bot) * 1000 / per, 2),
            "worker_cpu_ms_per_action": round((b.cpu_workers - a.cpu_workers) * 1000 / per, 2),
            # the share of its cores the bot's side (and the bench) kept busy
            "bot_cores_busy": round(bot_cpu / window / self.pins.bot_cores, 2),
            "bench_cores_busy": round((b.cpu_bench - a.cpu_bench) / window
                                      / (len(self.pins.bench) if self.pins.bench
                                         else len(os.sched_getaffinity(0))), 2),
            "person_actions": people,
            "computer_actions_per_person_action": round((actions - people) / max(1, people),
                                                        2),
            # REST requests the bot made (the fake's count), per action and by route
            "requests_per_action": round((b.requests.total() - a.requests.total()) / per, 2),
            "requests_per_action_by_route": {
                r: round(n / per, 3) for r, n in (b.requests - a.requests).most_common()},
            "rss_kb_per_game_after_setup": None if not hasattr(self, "setup_rss") else
            round((self.setup_rss - self.base_rss) / self.games, 1),
            "rss_kb_per_idle_game": None if not hasattr(self, "idle_rss") else
            round((self.idle_rss - self.base_rss) / self.games, 1),
            "rate_limited": fake.rate_limited(), "rate_limited_where": refused_where(fake),
            "rate_limited_in_window": b.refusals - a.refusals,
            # what the fake flagged in the window (e.g. an acknowledgement the bot cut
            # short after 1 s and made again: Discord answers the second "already
            # acknowledged", which the bot takes as done)
            "fake_errors_in_window": b.fake_errors - a.fake_errors,
            "bot_errors_logged": self.log.count("Traceback"),
            "profiles": [str(f) for f in b.profiles],
        }


async def one_size(games: int, shape: Shape, seconds: float, think: tuple[float, float],
                   period: float, seed: int, guilds: int, unload_after: float,
                   pg_server: str | None = None, pg_pid: int | None = None,
                   warmup: float = 20.0, pins: Pinning = Pinning(None, None),
                   profile: Profile | None = None) -> dict[str, object]:
    """One size and shape on a new SQLite file, or (``pg_server``: a server's URL) a new
    PostgreSQL database there; ``pg_pid``: the server's postmaster, for its CPU time."""
    run = Run(games, shape, period, seed, guilds, unload_after, pg_server, pg_pid, pins)
    async with run:
        await run.set_up()
        await run.wait_idle()
        a, b = await run.play(Pace(think), seconds, profile)
    return run.report(a, b, warmup, think)


@dataclass(frozen=True)
class Limits:
    """What the bot must keep to sustain a rate (in a window after its warm-up)."""

    board_p95_ms: float = 1000.0
    ack_p95_ms: float = 50.0

    def met(self, row: dict[str, object]) -> bool:
        board, ack = row["board_ms_p95_steady"], row["ack_ms_p95"]
        return (isinstance(board, float) and board <= self.board_p95_ms
                and isinstance(ack, float) and ack <= self.ack_p95_ms
                and row["rate_limited_in_window"] == 0)


async def find_rate(games: int, shape: Shape, steps: list[tuple[float, float]],
                    seconds: float, warmup: float, period: float, seed: int, guilds: int,
                    pg_server: str | None, pg_pid: int | None, pins: Pinning,
                    limits: Limits, pace: HumanPace, profile: Profile | None = None
                    ) -> list[dict[str, object]]:
    """``games`` tables set up once, then played in windows of ``seconds``, the people
    thinking less in each (``steps``), until two windows in a row miss the limits: a row
    per window, then the summary: the highest rate of actions a window sustained within
    the limits, per bot core, and as live games at a human pace. The bot runs with its
    own defaults for unloading games and giving memory back (no idle memory measured)."""
    run = Run(games, shape, period, seed, guilds, unload_after=None, pg_server=pg_server,
              pg_pid=pg_pid, pins=pins)
    marks: list[tuple[tuple[float, float], Mark, Mark]] = []
    async with run:
        await run.set_up()
        now = Pace(steps[0])
        missed = 0
        for think in steps:
            now.think = think
            a, b = await run.play(now, seconds, profile)
            marks.append((think, a, b))
            # a first look, to stop early; the report after the run sees late boards too
            missed = 0 if limits.met(run.report(a, b, warmup, think)) else missed + 1
            if missed >= 2:
                break
    rows = []
    for think, a, b in marks:
        row = run.report(a, b, warmup, think)
        row["mode"] = "step"
        row["within_limits"] = limits.met(row)
        rows.append(row)
    rows.append(summary(rows, pins, limits, pace))
    return rows


def _num(row: dict[str, object], key: str) -> float:
    value = row[key]
    assert isinstance(value, (int, float)), (key, value)
    return float(value)


def summary(rows: list[dict[str, object]], pins: Pinning, limits: Limits,
            pace: HumanPace) -> dict[str, object]:
    """The best window within the limits, per bot core and as human-paced games."""
    good = [r for r in rows if r.get("within_limits")]
    best = max(good, key=lambda r: _num(r, "actions_per_s"), default=None)
    out: dict[str, object] = {
        "mode": "summary", "games": rows[0]["games"] if rows else None,
        "pinned": pins.describe(), "bot_cores": pins.bot_cores,
        "limits": {"board_p95_ms": limits.board_p95_ms, "ack_p95_ms": limits.ack_p95_ms,
                   "429s_in_window": 0},
        "human_pace": {"think_s": list(pace.think_s), "computers": pace.computers,
                       "computer_pause_s": pace.computer_pause_s},
        "sustained_actions_per_s": None, "per_bot_core": None,
        "live_games_per_bot_core": None,
    }
    if not rows:
        return out
    busiest = best or max(rows, key=lambda r: _num(r, "actions_per_s"))
    computers = _num(busiest, "computer_actions_per_person_action")
    cpu = _num(busiest, "bot_cpu_ms_per_action") + _num(busiest, "worker_cpu_ms_per_action")
    out.update({
        "think_s": busiest["think_s"],
        "computer_actions_per_person_action": computers,
        "actions_per_live_game_s": round(pace.actions_per_game_s(computers), 4),
        # if the bot's side were the only limit: a core's second over the CPU per action
        # (of the best window, or of the busiest when none kept the limits)
        "cpu_ms_per_action": round(cpu, 2),
        "cpu_bound_actions_per_core_s": round(1000 / cpu, 1) if cpu > 0 else None,
        "cpu_bound_live_games_per_core": round(pace.live_games(1000 / cpu, computers))
        if cpu > 0 else None,
    })
    if best is None:
        out["note"] = "no window within the limits: fewer games or longer thinking (the " \
            "CPU-bound figures are of the busiest window)"
        return out
    rate = _num(best, "actions_per_s")
    per_core = rate / pins.bot_cores
    out.update({
        "sustained_actions_per_s": rate,
        "per_bot_core": round(per_core, 1),
        "bot_cores_busy": best["bot_cores_busy"],
        "live_games_per_bot_core": round(pace.live_games(per_core, computers)),
    })
    return out


COLUMNS = (("games", "games"), ("db", "db"), ("processes", "proc"),
           ("think_s", "think s"),
           ("actions_per_s", "actions/s"), ("ack_ms_p95", "ack p95 ms"),
           ("board_ms_p50", "board p50 ms"), ("board_ms_p95", "board (post) p95 ms"),
           ("board_ms_p95_steady", "board p95 after warm-up ms"),
           ("seen_ms_p95", "first write p95 ms"),
           ("board_writes_carried", "carried by clicks"),
           ("db_ms_per_action", "db ms/action"), ("db_cpu_ms_per_action", "db CPU ms/action"),
           ("db_held_ms_per_action", "db held ms/action"),
           ("loop_lag_ms_p95", "loop lag p95 ms"), ("gc_ms_per_s", "gc ms/s"),
           ("bot_cpu_ms_per_action", "bot CPU ms/action"),
           ("worker_cpu_ms_per_action", "workers CPU ms/action"),
           ("bot_cores_busy", "bot cores busy"), ("bench_cores_busy", "bench cores busy"),
           ("boards_drawn_per_written", "boards drawn/written"), ("rate_limited", "429s"),
           ("acks_over_3s", "acks > 3 s"))


def table(rows: list[dict[str, object]]) -> str:
    """The results as a Markdown table."""
    rows = [r for r in rows if r.get("mode") != "summary"]
    lines = ["| " + " | ".join(title for _, title in COLUMNS) + " |",
             "|" + " --- |" * len(COLUMNS)]
    lines += ["| " + " | ".join(str(r.get(k)) for k, _ in COLUMNS) + " |" for r in rows]
    return "\n".join(lines)


def _think(text: str) -> tuple[float, float]:
    lo, _, hi = text.partition("-")
    return float(lo), float(hi or lo)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bot.bench_load",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="10,100", help="sizes, comma-separated")
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="playing window per size (--find-rate: per step)")
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
    parser.add_argument("--pin", default="auto",
                        help="cores of the bench (the fake and the people) and of the bot "
                             "(its processes and workers, a throw-away PostgreSQL server): "
                             "auto (the first core for the bench, the rest for the bot), off, "
                             "or BENCH:BOT such as 0:1")
    parser.add_argument("--find-rate", action="store_true",
                        help="per size, set the games up once and play windows of --seconds "
                             "with the people thinking less in each (--steps) to find the "
                             "highest rate of actions the bot sustains within --board-p95 and "
                             "--ack-p95 (and no 429), per bot core and as live games at a "
                             "human pace (tests/bot/human_pace.py)")
    parser.add_argument("--steps", default="15-25,8-12,4-6,2-3,1-1.5,0.3-0.6",
                        help="--find-rate: the people's think time of each window, seconds")
    parser.add_argument("--board-p95", type=float, default=1000.0,
                        help="--find-rate: the board p95 (ms, after the warm-up) to keep")
    parser.add_argument("--ack-p95", type=float, default=50.0,
                        help="--find-rate: the acknowledgement p95 (ms) to keep")
    parser.add_argument("--human-think", default="10-30",
                        help="--find-rate: a person's think time at a human pace, seconds")
    parser.add_argument("--profile", metavar="DIR",
                        help="py-spy (installed apart: pip install py-spy) records the bot "
                             "processes and their workers in each window, after its warm-up, "
                             "into DIR; their samples by kind of work are printed at the end "
                             "(tests/bot/profile_split.py). Without --find-rate, a short "
                             "--unload-after makes the bot reload games and collect memory "
                             "far more often than with its defaults, and the profile shows it")
    parser.add_argument("--profile-seconds", type=float, default=30.0,
                        help="--profile: seconds recorded per window")
    parser.add_argument("--profile-rate", type=int, default=50,
                        help="--profile: samples a second")
    args = parser.parse_args(argv)
    think = _think(args.people_think)
    profile = None
    if args.profile:
        if shutil.which("py-spy") is None:
            parser.error("--profile: py-spy is not installed (pip install py-spy)")
        Path(args.profile).mkdir(parents=True, exist_ok=True)
        warm = min(args.warmup, args.seconds / 3)
        profile = Profile(Path(args.profile), warm,
                          max(1.0, min(args.profile_seconds, args.seconds - warm - 1)),
                          args.profile_rate)
    try:
        pins = Pinning.parse(args.pin)
    except ValueError as exc:
        parser.error(str(exc))
    if pins.bench is not None:
        os.sched_setaffinity(0, pins.bench)  # before any thread or child: they inherit it
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
    if any(c < 1 for c in counts):
        parser.error("--processes: 1 or more")
    if args.compare:
        shapes = [Shape("sqlite", 1), Shape("postgresql", 2)]
    else:
        shapes = [Shape(k, c) for k in dict.fromkeys(kinds) for c in counts]
        for shape in shapes:
            if not shape.possible():
                print(f"(skipped: SQLite with {shape.processes} processes; one process per "
                      "SQLite file)", file=sys.stderr)
        shapes = [sh for sh in shapes if sh.possible()]
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
        if pg_pid is not None and pins.bot is not None:
            pin_process_tree(pg_pid, pins.bot)
    rows = []
    try:
        for n in (int(x) for x in args.games.split(",")):
            guilds = min(args.guilds or max(2, n // 10), n)
            period = 0.5 if args.fast else 5.0
            for shape in shapes:
                if args.find_rate:
                    found = asyncio.run(find_rate(
                        n, shape, [_think(s) for s in args.steps.split(",")], args.seconds,
                        min(args.warmup, args.seconds / 3), period, args.seed, guilds,
                        pg_server, pg_pid, pins, Limits(args.board_p95, args.ack_p95),
                        HumanPace(_think(args.human_think)), profile))
                else:
                    found = [asyncio.run(one_size(n, shape, args.seconds, think, period,
                                                  args.seed, guilds, args.unload_after,
                                                  pg_server, pg_pid, args.warmup, pins,
                                                  profile))]
                for result in found:
                    rows.append(result)
                    print(json.dumps(result), flush=True)
    finally:
        if server is not None:
            server.stop()
    print(table(rows), file=sys.stderr)
    if profile is not None:
        for row in rows:
            recorded = row.get("profiles")
            files = [Path(f) for f in recorded] if isinstance(recorded, list) else []
            if files:
                text = profile.table(files, _num(row, "bot_cpu_ms_per_action"),
                                     _num(row, "worker_cpu_ms_per_action"))
                files[0].with_suffix(".md").write_text(text)
                print(f"\n{row['games']} games, think {row['think_s']} s, "
                      f"{row['actions_per_s']} actions/s:\n{text}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
