"""How long /tempus hint takes: ``python -m tests.bot.bench_hint --positions 12``.

Runs the hint's search (default budget) for positions of computer-played games in a
worker process, as the bot does, and prints the seconds from asking to the reply text
as JSON (p50, p95, max), and how many of the hints searched (rollouts; the rest the
planner answered alone). The positions are turns spread over a whole game: the search
plays only late in it (``engine.ai.search.SEARCH_FROM_ERA_BY_KIND``), so the first turns
alone would time the planner only. Numbers, not a test: the machine is shared and noisy.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time
from typing import Any

from bot.runtime.worker_pool import Offloader
from engine.ai import choose_action
from engine.game import apply_in_place, decisions
from engine.setup import new_game
from engine.views import view
from games.tempus.hint import BUDGET_S, hint_text, think


def positions(n: int, seed: int) -> list[dict[str, Any]]:
    """Views of the deciding seat at ``n`` turns spread evenly over a game of ``normal``
    players, from its first turn to its last."""
    state, _ = new_game(4, seed, random_map=True)
    rng = random.Random(seed)
    turns: list[dict[str, Any]] = []
    step = 0
    while decisions(state):
        d = rng.choice(decisions(state))
        v = view(state, d.seat)
        if d.kind == "turn":
            turns.append(v)
        apply_in_place(state, d.seat, choose_action(v, "normal", step))
        step += 1
    if n >= len(turns):
        return turns
    return [turns[round(i * (len(turns) - 1) / max(1, n - 1))] for i in range(n)]


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asked = positions(args.positions, args.seed)
    pool = Offloader(1)
    await pool.run(think, asked[0], 0, 0.1)  # start the worker
    times = []
    searched = 0
    for i, v in enumerate(asked):
        t0 = time.perf_counter()
        result = await pool.run(think, v, i, BUDGET_S)
        hint_text(v, result)
        times.append(time.perf_counter() - t0)
        searched += result["rollouts"] > 0
    pool.close()
    times.sort()
    print(json.dumps({"positions": len(times), "searched": searched, "budget_s": BUDGET_S,
                      "p50_s": round(statistics.median(times), 3),
                      "p95_s": round(times[round(0.95 * (len(times) - 1))], 3),
                      "max_s": round(times[-1], 3)}))


if __name__ == "__main__":
    asyncio.run(main())
