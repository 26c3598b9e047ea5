"""Two bot processes on one PostgreSQL database, without Discord: each is a table service
with its own storage connections, its own announcements (sink) and its own shards. Process
A runs shard 0 (where DMs arrive), process B shard 1; the games live on B's server.

Covers: a click accepted by the process that does not own the game is announced by the
owner (same lines as a local click) and never by the clicker; the owner's computer players
go on after it; both processes clicking the same decision at once apply exactly one; a
stale copy catches up instead of refusing a current button; an owner that was down
re-announces on start and loses nothing; ownership by Discord's shard formula; the turn
clock runs in the owner only (a foreign click's deadline is armed and fired there); an owner
that has unloaded the game announces a foreign click step by step (a finish with its
result stored; lobby and cancel too); a finish made while the owner was down or deaf is
announced when it comes back; each shard runs in one process only; TEMPUS_SHARDS needs
PostgreSQL; compose.yaml's shape."""

from __future__ import annotations

import asyncio
import os
import random
import re
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import pytest_asyncio
import yaml

from bot.cluster.coordinator import Cluster, attach
from bot.cluster.ownership import Ownership, parse_shards, shard_of
from bot.history import ledger as history
from bot.operator.settings import Settings
from bot.store import ACTIVE, FINISHED, Storage
from bot.store.opening import is_postgres_url
from bot.store.postgres import PgStorage
from bot.store.sqlite import SqliteStorage
from bot.table.service import Outcome, TableError, TableService
from bot.timing.pace import PACES, next_event
from bot.timing.scheduler import Scheduler
from bot.timing.time_source import FakeClock
from engine.record import Record, replay
from games.controls import ACT
from games.tempus.codec import encode_action
from tests.bot.helpers import CollectSink

HOST, BOB, CY = 100, 101, 102
#: a server on shard 1 of 2 (process B's); DMs and shard-0 servers go to process A
GUILD_B = 1 << 22


class PostingSink(CollectSink):
    """Keeps every outcome and stores what the Discord publisher stores once it has posted
    one: the version its turn message shows (``announced_version``) and, for a finish,
    the results and ratings (bot.publish.publisher ``_sync`` and bot.publish.final_post)."""

    def __init__(self, storage: Storage) -> None:
        super().__init__()
        self.storage = storage

    async def publish(self, outcome: Outcome) -> None:
        await super().publish(outcome)
        if outcome.kind in ("lobby", "remind", "notice", "cancel"):
            return  # the publisher does not note these as the turn message's version
        await self.storage.set_turn_message(outcome.game_id, 1, outcome.turn_key,
                                            outcome.version)
        if outcome.finished:
            await history.record_finished(self.storage, outcome.game_id)


@dataclass
class Process:
    name: str
    storage: PgStorage
    service: TableService
    sink: PostingSink
    cluster: Cluster | None
    scheduler: Scheduler | None = None

    async def stop(self) -> None:
        if self.cluster is not None:
            await self.cluster.close()
        if self.scheduler is not None:
            await self.scheduler.close()
        await self.service.close()
        await self.storage.close()

    async def settle(self) -> None:
        if self.cluster is not None:
            await self.cluster.idle()
        if self.scheduler is not None:
            await self.scheduler.settle()
        await self.service.idle()


async def start_process(name: str, url: str, shards: list[int] | None, count: int = 2, *,
                        clock: FakeClock | None = None) -> Process:
    """What bot.client.app's setup_hook does, minus Discord; ``clock``: with a turn clock (one
    scheduler per process) driven by this fake time."""
    storage = await PgStorage.open(url)
    sink = PostingSink(storage)
    scheduler = None if clock is None else Scheduler(clock)
    service = TableService(storage, sink, ai_delay=0, seed_source=lambda: 11,
                           scheduler=scheduler)
    ownership = Ownership.of(shards, None if shards is None else count)
    service.owns = ownership.owns
    try:
        cluster = await attach(service, storage, ownership)
    except BaseException:
        await service.close()
        await storage.close()
        raise
    await service.sync.resume_all()
    return Process(name, storage, service, sink, cluster, scheduler)


@pytest_asyncio.fixture
async def two(pg_url: str) -> AsyncIterator[tuple[Process, Process]]:
    a = await start_process("A", pg_url, [0])
    b = await start_process("B", pg_url, [1])
    try:
        yield a, b
    finally:
        for p in (a, b):
            await p.stop()


