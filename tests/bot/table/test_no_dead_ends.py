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
    table = await svc.tables.get(g)
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
        legal = [a for a in await svc.play.legal(g, uid) if not isinstance(a, A.Attack)]
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
    table = await svc.tables.get(g)
    first = table.state.turn
    uid = table.seats[first].user_id
    while table.state.turn == first:  # the starting tokens of the first seat
        await svc.act(g, uid, (await svc.play.legal(g, uid))[0], table.version)
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


async def _fight_table(svc, hands):  # type: ignore[no-untyped-def]
    """A started game of three people put in a position (a test's state surgery): Red
    (Ann) holds 3 tokens on E5 next to Blue's (Bob's) 2 on F5, one action left, the hands
    ``hands``."""
    from tests.bot.positions import BLUE_FAR
    from tests.engine.helpers import make_state

    g = await _three(svc)
    await svc.idle()
    table = await svc.tables.get(g)
    async with table.lock:
        table.state = make_state(tokens={"E5": (0, 3), "F5": (1, 2), **BLUE_FAR},
                                 hands=hands, markers=1)
        table.since = {0: table.version}
        table.timeline = table.port.rules.timeline()
    return g, table


@pytest.mark.asyncio
async def test_an_empty_hand_is_never_asked_for_cards_and_a_lone_end_turn_is_taken() -> None:
    """A fight's attacker with no cards (a hand's size is public) is not asked to choose
    attack cards (no DM, no button): the bot plays none for them at once and says so; after
    the move-in, with nothing left to do and no cards, the turn simply ends. Each answer is
    an ordinary stored move of that seat (the record replays)."""
    from engine.game import OCCUPY, decision_for
    from lang.messages import t

    svc, sink = await _service()
    g, table = await _fight_table(svc, {})
    ann = table.seats[0].user_id
    from tests.engine.helpers import H
    outcome = await svc.act(g, ann, A.Attack(H("E5"), H("F5")), table.version)
    await svc.idle()
    assert decision_for(table.state, 0).kind == OCCUPY, "the fight was fought at once"
    assert t("auto.no_cards", colour="Red") in outcome.lines
    # one plain sentence: not followed by "Red plays no cards face down."
    assert t("event.attack_cards.none", colour="Red") not in outcome.lines
    assert "Red has no cards in hand, so plays none face down." in outcome.lines
    assert not [x for x in outcome.lines if "nothing to ask" in x or "0 cards" in x]
    assert all(not o.secret_panels for o in sink.outcomes), "no secret choice DM"
    assert all("secret" not in [b.arg for b in (o.panel.controls() if o.panel else [])]
               for o in sink.outcomes if o.game_id == g), "no button for it"
    rows = await svc.storage.actions(g)
    assert [(r.seat, r.action) for r in rows[-2:]] == [
        (0, A.Attack(H("E5"), H("F5")).to_json()), (0, A.CommitAttackCards(()).to_json())]
    outcome = await svc.act(g, ann, A.Occupy(1), table.version)
    await svc.idle()
    assert t("auto.turn_ends", colour="Red") in outcome.lines
    assert table.state.turn == 1 and decision_for(table.state, 0) is None
    await _close(svc)


@pytest.mark.asyncio
async def test_a_hand_without_a_playable_card_is_still_asked() -> None:
    """Whether a hand holds a playable card is secret: with a card in hand the attacker is
    asked (privately: the turn message's button opens the choice, or a DM if they are away),
    not answered for, and after the move-in the turn waits for "End turn" even when no
    card could be played (answering at once would tell the table)."""
    from bot.table.forced import forced_action
    from engine.game import ATTACK_CARDS, TURN, decision_for
    from lang.messages import t
    from tests.engine.helpers import H, card

    svc, sink = await _service()
    g, table = await _fight_table(svc, {0: [card("EDU", "W")]})
    ann = table.seats[0].user_id
    await svc.act(g, ann, A.Attack(H("E5"), H("F5")), table.version)
    await svc.idle()
    assert decision_for(table.state, 0).kind == ATTACK_CARDS, "not answered for Ann"
    assert forced_action(table, 0) is None
    rows = await svc.storage.actions(g)
    assert rows[-1].action == A.Attack(H("E5"), H("F5")).to_json(), "no answer stored"
    last = sink.outcomes[-1]
    assert t("auto.no_cards", colour="Red") not in [x for o in sink.outcomes for x in o.lines]
    # Ann just clicked: she is at the table, so no DM; the turn message asks her instead
    assert not last.secret_panels
    assert "secret" in [b.arg for b in last.panel.controls()], "the cards button"
    menu, _ = await svc.menu(g, ann, "secret", table.version)
    assert menu.rows, "the button opens the choice of cards"
    # had she been away, the choice would have come by DM (it is not forced)
    svc.presence.forget(g)
    assert 0 in svc.outcomes.play(table, None, [], actor=None).secret_panels
    await svc.act(g, ann, A.CommitAttackCards(()), table.version)
    await svc.act(g, ann, A.Occupy(1), table.version)
    await svc.idle()
    assert decision_for(table.state, 0).kind == TURN
    await _close(svc)
