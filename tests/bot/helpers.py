"""Shared helpers for the bot tests: random positions, a collecting sink, panel walking."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations

from bot.table.service import Outcome
from engine import actions as A
from engine.game import apply_in_place, decisions
from engine.setup import new_game
from engine.simulate import random_action
from engine.state import State
from games.controls import ACT, CARDS, MENU, Button, Panel, Select
from games.tempus import panels
from games.tempus.codec import decode_actions


class CollectSink:
    """A sink that keeps every announced outcome."""

    def __init__(self) -> None:
        self.outcomes: list[Outcome] = []

    async def publish(self, outcome: Outcome) -> None:
        self.outcomes.append(outcome)


def random_states(seed: int, players: int = 3, *, random_map: bool = True,
                  every: int = 1) -> Iterator[State]:
    """The positions of one random game (every ``every``-th one)."""
    state, _ = new_game(players, seed, random_map=random_map)
    rng = random.Random(seed)
    i = 0
    while decisions(state):
        if i % every == 0:
            yield state.copy()
        seat = rng.choice(decisions(state)).seat
        apply_in_place(state, seat, random_action(state, seat, rng))
        i += 1


CARD_KIND_ACTIONS = {
    "attack_cards": A.CommitAttackCards,
    "defend_cards": A.DefendCards,
    "discard": A.Discard,
    "progress_cards": A.ProgressCards,
}


def first_step(value: str) -> A.Action:
    """The action a control makes first: a last token's "... and stop moving" makes the
    step, then ends the action (R-INFO-4), so the step is reachable through it."""
    return decode_actions(value)[0]


def reachable(state: State, seat: int, panel: Panel, depth: int = 0) -> set[A.Action]:
    """Every action a player can reach from ``panel`` by clicking through its menus."""
    out: set[A.Action] = set()
    if depth > 8:
        return out
    for c in panel.controls():
        if isinstance(c, Button):
            if c.op == ACT:
                out.add(first_step(c.arg))
            elif c.op == MENU:
                out |= _menu(state, seat, c.arg, depth)
            elif c.op == CARDS:
                out.add(CARD_KIND_ACTIONS[c.arg](()))
        elif isinstance(c, Select):
            values = [o.value for o in c.options]
            if c.op == ACT:
                out |= {first_step(v) for v in values}
            elif c.op == MENU:
                for v in values:
                    out |= _menu(state, seat, f"{c.arg}:{v}", depth)
            elif c.op == CARDS:
                cards = [int(v) for v in values]
                for k in range(c.min_values, c.max_values + 1):
                    for combo in combinations(cards, k):
                        out.add(CARD_KIND_ACTIONS[c.arg](tuple(sorted(combo))))
    return out


def _menu(state: State, seat: int, spec: str, depth: int) -> set[A.Action]:
    if spec.startswith("tile:") and depth > 6:
        return set()
    try:
        sub = panels.menu(state, seat, spec)
    except panels.MenuError:
        return set()
    return reachable(state, seat, sub, depth + 1)


#: the actions whose one field is a list of cards, in any order
CARD_LISTS = (A.CommitAttackCards, A.DefendCards, A.Discard, A.ProgressCards)


def normalise(action: A.Action) -> A.Action:
    """Card lists compare as sets."""
    if isinstance(action, CARD_LISTS):
        return type(action)(tuple(sorted(action.cards)))
    return action