async def settle(*procs: Process) -> None:
    """Until no process has anything left to hear, think or announce (twice over, since
    one process's work makes notifications for the other)."""
    for _ in range(3):
        for p in procs:
            await p.settle()
        await asyncio.sleep(0.05)


async def _game(owner: Process, *, bots: int = 0, channel: int = 10) -> int:
    svc = owner.service
    o = await svc.lobby.create(GUILD_B, channel, HOST, "Ann", seats=3)
    for uid, name in ((BOB, "Bob"), (CY, "Cy"))[: 2 - bots]:
        await svc.join(o.game_id, uid, name)
    for _ in range(bots):
        await svc.add_ai(o.game_id, HOST, "random")
    await svc.start(o.game_id, HOST)
    return o.game_id


async def _a_decision(proc: Process, g: int) -> tuple[int, int, str, int]:
    """Someone who must decide now in ``proc``'s fresh view: (user, seat, click arg,
    version the control was made at)."""
    await proc.service.sync.refresh(g)
    table = await proc.service.tables.get(g)
    seat = min(s for s in table.since if not table.seats[s].is_ai)
    uid = table.seats[seat].user_id
    assert uid is not None
    action = (await proc.service.play.legal(g, uid))[0]
    return uid, seat, encode_action(action), table.version


def test_ownership_follows_discords_shard_formula() -> None:
    assert shard_of(None, 8) == 0, "DMs arrive on shard 0"
    assert shard_of(GUILD_B, 2) == 1 and shard_of(5 << 22, 8) == 5
    assert shard_of(81384788765712384, 4) == (81384788765712384 >> 22) % 4
    mine = Ownership.of([0, 1, 2, 3], 8)
    assert mine.owns(None) and mine.owns(3 << 22) and not mine.owns(4 << 22)
    assert not mine.everything and Ownership.of([0, 1], 2).everything
    assert Ownership().owns(12345) and Ownership().everything
    assert parse_shards("0-3") == [0, 1, 2, 3] and parse_shards("4, 6-7") == [4, 6, 7]
    for bad in ("", "x", "3-1", "-1", "1-x"):
        with pytest.raises(ValueError, match="TEMPUS_SHARDS"):
            parse_shards(bad)
    with pytest.raises(ValueError, match="TEMPUS_SHARD_COUNT"):
        Ownership.of([0], None)
    with pytest.raises(ValueError, match="does not exist"):
        Ownership.of([0, 8], 8)


def test_settings_read_the_shards_from_the_environment() -> None:
    s = Settings.from_env({"TEMPUS_SHARDS": "0-3", "TEMPUS_SHARD_COUNT": "8",
                           "TEMPUS_DB": "postgresql://u@h/db"})
    assert (s.shard_ids, s.shard_count, s.db) == ([0, 1, 2, 3], 8, "postgresql://u@h/db")
    assert s.ownership.owns(3 << 22) and not s.ownership.owns(4 << 22)
    alone = Settings.from_env({})
    assert (alone.shard_ids, alone.shard_count, alone.db) == (None, None, "tempus.db")
    assert Settings.from_env({"TEMPUS_SHARD_COUNT": "4"}).ownership.everything
    # one token, one global request limit: each process may use its part of it
    assert (s.ownership.share, alone.ownership.share) == (0.5, 1.0)
    assert Ownership.of([1], 3).share == pytest.approx(1 / 3)
    with pytest.raises(ValueError, match="TEMPUS_SHARD_COUNT"):
        Settings.from_env({"TEMPUS_SHARDS": "0-3"})
    with pytest.raises(ValueError, match="not a number"):
        Settings.from_env({"TEMPUS_SHARDS": "0", "TEMPUS_SHARD_COUNT": "many"})


