"""Decisions with one possible answer: not asked, but answered at once for the person who
owes them (:meth:`bot.table.computers.Computers.answer_forced`) and said in the log.

Which decisions those are is the game's to say (``Rules.forced``: as far as the public
view can tell, so the speed of an answer tells nothing of a hidden hand); the table adds
who is asked at all: a person's seat in a running game, and whether they are offered Undo
(a step that may still be taken back is an answer too).
"""

from __future__ import annotations

from typing import Any

from bot.store import ACTIVE
from bot.table.model import Table, undo_seat


def forced_action(table: Table, seat: int) -> Any | None:
    """The one answer ``seat``'s person has to the decision they owe now, if there is only
    one as far as the public view can tell, else None (computers answer for themselves)."""
    state = table.state
    if state is None or table.game.status != ACTIVE or table.seats[seat].is_ai:
        return None
    return table.port.rules.forced(state, seat, may_undo=undo_seat(table) == seat)


def forced_step(table: Table) -> tuple[int, Any] | None:
    """A seat whose decision is forced now and its answer (the lowest seat first)."""
    if table.state is None:
        return None
    for seat in sorted(set(table.port.rules.to_act(table.state))):
        action = forced_action(table, seat)
        if action is not None:
            return seat, action
    return None
