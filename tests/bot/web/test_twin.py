"""A watching page never holds a card of a hand or of the deck: the same position with
the unseen cards dealt anew (``Rules.twin``) gives the very same bytes, for its first
load and for every push; a seat's page tells only what that seat may know."""

from __future__ import annotations

import random

import pytest

from bot.web.hub import Page
from bot.web.pages import Viewer
from engine import actions as A
from engine.game import apply_in_place, decision_for, to_act
from engine.legal import legal_actions
from engine.state import State
from tests.bot.helpers import random_states
from tests.bot.web.rig import HOST, new_game, rig


def _fight(state: State) -> list[State]:
    """The fight a seat could start here: the attack made, and its cards committed face
    down (random play seldom attacks)."""
    for seat in to_act(state):
        attacks = [a for a in legal_actions(state, seat) if isinstance(a, A.Attack)]
        if not attacks:
            continue
        fight = state.copy()
        apply_in_place(fight, seat, attacks[0])
        out = [fight.copy()]
        for _ in range(3):
            d = decision_for(fight, fight.combat.attacker) if fight.combat else None
            if d is None:
                break
            options = legal_actions(fight, d.seat)
            apply_in_place(fight, d.seat, options[-1])  # the most cards, the last terrain
            out.append(fight.copy())
        return out
    return []


def _positions() -> list[State]:
    """Positions of random three-player games, with fights (cards face down) and
    progress phases (choices made in secret) among them."""
    out: list[State] = []
    for seed in (3, 11):
        for i, state in enumerate(random_states(seed, 3)):
            if i % 12 == 0 or (state.progress_choices and i % 2 == 0):
                out.append(state)
            if i % 12 == 0 and state.phase == "actions":
                out += _fight(state)
    fights = [s for s in out if s.combat is not None and s.combat.attack_cards]
    progress = [s for s in out if s.phase == "progress" and s.progress_choices]
    assert fights and progress, "the positions cover secret cards in play"
    return out


@pytest.mark.asyncio
async def test_a_watching_page_and_its_pushes_cannot_tell_the_unseen_cards_apart() -> None:
    positions = _positions()
    async with rig() as r:
        g = await new_game(r)
        table = await r.table(g)
        hub = r.front.hub
        assert hub is not None
        await hub.log_of(table)  # the log is the same for both: made once here
        rules = table.port.rules
        viewer = Viewer(g, None, HOST, "pl")
        page = hub.open(viewer, -1, "")
        rng = random.Random(5)
        real = table.state
        dealt_anew = 0
        try:
            for state in positions:
                twin = rules.twin(state, None, rng.randrange(1 << 30))
                dealt_anew += [p.hand for p in twin.players] != [p.hand for p in state.players]
                sent = []
                for s in (state, twin):
                    table.state = s
                    hub._messages.clear()  # (kept by version: this one is a made-up position)
                    first = await hub.message(table, viewer, "")
                    hub._messages.clear()
                    page.map_key = ""
                    await hub._push(g)
                    pushed = page.take()
                    sent.append((first, pushed))
                assert sent[0] == sent[1]
        finally:
            table.state = real
            hub.leave(page)
        assert dealt_anew > len(positions) // 2, "the twins hold other cards"


@pytest.mark.asyncio
async def test_a_seat_page_holds_its_own_hand_only() -> None:
    positions = _positions()[::3]
    async with rig() as r:
        g = await new_game(r)
        table = await r.table(g)
        hub = r.front.hub
        assert hub is not None
        await hub.log_of(table)
        rules = table.port.rules
        real, since = table.state, dict(table.since)
        rng = random.Random(9)
        try:
            for state in positions:
                table.since = {s: table.version for s in to_act(state)}
                for seat in range(3):
                    user = table.seats[seat].user_id
                    assert user is not None
                    viewer = Viewer(g, seat, user, "en")
                    twin = rules.twin(state, seat, rng.randrange(1 << 30))
                    sent = []
                    for s in (state, twin):
                        table.state = s
                        hub._messages.clear()  # (kept by version: a made-up position)
                        sent.append(await hub.message(table, viewer, ""))
                    assert sent[0] == sent[1], "nothing of another hand nor of the deck"
        finally:
            table.state, table.since = real, since


def test_a_page_takes_the_newest_state_only() -> None:
    page = Page(Viewer(1, None, 2, "en"), "", 0)
    page.offer(b"one", 1, 0.0)
    page.offer(b"two", 2, 0.0)
    assert page.take() == b"two" and page.take() is None