def test_some_shards_on_sqlite_are_refused_before_connecting(
        tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """TEMPUS_SHARDS without PostgreSQL: the settings refuse it, and ``python -m bot``
    says why and exits before it connects to Discord (no traceback after the login)."""
    from bot.__main__ import main

    with pytest.raises(ValueError, match="PostgreSQL database: set TEMPUS_DB=postgresql"):
        Settings.from_env({"TEMPUS_SHARDS": "0", "TEMPUS_SHARD_COUNT": "2"})
    every = Settings.from_env({"TEMPUS_SHARDS": "0-1", "TEMPUS_SHARD_COUNT": "2"})
    assert every.ownership.everything and every.db == "tempus.db", "all shards: one process"
    db = str(tmp_path / "t.db")
    for key, value in {"TEMPUS_SHARDS": "1", "TEMPUS_SHARD_COUNT": "2", "TEMPUS_DB": db,
                       "DISCORD_TOKEN": "x", "TEMPUS_DISCORD_API": "http://127.0.0.1:9/api",
                       "TEMPUS_DISCORD_GATEWAY": "ws://127.0.0.1:9"}.items():
        monkeypatch.setenv(key, value)
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "TEMPUS_SHARDS=1 runs only some of the bot's shards" in err and db in err, err
    assert "Traceback" not in err
    assert not (tmp_path / "t.db").exists(), "nothing was opened"


def _default(value: str) -> str:
    """The value a compose ``${VAR:-default}`` takes with VAR unset."""
    m = re.fullmatch(r"\$\{(\w+):-([^}]*)\}", value)
    assert m is not None, value
    return m.group(2)


def test_compose_builds_one_image_and_covers_every_shard_once() -> None:
    """compose.yaml as compose reads it: one service builds the bot's image, the other
    runs it without pulling; both wait for a healthy PostgreSQL; the password is not in
    the URL (PGPASSWORD: no escaping); the default shard lists cover every shard of the
    default count once; one process registers the commands."""
    root = Path(__file__).resolve().parents[3]
    doc = yaml.safe_load((root / "compose.yaml").read_text())
    services = doc["services"]
    assert set(services) == {"db", "bot-a", "bot-b", "backup"}
    assert "tempus-pg" in doc["volumes"] and "tempus-backups" in doc["volumes"]
    bots = {name: svc for name, svc in services.items() if name not in ("db", "backup")}
    builders = [name for name, svc in bots.items() if "build" in svc]
    assert builders == ["bot-a"], "one service builds the image"
    assert {svc["image"] for svc in bots.values()} == {"tempus-bot"}
    assert bots["bot-b"]["pull_policy"] == "never"
    assert bots["bot-b"]["depends_on"]["bot-a"]["condition"] == "service_started"
    covered: list[int] = []
    for svc in bots.values():
        assert svc["depends_on"]["db"]["condition"] == "service_healthy"
        env = svc["environment"]
        url = env["TEMPUS_DB"]
        assert is_postgres_url(url) and urlsplit(url).password is None
        assert _default(env["PGPASSWORD"]) == _default(
            services["db"]["environment"]["POSTGRES_PASSWORD"])
        count = int(_default(env["TEMPUS_SHARD_COUNT"]))
        shards = parse_shards(_default(env["TEMPUS_SHARDS"]))
        Ownership.of(shards, count)
        covered += shards
    assert sorted(covered) == list(range(count)), "every shard in exactly one process"
    assert [svc["environment"].get("TEMPUS_SYNC_COMMANDS", "1") for svc in bots.values()
            ].count("1") == 1


@pytest.mark.asyncio
async def test_splitting_shards_needs_postgres(tmp_path) -> None:
    store = await SqliteStorage.open(str(tmp_path / "t.db"))
    try:
        svc = TableService(store, CollectSink())
        assert await attach(svc, store, Ownership()) is None  # alone: nothing to share
        with pytest.raises(ValueError, match="postgresql"):
            await attach(svc, store, Ownership.of([0], 2))
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_each_shard_runs_in_one_process_only(pg_url: str, pg_server) -> None:
    """A process refuses to start, naming the shard and the process that has it, when
    another one on the database runs one of its shards, when an unsharded process is
    next to sharded ones (either way round), or when the shard counts differ; a refusal
    holds nothing, and a shard is free again once its process has stopped."""
    from bot.__main__ import store_refusal
    from bot.cluster.coordinator import ShardsTaken

    a = await start_process("A", pg_url, [0])
    b = await start_process("B", pg_url, [1])
    procs = [a, b]
    try:
        with pytest.raises(ShardsTaken) as err:
            await start_process("C", pg_url, [1])
        text = store_refusal(err.value, "postgresql://db")
        assert "shard 1 of 2 already runs in another bot process" in text, text
        assert f"pid {os.getpid()} on {socket.gethostname()}" in text, text
        with pytest.raises(ShardsTaken, match="shard 0 of 2"):
            await start_process("C", pg_url, [0])
        for every in (None, [0, 1]):  # no TEMPUS_SHARDS, or all of them
            with pytest.raises(ShardsTaken, match="This process runs every shard"):
                await start_process("C", pg_url, every)
        with pytest.raises(ShardsTaken, match="TEMPUS_SHARD_COUNT=2"):
            await start_process("C", pg_url, [3], count=4)
        # another database of the same server is another bot: nothing in common
        elsewhere = await start_process("X", pg_server.create_database("shards_elsewhere"),
                                        [1], count=4)
        await elsewhere.stop()
        await b.stop()
        procs.remove(b)
        c = await start_process("C", pg_url, [1])  # B's shard is free again
        procs.append(c)
        for p in list(procs):
            await p.stop()
            procs.remove(p)
        whole = await start_process("W", pg_url, None)  # one process, every shard
        procs.append(whole)
        assert whole.cluster is not None and whole.cluster.listener is None
        with pytest.raises(ShardsTaken, match="runs every shard"):
            await start_process("C", pg_url, [0])
        with pytest.raises(ShardsTaken, match="This process runs every shard"):
            await start_process("C", pg_url, None)
    finally:
        for p in procs:
            await p.stop()


@pytest.mark.asyncio
async def test_a_click_in_the_other_process_is_announced_by_the_owner(
        two: tuple[Process, Process]) -> None:
    a, b = two
    g = await _game(b)
    await settle(a, b)
    start_posts = len(b.sink.outcomes)
    uid, seat, arg, version = await _a_decision(a, g)
    reply = await a.service.clicks.use(g, version, uid, "x", ACT, arg)
    assert reply.outcome is not None and reply.outcome.version == version + 1
    await settle(a, b)
    assert a.sink.outcomes == [], "the clicker's process never announces another's game"
    new = b.sink.outcomes[start_posts:]
    assert [o.version for o in new] == [version + 1]
    local = reply.outcome
    assert (new[0].lines, new[0].public_view, new[0].actor, new[0].kind) == (
        local.lines, local.public_view, seat, "play")
    assert new[0].secret_panels.keys() == local.secret_panels.keys()
    assert (await b.service.tables.get(g)).version == version + 1


@pytest.mark.asyncio
async def test_both_processes_click_the_same_decision_at_once(
        two: tuple[Process, Process]) -> None:
    """Many rounds: A and B accept the same click for the same decision at the same
    moment; exactly one is applied each time, the other is refused with a readable
    message, and the log holds each decision once."""
    a, b = two
    g = await _game(b)
    await settle(a, b)
    for _ in range(12):
        uid, _seat, arg, version = await _a_decision(b, g)
        await a.service.sync.refresh(g)
        results = await asyncio.gather(
            a.service.clicks.use(g, version, uid, "x", ACT, arg),
            b.service.clicks.use(g, version, uid, "x", ACT, arg), return_exceptions=True)
        ok = [r for r in results if not isinstance(r, BaseException)]
        refused = [r for r in results if isinstance(r, BaseException)]
        assert len(ok) == 1 and len(refused) == 1, results
        assert isinstance(refused[0], TableError), refused[0]
        assert refused[0].key in ("error.stale", "error.not_your_turn"), refused[0].key
        await settle(a, b)
        game = await b.storage.game(g)
        assert game.version == version + 1
    rows = await b.storage.actions(g)
    assert [r.version for r in rows] == list(range(rows[0].version, rows[0].version + 12))
    assert (await a.service.tables.get(g)).version == (await b.service.tables.get(g)).version


@pytest.mark.asyncio
async def test_a_stale_copy_catches_up_instead_of_refusing_a_current_button(
        two: tuple[Process, Process]) -> None:
    a, b = two
    g = await _game(b)
    await settle(a, b)
    await a.service.tables.get(g)  # A has the game loaded at the start
    for _ in range(3):  # the owner moves on; A hears nothing (it does not own the game)
        uid, _seat, arg, version = await _a_decision(b, g)
        await b.service.clicks.use(g, version, uid, "x", ACT, arg)
    await settle(a, b)
    assert (await a.service.tables.get(g)).version < (await b.service.tables.get(g)).version
    uid, _seat, arg, version = await _a_decision(b, g)  # a button B just posted
    reply = await a.service.clicks.use(g, version, uid, "x", ACT, arg)
    assert reply.outcome is not None and reply.outcome.version == version + 1
    await settle(a, b)
    assert b.sink.outcomes[-1].version == version + 1


@pytest.mark.asyncio
async def test_the_owner_plays_the_computers_after_a_foreign_click(pg_url: str) -> None:
    """One person (who clicks in DMs: process A) and two computer players (run by the
    owner, B) play a whole game: the game ends, B announced every version in order, A ran
    no computer player and announced nothing, and the stored log replays to the end."""
    a = await start_process("A", pg_url, [0])
    b = await start_process("B", pg_url, [1])
    try:
        g = await _game(b, bots=2)
        rng = random.Random(3)
        for _ in range(2000):
            await settle(a, b)
            await a.service.sync.refresh(g)
            table = await a.service.tables.get(g)
            if table.game.status != ACTIVE:
                break
            if not any(not table.seats[s].is_ai for s in table.since):
                continue  # computers are still to move (B hears of it)
            action = rng.choice(await a.service.play.legal(g, HOST))
            await a.service.clicks.use(g, table.version, HOST, "Ann", ACT, encode_action(action))
        game = await b.storage.game(g)
        assert game.status == FINISHED
        assert a.sink.outcomes == [] and not a.service.computers.tasks
        versions = [o.version for o in b.sink.outcomes]
        assert versions == sorted(versions) and versions[-1] == game.version
        assert b.sink.outcomes[-1].finished
        rows = await b.storage.actions(g)
        assert len({r.seat for r in rows}) == 3
        record = Record.from_json(b.sink.outcomes[-1].record)
        final = replay(record)
        assert final.to_json() == game.state
    finally:
        await a.stop()
        await b.stop()


@pytest.mark.asyncio
async def test_an_owner_that_was_down_loses_nothing(pg_url: str) -> None:
    a = await start_process("A", pg_url, [0])
    b = await start_process("B", pg_url, [1])
    try:
        g = await _game(b)
        await settle(a, b)
        await b.stop()  # the owner is down
        done, lines = [], []
        for _ in range(3):  # DM clicks still reach A, which stores them
            uid, _seat, arg, version = await _a_decision(a, g)
            reply = await a.service.clicks.use(g, version, uid, "x", ACT, arg)
            done.append(reply.outcome.version)
            lines += reply.outcome.lines
        await a.settle()
        assert a.sink.outcomes == []
        b = await start_process("B", pg_url, [1])  # its replacement, same shards
        await settle(a, b)
        # caught up step by step when it starts listening: the clicks' own lines
        assert [(o.kind, o.version) for o in b.sink.outcomes] == [("play", done[-1])]
        assert b.sink.outcomes[0].lines == lines
        uid, _seat, arg, version = await _a_decision(a, g)  # and play goes on
        await a.service.clicks.use(g, version, uid, "x", ACT, arg)
        await settle(a, b)
        assert b.sink.outcomes[-1].version == version + 1
        rows = await b.storage.actions(g)
        assert [r.version for r in rows][-4:] == [*done, version + 1]
    finally:
        await a.stop()
        await b.stop()


async def _play_through_a(a: Process, b: Process | None, g: int, *, unload: bool = False,
                           upto: int = 3000) -> dict[int, Outcome]:
    """Every click of game ``g`` in process A (its DMs), ``upto`` clicks or to the end,
    each announced by the owner B before the next (None: B is down); ``unload``: B has
    forgotten the game (idle, ``unload_idle``) before each. Returns A's own outcome of
    each click, by version."""
    rng = random.Random(5)
    local: dict[int, Outcome] = {}
    procs = [p for p in (a, b) if p is not None]
    await settle(*procs)
    for _ in range(upto):
        table = await a.service.tables.get(g)  # A made the last change: up to date
        if table.game.status != ACTIVE:
            break
        seat = min(table.since)
        uid = table.seats[seat].user_id
        action = rng.choice(await a.service.play.legal(g, uid))
        if unload:
            assert b is not None
            b.service.unload_idle(0)
            assert g not in b.service.tables
        reply = await a.service.clicks.use(g, table.version, uid, "x", ACT, encode_action(action))
        assert reply.outcome is not None
        local[reply.outcome.version] = reply.outcome
        if b is not None:
            await _announced(b, g, reply.outcome.version)
    await settle(*procs)
    return local


async def _announced(proc: Process, g: int, version: int, timeout_s: float = 20) -> None:
    """Until ``proc`` has announced ``version`` of game ``g`` (or fail)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout_s
    while not any(o.game_id == g and o.version >= version for o in proc.sink.outcomes):
        assert loop.time() < end, f"{proc.name} never announced version {version}"
        await asyncio.sleep(0.002)
    await proc.settle()


@pytest.mark.asyncio
async def test_the_owner_announces_a_foreign_click_on_a_game_it_has_unloaded(
        two: tuple[Process, Process]) -> None:
    """The owner forgets an idle game (TEMPUS_UNLOAD_AFTER); a click in the other process
    is announced by the owner step by step, as if it had the game loaded: the action's
    lines, never a restart notice."""
    a, b = two
    g = await _game(b)
    await settle(a, b)
    mark = len(b.sink.outcomes)
    local = await _play_through_a(a, b, g, unload=True, upto=6)
    new = b.sink.outcomes[mark:]
    assert [o.version for o in new] == sorted(local), "each click, once, in order"
    for o in new:
        assert o.kind == "play" and o.lines == local[o.version].lines
        assert o.public_view == local[o.version].public_view
        assert not any("restarted" in line for line in o.lines)
    assert a.sink.outcomes == []
    game = await b.storage.game(g)
    assert game.announced_version == game.version


@pytest.mark.asyncio
async def test_a_foreign_finish_of_an_unloaded_game_is_announced_and_recorded(
        two: tuple[Process, Process]) -> None:
    """Every click through A, the owner B unloaded before each: B announces every step
    and the finish (with the record), and the results and ratings are stored."""
    a, b = two
    g = await _game(b)
    await settle(a, b)
    mark = len(b.sink.outcomes)
    local = await _play_through_a(a, b, g, unload=True)
    game = await b.storage.game(g)
    assert game.status == FINISHED
    new = b.sink.outcomes[mark:]
    assert [o.version for o in new] == sorted(local)
    assert all(o.kind == "play" and o.lines == local[o.version].lines for o in new)
    final = new[-1]
    assert final.finished and final.version == game.version
    assert replay(Record.from_json(final.record)).to_json() == game.state
    assert game.announced_version == game.version
    results = await b.storage.results(GUILD_B, game_ids=[g])
    assert sorted(r.user_id for r in results) == [HOST, BOB, CY]
    assert set(await b.storage.ratings(GUILD_B)) == {HOST, BOB, CY}


@pytest.mark.asyncio
async def test_an_unloaded_owner_announces_a_foreign_lobby_change_and_cancel(
        two: tuple[Process, Process]) -> None:
    """Lobby and cancel made in the other process while the owner has the game unloaded:
    the owner posts the lobby as it is now, and the cancel."""
    a, b = two
    o = await b.service.lobby.create(GUILD_B, 10, HOST, "Ann", seats=3)
    g = o.game_id
    await settle(a, b)
    b.service.unload_idle(0)
    await a.service.join(g, BOB, "Bob")
    await settle(a, b)
    lobby = b.sink.outcomes[-1]
    assert (lobby.kind, lobby.version) == ("lobby", 1)
    assert [s.name for s in lobby.seats] == ["Ann", "Bob"] and "Bob" in lobby.panel.text
    await a.service.join(g, CY, "Cy")
    await a.service.start(g, HOST)
    await settle(a, b)
    assert b.sink.outcomes[-1].kind == "play"
    await _play_through_a(a, b, g, unload=True, upto=2)
    b.service.unload_idle(0)
    await a.service.lobby.cancel(g, HOST)
    await settle(a, b)
    assert b.sink.outcomes[-1].kind == "cancel"
    assert b.sink.outcomes[-1].version == (await b.storage.game(g)).version
    assert a.sink.outcomes == []


async def _finish_is_recorded(owner: Process, g: int, mark: int) -> Outcome:
    """The owner announced game ``g``'s finish once since ``mark`` (its last outcome), and
    its results and ratings are stored."""
    game = await owner.storage.game(g)
    assert game.status == FINISHED and game.announced_version == game.version
    new = owner.sink.outcomes[mark:]
    assert [o.finished for o in new].count(True) == 1 and new[-1].finished
    final = new[-1]
    assert final.version == game.version and final.kind == "play"
    assert replay(Record.from_json(final.record)).to_json() == game.state
    assert not any("restarted" in line for o in new for line in o.lines)
    results = await owner.storage.results(GUILD_B, game_ids=[g])
    assert sorted(r.user_id for r in results) == [HOST, BOB, CY]
    assert set(await owner.storage.ratings(GUILD_B)) == {HOST, BOB, CY}
    return final


@pytest.mark.asyncio
async def test_a_game_finished_while_its_owner_was_down_is_announced_at_its_start(
        pg_url: str) -> None:
    """The owner is down; the game is played to its end through the other process. The
    owner's replacement announces the finish (the last steps' lines, the result) and the
    results and ratings are stored; the next start announces nothing more."""
    a = await start_process("A", pg_url, [0])
    b = await start_process("B", pg_url, [1])
    try:
        g = await _game(b)
        await settle(a, b)
        await b.stop()
        local = await _play_through_a(a, None, g)
        assert a.sink.outcomes == []
        b = await start_process("B", pg_url, [1])
        await settle(a, b)
        final = await _finish_is_recorded(b, g, 0)
        last = max(local)
        assert final.lines[-len(local[last].lines):] == local[last].lines
        await b.stop()
        b = await start_process("B", pg_url, [1])
        await settle(a, b)
        assert b.sink.outcomes == []
    finally:
        await a.stop()
        await b.stop()


@pytest.mark.asyncio
async def test_a_finish_missed_while_not_listening_is_announced_on_reconnect(
        two: tuple[Process, Process]) -> None:
    """The owner has the game loaded but its LISTEN connection is down while the other
    process finishes the game: reconnecting announces the finish."""
    a, b = two
    g = await _game(b)
    await settle(a, b)
    await b.service.tables.get(g)
    assert b.cluster is not None and b.cluster.listener is not None
    listener = b.cluster.listener
    await listener.close()
    mark = len(b.sink.outcomes)
    await _play_through_a(a, None, g)
    assert len(b.sink.outcomes) == mark, "B has not heard"
    await listener.start()
    await settle(a, b)
    await _finish_is_recorded(b, g, mark)


@pytest.mark.asyncio
async def test_one_process_announces_a_finish_it_stored_but_never_posted(tmp_path) -> None:
    """SQLite, one process: it stopped between storing the finishing action and posting
    it; at its next start the finish is announced (with the result), once."""
    db = str(tmp_path / "t.db")
    store = await SqliteStorage.open(db)
    sink = CollectSink()
    svc = TableService(store, sink, ai_delay=0, seed_source=lambda: 11)
    o = await svc.lobby.create(None, 10, HOST, "Ann", seats=3)
    for _ in range(2):
        await svc.add_ai(o.game_id, HOST, "random")
    await svc.start(o.game_id, HOST)
    g = o.game_id
    rng = random.Random(2)
    while (table := await svc.tables.get(g)).game.status == ACTIVE:
        await svc.idle()
        if HOST not in {table.seats[s].user_id for s in table.since}:
            continue
        action = rng.choice(await svc.play.legal(g, HOST))
        await svc.clicks.use(g, table.version, HOST, "Ann", ACT, encode_action(action))
    await svc.idle()
    version = (await svc.tables.get(g)).version
    assert sink.outcomes[-1].finished and sink.outcomes[-1].version == version
    await store.set_turn_message(g, 1, "k", version - 1)  # the last post never went out
    await svc.close()
    await store.close()

    for expected in ([version], []):
        store = await SqliteStorage.open(db)
        sink = PostingSink(store)
        svc = TableService(store, sink, ai_delay=0, seed_source=lambda: 11)
        assert await svc.sync.resume_all() == []
        await svc.idle()
        assert [o.version for o in sink.outcomes] == expected
        if expected:
            assert sink.outcomes[0].finished and sink.outcomes[0].record is not None
            assert sink.outcomes[0].lines and sink.outcomes[0].kind == "play"
        await svc.close()
        await store.close()


@pytest.mark.asyncio
async def test_a_missed_notification_is_caught_up_on_reconnect(
        two: tuple[Process, Process]) -> None:
    """The owner's LISTEN connection drops while another process commits: after
    reconnecting it finds the change and announces it."""
    a, b = two
    g = await _game(b)
    await settle(a, b)
    assert b.cluster is not None and b.cluster.listener is not None
    listener = b.cluster.listener
    await listener.close()  # deaf for a while
    uid, _seat, arg, version = await _a_decision(a, g)
    await a.service.clicks.use(g, version, uid, "x", ACT, arg)
    await asyncio.sleep(0.2)
    assert b.sink.outcomes[-1].version == version, "B has not heard"
    await listener.start()  # reconnect: on_connect resyncs
    await settle(a, b)
    assert b.sink.outcomes[-1].version == version + 1


def _entries(proc: Process, g: int) -> dict[int, tuple[float, str]]:
    """What ``proc``'s scheduler has armed for game ``g``, by seat."""
    assert proc.scheduler is not None
    out = {}
    for seat in range(5):
        due = proc.scheduler.due((g, seat))
        if due is not None:
            out[seat] = due
    return out


