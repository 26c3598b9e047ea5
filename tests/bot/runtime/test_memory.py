"""Idle games leave memory and come back unchanged; finished work keeps no task (the
resident memory per waiting game)."""

from __future__ import annotations

import asyncio
import gc
import random
from collections.abc import Callable

import pytest

from bot.runtime import memory
from bot.runtime.memory import MemoryKeeper
from bot.store.sqlite import SqliteStorage
from bot.table.service import TableService
from engine.undo import turn_key
from tests.bot.helpers import CollectSink

HOST, BOB, CY = 100, 101, 102


async def _service() -> tuple[TableService, CollectSink]:
    store = await SqliteStorage.open(":memory:")
    sink = CollectSink()
    return TableService(store, sink, ai_delay=0, seed_source=lambda: 11), sink


async def _game(svc: TableService, bots: int) -> int:
    g = (await svc.lobby.create(1, 10, HOST, "Ann", seats=3)).game_id
    for uid, name in ((BOB, "Bob"), (CY, "Cy"))[: 2 - bots]:
        await svc.join(g, uid, name)
    for _ in range(bots):
        await svc.add_ai(g, HOST, "random")
    await svc.start(g, HOST)
    await svc.idle()
    return g


async def _person_moves(svc: TableService, g: int, rng: random.Random, n: int) -> None:
    for _ in range(n):
        await svc.idle()
        table = await svc.tables.get(g)
        people = sorted(s for s in table.since if not table.seats[s].is_ai)
        if not people:
            return
        uid = table.seats[people[0]].user_id
        assert uid is not None
        await svc.act(g, uid, rng.choice(await svc.play.legal(g, uid)), table.version)
    await svc.idle()


@pytest.mark.asyncio
async def test_an_unloaded_game_comes_back_as_it_was() -> None:
    svc, _ = await _service()
    try:
        g = await _game(svc, bots=0)
        await _person_moves(svc, g, random.Random(3), 25)
        before = await svc.tables.get(g)
        snapshot = (before.state.to_json(), before.version, dict(before.since),  # type: ignore[union-attr]
                    before.timeline.seat, len(before.timeline.steps), before.log_len)
        assert svc.unload_idle(3600) == 0, "a game used just now stays"
        assert svc.unload_idle(0) == 1
        assert g not in svc.tables
        again = await svc.tables.get(g)
        assert again is not before
        assert (again.state.to_json(), again.version, dict(again.since),  # type: ignore[union-attr]
                again.timeline.seat, len(again.timeline.steps), again.log_len) == snapshot
        assert turn_key(again.state) == turn_key(before.state)  # type: ignore[arg-type]
        # and it is played on from there
        await _person_moves(svc, g, random.Random(4), 5)
        assert (await svc.tables.get(g)).version > snapshot[1]
    finally:
        await svc.close()
        await svc.storage.close()


@pytest.mark.asyncio
async def test_busy_games_stay_loaded() -> None:
    svc, _ = await _service()
    try:
        g = await _game(svc, bots=0)
        table = await svc.tables.get(g)
        async with table.lock:  # someone is acting on it
            assert svc.unload_idle(0) == 0
        table.covering[0] = "turn"  # a computer decides for a seat whose time ran out
        assert svc.unload_idle(0) == 0
        table.covering.clear()
        svc.computers.tasks[g] = asyncio.create_task(asyncio.sleep(10))  # a computer thinks
        assert svc.unload_idle(0) == 0
        svc.computers.tasks.pop(g).cancel()
        assert svc.unload_idle(0) == 1
    finally:
        await svc.close()
        await svc.storage.close()


@pytest.mark.asyncio
async def test_waiting_games_keep_no_tasks() -> None:
    """Once everything is announced and the computers wait for a person, no per-game task
    or queue is left (they cost memory per waiting game)."""
    svc, sink = await _service()
    try:
        g = await _game(svc, bots=2)
        await _person_moves(svc, g, random.Random(5), 10)
        assert sink.outcomes, "announced"
        assert svc.announcer.publishers == {} and svc.announcer.outboxes == {} \
            and svc.computers.tasks == {}
        # a new outcome starts a new publisher, which ends again
        await _person_moves(svc, g, random.Random(6), 1)
        assert svc.announcer.publishers == {}
    finally:
        await svc.close()
        await svc.storage.close()


@pytest.mark.asyncio
async def test_keeper_trims_after_unloads_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """A full collection costs the event loop 100-500 ms on a big heap: a round that unloaded
    nothing does not pay it (until ``trim_every_s`` has passed)."""
    asked: list[float] = []
    trimmed: list[bool] = []

    async def fake_trim() -> bool:
        trimmed.append(True)
        return True
    monkeypatch.setattr(memory, "trim_async", fake_trim)
    unloads = iter([2, 0, 0])
    keeper = MemoryKeeper(lambda idle: asked.append(idle) or next(unloads), every_s=1,
                          unload_after_s=42, trim_every_s=3600)
    assert await keeper.round() == 2
    assert asked == [42] and trimmed == [True]
    assert await keeper.round() == 0
    assert trimmed == [True], "nothing unloaded, no trim"
    keeper.trim_every_s = 0
    assert await keeper.round() == 0
    assert trimmed == [True, True], "trim_every_s passed"


def _oldest_collections(work: Callable[[], object]) -> int:
    """How many collections of the oldest generation Python makes during ``work``."""
    seen: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            seen.append(1)
    gc.callbacks.append(note)
    try:
        work()
    finally:
        gc.callbacks.remove(note)
    return len(seen)


