"""Legal actions per seat: every action :func:`engine.game.apply` accepts now.

Card subsets (attack, defence, progress, discard) are listed in full; hands hold at most
seven cards, so that is at most 128 choices.
"""

from __future__ import annotations

from collections.abc import Iterator
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
    return list(iter_legal_actions(state, seat))


def only_action(state: State, seat: int) -> A.Action | None:
    """The legal action when ``seat`` has exactly one, else None (also when it has no
    decision). Cheaper than counting :func:`legal_actions`: it stops at the second
    action, before the costly kinds (attacks, card plays on every hex) are listed."""
    first = None
    for i, action in enumerate(iter_legal_actions(state, seat)):
        if i:
            return None
        first = action
    return first


def iter_legal_actions(state: State, seat: int) -> Iterator[A.Action]:
    """The actions of :func:`legal_actions`, in the same order, one at a time."""
    d = decision_for(state, seat)
    if d is None:
        return
    kind = d.kind
    hand = state.players[seat].hand
    if kind == K.PLACE_TILE:
        yield from (A.PlaceTile(h, r) for h in legal_tile_centres(state.terrain)
                    for r in range(6))
        return
    if kind == K.PLACE_START_TOKEN:
        yield from (A.PlaceStartToken(h) for h in start_token_hexes(state, seat))
        return
    if kind == K.TURN:
        if state.turn_actions > 0:
            yield from (A.BeginMove(), A.BeginGrow(), A.DrawCards())
            targets = attack_targets(state, seat)
            yield from (A.Attack(s, t) for s, t in targets)
            yield from (A.BuildCity(h, v) for h, v in city_sites(state, seat))
        else:
            yield A.EndTurn()
            targets = attack_targets(state, seat) if leader_cards(state, seat) else []
        for card in leader_cards(state, seat):
            yield from (A.Attack(s, t, card) for s, t in targets)
        for card in cards_of(state, seat, "GOV"):
            if state.players[seat].markers > state.turn_actions:
                yield A.PlayGovernment(card, "double")
            if not state.acted and state.turn_actions == 1:
                yield A.PlayGovernment(card, "pass")
        yield from card_plays(state, seat)
        return
    if kind == K.MOVING:
        yield A.EndMove()
        if state.steps_left > 0:
            reach = Reach(state, seat)
            for src in movable_sources(state, seat):
                yield from (A.MoveToken(src, dst) for dst in sorted(reach.destinations(src)))
        yield from (A.PlayTransport(c) for c in cards_of(state, seat, "TRA"))
        yield from card_plays(state, seat)
        return
    if kind == K.GROWING:
        yield A.EndGrow()
        if state.steps_left > 0:
            yield from (A.GrowToken(h) for h in grow_hexes(state, seat))
        yield from (A.PlayHealthCare(c) for c in cards_of(state, seat, "HEA"))
        yield from card_plays(state, seat)
        return
    if kind == K.NAME_CITY_TERRAIN:
        yield from (A.NameCityTerrain(t) for t in TERRAINS)
        return
    if kind == K.ATTACK_CARDS:
        yield from (A.CommitAttackCards(s) for s in subsets(hand))
        return
    if kind == K.DEFEND_CARDS:
        yield from (A.DefendCards(s) for s in subsets(hand))
        return
    if kind == K.OCCUPY:
        yield from (A.Occupy(n) for n in range(max_occupy(state) + 1))
        if sanitation_at_occupy(state) and state.combat is not None:  # R-CARD-SAN, rules 2
            dst = state.combat.dst
            yield from (A.PlaySanitation(c, dst) for c in cards_of(state, seat, "SAN"))
        return
    if kind == K.DISCARDING:
        yield from (A.Discard(s) for s in combinations(hand, state.discards[seat]))
        return
    assert kind == K.PROGRESS_CARDS
    yield from (A.ProgressCards(s) for s in subsets(hand))
