"""Tuning the planner's evaluation weights by self-play against three ``normal`` players.

The tuned numbers are data (``data/ai/planner.json``, read by :mod:`.planner`); this
module is how they were found, so that anyone can repeat or continue the run:

    python -m engine.ai tune --iterations 400 --games 8 --seed 100000 --out FILE

Method: SPSA (simultaneous perturbation stochastic approximation, Spall 1992). The
parameters are log-multipliers of the default weights: for each per-era schedule a
level and a tilt (early eras against late ones), and one for each scalar. Each
iteration perturbs every parameter at once by ``±c`` (a random sign each), plays the
same ``games`` deals with the ``+`` and the ``-`` weights in one seat against three
``normal`` players (common random numbers: same seeds, same seats), and steps along the
estimated gradient of the objective: the tuned seat's score minus the best rival's,
clipped to ``±CLIP`` points, plus ``WIN`` points for a win (a shared win counts its
share). Training deals come from ``--seed`` upwards; the seeds the README's results
are measured on (4000-4099) are never used for tuning.

Every iteration is appended to ``--out`` as a JSON line (parameters, objective); the
weights shipped are the mean of the last iterations' parameters (``--average``), which
is steadier than the last point of a noisy walk.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
from collections.abc import Callable, Sequence
from multiprocessing import get_context
from typing import Any

from ..game import apply_in_place, decisions
from ..legal import legal_actions
from ..setup import new_game
from ..state import ACTIONS, MAIN, State
from ..views import view
from . import choose_action, leaf_value
from .evaluate import FLIGHT
from .planner import BASE_SETTINGS, SETTINGS, PlannerPlayer, PlannerSettings, settings_from
from .sampling import determinise
from .search import leaf_evaluator
from .tournament import game_setup

#: per-era schedules of :class:`Weights` that get a level and a tilt
SCHEDULES = ("hex", "token", "supply", "grow", "reach", "room", "city_each", "city_ready",
             "frontier", "card", "marker", "threat")
#: scalars of :class:`Weights` (and of the planner) that get one log-multiplier
SCALARS = ("hex_mountain", "progress", "progress_scale", "card_strength", "rival",
           "flight_card_bonus")
#: scalars of :class:`.normal.Tactics` that get one log-multiplier (a tuple as a whole)
TACTICS_SCALARS = ("next_terrain_card", "draw_choice", "city_waste", "site_neighbour",
                   "site_rival", "site_stack")
#: card types whose extra worth moves by ``CARD_TYPE_STEP`` points per unit of parameter
#: (additive: some are zero or negative)
CARD_TYPES = ("LEA", "REL", "FOR", "WEA", "HEA", "TRA", "SAN", "EDU", "GOV")
CARD_TYPE_STEP = 0.3
#: additive parameters of :class:`Weights` whose hand-set value is zero (name: step)
ADDITIVE = {"rival_best": 0.2}
CLIP = 8.0
WIN = 4.0


#: which parameters a run tunes: "weights" only the evaluation's (its schedules and
#: scalars: the 30 the shipped numbers were tuned over), "all" also ``normal``'s tactics
PARAMETER_SETS = ("all", "weights")


def parameter_names(which: str = "all") -> list[str]:
    if which not in PARAMETER_SETS:
        raise ValueError(f"parameters must be one of {PARAMETER_SETS}, not {which!r}")
    names = []
    for s in SCHEDULES:
        names += [f"{s}.level", f"{s}.tilt"]
    names += [f"{s}.level" for s in SCALARS]
    if which == "weights":
        return names
    names += [f"tactics.{s}.level" for s in TACTICS_SCALARS]
    names += list(ADDITIVE)
    return names + [f"card_type.{t}" for t in CARD_TYPES]


def apply_parameters(theta: dict[str, float], base: PlannerSettings) -> PlannerSettings:
    """``base`` with every schedule and scalar multiplied by ``exp`` of its parameters
    (a tilt of ``t`` multiplies the first era by ``exp(t)`` and the last by ``exp(-t)``)."""
    w = base.weights
    changes: dict[str, Any] = {}
    for s in SCHEDULES:
        level, tilt = theta.get(f"{s}.level", 0.0), theta.get(f"{s}.tilt", 0.0)
        old = getattr(w, s)
        n = len(old)
        changes[s] = tuple(round(v * math.exp(level + tilt * (1 - 2 * i / (n - 1))), 4)
                           for i, v in enumerate(old))
    for s in SCALARS[:-1]:
        changes[s] = round(getattr(w, s) * math.exp(theta.get(f"{s}.level", 0.0)), 4)
    for s, step in ADDITIVE.items():
        changes[s] = round(getattr(w, s) + step * theta.get(s, 0.0), 4)
    bonus = round(base.flight_card_bonus * math.exp(theta.get("flight_card_bonus.level", 0.0)),
                  4)
    t = base.tactics
    tactics: dict[str, Any] = {}
    for s in TACTICS_SCALARS:
        m = math.exp(theta.get(f"tactics.{s}.level", 0.0))
        old_t = getattr(t, s)
        tactics[s] = (tuple(round(v * m, 4) for v in old_t) if isinstance(old_t, tuple)
                      else round(old_t * m, 4))
    tactics["card_type_extra"] = {
        k: round(v + CARD_TYPE_STEP * theta.get(f"card_type.{k}", 0.0), 4)
        for k, v in t.card_type_extra.items()}
    return dataclasses.replace(base, weights=dataclasses.replace(w, **changes),
                               flight_card_bonus=bonus,
                               tactics=dataclasses.replace(t, **tactics))


def _play(index: int, seed: int, settings: PlannerSettings,
          at_turn: Callable[[State, int], None] | None = None) -> tuple[State, int]:
    """One game: slot 0 plays the planner with ``settings``, the others ``normal``; every
    seat decides from its own view. ``at_turn(state, hero)`` is called at the start of each
    of the planner's turns. Returns the finished state and the planner's seat."""
    n = 4
    slots, start = game_setup(index, n)
    game_seed = seed + index
    state, _ = new_game(n, game_seed, start_player=start, random_map=True)
    hero = slots.index(0)
    step = 0
    while True:
        ds = decisions(state)
        if not ds:
            break
        if (at_turn is not None and state.phase == ACTIONS and state.stage == MAIN
                and not state.acted and state.turn == hero):
            at_turn(state, hero)
        for d in ds:
            v = view(state, d.seat)
            s = game_seed * 100_003 + step
            if d.seat == hero:
                rng = random.Random(f"tempus-ai/planner/{s}")
                st = determinise(v, rng)
                legal = legal_actions(st, d.seat)
                action = legal[0] if len(legal) == 1 else PlannerPlayer(
                    rng, settings=settings).act(st, d.seat)
            else:
                action = choose_action(v, "normal", seed=s)
            apply_in_place(state, d.seat, action)
            step += 1
    return state, hero


def _outcome(state: State, hero: int) -> tuple[float, float]:
    """The planner's margin over the best rival (unclipped) and its share of the win."""
    scores = list(state.scores)
    best_rival = max(scores[s] for s in range(len(scores)) if s != hero)
    winners = list(state.winners)
    return float(scores[hero] - best_rival), (1.0 / len(winners)) if hero in winners else 0.0


