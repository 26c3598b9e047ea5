"""The policy the ``hard`` player ranks its candidates with and plays its own seat by.

It is ``normal`` with a longer view of the game, tuned in tournaments against ``normal``:

* From the middle of the game it keeps the cards that will count in the last progress
  phase, the one that decides Flight's victory points (R-ERA-4, worth 3 VP; about
  seven winners in ten reach Flight in ``normal``'s self-play): cards whose background
  is the final era's terrain and Education cards (R-PROG-3, R-CARD-EDU).
* In the last two eras it values a position closer to its final score (R-END-2): an
  occupied hex at nearly a full point, a token beyond that at little.
* It weighs the rivals' mean worth more heavily (a win needs more points than the best
  rival, not just many points).

These shifts are small on their own (over 400 games against three ``normal`` players a
win share of 0.31 against ``normal``'s 0.27 on the same deals); the search builds on them.
"""

from __future__ import annotations

import dataclasses
import random

from ..content import CONTENT
from ..state import State
from .evaluate import DEFAULT_WEIGHTS, Evaluator, Weights
from .normal import NormalPlayer
from .tactics import CARDS


def _with(schedule: tuple[float, ...], **at: float) -> tuple[float, ...]:
    out = list(schedule)
    for era, value in at.items():
        out[int(era.removeprefix("era")) - 1] = value
    return tuple(out)


PLANNER_WEIGHTS: Weights = dataclasses.replace(
    DEFAULT_WEIGHTS,
    rival=0.7,
    hex=_with(DEFAULT_WEIGHTS.hex, era9=0.7, era10=1.0),
    token=_with(DEFAULT_WEIGHTS.token, era10=0.1),
)
#: from this era on, a card that scores in the last progress phase is kept
KEEP_FOR_FLIGHT_FROM = 6
#: extra worth of a card per progress point it would score in the last progress phase
FLIGHT_CARD_BONUS = 1.0
FINAL_TERRAIN = CONTENT.eras[-1].terrain


class PlannerPlayer(NormalPlayer):
    """``normal`` that plans for the last progress phase and the final count."""

    def __init__(self, rng: random.Random, weights: Weights = PLANNER_WEIGHTS,
                 samples: int = 32, move_width: int = 8) -> None:
        super().__init__(rng, weights, samples=samples, move_width=move_width)

    def card_worth(self, state: State, seat: int, ev: Evaluator, card: int) -> float:
        worth = super().card_worth(state, seat, ev, card)
        if state.era_number >= KEEP_FOR_FLIGHT_FROM:  # the game ends after era 10
            info = CARDS[card]
            points = (info.terrain == FINAL_TERRAIN) + (info.type == "EDU")
            worth += FLIGHT_CARD_BONUS * points
        return worth
