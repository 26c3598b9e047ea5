"""The ``hard`` computer player: determinised Monte Carlo search.

For one decision:

1. The planner (:mod:`.planner`: ``normal`` with a longer view) ranks the legal
   choices; the best few are the candidates
   (search over every legal action would be hopeless: a hand of 7 alone has 128 card
   subsets, a Railways move hundreds of destinations).
2. Each round draws a fresh determinisation of the view (other hands, deck order,
   face-down cards; :mod:`.sampling`) and plays *every* surviving candidate on it,
   then lets all seats continue with fast policies (this seat the planner, its rivals
   ``normal``, as the search expects them to be) until the horizon: the
   start of this seat's next turn (so every rival has answered once) or the end of the
   progress phase. Using the same sample for all candidates (common random numbers)
   makes their comparison far less noisy than independent samples would.
3. The position at the horizon is scored by the evaluation, as this seat's worth
   against its rivals (:func:`leaf_utility`); after each halving point the weaker half
   of the candidates is dropped (successive halving).
4. The candidate with the best mean wins; the planner's ranking breaks ties and nudges
   close calls (a small prior), which keeps the player from chasing sampling noise. A
   candidate needs ``MIN_ROUNDS`` paired rounds before it may replace the planner's
   choice, and after the first round the candidates are narrowed to as many as the
   remaining budget can sample ``2 * MIN_ROUNDS`` times each (a loaded machine or long
   rollouts leave fewer), the planner's lowest-ranked going first.

What is searched: card choices (attack, defence, progress), the naming of a city's
terrain, and the choice of action in the last two eras. In the last era's last rounds
(at most two markers a seat left) rollouts run to the end of the game and score the
result itself; before that in the last era they stop at this seat's next turn and are
scored by the static evaluation; in the era before the last, by a value fitted to how
self-play games of the planner ended from such positions (:mod:`.leaf_value`,
``data/ai/leaf.json``); :func:`turn_scoring` says which, for the hint's reasons. Earlier
choices of action are the planner's alone: there, its one-step judgement beat rollouts to
the next turn scored by the static evaluation (:data:`SEARCH_FROM_ERA_BY_KIND`).

The search never sees hidden information: its only input is the view. Its work is
capped in rollouts (:data:`ROLLOUTS` per decision, or ``iterations``), so that its
strength is the same on a fast or a loaded machine; a CPU-time budget (``budget_s``,
default :data:`DEFAULT_BUDGET_S`, measured with :func:`time.process_time` so that
waiting for a core does not count) and a wall-clock safety cap end the few decisions
whose rollouts are long (the last era's, played to the end of the game). When the cap
binds first, as it does in nearly every decision, the choice depends only on
``(view, seed)``.

Where the time goes (cProfile of the rollouts): nearly all of it is the rivals'
``normal`` turn decisions, and in those the greedy Move plan and the scoring of every
possible attack; a rollout to this seat's next turn costs about 5 ms on this machine.
Stopping at the end of this seat's own turn instead (``horizon="own"``) costs a fifth
of that but lost every one of its first 6 games against three ``normal``: the rivals'
replies are what the search is for.
"""

from __future__ import annotations

import random
import time
from enum import StrEnum
from typing import Any

from .. import actions as A
from ..errors import IllegalAction
from ..game import (
    ATTACK_CARDS,
    DEFEND_CARDS,
    MOVING,
    NAME_CITY_TERRAIN,
    PROGRESS_CARDS,
    TURN,
    DecisionKind,
    apply_in_place,
    decision_for,
    decisions,
)
from ..legal import legal_actions
from ..state import MAIN, OVER, PROGRESS, State
from .evaluate import DEFAULT_WEIGHTS, FLIGHT, Evaluator
from .leaf_value import load_leaf_value
from .normal import NormalPlayer
from .planner import SETTINGS, PlannerPlayer
from .sampling import determinise, my_seat
from .spent_steps import end_of_spent_step

