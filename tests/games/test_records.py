"""Every registered game's Records (games.port.Records), through the port alone: a stored
log with steps taken back replays to the position it was played to, the record keeps the
moves that stand, a finished game's summary places every seat, and a log the game refuses
is a BadLog naming the entry."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import pytest

from games import registry
from games.port import BadLog, Game

MAX_STEPS = 5_000


@dataclass(frozen=True)
class _Seat:
    seat: int
    user_id: int | None
    ai_level: str | None
    name: str

    @property
    def is_ai(self) -> bool:
        return self.user_id is None

    @property
    def level(self) -> str | None:
        return self.ai_level


def _json(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _stored_game(game: Game, players: int, seed: int
                 ) -> tuple[dict[str, Any], list[tuple[int, dict[str, Any]]], Any, int]:
    """A random game to its end as the table stores it: its options, its log (some steps
    taken back), its final position and how many moves stand."""
    rules = game.rules
    rng = random.Random(seed)
    started = rules.start(players, {**rules.default_options(), "seed": seed})
    state, options = started.state, started.options
    steps = rules.timeline()
    log: list[tuple[int, dict[str, Any]]] = []
    moves = 0
    for _ in range(MAX_STEPS):
        if rules.is_over(state):
            return options, log, state, moves
        seat = rng.choice(rules.to_act(state))
        action = rng.choice(rules.legal_actions(state, seat))
        after, events = rules.apply(state, seat, action)
        steps.record(state, seat, action, events, after)
        state = after
        log.append((seat, json.loads(_json(action.to_json()))))
        moves += 1
        if steps.undo_allowed(seat) and rng.random() < 0.2:
            state = steps.undo(seat)
            log.append((seat, dict(rules.undo_json)))
            moves -= 1
    pytest.fail(f"no end after {MAX_STEPS} steps")


@pytest.mark.parametrize("name", registry.names())
@pytest.mark.parametrize("seed", [3, 11])
def test_a_stored_game_replays_and_places_every_seat(name: str, seed: int) -> None:
    game = registry.game(name)
    players = game.rules.min_players + seed % (game.rules.max_players
                                               - game.rules.min_players + 1)
    options, log, final, moves = _stored_game(game, players, seed)
    assert any(game.rules.is_undo(entry) for _, entry in log), "some step was taken back"
    replayed = game.records.replay(options, players, log)
    assert _json(replayed.to_json()) == _json(final.to_json())
    seats = [_Seat(s, 100 + s if s else None, None if s else "normal", f"P{s}")
             for s in range(players)]
    record = game.records.record(options, seats, log, None)
    assert len(record.to_json()["actions"]) == moves
    summary = game.records.summary(record)
    assert _json(summary.final_view) == _json(game.rules.view(final, None))
    assert len(summary.seats) == players
    assert min(p.rank for p in summary.seats) == 1
    assert any(p.won for p in summary.seats)
    assert all(p.rank == 1 for p in summary.seats if p.won)


@pytest.mark.parametrize("name", registry.names())
def test_a_log_the_game_refuses_is_a_bad_log_naming_its_entry(name: str) -> None:
    game = registry.game(name)
    players = game.rules.min_players
    options, log, _, _ = _stored_game(game, players, 5)
    last = next(e for e in reversed(log) if not game.rules.is_undo(e[1]))
    with pytest.raises(BadLog) as refused:  # a step after the end
        game.records.replay(options, players, [*log, last])
    assert refused.value.entry == len(log) and refused.value.cause is not None
    with pytest.raises(BadLog) as unset:
        game.records.replay({}, players, [])
    assert unset.value.entry is None
