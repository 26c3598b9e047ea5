"""The turn clock through the table service, with a fake clock: reminders,
deadlines, three strikes, restarts, the pace, muting, leaving and replacing mid-game.

No test sleeps for a deadline: :func:`run_for` moves the fake clock from one due entry of
the scheduler to the next and lets everything each one starts finish.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.store.sqlite import SqliteStorage
from bot.table.service import Outcome, TableError, TableService
from bot.timing.pace import HALF, LAST, PACES
from bot.timing.scheduler import Scheduler
from bot.timing.time_source import FakeClock
from engine.content import CONTENT
from engine.game import PROGRESS_CARDS, decision_for
from games.controls import QUIT
from lang.messages import t
from tests.bot.helpers import CollectSink

HOST, BOB, CY, DEE, EVE, NEW = 100, 101, 102, 103, 104, 200
T0 = 1_800_000_000.0
LIVE = PACES["live"].seconds or 0
TIMEOUT = "Time is up for"


class Rig:
    """A table service with a fake clock, its scheduler and a collecting sink."""

    def __init__(self, svc: TableService, sink: CollectSink, clock: FakeClock,
                 sched: Scheduler) -> None:
        self.svc, self.sink, self.clock, self.sched = svc, sink, clock, sched

    @classmethod
    async def open(cls, path: str = ":memory:", start: float = T0, *, ai_delay: float = 0,
                   owner: bool = True, store: SqliteStorage | None = None) -> Rig:
        """``ai_delay``: real seconds a computer waits before each step (a long one keeps
        a computer from acting until the rig is closed); ``owner``: this process runs the
        game (else another process does, bot.cluster.coordinator); ``store``: another rig's storage
        (two processes on one database)."""
        clock = FakeClock(start)
        sched = Scheduler(clock)
        store = store or await SqliteStorage.open(path)
        sink = CollectSink()
        svc = TableService(store, sink, ai_delay=ai_delay, seed_source=lambda: 7,
                           scheduler=sched)
        if not owner:
            svc.owns = lambda guild_id: False
        return cls(svc, sink, clock, sched)

    async def settle(self) -> None:
        await self.sched.settle()
        await self.svc.idle()

    async def run_for(self, seconds: float) -> None:
        """Let ``seconds`` pass, stopping at every due entry on the way."""
        target = self.clock.now() + seconds
        while True:
            await self.settle()
            nxt = self.sched.next_due()
            if nxt is None or nxt > target:
                break
            self.clock.set(nxt)
        self.clock.set(target)
        await self.settle()

    def since(self, n: int) -> list[Outcome]:
        return self.sink.outcomes[n:]

    async def close(self, *, storage: bool = True) -> None:
        await self.sched.close()
        await self.svc.close()
        if storage:
            await self.svc.storage.close()


async def _game(rig: Rig, people: tuple[int, ...] = (HOST, BOB, CY), *, pace: str = "live",
                bots: int = 0) -> int:
    o = await rig.svc.lobby.create(1, 10, people[0], "Ann", seats=len(people) + bots, seed=7,
                             pace_name=pace)
    g = o.game_id
    for uid in people[1:]:
        await rig.svc.join(g, uid, f"u{uid}")
    for _ in range(bots):
        await rig.svc.add_ai(g, people[0], "random")
    await rig.svc.start(g, people[0])
    await rig.settle()
    return g


def _reminders(outs: list[Outcome]) -> list[tuple[int, int]]:
    return [(r.user_id, r.stage) for o in outs for r in o.reminders]


def _timeouts(outs: list[Outcome]) -> list[str]:
    return [line for o in outs for line in o.lines if TIMEOUT in line]


async def _owing_person(rig: Rig, g: int) -> tuple[int, int]:
    table = await rig.svc.tables.get(g)
    seat = min(s for s in table.since if not table.seats[s].is_ai)
    uid = table.seats[seat].user_id
    assert uid is not None
    return seat, uid


# ------------------------------------------------------------------ reminders and deadlines
@pytest.mark.asyncio
async def test_reminders_at_half_time_and_a_minute_before_then_the_computer_decides() -> None:
    rig = await Rig.open()
    g = await _game(rig)
    seat, uid = await _owing_person(rig, g)
    table = await rig.svc.tables.get(g)
    start_version = table.version
    n = len(rig.sink.outcomes)
    assert f"<t:{int(T0 + LIVE)}:R>" in rig.sink.outcomes[-1].panel.text  # the turn message
    await rig.run_for(LIVE / 2 - 1)
    assert _reminders(rig.since(n)) == []
    await rig.run_for(1)
    assert _reminders(rig.since(n)) == [(uid, HALF)]
    await rig.run_for(LIVE - 60 - LIVE / 2 - 1)
    assert _reminders(rig.since(n)) == [(uid, HALF)]
    await rig.run_for(1)
    assert _reminders(rig.since(n)) == [(uid, HALF), (uid, LAST)]
    assert all(r.due_at == T0 + LIVE for o in rig.since(n) for r in o.reminders)
    assert table.version == start_version  # reminders change nothing in the game
    await rig.run_for(59)
    assert _timeouts(rig.since(n)) == []
    await rig.run_for(1)
    outs = rig.since(n)
    assert len(_timeouts(outs)) == 1 and f"<@{uid}>" in _timeouts(outs)[0]
    assert table.version > start_version
    assert [a for s, a in table.moves if s == seat]  # the computer decided for the seat
    assert seat not in table.since or table.since[seat] > start_version
    assert table.clock[seat].strikes == 1
    stored = {r.seat: r for r in await rig.svc.storage.deadlines(g)}
    assert stored[seat].strikes == 1  # durable with the computer's action
    assert not table.covering  # the computer decided for this turn only
    await rig.close()


@pytest.mark.asyncio
async def test_acting_in_time_disarms_the_deadline_and_clears_strikes() -> None:
    rig = await Rig.open()
    g = await _game(rig)
    await rig.run_for(LIVE)  # the first person misses one deadline
    table = await rig.svc.tables.get(g)
    struck = [s for s, r in table.clock.items() if r.strikes == 1]
    assert len(struck) == 1
    n = len(rig.sink.outcomes)
    rng = random.Random(1)
    while True:  # everyone answers at once until the struck seat has acted itself
        seat, uid = await _owing_person(rig, g)
        await rig.svc.act(g, uid, rng.choice(await rig.svc.play.legal(g, uid)))
        await rig.settle()
        if seat == struck[0]:
            break
    assert table.clock.get(struck[0]) is None or table.clock[struck[0]].strikes == 0
    assert _timeouts(rig.since(n)) == []
    await rig.close()


@pytest.mark.asyncio
async def test_three_missed_deadlines_in_a_row_put_the_seat_on_autopilot() -> None:
    rig = await Rig.open()
    g = await _game(rig, (HOST, BOB, CY))
    table = await rig.svc.tables.get(g)
    n = len(rig.sink.outcomes)
    rng = random.Random(3)
    # Bob and Cy play at once; Ann never answers
    while table.seats[0].autopilot is None and table.game.status == "active":
        owing = sorted(s for s in table.since if not table.seats[s].is_ai and s != 0)
        if owing:
            uid = table.seats[owing[0]].user_id
            await rig.svc.act(g, uid, rng.choice(await rig.svc.play.legal(g, uid)))
            await rig.settle()
        else:
            await rig.run_for(LIVE)
    outs = rig.since(n)
    ann = [line for line in _timeouts(outs) if "<@100>" in line]
    assert len(ann) == 2  # two single decisions, then the third puts the seat on autopilot
    auto = [line for o in outs for line in o.lines if "missed 3 deadlines" in line]
    assert len(auto) == 1 and "<@100>" in auto[0] and "autopilot on:False" in auto[0]
    # a rated game: ending it so counts as leaving (bot/history/ratings.py)
    assert t("clock.autopilot.rated", user=HOST) in auto[0]
    seats = await rig.svc.storage.seats(g)
    assert seats[0].autopilot == "normal" and not seats[0].left
    assert seats[0].timed_out and seats[0].forfeited  # stored: a restart keeps it
    assert 0 not in table.clock or table.clock[0].due_at is None
    # the computer plays on; the person comes back
    await rig.svc.seats.autopilot(g, HOST, None, False)
    await rig.settle()
    assert table.seats[0].autopilot is None
    assert not table.seats[0].timed_out and not table.seats[0].forfeited
    assert 0 not in table.clock or table.clock[0].strikes == 0
    await rig.close()


@pytest.mark.asyncio
async def test_simultaneous_decisions_have_their_own_deadlines() -> None:
    """R-PROG-2: in the progress phase everyone chooses at once; the ones who answered do
    not wait for the absent one longer than the pace."""
    rig = await Rig.open()
    g = await _game(rig)
    table = await rig.svc.tables.get(g)
    rng = random.Random(5)

    def progress(tb) -> bool:
        return sum(1 for s in tb.since
                   if (d := decision_for(tb.state, s)) and d.kind == PROGRESS_CARDS) >= 3

    while not progress(table):
        seat, uid = await _owing_person(rig, g)
        await rig.svc.act(g, uid, rng.choice(await rig.svc.play.legal(g, uid)))
        await rig.settle()
    owing = sorted(table.since)
    dues = {s: table.clock[s].due_at for s in owing}
    assert len(set(dues.values())) == 1  # the phase began for all at once
    absent = owing[-1]
    rig.clock.advance(30)
    for s in owing[:-1]:  # the others choose (no cards)
        uid = table.seats[s].user_id
        await rig.svc.act(g, uid, [a for a in await rig.svc.play.legal(g, uid)][0])
    await rig.settle()
    assert sorted(table.since) == [absent]
    assert table.clock[absent].due_at == dues[absent]  # its own clock runs on
    n = len(rig.sink.outcomes)
    await rig.run_for(LIVE - 30)
    assert len(_timeouts(rig.since(n))) == 1
    assert not (decision_for(table.state, absent) or None) or table.since[absent] > 0
    assert all(decision_for(table.state, s) is None or decision_for(table.state, s).kind
               != PROGRESS_CARDS for s in range(3))  # the phase went on
    await rig.close()


@pytest.mark.asyncio
async def test_a_defenders_answer_has_its_own_deadline() -> None:
    """R-COMBAT: the defender answers an attack (DEFEND_CARDS, a decision of its own
    while the attacker's turn waits); its clock starts when the attack is made, not with
    the attacker's turn, and when it runs out a computer answers for the defender."""
    from engine.game import DEFEND_CARDS

    for seed in range(10):
        rig = await Rig.open()
        g = await _game(rig)
        table = await rig.svc.tables.get(g)
        rng = random.Random(seed)
        defender = None
        for _ in range(600):
            if table.game.status != "active":
                break
            owing = [s for s in table.since
                     if (d := decision_for(table.state, s)) and d.kind == DEFEND_CARDS]
            if owing:
                defender = owing[0]
                break
            uid = table.seats[min(table.since)].user_id
            legal = await rig.svc.play.legal(g, uid)
            attacks = [a for a in legal if type(a).__name__ in ("Attack", "CommitAttackCards")]
            if attacks:
                rig.clock.advance(30)  # the attack comes later than the turn began
            await rig.svc.act(g, uid, rng.choice(attacks or legal))
            await rig.settle()
        if defender is not None:
            break
        await rig.close()
    assert defender is not None, "no seed led to an attack on a person"
    began = rig.clock.now()
    row = table.clock[defender]
    assert row.since == table.since[defender] and row.started_at == began
    assert row.due_at == began + LIVE, "the defender's own deadline"
    user = table.seats[defender].user_id
    n = len(rig.sink.outcomes)
    await rig.run_for(LIVE - 1)
    assert _timeouts(rig.since(n)) == [] and (
        (d := decision_for(table.state, defender)) and d.kind == DEFEND_CARDS)
    await rig.run_for(1)
    timeouts = _timeouts(rig.since(n))
    assert len(timeouts) == 1 and f"<@{user}>" in timeouts[0]
    assert [a for s, a in table.moves if s == defender and type(a).__name__ == "DefendCards"]
    d = decision_for(table.state, defender)
    assert d is None or d.kind != DEFEND_CARDS, "the combat went on"
    assert table.clock[defender].strikes == 1
    await rig.close()


# ------------------------------------------------------------------ restarts
@pytest.mark.asyncio
async def test_a_deadline_that_passed_while_down_fires_once_after_a_grace_period(
        tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    rig = await Rig.open(db)
    g = await _game(rig)
    seat, uid = await _owing_person(rig, g)
    version = (await rig.svc.tables.get(g)).version
    await rig.close()
    # down for an hour: the live deadline (3 min) passed meanwhile
    rig = await Rig.open(db, start=T0 + 3600)
    await rig.svc.sync.resume_all()
    await rig.settle()
    notices = [o for o in rig.sink.outcomes if o.kind == "notice"]
    assert len(notices) == 1 and f"<@{uid}>" in notices[0].lines[0]
    assert notices[0].mention == [uid]
    assert _timeouts(rig.sink.outcomes) == [] and _reminders(rig.sink.outcomes) == []
    grace = PACES["live"].grace
    assert f"<t:{int(T0 + 3600 + grace)}:R>" in notices[0].lines[0]
    # restarted again during the grace period: the same moved deadline, no new notice
    await rig.close()
    rig = await Rig.open(db, start=T0 + 3600 + 10)
    await rig.svc.sync.resume_all()
    await rig.settle()
    assert [o for o in rig.sink.outcomes if o.kind == "notice"] == []
    await rig.run_for(grace)
    assert len(_timeouts(rig.sink.outcomes)) == 1
    assert _reminders(rig.sink.outcomes) == []  # passed during the downtime: not sent late
    table = await rig.svc.tables.get(g)
    assert table.version > version
    assert table.clock[seat].strikes == 1
    # and once more: nothing fires twice
    await rig.close()
    rig = await Rig.open(db, start=T0 + 3600 + 20 + grace)
    await rig.svc.sync.resume_all()
    await rig.settle()
    assert _timeouts(rig.sink.outcomes) == []
    assert [o for o in rig.sink.outcomes if o.kind == "notice"] == []
    assert (await rig.svc.storage.deadlines(g))[seat].strikes == 1
    await rig.close()


@pytest.mark.asyncio
async def test_clocks_are_rearmed_after_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    rig = await Rig.open(db)
    g = await _game(rig)
    seat, uid = await _owing_person(rig, g)
    await rig.run_for(100)  # the half-time reminder went out
    assert _reminders(rig.sink.outcomes) == [(uid, HALF)]
    await rig.close()
    rig = await Rig.open(db, start=T0 + 110)
    await rig.svc.sync.resume_all()
    await rig.run_for(15)
    assert _reminders(rig.sink.outcomes) == [(uid, LAST)]  # the half one is not repeated
    await rig.run_for(LIVE)
    assert len(_timeouts(rig.sink.outcomes)) == 1
    await rig.close()


async def _cover(rig: Rig, g: int) -> tuple[int, int]:
    """Let the owing person's deadline pass: a computer covers their turn (it waits: the
    rig's ``ai_delay`` is long). Returns (seat, user)."""
    seat, uid = await _owing_person(rig, g)
    table = await rig.svc.tables.get(g)
    due = table.clock[seat].due_at
    assert due is not None
    rig.clock.set(due)
    await rig.sched.settle()
    assert seat in table.covering and table.clock[seat].due_at is None
    return seat, uid


@pytest.mark.asyncio
async def test_a_restart_while_the_computer_covers_a_turn_keeps_it_covered(
        tmp_path: Path) -> None:
    """The deadline passed and a computer covers the seat's turn; the bot restarts before
    the computer has finished it: the seat stays covered (no fresh full deadline, no late
    notice, no second strike for the same turn) and the computer plays the turn on."""
    db = str(tmp_path / "t.db")
    rig = await Rig.open(db, ai_delay=600)
    g = await _game(rig)
    version = (await rig.svc.tables.get(g)).version
    seat, uid = await _cover(rig, g)
    timeouts = _timeouts(rig.sink.outcomes)
    assert len(timeouts) == 1 and f"<@{uid}>" in timeouts[0]
    stored = {r.seat: r for r in await rig.svc.storage.deadlines(g)}
    assert stored[seat].covering is not None and stored[seat].strikes == 1
    assert stored[seat].due_at is None
    assert (await rig.svc.tables.get(g)).version == version, "the computer has not acted yet"
    await rig.close()

    rig = await Rig.open(db, start=T0 + LIVE + 30)
    await rig.svc.sync.resume_all()
    table = await rig.svc.tables.get(g)
    assert seat in table.covering
    assert seat not in table.clock or table.clock[seat].due_at is None, "no fresh deadline"
    await rig.settle()
    assert [o for o in rig.sink.outcomes if o.kind == "notice"] == []
    assert _timeouts(rig.sink.outcomes) == []
    assert [a for s, a in table.moves[-5:] if s == seat], "the computer played the turn"
    assert table.version > version
    assert not table.covering  # the turn is over
    assert table.clock[seat].strikes == 1, "one strike for one turn"
    assert (await rig.svc.storage.deadlines(g))[seat].strikes == 1
    await rig.close()


@pytest.mark.asyncio
async def test_the_cover_ends_when_the_person_acts_in_another_process(tmp_path: Path) -> None:
    """A covered seat's person acts through another process (bot.cluster.coordinator): the owner's
    computer stops covering that seat when it catches up, and the person's clock runs."""
    db = str(tmp_path / "t.db")
    owner = await Rig.open(db, ai_delay=600)
    g = await _game(owner)
    seat, uid = await _cover(owner, g)
    other = await Rig.open(start=T0 + LIVE + 5, owner=False, store=owner.svc.storage)
    mirror = await other.svc.tables.get(g)
    assert seat in mirror.covering, "the other process knows the seat is covered"
    await other.svc.act(g, uid, (await other.svc.play.legal(g, uid))[0])
    assert all(r.covering is None for r in await other.svc.storage.deadlines(g))
    owner.clock.set(T0 + LIVE + 5)
    assert await owner.svc.sync.refresh(g)
    table = await owner.svc.tables.get(g)
    assert not table.covering, "the person is back: the computer stops"
    assert table.clock[seat].strikes == 0, "the person decided: strikes end"
    if seat in table.since:  # their turn goes on, on their own clock
        assert table.clock[seat].due_at == T0 + LIVE + 5 + LIVE
    await other.close(storage=False)
    await owner.close()


# ------------------------------------------------------------------ pace and muting
@pytest.mark.asyncio
async def test_changing_the_pace_moves_the_deadlines() -> None:
    rig = await Rig.open()
    o = await rig.svc.lobby.create(1, 10, HOST, "Ann", seats=3, seed=7, pace_name="live")
    g = o.game_id
    assert "live (3 minutes" in o.panel.text  # the lobby shows the pace
    with pytest.raises(TableError, match="Only the host"):
        await rig.svc.timeouts.set_pace(g, BOB, "daily")
    lobby = await rig.svc.timeouts.set_pace(g, BOB, "daily", can_manage=True)
    assert "daily (24 hours" in lobby.panel.text
    await rig.svc.join(g, BOB, "Bob")
    await rig.svc.join(g, CY, "Cy")
    await rig.svc.start(g, HOST)
    await rig.settle()
    table = await rig.svc.tables.get(g)
    seat, uid = await _owing_person(rig, g)
    assert table.clock[seat].due_at == T0 + 86400
    await rig.run_for(3600)
    with pytest.raises(TableError, match="already played at this pace"):
        await rig.svc.timeouts.set_pace(g, HOST, "daily")
    with pytest.raises(TableError, match="Unknown pace 'blitz'"):
        await rig.svc.timeouts.set_pace(g, HOST, "blitz")
    changed = await rig.svc.timeouts.set_pace(g, HOST, "live")
    assert "changed the pace to live" in changed.lines[0]
    # a shorter pace than the time already spent: half of it from now
    assert table.clock[seat].due_at == T0 + 3600 + LIVE / 2
    assert f"<t:{int(T0 + 3600 + LIVE / 2)}:R>" in changed.panel.text
    lines = await rig.svc.clock_lines(g)
    assert "live" in lines[0] and f"<t:{int(T0 + 3600 + LIVE / 2)}:R>" in lines[1]
    n = len(rig.sink.outcomes)
    await rig.run_for(LIVE / 2)
    assert len(_timeouts(rig.since(n))) == 1
    # no time limit: nothing is armed any more
    await rig.svc.timeouts.set_pace(g, HOST, "none")
    assert not any(r.due_at for r in table.clock.values()) and len(rig.sched) == 0
    n = len(rig.sink.outcomes)
    await rig.run_for(10 * 86400)
    assert _timeouts(rig.since(n)) == [] and _reminders(rig.since(n)) == []
    await rig.close()


@pytest.mark.asyncio
async def test_muted_reminders_are_not_sent_but_the_deadline_holds(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    rig = await Rig.open(db)
    g = await _game(rig)
    seat, uid = await _owing_person(rig, g)
    assert "off" in await rig.svc.clocks.set_reminders(uid, False)
    await rig.run_for(LIVE)
    assert _reminders(rig.sink.outcomes) == [] and len(_timeouts(rig.sink.outcomes)) == 1
    await rig.close()
    rig = await Rig.open(db, start=T0 + LIVE + 1)  # stored per person
    assert not await rig.svc.clocks.wants_reminders(uid)
    assert await rig.svc.clocks.wants_reminders(BOB)
    await rig.svc.clocks.set_reminders(uid, True)
    assert await rig.svc.storage.reminders_on(uid)
    await rig.close()


@pytest.mark.asyncio
async def test_without_a_scheduler_there_are_no_clocks() -> None:
    store = await SqliteStorage.open(":memory:")
    svc = TableService(store, CollectSink(), ai_delay=0, seed_source=lambda: 7)
    o = await svc.lobby.create(1, 10, HOST, "Ann", seats=3, pace_name="live")
    assert "Pace" not in o.panel.text
    await svc.join(o.game_id, BOB, "Bob")
    await svc.join(o.game_id, CY, "Cy")
    start = await svc.start(o.game_id, HOST)
    assert "⏰" not in start.panel.text and await svc.clock_lines(o.game_id) == []
    assert await store.deadlines(o.game_id) == []
    await svc.close()
    await store.close()


# ------------------------------------------------------------------ leaving and replacing
@pytest.mark.asyncio
async def test_leaving_mid_game_asks_first_then_a_computer_plays_the_hidden_hand() -> None:
    rig = await Rig.open()
    g = await _game(rig)
    table = await rig.svc.tables.get(g)
    with pytest.raises(TableError, match="has already started.*replace"):
        await rig.svc.join(g, EVE, "Eve")
    with pytest.raises(TableError, match="not playing"):
        await rig.svc.seats.leave_panel(g, EVE)
    panel, _ = await rig.svc.seats.leave_panel(g, BOB)
    assert "Leave game" in panel.text and panel.controls()[0].op == QUIT
    assert t("leave.rated") in panel.text  # three people: a rated game
    assert table.seats[1].autopilot is None  # asking changes nothing
    n = len(rig.sink.outcomes)
    reply = await rig.svc.clicks.use(g, 0, BOB, "Bob", QUIT, "")
    assert "You left" in reply.text
    await rig.settle()
    assert table.seats[1].left and table.seats[1].autopilot == "normal"
    assert any("<@101> (Blue) left the game" in line for o in rig.since(n) for line in o.lines)
    with pytest.raises(TableError, match="You left"):
        await rig.svc.seats.leave_panel(g, BOB)
    with pytest.raises(TableError, match="You left"):
        await rig.svc.menu(g, BOB, "hand")
    with pytest.raises(TableError, match="left game"):
        await rig.svc.seats.autopilot(g, BOB, None, False)
    assert 1 not in table.clock or table.clock[1].due_at is None
    # the rest of the game: Blue's hand goes to nobody
    rng = random.Random(2)
    while table.game.status == "active":
        owing = sorted(s for s in table.since if not table.seats[s].is_ai)
        if not owing:
            await rig.run_for(1)
            continue
        uid = table.seats[owing[0]].user_id
        await rig.svc.act(g, uid, rng.choice(await rig.svc.play.legal(g, uid)))
        await rig.settle()
    assert all(1 not in o.hand_views and 1 not in o.secret_panels for o in rig.since(n))
    assert rig.sink.outcomes[-1].finished
    await rig.close()


@pytest.mark.asyncio
async def test_the_host_gives_a_seat_to_another_person() -> None:
    rig = await Rig.open()
    g = await _game(rig)
    table = await rig.svc.tables.get(g)
    seat, uid = await _owing_person(rig, g)
    version = table.version
    await rig.run_for(LIVE / 2)
    n = len(rig.sink.outcomes)
    o = await rig.svc.seats.replace(g, HOST, uid, NEW, "Newt")
    await rig.settle()
    assert table.seats[seat].user_id == NEW and table.seats[seat].name == "Newt"
    assert list(o.hand_views) == [seat]  # the hand goes to the new player by DM
    assert o.hand_views[seat]["seat"] == seat
    assert f"<@{NEW}> takes over {CONTENT.colours[seat]}" in o.lines[0]
    assert NEW in o.mention
    # a fresh decision (old controls are stale) with a fresh clock
    assert table.since[seat] > version
    assert table.clock[seat].due_at == rig.clock.now() + LIVE
    assert table.clock[seat].strikes == 0
    with pytest.raises(TableError, match="not playing"):
        await rig.svc.act(g, uid, (await rig.svc.play.legal(g, NEW))[0])
    await rig.svc.act(g, NEW, (await rig.svc.play.legal(g, NEW))[0])
    assert _timeouts(rig.since(n)) == []
    await rig.close()


@pytest.mark.asyncio
async def test_bad_replacements_are_refused_and_change_nothing() -> None:
    rig = await Rig.open()
    o = await rig.svc.lobby.create(1, 10, HOST, "Ann", seats=3, seed=7, pace_name="live")
    g = o.game_id
    await rig.svc.join(g, BOB, "Bob")
    with pytest.raises(TableError, match="has not started yet"):
        await rig.svc.seats.replace(g, HOST, BOB, NEW, "Newt")
    await rig.svc.join(g, CY, "Cy")
    await rig.svc.start(g, HOST)
    await rig.settle()
    table = await rig.svc.tables.get(g)
    before = (table.version, list(table.seats), dict(table.clock))
    cases = [
        (dict(user_id=BOB, old_user=CY, new_user=NEW), "Only the host"),
        (dict(user_id=HOST, old_user=CY, new_user=BOB), "already has a seat"),
        (dict(user_id=HOST, old_user=CY, new_user=CY), "already has a seat"),
        (dict(user_id=HOST, old_user=EVE, new_user=NEW), "has no seat"),
        (dict(user_id=HOST, old_user=CY, new_user=NEW, new_is_bot=True), "is a bot"),
    ]
    for kwargs, message in cases:
        with pytest.raises(TableError, match=message):
            await rig.svc.seats.replace(g, new_name="x", **kwargs)
    assert (table.version, list(table.seats), dict(table.clock)) == before
    assert await rig.svc.storage.seats(g) == table.seats
    # a channel manager may do it
    await rig.svc.seats.replace(g, BOB, CY, NEW, "Newt", can_manage=True)
    assert table.seats[2].user_id == NEW
    with pytest.raises(TableError, match="Unknown pace"):
        await rig.svc.lobby.create(1, 11, HOST, "Ann", pace_name="blitz")
    await rig.close()


@pytest.mark.asyncio
async def test_cancelling_disarms_the_game() -> None:
    rig = await Rig.open()
    g = await _game(rig)
    assert len(rig.sched) >= 1
    await rig.svc.lobby.cancel(g, HOST)
    assert len(rig.sched) == 0 and await rig.svc.storage.deadlines(g) == []
    n = len(rig.sink.outcomes)
    await rig.run_for(10 * LIVE)
    assert rig.since(n) == []
    await rig.close()


@pytest.mark.asyncio
async def test_the_host_role_passes_when_the_host_leaves_or_is_replaced(
        tmp_path: Path) -> None:
    """The host leaves mid-game: the next person seated becomes the host (stored, said in
    the thread), and refusals name them; the new host's seat given to someone else: the
    replacing person becomes the host. Survives a restart."""
    db = str(tmp_path / "t.db")
    rig = await Rig.open(db)
    g = await _game(rig, (HOST, BOB, CY))
    table = await rig.svc.tables.get(g)
    n = len(rig.sink.outcomes)
    await rig.svc.seats.leave_game(g, HOST)
    await rig.settle()
    assert table.game.host_id == BOB and (await rig.svc.storage.game(g)).host_id == BOB
    assert any(f"<@{BOB}> is now the host of game #{g}" in line
               for o in rig.since(n) for line in o.lines)
    with pytest.raises(TableError, match=rf"host \(<@{BOB}>\) can give it"):
        await rig.svc.seats.autopilot(g, CY, HOST, False, can_manage=True)
    with pytest.raises(TableError, match=rf"Only the host \(<@{BOB}>\)"):
        await rig.svc.timeouts.set_pace(g, CY, "daily")
    await rig.svc.timeouts.set_pace(g, BOB, "daily")  # the new host may
    # the new host's seat is given to someone else (by a channel manager)
    n = len(rig.sink.outcomes)
    await rig.svc.seats.replace(g, CY, BOB, NEW, "Newt", can_manage=True)
    await rig.settle()
    assert table.game.host_id == NEW
    assert any(f"<@{NEW}> is now the host" in line for o in rig.since(n) for line in o.lines)
    # a replacement of someone who is not the host passes nothing
    await rig.svc.seats.replace(g, NEW, CY, EVE, "Eve")
    assert table.game.host_id == NEW
    await rig.close()
    rig = await Rig.open(db, start=T0 + 10)
    await rig.svc.sync.resume_all()
    assert (await rig.svc.tables.get(g)).game.host_id == NEW
    await rig.svc.timeouts.set_pace(g, NEW, "relaxed")
    await rig.close()


def test_the_next_host_is_the_next_person_still_playing() -> None:
    from bot.store import SeatRow
    from bot.table.seats import next_host

    seats = [SeatRow(0, 1, None, "a"), SeatRow(1, None, "random", "c"),
             SeatRow(2, 3, None, "b", autopilot="normal"), SeatRow(3, 4, None, "d"),
             SeatRow(4, 5, None, "e", autopilot="normal", left=True)]
    assert next_host(seats, 0) == 4  # 3 is on autopilot, the computer is no person
    assert next_host(seats, 3) == 1
    alone = [SeatRow(0, 1, None, "a"), SeatRow(1, 3, None, "b", autopilot="normal"),
             SeatRow(2, None, "random", "c")]
    assert next_host(alone, 0) == 3  # only someone on autopilot: still a person
    assert next_host([SeatRow(0, 1, None, "a"), SeatRow(1, None, "random", "c")], 0) is None


# ------------------------------------------------------------------ people's languages
@pytest.mark.asyncio
async def test_a_persons_language_outlives_a_restart_and_crosses_processes(
        tmp_path: Path) -> None:
    """The language of a person's client, seen on an interaction, is stored; after a
    restart (nothing in memory) the resumed game reads it back, so DMs (here a
    reminder) come in it; one seen by another process reaches the owner when it catches
    up with that process's change."""
    from lang import i18n

    db = str(tmp_path / "t.db")
    rig = await Rig.open(db)
    i18n.store_locales_in(rig.svc.storage)
    try:
        g = await _game(rig)
        seat, uid = await _owing_person(rig, g)
        i18n.remember_user(uid, "pl")
        i18n.remember_user(CY, "en-US")
        await i18n.saved()
        assert await rig.svc.storage.user_locales([uid, CY]) == {uid: "pl", CY: "en"}
        await rig.close()
        i18n._USER_LOCALES.clear()  # a new process knows nobody
        rig = await Rig.open(db, start=T0 + 10)
        i18n.store_locales_in(rig.svc.storage)
        assert i18n.user_locale(uid, "en") == "en"
        await rig.svc.sync.resume_all()
        assert i18n.user_locale(uid, "en") == "pl"
        i18n._USER_LOCALES.clear()  # the reminder itself reads it too
        await rig.run_for(LIVE / 2)
        assert _reminders(rig.sink.outcomes) == [(uid, HALF)]
        assert i18n.user_locale(uid, "en") == "pl"
        # another process sees the person with an English client and stores it, then
        # someone acts there: the owner catches up and writes the next DMs in English
        other = await Rig.open(start=T0 + 100, owner=False, store=rig.svc.storage)
        await other.svc.storage.set_user_locale(uid, "en-GB")
        await other.svc.act(g, uid, (await other.svc.play.legal(g, uid))[0])
        assert await rig.svc.sync.refresh(g)
        assert i18n.user_locale(uid, "pl") == "en"
        await other.close(storage=False)
        await rig.close()
    finally:
        i18n.store_locales_in(None)
        i18n._USER_LOCALES.clear()