#: rollouts per decision (before the kind's share): with at least 2 * MIN_ROUNDS paired
#: rounds per candidate that is 3 candidates. A rollout costs about 5 ms, so a searched
#: decision about 0.12 s of CPU and the p95 over all decisions about 0.15-0.2 s; more
#: rollouts would fit the 1.0 s target but did not play better (three times as many, or
#: twice as many for the last era's actions; see docs/computer-players.md)
ROLLOUTS = 24
#: CPU seconds per decision; the search stops before a round that would overrun it
#: (this binds only in decisions with long rollouts, near the end of the game)
DEFAULT_BUDGET_S = 0.9
#: wall-clock safety cap, as a multiple of the CPU budget (a loaded machine)
WALL_FACTOR = 3.0
#: candidates kept per decision kind (others are decided by the planner alone). The
#: steps of a Growth are left to the planner: the hexes differ little and the search's
#: time is better spent on the choice of action (a fifth of the searched decisions).
WIDTH = {TURN: 6, MOVING: 4, ATTACK_CARDS: 5, DEFEND_CARDS: 5,
         PROGRESS_CARDS: 6, NAME_CITY_TERRAIN: 3}
#: share of the budget per decision kind (default 1): a Move's single steps are left to
#: the planner, whose plan was chosen and rolled out at the turn's decision
BUDGET_SHARE = {MOVING: 0.0}
#: the search never plays a candidate that the planner scores this much worse than its best
MAX_GAP = 2.5
#: another candidate replaces the planner's first choice only if it is better by this
#: many VP-units plus ``Z`` standard errors of the paired difference
PRIOR = 0.1
Z = 1.5
MAX_ROLLOUT_STEPS = 120
#: the rollout policy is ``normal`` with fewer card samples and move candidates (two
#: destinations a token instead of eight: a fifth cheaper than four)
ROLLOUT_SAMPLES = 8
ROLLOUT_WIDTH = 2
#: eras before this one are played by the planner alone (for experiments)
SEARCH_FROM_ERA = 1
#: per decision kind, the first era in which it is searched (default SEARCH_FROM_ERA).
#: The choice of action is searched in the last two eras: in the last, rollouts run to the
#: end of the game and score the result itself; in the one before, the fitted leaf value
#: scores them (1,000 new deals, paired with the last era alone: 0.4735 against 0.4665,
#: margin -0.35 against -0.56; docs/computer-players.md). Earlier, the tuned planner's
#: one-step judgement beat rollouts scored by the static evaluation (same 26 training
#: deals: searching every turn won 0.38 where the planner alone won 0.42)
SEARCH_FROM_ERA_BY_KIND: dict[str, int] = {TURN: FLIGHT - 1}
#: how far rollouts go: "turn" (this seat's next turn) or "era" (past the progress phase)
HORIZON = "turn"
#: paired rounds a candidate needs before it may replace the planner's choice (with two
#: or three, a small standard error is often luck)
MIN_ROUNDS = 4
#: rounds each candidate is planned for when the rollout cap sets the width (the
#: deviation rule still needs MIN_ROUNDS paired rounds)
ROUNDS_PER_CANDIDATE = 2 * MIN_ROUNDS
#: rounds before the first halving of the candidates
FIRST_CUT = 8
#: in the last era rollouts run to the end of the game; a win is worth this many points
WIN_BONUS = 3.0
#: the evaluation a rollout's end is scored by: the planner's (tuned) weights, so that the
#: search and the policy it builds on agree on what a position is worth, and a hint's
#: reasons (:mod:`.hints`) come from the same numbers
LEAF_WEIGHTS = SETTINGS.weights
#: positions where a rollout policy failed (kept for debugging; tests assert it is empty)
ROLLOUT_ERRORS: list[dict[str, Any]] = []
#: what the last search did (for tests, tuning and curiosity)
LAST_STATS: dict[str, Any] = {}


