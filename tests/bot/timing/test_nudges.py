"""Nobody waits unknowingly: a person who owes a decision and has not acted a few minutes
after it became theirs gets the one notification an away player gets (bot.timing.nudges),
once, also across a restart; someone told when it was asked gets no second one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import DeadlineRow
from bot.table.service import Outcome
from bot.timing.nudges import NUDGE_S, nudge_at
from bot.timing.pace import HOUR, PACES
from tests.bot.timing.test_turnclock import T0, Rig, _game, _owing_person

DAILY = PACES["daily"]


def _told(outs: list[Outcome], uid: int, seat: int) -> list[Outcome]:
    """The outcomes that notify ``uid`` (seat ``seat``) of a decision: a ping, or a DM
    with a secret choice."""
    return [o for o in outs if uid in o.mention or seat in o.secret_panels]


# ------------------------------------------------------------------ the time rule
def test_a_decision_is_nudged_a_few_minutes_after_it_became_the_persons() -> None:
    row = DeadlineRow(0, 5, T0, T0 + 24 * HOUR)
    assert nudge_at(row, DAILY) == T0 + NUDGE_S
    # a click since (a menu opened, the help read): at the table, so later
    assert nudge_at(row, DAILY, last_seen=T0 + 200) == T0 + 200 + NUDGE_S
    # the click that made the decision theirs came before it: no later
    assert nudge_at(row, DAILY, last_seen=T0 - 30) == T0 + NUDGE_S


def test_no_nudge_once_told_or_reminded_or_when_a_reminder_comes_first() -> None:
    row = DeadlineRow(0, 5, T0, T0 + 24 * HOUR)
    assert nudge_at(DeadlineRow(0, 5, T0, T0 + 24 * HOUR, nudged=True), DAILY) is None
    assert nudge_at(DeadlineRow(0, 5, T0, T0 + 24 * HOUR, reminded=1), DAILY) is None
    assert nudge_at(DeadlineRow(0, 5, T0, None), DAILY) is None  # no clock runs
    assert nudge_at(DeadlineRow(0, covering="[1]"), DAILY) is None
    live = PACES["live"]  # its half-time reminder (90 s) tells them first
    assert nudge_at(DeadlineRow(0, 5, T0, T0 + (live.seconds or 0)), live) is None
    # still clicking until the first reminder is due: the reminder does it
    assert nudge_at(row, DAILY, last_seen=T0 + 12 * HOUR) is None


# ------------------------------------------------------------------ at the table
@pytest.mark.asyncio
async def test_a_person_who_walked_away_after_their_click_is_told_within_minutes() -> None:
    rig = await Rig.open()
    g = await _game(rig, pace="daily")
    seat, uid = await _owing_person(rig, g)
    # the first decision is the host's, who clicked Start just now: at the table, so the
    # turn message names them without pinging them
    assert _told(rig.sink.outcomes, uid, seat) == []
    n = len(rig.sink.outcomes)
    await rig.run_for(NUDGE_S - 1)
    assert _told(rig.since(n), uid, seat) == []
    await rig.run_for(2)
    told = _told(rig.since(n), uid, seat)
    assert len(told) == 1, told
    # a new turn message pings them (an edit would not), as if they had been away
    assert told[0].mention == [uid] or list(told[0].secret_panels) == [seat]
    assert (await rig.svc.tables.get(g)).clock[seat].nudged
    assert (await rig.svc.storage.deadlines(g))[seat].nudged
    # once per decision: nothing more until the half-time reminder
    n = len(rig.sink.outcomes)
    await rig.run_for(11 * HOUR)
    assert _told(rig.since(n), uid, seat) == []
    await rig.close()


@pytest.mark.asyncio
async def test_someone_still_clicking_is_left_alone_until_they_stop() -> None:
    rig = await Rig.open()
    g = await _game(rig, pace="daily")
    seat, uid = await _owing_person(rig, g)
    n = len(rig.sink.outcomes)
    await rig.run_for(4 * 60)
    await rig.svc.menu(g, uid, "hand")  # a look at their hand: at the table
    await rig.run_for(4 * 60)
    assert _told(rig.since(n), uid, seat) == []
    await rig.run_for(60 + 1)
    assert len(_told(rig.since(n), uid, seat)) == 1
    await rig.close()


@pytest.mark.asyncio
async def test_someone_told_when_asked_gets_no_nudge() -> None:
    rig = await Rig.open()
    g = await _game(rig, pace="daily")
    seat, uid = await _owing_person(rig, g)
    await rig.run_for(NUDGE_S + 1)  # told now (the nudge)
    table = await rig.svc.tables.get(g)
    people = {s.user_id for s in table.seats}
    # everyone else is away: each decision of theirs that begins pings them when asked,
    # and a nudge never follows it
    counts: dict[int, int] = {}
    for _ in range(6):
        seat, uid = await _owing_person(rig, g)
        legal = await rig.svc.play.legal(g, uid)
        rig.clock.advance(3600)  # each person comes back an hour later, acts, leaves
        await rig.svc.act(g, uid, legal[0])
        await rig.settle()
        n = len(rig.sink.outcomes)
        nxt, who = await _owing_person(rig, g)
        await rig.run_for(NUDGE_S + 1)
        counts[who] = counts.get(who, 0) + 1
        if who != uid:  # a new decision of someone away: told when asked, not again
            row = (await rig.svc.tables.get(g)).clock[nxt]
            assert row.nudged
            assert len(_told(rig.since(n), who, nxt)) == 0
    assert set(counts) <= people
    await rig.close()


# ------------------------------------------------------------------ restarts
@pytest.mark.asyncio
async def test_a_nudge_survives_a_restart_and_is_not_sent_twice(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    rig = await Rig.open(db)
    g = await _game(rig, pace="daily")
    seat, uid = await _owing_person(rig, g)
    await rig.run_for(60)
    await rig.close()  # down before the nudge was due
    rig = await Rig.open(db, start=T0 + 120)
    await rig.svc.sync.resume_all()
    n = len(rig.sink.outcomes)
    await rig.run_for(NUDGE_S)
    assert len(_told(rig.since(n), uid, seat)) == 1
    await rig.close()
    rig = await Rig.open(db, start=T0 + 2 * NUDGE_S)  # down again after it was sent
    await rig.svc.sync.resume_all()
    n = len(rig.sink.outcomes)
    await rig.run_for(HOUR)
    assert [o for o in _told(rig.since(n), uid, seat) if o.kind != "resume"] == []
    await rig.close()
