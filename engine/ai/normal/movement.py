"""``normal``'s Moves and Growths (R-MOVE, R-GROW): greedy plans that take the best single
step while one helps, and the choices inside a Move or Growth under way (the next step,
ending it, the cards that extend it).

The plans read only the position and the evaluator; the steps a plan scores are played
from the position's snapshot, re-scoring only the hexes a step changes
(:meth:`Evaluator.changed`).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from ... import actions as A
from ...hexgrid import NEIGHBOURS, NUM_HEXES
from ...movement import Reach
from ...state import State
from ...turn import grow_hexes, religion_targets
from ..evaluate import Evaluator, Snapshot
from ..tactics import CARDS
from .cards import religion_gain

if TYPE_CHECKING:
    from .player import NormalPlayer, Scored

#: the hexes a step changed and their (owner, count) before it
Change = tuple[tuple[int, ...], tuple[tuple[int, int], ...]]


# ---------------------------------------------------------------------- Move
def best_move(state: State, seat: int, ev: Evaluator, touched: dict[int, int], width: int,
              snap: Snapshot | None = None) -> tuple[float, int, int] | None:
    """The single best token move from the current position (value, src, dst)."""
    moves = scored_moves(state, seat, ev, touched, width, snap)
    return max(moves) if moves else None


def scored_moves(state: State, seat: int, ev: Evaluator, touched: dict[int, int], width: int,
                 snap: Snapshot | None = None) -> list[tuple[float, int, int]]:
    """Every considered token move with the worth of the position it leads to
    (``snap``, if given, is the position's snapshot).

    Destinations are pre-sorted by a cheap guess and only the best ``width`` per source
    are scored in full (sea travel offers dozens)."""
    out: list[tuple[float, int, int]] = []
    owner, count = state.owner, state.count
    if snap is None:
        snap = ev.snapshot(state)
    reach = Reach(state, seat)
    # a destination's guess does not depend on the source: one per hex and call
    guesses: dict[int, float] = {}

    def minus_guess(d: int) -> float:
        g = guesses.get(d)
        if g is None:
            g = guesses[d] = -destination_guess(state, ev, seat, d)
        return g

    for src in range(NUM_HEXES):
        if owner[src] != seat or count[src] - touched.get(src, 0) <= 0:
            continue
        dsts: Collection[int] = reach.destinations(src)
        if len(dsts) > width:
            dsts = sorted(dsts, key=minus_guess)[:width]
        for dst in dsts:
            before = ((seat, count[src]), (owner[dst], count[dst]))
            count[src] -= 1
            if count[src] == 0:
                owner[src] = -1
            owner[dst] = seat
            count[dst] += 1
            v = ev.rel(ev.changed(state, snap, (src, dst), before), seat)
            owner[src], count[src] = before[0]
            owner[dst], count[dst] = before[1]
            out.append((v, src, dst))
    return out


def destination_guess(state: State, ev: Evaluator, seat: int, dst: int) -> float:
    """A cheap first guess of how good a destination is (for pruning only)."""
    g = 0.3 * ev.is_next[dst] + 0.25 * ev.is_grass[dst]
    if state.owner[dst] < 0:
        g += ev.hexval[dst]
    for x in NEIGHBOURS[dst]:
        o = state.owner[x]
        if o >= 0 and o != seat:
            g -= 0.2 * state.count[x]
    return g


def move_plan(state: State, seat: int, ev: Evaluator, steps: int, width: int,
              snap: Snapshot | None = None, cur: float | None = None
              ) -> tuple[float | None, list[tuple[int, int]]]:
    """Greedy: move the best token while a move improves the position (``snap`` and
    ``cur``, if given, are the position's snapshot and relative worth)."""
    s = state.copy()
    touched: dict[int, int] = dict(state.touched) if state.stage == "move" else {}
    if cur is None:
        cur = ev.relative(s, seat)
    if snap is None:
        snap = ev.snapshot(s)
    plan: list[tuple[int, int]] = []
    last: Change | None = None
    for _ in range(steps):
        if last is not None:  # the position after the last step, from the one before
            snap = ev.after(s, snap, *last)
        best = best_move(s, seat, ev, touched, width, snap)
        if best is None or best[0] <= cur + 1e-6:
            break
        cur, src, dst = best
        last = (src, dst), ((seat, s.count[src]), (s.owner[dst], s.count[dst]))
        s.count[src] -= 1
        if s.count[src] == 0:
            s.owner[src] = -1
        s.owner[dst] = seat
        s.count[dst] += 1
        touched[dst] = touched.get(dst, 0) + 1
        plan.append((src, dst))
    return (cur if plan else None), plan


def moving(player: NormalPlayer, state: State, seat: int) -> Scored:
    """The next step of a Move under way, ending it, or a card that extends it."""
    ev = player.evaluator(state)
    root = player.decision.root_snapshot(state, ev)
    base = ev.rel(ev.values(state, root), seat)
    out: Scored = [(base, A.EndMove())]
    if state.steps_left > 0:
        moves = sorted(scored_moves(state, seat, ev, state.touched, player.move_width, root),
                       reverse=True)
        out += [(v, A.MoveToken(src, dst)) for v, src, dst in moves[:8]]
    worth = player.worths(state, seat, ev)
    tras = [c for c in state.players[seat].hand if CARDS[c].type == "TRA"]
    if tras and state.steps_left <= 0:
        card = min(tras, key=lambda c: worth[c])
        best = best_move(state, seat, ev, state.touched, player.move_width, root)
        if best is not None:
            out.append((best[0] - worth[card], A.PlayTransport(card)))
    rels = [c for c in state.players[seat].hand if CARDS[c].type == "REL"]
    if rels:
        card = min(rels, key=lambda c: worth[c])
        for t, own in religion_targets(state, seat):
            gain = religion_gain(player, state, seat, ev, t, own, base)
            out.append((base + gain - worth[card] + 0.02, A.PlayReligion(card, t, own)))
    return out


# ---------------------------------------------------------------------- Growth
def grow_values(state: State, seat: int, ev: Evaluator,
                snap: Snapshot | None = None) -> list[tuple[float, int]]:
    """(relative worth, hex) of growing one token on each hex where one may grow
    (``snap``, if given, is the position's snapshot)."""
    if snap is None:
        snap = ev.snapshot(state)
    out = []
    p = state.players[seat]
    for h in grow_hexes(state, seat):
        before = ((seat, state.count[h]),)
        state.count[h] += 1
        p.supply -= 1
        out.append((ev.rel(ev.changed(state, snap, (h,), before), seat), h))
        state.count[h] -= 1
        p.supply += 1
    return out


def grow_plan(state: State, seat: int, ev: Evaluator, steps: int,
              snap: Snapshot | None = None) -> tuple[float | None, list[int]]:
    """Greedy: grow on the best hex, step by step (``snap``, if given, is the
    position's snapshot)."""
    s = state.copy()
    if state.stage != "grow":
        s.touched = {}
    plan: list[int] = []
    cur = 0.0
    if snap is None:
        snap = ev.snapshot(s)
    last: Change | None = None
    for _ in range(steps):
        if last is not None:  # the position after the last step, from the one before
            snap = ev.after(s, snap, *last)
        options = grow_values(s, seat, ev, snap)
        if not options:
            break
        cur, h = max(options)
        last = (h,), ((seat, s.count[h]),)
        s.count[h] += 1
        s.players[seat].supply -= 1
        s.touched[h] = 1
        plan.append(h)
    return (cur if plan else None), plan


def sanitation_for_growth(state: State, seat: int,
                          ev: Evaluator) -> tuple[int, float] | None:
    """A full own grassland hex whose extra room makes Growth worth more (R-CARD-SAN),
    and the Growth's worth with it."""
    if state.players[seat].supply <= 0:
        return None
    era = state.era(seat)
    if len(grow_hexes(state, seat)) >= era.growth:
        return None
    best: tuple[int, float] | None = None
    for h in range(NUM_HEXES):
        if state.owner[h] == seat and state.terrain[h] == "G" and (
                state.count[h] >= state.stack_limit(seat, h)):
            saved = state.bonus[h], state.bonus_seat[h]
            state.bonus[h] = state.raise_for(seat, h) + 1  # as Sanitation would
            state.bonus_seat[h] = seat
            v = grow_plan(state, seat, ev, era.growth)[0]
            state.bonus[h], state.bonus_seat[h] = saved
            if v is not None and (best is None or v > best[1]):
                best = (h, v)
    return best


def growing(player: NormalPlayer, state: State, seat: int) -> Scored:
    """The next step of a Growth under way, ending it, or a card that extends it."""
    ev = player.evaluator(state)
    root = player.decision.root_snapshot(state, ev)
    base = ev.rel(ev.values(state, root), seat)
    out: Scored = [(base - 0.001, A.EndGrow())]
    if state.steps_left > 0:
        out += [(v, A.GrowToken(h)) for v, h in grow_values(state, seat, ev, root)]
    worth = player.worths(state, seat, ev)
    heas = [c for c in state.players[seat].hand if CARDS[c].type == "HEA"]
    if heas and state.steps_left <= 0 and grow_hexes(state, seat):
        card = min(heas, key=lambda c: worth[c])
        v = grow_plan(state, seat, ev, 1, root)[0]
        if v is not None:
            out.append((v - worth[card], A.PlayHealthCare(card)))
    sans = [c for c in state.players[seat].hand if CARDS[c].type == "SAN"]
    if sans and state.steps_left > 0 and not grow_hexes(state, seat):
        card = min(sans, key=lambda c: worth[c])
        best = sanitation_for_growth(state, seat, ev)
        if best is not None:
            out.append((best[1] - worth[card], A.PlaySanitation(card, best[0])))
    return out
