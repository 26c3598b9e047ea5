"""Computer players for Tempus: ``choose_action(view, level, seed, budget_s)``.

A computer player is given one seat's view (``engine.view(state, seat)``), never the
state: it cannot read other hands, face-down cards or the deck order because it never
receives them (R-INFO-1..3). Where it needs a full state to call the rules it builds
one from the view with the hidden parts sampled at random (:mod:`.sampling`).

Levels:

* ``random``: uniform over action types, then over actions of that type.
* ``easy``: quick, plausible moves (:mod:`.easy`).
* ``normal``: a heuristic player with one-step lookahead (:mod:`.normal`).
* ``hard``: a planner (:mod:`.planner`: ``normal`` with numbers tuned by self-play,
  ``data/ai/planner.json``, that also plays for the last progress phase and the final
  count) with determinised Monte Carlo search over sampled hands and deck orders
  (:mod:`.search`) for card choices and the last two eras' actions (the era before the
  last scored by a value fitted to self-play results, :mod:`.leaf_value`); the planner
  plays its own seat in the rollouts while ``normal`` plays the rivals. It stops after its
  rollout cap (24, or ``iterations``), ``budget_s`` seconds of CPU time or three times
  that in wall-clock time, whichever comes first. The cap binds first in nearly every
  decision, so ``hard`` is deterministic given ``(view, level, seed)`` unless the
  machine is too slow or too loaded for it.

Every level is deterministic given ``(view, level, seed)`` (``hard``: see above).

Not a level: the scripted newcomer (:mod:`.newcomer`), a seat of the benches that measure
``easy`` (the hint's move every other decision), which no host can add to a table.

:func:`hint` is the hint a front end shows a person: the strongest level's move within a
time budget, with reasons from the same evaluation (:mod:`.hints`).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..actions import Action
from ..legal import legal_actions, only_action
from .sampling import determinise, my_seat

if TYPE_CHECKING:
    from .hints import Hint

LEVELS = ("easy", "normal", "hard")
ALL_LEVELS = (*LEVELS, "random")


def random_choice(actions: list[Action], rng: random.Random) -> Action:
    """A random legal move: uniform over action types (sorted by name), then uniform over
    the actions of the chosen type, so numerous kinds (sixty Sanitation targets) do not
    swamp rare ones. The only implementation: :func:`engine.simulate.random_action`, the
    ``random`` level and the bot's computer seats call it, and for the same ``rng`` state it
    draws exactly what the older copies drew (two ``rng.choice`` calls)."""
    by_type: dict[str, list[Action]] = {}
    for a in actions:
        by_type.setdefault(a.type, []).append(a)
    return rng.choice(by_type[rng.choice(sorted(by_type))])


def hint(view: dict[str, Any], seed: int, budget_s: float | None = None, *,
         iterations: int | None = None) -> Hint:
    """The move the strongest computer player within ``budget_s`` seconds makes for
    ``view["seat"]``, with machine-readable reasons (:class:`engine.ai.hints.Hint`:
    ``action``, ``level``, ``reasons`` as (key, VP-units change) pairs, ``plan``)."""
    from .hints import make_hint

    return make_hint(view, seed, budget_s, iterations=iterations)


def choose_action(view: dict[str, Any], level: str, seed: int,
                  budget_s: float | None = None, *, iterations: int | None = None) -> Action:
    """The action the computer player of ``view["seat"]`` takes now.

    ``budget_s`` (CPU seconds) and ``iterations`` (rollouts) only affect ``hard``
    (defaults: :data:`engine.ai.search.DEFAULT_BUDGET_S` and
    :data:`engine.ai.search.ROLLOUTS`).
    """
    seat = my_seat(view)
    if not any(d["seat"] == seat for d in view["decisions"]):
        raise ValueError(f"seat {seat} has no decision to make in this view")
    rng = random.Random(f"tempus-ai/{level}/{seed}")
    if level == "hard":
        from .search import search_action

        return search_action(view, seed, budget_s=budget_s, iterations=iterations)
    state = determinise(view, rng)
    only = only_action(state, seat)
    if only is not None:
        return only
    if level == "random":
        return random_choice(legal_actions(state, seat), rng)
    if level == "easy":
        from .easy import EasyPlayer

        return EasyPlayer(rng).act(state, seat)
    if level == "normal":
        from .normal import NormalPlayer

        return NormalPlayer(rng).act(state, seat)
    raise ValueError(f"unknown level {level!r}; choose one of {', '.join(ALL_LEVELS)}")
