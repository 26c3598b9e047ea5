"""Taking back a step: Board Game Arena's undo policy, as an engine rule.

A player may take back their own steps of the current turn as long as nothing hidden has
been revealed since (no card drawn or played, no combat card revealed, no tile drawn) and
no other player has acted (the turn may already have passed to the next player, who has
not acted yet; the end of the round's actions is a point of no return). Steps that only
use public, deterministic facts (begin a move, move a token, grow, build a city, declare an
attack without a leader card, place a starting token) can be taken back; anything else is a
point of no return.

The engine's state holds no history, so the rule works on a :class:`Timeline`: the states
before each step that could still be taken back. The append-only action log stores an undo
as an entry of its own (``{"type": "undo"}``); :func:`replay` honours it, so a stored game,
the console and the computer players all see the same rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from . import actions as A
from .errors import Refusal
from .events import Event
from .game import apply_in_place
from .state import ACTIONS, TILES, TOKENS, State

#: the log entry of an undo (not an engine action: it needs the history, not the state)
UNDO_TYPE = "undo"
UNDO_JSON: dict[str, Any] = {"type": UNDO_TYPE}

#: steps that reveal nothing and depend on nothing hidden
UNDOABLE: tuple[type[A.Action], ...] = (
    A.BeginMove, A.MoveToken, A.EndMove, A.BeginGrow, A.GrowToken, A.EndGrow, A.BuildCity,
    A.PlaceStartToken,
)


class UndoRefused(Refusal):
    """Nothing can be taken back; ``code`` says why (:mod:`engine.refusals`), the message
    in a player's English words."""


def is_undo(action_json: dict[str, Any]) -> bool:
    return action_json.get("type") == UNDO_TYPE


def turn_key(state: State) -> tuple[Any, ...]:
    """Which turn (or phase) the game is in: steps with the same key belong together."""
    if state.phase in (ACTIONS, TOKENS):
        return (state.phase, state.era_number, state.action_round, state.turn)
    if state.phase == TILES:
        return (state.phase, len(state.placements))
    return (state.phase, state.era_number)  # the progress phase (all choose at once), the end


def why_not_undoable(before: State, seat: int, action: A.Action, events: Iterable[Event],
                     after: State) -> str | None:
    """Why this step, just applied, could not be taken back (a refusal code of
    :mod:`engine.refusals`), or None if ``seat`` may take it back until another player acts.
    A step that ends the turn can be taken back as long as the next player has not acted;
    one that ends the round's actions (a progress phase begins) cannot."""
    if any(e.private_to is not None for e in events):
        return "undo.after_draw"  # someone learnt something secret (a drawn card)
    if isinstance(action, A.Attack):
        if action.leader is not None:
            return "undo.after_reveal"  # a leader card was shown
    elif not isinstance(action, UNDOABLE):
        return "undo.not_undoable"
    if not (after.phase == before.phase and after.era_number == before.era_number
            and after.phase in (ACTIONS, TOKENS)):
        return "undo.new_phase"
    return None


def step_undoable(before: State, seat: int, action: A.Action, events: Iterable[Event],
                  after: State) -> bool:
    """Whether ``seat`` could take this step back (:func:`why_not_undoable` has no reason)."""
    return why_not_undoable(before, seat, action, events, after) is None


#: the refusal for each reason a seat's latest step could not be taken back
_BLOCKED: dict[str, Callable[[], UndoRefused]] = {
    "undo.other_acted": lambda: UndoRefused.because("undo.other_acted"),
    "undo.after_draw": lambda: UndoRefused.because("undo.after_draw"),
    "undo.after_reveal": lambda: UndoRefused.because("undo.after_reveal"),
    "undo.not_undoable": lambda: UndoRefused.because("undo.not_undoable"),
    "undo.new_phase": lambda: UndoRefused.because("undo.new_phase"),
}


@dataclass
class _Step:
    seat: int
    before: State


@dataclass
class Timeline:
    """The states before the steps that could still be taken back, newest last."""

    steps: list[_Step] = field(default_factory=list)
    #: why a seat's latest step cannot be taken back (a refusal code), for its refusal
    blocked: dict[int, str] = field(default_factory=dict)

    def record(self, before: State, seat: int, action: A.Action, events: list[Event],
               after: State) -> None:
        """Note a step just applied (``before`` must not be mutated afterwards)."""
        if self.steps and self.steps[-1].seat != seat:
            self.blocked[self.steps[-1].seat] = "undo.other_acted"
            self.steps.clear()  # another player acted: nothing before can be undone
        for other in self.blocked:
            if other != seat:
                self.blocked[other] = "undo.other_acted"
        why = why_not_undoable(before, seat, action, events, after)
        if why is None:
            self.steps.append(_Step(seat, before))
            self.blocked.pop(seat, None)
        else:
            self.steps.clear()
            self.blocked[seat] = why

    def undo_allowed(self, seat: int) -> bool:
        return bool(self.steps) and self.steps[-1].seat == seat

    @property
    def seat(self) -> int | None:
        """The seat that may undo now, if any."""
        return self.steps[-1].seat if self.steps else None

    def refusal(self, seat: int) -> UndoRefused:
        """Why ``seat`` may not undo now: what happened after its latest step, or that the
        step on offer is another player's."""
        why = self.blocked.get(seat)
        if why is not None:
            return _BLOCKED[why]()
        if self.steps and self.steps[-1].seat != seat:
            return UndoRefused.because("undo.not_yours", colour=self.steps[-1].seat)
        return UndoRefused.because("undo.nothing")

    def reason(self, seat: int) -> str:
        """Why ``seat`` may not undo now, in English."""
        return str(self.refusal(seat))

    def undo(self, seat: int) -> State:
        """The state before ``seat``'s last step (a copy: the timeline keeps its own)."""
        if not self.undo_allowed(seat):
            raise self.refusal(seat)
        return self.steps.pop().before.copy()


def replay(state: State, entries: Iterable[tuple[int, A.Action | None]],
           timeline: Timeline | None = None) -> tuple[State, list[tuple[int, A.Action]]]:
    """Apply logged ``(seat, action)`` entries to ``state`` (mutated); ``None`` is an undo.

    Returns the final state and the effective moves (undone steps removed): a record of
    those moves replays to the same state.
    """
    timeline = timeline if timeline is not None else Timeline()
    moves: list[tuple[int, A.Action]] = []
    for seat, action in entries:
        if action is None:
            state = timeline.undo(seat)
            moves.pop()
            continue
        before = state.copy() if _may_record(action) else state
        events = apply_in_place(state, seat, action)
        if before is state:
            timeline.steps.clear()
        else:
            timeline.record(before, seat, action, events, state)
        moves.append((seat, action))
    return state, moves


def _may_record(action: A.Action) -> bool:
    return isinstance(action, UNDOABLE) or (isinstance(action, A.Attack)
                                           and action.leader is None)
