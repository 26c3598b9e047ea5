"""Computer players: which levels exist and how a seat's next action is chosen.

The engine's AI (``engine.ai.choose_action(view, level, seed, budget_s)``) sees only the
seat's view. The level ``random`` (always available) picks uniformly among the legal
actions, by action type first; it is also the fallback when the AI fails, so that a
computer seat can never stall a game.
"""

from __future__ import annotations

import logging
import random
from enum import StrEnum
from typing import Any

from engine.actions import Action, action_from_json
from engine.ai import random_choice
from engine.legal import legal_actions
from engine.state import State
from engine.views import view

log = logging.getLogger(__name__)

class Level(StrEnum):
    """A computer player's level, as stored with its seat (``seats.ai_level``) and named in
    the catalogue (``level.<value>``): a ``StrEnum``, so it is its stored text."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"
    RANDOM = "random"


RANDOM = Level.RANDOM


def _engine_ai() -> Any | None:
    try:
        from engine import ai
    except ImportError:
        return None
    return ai if hasattr(ai, "choose_action") else None


def levels() -> tuple[Level, ...]:
    """Levels a host may choose, strongest last; ``random`` is always among them."""
    ai = _engine_ai()
    if ai is None:
        return (RANDOM,)
    found = tuple(Level(lv) for lv in getattr(ai, "LEVELS", None) or Level)
    return (*found, RANDOM) if RANDOM not in found else found


def default_level() -> Level:
    lv = levels()
    return Level.NORMAL if Level.NORMAL in lv else lv[0]


def random_action(state: State, seat: int, seed: int) -> Action:
    """The ``random`` level's pick for ``seat``, by action type first (as the engine AI's)."""
    return random_choice(legal_actions(state, seat), random.Random(seed))


def think(seat_view: dict[str, Any], level: str, seed: int,
          budget_s: float | None) -> dict[str, Any]:
    """Run the engine AI (in a worker); returns the action as JSON (picklable)."""
    ai = _engine_ai()
    if ai is None:
        raise RuntimeError("engine.ai is not available")
    action = ai.choose_action(seat_view, level, seed, budget_s=budget_s)
    return action.to_json()


def seat_view(state: State, seat: int) -> dict[str, Any]:
    return view(state, seat)


def parse(action_json: dict[str, Any]) -> Action:
    return action_from_json(action_json)
