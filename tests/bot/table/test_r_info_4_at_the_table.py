"""R-INFO-4 at the table: two tables whose positions differ only in which cards one hand
holds (same size) show the same thing after the same public action, and a computer's
secret answer comes after the same pause whatever its hand holds.

The engine's own check (tests/engine/test_r_info_4_flow_says_nothing.py) covers every
public action of random games; here the bot's outputs built on it: the public log lines,
the turn message (text, buttons, selects) and whose turn it is.
"""

from __future__ import annotations

import asyncio

import pytest

from engine import actions as A
from engine import apply
from engine.game import DEFEND_CARDS, decision_for
from games.controls import Button, Select
from tests.bot.table.test_one_choice_click import _table
from tests.bot.table.test_table import _close, _service, _three
from tests.engine.helpers import H, card, make_state
from tests.games.tempus.test_one_choice import HEMMED

WEAPONS, TRANSPORT, EDUCATION = card("WEA", "G"), card("TRA", "G"), card("EDU", "W")


def _shown(panel) -> list:  # type: ignore[no-untyped-def]
    """What a turn message shows: its text and every control (label, op, value)."""
    out: list = [panel.text]
    for c in panel.controls():
        if isinstance(c, Button):
            out.append((c.label, c.op, c.arg, c.style))
        elif isinstance(c, Select):
            out.append((c.placeholder, c.op, c.arg, [(o.label, o.value) for o in c.options]))
    return out


async def _after_last_token(hand: list[int]) -> tuple[list, list, list]:
    svc, _ = await _service()
    try:
        g, table, ann = await _table(svc, HEMMED, {0: hand})
        trail = []
        for action in (A.BeginMove(), A.MoveToken(H("E5"), H("F5")), A.EndMove()):
            outcome = await svc.act(g, ann, action, table.version)
            panel, _ = await svc.play.turn_panel(g)
            d = decision_for(table.state, 0)
            trail.append((outcome.lines, _shown(panel) if panel else None,
                          d.kind if d else None))
        await svc.idle()
        return trail
    finally:
        await _close(svc)


@pytest.mark.asyncio
async def test_r_info_4_the_table_shows_the_same_whatever_the_hand_holds() -> None:
    """Transport (which could move one more token) or Weapons (which could not): the same
    log lines, the same turn message and buttons after each step of the Move."""
    with_transport = await _after_last_token([TRANSPORT])
    with_weapons = await _after_last_token([WEAPONS])
    assert with_transport == with_weapons
    # and the last token did not end the Move by itself: the player said so
    assert with_transport[1][2] == "move" and with_transport[2][2] == "turn"


async def _computer_answer_time(hand: list[int], think_s: float) -> float:
    """Seconds from a computer's defence decision being owed to its answer, when its
    thinking takes ``think_s`` (a stand-in for a search whose length depends on the
    hand)."""
    svc, _ = await _service()
    svc.computers.delay = 0.3
    try:
        g = await _three(svc, bots=1)  # seat 2 is a computer
        await svc.idle()
        table = await svc.tables.get(g)
        state = make_state(tokens={"E5": (0, 3), "F5": (2, 1), "K3": (2, 1), "K5": (2, 1),
                                   "K7": (2, 1)}, hands={2: hand}, markers=1)
        state, _ = apply(state, 0, A.Attack(H("E5"), H("F5")))
        state, _ = apply(state, 0, A.CommitAttackCards(()))
        assert decision_for(state, 2).kind == DEFEND_CARDS

        async def think(table, state, seat, version):  # type: ignore[no-untyped-def]
            await asyncio.sleep(think_s)
            return A.DefendCards(())

        svc.computers._think = think  # type: ignore[method-assign]
        loop = asyncio.get_running_loop()
        async with table.lock:
            table.state = state
            table.since = {2: table.version}
        asked = loop.time()
        svc.computers.kick(table)
        while table.state.combat is not None and table.state.combat.defend_cards is None:
            await asyncio.sleep(0.005)
        return loop.time() - asked
    finally:
        await _close(svc)


@pytest.mark.asyncio
async def test_r_info_4_a_computer_answers_after_the_same_pause_whatever_it_holds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The pause holds the thinking: a long search (many cards worth comparing) and a
    short one are answered after the same pause, not after pause + search. Checked on
    what the computer loop waits (the pause less the time its thinking took), not on how
    long a loaded machine took to answer."""
    from bot.table import computers

    waits: list[tuple[float, float, float]] = []

    def recorded(pause: float, thought: float) -> float:
        wait = computers_wait(pause, thought)
        waits.append((pause, thought, wait))
        return wait

    computers_wait = computers.wait_after_thinking
    monkeypatch.setattr(computers, "wait_after_thinking", recorded)
    quick = await _computer_answer_time([EDUCATION], 0.0)
    slow = await _computer_answer_time([WEAPONS], 0.2)
    assert min(quick, slow) >= 0.29, "never answered before the pause"
    (pause_q, thought_q, wait_q), (pause_s, thought_s, wait_s) = waits
    assert pause_q == pause_s == 0.3 and thought_s >= 0.2 > thought_q
    # the thinking's own measured time comes off the pause (the old order, pause then
    # think, waited the whole pause after the slow search too)
    assert wait_q == pytest.approx(max(0.0, 0.3 - thought_q))
    assert wait_s == pytest.approx(max(0.0, 0.3 - thought_s)) and wait_s < 0.3 - 0.19


