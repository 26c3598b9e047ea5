"""Positions to draw: from game records (command line) or from a computer-played game
(the benchmark and the sample images in ``docs/``).

:func:`last_move_of` turns the engine action that was just played into the
``last_move`` argument of :func:`render.board.render_board`.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine import actions as A
from engine import view
from engine.game import apply, apply_in_place, decisions
from engine.legal import legal_actions
from engine.record import Record, replay
from engine.simulate import random_action
from engine.state import ACTIONS, MAIN, State

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


def _latest_overlay_action(record: Record) -> A.Action | None:
    for _, action in reversed(record.moves):
        if last_move_of(action) is not None:
            return action
    return None


def recent_move(record: Record) -> tuple[int, ...] | None:
    """The overlay of the latest action in ``record`` that has one (a turn ends with
    actions such as ``end_move``/``end_turn`` that have no hex)."""
    action = _latest_overlay_action(record)
    return None if action is None else last_move_of(action)


def position(record: Record, at: int | None = None) -> tuple[State, tuple[int, ...] | None]:
    """The state after the first ``at`` actions (default: all) and the last move's overlay."""
    n = len(record.moves) if at is None else at
    if not 0 <= n <= len(record.moves):
        raise ValueError(f"--at must be between 0 and {len(record.moves)}, not {n}")
    state = replay(record, n)
    last = last_move_of(record.moves[n - 1][1]) if n > 0 else None
    return state, last


def move_targets(state: State) -> tuple[int, ...]:
    """Hexes the player to act could move a token to now (a realistic highlight)."""
    if state.phase != ACTIONS or state.stage != MAIN:
        return ()
    seat = state.turn
    begin = [a for a in legal_actions(state, seat) if isinstance(a, A.BeginMove)]
    if not begin:
        return ()
    moved, _ = apply(state, seat, begin[0])
    return tuple(sorted({a.dst for a in legal_actions(moved, seat)
                         if isinstance(a, A.MoveToken)}))


def midgame(players: int = 5, seed: int = 11, era: int = 6) -> tuple[State, Record]:
    """A game played by the engine's ``normal`` computer players up to action round 2 of
    era ``era``, stopping at the start of a turn just after another player moved a
    token (so there is a move arrow to draw and move targets to highlight). Random legal
    play is used instead if the computer players are not available."""
    choose_action: Callable[..., A.Action] | None
    try:
        from engine.ai import choose_action
    except ImportError:  # pragma: no cover - the AI package is optional here
        choose_action = None
    from engine import new_game

    state, _ = new_game(players, seed, random_map=True)
    record = Record(num_players=players, seed=seed, random_map=True,
                    start_player=state.start_player)
    rng = random.Random(seed)
    for i in range(20000):
        ds = decisions(state)
        if not ds:
            break
        if (state.era_number >= era and state.phase == ACTIONS and state.action_round >= 2
                and state.stage == MAIN and not state.acted
                and isinstance(_latest_overlay_action(record), A.MoveToken)
                and move_targets(state)):
            break
        seat = ds[0].seat
        if choose_action is not None:
            action = choose_action(view(state, seat), "normal", seed * 100003 + i)
        else:
            action = random_action(state, seat, rng)
        apply_in_place(state, seat, action)
        record.moves.append((seat, action))
    return state, record
