"""The ladder: seeded mixed tables of every level, rated with openskill (Plackett-Luce).

``python -m engine.ai ladder --players 4 --games 40 --jobs 2`` plays ``games`` games.
Game ``g`` has ``players[g % len(players)]`` seats; its table is drawn from the levels
(``random``, ``easy``, ``normal``, ``hard``) by a generator seeded with
``(seed, g)``: with four seats every level plays once, with three one level sits out
(each in turn), with five one level (each in turn) has two seats. Seats are shuffled
and the start player moves on every game, so no level keeps a lucky seat.

After each game (in game order, whatever the number of jobs) the levels' ratings are
updated from the final ranking (R-END-2/3: shared winners share first place; a level
with two seats at a table is updated with the mean of its two seats' updates). The
output is one JSON object: per level its rating (mu, sigma and the conservative
``mu - 3 sigma``), win share overall and by table size (next to the equal share
1/seats), mean VP margin (own score minus the best other score), and think time p50 /
p95 per decision.

Reproducibility: every level but ``hard`` is deterministic given the seeds. ``hard`` is
too when its search is capped by rollouts and not by time, which is the default here
(its own rollout cap, or ``iterations``, and no time limit): the same command prints the
same ratings, shares and margins on any machine (think times always differ). With
``--budget`` the search stops on the clock, so results depend on the machine's speed
and load.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..game import apply_in_place, decisions
from ..progress import rank_keys
from ..setup import new_game
from ..views import view
from . import choose_action
from .tournament import check_levels, percentile, run_games, wilson

#: the ladder's levels, weakest first
LADDER_LEVELS = ("random", "easy", "normal", "hard")


@dataclass
class LadderGame:
    index: int
    seed: int
    levels: list[str]  # per seat
    places: list[int]  # per seat: 1 = first (shared by tied winners)
    scores: list[int]
    winners: list[int]
    times: dict[str, list[float]] = field(default_factory=dict)
    #: the same decisions' CPU time of the (single-threaded) game process
    cpu_times: dict[str, list[float]] = field(default_factory=dict)


def table(index: int, n: int, seed: int, levels: Sequence[str] = LADDER_LEVELS) -> list[str]:
    """The level of each seat in game ``index`` of a ladder with ``n`` seats a table."""
    rng = random.Random(f"tempus-ladder/{seed}/{index}")
    k = len(levels)
    turn = levels[index % k]
    if n < k:
        pool = [lv for lv in levels if lv != turn]
        chosen = rng.sample(pool, n) if n < len(pool) else pool
    else:
        chosen = list(levels) + [levels[(index + j) % k] for j in range(n - k)]
    chosen = list(chosen)
    rng.shuffle(chosen)
    return chosen


def play_ladder_game(args: tuple[int, int, int, tuple[str, ...], float | None, int | None]
                     ) -> LadderGame:
    index, seed, n, levels, budget_s, iterations = args
    game_seed = seed + index
    lineup = table(index, n, seed, levels)
    state, _ = new_game(n, game_seed, start_player=index % n, random_map=True)
    times: dict[str, list[float]] = {lv: [] for lv in set(lineup)}
    cpu: dict[str, list[float]] = {lv: [] for lv in set(lineup)}
    step = 0
    while True:
        ds = decisions(state)
        if not ds:
            break
        if step > 20000:
            raise RuntimeError(f"ladder game {game_seed} did not finish")
        for d in ds:
            lv = lineup[d.seat]
            v = view(state, d.seat)
            t0, c0 = time.perf_counter(), time.process_time()
            action = choose_action(v, lv, seed=game_seed * 100_003 + step, budget_s=budget_s,
                                   iterations=iterations)
            cpu[lv].append(time.process_time() - c0)
            times[lv].append(time.perf_counter() - t0)
            apply_in_place(state, d.seat, action)
            step += 1
    keys = rank_keys(state)
    places = []
    for s in range(n):
        if s in state.winners:
            places.append(1)
        else:
            places.append(1 + sum(1 for o in range(n) if keys[o] > keys[s] or o in state.winners))
    return LadderGame(index, game_seed, lineup, places, list(state.scores),
                      list(state.winners), times, cpu)


def rate(games: Sequence[LadderGame], levels: Sequence[str]) -> dict[str, dict[str, float]]:
    """openskill Plackett-Luce ratings of the levels after ``games`` (in order)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {lv: model.rating(name=lv) for lv in levels}
    for g in sorted(games, key=lambda x: x.index):
        teams = [[ratings[lv]] for lv in g.levels]
        new = model.rate(teams, ranks=[float(p) for p in g.places])
        sums: dict[str, list[tuple[float, float]]] = {}
        for lv, team in zip(g.levels, new):
            sums.setdefault(lv, []).append((team[0].mu, team[0].sigma))
        for lv, ups in sums.items():
            r = model.rating(name=lv, mu=sum(u[0] for u in ups) / len(ups),
                             sigma=sum(u[1] for u in ups) / len(ups))
            ratings[lv] = r
    return {lv: {"mu": round(r.mu, 2), "sigma": round(r.sigma, 2),
                 "ordinal": round(r.mu - 3 * r.sigma, 2)} for lv, r in ratings.items()}


