"""How long /tempus hint takes: ``python -m tests.bot.bench_hint --positions 12``.

Runs the hint's search (default budget) for positions of computer-played games in a
worker process, as the bot does, and prints the seconds from asking to the reply text
as JSON (p50, p95, max). Numbers, not a test: the machine is shared and noisy.
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
from bot.tempus.hint import BUDGET_S, hint_text, think
from engine.ai import choose_action
from engine.game import apply_in_place, decisions
from engine.setup import new_game
from engine.views import view


def positions(n: int, seed: int) -> list[dict[str, Any]]:
    """Views of the deciding seat along a game of ``normal`` players."""
    state, _ = new_game(4, seed, random_map=True)
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    step = 0
    while decisions(state) and len(out) < n:
        d = rng.choice(decisions(state))
        v = view(state, d.seat)
        if d.kind == "turn" and step % 7 == 0:
            out.append(v)
        apply_in_place(state, d.seat, choose_action(v, "normal", step))
        step += 1
    return out


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    pool = Offloader(1)
    await pool.run(think, positions(1, args.seed)[0], 0, 0.1)  # start the worker
    times = []
    for i, v in enumerate(positions(args.positions, args.seed)):
        t0 = time.perf_counter()
        result = await pool.run(think, v, i, BUDGET_S)
        hint_text(v, result)
        times.append(time.perf_counter() - t0)
    pool.close()
    times.sort()
    print(json.dumps({"positions": len(times), "budget_s": BUDGET_S,
                      "p50_s": round(statistics.median(times), 3),
                      "p95_s": round(times[round(0.95 * (len(times) - 1))], 3),
                      "max_s": round(times[-1], 3)}))


if __name__ == "__main__":
    asyncio.run(main())