#: the fitted value (:mod:`.leaf_value`, ``data/ai/leaf.json``) the search scores the end of a
#: searched turn's rollout with when the game goes on; None: the static evaluation
LEAF_VALUE = load_leaf_value()


def leaf_evaluator(state: State) -> Evaluator:
    """The evaluation the search scores a rollout's end with (and a hint explains by)."""
    return Evaluator(state, LEAF_WEIGHTS)


def leaf_utility(ev: Evaluator, state: State, seat: int) -> float:
    """``seat``'s worth against its rivals: half the best rival, half their mean.

    At the end of the game the worth is the score, plus a bonus for a (shared) win, so
    that the last era is played for the win itself (R-END-2/3)."""
    v = ev.values(state)
    others = [v[s] for s in range(len(v)) if s != seat]
    u = v[seat] - 0.5 * max(others) - 0.5 * sum(others) / len(others)
    if state.phase == OVER and seat in state.winners:
        u += WIN_BONUS / len(state.winners)
    return u


def turn_leaf_utility(ev: Evaluator, state: State, seat: int) -> float:
    """The worth of the end of a searched turn's rollout: the fitted value
    (:data:`LEAF_VALUE`) while the game goes on, else :func:`leaf_utility`. Both are
    points over the rivals (the fitted one: over the best rival at the end, plus the
    win's bonus), on about the same scale."""
    if LEAF_VALUE is not None:
        fitted = LEAF_VALUE.value(ev, state, seat)
        if fitted is not None:
            return fitted
    return leaf_utility(ev, state, seat)


class TurnScoring(StrEnum):
    """What the rollouts of a searched turn are scored by (so what a hint explains the
    move by, :mod:`.hints`)."""

    #: the static evaluation at this seat's next turn (:func:`leaf_utility`)
    STATIC = "static"
    #: the fitted value at this seat's next turn (:data:`LEAF_VALUE`)
    FITTED = "fitted"
    #: the end of the game: the final scores and the win
    ENDINGS = "endings"


def runs_to_the_end(state: State) -> bool:
    """Whether rollouts from ``state`` play on to the end of the game: the last era's
    last rounds, at most two markers a seat left (a public fact)."""
    return state.era_number >= FLIGHT and sum(
        p.markers for p in state.players) <= 2 * state.num_players


def turn_scoring(state: State) -> TurnScoring:
    """How rollouts from ``state`` (a position right after a searched turn's candidate)
    are scored (:func:`turn_leaf_utility`; a rollout that crosses into another era meets
    that era's scoring, rarely)."""
    if runs_to_the_end(state):
        return TurnScoring.ENDINGS
    if LEAF_VALUE is not None and state.era_number in LEAF_VALUE.eras and state.phase != OVER:
        return TurnScoring.FITTED
    return TurnScoring.STATIC


class Rollout:
    """Plays a determinised state forward: this seat with a fast planner, the others
    with a fast ``normal``."""

    def __init__(self, seat: int, rng: random.Random, horizon: str | None = None) -> None:
        self.seat = seat
        self.horizon = HORIZON if horizon is None else horizon
        self.own = PlannerPlayer(rng, samples=ROLLOUT_SAMPLES, move_width=ROLLOUT_WIDTH)
        self.rivals = NormalPlayer(rng, DEFAULT_WEIGHTS, samples=ROLLOUT_SAMPLES,
                                   move_width=ROLLOUT_WIDTH)

    def run(self, state: State) -> State:
        """Play until the horizon: this seat's next fresh turn after a rival's turn,
        or the end of a progress phase, or the end of the game."""
        seat = self.seat
        rival_turn = False
        saw_progress = state.phase == PROGRESS
        to_the_end = runs_to_the_end(state)
        for _ in range(MAX_ROLLOUT_STEPS * (3 if to_the_end or self.horizon == "era" else 1)):
            ds = decisions(state)
            if not ds:
                break
            if to_the_end:
                pass
            elif state.phase == PROGRESS:
                saw_progress = True
            elif saw_progress:
                break  # a new era has begun: the progress outcome is on the board
            elif self.horizon == "era":
                pass  # play on to the end of this era's progress phase
            elif state.stage == MAIN and not state.acted:
                if state.turn != seat:
                    if self.horizon == "own":
                        break  # this seat's turn is over: score it before any reply
                    rival_turn = True
                elif rival_turn:
                    break
            for d in ds:
                policy = self.own if d.seat == seat else self.rivals
                apply_in_place(state, d.seat, policy.act(state, d.seat))
        return state

    def safe_run(self, state: State) -> State | None:
        """:meth:`run`, or None if the rollout policy chose an illegal action (a bug we
        would rather lose one sample to than a whole decision)."""
        try:
            return self.run(state)
        except IllegalAction:
            ROLLOUT_ERRORS.append(state.to_json())
            return None


