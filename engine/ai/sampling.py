"""Determinisation: a full :class:`~engine.state.State` built from one seat's view.

A computer player is only ever given ``engine.view(state, seat)``. The view lacks the
RNG seed, the deck order, the tile stack, other seats' hands, face-down attack cards and
other seats' secret progress choices (R-INFO-1..3). To search or even to call the
engine's rule helpers, we need a State, so the missing parts are filled with a random
sample that is consistent with everything public:

* every card the seat can place (own hand, the cards revealed since the last reshuffle
  and its own face-down discards, both in the discard pile, revealed combat cards, own
  progress choice) stays where it is;
* the remaining "unseen" cards are dealt at random into other hands (by their public
  sizes), the face-down attack cards (by their public count), the discard pile (other
  seats' face-down hand-limit discards: the pile's size minus the cards placed there,
  R-INFO-1), the draw pile (by its size) and, whatever is left, into the other seats'
  submitted progress choices;
* the tile stack keeps the public current tile first and is padded with unused tiles;
* the seed is fresh, so future shuffles are random too.

Nothing here can leak hidden information: the function's only input is the view.
"""

from __future__ import annotations

import random
from typing import Any

from ..content import CONTENT
from ..state import SEEN_BY_ALL, SEEN_BY_OTHER, STATE_FORMAT, State


def my_seat(view: dict[str, Any]) -> int:
    seat = view.get("seat")
    if seat is None:
        raise ValueError("a computer player needs a seat's view, not the spectator view")
    return int(seat)


def known_cards(view: dict[str, Any]) -> set[int]:
    """Cards whose place the viewing seat knows."""
    seat = my_seat(view)
    known = set(view["players"][seat]["hand"])
    # The discard pile is face down (R-INFO-1): only what this seat saw go there.
    known.update(view["revealed_cards"])
    known.update(view["my_discarded_cards"])
    combat = view.get("combat")
    if combat is not None:
        known.update(combat.get("attack_cards") or ())
        known.update(combat.get("defend_cards") or ())
    known.update(view.get("my_progress_choice") or ())
    return known


def unseen_cards(view: dict[str, Any]) -> list[int]:
    """Cards the viewing seat cannot place: in other hands, the deck or face down."""
    known = known_cards(view)
    return [c for c in range(len(CONTENT.cards)) if c not in known]


def hidden_attack_count(view: dict[str, Any]) -> int:
    combat = view.get("combat")
    if combat is None or combat.get("attack_cards") is not None:
        return 0
    return int(combat.get("attack_card_count", 0))


def determinise(view: dict[str, Any], rng: random.Random) -> State:
    """One random State consistent with ``view`` (see the module docstring)."""
    seat = my_seat(view)
    pool = unseen_cards(view)
    rng.shuffle(pool)
    d = dict(view)
    d["format"] = STATE_FORMAT
    d["seed"] = rng.getrandbits(48)
    d["shuffles"] = 0
    players = []
    for i, p in enumerate(view["players"]):
        q = dict(p)
        if i != seat:
            n = int(p["hand_size"])
            q["hand"], pool = pool[:n], pool[n:]
        players.append(q)
    d["players"] = players
    combat = view.get("combat")
    if combat is not None:
        combat = dict(combat)
        n = hidden_attack_count(view)
        if combat.get("attack_cards") is None and "attack_card_count" in combat:
            combat["attack_cards"], pool = pool[:n], pool[n:]
        d["combat"] = combat
    revealed, mine = list(view["revealed_cards"]), list(view["my_discarded_cards"])
    n = int(view["discard_size"]) - len(revealed) - len(mine)
    hidden, pool = pool[:n], pool[n:]
    d["discard"] = revealed + mine + hidden
    d["discard_seen"] = ([SEEN_BY_ALL] * len(revealed) + [seat] * len(mine)
                         + [SEEN_BY_OTHER] * len(hidden))
    for key in ("discard_size", "revealed_cards", "my_discarded_cards"):
        d.pop(key, None)
    n = int(view["deck_size"])
    d["deck"], pool = pool[:n], pool[n:]
    # Whatever is left was laid face down by other seats in this progress phase.
    choices: dict[str, list[int]] = {}
    others = [s for s in view.get("progress_submitted", ()) if s != seat]
    for s in others:
        choices[str(s)] = []
    if pool and others:
        for c in pool:
            choices[str(rng.choice(others))].append(c)
        pool = []
    if "my_progress_choice" in view:
        choices[str(seat)] = list(view["my_progress_choice"])
    d["progress_choices"] = choices
    if pool:
        raise ValueError(f"the view's public counts do not add up ({len(pool)} cards unplaced)")
    d["tile_stack"] = _tile_stack(view, rng)
    return State.from_json(d)


def _tile_stack(view: dict[str, Any], rng: random.Random) -> list[int]:
    left = int(view.get("tiles_left", 0))
    if left <= 0:
        return []
    used = {p[0] for p in view["placements"]} | set(view["removed_tiles"])
    current = view.get("current_tile")
    if current is not None:
        used.add(current)
    rest = [t.id for t in CONTENT.tiles if t.id not in used]
    rng.shuffle(rest)
    head = [current] if current is not None else []
    return head + rest[: left - len(head)]
