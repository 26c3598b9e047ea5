"""Computer-only games for benchmarking the levels against each other.

Each game gives every seat only its view (exactly as the bot does) and applies the
chosen action through the engine, so an illegal choice raises at once. A line-up names
levels (:data:`engine.ai.ALL_LEVELS`) or bench seats (:data:`BENCH_SEATS`: the scripted
``newcomer`` of :mod:`.newcomer`, which no host can add to a table). Over the games
the line-up is rotated round the table and the start player moves on, so that no level
profits from sitting in a lucky seat. Shared wins are split (R-END-3).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any, TypeVar

from .. import actions as A
from ..game import apply_in_place, decisions
from ..setup import new_game
from ..state import State
from ..views import view
from . import ALL_LEVELS, choose_action
from .newcomer import HINT_BUDGET_S, Newcomer
from .newcomer import NAME as NEWCOMER
from .spent_steps import end_of_spent_step

#: seats a line-up may name besides the levels: clients for benches, not for tables
BENCH_SEATS = (NEWCOMER,)

W = TypeVar("W")
R = TypeVar("R")


@dataclass
class GameResult:
    seed: int
    #: slot (index in the line-up) of each seat
    slots: list[int]
    winners: list[int]  # seats
    scores: list[int]
    #: per slot: think times of every decision in seconds, wall clock
    times: dict[int, list[float]] = field(default_factory=dict)
    #: per slot: the same decisions' CPU time of this (single-threaded) game process,
    #: which other work on a loaded machine does not inflate
    cpu_times: dict[int, list[float]] = field(default_factory=dict)
    actions: int = 0


def game_setup(index: int, num_players: int) -> tuple[list[int], int]:
    """Slot of each seat and the start player for game ``index``.

    The line-up turns one seat per game; after a full turn the start player moves on,
    so over ``num_players ** 2`` games every slot sits in every seat and starts from
    every position relative to the start player.
    """
    shift = index % num_players
    slots = [(s + shift) % num_players for s in range(num_players)]
    start = (index // num_players) % num_players
    return slots, start


#: called before each action is applied: (state, seat, decision kind, action)
Watcher = Callable[[State, int, str, A.Action], None]


def play_one(args: tuple[int, int, Sequence[str], int, float | None, int | None, bool]
             ) -> GameResult:
    return play_game(*args)[0]


def play_game(index: int, seed: int, lineup: Sequence[str], max_actions: int,
              budget_s: float | None, iterations: int | None, random_map: bool,
              watch: Watcher | None = None) -> tuple[GameResult, State]:
    """Game ``index`` of ``lineup`` from ``seed``: its result and its final state;
    ``watch`` (for :mod:`.anatomy`) sees every action before it is applied."""
    n = len(lineup)
    slots, start = game_setup(index, n)
    game_seed = seed + index
    state, _ = new_game(n, game_seed, start_player=start, random_map=random_map)
    result = GameResult(game_seed, slots, [], [], {s: [] for s in range(n)},
                        {s: [] for s in range(n)})
    step = 0  # the computers' own decisions, by which their seeds go
    # a newcomer counts its own seat's decisions, so each game gets fresh ones
    newcomers = {slot: Newcomer(HINT_BUDGET_S if budget_s is None else budget_s, iterations)
                 for slot, lv in enumerate(lineup) if lv == NEWCOMER}
    applied = 0
    while True:
        ds = decisions(state)
        if not ds:
            break
        if applied >= max_actions:
            raise RuntimeError(f"game {game_seed} did not finish in {max_actions} actions")
        for d in ds:
            level = lineup[slots[d.seat]]
            # the end of a spent step that no card of the hand could extend: what every
            # level but random says at once, and what rules 1-4 said for it. It takes no
            # seed, so that a deal plays the same games under every rules version (R-INFO-4)
            spent = end_of_spent_step(state, d.seat) if level != "random" else None
            if spent is not None:
                action = spent
            else:
                v = view(state, d.seat)
                t0, c0 = time.perf_counter(), time.process_time()
                own_seed = game_seed * 100_003 + step
                if level == NEWCOMER:
                    action = newcomers[slots[d.seat]].act(v, own_seed)
                else:
                    action = choose_action(v, level, seed=own_seed, budget_s=budget_s,
                                           iterations=iterations)
                result.cpu_times[slots[d.seat]].append(time.process_time() - c0)
                result.times[slots[d.seat]].append(time.perf_counter() - t0)
                step += 1
            if watch is not None:
                watch(state, d.seat, d.kind, action)
            apply_in_place(state, d.seat, action)
            applied += 1
            if spent is not None:
                break  # the decisions owed now may have changed
    result.winners = list(state.winners)
    result.scores = list(state.scores)
    result.actions = applied
    return result, state


def percentile(xs: Sequence[float], q: float) -> float:
    if not xs:
        return 0.0
    ys = sorted(xs)
    k = max(0, min(len(ys) - 1, math.ceil(q * len(ys)) - 1))
    return ys[k]


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval (95 % for z = 1.96) of a share; a shared win counts as a
    fraction of a success."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def _time_stats(xs: Sequence[float]) -> dict[str, float | int]:
    return {
        "decisions": len(xs),
        "mean_s": round(sum(xs) / len(xs), 4) if xs else 0.0,
        "p50_s": round(percentile(xs, 0.5), 4),
        "p95_s": round(percentile(xs, 0.95), 4),
        "max_s": round(max(xs), 4) if xs else 0.0,
    }


def check_levels(lineup: Sequence[str]) -> None:
    """ValueError naming the first unknown level (or bench seat) of ``lineup``."""
    known = (*ALL_LEVELS, *BENCH_SEATS)
    for lv in lineup:
        if lv not in known:
            raise ValueError(f"unknown level {lv!r}; choose from {', '.join(known)}")


def run_games(worker: Callable[[W], R], work: Sequence[W], jobs: int,
              on_each: Callable[[R], None] | None = None) -> list[R]:
    """``worker`` over ``work`` in order, in ``jobs`` processes (one game each, so a game's
    CPU time is its own); ``on_each`` sees each result as it comes."""
    out: list[R] = []
    if jobs > 1:
        with get_context("spawn").Pool(jobs) as pool:
            for r in pool.imap(worker, work, chunksize=1):
                out.append(r)
                if on_each is not None:
                    on_each(r)
    else:
        for w in work:
            out.append(worker(w))
            if on_each is not None:
                on_each(out[-1])
    return out


def tournament(lineup: Sequence[str], games: int, seed: int, *, jobs: int = 1,
               budget_s: float | None = None, iterations: int | None = None,
               random_map: bool = True, max_actions: int = 20000,
               on_result: Callable[[GameResult], None] | None = None) -> dict[str, Any]:
    """Play ``games`` games of ``lineup`` (one level per player) and summarise them;
    ``on_result`` sees each game's result as it finishes (in game order)."""
    check_levels(lineup)
    t0 = time.perf_counter()
    work = [(g, seed, tuple(lineup), max_actions, budget_s, iterations, random_map)
            for g in range(games)]
    results = run_games(play_one, work, jobs, on_result)
    out = summarise(lineup, results, seed, budget_s=budget_s, iterations=iterations,
                    random_map=random_map)
    out["elapsed_s"] = round(time.perf_counter() - t0, 1)
    return out