def same_choice(action: A.Action) -> Any:
    """What an action chooses, whatever the order of its cards: a set of cards (to
    attack, defend, advance or discard with) is listed by the rules in hand order and by
    the players sorted, and both are the same choice."""
    cards = getattr(action, "cards", None)
    if isinstance(cards, tuple):
        return (type(action), tuple(sorted(cards)))
    return action


def _candidates(ranked: list[tuple[float, A.Action]], kind: DecisionKind,
                legal: list[A.Action]) -> list[tuple[float, A.Action]]:
    width = WIDTH.get(kind, 1)
    allowed = {same_choice(a) for a in legal}
    out: list[tuple[float, A.Action]] = []
    seen: set[Any] = set()
    top = ranked[0][0]
    for score, action in ranked:
        key = same_choice(action)
        if key in seen or key not in allowed:
            continue
        if out and score < top - MAX_GAP:
            break
        seen.add(key)
        out.append((score, action))
        if len(out) >= width:
            break
    return out


def search_action(view: dict[str, Any], seed: int, budget_s: float | None = None,
                  iterations: int | None = None) -> A.Action:
    """The ``hard`` level's choice for the seat of ``view``.

    It stops at the first of: ``iterations`` rollouts (default: :data:`ROLLOUTS` scaled
    by the decision kind's :data:`BUDGET_SHARE`), ``budget_s`` seconds of this process's
    CPU time (default :data:`DEFAULT_BUDGET_S`, scaled likewise), or :data:`WALL_FACTOR`
    times that in wall-clock time (a safety cap for a machine so loaded that the process
    rarely gets a core). On an idle core the rollout cap binds first in nearly every
    decision, so the choice depends only on ``(view, seed)``."""
    t0 = time.perf_counter()
    c0 = time.process_time()
    budget = DEFAULT_BUDGET_S if budget_s is None else budget_s
    cap = ROLLOUTS if iterations is None else iterations
    seat = my_seat(view)
    if view["decisions"]:
        kinds = [d["kind"] for d in view["decisions"] if d["seat"] == seat]
        share = BUDGET_SHARE.get(kinds[0], 1.0) if kinds else 1.0
        budget *= share
        if iterations is None or share <= 0:
            cap = int(cap * share)
    wall = budget * WALL_FACTOR
    rng = random.Random(f"tempus-ai/hard/{seed}")
    root = determinise(view, rng)
    decision = decision_for(root, seat)
    assert decision is not None
    legal = legal_actions(root, seat)
    if len(legal) == 1:
        return legal[0]
    end_of_action = end_of_spent_step(root, seat)
    if end_of_action is not None:
        return end_of_action
    first_era = SEARCH_FROM_ERA_BY_KIND.get(decision.kind, SEARCH_FROM_ERA)
    if root.era_number < first_era or cap <= 0:
        return PlannerPlayer(random.Random(rng.random())).act(root, seat)
    ranked = PlannerPlayer(random.Random(rng.random())).ranked(root, seat)
    cands = _candidates(ranked, decision.kind, legal)
    if len(cands) <= 1:
        return cands[0][1] if cands else ranked[0][1]
    n = len(cands)
    utility = turn_leaf_utility if decision.kind == TURN else leaf_utility
    #: utility of each candidate in each round (rounds share one determinisation)
    results: list[dict[int, float]] = [{} for _ in range(n)]
    alive = list(range(n))
    # width by the rollout cap: each candidate kept must get 2 * MIN_ROUNDS paired
    # rounds, or a deviation would be judged on too few samples (the planner's
    # lowest-ranked go first; its first choice, index 0, always stays)
    while len(alive) > 2 and cap < len(alive) * ROUNDS_PER_CANDIDATE:
        alive.pop()
    rounds = 0
    done = 0
    next_cut = FIRST_CUT
    c_first = 0.0  # CPU time spent before the first rollout (determinising, ranking)
    while done < cap:
        elapsed = time.process_time() - c0
        if rounds > 0:
            # stop before a round that would likely overrun the budget (rounds are kept
            # whole so that every candidate is compared on the same samples)
            per_rollout = (elapsed - c_first) / max(1, done)
            if elapsed + per_rollout * len(alive) > budget:
                break
            if time.perf_counter() - t0 > wall:
                break
        else:
            c_first = elapsed
        sample_seed = rng.getrandbits(48)
        for i in alive:
            r = random.Random(sample_seed)
            state = determinise(view, r)
            apply_in_place(state, seat, cands[i][1])
            end = Rollout(seat, random.Random(sample_seed + 1)).safe_run(state)
            done += 1
            if end is not None:
                results[i][rounds] = utility(leaf_evaluator(end), end, seat)
        rounds += 1
        if rounds == 1 and len(alive) > 2:
            # budget-aware width: when the CPU budget, not the cap, will end the search
            # (long rollouts near the end of the game), keep as many candidates as can
            # each still be played in MIN_ROUNDS * 2 rounds
            spent = time.process_time() - c0
            per = max(1e-6, (spent - c_first) / max(1, done))
            while len(alive) > 2 and (budget - spent) < per * len(alive) * 2 * MIN_ROUNDS:
                alive.remove(max(alive))
        if rounds >= next_cut and len(alive) > 2:
            # drop the weaker half, but never the planner's own choice (index 0)
            alive.sort(key=lambda i: -_advantage(results, i)[0])
            keep = alive[: max(2, (len(alive) + 1) // 2)]
            if 0 not in keep:
                keep[-1] = 0
            alive = keep
            next_cut *= 2
    best, best_gain = 0, 0.0
    for i in range(1, n):
        gain, se = _advantage(results, i)
        if _paired(results, i) < MIN_ROUNDS:
            continue  # too few samples to tell a real improvement from a lucky one
        # deviate from the planner's choice only for a clear, not a lucky, improvement
        if gain > PRIOR + Z * se and gain > best_gain:
            best, best_gain = i, gain
    LAST_STATS.clear()
    LAST_STATS.update(kind=decision.kind, rollouts=done, rounds=rounds, chose=best,
                      candidates=[(round(cands[i][0], 2), cands[i][1].to_json(),
                                   len(results[i]),
                                   tuple(round(x, 2) for x in _advantage(results, i)))
                                  for i in range(n)])
    return cands[best][1]


def _paired(results: list[dict[int, float]], i: int) -> int:
    """Rounds in which both candidate ``i`` and candidate 0 were played."""
    return sum(1 for r in results[i] if r in results[0])


def _advantage(results: list[dict[int, float]], i: int) -> tuple[float, float]:
    """Mean and standard error of candidate ``i``'s utility minus candidate 0's, over
    the rounds both were played in (paired: same determinisation)."""
    if i == 0:
        return 0.0, 0.0
    diffs = [u - results[0][r] for r, u in results[i].items() if r in results[0]]
    k = len(diffs)
    if k == 0:
        return -1e9, 0.0
    mean = sum(diffs) / k
    if k < 2:
        return mean, 1e9
    var = sum((d - mean) ** 2 for d in diffs) / (k - 1)
    return mean, (var / k) ** 0.5
