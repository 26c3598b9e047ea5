"""The ``easy`` computer player: quick rules of thumb with a lot of randomness.

No lookahead and no evaluation: it grows where it can, spreads out from its stacks (and,
with no room to grow, walks a token to free grassland), builds a city now and then, draws
cards otherwise, rarely attacks and plays secret cards simply. About half of the decisions
of its own turn (:data:`RANDOM_SHARE`: which action, and each step of a Move or a Growth)
are instead a random useful move, as a newcomer trying things out would make: it never
takes an action that does nothing while a useful one exists (:mod:`.useful`).

It is what a table of newcomers plays against, so it must be beatable: a scripted
newcomer who takes the hint's move every other decision and a random useful move
otherwise (:mod:`.newcomer`) wins more than half of its games against two of it
(``python -m engine.ai newcomer``; the numbers are in docs/computer-players.md). Without
the random half the newcomer won about half of them, and only because half of the
``easy`` seats stopped playing early: a player whose tokens stood on no grassland and
in no stack drew cards for the rest of the game; the walk to grassland ends that.
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
from . import random_choice
from .tactics import contribution, progress_contribution
from .useful import useful_actions

#: the share of the decisions of its own turn (the action, each step of a Move or a
#: Growth) that ``easy`` takes at random among the useful actions, not by its rules of
#: thumb: with 0.5 the scripted newcomer of :mod:`.newcomer` (the hint every other
#: decision) wins more than half of its games against two ``easy``; card choices,
#: start tokens and the rest keep the rules, so that its fights and progress still look
#: sensible
RANDOM_SHARE = 0.5
#: the decisions :data:`RANDOM_SHARE` applies to
RANDOM_KINDS = (K.TURN, K.MOVING, K.GROWING)


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
        if kind in RANDOM_KINDS and rng.random() < RANDOM_SHARE:
            return random_choice(useful_actions(state, seat, legal), rng)
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
        only with a token to spread out (or, with no room to grow, to walk to free
        grassland), a Growth only with room to grow, drawing only when there are cards to
        draw."""
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
        can_grow = bool(grow_hexes(state, seat))
        if can_grow:
            options += [A.BeginGrow()] * 3
        if self._spread_moves(state, seat) or (not can_grow and self._walks(state, seat)):
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
    def _walks(state: State, seat: int) -> list[tuple[int, int]]:
        """Moves of any token onto free grassland, where it can grow next: the way on for
        a player with no room to grow (else it would draw cards for the rest of the game)."""
        out = []
        for src in movable_sources(state, seat):
            out += [(src, d) for d in sorted(destinations(state, seat, src))
                    if state.owner[d] < 0 and state.terrain[d] == "G"]
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
        if not grow_hexes(state, seat):
            walks = self._walks(state, seat)
            if walks:
                return A.MoveToken(*rng.choice(walks))
        if not state.touched:  # nothing moved yet in this action: move something
            anywhere = [(src, d) for src in movable_sources(state, seat)
                        for d in sorted(destinations(state, seat, src))]
            if anywhere:
                return A.MoveToken(*rng.choice(anywhere))
        return A.EndMove()
