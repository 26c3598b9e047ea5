"""What a stored Tempus game means outside play (games.port.Records): its log replayed as
the bot loads it, its record (engine/record.py, record-format.md), and a finished game's
result as the history stores it: ranks by R-END-3, victory points and each seat's opening.

The replays raise the engine's own exceptions inside :class:`games.port.BadLog`: the
storage tools quote them in their reports as they always have, in the engine's English.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any, cast

from engine import actions as A
from engine.actions import action_from_json
from engine.game import apply_in_place
from engine.record import Record
from engine.score_breakdown import breakdown
from engine.state import ACTIONS, State
from engine.undo import Timeline, is_undo
from engine.views import view
from games.port import BadLog, Placing, Seat, Summary


class Opening(StrEnum):
    """A first-era action kind; a seat's opening is its kinds in order, stored joined by
    ``-`` (``move-grow-city``), each shown as the message ``opening.<kind>``."""

    MOVE = "move"
    GROW = "grow"
    ATTACK = "attack"
    DRAW = "draw"
    CITY = "city"


#: The first-era action kinds that make up an opening.
OPENING_KINDS: dict[type[A.Action], Opening] = {
    A.BeginMove: Opening.MOVE,
    A.BeginGrow: Opening.GROW,
    A.Attack: Opening.ATTACK,
    A.DrawCards: Opening.DRAW,
    A.BuildCity: Opening.CITY,
}


def opening_kind(state: State, action: A.Action) -> Opening | None:
    """The opening kind ``action`` adds in ``state`` (before it applies), if any: an action
    of the first era's turns, not a leader's attack (it comes with a Move, already
    counted)."""
    if state.phase != ACTIONS or state.era_number != 1:
        return None
    kind = OPENING_KINDS.get(type(action))
    if kind is None or (isinstance(action, A.Attack) and action.leader):
        return None
    return kind


def _players(seats: Sequence[Seat]) -> list[dict[str, Any]]:
    """The record's players (record-format.md): a person by name, a computer by level."""
    return [{"name": s.name, "kind": "human" if s.user_id is not None else f"ai:{s.ai_level}"}
            for s in seats]


class TempusRecords:
    """games.port.Records for Tempus."""

    def replay(self, options: Mapping[str, Any], players: int,
               log: Sequence[tuple[int, Mapping[str, Any]]]) -> State:
        try:
            state, _ = Record.from_stored(options, players).new_state()
        except Exception as exc:  # whatever the options lack, the report says
            raise BadLog(None, exc) from exc
        timeline = Timeline()
        for i, (seat, data) in enumerate(log):
            entry = cast(dict[str, Any], data)  # as stored: not checked until parsed
            try:
                if is_undo(entry):
                    state = timeline.undo(seat)
                    continue
                action = action_from_json(entry)
                before = state.copy()
                events = apply_in_place(state, seat, action)
                timeline.record(before, seat, action, events, state)
            except Exception as exc:  # the engine's refusal, or a damaged entry
                raise BadLog(i, exc) from exc
        return state

    def record(self, options: Mapping[str, Any], seats: Sequence[Seat],
               log: Sequence[tuple[int, Mapping[str, Any]]], salt: str | None) -> Record:
        moves: list[tuple[int, A.Action]] = []
        for seat, data in log:  # an undo entry takes back the last effective move
            entry = cast(dict[str, Any], data)
            if is_undo(entry):
                moves.pop()
            else:
                moves.append((seat, action_from_json(entry)))
        return Record.from_stored(options, len(seats), players=_players(seats), moves=moves,
                                  salt=salt)

    def summary(self, record: Record) -> Summary:
        """The final public view, the ranks and scores of its breakdown
        (engine/score_breakdown.py) and each seat's opening: the kinds of action it took in
        era 1, in order."""
        state, _ = record.new_state()
        openings: list[list[Opening]] = [[] for _ in range(record.num_players)]
        for i, (seat, action) in enumerate(record.moves):
            kind = opening_kind(state, action)
            if kind is not None:
                openings[seat].append(kind)
            try:
                apply_in_place(state, seat, action)
            except ValueError as exc:
                raise BadLog(i, exc) from None
        v = view(state, None)
        b = breakdown(v)
        return Summary(v, tuple(
            Placing(b.ranks[s], b.scores[s].total, s in b.winners, "-".join(openings[s]))
            for s in range(record.num_players)))
