"""How often a newcomer would spend a card worth nothing in a fight or a progress phase,
with the card menus as they were (the hand's order, "+0 here") and as they are (useful
cards first, "worth nothing now", one card as two buttons with "no cards" highlighted).

A model, not people: in random games (``engine.simulate``), at every fight and progress
phase where a seat holds cards, a newcomer takes what the menu puts first: the top
option of the select (unless it says it is worth nothing now), or the highlighted
button. Before: the top option was the first
card in hand, whatever it was worth. After: the menu is :func:`games.tempus.panels.
secret_panel`'s. Prints the choices worth nothing per game, before and after::

    python -m tests.bot.bench_card_worth --games 40
"""

from __future__ import annotations

import argparse
import json
import random

from engine.game import apply_in_place, decisions
from engine.setup import new_game
from engine.simulate import random_action
from engine.state import State
from games.controls import ACT, Button, Select
from games.tempus import panels
from games.tempus.codec import decode_action
from lang.messages import t

KINDS = ("attack_cards", "defend_cards", "progress_cards")


def _after(state: State, seat: int, kind: str) -> list[int]:
    """The cards a newcomer plays from the menu as it is: the top option, unless it says
    it is worth nothing now, else the highlighted button."""
    panel = panels.secret_panel(state, seat)
    for row in panel.rows:
        if isinstance(row, Select):
            if t("worth.none") not in row.options[0].label:
                return [int(row.options[0].value)]
            continue  # the top card says it is worth nothing: the highlighted button
        primary = next((b for b in row if isinstance(b, Button) and b.style == "primary"), None)
        if primary is not None:
            action = decode_action(primary.arg) if primary.op == ACT else None
            return list(getattr(action, "cards", ()))
    return []


def run(games: int, players: int, seed: int) -> dict[str, float]:
    before = after = asked = 0
    for g in range(games):
        state, _ = new_game(players, seed + g, random_map=True)
        rng = random.Random(seed + g)
        while decisions(state):
            for d in decisions(state):
                hand = state.players[d.seat].hand
                if d.kind not in KINDS or not hand:
                    continue
                worth = panels._card_worth(state, d.seat, d.kind)
                assert worth is not None
                asked += 1
                before += worth(hand[0]) <= 0
                after += any(worth(c) <= 0 for c in _after(state, d.seat, d.kind))
            seat = rng.choice(decisions(state)).seat
            apply_in_place(state, seat, random_action(state, seat, rng))
    return {"games": games, "card_choices": asked,
            "worth_nothing_before_per_game": round(before / games, 2),
            "worth_nothing_after_per_game": round(after / games, 2)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.bot.bench_card_worth")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--seed", type=int, default=4200)
    a = p.parse_args(argv)
    print(json.dumps(run(a.games, a.players, a.seed)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