def result_from_json(d: dict[str, Any]) -> GameResult:
    """A :class:`GameResult` from its ``--progress`` line (JSON object keys are text)."""
    return GameResult(int(d["seed"]), list(d["slots"]), list(d["winners"]), list(d["scores"]),
                      {int(k): v for k, v in d["times"].items()},
                      {int(k): v for k, v in d.get("cpu_times", {}).items()},
                      int(d.get("actions", 0)))


def summarise(lineup: Sequence[str], results: Sequence[GameResult], seed: int, *,
              budget_s: float | None = None, iterations: int | None = None,
              random_map: bool = True) -> dict[str, Any]:
    """The tournament's summary of ``results`` (games of ``lineup``), in any order: what
    :func:`tournament` prints, without the elapsed time. Games played by several
    processes (``--progress`` lines) are summarised as one run."""
    n = len(lineup)
    games = len(results)
    per = max(1, games)  # no games: zero shares rather than a division by zero
    share = [0.0] * n
    points = [0.0] * n
    times: dict[int, list[float]] = {s: [] for s in range(n)}
    cpu: dict[int, list[float]] = {s: [] for s in range(n)}
    for r in results:
        for seat in r.winners:
            share[r.slots[seat]] += 1.0 / len(r.winners)
        for seat, sc in enumerate(r.scores):
            points[r.slots[seat]] += sc
        for slot, ts in r.times.items():
            times[slot].extend(ts)
        for slot, ts in r.cpu_times.items():
            cpu[slot].extend(ts)
    names = [f"{i}:{lv}" for i, lv in enumerate(lineup)]
    by_level_share: dict[str, float] = {}
    by_level_times: dict[str, list[float]] = {}
    by_level_cpu: dict[str, list[float]] = {}
    counts: dict[str, int] = {}
    for i, lv in enumerate(lineup):
        by_level_share[lv] = by_level_share.get(lv, 0.0) + share[i]
        by_level_times.setdefault(lv, []).extend(times[i])
        by_level_cpu.setdefault(lv, []).extend(cpu[i])
        counts[lv] = counts.get(lv, 0) + 1
    return {
        "games": games,
        "players": n,
        "seed": seed,
        "seats": list(lineup),
        "map": "random" if random_map else "placed",
        "budget_s": budget_s,
        "iterations": iterations,
        "win_share": {names[i]: round(share[i] / per, 4) for i in range(n)},
        "win_share_per_level": {lv: round(by_level_share[lv] / per, 4)
                                for lv in by_level_share},
        "win_share_per_player_of_level": {lv: round(by_level_share[lv] / per / counts[lv], 4)
                                          for lv in by_level_share},
        # Wilson 95 % interval of one seat's share: for a level with one seat, over the
        # games; with several seats, over its seat-games (seats of one game correlate)
        "win_share_wilson95_per_player_of_level": {
            lv: [round(x, 4) for x in wilson(by_level_share[lv], games * counts[lv])]
            for lv in by_level_share},
        "mean_score": {names[i]: round(points[i] / per, 2) for i in range(n)},
        # wall clock per decision, and the game process's CPU time for the same decisions
        # (the fair measure on a loaded machine: waiting for a core is not thinking)
        "think_time": {lv: _time_stats(ts) for lv, ts in by_level_times.items()},
        "think_cpu_time": {lv: _time_stats(ts) for lv, ts in by_level_cpu.items()},
        "actions": sum(r.actions for r in results),
        "game_seeds": [min((r.seed for r in results), default=seed),
                       max((r.seed for r in results), default=seed)],
    }


def merge_progress(lines: Sequence[str]) -> tuple[list[GameResult], int]:
    """Games from ``--progress`` lines of one or more runs of the same tournament, one per
    game seed, and how many games appeared twice. A game played twice must have ended
    the same way (every level is deterministic given its seed, ``hard`` while its
    rollout cap binds), else ValueError."""
    by_seed: dict[int, GameResult] = {}
    twice = 0
    for line in lines:
        if not line.strip():
            continue
        r = result_from_json(json.loads(line))
        old = by_seed.get(r.seed)
        if old is None:
            by_seed[r.seed] = r
            continue
        twice += 1
        if (old.slots, old.winners, old.scores, old.actions) != (
                r.slots, r.winners, r.scores, r.actions):
            raise ValueError(f"game {r.seed} ended differently in two runs")
    return [by_seed[k] for k in sorted(by_seed)], twice
