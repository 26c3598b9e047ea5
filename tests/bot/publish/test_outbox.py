"""The per-channel outbox: pacing to Discord's buckets, coalescing, order, retries."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import discord
import pytest

from bot.publish.outbox import ChannelOutbox, Pacer


class _Resp:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "test"


def http_error(status: int) -> discord.HTTPException:
    return discord.HTTPException(_Resp(status), {"message": "test", "code": 0})  # type: ignore


def max_in_window(times: list[float], window: float) -> int:
    return max((sum(1 for u in times if t <= u < t + window) for t in times), default=0)


def test_pacer_allows_limit_events_per_period() -> None:
    now = [0.0]
    p = Pacer(5, 5.0, clock=lambda: now[0])
    for _ in range(5):
        assert p.delay() == 0
        p.note()
    assert p.delay() > 5.0 - 0.01
    now[0] = 5.3
    assert p.delay() == 0


@pytest.mark.asyncio
async def test_writes_are_paced_and_kept_in_order() -> None:
    box = ChannelOutbox(1, limit=3, period=0.3)
    done: list[tuple[int, float]] = []

    def write(i: int) -> Any:
        async def run() -> bool:
            done.append((i, time.monotonic()))
            return False
        return run

    for i in range(9):
        box.submit(write(i))
    await asyncio.wait_for(box.drain(), 10)
    assert [i for i, _ in done] == list(range(9)), "nothing without a key is dropped"
    assert max_in_window([t for _, t in done], 0.3) <= 3


@pytest.mark.asyncio
async def test_waiting_writes_with_one_key_coalesce_to_the_newest() -> None:
    box = ChannelOutbox(1, limit=1, period=0.2)
    state = {"shown": None, "newest": 0}
    writes: list[Any] = []

    async def sync() -> bool:
        state["shown"] = state["newest"]
        writes.append(state["newest"])
        return False

    async def other() -> bool:
        writes.append("post")
        return False

    box.submit(other)
    for n in range(1, 4):
        state["newest"] = n
        box.submit(sync, key="turn:1")
    await asyncio.wait_for(box.drain(), 10)
    assert writes == ["post", 3], "three waiting edits of the turn message became one"


@pytest.mark.asyncio
async def test_a_refused_write_is_retried_and_a_run_of_refusals_reported_once() -> None:
    import bot.publish.outbox as ob
    box = ChannelOutbox(1, limit=50, period=1.0)
    troubles: list[int] = []
    attempts = {"n": 0}
    failing = {"until": 2}

    async def trouble(channel: int, exc: BaseException) -> None:
        troubles.append(channel)

    box.on_trouble = trouble

    async def flaky() -> bool:
        attempts["n"] += 1
        if attempts["n"] <= failing["until"]:
            raise http_error(500 if attempts["n"] % 2 else 429)
        return False

    old = ob.MAX_BACKOFF
    try:
        ob.MAX_BACKOFF = 0.05
        box.submit(flaky)
        await asyncio.wait_for(box.drain(), 10)
        assert attempts["n"] == 3 and troubles == [], "two passing refusals: nobody told"
        attempts["n"], failing["until"] = 0, ob.TROUBLE_AFTER + 3
        box.submit(flaky)
        box.submit(flaky)
        await asyncio.wait_for(box.drain(), 10)
    finally:
        ob.MAX_BACKOFF = old
    assert troubles == [1], "a run of refusals is reported once"


@pytest.mark.asyncio
async def test_a_write_refused_for_good_is_dropped_and_the_queue_goes_on() -> None:
    box = ChannelOutbox(1, limit=50, period=1.0)
    out: list[str] = []

    async def bad() -> bool:
        raise http_error(403)

    async def good() -> bool:
        out.append("ok")
        return False

    box.submit(bad)
    box.submit(good)
    await asyncio.wait_for(box.drain(), 10)
    assert out == ["ok"]


@pytest.mark.asyncio
async def test_a_write_with_more_to_do_runs_again_before_the_next_item() -> None:
    box = ChannelOutbox(1, limit=50, period=1.0)
    out: list[str] = []
    left = {"n": 2}

    async def two_steps() -> bool:
        out.append(f"step{left['n']}")
        left["n"] -= 1
        return left["n"] > 0

    async def after() -> bool:
        out.append("after")
        return False

    box.submit(two_steps)
    box.submit(after)
    await asyncio.wait_for(box.drain(), 10)
    assert out == ["step2", "step1", "after"]


@pytest.mark.asyncio
async def test_a_write_that_stalls_is_reported_once_and_still_awaited() -> None:
    """discord.py retries 429s and 5xx itself: a refused write shows as a slow one."""
    troubles: list[BaseException] = []

    async def trouble(channel: int, exc: BaseException) -> None:
        troubles.append(exc)

    box = ChannelOutbox(1, limit=50, period=1.0, on_trouble=trouble, stall_after=0.05)
    done: list[int] = []

    async def slow(n: int) -> bool:
        await asyncio.sleep(0.2)
        done.append(n)
        return False

    box.submit(lambda: slow(1))
    box.submit(lambda: slow(2))
    await asyncio.wait_for(box.drain(), 10)
    assert done == [1, 2], "nothing dropped, in order"
    assert len(troubles) == 1, "reported once while each write stalled"
    box.submit(lambda: slow(3))
    await asyncio.wait_for(box.drain(), 10)
    assert len(troubles) == 1 and done == [1, 2, 3]


@pytest.mark.asyncio
async def test_posts_and_edits_are_paced_in_their_own_buckets() -> None:
    """Discord counts creating and editing messages in separate buckets: five of each may
    go in one period; an item that does not say what it does counts against both."""
    box = ChannelOutbox(1, limit=5, period=0.4)
    sent: list[tuple[float, str]] = []

    def writer(kind: str):  # type: ignore[no-untyped-def]
        async def write() -> bool:
            sent.append((time.monotonic(), kind))
            return False
        return write

    t0 = time.monotonic()
    for i in range(10):
        box.submit(writer("post" if i % 2 else "edit"), kind="post" if i % 2 else "edit")
    await asyncio.wait_for(box.drain(), 10)
    assert time.monotonic() - t0 < 0.3, "five posts and five edits fit in one period"
    for kind in ("post", "edit"):
        assert max_in_window([t for t, k in sent if k == kind], 0.4) <= 5
    sent.clear()
    t1 = time.monotonic()
    box.submit(writer("either"))  # counts against both: both buckets are full now
    await asyncio.wait_for(box.drain(), 10)
    assert sent[0][0] - t1 >= 0.3


@pytest.mark.asyncio
async def test_a_submit_while_its_key_is_being_written_runs_it_once_more() -> None:
    """What the running write sent may be old already: it runs again, never in parallel."""
    box = ChannelOutbox(1, limit=50, period=1.0)
    state = {"newest": 1, "running": 0}
    sent: list[int] = []
    started = asyncio.Event()
    go_on = asyncio.Event()

    async def sync() -> bool:
        state["running"] += 1
        assert state["running"] == 1, "one key is never written twice at once"
        seen = state["newest"]
        started.set()
        await go_on.wait()
        sent.append(seen)
        state["running"] -= 1
        return False

    box.submit(sync, key="hand:1")
    await started.wait()
    state["newest"] = 2
    box.submit(sync, key="hand:1")  # merged into the running item
    go_on.set()
    await asyncio.wait_for(box.drain(), 10)
    assert sent == [1, 2], "the newer state went out after the one being written"


@pytest.mark.asyncio
async def test_a_superseded_write_spends_no_slot_and_the_newest_goes_out() -> None:
    """An item that finds itself out of date before writing (bot.publish.request_pace dropped its
    request, or its board drawing was superseded) raises Superseded: it is run again with
    the newest state at once, and the channel's buckets count only the real write."""
    from bot.runtime.worker_pool import Superseded

    box = ChannelOutbox(1, limit=1, period=0.5)
    state = {"newest": 1, "tries": 0}
    sent: list[int] = []

    async def sync() -> bool:
        state["tries"] += 1
        if state["tries"] == 1:
            state["newest"] = 2  # a newer state came while this one waited
            raise Superseded()
        sent.append(state["newest"])
        return False

    async def after() -> bool:
        sent.append(0)
        return False

    t0 = time.monotonic()
    box.submit(sync, key="turn:1")
    box.submit(after)
    await asyncio.wait_for(box.drain(), 10)
    assert sent == [2, 0]
    assert box.superseded == 1 and box.writes == 2
    # one slot per 0.5 s: the superseded try spent none, so only one wait before "after"
    assert time.monotonic() - t0 < 0.5 + 0.25 + 0.4
