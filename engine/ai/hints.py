"""Hints: the strongest computer player's move for a seat, with machine-readable reasons.

``engine.ai.hint(view, seed, budget_s)`` returns a :class:`Hint`: the action, the level
that chose it (``hard`` when the budget allows a search, else ``normal``), the steps
that follow a Begin Move / Begin Grow (the planner's), and the reasons: how the move
changes the terms of the evaluation the computer players choose by
(:meth:`engine.ai.evaluate.Evaluator.terms`, in victory-point units), largest change
first, as ``(key, number)`` pairs a front end translates (``hint.reason.<key>``).

The position after the move is reached on a few determinisations of the view, playing
the seat's own remaining steps of the action with the planner and any answer a rival
owes inside it (a defender's cards) with ``normal``; the term changes are averaged.
Like every computer player the hint reads only the view (R-INFO-1..3).

The reasons come from the evaluation that chose the move. A searched turn of the era
before the last was chosen by the fitted value (:mod:`.leaf_value`): its reasons are the
changes of that value's parts (:meth:`.leaf_value.LeafValue.contributions`, the same
keys weighted as the value weighs them). A searched turn of the last rounds, whose
rollouts run to the end of the game, leads with ``endings`` when the search left the
planner's first choice: how many points over the rivals (a win counting
:data:`.search.WIN_BONUS` more) the move gained in games played to the end, against that
choice. Everything else (the planner's choices, card choices, the last era's earlier
turns) was chosen by the static evaluation, whose terms' changes are the reasons.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from .. import actions as A
from ..errors import IllegalAction
from ..game import GROWING, MOVING, TURN, apply_in_place, decision_for, decisions
from ..legal import legal_actions
from ..progress import victory_points
from ..state import MAIN, OVER, State
from . import search
from .evaluate import DEFAULT_WEIGHTS
from .normal import NormalPlayer
from .planner import PlannerPlayer
from .sampling import determinise, my_seat
from .search import TurnScoring, leaf_evaluator, turn_scoring

#: below this many seconds the search cannot finish a useful number of rollouts, so the
#: hint is ``normal``'s choice
MIN_SEARCH_BUDGET_S = 0.25
#: determinisations the reasons are averaged over
REASON_SAMPLES = 4
#: reasons smaller than this (VP units) are left out
REASON_MIN = 0.05
MAX_REASONS = 4
#: steps of a Move or Grow spelled out after the hint
MAX_PLAN = 6


@dataclass(frozen=True)
class Hint:
    action: A.Action
    level: str
    #: (term key, change in VP units), largest absolute change first; ``vp`` (victory
    #: points now, R-END-2) leads whenever the move changes them, and ``endings`` before
    #: it when games played to the end chose the move (the module's docstring)
    reasons: tuple[tuple[str, float], ...]
    plan: tuple[A.Action, ...] = ()
    #: the search's candidates and rollouts (0 when ``normal`` chose)
    candidates: int = 0
    rollouts: int = 0
    legal: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action.to_json(),
            "level": self.level,
            "reasons": [{"key": k, "value": v} for k, v in self.reasons],
            "plan": [a.to_json() for a in self.plan],
            "candidates": self.candidates,
            "rollouts": self.rollouts,
            "legal": self.legal,
        }


def level_for(budget_s: float | None) -> str:
    """The strongest level that can decide within ``budget_s`` seconds."""
    if budget_s is not None and budget_s < MIN_SEARCH_BUDGET_S:
        return "normal"
    return "hard"


def plan_steps(state: State, seat: int, action: A.Action, rng: random.Random) -> list[A.Action]:
    """After Begin Move / Begin Grow: the planner's steps (on a copy of ``state``)."""
    if not isinstance(action, A.BeginMove | A.BeginGrow):
        return []
    s = state.copy()
    planner = PlannerPlayer(random.Random(rng.random()))
    steps: list[A.Action] = []
    try:
        apply_in_place(s, seat, action)
        while len(steps) < MAX_PLAN:
            d = decision_for(s, seat)
            if d is None or d.kind not in (MOVING, GROWING):
                break
            step = planner.act(s, seat)
            steps.append(step)
            if isinstance(step, A.EndMove | A.EndGrow):
                break
            apply_in_place(s, seat, step)
    except IllegalAction:
        pass
    return steps


