"""A turn message's control with one possible answer acts in one click, through the same
path as the menu's choice: the same checks (a stale click is refused), stored before the
reply, the same acknowledgement, the same undo; two possible answers still open the
private menu. The same for one token move, one source's destinations and one hex to grow
on."""

from __future__ import annotations

import pytest

from bot.table.service import TableError
from engine import actions as A
from engine.game import ATTACK_CARDS, MOVING, TURN, decision_for
from games.controls import ACT, MENU, UNDO, Button, Select
from games.tempus.codec import decode_actions, encode_action, encode_actions
from tests.bot.table.test_table import _close, _service, _three
from tests.engine.helpers import H, card, make_state
from tests.games.tempus.test_one_choice import HEMMED, ONE, TWO


async def _table(svc, tokens, hands=None):  # type: ignore[no-untyped-def]
    """A started game of three people put in a position (a test's state surgery): Red's
    (Ann's) turn with one action left."""

    g = await _three(svc)
    await svc.idle()
    table = await svc.tables.get(g)
    async with table.lock:
        table.state = make_state(tokens=tokens, hands=hands or {}, markers=1)
        table.since = {0: table.version}
        table.timeline = table.port.rules.timeline()
    return g, table, table.seats[0].user_id


async def _button(svc, g, kind):  # type: ignore[no-untyped-def]
    panel, version = await svc.play.turn_panel(g)
    found = [b for b in panel.controls() if isinstance(b, Button) and b.op == ACT
             and isinstance(decode_actions(b.arg)[0], kind)]
    return found, version


@pytest.mark.asyncio
async def test_the_one_city_button_builds_in_one_click_and_can_be_undone() -> None:
    svc, _ = await _service()
    try:
        # a card in hand: the turn does not end by itself after the build (the bot ends a
        # turn with nothing left to do at once), so the build can still be taken back
        g, table, ann = await _table(svc, ONE, {0: [card("EDU", "W")]})
        (button,), version = await _button(svc, g, A.BuildCity)
        reply = await svc.clicks.use(g, version, ann, "Ann", button.op, button.arg)
        assert reply.menu is None and reply.text == "Done: Build a city of value 2 on E5."
        assert table.state.city_owner[H("E5")] == 0 and table.state.city_value[H("E5")] == 2
        rows = await svc.storage.actions(g)
        assert rows[-1].action == A.BuildCity(H("E5"), 2).to_json(), "stored before the reply"
        # the same checks as any control: the old message's button is refused, not repeated
        with pytest.raises(TableError):
            await svc.clicks.use(g, version, ann, "Ann", button.op, button.arg)
        reply = await svc.clicks.use(g, table.version, ann, "Ann", UNDO, "")
        assert table.state.city_owner[H("E5")] == -1
        await svc.idle()
    finally:
        await _close(svc)


@pytest.mark.asyncio
async def test_the_one_attack_button_attacks_in_one_click_and_can_be_undone() -> None:
    """With a card in hand the attacker still chooses cards in private, and may take the
    attack back until then (engine.undo)."""
    svc, _ = await _service()
    try:
        g, table, ann = await _table(svc, ONE, {0: [card("EDU", "W")]})
        (button,), version = await _button(svc, g, A.Attack)
        reply = await svc.clicks.use(g, version, ann, "Ann", button.op, button.arg)
        assert reply.text == "Done: Attack F5 from E5."
        assert decision_for(table.state, 0).kind == ATTACK_CARDS
        await svc.clicks.use(g, table.version, ann, "Ann", UNDO, "")
        assert decision_for(table.state, 0).kind == TURN and table.state.combat is None
        await svc.idle()
    finally:
        await _close(svc)


@pytest.mark.asyncio
async def test_two_possible_cities_still_open_the_private_menu() -> None:
    svc, _ = await _service()
    try:
        g, table, ann = await _table(svc, TWO)
        found, version = await _button(svc, g, A.BuildCity)
        assert not found
        panel, _ = await svc.play.turn_panel(g)
        (city,) = [b for b in panel.controls() if isinstance(b, Button) and b.op == MENU
                   and b.arg == "city"]
        before = table.version
        reply = await svc.clicks.use(g, version, ann, "Ann", city.op, city.arg)
        assert reply.menu is not None and table.version == before, "a menu changes nothing"
        (select,) = [r for r in reply.menu.rows if isinstance(r, Select)]
        assert len(select.options) == 2
    finally:
        await _close(svc)


