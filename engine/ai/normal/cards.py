"""``normal``'s choices of cards outside combat: what to discard (R-DRAW-2), which cards to
play in a progress phase (R-PROG), and what a Religion card gains (R-CARD-REL)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ... import actions as A
from ...content import CONTENT
from ...hexgrid import NUM_HEXES
from ...progress import new_era_index
from ...state import State
from ..evaluate import Evaluator, progress_prize
from ..tactics import beat_chance, ordered_useful, progress_contribution, unseen_for

if TYPE_CHECKING:
    from .player import NormalPlayer, Scored


def discard(player: NormalPlayer, state: State, seat: int) -> Scored:
    ev = player.evaluator(state)
    worth = player.worths(state, seat, ev)
    owed = state.discards[seat]
    hand = sorted(state.players[seat].hand, key=lambda c: (worth[c], c))
    cheapest = tuple(sorted(hand[:owed]))
    out: Scored = [(0.0, A.Discard(cheapest))]
    if owed < len(hand):
        alt = tuple(sorted(hand[1:owed + 1]))
        out.append((-0.1, A.Discard(alt)))
    return out


def progress_cards(player: NormalPlayer, state: State, seat: int) -> Scored:
    """R-PROG-2/3: the cheapest set of cards worth its chance of winning the era."""
    ev = player.evaluator(state)
    worth = player.worths(state, seat, ev)
    new = new_era_index(state)
    terrain = CONTENT.eras[new].terrain
    prize = progress_prize(new)
    if CONTENT.eras[new].final:
        # the game ends after this phase: a kept card only counts in a tie (R-END-3)
        worth = {c: 0.05 for c in worth}
    n = state.num_players
    base = [0] * n
    for h in range(NUM_HEXES):
        o = state.owner[h]
        if o >= 0 and state.terrain[h] == terrain:
            base[o] += state.count[h]
        co = state.city_owner[h]
        if co >= 0:
            base[co] += CONTENT.city_progress
    pool = unseen_for(state, seat)
    pscore = {c: progress_contribution(c, terrain) for c in pool}
    submitted = [s for s in state.progress_choices if s != seat]
    hidden_played = len(pool) - len(state.deck) - sum(
        len(state.players[s].hand) for s in range(n) if s != seat)
    per_submitted = hidden_played / len(submitted) if submitted else 0.0
    samples = []
    rng = player.rng
    for _ in range(player.samples):
        best_other = 0
        for o in range(n):
            if o == seat:
                continue
            if o in submitted:
                k = int(per_submitted + rng.random())
                add = sum(pscore[x] for x in rng.sample(pool, min(k, len(pool))))
            else:
                k = len(state.players[o].hand)
                cand = rng.sample(pool, min(k, len(pool)))
                full = sum(pscore[x] for x in cand)
                rivals = max(base[x] for x in range(n) if x != o)
                add = full if base[o] + full >= rivals else 0
            best_other = max(best_other, base[o] + add)
        samples.append(best_other)
    hand = state.players[seat].hand
    mscore = {c: progress_contribution(c, terrain) for c in hand}
    useful = ordered_useful(hand, mscore, worth)
    out: Scored = []
    pts = base[seat]
    cost = 0.0
    for j in range(len(useful) + 1):
        if j:
            pts += mscore[useful[j - 1]]
            cost += worth[useful[j - 1]]
        p = beat_chance(pts, samples, strictly=False)  # ties advance too (R-PROG-5)
        out.append((p * prize - cost, A.ProgressCards(tuple(sorted(useful[:j])))))
    return out


def religion_gain(player: NormalPlayer, state: State, seat: int, ev: Evaluator, t: int,
                  own: int, base: float) -> float:
    """How much converting a token on ``t`` into one more on ``own`` gains over ``base``,
    the worth of the decision's position."""
    s = state.copy()
    victim = s.owner[t]
    before = ((victim, s.count[t]), (s.owner[own], s.count[own]))
    s.count[t] -= 1
    if s.count[t] == 0:
        s.owner[t] = -1
    s.players[victim].supply += 1
    s.count[own] += 1
    s.players[seat].supply -= 1
    # the converted position's snapshot, exactly as a fresh pass would build it
    snap = ev.after(s, player.decision.root_snapshot(state, ev), (t, own), before)
    return ev.rel(ev.values(s, snap), seat) - base
