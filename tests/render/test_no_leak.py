"""R-INFO-1..3: the public board image carries no hidden information.

Two states that differ only in what is secret (hands, the deck order, face-down attack
cards, secret progress choices) must give byte-identical public board images, and every
seat's own view must give the same board image as the spectator view.
"""

from __future__ import annotations

import random

from engine import view
from engine.state import State
from render.board import render_board
from tests.render.helpers import game, states

#: random games with face-down attack cards and secret progress choices among their
#: positions (random players rarely attack: most games have no fight with cards)
SECRET_GAMES = ((3, 1), (4, 2), (5, 3), (4, 7), (4, 10), (4, 31), (4, 37), (5, 38))


def _positions() -> list[State]:
    out = []
    for players, seed in ((3, 1), (4, 2), (5, 3)):
        out += [s for _, s in states(game(players, seed), 25)]
    return out


def _scramble(state: State, seed: int) -> State:
    """The same public position with other secrets: hands redealt from the unseen cards
    (keeping every hand's size), the deck reshuffled, face-down cards swapped."""
    other = state.copy()
    rng = random.Random(seed)
    unseen = list(other.deck)
    for p in other.players:
        unseen += p.hand
    face_down: list[list[int]] = []
    if other.combat is not None and other.combat.attack_cards is not None \
            and other.combat.defend_cards is None:
        face_down.append(other.combat.attack_cards)
    face_down += list(other.progress_choices.values())
    for cards in face_down:
        unseen += cards
    rng.shuffle(unseen)
    for p in other.players:
        p.hand = [unseen.pop() for _ in p.hand]
    for cards in face_down:
        cards[:] = [unseen.pop() for _ in cards]
    other.deck = unseen
    return other


def test_r_info_1_hidden_cards_do_not_change_the_board() -> None:
    changed = 0
    for i, state in enumerate(_positions()):
        other = _scramble(state, i)
        if any(a.hand != b.hand for a, b in zip(state.players, other.players)):
            changed += 1
        assert render_board(view(state, None)) == render_board(view(other, None))
    assert changed >= 5  # the test did swap real hands


def test_r_info_2_face_down_attack_cards_do_not_change_the_board() -> None:
    found = 0
    for players, seed in SECRET_GAMES:
        for _, state in states(game(players, seed)):
            c = state.combat
            if c is None or c.attack_cards is None or c.defend_cards is not None:
                continue
            if not c.attack_cards:
                continue
            other = _scramble(state, found)
            assert render_board(view(state, None)) == render_board(view(other, None))
            # the attacker's own view (which holds the card ids) draws the same board
            assert render_board(view(state, c.attacker)) == render_board(view(state, None))
            found += 1
            if found >= 3:
                return
    assert found, "no position with face-down attack cards in these games"


def test_r_info_1_seat_views_draw_the_public_board() -> None:
    for state in _positions()[::3]:
        public = render_board(view(state, None), (40,), (40, 41))
        for seat in range(state.num_players):
            assert render_board(view(state, seat), (40,), (40, 41)) == public