def ladder(players: Sequence[int], games: int, seed: int, *, jobs: int = 1,
           budget_s: float | None = None, iterations: int | None = None,
           levels: Sequence[str] = LADDER_LEVELS) -> dict[str, Any]:
    """Play the ladder and summarise it (see the module docstring)."""
    check_levels(levels)
    for n in players:
        if not 3 <= n <= 5:
            raise ValueError("tables have 3 to 5 players (R-SETUP-1)")
    # no clock unless asked: hard's rollout cap (its own, or ``iterations``) binds
    hard_budget = budget_s if budget_s is not None else 1e9
    t0 = time.perf_counter()
    work = [(g, seed, players[g % len(players)], tuple(levels), hard_budget, iterations)
            for g in range(games)]
    results = run_games(play_ladder_game, work, jobs)
    ratings = rate(results, levels)
    per: dict[str, dict[str, Any]] = {}
    for lv in levels:
        share = 0.0
        seat_games = 0
        by_n: dict[int, list[float]] = {}
        margins: list[float] = []
        times: list[float] = []
        cpu: list[float] = []
        for g in results:
            n = len(g.levels)
            times.extend(g.times.get(lv, ()))
            cpu.extend(g.cpu_times.get(lv, ()))
            for s, slv in enumerate(g.levels):
                if slv != lv:
                    continue
                won = 1.0 / len(g.winners) if s in g.winners else 0.0
                share += won
                seat_games += 1
                acc = by_n.setdefault(n, [0.0, 0.0])
                acc[0] += won
                acc[1] += 1
                best_other = max(sc for o, sc in enumerate(g.scores) if o != s)
                margins.append(g.scores[s] - best_other)
        lo, hi = wilson(share, seat_games)
        per[lv] = {
            **ratings[lv],
            "seat_games": seat_games,
            "win_share": round(share / seat_games, 4) if seat_games else 0.0,
            "win_share_wilson95": [round(lo, 4), round(hi, 4)],
            "win_share_by_seats": {
                str(n): {"share": round(acc[0] / acc[1], 4), "equal_share": round(1 / n, 4),
                         "seat_games": int(acc[1])}
                for n, acc in sorted(by_n.items())},
            "vp_margin_mean": round(sum(margins) / len(margins), 2) if margins else 0.0,
            "think_p50_s": round(percentile(times, 0.5), 4),
            "think_p95_s": round(percentile(times, 0.95), 4),
            # CPU time of the game's process: what a decision costs, whatever the load
            "think_cpu_p50_s": round(percentile(cpu, 0.5), 4),
            "think_cpu_p95_s": round(percentile(cpu, 0.95), 4),
            "decisions": len(times),
        }
    return {
        "games": games,
        "players": list(players),
        "seed": seed,
        "levels": list(levels),
        "hard_iterations": iterations,
        "hard_budget_s": budget_s,
        "reproducible": budget_s is None,
        "ranking": sorted(levels, key=lambda lv: -ratings[lv]["ordinal"]),
        "per_level": per,
        "elapsed_s": round(time.perf_counter() - t0, 1),
    }
