"""Random legal play: whole games for benchmarks and property tests."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path

from .actions import Action
from .ai import random_choice
from .game import apply_in_place, decisions
from .legal import legal_actions
from .record import Record
from .setup import new_game
from .state import State

Chooser = Callable[[State, int, random.Random], Action]


def random_action(state: State, seat: int, rng: random.Random) -> Action:
    """A random legal action: by action type first, then uniform within the type
    (:func:`engine.ai.random_choice`, the engine's one implementation), so that rare but
    numerous kinds (say, 60 Sanitation targets) do not swamp the common ones."""
    return random_choice(legal_actions(state, seat), rng)


def play_game(
    num_players: int,
    seed: int,
    *,
    random_map: bool = True,
    chooser: Chooser = random_action,
    max_actions: int = 20000,
) -> tuple[State, Record]:
    """Play one game to the end; returns the final state and its record."""
    state, _ = new_game(num_players, seed, random_map=random_map)
    record = Record(num_players=num_players, seed=seed, random_map=random_map,
                    start_player=state.start_player)
    rng = random.Random(seed)
    for _ in range(max_actions):
        ds = decisions(state)
        if not ds:
            return state, record
        seat = rng.choice(ds).seat
        action = chooser(state, seat, rng)
        apply_in_place(state, seat, action)
        record.moves.append((seat, action))
    raise RuntimeError(f"game {seed} did not end within {max_actions} actions")


def simulate(
    num_players: int, games: int, seed: int, record_dir: str | None = None
) -> dict[str, float | int]:
    actions = 0
    t0 = time.perf_counter()
    for g in range(games):
        state, record = play_game(num_players, seed + g)
        actions += len(record.moves)
        if record_dir:
            Path(record_dir).mkdir(parents=True, exist_ok=True)
            record.dump(Path(record_dir) / f"game-{seed + g}.json")
    seconds = time.perf_counter() - t0
    return {
        "games": games,
        "players": num_players,
        "actions": actions,
        "seconds": round(seconds, 4),
        "actions_per_second": round(actions / seconds, 1) if seconds else 0.0,
        "games_per_second": round(games / seconds, 2) if seconds else 0.0,
    }