def play_tuned(args: tuple[int, int, dict[str, Any]]) -> tuple[float, float]:
    """One game: slot 0 plays the planner with the given settings, the others ``normal``.
    Returns slot 0's clipped margin over the best rival and its share of the win."""
    index, seed, settings_json = args
    state, hero = _play(index, seed, settings_from(settings_json))
    margin, win = _outcome(state, hero)
    return max(-CLIP, min(CLIP, margin)), win


def leaf_positions(args: tuple[int, int]) -> list[tuple[int, tuple[float, ...], float]]:
    """One game of the shipped planner against three ``normal``: ``(era, features,
    target)`` at the start of each of the planner's turns before the last era
    (:mod:`.leaf_value`), the target being how the game ended for it."""
    index, seed = args
    seen: list[tuple[int, tuple[float, ...]]] = []

    def at_turn(state: State, hero: int) -> None:
        if state.era_number >= FLIGHT:
            return  # the last era's searched turns are scored by the game's end (search.py)
        seen.append((state.era_number,
                     leaf_value.features(leaf_evaluator(state), state, hero)))

    state, hero = _play(index, seed, SETTINGS, at_turn)
    y = leaf_value.target(*_outcome(state, hero))
    return [(era, x, y) for era, x in seen]


def fit_leaf(games: int, seed: int, jobs: int = 2) -> leaf_value.LeafValue:
    """The leaf value fitted to ``games`` deals from ``seed`` (:mod:`.leaf_value`)."""
    ctx = get_context("fork")
    with ctx.Pool(jobs) as pool:
        per_game = pool.map(leaf_positions, [(i, seed) for i in range(games)])
    rows = [r for game in per_game for r in game]
    about = (f"python -m engine.ai tune --fit-leaf FILE --games {games} --seed {seed}: "
             f"{len(rows)} positions")
    return leaf_value.fit(rows, about=about)