@pytest.mark.asyncio
async def test_the_turn_clock_runs_in_the_owner_only(pg_url: str) -> None:
    """A click accepted by the process that does not own the game stores the clocks it
    implies; the owner reads them when it catches up and arms them, the clicker arms
    nothing; the new decision's reminders and deadline fire once, in the owner (the
    computer decides for the seat there), never in the clicker."""
    clock = FakeClock()
    live = PACES["live"]
    a = await start_process("A", pg_url, [0], clock=clock)
    b = await start_process("B", pg_url, [1], clock=clock)
    try:
        o = await b.service.lobby.create(GUILD_B, 10, HOST, "Ann", seats=3, pace_name="live")
        g = o.game_id
        for uid, name in ((BOB, "Bob"), (CY, "Cy")):
            await b.service.join(g, uid, name)
        await b.service.start(g, HOST)
        await settle(a, b)
        assert _entries(b, g) and _entries(a, g) == {}
        # clicks in A (its DMs) until one starts a new decision with a fresh clock
        for _ in range(10):
            clock.advance(5)
            uid, _seat, arg, version = await _a_decision(a, g)
            reply = await a.service.clicks.use(g, version, uid, "x", ACT, arg)
            assert reply.outcome is not None and reply.outcome.version == version + 1
            await settle(a, b)
            fresh = [r for r in await b.storage.deadlines(g)
                     if r.since == version + 1 and r.due_at is not None]
            if fresh:
                break
        else:
            raise AssertionError("no click started a new decision")
        row = fresh[0]
        assert row.started_at == clock.now() and row.due_at == clock.now() + live.seconds
        assert (await b.service.tables.get(g)).version == version + 1
        assert (await b.service.tables.get(g)).clock[row.seat] == row
        armed = _entries(b, g)
        assert armed[row.seat] == next_event(row.started_at, row.due_at, 0, live)
        assert {s for s, r in (await b.service.tables.get(g)).clock.items()
                if r.due_at is not None} == set(armed)
        assert a.scheduler is not None and len(a.scheduler) == 0, "the clicker arms nothing"
        # time passes to the new decision's deadline (nobody clicks)
        user = (await b.service.tables.get(g)).seats[row.seat].user_id
        marks = (len(a.sink.outcomes), len(b.sink.outcomes))
        while clock.now() < row.due_at + 1:
            await settle(a, b)
            assert b.scheduler is not None
            nxt = b.scheduler.next_due()
            clock.set(min(nxt, row.due_at + 1) if nxt is not None else row.due_at + 1)
            b.scheduler.wake()
        await settle(a, b)
        assert a.sink.outcomes[marks[0]:] == [] and len(a.scheduler) == 0
        outs = b.sink.outcomes[marks[1]:]
        reminded = [r.stage for x in outs for r in x.reminders if r.user_id == user]
        assert reminded[:2] == [1, 2], reminded
        timeouts = [line for x in outs for line in x.lines
                    if "Time is up for" in line and f"<@{user}>" in line]
        assert len(timeouts) == 1, timeouts
        after = {r.seat: r for r in await b.storage.deadlines(g)}
        assert after[row.seat].strikes == 1
        rows = await b.storage.actions(g)
        assert rows[-1].seat == row.seat and rows[-1].version > version + 1
    finally:
        await a.stop()
        await b.stop()
