"""``normal``'s core: its entry points, which choice each decision is scored by, and what
the choices share (the evaluator, the cards' worths, the position the decision is made
in, the Move and Growth steps planned at the start of the turn).

Each kind of decision is scored by a function of another module of this package that
takes the player explicitly; :class:`NormalPlayer` owns every piece of state they use.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from ... import actions as A
from ...game import DecisionKind as K
from ...game import decision_for
from ...legal import legal_actions
from ...movement import destinations
from ...state import State
from ...turn import grow_hexes
from ..evaluate import DEFAULT_WEIGHTS, Evaluator, Snapshot, Weights
from ..spent_steps import end_of_spent_step
from ..tactics import CARDS, unseen_for
from . import cards, fights, main_turn, movement, setup_choices

Scored = list[tuple[float, A.Action]]

CARD_TYPE_EXTRA = {"LEA": 0.3, "REL": 0.25, "FOR": 0.15, "WEA": 0.15, "HEA": 0.05,
                   "TRA": 0.0, "SAN": 0.0, "EDU": -0.05, "GOV": -0.1}


@dataclass(frozen=True, slots=True)
class Tactics:
    """The numbers ``normal``'s choices use besides the position's evaluation."""

    #: what a card of each type is worth on top of an ordinary card
    card_type_extra: dict[str, float] = field(default_factory=lambda: dict(CARD_TYPE_EXTRA))
    #: extra worth of a card whose background is the next era's terrain (R-PROG-3)
    next_terrain_card: float = 0.1
    #: Idea (R-DRAW): worth of each card drawn beyond its keep (a choice of cards to keep)
    draw_choice: float = 0.05
    #: per token a city takes beyond its value (R-CITY: keep big cities for big stacks)
    city_waste: float = 0.35
    #: starting sites (R-SETUP-5): weight of the neighbours' terrain
    site_neighbour: float = 0.5
    #: starting sites: cost of a rival's hex at distance 2, 3 and 4
    site_rival: tuple[float, float, float] = (1.2, 0.5, 0.15)
    #: starting sites: cost of a second start token on a hex already chosen
    site_stack: float = 2.0


DEFAULT_TACTICS = Tactics()

#: a won or lost fight's worth, by (0 for won / 1 for lost, attacking hex, attacked hex)
FightKey = tuple[int, int, int]


class DecisionCache:
    """What the candidates of one decision share, each built at most once per decision:
    every candidate is scored from the same position."""

    def __init__(self) -> None:
        #: the snapshot of the position the decision is made in: its worth, its moves,
        #: its growth and its fights are all scored from it
        self._root: Snapshot | None = None
        #: the cards the seat has not seen (every attack target asks)
        self._unseen: list[int] | None = None
        #: fight outcomes scored so far (see :func:`.fights.win_state`)
        self.fights: dict[FightKey, float] = {}

    def clear(self) -> None:
        """Forget the last decision's position."""
        self.fights.clear()
        self._root = None
        self._unseen = None

    def root_snapshot(self, state: State, ev: Evaluator) -> Snapshot:
        """The snapshot of the position the decision is made in (``state`` must be that
        position, unchanged)."""
        if self._root is None:
            self._root = ev.snapshot(state)
        return self._root

    def unseen(self, state: State, seat: int) -> list[int]:
        """:func:`unseen_for` of the decision's position."""
        if self._unseen is None:
            self._unseen = unseen_for(state, seat)
        return self._unseen


