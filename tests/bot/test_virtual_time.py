"""The whole-game tests' event loop (tests/bot/virtual_time.py): it skips waits in which
nothing can happen, and only those: work in other threads and bytes on their way hold its
clock, and timeouts still expire when nothing comes."""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.publish.outbox import Pacer
from tests.bot.virtual_time import VirtualTimeLoop, new_loop


def run(main: Callable[[], Coroutine[Any, Any, Any]]) -> tuple[Any, float, VirtualTimeLoop]:
    """``main()`` on a fresh virtual-time loop: its result and the real seconds it took."""
    with asyncio.Runner(loop_factory=new_loop) as runner:
        loop = runner.get_loop()
        assert isinstance(loop, VirtualTimeLoop)
        t0 = time.monotonic()
        result = runner.run(main())
        return result, time.monotonic() - t0, loop


def test_an_hour_of_sleep_takes_no_time() -> None:
    async def main() -> float:
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        await asyncio.gather(asyncio.sleep(3600), asyncio.sleep(1800))
        return loop.time() - t0

    slept, real, loop = run(main)
    assert slept >= 3600
    assert real < 5
    assert loop.jumps >= 2


def test_a_thread_at_work_holds_the_clock() -> None:
    """A timer further away must not fire while a thread still works: a 0.3 s job in a
    thread finishes inside a 5 s timeout although a 100 s sleep is the only timer."""
    async def main() -> float:
        loop = asyncio.get_running_loop()
        sleeper = asyncio.create_task(asyncio.sleep(100))
        t0 = loop.time()
        await asyncio.wait_for(asyncio.to_thread(time.sleep, 0.3), 5)
        took = loop.time() - t0
        sleeper.cancel()
        return took

    took, _, _ = run(main)
    assert 0.3 <= took < 5


def test_sqlite_work_holds_the_clock(tmp_path: Path) -> None:
    async def main() -> float:
        loop = asyncio.get_running_loop()
        async with aiosqlite.connect(tmp_path / "t.db") as db:
            await db.create_function("nap", 1, lambda s: time.sleep(s) or s)
            t0 = loop.time()
            async with db.execute("select nap(0.3)") as cursor:
                row = await asyncio.wait_for(cursor.fetchone(), 5)
            assert row == (0.3,)
            return loop.time() - t0

    took, _, _ = run(main)
    assert 0.3 <= took < 5


def test_a_reply_over_a_socket_is_waited_for_and_a_late_one_times_out() -> None:
    """Loopback traffic is seen before the clock moves; a reply that only comes after a
    virtual 10 s still misses a 5 s timeout (nothing is let through early or late)."""
    async def main() -> tuple[bytes, bool, float]:
        loop = asyncio.get_running_loop()

        served = asyncio.Event()

        async def echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            while line := await reader.readline():
                if line.startswith(b"late"):
                    await asyncio.sleep(10)
                writer.write(line)
                await writer.drain()
            writer.close()
            served.set()

        server = await asyncio.start_server(echo, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"hello\n")
        hello = await asyncio.wait_for(reader.readline(), 5)
        writer.write(b"late\n")
        t0 = loop.time()
        try:
            await asyncio.wait_for(reader.readline(), 5)
            timed_out = False
        except TimeoutError:
            timed_out = True
        waited = loop.time() - t0
        assert await reader.readline() == b"late\n"  # it does come, later
        writer.close()
        await served.wait()
        server.close()
        await server.wait_closed()
        return hello, timed_out, waited

    (hello, timed_out, waited), real, _ = run(main)
    assert hello == b"hello\n"
    assert timed_out and 5 <= waited < 10
    assert real < 5


def test_the_pacer_keeps_its_window_in_virtual_time() -> None:
    """The outboxes' pacer reads the loop's clock: five writes, then the sixth waits one
    period (plus its slack) of the loop's time, which the loop skips."""
    async def main() -> list[float]:
        loop = asyncio.get_running_loop()
        pacer = Pacer(5, 5.0)
        times = []
        for _ in range(6):
            while (wait := pacer.delay()) > 0:
                await asyncio.sleep(wait)
            pacer.note()
            times.append(loop.time())
        return times

    times, real, _ = run(main)
    assert times[4] - times[0] < 1
    assert times[5] - times[0] >= 5.0
    assert real < 5


def test_a_child_process_holds_the_clock() -> None:
    """A child started on the loop may be working for it: real time while it runs."""
    async def main() -> float:
        loop = asyncio.get_running_loop()
        sleeper = asyncio.create_task(asyncio.sleep(100))
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-c", "import time; time.sleep(0.3)")
        t0 = loop.time()
        await asyncio.wait_for(child.wait(), 5)
        took = loop.time() - t0
        sleeper.cancel()
        return took

    took, _, _ = run(main)
    assert took < 5


@pytest.mark.parametrize("seconds", [0.0, -1.0])
def test_no_jump_for_a_timer_already_due(seconds: float) -> None:
    async def main() -> int:
        await asyncio.sleep(seconds)
        return asyncio.get_running_loop().jumps  # type: ignore[attr-defined, no-any-return]

    jumps, _, _ = run(main)
    assert jumps == 0