def _objects_that_live_a_while() -> None:
    """What a busy bot does: many container objects that outlive the young generations."""
    kept = [{"n": i} for i in range(400_000)]
    del kept


@pytest.mark.asyncio
async def test_keeper_takes_over_the_oldest_generation(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Python's own full collections (a dozen a minute at 1,000 games, 0.1-0.5 s each)
    stop while a keeper runs; the keeper collects the oldest generation itself every
    ``collect_every_s``, and Python's thresholds come back when the last keeper stops."""
    monkeypatch.setattr(memory, "_keepers", set())  # another test's bot may run one
    monkeypatch.setattr(memory, "_thresholds", [])
    before = gc.get_threshold()
    first = MemoryKeeper(lambda idle: 0, every_s=3600, trim_every_s=3600,
                         collect_every_s=3600)
    second = MemoryKeeper(lambda idle: 0, every_s=3600)
    first.start()
    second.start()
    try:
        assert gc.get_threshold() == (*before[:2], memory.NEVER), \
            "the young ones as Python has them"
        assert _oldest_collections(_objects_that_live_a_while) == 0
        collected = [0]

        def note(phase: str, info: dict[str, int]) -> None:
            if phase == "start" and info["generation"] == 2:
                collected[0] += 1
        gc.callbacks.append(note)
        try:
            await first.round()
            assert collected == [0], "not due yet"
            first.collect_every_s = 0
            await first.round()
            assert collected == [1], "due: the keeper collects the oldest generation"
        finally:
            gc.callbacks.remove(note)
        await first.close()
        assert gc.get_threshold()[2] == memory.NEVER, "another keeper still runs"
    finally:
        await first.close()
        await second.close()
    assert gc.get_threshold() == before


@pytest.mark.asyncio
async def test_trim_async_runs_here() -> None:
    assert await memory.trim_async() in (True, False)


def test_trim_runs_here() -> None:
    assert memory.trim() in (True, False)  # glibc on CI: True; never raises


@pytest.mark.asyncio
async def test_idle_outboxes_are_dropped_busy_ones_kept() -> None:
    from bot.publish.outbox import Outboxes

    boxes = Outboxes(period=0.2)  # a write is 'stalled' after 0.8 s
    written: list[int] = []

    async def write() -> bool:
        written.append(1)
        return False
    await boxes.submit(1, write)
    assert boxes.forget_idle() == 0, "a write in the last period is still remembered"
    gate = asyncio.Event()

    async def slow() -> bool:
        await gate.wait()
        return False
    pending = boxes.submit(2, slow)
    await asyncio.sleep(0.5)  # a period and the pacer's slack
    assert boxes.forget_idle() == 1  # channel 1 rested a period; channel 2 is writing
    assert [b.channel_id for b in boxes.boxes()] == [2]
    gate.set()
    await pending
    await asyncio.sleep(0.5)
    assert boxes.forget_idle() == 1 and boxes.boxes() == []
    await boxes.submit(1, write)  # made again on next use
    assert written == [1, 1]
    await boxes.close()


@pytest.mark.asyncio
async def test_loads_of_different_games_overlap() -> None:
    """Coming back to unloaded games: each game is loaded once however many clicks arrive
    for it together, and the loads of different games do not wait for each other (one lock
    for all loads made the last of a thousand returning players wait a minute)."""
    svc, _ = await _service()
    try:
        g1 = await _game(svc, bots=2)
        o = await svc.lobby.create(1, 11, BOB, "Bob", seats=3)
        for _ in range(2):
            await svc.add_ai(o.game_id, BOB, "random")
        await svc.start(o.game_id, BOB)
        await svc.idle()
        g2 = o.game_id
        assert svc.unload_idle(0) == 2
        real, gate = svc.tables.load, asyncio.Event()
        loading: list[int] = []
        peak = 0

        async def slow_load(game):  # type: ignore[no-untyped-def]
            nonlocal peak
            loading.append(game.id)
            peak = max(peak, len(loading) - len(done))
            await gate.wait()
            try:
                return await real(game)
            finally:
                done.append(game.id)

        done: list[int] = []
        svc.tables.load = slow_load  # type: ignore[method-assign]
        clicks = [asyncio.create_task(svc.tables.get(g)) for g in (g1, g2, g1, g2)]
        for _ in range(300):  # the store is read first (aiosqlite's thread)
            if len(loading) == 2:
                break
            await asyncio.sleep(0.01)
        assert peak == 2, "the second game's load started while the first one's ran"
        gate.set()
        a, b, a2, b2 = await asyncio.gather(*clicks)
        assert a is a2 and b is b2 and a is not b
        assert sorted(loading) == sorted([g1, g2]), "each game loaded once"
        assert len(svc.tables.load_locks) == 0, "no lock kept for games nobody is loading"
    finally:
        await svc.close()
        await svc.storage.close()


def test_start_up_is_frozen_once_after_its_garbage_is_collected(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What start-up made is frozen once per process, and its garbage is collected first
    (frozen garbage would never be freed). Frozen for real only in a bot's own process:
    here the collector's calls are recorded instead."""
    calls: list[str] = []
    monkeypatch.setattr(memory, "_start_up_frozen", False)
    monkeypatch.setattr(memory.gc, "collect", lambda *a: calls.append("collect") or 0)
    monkeypatch.setattr(memory.gc, "freeze", lambda: calls.append("freeze"))
    assert memory.freeze_start_up() is True
    assert memory.freeze_start_up() is False
    assert calls == ["collect", "freeze"]
