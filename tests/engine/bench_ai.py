"""CPU cost of the computer players' decisions, for before/after comparisons.

``python -m tests.engine.bench_ai --seats normal,normal,normal,normal --games 4 --seed 1``
plays the games exactly as ``python -m engine.ai tournament ... --jobs 1`` does (one
process, seeded, the line-up rotated) and prints one JSON object: the process's CPU
time per game (everything: views, rules, decisions) and the CPU time of every decision
per level (mean, p50, p95, in milliseconds, unrounded by the tournament's 0.1 ms), plus
the final scores, so that two versions can be checked to have played the same games.

CPU time (``time.process_time``), not wall time: on a loaded machine waiting for a core
is not work. ``--budget 100`` makes ``hard`` stop at its rollout cap, so its games are
deterministic too.
"""

from __future__ import annotations

import argparse
import importlib
import json
import time

from engine.ai.tournament import percentile, play_one


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seats", default="normal,normal,normal,normal")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=float, default=None)
    args = ap.parse_args()
    lineup = tuple(s.strip() for s in args.seats.split(","))
    # the players' modules are imported on their first decision: not a decision's cost
    importlib.import_module("engine.ai.normal")
    importlib.import_module("engine.ai.search")
    per_level: dict[str, list[float]] = {}
    scores = []
    game_cpu = []
    for g in range(args.games):
        c0 = time.process_time()
        r = play_one((g, args.seed, lineup, 20000, args.budget, None, True))
        game_cpu.append(time.process_time() - c0)
        scores.append(r.scores)
        for slot, ts in r.cpu_times.items():
            per_level.setdefault(lineup[slot], []).extend(ts)

    def ms(x: float) -> float:
        return round(1000 * x, 3)

    print(json.dumps({
        "seats": list(lineup), "games": args.games, "seed": args.seed,
        "budget_s": args.budget,
        "cpu_per_game_s": round(sum(game_cpu) / len(game_cpu), 3),
        "cpu_per_game_each_s": [round(x, 3) for x in game_cpu],
        "decision_cpu_ms": {lv: {"decisions": len(ts), "mean": ms(sum(ts) / len(ts)),
                                 "p50": ms(percentile(ts, 0.5)),
                                 "p95": ms(percentile(ts, 0.95))}
                            for lv, ts in per_level.items()},
        "scores": scores,
    }))


if __name__ == "__main__":
    main()
