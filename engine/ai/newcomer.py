"""The scripted newcomer: a bench client that plays like a person in their first game.

It stands for someone who asks ``/tempus hint`` for every other decision and takes the
suggested move, and in between picks some move that at least does something. It is how
``easy`` is measured ("a first game: a newcomer can beat it"): ``python -m engine.ai
newcomer`` seats it against two ``easy`` (:func:`bench`).
It is a bench seat only, never a level a host can add to a table (not in
:data:`engine.ai.LEVELS`).

Like every computer player it is given one seat's view and nothing else (R-INFO-1..3);
where it needs the rules it builds a state from the view (:mod:`.sampling`).

* **Decisions** are the calls with a real choice: when only one action is legal it is
  taken and not counted. The counted decisions alternate, starting with a hint.
* **The hint's move** is what :func:`engine.ai.hint` returns as its action for the same
  view, seed and budget: the move of the strongest level within the budget
  (:func:`engine.ai.hints.level_for`), found without the hint's reasons and plan, which do
  not change the move. The budget is :data:`HINT_BUDGET_S`, the bot's own
  (``games/tempus/hint.py``: ``BUDGET_S``, 1.5 s): at that budget the hint is ``hard``,
  whose rollout cap (24 a searched decision) ends nearly every search long before the
  clock, so a game costs about a second of CPU time and the bench plays the hint a
  person gets. A bench passes ``budget_s`` (``--budget 100`` lifts the clock out of the
  way on a loaded machine, as for ``hard``) or ``iterations`` to change it.
* **A random useful move**: :func:`engine.ai.random_choice` (a random action type, then a
  random action of that type: the engine's one notion of a random move, so that sixty
  Sanitation targets do not swamp the rest) over the legal actions that do something
  (:func:`engine.ai.useful.useful_actions`: never a Move that moves nothing, a Growth
  that grows nothing or a draw from empty piles while something else is possible).

A client lives for one seat of one game (it counts that seat's decisions). Given the same
views and seeds in the same order it makes the same moves.
"""

from __future__ import annotations

import random
from typing import Any

from ..actions import Action
from ..legal import legal_actions, only_action
from . import choose_action, random_choice
from .hints import level_for
from .sampling import determinise, my_seat
from .useful import useful_actions

#: the hint's budget in seconds: the bot's (``games/tempus/hint.py``, ``BUDGET_S``)
HINT_BUDGET_S = 1.5
#: the seat kind's name in a tournament line-up
NAME = "newcomer"


def hint_move(view: dict[str, Any], seed: int, budget_s: float | None = HINT_BUDGET_S, *,
              iterations: int | None = None) -> Action:
    """The action of ``engine.ai.hint(view, seed, budget_s, iterations=iterations)``."""
    return choose_action(view, level_for(budget_s), seed, budget_s=budget_s,
                         iterations=iterations)


class Newcomer:
    """One seat's scripted newcomer (the module's docstring)."""

    def __init__(self, budget_s: float | None = HINT_BUDGET_S,
                 iterations: int | None = None) -> None:
        self.budget_s = budget_s
        self.iterations = iterations
        #: decisions with a choice made so far
        self.decisions = 0
        #: how the last move was chosen: "hint", "random" or "forced"
        self.last = ""

    def act(self, view: dict[str, Any], seed: int) -> Action:
        seat = my_seat(view)
        if not any(d["seat"] == seat for d in view["decisions"]):
            raise ValueError(f"seat {seat} has no decision to make in this view")
        rng = random.Random(f"tempus-ai/{NAME}/{seed}")
        state = determinise(view, rng)
        only = only_action(state, seat)
        if only is not None:
            self.last = "forced"
            return only
        ask_hint = self.decisions % 2 == 0
        self.decisions += 1
        if ask_hint:
            self.last = "hint"
            return hint_move(view, seed, self.budget_s, iterations=self.iterations)
        self.last = "random"
        return random_choice(useful_actions(state, seat, legal_actions(state, seat)), rng)


#: the bench's table: the newcomer against two ``easy``
BENCH_LINEUP = (NAME, "easy", "easy")


def bench(games: int, seed: int, *, jobs: int = 1, budget_s: float | None = None,
          iterations: int | None = None, on_result: Any = None) -> dict[str, Any]:
    """``python -m engine.ai newcomer``: :data:`BENCH_LINEUP` over ``games`` deals from
    ``seed``, the line-up turned round the table and the start player moved on as in every
    tournament (over 9 games every seat of the table plays every position). Returns the
    newcomer's win share (shared wins split, R-END-3) with its Wilson 95 % interval over
    the games, the mean scores, the CPU time per decision and the elapsed time; the whole
    tournament summary under ``"tournament"``."""
    from .tournament import tournament, wilson

    out = tournament(BENCH_LINEUP, games, seed, jobs=jobs, budget_s=budget_s,
                     iterations=iterations, on_result=on_result)
    played = out["games"]
    share = out["win_share_per_level"][NAME]
    low, high = wilson(share * played, played)
    cpu = out["think_cpu_time"]
    return {
        "bench": "newcomer",
        "seats": list(BENCH_LINEUP),
        "games": played,
        "game_seeds": out["game_seeds"],
        "hint_budget_s": HINT_BUDGET_S if budget_s is None else budget_s,
        "iterations": iterations,
        "newcomer_win_share": round(share, 4),
        "newcomer_wilson95": [round(low, 4), round(high, 4)],
        "above_half": {"share": share > 0.5, "interval": low > 0.5},
        "easy_win_share_each": out["win_share_per_player_of_level"]["easy"],
        "mean_score": {"newcomer": out["mean_score"][f"0:{NAME}"],
                       "easy": round((out["mean_score"]["1:easy"]
                                      + out["mean_score"]["2:easy"]) / 2, 2)},
        "cpu_s_per_decision": {lv: {k: cpu[lv][k] for k in ("decisions", "mean_s", "p95_s")}
                               for lv in cpu},
        "elapsed_s": out["elapsed_s"],
        "jobs": jobs,
        "tournament": out,
    }