def _after(state: State, seat: int, action: A.Action, rng: random.Random) -> State | None:
    """``state`` after ``action`` and the rest of the action it starts (own steps by the
    planner, a rival's answers inside it by ``normal``), stopping when ``seat`` is back
    to choosing its next action, the turn passes, or a phase ends."""
    s = state.copy()
    own = PlannerPlayer(random.Random(rng.random()))
    rivals = NormalPlayer(random.Random(rng.random()), DEFAULT_WEIGHTS)
    was_turn = s.turn
    try:
        apply_in_place(s, seat, action)
        for _ in range(40):
            if s.phase == OVER or s.phase != state.phase or s.turn != was_turn:
                break
            if s.stage == MAIN and s.combat is None:
                break
            ds = decisions(s)
            if not ds:
                break
            d = ds[0]
            policy = own if d.seat == seat else rivals
            apply_in_place(s, d.seat, policy.act(s, d.seat))
    except IllegalAction:
        return None
    return s


def _chosen(state: State, seat: int, action: A.Action) -> State:
    """``state`` right after ``action`` (a copy), where the search's rollouts begin."""
    s = state.copy()
    try:
        apply_in_place(s, seat, action)
    except IllegalAction:
        return state
    return s


def _parts(state: State, seat: int, fitted: bool) -> dict[str, float]:
    """What the reasons compare: the fitted value's parts (``fitted``, where the era has
    a fitted value), else the static evaluation's terms."""
    ev = leaf_evaluator(state)
    value = search.LEAF_VALUE
    if fitted and value is not None:
        parts = value.contributions(ev, state, seat)
        if parts is not None:
            return parts
    return ev.terms(state, seat)


def reasons_for(view: dict[str, Any], action: A.Action, seed: int,
                samples: int = REASON_SAMPLES, *, fitted: bool = False
                ) -> tuple[tuple[str, float], ...]:
    """The change ``action`` makes to the evaluation's terms for the seat of ``view``
    (``fitted``: to the fitted value's parts, :func:`_parts`)."""
    seat = my_seat(view)
    rng = random.Random(f"tempus-hint-reasons/{seed}")
    sums: dict[str, float] = {}
    n = 0
    for _ in range(samples):
        root = determinise(view, rng)
        after = _after(root, seat, action, rng)
        if after is None:
            continue
        # both sides by one measure: an action that ends the era (or the game) is
        # explained by the static terms, which every position has
        both = fitted and after.era_number == root.era_number and after.phase != OVER
        before_t = _parts(root, seat, both)
        after_t = _parts(after, seat, both)
        for k in set(before_t) | set(after_t):
            sums[k] = sums.get(k, 0.0) + after_t.get(k, 0.0) - before_t.get(k, 0.0)
        sums["vp"] = sums.get("vp", 0.0) + victory_points(after, seat) - victory_points(
            root, seat)
        n += 1
    if not n:
        return ()
    mean = {k: v / n for k, v in sums.items()}
    vp = mean.pop("vp")
    ranked = sorted(((k, round(v, 2)) for k, v in mean.items() if abs(v) >= REASON_MIN),
                    key=lambda kv: (-abs(kv[1]), kv[0]))[:MAX_REASONS]
    if abs(vp) >= REASON_MIN:
        ranked.insert(0, ("vp", round(vp, 2)))
    return tuple(ranked)


def make_hint(view: dict[str, Any], seed: int, budget_s: float | None = None, *,
              iterations: int | None = None) -> Hint:
    from . import choose_action

    seat = my_seat(view)
    level = level_for(budget_s)
    search.LAST_STATS.clear()
    action = choose_action(view, level, seed, budget_s=budget_s, iterations=iterations)
    stats = dict(search.LAST_STATS)
    rng = random.Random(f"tempus-hint-plan/{seed}")
    root = determinise(view, rng)

    plan = plan_steps(root, seat, action, rng)
    # the reasons of the evaluation that chose: a searched turn's rollouts' scoring,
    # which the rollouts decide from the position after the candidate (its marker used)
    searched_turn = stats.get("kind") == TURN and len(stats.get("candidates", ())) > 1
    scoring = turn_scoring(_chosen(root, seat, action)) if searched_turn else TurnScoring.STATIC
    reasons = reasons_for(view, action, seed, fitted=scoring is TurnScoring.FITTED)
    chose = int(stats.get("chose", 0))
    if scoring is TurnScoring.ENDINGS and chose:
        gain = float(stats["candidates"][chose][3][0])
        reasons = (("endings", round(gain, 2)), *reasons)
    return Hint(action=action, level=level, reasons=reasons,
                plan=tuple(plan), candidates=len(stats.get("candidates", ())),
                rollouts=int(stats.get("rollouts", 0)),
                legal=len(legal_actions(root, seat)))
