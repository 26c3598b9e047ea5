"""The ``easy`` computer player: quick rules of thumb with some randomness.

No lookahead and no evaluation: it grows where it can, spreads out from its stacks,
builds a city now and then, draws cards otherwise, rarely attacks and plays secret
cards simply. Good enough that a newcomer has a game, weak enough to beat.
"""

from __future__ import annotations

import random

from .. import actions as A
from ..combat import attack_targets
from ..content import CONTENT
from ..game import DecisionKind as K
from ..game import decision_for
from ..legal import legal_actions
from ..movement import destinations, movable_sources
from ..progress import new_era_index
from ..state import State
from ..turn import city_sites, grow_hexes
from .tactics import contribution, progress_contribution


class EasyPlayer:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, state: State, seat: int) -> A.Action:
        d = decision_for(state, seat)
        if d is None:
            raise ValueError(f"seat {seat} has no decision to make")
        legal = legal_actions(state, seat)
        kind = d.kind
        rng = self.rng
        hand = state.players[seat].hand
        if kind == K.PLACE_TILE:
            return rng.choice(legal)
        if kind == K.PLACE_START_TOKEN:
            grass = [a for a in legal if isinstance(a, A.PlaceStartToken)
                     and state.terrain[a.hex] == "G" and a.hex not in state.start_hexes]
            return rng.choice(grass or legal)
        if kind == K.TURN:
            return self._turn(state, seat, legal)
        if kind == K.MOVING:
            return self._move(state, seat)
        if kind == K.GROWING:
            options = grow_hexes(state, seat) if state.steps_left > 0 else []
            return A.GrowToken(rng.choice(options)) if options else A.EndGrow()
        if kind == K.NAME_CITY_TERRAIN:
            return A.NameCityTerrain("M")
        if kind == K.ATTACK_CARDS:
            c = state.combat
            assert c is not None
            strong = [x for x in hand if contribution(x, c.terrain, False) >= 2]
            return A.CommitAttackCards(tuple(strong))
        if kind == K.DEFEND_CARDS:
            c = state.combat
            assert c is not None
            good = [x for x in hand if contribution(x, c.terrain, True) >= 2]
            return A.DefendCards(tuple(good))
        if kind == K.OCCUPY:
            c = state.combat
            assert c is not None
            most = max(a.count for a in legal if isinstance(a, A.Occupy))
            return A.Occupy(max(0, min(most, state.count[c.src] - 1)) or most)
        if kind == K.DISCARDING:
            return rng.choice(legal)
        if kind == K.PROGRESS_CARDS:
            terrain = CONTENT.eras[new_era_index(state)].terrain
            return A.ProgressCards(tuple(x for x in hand
                                         if progress_contribution(x, terrain) >= 2))
        return rng.choice(legal)

    def _turn(self, state: State, seat: int, legal: list[A.Action]) -> A.Action:
        """The main action. Never one that does nothing while a useful one exists: a Move
        only with a token to spread out, a Growth only with room to grow, drawing only
        when there are cards to draw."""
        rng = self.rng
        if state.turn_actions <= 0:
            return A.EndTurn()
        sites = city_sites(state, seat)
        if sites and rng.random() < 0.5:
            h, v = max(sites, key=lambda x: (x[1], rng.random()))
            return A.BuildCity(h, v)
        for src, dst in attack_targets(state, seat):
            if state.city_owner[dst] < 0 and state.count[src] >= state.count[dst] + 2:
                return A.Attack(src, dst)
        can_draw = bool(state.deck or state.discard)
        options: list[A.Action] = []
        if grow_hexes(state, seat):
            options += [A.BeginGrow()] * 3
        if self._spread_moves(state, seat):
            options += [A.BeginMove()] * 2
        if can_draw and len(state.players[seat].hand) < state.era(seat).limit:
            options.append(A.DrawCards())
        if options:
            return rng.choice(options)
        # nothing of the usual kinds: something that still changes the position
        if sites:
            h, v = max(sites, key=lambda x: (x[1], rng.random()))
            return A.BuildCity(h, v)
        if can_draw:
            return A.DrawCards()  # a full hand: draw and keep the better cards
        if self._any_moves(state, seat):
            return A.BeginMove()
        return A.DrawCards()  # no action can do anything (R-ROUND-5)

    @staticmethod
    def _spread_moves(state: State, seat: int) -> list[tuple[int, int]]:
        """Moves from a stack of 2 or more onto empty land that scores (not mountains)."""
        out = []
        for src in movable_sources(state, seat):
            if state.count[src] < 2:
                continue
            out += [(src, d) for d in sorted(destinations(state, seat, src))
                    if state.owner[d] < 0 and state.terrain[d] != "M"]
        return out

    @staticmethod
    def _any_moves(state: State, seat: int) -> bool:
        return any(destinations(state, seat, src) for src in movable_sources(state, seat))

    def _move(self, state: State, seat: int) -> A.Action:
        if state.steps_left <= 0:
            return A.EndMove()
        rng = self.rng
        moves = self._spread_moves(state, seat)
        if moves:
            return A.MoveToken(*rng.choice(moves))
        if not state.touched:  # nothing moved yet in this action: move something
            anywhere = [(src, d) for src in movable_sources(state, seat)
                        for d in sorted(destinations(state, seat, src))]
            if anywhere:
                return A.MoveToken(*rng.choice(anywhere))
        return A.EndMove()
