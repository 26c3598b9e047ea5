"""The table service never asks what has one answer and says only what changed: an undo
tells nobody of a hand that did not change, a decision with one possible answer (known from
public facts) is taken at once and said in the log, an undo is refused once the next
person has been told it is their turn."""

from __future__ import annotations

import random

import pytest

from bot.table.service import TableError
from engine import actions as A
from tests.bot.table.test_table import _close, _service, _three, _to_first_turn


async def _person_turn(svc, g):  # type: ignore[no-untyped-def]
    """(table, seat, user id) of the person whose action turn it is."""
    table = await svc.table(g)
    (seat,) = table.since
    return table, seat, table.seats[seat].user_id


@pytest.mark.asyncio
async def test_an_undo_sends_nobody_an_unchanged_hand() -> None:
    """Only hands that changed go out: an undo changes no hand (engine.undo takes back only
    steps that reveal nothing), so nobody gets a hand DM for it."""
    svc, sink = await _service()
    g = await _three(svc)
    await _to_first_turn(svc, g, random.Random(2))
    table, seat, uid = await _person_turn(svc, g)
    await svc.act(g, uid, A.DrawCards(), table.version)
    while table.state.turn == seat:  # the rest of this turn: anything but a fight
        legal = [a for a in await svc.legal(g, uid) if not isinstance(a, A.Attack)]
        await svc.act(g, uid, next((a for a in legal if isinstance(a, A.EndTurn)), legal[0]),
                      table.version)
    await svc.idle()
    assert table.state.players[seat].hand, "someone holds cards"
    table, nxt, nuid = await _person_turn(svc, g)
    await svc.act(g, nuid, A.BeginMove(), table.version)
    outcome = await svc.undo(g, nuid, table.version)
    await svc.idle()
    assert outcome.hand_views == {} and sink.outcomes[-1].hand_views == {}
    await _close(svc)


def _has_undo(outcome) -> bool:  # type: ignore[no-untyped-def]
    return any(b.op == "undo" for row in outcome.panel.rows if isinstance(row, tuple)
               for b in row)


@pytest.mark.asyncio
async def test_the_previous_turn_is_final_once_the_next_person_is_told() -> None:
    """Board Game Arena's policy: a step may be taken back while its player still decides,
    not once the next person's turn message has told them to play (engine.undo alone would
    allow it until they act); the Undo button goes and an undo is refused, saying why."""
    svc, sink = await _service()
    g = await _three(svc)
    table = await svc.table(g)
    first = table.state.turn
    uid = table.seats[first].user_id
    while table.state.turn == first:  # the starting tokens of the first seat
        await svc.act(g, uid, (await svc.legal(g, uid))[0], table.version)
        await svc.idle()
        if table.state.turn == first:
            assert _has_undo(sink.outcomes[-1]), "the player may still take a step back"
    assert table.timeline.undo_allowed(first), "the engine alone would still allow it"
    nxt = table.state.turn
    assert not table.seats[nxt].is_ai
    assert not _has_undo(sink.outcomes[-1]), "no Undo on the next person's turn message"
    with pytest.raises(TableError) as err:
        await svc.undo(g, uid, table.version)
    assert table.seats[nxt].name in str(err.value) and "final" in str(err.value)
    assert table.state.turn == nxt
    await _close(svc)