@pytest.mark.asyncio
async def test_the_one_move_button_moves_in_one_click_and_can_be_undone() -> None:
    """The Move's last token (R-INFO-4, rules 5: with cards in hand the Move waits for its
    player to end it): one button moves it and ends the Move in one click, one keeps the
    Move open; either can be taken back."""
    svc, _ = await _service()
    try:
        # a card in hand keeps the turn open after the action, so it can be taken back
        g, table, ann = await _table(svc, HEMMED, {0: [card("EDU", "W")]})
        await svc.clicks.use(g, table.version, ann, "Ann", ACT, encode_action(A.BeginMove()))
        (end, keep), version = await _button(svc, g, A.MoveToken)
        assert decode_actions(end.arg) == [A.MoveToken(H("E5"), H("F5")), A.EndMove()]
        assert decode_actions(keep.arg) == [A.MoveToken(H("E5"), H("F5"))]
        reply = await svc.clicks.use(g, version, ann, "Ann", end.op, end.arg)
        assert reply.menu is None
        assert reply.text == "Done: Move a token E5 → F5. Stop moving."
        assert table.state.owner[H("F5")] == 0 and table.state.owner[H("E5")] == -1
        assert decision_for(table.state, 0).kind == TURN, "the Move ended with the click"
        rows = await svc.storage.actions(g)
        assert [r.action for r in rows[-2:]] == [A.MoveToken(H("E5"), H("F5")).to_json(),
                                                 A.EndMove().to_json()], "stored first"
        with pytest.raises(TableError):  # the old message's button is refused
            await svc.clicks.use(g, version, ann, "Ann", end.op, end.arg)
        while table.state.owner[H("E5")] != 0:
            await svc.clicks.use(g, table.version, ann, "Ann", UNDO, "")
        assert table.state.owner[H("F5")] == -1
        # the other button keeps the Move open: a card may still be played after it
        (end, keep), version = await _button(svc, g, A.MoveToken)
        await svc.clicks.use(g, version, ann, "Ann", keep.op, keep.arg)
        assert decision_for(table.state, 0).kind == MOVING
        await svc.idle()
    finally:
        await _close(svc)


@pytest.mark.asyncio
async def test_the_last_token_with_an_empty_hand_needs_no_end() -> None:
    """An empty hand ends the Move by itself (its size is public): one plain button."""
    svc, _ = await _service()
    try:
        g, table, ann = await _table(svc, HEMMED)
        table.state.players[0].markers = 2  # the turn goes on after the Move
        table.state.turn_actions = 2
        await svc.clicks.use(g, table.version, ann, "Ann", ACT, encode_action(A.BeginMove()))
        (button,), version = await _button(svc, g, A.MoveToken)
        assert decode_actions(button.arg) == [A.MoveToken(H("E5"), H("F5"))]
        await svc.clicks.use(g, version, ann, "Ann", button.op, button.arg)
        assert decision_for(table.state, 0).kind == TURN
        await svc.idle()
    finally:
        await _close(svc)


@pytest.mark.asyncio
async def test_the_one_grow_button_grows_in_one_click_and_can_be_undone() -> None:
    svc, _ = await _service()
    try:
        # one grassland hex with room
        g, table, ann = await _table(svc, {"E5": (0, 1)}, {0: [card("EDU", "W")]})
        await svc.clicks.use(g, table.version, ann, "Ann", ACT, encode_action(A.BeginGrow()))
        (end, _keep), version = await _button(svc, g, A.GrowToken)
        reply = await svc.clicks.use(g, version, ann, "Ann", end.op, end.arg)
        assert reply.text == "Done: Grow a token on E5. Stop growing."
        assert table.state.count[H("E5")] == 2
        assert decision_for(table.state, 0).kind == TURN
        while table.state.count[H("E5")] != 1:
            await svc.clicks.use(g, table.version, ann, "Ann", UNDO, "")
        await svc.idle()
    finally:
        await _close(svc)


@pytest.mark.asyncio
async def test_one_source_moves_in_one_choice_of_its_destinations() -> None:
    """The public select of the only source's destinations acts: one choice, no menu."""
    svc, _ = await _service()
    try:
        g, table, ann = await _table(svc, {"E5": (0, 1)}, {0: [card("EDU", "W")]})
        await svc.clicks.use(g, table.version, ann, "Ann", ACT, encode_action(A.BeginMove()))
        panel, version = await svc.play.turn_panel(g)
        (select,) = [r for r in panel.rows if isinstance(r, Select)]
        assert select.op == ACT
        # the Move's last token: the choice also ends the Move (R-INFO-4, rules 5)
        value = encode_actions([A.MoveToken(H("E5"), H("D5")), A.EndMove()])
        assert value in [o.value for o in select.options]
        reply = await svc.clicks.use(g, version, ann, "Ann", select.op, select.arg, [value])
        assert reply.menu is None
        assert reply.text == "Done: Move a token E5 → D5. Stop moving."
        assert table.state.owner[H("D5")] == 0
        await svc.idle()
    finally:
        await _close(svc)