def objective(results: Sequence[tuple[float, float]]) -> float:
    return sum(m + WIN * w for m, w in results) / len(results)


def spsa(iterations: int, games: int, seed: int, out: str, *, jobs: int = 2,
         a: float = 0.005, c: float = 0.35, start: dict[str, float] | None = None,
         first_iteration: int = 0, parameters: str = "all") -> dict[str, float]:
    names = parameter_names(parameters)
    theta = dict.fromkeys(names, 0.0)
    if start:
        theta.update(start)
    rng = random.Random(f"tempus-tune/{seed}/{first_iteration}")
    base = BASE_SETTINGS
    ctx = get_context("fork")
    next_index = first_iteration * games
    with ctx.Pool(jobs) as pool:
        for k in range(first_iteration, first_iteration + iterations):
            ak = a / (k + 1 + 20) ** 0.602 * (21 ** 0.602)
            ck = c / (k + 1) ** 0.101
            delta = {p: rng.choice((-1.0, 1.0)) for p in names}
            plus = {p: theta[p] + ck * delta[p] for p in names}
            minus = {p: theta[p] - ck * delta[p] for p in names}
            sp = dataclasses.asdict(apply_parameters(plus, base))
            sm = dataclasses.asdict(apply_parameters(minus, base))
            indices = range(next_index, next_index + games)
            next_index += games
            jobs_args = [(i, seed, sp) for i in indices] + [(i, seed, sm) for i in indices]
            res = pool.map(play_tuned, jobs_args)
            fp = objective(res[:games])
            fm = objective(res[games:])
            for p in names:
                g = (fp - fm) / (2 * ck * delta[p])
                theta[p] = max(-1.5, min(1.5, theta[p] + ak * g))
            with open(out, "a", encoding="utf-8") as f:
                f.write(json.dumps({"iteration": k, "plus": fp, "minus": fm,
                                    "theta": {p: round(v, 5) for p, v in theta.items()}})
                        + "\n")
    return theta


def average(lines: Sequence[str], last: int, until: int | None = None) -> dict[str, float]:
    """Mean parameters of the last ``last`` iterations of a run's log, or of the ``last``
    iterations up to and including iteration ``until``."""
    rows = [json.loads(x) for x in lines if x.strip()]
    if until is not None:
        rows = [r for r in rows if r["iteration"] <= until]
    rows = rows[-last:]
    names = rows[0]["theta"].keys()
    return {p: sum(r["theta"][p] for r in rows) / len(rows) for p in names}


def evaluate(settings: PlannerSettings, games: int, seed: int, jobs: int = 2) -> dict[str, Any]:
    """Mean objective and win share of the planner with ``settings`` against three
    ``normal`` players over ``games`` deals from ``seed``."""
    sj = dataclasses.asdict(settings)
    ctx = get_context("fork")
    with ctx.Pool(jobs) as pool:
        res = pool.map(play_tuned, [(i, seed, sj) for i in range(games)])
    return {"games": games, "objective": round(objective(res), 3),
            "win_share": round(sum(w for _, w in res) / games, 4),
            "mean_margin": round(sum(m for m, _ in res) / games, 3)}
