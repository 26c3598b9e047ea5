"""``normal``'s fights (R-COMBAT): what an attack is worth, which cards to commit to one
as attacker or defender, the terrain to name for a city, and how many tokens move in.

A card choice plays the cheapest set of useful cards that is worth its chance: the other
side's cards are estimated from random hands of the cards the seat has not seen
(:mod:`engine.ai.tactics`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ... import actions as A
from ...combat import max_occupy
from ...content import TERRAINS
from ...state import State
from ...turn import sanitation_at_occupy
from ..evaluate import Evaluator
from ..tactics import (
    CARDS,
    beat_chance,
    contribution,
    contributions,
    ordered_useful,
    sample_sums,
    unseen_for,
)

if TYPE_CHECKING:
    from .player import NormalPlayer, Scored


# ---------------------------------------------------------------------- outcomes
def win_state(player: NormalPlayer, state: State, seat: int, ev: Evaluator, src: int,
              dst: int) -> float:
    """Worth after winning the attack from ``src`` on ``dst`` and moving in the best
    number of tokens (R-COMBAT-8). A stack's hex is re-scored around the two hexes
    only (:meth:`Evaluator.changed`); the answer is kept for the decision."""
    key = (0, src, dst)
    memo = player.decision.fights
    if key in memo:
        return memo[key]
    if state.city_owner[dst] >= 0:
        memo[key] = v = win_state_full(state, seat, ev, src, dst)
        return v
    snap = player.decision.root_snapshot(state, ev)
    owner, count = state.owner, state.count
    d, cd, a0 = owner[dst], count[dst], count[src]
    before = ((seat, a0), (d, cd))
    state.players[d].supply += cd
    owner[dst], count[dst] = -1, 0
    best = ev.rel(ev.changed(state, snap, (src, dst), before), seat)
    most = min(a0, state.stack_limit(seat, dst))
    for k in range(1, most + 1):
        count[src] = a0 - k
        owner[src] = seat if a0 > k else -1
        count[dst], owner[dst] = k, seat
        best = max(best, ev.rel(ev.changed(state, snap, (src, dst), before), seat))
    owner[src], count[src] = seat, a0
    owner[dst], count[dst] = d, cd
    state.players[d].supply -= cd
    memo[key] = best
    return best


def win_state_full(state: State, seat: int, ev: Evaluator, src: int, dst: int) -> float:
    """:func:`win_state` on a copy of the position, evaluated in full (a city's fall
    changes more than the hexes around it)."""
    s = state.copy()
    d = s.owner[dst] if s.owner[dst] >= 0 else s.city_owner[dst]
    if s.city_owner[dst] >= 0:
        s.players[d].cities.append(s.city_value[dst])
        s.city_owner[dst] = -1
        s.city_value[dst] = 0
    else:
        s.players[d].supply += s.count[dst]
        s.count[dst] = 0
        s.owner[dst] = -1
    snap = ev.snapshot(s)
    best = ev.rel(ev.values(s, snap), seat)
    most = min(s.count[src], s.stack_limit(seat, dst))
    for _ in range(most):
        before = ((seat, s.count[src]), (s.owner[dst], s.count[dst]))
        s.count[src] -= 1
        if s.count[src] == 0:
            s.owner[src] = -1
        s.count[dst] += 1
        s.owner[dst] = seat
        # one token more moved in: the same snapshot a fresh pass would build
        snap = ev.after(s, snap, (src, dst), before)
        best = max(best, ev.rel(ev.values(s, snap), seat))
    return best


def lose_state(player: NormalPlayer, state: State, seat: int, ev: Evaluator,
               src: int) -> float:
    """Worth after losing an attack from ``src`` (one token back to the supply)."""
    key = (1, src, src)
    memo = player.decision.fights
    if key in memo:
        return memo[key]
    snap = player.decision.root_snapshot(state, ev)
    owner, count = state.owner, state.count
    a0 = count[src]
    count[src] = a0 - 1
    if a0 == 1:
        owner[src] = -1
    state.players[seat].supply += 1
    v = ev.rel(ev.changed(state, snap, (src,), ((seat, a0),)), seat)
    state.players[seat].supply -= 1
    owner[src], count[src] = seat, a0
    memo[key] = v
    return v


# ---------------------------------------------------------------------- attacking
def attack_value(player: NormalPlayer, state: State, seat: int, ev: Evaluator, src: int,
                 dst: int, worth: dict[int, float], leader: int | None
                 ) -> tuple[float, tuple[int, ...]]:
    """Expected worth of attacking ``dst`` from ``src`` and the cards to commit
    (``leader``, if given, is the Leader card the attack is played with)."""
    city = state.city_owner[dst] >= 0
    d = state.city_owner[dst] if city else state.owner[dst]
    terrain = None if city else state.terrain[dst]
    a0 = state.count[src]
    d0 = state.city_value[dst] if city else state.count[dst]
    hand = [c for c in state.players[seat].hand if c != leader]
    options = attack_options(player, state, seat, ev, src, dst, d, terrain, a0, d0, hand,
                             worth)
    return max(options, key=lambda x: x[0])


def attack_options(player: NormalPlayer, state: State, seat: int, ev: Evaluator, src: int,
                   dst: int, d: int, terrain: str | None, a0: int, d0: int, hand: list[int],
                   worth: dict[int, float]) -> list[tuple[float, tuple[int, ...]]]:
    """Expected worth of committing each prefix of the useful attack cards.

    The defender is assumed to add every helpful card of a random hand of its size
    (pessimistic: it may hold back)."""
    pool = player.decision.unseen(state, seat)
    k = len(state.players[d].hand)
    dscore = contributions(terrain, True)
    dsamples = sample_sums(pool, k, dscore, player.rng, player.samples)
    ascore = contributions(terrain, False)
    useful = ordered_useful(hand, ascore, worth)
    v_win = win_state(player, state, seat, ev, src, dst)
    v_lose = lose_state(player, state, seat, ev, src)
    out = []
    strength = a0
    cost = 0.0
    for j in range(len(useful) + 1):
        if j:
            strength += ascore[useful[j - 1]]
            cost += worth[useful[j - 1]]
        p = beat_chance(strength, [d0 + x for x in dsamples], strictly=True)
        out.append((p * v_win + (1 - p) * v_lose - cost, tuple(sorted(useful[:j]))))
    return out


def attack_cards(player: NormalPlayer, state: State, seat: int) -> Scored:
    c = state.combat
    assert c is not None
    ev = player.evaluator(state)
    worth = player.worths(state, seat, ev)
    a0 = state.count[c.src]
    d0 = state.city_value[c.dst] if c.city else state.count[c.dst]
    hand = list(state.players[seat].hand)
    options = attack_options(player, state, seat, ev, c.src, c.dst, c.defender, c.terrain,
                             a0, d0, hand, worth)
    return [(v, A.CommitAttackCards(cards)) for v, cards in options]


def occupy(player: NormalPlayer, state: State, seat: int) -> Scored:
    c = state.combat
    assert c is not None
    ev = player.evaluator(state)
    out: Scored = []
    s = state.copy()
    for n in range(max_occupy(state) + 1):
        if n:
            s.count[c.src] -= 1
            if s.count[c.src] == 0:
                s.owner[c.src] = -1
            s.count[c.dst] += 1
            s.owner[c.dst] = seat
        out.append((ev.relative(s, seat), A.Occupy(n)))
    sans = [x for x in state.players[seat].hand if CARDS[x].type == "SAN"]
    if sans and sanitation_at_occupy(state) and s.count[c.src] > 0:
        # R-CARD-SAN / R-COMBAT-8: one more token may move in after a Sanitation
        worth = player.worths(state, seat, ev)
        card = min(sans, key=lambda x: worth[x])
        s.count[c.src] -= 1
        if s.count[c.src] == 0:
            s.owner[c.src] = -1
        s.count[c.dst] += 1
        s.owner[c.dst] = seat
        out.append((ev.relative(s, seat) - worth[card], A.PlaySanitation(card, c.dst)))
    return out


# ---------------------------------------------------------------------- defending
def defend_cards(player: NormalPlayer, state: State, seat: int) -> Scored:
    c = state.combat
    assert c is not None and c.attack_cards is not None
    ev = player.evaluator(state)
    worth = player.worths(state, seat, ev)
    hand = list(state.players[seat].hand)
    a0 = state.count[c.src]
    d0 = state.city_value[c.dst] if c.city else state.count[c.dst]
    k = len(c.attack_cards)  # public count; the cards themselves are face down
    pool = unseen_for(state, seat)
    ascore = contributions(c.terrain, False)
    likely = [x for x in pool if ascore[x] > 0] or pool
    asamples = [a0 + x for x in sample_sums(likely, k, ascore, player.rng, player.samples)]
    # what holding is worth: the attacker loses a token; losing costs the hex
    hold = state.copy()
    hold.count[c.src] -= 1
    if hold.count[c.src] == 0:
        hold.owner[c.src] = -1
    v_hold = ev.relative(hold, seat)
    lose = state.copy()
    if c.city:
        lose.city_owner[c.dst] = -1
        lose.city_value[c.dst] = 0
    else:
        lose.players[seat].supply += lose.count[c.dst]
        lose.count[c.dst] = 0
        lose.owner[c.dst] = -1
    v_lose = ev.relative(lose, seat)
    dscore = {x: contribution(x, c.terrain, True) for x in hand}
    useful = ordered_useful(hand, dscore, worth)
    out: Scored = []
    strength = d0
    cost = 0.0
    for j in range(len(useful) + 1):
        if j:
            strength += dscore[useful[j - 1]]
            cost += worth[useful[j - 1]]
        # ties go to the defender (R-COMBAT-7)
        p = sum(1 for a in asamples if strength >= a) / len(asamples)
        out.append((p * v_hold + (1 - p) * v_lose - cost,
                    A.DefendCards(tuple(sorted(useful[:j])))))
    return out


def city_terrain(player: NormalPlayer, state: State, seat: int) -> Scored:
    """The terrain an attacked city counts as (R-COMBAT-4): the one where the defender's
    own hand adds most against the attacker's likely cards."""
    c = state.combat
    assert c is not None
    hand = state.players[seat].hand
    pool = unseen_for(state, seat)
    k = len(state.players[c.attacker].hand)
    out: Scored = []
    for t in TERRAINS:
        mine = sum(contribution(x, t, True) for x in hand)
        samples = sample_sums(pool, k, contributions(t, False), player.rng, 16, best_of=3)
        theirs = sum(samples) / len(samples)
        out.append((mine - theirs, A.NameCityTerrain(t)))
    return out
