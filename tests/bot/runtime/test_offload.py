"""Worker processes: the newest board wins, dead workers are replaced, none outlive the bot.

The orphan test kills a process that owns an Offloader with SIGKILL (no clean-up code
can run) and checks through /proc that every process it had started is gone within a
few seconds.
"""

from __future__ import annotations

import asyncio
import operator
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.__main__ import loop_factory
from bot.operator.settings import EventLoop, Settings
from bot.runtime import worker_pool as offload
from bot.runtime.worker_pool import Offloader, Superseded, default_workers

ROOT = Path(__file__).resolve().parents[3]
linux_only = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def _stat(pid: int) -> tuple[str, int] | None:
    """``(state, parent pid)`` of a process, or None when it no longer exists."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = text[text.rindex(")") + 2:].split()
    return fields[0], int(fields[1])


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            st = _stat(int(entry.name))
            if st is not None and st[1] == pid and st[0] != "Z":
                out.append(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    st = _stat(pid)
    return st is not None and st[0] != "Z"  # a zombie has ended; only its entry is left


OWNER = """
import asyncio, sys, time
from bot.runtime.worker_pool import Offloader
from games.tempus import images

async def main():
    off = Offloader(2)
    await off.warm_up(images.warm)
    await asyncio.gather(*(off.run(time.sleep, 0.2) for _ in range(4)))
    print(" ".join(map(str, off.worker_pids())), flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


@linux_only
def test_workers_end_when_the_bot_is_killed(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TEMPUS_RENDER_CACHE": str(tmp_path)}
    owner = subprocess.Popen([sys.executable, "-c", OWNER], stdout=subprocess.PIPE,
                             env=env, cwd=ROOT, text=True)
    try:
        assert owner.stdout is not None
        line = owner.stdout.readline()  # the pool is up and warm
        workers = [int(p) for p in line.split()]
        assert len(workers) == 2, line
        children = _children(owner.pid)
        assert set(workers) <= set(children)
        assert all(_alive(p) for p in children)
    finally:
        owner.send_signal(signal.SIGKILL)
        owner.wait(timeout=10)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(_alive(p) for p in children):
        time.sleep(0.05)
    left = [p for p in children if _alive(p)]
    for p in left:  # do not leave them behind for the next test run
        os.kill(p, signal.SIGKILL)
    assert not left, f"still running 5 s after the bot was killed: {left}"


def test_newest_wins_threads() -> None:
    async def main() -> None:
        off = Offloader(0, slots=1)
        gate = threading.Event()
        started: list[str] = []

        def job(name: str) -> str:
            started.append(name)
            return name

        blocker = asyncio.create_task(off.run(gate.wait, 10))
        await asyncio.sleep(0.05)
        a = asyncio.create_task(off.latest(("board", 1), job, "a"))
        b = asyncio.create_task(off.latest(("board", 1), job, "b"))
        other = asyncio.create_task(off.latest(("board", 2), job, "other"))
        c = asyncio.create_task(off.latest(("board", 1), job, "c"))
        await asyncio.sleep(0.05)
        gate.set()
        await blocker
        results = await asyncio.gather(a, b, other, c, return_exceptions=True)
        assert isinstance(results[0], Superseded) and isinstance(results[1], Superseded)
        assert results[2:] == ["other", "c"]
        assert started == ["other", "c"]  # the superseded boards were never drawn
        assert off.superseded == 2 and off._newest == {}
        # once the newest ran, the key is free again
        assert await off.latest(("board", 1), job, "d") == "d"

    asyncio.run(main())


def test_a_started_job_finishes_even_if_superseded() -> None:
    async def main() -> None:
        off = Offloader(0, slots=2)
        first = asyncio.create_task(off.latest("k", time.sleep, 0.3))
        await asyncio.sleep(0.1)  # started
        second = asyncio.create_task(off.latest("k", operator.add, 2, 3))
        assert await first is None
        assert await second == 5

    asyncio.run(main())


@pytest.mark.parametrize("event_loop", list(EventLoop))
def test_newest_wins_and_dead_workers_are_replaced_in_processes(event_loop: EventLoop) -> None:
    """On either event loop the bot may run on (uvloop's transports are not asyncio's
    classes: the pool's protocol must not insist on them)."""
    async def main() -> None:
        off = Offloader(1)
        try:
            assert await off.run(operator.add, 1, 2) == 3
            slow = asyncio.create_task(off.latest("g", time.sleep, 0.5))
            await asyncio.sleep(0.05)
            stale = asyncio.create_task(off.latest("g", pow, 2, 3))
            newest = asyncio.create_task(off.latest("g", pow, 2, 4))
            assert await slow is None
            with pytest.raises(Superseded):
                await stale
            assert await newest == 16
            first = off.worker_pids()
            with pytest.raises(Exception):  # noqa: B017 - the worker exits under the job
                await off.run(os._exit, 3)
            assert off.restarts >= 1
            assert await off.run(operator.mul, 6, 7) == 42
            assert off.worker_pids() and off.worker_pids() != first
        finally:
            off.close()

    factory = loop_factory(event_loop)
    assert (factory is None) == (event_loop == EventLoop.ASYNCIO)
    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(main())


def test_the_event_loop_is_uvloops_unless_told() -> None:
    assert Settings().event_loop == Settings.from_env({}).event_loop == EventLoop.UVLOOP
    assert Settings.from_env({"TEMPUS_EVENT_LOOP": "asyncio"}).event_loop == EventLoop.ASYNCIO
    with pytest.raises(ValueError, match="TEMPUS_EVENT_LOOP"):
        Settings.from_env({"TEMPUS_EVENT_LOOP": "tokio"})


def test_render_workers_default_to_the_number_of_cores() -> None:
    assert default_workers() == (os.cpu_count() or 1)
    assert Settings.from_env({}).workers == default_workers()
    assert Settings().workers == default_workers()
    assert Settings.from_env({"TEMPUS_WORKERS": "0"}).workers == 0
    assert Settings.from_env({"TEMPUS_WORKERS": "3"}).workers == 3


def test_boards_people_wait_on_are_drawn_first_and_none_starves() -> None:
    async def main() -> None:
        off = Offloader(0, slots=1)
        gate = threading.Event()
        started: list[str] = []

        def job(name: str) -> str:
            started.append(name)
            return name

        blocker = asyncio.create_task(off.run(gate.wait, 10))
        await asyncio.sleep(0.05)
        jobs = [asyncio.create_task(off.latest(("board", g), job, name, level=level))
                for g, (name, level) in enumerate([("computers 1", 1), ("computers 2", 1),
                                                    ("person 1", 0), ("person 2", 0)])]
        cancelled = asyncio.create_task(off.latest(("board", 9), job, "gone", level=0))
        await asyncio.sleep(0.05)
        cancelled.cancel()
        gate.set()
        await blocker
        await asyncio.gather(*jobs)
        assert started == ["person 1", "person 2", "computers 1", "computers 2"]

        # a job that waited AGING seconds counts one level lower: it goes before a newer
        # job of the level it is aged into
        clock = [0.0]
        off._slots().clock = lambda: clock[0]
        gate.clear()
        started.clear()
        blocker = asyncio.create_task(off.run(gate.wait, 10))
        await asyncio.sleep(0.05)
        old = asyncio.create_task(off.latest(("board", 1), job, "old computers", level=1))
        await asyncio.sleep(0.01)
        clock[0] = offload.AGING + 1
        new = asyncio.create_task(off.latest(("board", 2), job, "new person", level=0))
        await asyncio.sleep(0.05)
        gate.set()
        await asyncio.gather(blocker, old, new)
        assert started == ["old computers", "new person"]
        assert off._slots().free == 1, "every slot was given back"

    asyncio.run(main())


def test_the_gate_grants_by_aged_level_as_a_full_scan_would() -> None:
    """The heap gives the same order as ranking every waiting job by ``level - waited /
    AGING`` at release time (what the gate did before, one scan per release)."""
    async def main() -> None:
        rng = random.Random(5)
        clock = [0.0]
        gate = offload._Gate(1, clock=lambda: clock[0])
        granted: list[int] = []
        arrivals: list[tuple[int, float, int]] = []
        held = gate.slot(0)
        await held.__aenter__()  # the only slot is busy while the jobs arrive

        async def job(i: int, level: int) -> None:
            async with gate.slot(level):
                granted.append(i)
        jobs = []
        for i in range(300):
            clock[0] += rng.uniform(0, 3)
            level = rng.randrange(3)
            arrivals.append((level, clock[0], i))
            jobs.append(asyncio.create_task(job(i, level)))
            await asyncio.sleep(0)
        now = clock[0]
        expected = [i for _, _, i in sorted(
            arrivals, key=lambda a: (a[0] - (now - a[1]) / offload.AGING, a[2]))]
        await held.__aexit__(None, None, None)
        await asyncio.gather(*jobs)
        assert granted == expected
        assert gate.free == 1

    asyncio.run(main())


def test_a_waiting_board_is_promoted_when_a_person_comes_to_wait_on_it() -> None:
    """A game's board that began waiting as a computer move's (level 1) waits as a
    person's (level 0) once promoted, ranked by when it asked: under load, the board of
    a person's turn no longer waits as long as a computer-only game's."""
    async def main() -> None:
        off = Offloader(0, slots=1)
        gate = threading.Event()
        started: list[str] = []

        def job(name: str) -> str:
            started.append(name)
            return name

        assert not off.promote(("board", 0), 0), "no gate yet: nothing waits"
        blocker = asyncio.create_task(off.run(gate.wait, 10))
        await asyncio.sleep(0.05)
        jobs = [asyncio.create_task(off.latest(("board", g), job, name, level=level))
                for g, (name, level) in enumerate([("computers", 1), ("now a person's", 1),
                                                    ("a person's", 0)])]
        await asyncio.sleep(0.05)
        assert off.promote(("board", 1), 0)
        assert not off.promote(("board", 1), 0), "already at that level"
        assert not off.promote(("board", 2), 1), "never demoted"
        assert not off.promote(("board", 7), 0), "nothing waits under that key"
        gate.set()
        await blocker
        await asyncio.gather(*jobs)
        assert started == ["now a person's", "a person's", "computers"]
        assert off._slots().free == 1, "every slot was given back once"
        assert not off._slots()._keyed, "nothing is kept for jobs that ran"

    asyncio.run(main())


def test_the_publisher_promotes_a_games_waiting_board_when_a_person_comes_to_wait() -> None:
    """The turn message's board of a game waits for a render slot as a computer move's;
    the next outcome asks a person to act: the waiting board (which draws the newest
    outcome when its slot comes) now waits as a person's."""
    from bot.publish.publisher import DiscordPublisher, TurnMessage
    from bot.publish.request_pace import NORMAL, URGENT
    from bot.store import SeatRow
    from bot.table.model import Outcome

    async def main() -> None:
        off = Offloader(0, slots=1)
        gate = threading.Event()
        blocker = asyncio.create_task(off.run(gate.wait, 10))
        await asyncio.sleep(0.05)
        pub = DiscordPublisher(object(), None, off, period=0.01)  # type: ignore[arg-type]
        game, thread = 7, 70
        seats = [SeatRow(0, 42, None, "Ann"), SeatRow(1, None, "normal", "Bot")]
        pub._play[game] = thread
        pub._turns[game] = TurnMessage(game, thread, message_id=700, key="turn 1")

        def outcome(version: int, owes: int) -> Outcome:
            return Outcome(game, 1, None, version, "play", [], play_channel_id=thread,
                           turn_key="turn 1", seats=seats, public_view={}, actor=1,
                           since={owes: version})
        waiting = off._slots()._keyed
        await pub.publish(outcome(5, owes=1))  # the computer moved and moves again
        await asyncio.sleep(0.05)
        assert waiting[("board", game)][0] == NORMAL
        await pub.publish(outcome(6, owes=0))  # the computer moved: Ann is asked
        assert waiting[("board", game)][0] == URGENT
        await pub.close()
        gate.set()
        await blocker

    asyncio.run(main())


def test_a_cancelled_jobs_answer_never_reaches_the_next_job() -> None:
    """A job whose caller gave up still runs in its worker; its answer is read and dropped,
    and the next job sent to that worker gets its own answer."""
    async def main() -> None:
        off = Offloader(1)
        try:
            slow = asyncio.create_task(off.run(time.sleep, 0.3))
            await asyncio.sleep(0.1)  # running in the worker
            slow.cancel()
            assert await off.run(operator.add, 2, 2) == 4
            assert await off.run(operator.mul, 3, 3) == 9
        finally:
            off.close()

    asyncio.run(main())


def test_a_workers_exception_comes_back_with_its_traceback() -> None:
    async def main() -> None:
        off = Offloader(1)
        try:
            with pytest.raises(ZeroDivisionError) as caught:
                await off.run(operator.truediv, 1, 0)
            assert isinstance(caught.value.__cause__, offload.RemoteTraceback)
            assert "ZeroDivisionError" in str(caught.value.__cause__)
            assert await off.run(operator.add, 1, 1) == 2  # the worker goes on
        finally:
            off.close()

    asyncio.run(main())
