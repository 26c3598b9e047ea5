"""Whole computer-player games reduced to a fingerprint, to prove that a change to the
players' speed changes none of their decisions.

``python -m tests.engine.decision_trace`` prints the fingerprints of :data:`GAMES` as
JSON (the fixture ``tests/engine/data/ai-decisions.json`` was written by it *before* the
players were made faster); ``test_ai_decisions_unchanged.py`` replays them.

A game is played exactly as :func:`engine.ai.tournament.play_one` plays it (each seat
gets its view, decides through :func:`engine.ai.choose_action`, the action is applied
in place). Besides the published levels a seat may be ``planner`` (the policy ``hard``
ranks by and plays its own seat with, deciding alone) so that its settings are covered
outside the search too. Every ``hint_every``-th decision a hint (search, reasons, plan)
is computed for the seat to act and folded into the fingerprint.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from dataclasses import dataclass
from typing import Any

from engine.ai import choose_action, hint
from engine.ai import search as ai_search
from engine.ai.planner import PlannerPlayer
from engine.ai.sampling import determinise
from engine.ai.spent_steps import end_of_spent_step
from engine.game import apply_in_place, decisions
from engine.legal import legal_actions
from engine.rules import RULES_VERSION
from engine.setup import new_game
from engine.views import view


@dataclass(frozen=True)
class TracedGame:
    name: str
    seats: tuple[str, ...]
    seed: int
    random_map: bool = True
    #: ``hard``'s rollout cap (its CPU budget is set far above it, so the cap binds)
    iterations: int = 12
    hint_every: int = 0


#: the games the fixture fingerprints: 3, 4 and 5 seats, random and placed maps, the
#: planner deciding alone, ``hard`` (whose rollouts are ``normal`` and planner
#: decisions on a player kept across a rollout) and ``easy``, and hints
GAMES = (
    TracedGame("normal4-a", ("normal",) * 4, 1),
    TracedGame("normal4-b", ("normal",) * 4, 2),
    TracedGame("normal4-c", ("normal",) * 4, 3),
    TracedGame("normal4-d", ("normal",) * 4, 11),
    TracedGame("normal3", ("normal",) * 3, 4),
    TracedGame("normal3-b", ("normal",) * 3, 12),
    TracedGame("normal5", ("normal",) * 5, 5),
    TracedGame("normal5-b", ("normal",) * 5, 13),
    TracedGame("normal4-placed-map", ("normal",) * 4, 6, random_map=False),
    TracedGame("planner-normal3", ("planner", "normal", "normal", "normal"), 7),
    TracedGame("hard-normal3", ("hard", "normal", "normal", "normal"), 8),
    TracedGame("hard-planner-easy-normal", ("normal", "hard", "easy", "planner"), 9),
    TracedGame("normal3-hints", ("normal",) * 3, 10, hint_every=97),
)

#: a CPU budget no decision reaches, so that ``hard`` stops at its rollout cap
NO_BUDGET_S = 1000.0


def decide(v: dict[str, Any], level: str, seed: int, iterations: int) -> Any:
    if level == "planner":
        # as choose_action does for ``normal``, with the planner deciding
        rng = random.Random(f"tempus-ai/{level}/{seed}")
        state = determinise(v, rng)
        seat = int(v["seat"])
        legal = legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]
        return PlannerPlayer(rng).act(state, seat)
    return choose_action(v, level, seed, budget_s=NO_BUDGET_S, iterations=iterations)


def trace(game: TracedGame, *, rules_version: int = RULES_VERSION,
          skip_spent: bool = False) -> dict[str, Any]:
    """The fingerprint of one whole game: the SHA-256 of every decision (and hint) in
    order, how many decisions there were and the final scores. ``skip_spent``: the end of
    a Move or Growth that no card of the hand could extend (which rules 5 asks for and
    rules 4 made by itself) is made but neither counted nor fingerprinted."""
    n = len(game.seats)
    state, _ = new_game(n, game.seed, random_map=game.random_map, rules_version=rules_version)
    digest = hashlib.sha256()
    step = 0
    hints = 0
    searched = 0
    while True:
        ds = decisions(state)
        if not ds:
            break
        for d in ds:
            spent = end_of_spent_step(state, d.seat) if skip_spent else None
            if spent is not None:
                apply_in_place(state, d.seat, spent)
                break  # the decisions owed now may have changed
            v = view(state, d.seat)
            seed = game.seed * 100_003 + step
            if game.hint_every and step % game.hint_every == 0:
                h = hint(v, seed, NO_BUDGET_S, iterations=game.iterations)
                digest.update(json.dumps(h.to_json(), sort_keys=True).encode())
                hints += 1
            ai_search.LAST_STATS.clear()
            action = decide(v, game.seats[d.seat], seed, game.iterations)
            digest.update(json.dumps([d.seat, action.to_json()], sort_keys=True).encode())
            if ai_search.LAST_STATS:
                # the search's candidates, rollouts and paired advantages: the rollouts'
                # own decisions show through them even where the choice stays the same
                digest.update(json.dumps(ai_search.LAST_STATS, sort_keys=True).encode())
                searched += 1
            apply_in_place(state, d.seat, action)
            step += 1
    return {"decisions": step, "hints": hints, "searched": searched,
            "scores": list(state.scores),
            "sha256": digest.hexdigest()}


def main() -> None:
    out = {}
    for g in GAMES:
        out[g.name] = trace(g)
        print(g.name, out[g.name], file=sys.stderr, flush=True)
    print("{\n" + ",\n".join(f" {json.dumps(k)}: {json.dumps(v, sort_keys=True)}"
                          for k, v in sorted(out.items())) + "\n}")


if __name__ == "__main__":
    main()
