"""Positions from game records, for the command line, the benchmark and the tests.

:func:`last_move_of` turns the engine action that was just played into the
``last_move`` argument of :func:`render.board.render_board`.
"""

from __future__ import annotations

from typing import Any

from engine import actions as A
from engine import view
from engine.record import Record, replay
from engine.state import State

from .overlays import ATTACK


def last_move_of(action: A.Action) -> tuple[int, ...] | None:
    """The ``last_move`` overlay for an action, or None when it has no hex to show."""
    if isinstance(action, A.MoveToken):
        return (action.src, action.dst)
    if isinstance(action, A.Attack):
        return (action.src, action.dst, ATTACK)
    if isinstance(action, A.PlayReligion):
        return (action.target, action.own)
    for name in ("hex", "centre"):
        h = getattr(action, name, None)
        if isinstance(h, int):
            return (h,)
    return None


def position(record: Record, at: int | None = None) -> tuple[State, tuple[int, ...] | None]:
    """The state after the first ``at`` actions (default: all) and the last move's overlay."""
    n = len(record.moves) if at is None else at
    if not 0 <= n <= len(record.moves):
        raise ValueError(f"--at must be between 0 and {len(record.moves)}, not {n}")
    state = replay(record, n)
    last = last_move_of(record.moves[n - 1][1]) if n > 0 else None
    return state, last


def public_view(record: Record, at: int | None = None) -> dict[str, Any]:
    return view(position(record, at)[0], None)
