"""bot.runtime.keyed_lock: one lock per key, forgotten when unused."""

from __future__ import annotations

import asyncio

import pytest

from bot.runtime.keyed_lock import KeyedLocks


@pytest.mark.asyncio
async def test_same_key_waits_other_keys_do_not() -> None:
    locks = KeyedLocks()
    order: list[str] = []
    release = asyncio.Event()

    async def hold(key: str, name: str) -> None:
        async with locks(key):
            order.append(f"{name} in")
            await release.wait()
            order.append(f"{name} out")

    tasks = [asyncio.create_task(hold("a", "a1")), asyncio.create_task(hold("a", "a2")),
             asyncio.create_task(hold("b", "b1"))]
    for _ in range(5):
        await asyncio.sleep(0)
    assert order == ["a1 in", "b1 in"], "b does not wait for a; a2 waits for a1"
    assert len(locks) == 2
    release.set()
    await asyncio.gather(*tasks)
    assert order.index("a2 in") > order.index("a1 out")
    assert len(locks) == 0


@pytest.mark.asyncio
async def test_a_cancelled_waiter_or_an_error_leaves_nothing_behind() -> None:
    locks = KeyedLocks()
    async with locks("a"):
        waiter = asyncio.create_task(locks("a").__aenter__())
        await asyncio.sleep(0)
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
    assert len(locks) == 0
    with pytest.raises(ValueError):
        async with locks("b"):
            raise ValueError("boom")
    assert len(locks) == 0
