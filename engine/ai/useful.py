"""Which legal actions do nothing: one definition for every computer player that must not
take one while a useful one exists (``easy``, the scripted newcomer of :mod:`.newcomer`).

The rules allow fruitless actions (R-ROUND-5): a Move that moves nothing, a Growth with
no room to grow, drawing from empty piles. An action *does nothing* when it is one of:

* in the turn's main step, with a marker to use: Begin Move while no token can move
  anywhere; Begin Grow while no hex has room for a token (:func:`engine.turn.grow_hexes`);
  Draw Cards while the draw and discard piles are both empty;
* inside a Move or a Growth: ending it before a single token has moved or grown
  (``state.touched`` is empty) while a token could still move or grow, which makes the
  whole action one that did nothing.

Everything else changes the position or is a real choice (which cards to commit, how many
tokens to move in, where to place a tile), so it counts as useful. ``tests/engine/
test_ai_play.py`` checks ``easy`` against the main-step half of this over whole games.
"""

from __future__ import annotations

from .. import actions as A
from ..movement import Reach, movable_sources
from ..state import GROW, MAIN, MOVE, State
from ..turn import grow_hexes


def _can_move(state: State, seat: int) -> bool:
    reach = Reach(state, seat)
    return any(reach.destinations(src) for src in movable_sources(state, seat))


def does_nothing(state: State, seat: int, action: A.Action) -> bool:
    """Whether ``action`` (legal for ``seat`` now) leaves the position as it is (the
    module's docstring)."""
    if state.stage == MAIN and state.turn_actions > 0:
        if isinstance(action, A.BeginMove):
            return not _can_move(state, seat)
        if isinstance(action, A.BeginGrow):
            return not grow_hexes(state, seat)
        if isinstance(action, A.DrawCards):
            return not (state.deck or state.discard)
        return False
    if state.touched or state.steps_left <= 0:
        return False
    if state.stage == MOVE and isinstance(action, A.EndMove):
        return _can_move(state, seat)
    if state.stage == GROW and isinstance(action, A.EndGrow):
        return bool(grow_hexes(state, seat))
    return False


def useful_actions(state: State, seat: int, legal: list[A.Action]) -> list[A.Action]:
    """``legal`` without the actions that do nothing, or all of ``legal`` when every one
    of them does nothing (then the choice is between fruitless actions, R-ROUND-5)."""
    out = [a for a in legal if not does_nothing(state, seat, a)]
    return out or legal
