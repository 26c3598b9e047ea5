"""The end of a Move or a Growth that no card in the hand could extend.

From rules 5 such a step no longer ends by itself when the hand holds cards (R-INFO-4:
the flow of play says nothing of which cards a hand holds), so the player says "done".
A computer player says it at once: going on could only be a card play that it may as
well make in its turn's main step, as it did when the rules ended the step for it, so
every level plays as it did under rules 4.
"""

from __future__ import annotations

from .. import actions as A
from ..state import GROW, MOVE, State
from ..turn import hand_extends_step


def end_of_spent_step(state: State, seat: int) -> A.Action | None:
    """``EndMove``/``EndGrow`` when ``seat`` is in a Move or Growth that nothing in its
    hand could extend (:func:`engine.turn.hand_extends_step`), else None."""
    if state.turn != seat or state.stage not in (MOVE, GROW):
        return None
    if hand_extends_step(state, seat):
        return None
    return A.EndMove() if state.stage == MOVE else A.EndGrow()
