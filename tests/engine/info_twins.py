"""Twin positions for R-INFO-4: the same game, one hand holding other unseen cards.

A *twin* of a position gives one seat's hand other cards of the same number, taken from
the draw pile (whose order and contents are secret, R-INFO-3), and puts the hand's cards
there instead: nothing the table can see differs. A *public action* is one whose words
name no card (a card played for its effect or face down shows itself, so those may lead
elsewhere). R-INFO-4 holds when every public action legal in a position is legal in its
twin and leads to the same decisions (seat and kind) and the same public events.

``python -m tests.engine.info_twins --games 12 --players 4 --rules 4`` counts, over random
games, the public actions after which the twins ask for different decisions.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from dataclasses import dataclass

from engine import actions as A
from engine.events import visible
from engine.game import apply_in_place, decisions
from engine.legal import legal_actions
from engine.setup import new_game
from engine.simulate import random_action
from engine.state import State

#: actions that carry card ids: what they show is the card itself
CARD_ACTIONS = (A.PlayTransport, A.PlayHealthCare, A.PlaySanitation, A.PlayReligion,
                A.PlayGovernment, A.Discard)


def is_public(action: A.Action) -> bool:
    if isinstance(action, CARD_ACTIONS):
        return False
    if isinstance(action, A.Attack):
        return action.leader is None
    if isinstance(action, A.CommitAttackCards | A.DefendCards | A.ProgressCards):
        return not action.cards  # none played: nothing shown
    return True


def twin(state: State, seat: int, rng: random.Random) -> State | None:
    """``state`` with ``seat``'s hand swapped for as many cards from the draw pile (each
    of its cards takes the place of the card it replaces), or None when nothing can
    change (an empty hand or pile)."""
    hand = state.players[seat].hand
    k = min(len(hand), len(state.deck))
    if k == 0:
        return None
    t = state.copy()
    out = rng.sample(range(len(hand)), k)
    into = rng.sample(range(len(t.deck)), k)
    th = t.players[seat].hand
    for i, j in zip(out, into, strict=True):
        th[i], t.deck[j] = t.deck[j], th[i]
    return t


def _decided(state: State) -> list[tuple[int, str]]:
    return [(d.seat, str(d.kind)) for d in decisions(state)]


def _public_trail(state: State, seat: int, action: A.Action) -> tuple:
    s = state.copy()
    events = apply_in_place(s, seat, action)
    return _decided(s), [(e.kind, e.text, json.dumps(e.data, sort_keys=True, default=str))
                         for e in visible(events, None)]


@dataclass
class Divergence:
    """A public action after which a position and its twin differ."""

    after: str  # the action's type
    what: str  # "legal", "decisions" or "events"


def compare(state: State, other: State, seat: int) -> list[Divergence]:
    """Every public action of ``seat`` (legal in ``state``) that ``other`` refuses or
    answers with other decisions or other public events."""
    out: list[Divergence] = []
    mine = [a for a in legal_actions(state, seat) if is_public(a)]
    theirs = {a for a in legal_actions(other, seat) if is_public(a)}
    if set(mine) != theirs:
        out.append(Divergence("-", "legal"))
    for action in mine:
        if action not in theirs:
            continue
        (d1, e1), (d2, e2) = _public_trail(state, seat, action), _public_trail(other, seat,
                                                                             action)
        if d1 != d2:
            out.append(Divergence(action.type, "decisions"))
        elif e1 != e2:
            out.append(Divergence(action.type, "events"))
    return out


def divergences(num_players: int, seed: int, rules_version: int, *,
                every: int = 1) -> tuple[list[Divergence], int]:
    """A random game under ``rules_version``; at every ``every``-th decision a twin of the
    deciding seat's hand is compared. Returns the divergences and the positions checked."""
    state, _ = new_game(num_players, seed, random_map=True, rules_version=rules_version)
    rng = random.Random(f"info-twins/{seed}")
    found: list[Divergence] = []
    checked = 0
    for step in range(20000):
        ds = decisions(state)
        if not ds:
            return found, checked
        seat = rng.choice(ds).seat
        if step % every == 0:
            other = twin(state, seat, rng)
            if other is not None:
                checked += 1
                found += compare(state, other, seat)
        apply_in_place(state, seat, random_action(state, seat, rng))
    raise RuntimeError(f"game {seed} did not end")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=12)
    p.add_argument("--players", default="3,4,5", help="seat counts, taken in turn")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rules", type=int, nargs="+", default=[4, 5])
    a = p.parse_args()
    counts = [int(x) for x in a.players.split(",")]
    for rules in a.rules:
        by_kind: Counter[str] = Counter()
        checked = 0
        for g in range(a.games):
            found, n = divergences(counts[g % len(counts)], a.seed + g, rules)
            checked += n
            by_kind.update(f"{d.what} after {d.after}" for d in found)
        total = sum(by_kind.values())
        print(json.dumps({"rules": rules, "games": a.games, "players": a.players,
                          "positions": checked, "divergences": total,
                          "per_game": round(total / a.games, 1),
                          "by_kind": dict(by_kind.most_common())}))


if __name__ == "__main__":
    main()
