"""Positions for every decision kind (for help, hint and wording tests)."""

from __future__ import annotations

from functools import cache

from engine import actions as A
from engine import game as G
from engine.game import apply, decisions
from engine.state import State
from tests.bot.helpers import random_states
from tests.engine.helpers import H, card, make_state

# Blue (seat 1) holds 4 far-away hexes so that it is not protected (R-COMBAT-2).
BLUE_FAR = {"K2": (1, 1), "K4": (1, 1), "K6": (1, 1), "K8": (1, 1)}


def combat_positions() -> dict[str, tuple[State, int]]:
    """Red (3 tokens on E5) attacks Blue's city of value 2 on F5: the defender names the
    terrain, the attacker picks cards, the defender answers, Red wins and moves in."""
    wea_f, for_g, edu_w = card("WEA", "F"), card("FOR", "G"), card("EDU", "W")
    s = make_state(tokens={"E5": (0, 3), **BLUE_FAR}, cities={"F5": (1, 2)},
                   hands={0: [wea_f, edu_w], 1: [for_g]})
    out: dict[str, tuple[State, int]] = {}
    s, _ = apply(s, 0, A.Attack(H("E5"), H("F5")))
    out[G.NAME_CITY_TERRAIN] = (s, 1)
    s, _ = apply(s, 1, A.NameCityTerrain("F"))
    out[G.ATTACK_CARDS] = (s, 0)
    s, _ = apply(s, 0, A.CommitAttackCards((wea_f,)))
    out[G.DEFEND_CARDS] = (s, 1)
    s, _ = apply(s, 1, A.DefendCards(()))
    assert decisions(s)[0].kind == G.OCCUPY
    out[G.OCCUPY] = (s, 0)
    return out


def won_fight(rules_version: int, hand: list[int]) -> State:
    """R-COMBAT-8: Red (City building, stack limit 3) attacks Blue's single token on F5
    from 4 tokens on E5, wins, and is to move in, holding ``hand``."""
    s = make_state(tokens={"E5": (0, 4), "F5": (1, 1), **BLUE_FAR}, hands={0: hand},
                   eras={0: 3}, rules_version=rules_version)
    s, _ = apply(s, 0, A.Attack(H("E5"), H("F5")))
    s, _ = apply(s, 0, A.CommitAttackCards(()))
    assert decisions(s)[0].kind == G.OCCUPY and decisions(s)[0].seat == 0
    return s


@cache
def by_kind() -> dict[str, tuple[State, int]]:
    """One (state, seat owing that decision) per engine decision kind."""
    out = combat_positions()
    for seed, random_map in ((1, True), (2, False), (3, True)):
        for st in random_states(seed, 3, random_map=random_map):
            for d in decisions(st):
                out.setdefault(d.kind, (st, d.seat))
    return out


ALL_KINDS = (G.PLACE_TILE, G.PLACE_START_TOKEN, G.TURN, G.MOVING, G.GROWING,
             G.NAME_CITY_TERRAIN, G.ATTACK_CARDS, G.DEFEND_CARDS, G.OCCUPY, G.DISCARDING,
             G.PROGRESS_CARDS)


def shuffle_hidden(state: State, seat: int, seed: int) -> State:
    """The same position as ``seat`` sees it, with everything hidden from that seat dealt
    differently: other hands, the deck order, face-down attack cards, others' progress
    choices (R-INFO-1..3). ``view(result, seat) == view(state, seat)``."""
    import random

    s = state.copy()
    rng = random.Random(seed)
    slots: list[tuple[list[int], int]] = []  # (list, length) to refill in place
    for i, p in enumerate(s.players):
        if i != seat:
            slots.append((p.hand, len(p.hand)))
    slots.append((s.deck, len(s.deck)))
    c = s.combat
    if (c is not None and c.attack_cards is not None and c.defend_cards is None
            and seat != c.attacker):
        slots.append((c.attack_cards, len(c.attack_cards)))
    for other, cards in s.progress_choices.items():
        if other != seat:
            slots.append((cards, len(cards)))
    pool = [x for cards, _ in slots for x in cards]
    before = list(pool)
    for _ in range(10):
        rng.shuffle(pool)
        if pool != before or len(set(pool)) < 2:
            break
    i = 0
    for cards, n in slots:
        cards[:] = pool[i:i + n]
        i += n
    return s
