"""Legal actions per seat: every action :func:`engine.game.apply` accepts now.

Card subsets (attack, defence, progress, discard) are listed in full; hands hold at most
seven cards, so that is at most 128 choices.
"""

from __future__ import annotations

from itertools import combinations

from . import actions as A
from .combat import attack_targets, leader_cards, max_occupy
from .content import TERRAINS
from .game import DecisionKind as K
from .game import decision_for
from .movement import Reach, movable_sources
from .pieces import card_type
from .setup import legal_tile_centres, start_token_hexes
from .state import State
from .turn import (
    city_sites,
    grow_hexes,
    religion_targets,
    sanitation_at_occupy,
    sanitation_hexes,
)


def subsets(cards: list[int]) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for k in range(len(cards) + 1):
        out.extend(combinations(cards, k))
    return out


def cards_of(state: State, seat: int, kind: str) -> list[int]:
    return [c for c in state.players[seat].hand if card_type(c) == kind]


def card_plays(state: State, seat: int) -> list[A.Action]:
    """Religion and Sanitation plays (allowed in the MAIN, MOVE and GROW stages)."""
    out: list[A.Action] = []
    for card in cards_of(state, seat, "REL"):
        out.extend(A.PlayReligion(card, t, own) for t, own in religion_targets(state, seat))
    san = cards_of(state, seat, "SAN")
    if san:
        hexes = sanitation_hexes(state, seat)
        for card in san:
            out.extend(A.PlaySanitation(card, h) for h in hexes)
    return out


def legal_actions(state: State, seat: int) -> list[A.Action]:
    d = decision_for(state, seat)
    if d is None:
        return []
    kind = d.kind
    hand = state.players[seat].hand
    if kind == K.PLACE_TILE:
        return [A.PlaceTile(h, r) for h in legal_tile_centres(state.terrain) for r in range(6)]
    if kind == K.PLACE_START_TOKEN:
        return [A.PlaceStartToken(h) for h in start_token_hexes(state, seat)]
    if kind == K.TURN:
        out: list[A.Action] = []
        if state.turn_actions > 0:
            out += [A.BeginMove(), A.BeginGrow(), A.DrawCards()]
            targets = attack_targets(state, seat)
            out += [A.Attack(s, t) for s, t in targets]
            out += [A.BuildCity(h, v) for h, v in city_sites(state, seat)]
        else:
            out.append(A.EndTurn())
            targets = attack_targets(state, seat) if leader_cards(state, seat) else []
        for card in leader_cards(state, seat):
            out += [A.Attack(s, t, card) for s, t in targets]
        for card in cards_of(state, seat, "GOV"):
            if state.players[seat].markers > state.turn_actions:
                out.append(A.PlayGovernment(card, "double"))
            if not state.acted and state.turn_actions == 1:
                out.append(A.PlayGovernment(card, "pass"))
        return out + card_plays(state, seat)
    if kind == K.MOVING:
        out = [A.EndMove()]
        if state.steps_left > 0:
            reach = Reach(state, seat)
            for src in movable_sources(state, seat):
                out += [A.MoveToken(src, dst) for dst in sorted(reach.destinations(src))]
        out += [A.PlayTransport(c) for c in cards_of(state, seat, "TRA")]
        return out + card_plays(state, seat)
    if kind == K.GROWING:
        out = [A.EndGrow()]
        if state.steps_left > 0:
            out += [A.GrowToken(h) for h in grow_hexes(state, seat)]
        out += [A.PlayHealthCare(c) for c in cards_of(state, seat, "HEA")]
        return out + card_plays(state, seat)
    if kind == K.NAME_CITY_TERRAIN:
        return [A.NameCityTerrain(t) for t in TERRAINS]
    if kind == K.ATTACK_CARDS:
        return [A.CommitAttackCards(s) for s in subsets(hand)]
    if kind == K.DEFEND_CARDS:
        return [A.DefendCards(s) for s in subsets(hand)]
    if kind == K.OCCUPY:
        out = [A.Occupy(n) for n in range(max_occupy(state) + 1)]
        if sanitation_at_occupy(state) and state.combat is not None:  # R-CARD-SAN, rules 2
            dst = state.combat.dst
            out += [A.PlaySanitation(c, dst) for c in cards_of(state, seat, "SAN")]
        return out
    if kind == K.DISCARDING:
        return [A.Discard(s) for s in combinations(hand, state.discards[seat])]
    assert kind == K.PROGRESS_CARDS
    return [A.ProgressCards(s) for s in subsets(hand)]
