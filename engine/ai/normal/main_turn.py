"""``normal``'s choice of what to do in its turn: draw, grow, move, build a city or
attack, and the cards it may play for free besides (R-ROUND-2, R-CARD).

Growth and Move are scored by their whole greedy plan (:mod:`.movement`), whose steps
are remembered so that the action plays them without scoring them again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ... import actions as A
from ...combat import attack_targets, leader_cards
from ...state import State
from ...turn import city_sites, religion_targets
from ..evaluate import Evaluator
from ..tactics import CARDS
from .cards import religion_gain
from .fights import attack_value
from .movement import grow_plan, move_plan, sanitation_for_growth

if TYPE_CHECKING:
    from .player import NormalPlayer, Scored


def turn(player: NormalPlayer, state: State, seat: int) -> Scored:
    player.planned.clear()  # plans are for this turn only
    ev = player.evaluator(state)
    root = player.decision.root_snapshot(state, ev)
    base = ev.rel(ev.values(state, root), seat)
    worth = player.worths(state, seat, ev)
    out: Scored = []
    main_gain = 0.0
    if state.turn_actions > 0:
        era = state.era(seat)
        p = state.players[seat]
        # Idea (R-DRAW): cards up to the hand limit are worth their keep
        k = len(p.hand)
        draw_v = base + ev.hand_value(k + era.draw, era.limit) - ev.hand_value(k, era.limit)
        # a choice of cards to keep is worth a little
        draw_v += player.tactics.draw_choice * era.draw
        out.append((draw_v, A.DrawCards()))
        grow_v, grow_steps = grow_plan(state, seat, ev, era.growth, root)
        if grow_v is not None:
            out.append((grow_v, A.BeginGrow()))
            player.planned.remember_growth(state, seat, grow_steps)
        move_v, move_steps = move_plan(state, seat, ev, era.move, player.move_width, root, base)
        if move_v is not None:
            player.planned.remember_moves(state, seat, move_steps)
        out.append((move_v if move_v is not None else base - 0.01, A.BeginMove()))
        for h, v in city_sites(state, seat):
            out.append((city_value(player, state, seat, ev, h, v), A.BuildCity(h, v)))
        for src, dst in attack_targets(state, seat):
            val, _ = attack_value(player, state, seat, ev, src, dst, worth, None)
            out.append((val, A.Attack(src, dst)))
        main_gain = max(v for v, _ in out) - base
    else:
        out.append((base, A.EndTurn()))
    after = base + main_gain  # where the turn ends up without free plays
    # Leader (R-CARD-LEA): a free attack, taken when worth more than the card
    leaders = leader_cards(state, seat)
    if leaders:
        card = min(leaders, key=lambda c: worth[c])
        for src, dst in attack_targets(state, seat):
            val, _ = attack_value(player, state, seat, ev, src, dst, worth, card)
            out.append((after + (val - base) - worth[card], A.Attack(src, dst, card)))
    # Religion (R-CARD-REL)
    rels = [c for c in state.players[seat].hand if CARDS[c].type == "REL"]
    if rels:
        card = min(rels, key=lambda c: worth[c])
        for t, own in religion_targets(state, seat):
            gain = religion_gain(player, state, seat, ev, t, own, base)
            out.append((after + gain - worth[card], A.PlayReligion(card, t, own)))
    # Sanitation (R-CARD-SAN) to grow on a full grassland hex
    if state.turn_actions > 0:
        sans = [c for c in state.players[seat].hand if CARDS[c].type == "SAN"]
        if sans:
            card = min(sans, key=lambda c: worth[c])
            best = sanitation_for_growth(state, seat, ev)
            if best is not None:
                san_hex, san_worth = best
                out.append((max(after, san_worth) - worth[card] + 0.01,
                            A.PlaySanitation(card, san_hex)))
    return out


def city_value(player: NormalPlayer, state: State, seat: int, ev: Evaluator, h: int,
               v: int) -> float:
    """Worth of building a city of value ``v`` on ``h`` (R-CITY)."""
    s = state.copy()
    n = s.count[h]
    s.count[h] = 0
    s.owner[h] = -1
    s.bonus[h] = 0
    s.bonus_seat[h] = -1
    s.players[seat].supply += n
    s.players[seat].cities.remove(v)
    s.city_owner[h] = seat
    s.city_value[h] = v
    val = ev.relative(s, seat)
    # keep the big cities for big stacks: a value below the tokens spent wastes some
    return val - player.tactics.city_waste * (n - v)
