"""R-INFO-1 / R-DRAW-2 (revised): cards discarded for the hand limit go face down, so the
public board image cannot depend on which cards they were."""

from __future__ import annotations

import random

from engine import view
from engine.state import SEEN_BY_ALL, State
from render.board import render_board
from tests.render.helpers import game, states


def _swap_face_down(state: State, rng: random.Random) -> State | None:
    """The same position with every face-down discard swapped for a draw-pile card."""
    hidden = [i for i, w in enumerate(state.discard_seen) if w != SEEN_BY_ALL]
    if not hidden or len(state.deck) < len(hidden):
        return None
    other = state.copy()
    swap = rng.sample(range(len(other.deck)), len(hidden))
    for i, j in zip(hidden, swap):
        other.discard[i], other.deck[j] = other.deck[j], other.discard[i]
    return other


def test_r_info_1_hand_limit_discards_do_not_change_the_board() -> None:
    rng = random.Random(4)
    found = 0
    for players, seed in ((3, 1), (4, 2), (5, 3)):
        for _, state in states(game(players, seed), 10):
            other = _swap_face_down(state, rng)
            if other is None:
                continue
            assert other.discard != state.discard
            png = render_board(view(state, None))
            assert png == render_board(view(other, None))
            # the discarding seat's own view (which lists its discards) draws the same
            for seat in {w for w in state.discard_seen if w != SEEN_BY_ALL}:
                assert render_board(view(state, seat)) == png
            found += 1
            if found >= 4:
                return
    assert found, "no position with a face-down discard in these games"
