"""Undo (Board Game Arena's policy): a player takes back their own steps of the current turn
while nothing hidden was revealed and nobody else acted; the log keeps the undo."""

from __future__ import annotations

import random

import pytest

from engine import actions as A
from engine import apply, legal_actions
from engine.game import to_act
from engine.setup import new_game
from engine.undo import Timeline, UndoRefused, replay, step_undoable, turn_key
from tests.engine.helpers import H, make_state


def _step(tl: Timeline, state, seat, action):  # type: ignore[no-untyped-def]
    new, events = apply(state, seat, action)
    tl.record(state, seat, action, events, new)
    return new


def test_move_steps_are_undone_one_by_one_to_the_exact_state() -> None:
    state = make_state(3, tokens={"C3": (0, 2), "H8": (1, 2), "K10": (2, 2)})
    tl = Timeline()
    s1 = _step(tl, state, 0, A.BeginMove())
    move = next(a for a in legal_actions(s1, 0) if isinstance(a, A.MoveToken))
    s2 = _step(tl, s1, 0, move)
    assert tl.undo_allowed(0) and not tl.undo_allowed(1)
    back = tl.undo(0)
    assert back.to_json() == s1.to_json()
    back = tl.undo(0)
    assert back.to_json() == state.to_json()
    assert not tl.undo_allowed(0)
    with pytest.raises(UndoRefused):
        tl.undo(0)
    assert s2.to_json() != state.to_json()


def test_drawing_cards_cannot_be_undone() -> None:
    """R-DRAW: a drawn card is hidden information revealed to its drawer."""
    state = make_state(3, tokens={"C3": (0, 2), "H8": (1, 2), "K10": (2, 2)})
    tl = Timeline()
    _step(tl, state, 0, A.DrawCards())
    assert not tl.undo_allowed(0)
    assert tl.refusal(0).code == "undo.after_draw"
    assert "drew cards" in tl.reason(0)


def test_another_players_action_ends_the_undo_window() -> None:
    """The turn may have passed on: undo is allowed until the next player acts."""
    state = make_state(3, tokens={"C3": (0, 2), "H8": (1, 2), "K10": (2, 2)})
    tl = Timeline()
    s = _step(tl, state, 0, A.BeginMove())
    move = next(a for a in legal_actions(s, 0) if isinstance(a, A.MoveToken))
    s = _step(tl, s, 0, move)
    assert to_act(s) != [0], "one token moved: the turn passed on"
    assert tl.undo_allowed(0)
    nxt = to_act(s)[0]
    _step(tl, s, nxt, A.BeginMove())
    assert tl.undo_allowed(nxt) and not tl.undo_allowed(0)
    assert "another player" in tl.reason(0)
    # a third player, who took no step: the step on offer is not theirs (no false story)
    third = next(s for s in range(3) if s not in (0, nxt))
    refusal = tl.refusal(third)
    assert refusal.code == "undo.not_yours" and refusal.params == {"colour": nxt}


def test_a_played_card_or_a_leader_attack_is_not_undoable() -> None:
    state = make_state(3, tokens={"C3": (0, 2), "C4": (1, 1), "K10": (2, 2)})
    for a in legal_actions(state, 0):
        if isinstance(a, A.Attack) and a.leader is None:
            new, ev = apply(state, 0, a)
            assert step_undoable(state, 0, a, ev, new)
    assert not step_undoable(state, 0, A.Attack(H("C3"), H("C4"), 5), [], state)
    assert not step_undoable(state, 0, A.PlayTransport(5), [], state)


def test_each_refusal_names_what_ended_the_undo() -> None:
    """The reason follows the seat's latest step: a card play, a leader shown, and later
    another player's action, which is then the truer story."""
    state = make_state(3, tokens={"C3": (0, 2), "C4": (1, 1), "K10": (2, 2)})
    tl = Timeline()
    tl.record(state, 0, A.PlayTransport(5), [], state)
    assert tl.refusal(0).code == "undo.not_undoable"
    tl.record(state, 0, A.Attack(H("C3"), H("C4"), 5), [], state)
    assert tl.refusal(0).code == "undo.after_reveal"
    tl.record(state, 1, A.BeginMove(), [], state)  # the timeline only looks at the step
    assert tl.refusal(0).code == "undo.other_acted"
    assert tl.undo_allowed(1)
    assert Timeline().refusal(2).code == "undo.nothing"


def test_replay_honours_undo_entries_and_returns_the_effective_moves() -> None:
    """A log with undos replays to the same state as the moves without the undone steps."""
    rng = random.Random(3)
    state, _ = new_game(3, seed=5, random_map=True)
    log: list[tuple[int, A.Action | None]] = []
    tl = Timeline()
    cur = state.copy()
    for _ in range(200):
        seat = to_act(cur)[0]
        if tl.undo_allowed(seat) and rng.random() < 0.3:
            cur = tl.undo(seat)
            log.append((seat, None))
            continue
        action = rng.choice(legal_actions(cur, seat))
        cur = _step(tl, cur, seat, action)
        log.append((seat, action))
    assert any(a is None for _, a in log), "the random walk used undo"
    replayed, moves = replay(state.copy(), log)
    assert replayed.to_json() == cur.to_json()
    plain = state.copy()
    replayed2, _ = replay(plain, moves)
    assert replayed2.to_json() == cur.to_json()


def test_turn_key_changes_with_the_turn_not_with_its_steps() -> None:
    state = make_state(3, tokens={"C3": (0, 2), "H8": (1, 2), "K10": (2, 2)})
    s1, _ = apply(state, 0, A.BeginMove())
    assert turn_key(s1) == turn_key(state)
    move = next(a for a in legal_actions(s1, 0) if isinstance(a, A.MoveToken))
    s2, _ = apply(s1, 0, move)
    assert turn_key(s2) != turn_key(state)