class PlannedSteps:
    """The next step of the greedy Move and Growth plans scored at the start of the
    turn, by position: replaying them costs nothing, re-scoring every step a lot."""

    def __init__(self) -> None:
        self._steps: dict[tuple, A.Action] = {}

    def clear(self) -> None:
        """Forget the plans (they are for one turn only)."""
        self._steps.clear()

    def step_for(self, state: State, seat: int) -> A.Action | None:
        """The planned next step of the Move or Growth ``seat`` is in, if it is still
        legal."""
        if state.stage in ("move", "grow") and state.steps_left > 0 and state.turn == seat:
            planned = self._steps.get(self._board_key(state, seat))
            if planned is not None and self._still_legal(state, seat, planned):
                return planned
        return None

    def remember_moves(self, state: State, seat: int, steps: list[tuple[int, int]]) -> None:
        s = state.copy()
        s.stage = "move"
        s.touched = {}
        for src, dst in steps:
            self._steps[self._board_key(s, seat)] = A.MoveToken(src, dst)
            s.count[src] -= 1
            if s.count[src] == 0:
                s.owner[src] = -1
            s.owner[dst] = seat
            s.count[dst] += 1
            s.touched[dst] = s.touched.get(dst, 0) + 1

    def remember_growth(self, state: State, seat: int, steps: list[int]) -> None:
        s = state.copy()
        s.stage = "grow"
        s.touched = {}
        for h in steps:
            self._steps[self._board_key(s, seat)] = A.GrowToken(h)
            s.count[h] += 1
            s.owner[h] = seat
            s.touched[h] = 1

    @staticmethod
    def _still_legal(state: State, seat: int, action: A.Action) -> bool:
        """Cheap re-check of a remembered step (the plan may be from another position
        that merely looks the same)."""
        if isinstance(action, A.MoveToken):
            return (state.stage == "move" and state.owner[action.src] == seat
                    and state.count[action.src] - state.touched.get(action.src, 0) > 0
                    and action.dst in destinations(state, seat, action.src))
        if isinstance(action, A.GrowToken):
            return state.stage == "grow" and action.hex in grow_hexes(state, seat)
        return False

    @staticmethod
    def _board_key(state: State, seat: int) -> tuple:
        return (seat, state.stage, tuple(state.owner), tuple(state.count), tuple(state.bonus),
                tuple(state.bonus_seat), tuple(sorted(state.touched.items())))


class NormalPlayer:
    """Heuristic player; ``samples`` sets how many random hands card estimates use."""

    def __init__(self, rng: random.Random, weights: Weights = DEFAULT_WEIGHTS,
                 samples: int = 32, move_width: int = 8,
                 tactics: Tactics = DEFAULT_TACTICS) -> None:
        self.rng = rng
        self.weights = weights
        self.tactics = tactics
        self.samples = samples
        #: how many destinations per token a Move scores in full
        self.move_width = move_width
        self._ev: Evaluator | None = None
        self.decision = DecisionCache()
        self.planned = PlannedSteps()

    # ------------------------------------------------------------------ entry points
    def act(self, state: State, seat: int) -> A.Action:
        spent = end_of_spent_step(state, seat)
        if spent is not None:
            return spent
        planned = self.planned.step_for(state, seat)
        if planned is not None:
            return planned
        ranked = self.ranked(state, seat)
        return ranked[0][1]

    def ranked(self, state: State, seat: int) -> Scored:
        """Scored legal candidates, best first (never empty while ``seat`` must act)."""
        d = decision_for(state, seat)
        if d is None:
            raise ValueError(f"seat {seat} has no decision to make")
        self.decision.clear()
        out = CHOICES[d.kind](self, state, seat)
        if not out:  # cannot happen for a well-formed state; stay safe
            out = [(0.0, a) for a in legal_actions(state, seat)]
        out.sort(key=lambda x: -x[0])
        return out

    # ------------------------------------------------------------------ shared by the choices
    def evaluator(self, state: State) -> Evaluator:
        """One evaluator per player, refreshed when the era or the map changes (its
        constants cost as much as a few evaluations to build)."""
        ev = self._ev
        if ev is None:
            ev = self._ev = Evaluator(state, self.weights)
        else:
            ev.check(state)
        return ev

    def card_worth(self, state: State, seat: int, ev: Evaluator, card: int) -> float:
        """What holding ``card`` is worth to ``seat`` (what playing or discarding it costs)."""
        info = CARDS[card]
        w = ev.card + self.tactics.card_type_extra.get(info.type, 0.0)
        if info.terrain == ev.next_terrain:
            w += self.tactics.next_terrain_card
        if info.type == "REL" and state.players[seat].supply <= 0:
            w -= 0.2
        return max(0.05, w)

    def worths(self, state: State, seat: int, ev: Evaluator) -> dict[int, float]:
        return {c: self.card_worth(state, seat, ev, c) for c in state.players[seat].hand}


#: the choice that scores the candidates of each kind of decision
CHOICES: dict[str, Callable[[NormalPlayer, State, int], Scored]] = {
    K.PLACE_TILE: setup_choices.place_tile,
    K.PLACE_START_TOKEN: setup_choices.start_token,
    K.TURN: main_turn.turn,
    K.MOVING: movement.moving,
    K.GROWING: movement.growing,
    K.NAME_CITY_TERRAIN: fights.city_terrain,
    K.ATTACK_CARDS: fights.attack_cards,
    K.DEFEND_CARDS: fights.defend_cards,
    K.OCCUPY: fights.occupy,
    K.DISCARDING: cards.discard,
    K.PROGRESS_CARDS: cards.progress_cards,
}
