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

Its numbers (the evaluation's weights, the bonus for such cards and the era it starts)
are data: ``data/ai/planner.json``, found by self-play against three ``normal`` players
(:mod:`.tune`, which starts from the hand-set :data:`BASE_SETTINGS`). Without the file
the planner plays with the hand-set numbers.
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

from ..content import CONTENT
from ..state import State
from .evaluate import DEFAULT_WEIGHTS, Evaluator, Weights
from .normal import DEFAULT_TACTICS, NormalPlayer, Tactics
from .tactics import CARDS


def _with(schedule: tuple[float, ...], **at: float) -> tuple[float, ...]:
    out = list(schedule)
    for era, value in at.items():
        out[int(era.removeprefix("era")) - 1] = value
    return tuple(out)


@dataclasses.dataclass(frozen=True, slots=True)
class PlannerSettings:
    """Everything the planner plays by that ``normal`` does not have."""

    weights: Weights = dataclasses.replace(
        DEFAULT_WEIGHTS,
        rival=0.7,
        hex=_with(DEFAULT_WEIGHTS.hex, era9=0.7, era10=1.0),
        token=_with(DEFAULT_WEIGHTS.token, era10=0.1),
    )
    #: extra worth of a card per progress point it would score in the last progress phase
    flight_card_bonus: float = 1.0
    #: from this era on, a card that scores in the last progress phase is kept
    keep_for_flight_from: int = 6
    #: the numbers of ``normal``'s choices besides the evaluation
    tactics: Tactics = DEFAULT_TACTICS


#: the hand-set numbers the tuning starts from
BASE_SETTINGS = PlannerSettings()
SETTINGS_FILE = Path(__file__).resolve().parents[2] / "data" / "ai" / "planner.json"


def settings_from(data: dict[str, Any]) -> PlannerSettings:
    """Settings from their JSON form (``dataclasses.asdict`` of :class:`PlannerSettings`);
    a field left out keeps its hand-set value, an unknown one is refused."""
    weights = dict(data.get("weights", {}))
    for k, v in weights.items():
        if isinstance(v, list):
            weights[k] = tuple(float(x) for x in v)
    tactics = dict(data.get("tactics", {}))
    for k, v in tactics.items():
        if isinstance(v, list):
            tactics[k] = tuple(float(x) for x in v)
    rest = {k: v for k, v in data.items() if k not in ("weights", "tactics", "about")}
    return dataclasses.replace(
        BASE_SETTINGS, weights=dataclasses.replace(BASE_SETTINGS.weights, **weights),
        tactics=dataclasses.replace(BASE_SETTINGS.tactics, **tactics), **rest)


def load_settings(path: Path = SETTINGS_FILE) -> PlannerSettings:
    if not path.exists():
        return BASE_SETTINGS
    return settings_from(json.loads(path.read_text(encoding="utf-8")))


SETTINGS = load_settings()
PLANNER_WEIGHTS = SETTINGS.weights
KEEP_FOR_FLIGHT_FROM = SETTINGS.keep_for_flight_from
FLIGHT_CARD_BONUS = SETTINGS.flight_card_bonus
FINAL_TERRAIN = CONTENT.eras[-1].terrain


class PlannerPlayer(NormalPlayer):
    """``normal`` that plans for the last progress phase and the final count."""

    def __init__(self, rng: random.Random, settings: PlannerSettings = SETTINGS,
                 samples: int = 32, move_width: int = 8) -> None:
        super().__init__(rng, settings.weights, samples=samples, move_width=move_width,
                         tactics=settings.tactics)
        self.settings = settings

    def card_worth(self, state: State, seat: int, ev: Evaluator, card: int) -> float:
        worth = super().card_worth(state, seat, ev, card)
        if state.era_number >= self.settings.keep_for_flight_from:  # the game ends after era 10
            info = CARDS[card]
            points = (info.terrain == FINAL_TERRAIN) + (info.type == "EDU")
            worth += self.settings.flight_card_bonus * points
        return worth
