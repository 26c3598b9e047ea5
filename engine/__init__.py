"""Tempus rules engine: pure, synchronous, deterministic (no I/O, no Discord, no Pillow).

Typical use::

    from engine import new_game, decisions, legal_actions, apply, view
    state, events = new_game(4, seed=7, random_map=True)
    d = decisions(state)[0]
    state, events = apply(state, d.seat, legal_actions(state, d.seat)[0])
"""

from .actions import ACTION_TYPES, Action, action_from_json
from .errors import IllegalAction, NotYourDecision
from .events import Event, visible
from .game import Decision, apply, apply_in_place, decision_for, decisions, to_act
from .legal import legal_actions
from .rules import RULES_VERSION, TABLE_OPTIONS, stored_rules
from .setup import new_game
from .state import State
from .views import view

__all__ = [
    "ACTION_TYPES",
    "Action",
    "Decision",
    "Event",
    "IllegalAction",
    "NotYourDecision",
    "RULES_VERSION",
    "State",
    "TABLE_OPTIONS",
    "action_from_json",
    "apply",
    "apply_in_place",
    "decision_for",
    "decisions",
    "legal_actions",
    "new_game",
    "stored_rules",
    "to_act",
    "view",
    "visible",
]
