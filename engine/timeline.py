"""A finished (or running) game as a sequence of public positions, from its record.

The record is replayed by the engine; at every boundary of the game's flow (the map
done, the starting tokens placed, the end of each action round, the end of each era,
the end of the game) the **spectator view** is taken. The score chart, the replay
animation and "the board at the end of era 5" are all built from these views, so none
of them can show a hidden card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import IllegalAction
from .game import apply_in_place
from .record import Record, ReplayError
from .state import ACTIONS, OVER, PROGRESS, TILES, TOKENS, State
from .views import view

# What a snapshot marks the end of.
START = "start"  # the position before the first action
MAP = "map"  # the last map tile was placed
SETUP = "setup"  # the last starting token was placed: era 1 begins
ROUND = "round"  # an action round ended (the next one, or the progress phase, begins)
ERA = "era"  # an era ended (progress resolved, the next era begins)
END = "end"  # the game ended (the last era's progress resolved)


@dataclass(frozen=True, slots=True)
class Snapshot:
    #: actions of the record applied so far
    index: int
    #: what just ended (START, MAP, SETUP, ROUND, ERA, END)
    ended: str
    #: the era (1 = first) and action round in which the boundary happened
    era_number: int
    action_round: int
    #: the spectator view right after the boundary
    view: dict[str, Any]


def _key(state: State) -> tuple[str, int, int]:
    return (state.phase, state.era_number, state.action_round)


def _ended(before: tuple[str, int, int], after: State) -> str:
    phase = before[0]
    if after.phase == OVER:
        return END
    if phase == TILES:
        return MAP
    if phase == TOKENS:
        return SETUP
    if phase == PROGRESS or after.era_number != before[1]:
        return ERA
    assert phase == ACTIONS
    return ROUND


def snapshots(record: Record) -> list[Snapshot]:
    """The public position at the start and at every boundary of ``record``'s game."""
    state, _ = record.new_state()
    out = [Snapshot(0, START, state.era_number, state.action_round, view(state, None))]
    for i, (seat, action) in enumerate(record.moves):
        before = _key(state)
        try:
            apply_in_place(state, seat, action)
        except IllegalAction as exc:
            raise ReplayError(i, str(exc)) from None
        if _key(state) != before:
            out.append(Snapshot(i + 1, _ended(before, state), before[1], before[2],
                                view(state, None)))
    return out


def era_ends(shots: list[Snapshot]) -> list[Snapshot]:
    """The start of era 1 (after setup) and the end of every era played, in order."""
    out = [s for s in shots if s.ended == SETUP][:1]
    out += [s for s in shots if s.ended in (ERA, END)]
    return out


def era_end(shots: list[Snapshot], era_number: int) -> Snapshot | None:
    """The position at the end of era ``era_number`` (1 = first), or None if the game
    has not got that far."""
    for s in shots:
        if s.ended in (ERA, END) and s.era_number == era_number:
            return s
    return None


def eras_played(shots: list[Snapshot]) -> int:
    """How many eras have ended in these snapshots."""
    return sum(1 for s in shots if s.ended in (ERA, END))
