"""The fake clock, the one scheduler, paces and the turn-clock arithmetic (no game)."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import DeadlineRow, SeatRow
from bot.timing import deadlines
from bot.timing.pace import HALF, LAST, PACES, UnknownPace, next_event, pace, reminder_stage
from bot.timing.scheduler import Scheduler
from bot.timing.time_source import FakeClock, SystemClock

T0 = 1_800_000_000.0
LIVE, DAILY = PACES["live"], PACES["daily"]


def _seats(n: int = 3, *, ai: tuple[int, ...] = ()) -> list[SeatRow]:
    return [SeatRow(i, None if i in ai else 100 + i, "normal" if i in ai else None, f"p{i}")
            for i in range(n)]


# ------------------------------------------------------------------ clocks
@pytest.mark.asyncio
async def test_fake_clock_wakes_sleepers_only_when_advanced_past_their_time() -> None:
    clock = FakeClock(T0)
    woke: list[float] = []

    async def sleeper(when: float) -> None:
        await clock.sleep_until(when)
        woke.append(clock.now())

    tasks = [asyncio.create_task(sleeper(T0 + d)) for d in (30, 10, 20)]
    await asyncio.sleep(0)
    assert clock.sleepers == 3
    clock.advance(15)
    await asyncio.sleep(0)
    assert woke == [T0 + 15]
    clock.advance(100)
    await asyncio.gather(*tasks)
    assert woke == [T0 + 15, T0 + 115, T0 + 115]
    with pytest.raises(ValueError):
        clock.advance(-1)


@pytest.mark.asyncio
async def test_a_cancelled_fake_sleep_is_not_woken() -> None:
    clock = FakeClock(T0)
    task = asyncio.create_task(clock.sleep_until(T0 + 5))
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert clock.advance(10) == 0


@pytest.mark.asyncio
async def test_system_clock_returns_at_once_for_a_past_time() -> None:
    clock = SystemClock()
    await asyncio.wait_for(clock.sleep_until(clock.now() - 1), 1)


# ------------------------------------------------------------------ the scheduler
@pytest.mark.asyncio
async def test_scheduler_fires_in_due_order_and_only_once() -> None:
    clock = FakeClock(T0)
    fired: list[tuple[object, str, float]] = []

    async def fire(key: object, kind: str, due: float) -> None:
        fired.append((key, kind, clock.now()))

    sched = Scheduler(clock, fire)
    sched.start()
    sched.schedule((1, 0), T0 + 30, "deadline")
    sched.schedule((2, 0), T0 + 10, "remind")
    sched.schedule((3, 1), T0 + 20, "remind")
    await sched.settle()
    assert fired == [] and sched.next_due() == T0 + 10
    clock.advance(25)
    await sched.settle()
    assert [k for k, _, _ in fired] == [(2, 0), (3, 1)]
    clock.advance(100)
    await sched.settle()
    assert [k for k, _, _ in fired] == [(2, 0), (3, 1), (1, 0)]
    clock.advance(1000)
    await sched.settle()
    assert len(fired) == 3 and len(sched) == 0
    await sched.close()


@pytest.mark.asyncio
async def test_rescheduling_and_cancelling_replace_the_entry() -> None:
    clock = FakeClock(T0)
    fired: list[tuple[object, str]] = []

    async def fire(key: object, kind: str, due: float) -> None:
        fired.append((key, kind))

    sched = Scheduler(clock, fire)
    sched.start()
    sched.schedule("a", T0 + 10, "remind")
    sched.schedule("a", T0 + 50, "deadline")  # replaces: nothing at +10
    sched.schedule("b", T0 + 20, "deadline")
    sched.cancel("b")
    await sched.settle()
    clock.advance(30)
    await sched.settle()
    assert fired == []
    # an earlier entry arriving while the task sleeps wakes it up
    sched.schedule("c", T0 + 35, "remind")
    clock.advance(6)
    await sched.settle()
    assert fired == [("c", "remind")]
    clock.advance(20)
    await sched.settle()
    assert fired == [("c", "remind"), ("a", "deadline")]
    await sched.close()


@pytest.mark.asyncio
async def test_idle_entries_cost_no_task_and_no_timer() -> None:
    """A thousand waiting seats: still one scheduler task and one sleeper on the clock;
    stale heap entries are compacted away."""
    clock = FakeClock(T0)

    async def fire(key: object, kind: str, due: float) -> None:
        pass

    sched = Scheduler(clock, fire)
    sched.start()
    await sched.settle()
    before = len(asyncio.all_tasks())
    for g in range(1000):
        sched.schedule((g, 0), T0 + 3600 + g, "deadline")
    await sched.settle()
    assert len(asyncio.all_tasks()) - before <= 2  # the task's own sleeper and waker
    assert clock.sleepers == 1 and len(sched) == 1000
    for _ in range(5):  # re-arming the same games leaves stale entries behind
        for g in range(1000):
            sched.schedule((g, 0), clock.now() + 7200 + g, "deadline")
    assert len(sched._heap) <= 2 * len(sched) + 64
    await sched.close()


@pytest.mark.asyncio
async def test_a_failing_callback_does_not_stop_the_scheduler() -> None:
    clock = FakeClock(T0)
    fired: list[object] = []

    async def fire(key: object, kind: str, due: float) -> None:
        fired.append(key)
        if key == "bad":
            raise RuntimeError("boom")

    sched = Scheduler(clock, fire)
    sched.start()
    sched.schedule("bad", T0 + 1, "deadline")
    sched.schedule("good", T0 + 2, "deadline")
    clock.advance(5)
    await sched.settle()
    assert fired == ["bad", "good"]
    await sched.close()


# ------------------------------------------------------------------ paces and reminders
def test_paces_and_bad_names() -> None:
    assert pace("live").seconds == 180 and pace("DAILY").seconds == 86400
    assert pace(None).name == "daily" and pace("none").seconds is None
    with pytest.raises(UnknownPace):
        pace("blitz")


def test_reminders_at_half_time_and_shortly_before() -> None:
    assert next_event(T0, T0 + 180, 0, LIVE) == (T0 + 90, "remind")
    assert next_event(T0, T0 + 180, HALF, LIVE) == (T0 + 120, "remind")  # 1 min before
    assert next_event(T0, T0 + 180, LAST, LIVE) == (T0 + 180, "deadline")
    day = 86400
    assert next_event(T0, T0 + day, HALF, DAILY) == (T0 + day * 0.9, "remind")
    # both reminder times passed (a restart): only the last one is sent
    assert reminder_stage(T0, T0 + 180, T0 + 150, LIVE) == LAST
    assert reminder_stage(T0, T0 + 180, T0 + 100, LIVE) == HALF
    assert reminder_stage(T0, T0 + 180, T0 + 10, LIVE) == 0


# ------------------------------------------------------------------ planning clocks
def test_plan_keeps_a_running_clock_and_starts_new_ones() -> None:
    seats = _seats(ai=(2,))
    rows = deadlines.plan({}, {0: 5, 2: 5}, seats, LIVE, T0)
    assert list(rows) == [0]  # the computer's seat has no clock
    assert rows[0] == DeadlineRow(0, 5, T0, T0 + 180, 0, 0)
    later = deadlines.plan(rows, {0: 5, 1: 6}, seats, LIVE, T0 + 50)
    assert later[0] == rows[0]  # the same decision: the same clock
    assert later[1].due_at == T0 + 50 + 180
    # seat 0 acted (a new decision of theirs: a new clock); strikes stay unless it was them
    struck = {0: DeadlineRow(0, 5, T0, T0 + 180, 2, strikes=2)}
    assert deadlines.plan(struck, {0: 7}, seats, LIVE, T0 + 60)[0].strikes == 2
    assert deadlines.plan(struck, {0: 7}, seats, LIVE, T0 + 60, person=0)[0].strikes == 0
    # owing nothing: only the strikes are kept; without strikes no row at all
    assert deadlines.plan(struck, {}, seats, LIVE, T0)[0] == DeadlineRow(0, strikes=2)
    assert deadlines.plan(rows, {}, seats, LIVE, T0) == {}
    # a seat covered by the computer, or no time limit: no clock
    assert deadlines.plan({}, {0: 5}, seats, LIVE, T0, computer={0}) == {}
    assert deadlines.plan({}, {0: 5}, seats, PACES["none"], T0) == {}


def test_repace_moves_pending_deadlines() -> None:
    seats = _seats()
    rows = deadlines.plan({}, {0: 5}, seats, LIVE, T0)
    longer = deadlines.repace(rows, {0: 5}, seats, DAILY, T0 + 100)
    assert longer[0].started_at == T0 and longer[0].due_at == T0 + 86400
    assert longer[0].reminded == 0
    # a shorter pace never fires at once: at least half of it from now
    day = deadlines.plan({}, {0: 5}, seats, DAILY, T0)
    shorter = deadlines.repace(day, {0: 5}, seats, LIVE, T0 + 3600)
    assert shorter[0].due_at == T0 + 3600 + 90
    assert shorter[0].reminded == HALF  # the half-time reminder is not sent late
    assert deadlines.repace(day, {0: 5}, seats, PACES["none"], T0 + 1) == {}


def test_restart_moves_passed_deadlines_past_a_grace_period() -> None:
    seats = _seats()
    stored = {0: DeadlineRow(0, 5, T0, T0 + 180, HALF, 1),
              1: DeadlineRow(1, 4, T0, T0 + 9999, 0, 0)}
    rows, late = deadlines.restart(stored, {0: 5, 1: 4, 2: 3}, seats, LIVE, T0 + 500)
    assert late == [0]
    assert rows[0] == DeadlineRow(0, 5, T0, T0 + 500 + LIVE.grace, LAST, 1)
    assert rows[1] == stored[1]
    assert rows[2].started_at == T0 + 500  # a decision without a clock gets one now
