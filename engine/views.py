"""Views: exactly what one seat (or a spectator) may know (R-INFO).

A view is a JSON-ready dict built from the state's JSON with the secrets taken out:
the RNG seed, the deck order, the tile stack order, other seats' hands, face-down
attack cards and progress choices, and the discard pile (face down, R-INFO-1: only its
size, ``discard_size``, is public). Everything the bot shows and the renderer draws is
built from a view, never from the state.

What a seat remembers about the discard pile is part of its information, so the view
carries it as a log rather than as the pile:

* ``revealed_cards`` (every view, public): the cards everybody saw face up since the
  discard pile was last shuffled into the draw pile (cards played for their effect,
  fight cards after the reveal, progress cards after the reveal), oldest first. They
  are all in the discard pile now; the public event log named each at its moment.
* ``my_discarded_cards`` (a seat's own view only): the cards that seat discarded face
  down for the hand limit (R-DRAW-2) since the last reshuffle.

The other cards of the pile (other seats' face-down discards) are unknown to the seat.
"""

from __future__ import annotations

from typing import Any

from .content import CONTENT
from .game import decisions
from .hexgrid import label
from .progress import all_victory_points
from .state import SEEN_BY_ALL, State

VIEW_FORMAT = 2


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The information set of ``seat`` (``None``: a spectator)."""
    d = state.to_json()
    del d["seed"]
    del d["shuffles"]
    d["format"] = VIEW_FORMAT
    d["seat"] = seat
    d["deck_size"] = len(d.pop("deck"))
    pile, seen = d.pop("discard"), d.pop("discard_seen")
    d["discard_size"] = len(pile)
    d["revealed_cards"] = [c for c, w in zip(pile, seen) if w == SEEN_BY_ALL]
    if seat is not None:
        d["my_discarded_cards"] = [c for c, w in zip(pile, seen) if w == seat]
    stack = d.pop("tile_stack")
    d["current_tile"] = stack[0] if stack and state.phase == "tiles" else None
    d["tiles_left"] = len(stack)
    points = all_victory_points(state)
    for i, p in enumerate(d["players"]):
        p["hand_size"] = len(p["hand"])
        p["colour"] = CONTENT.colours[i]
        p["victory_points"] = points[i]
        p["tokens_on_board"] = CONTENT.tokens_per_player - p["supply"]
        if i != seat:
            del p["hand"]
    combat = d["combat"]
    if (
        combat is not None
        and combat["attack_cards"] is not None
        and combat["defend_cards"] is None
        and seat != combat["attacker"]
    ):
        combat["attack_card_count"] = len(combat["attack_cards"])
        combat["attack_cards"] = None  # R-INFO-2: face down until the defender answered
    choices = d.pop("progress_choices")
    d["progress_submitted"] = sorted(int(k) for k in choices)
    if seat is not None and str(seat) in choices:
        d["my_progress_choice"] = choices[str(seat)]
    d["decisions"] = [
        {"seat": x.seat, "kind": x.kind, "prompt": x.prompt} for x in decisions(state)
    ]
    return d


def hex_summary(v: dict[str, Any]) -> list[dict[str, Any]]:
    """Occupied hexes of a view as readable rows (for text output)."""
    rows = []
    for h, o in enumerate(v["owner"]):
        if o >= 0:
            rows.append({"hex": label(h), "owner": o, "tokens": v["count"][h]})
        if v["city_owner"][h] >= 0:
            rows.append({"hex": label(h), "owner": v["city_owner"][h],
                         "city": v["city_value"][h]})
    return rows
