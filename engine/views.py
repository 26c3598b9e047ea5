"""Views: exactly what one seat (or a spectator) may know (R-INFO).

A view is a JSON-ready dict: the state's JSON without its secrets (the RNG seed, the
deck order, the tile stack order, other seats' hands, face-down attack cards and progress
choices, and the discard pile: face down, R-INFO-1, only its size, ``discard_size``, is
public), built field by field, so that a field added to the state reaches no view until
it is added here. Everything the bot shows and the renderer draws is
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
    """The information set of ``seat`` (``None``: a spectator).

    Built from the state's fields directly rather than from :meth:`State.to_json` with the
    secrets deleted (the bot makes a view or two of every position, and the snapshot it
    stores is the state's JSON already): the same keys in the same order as that JSON
    less the secrets, then the view's own; every list is a copy."""
    players = []
    points = all_victory_points(state)
    colours = CONTENT.colours
    per_player = CONTENT.tokens_per_player
    for i, pl in enumerate(state.players):
        p: dict[str, Any] = {"era": pl.era, "markers": pl.markers, "supply": pl.supply,
                             "cities": pl.cities[:]}
        if i == seat:
            p["hand"] = pl.hand[:]
        p["hand_size"] = len(pl.hand)
        p["colour"] = colours[i]
        p["victory_points"] = points[i]
        p["tokens_on_board"] = per_player - pl.supply
        players.append(p)
    combat = None if state.combat is None else state.combat.to_json()
    if (
        combat is not None
        and combat["attack_cards"] is not None
        and combat["defend_cards"] is None
        and seat != combat["attacker"]
    ):
        combat["attack_card_count"] = len(combat["attack_cards"])
        combat["attack_cards"] = None  # R-INFO-2: face down until the defender answered
    stack = state.tile_stack
    pile, seen = state.discard, state.discard_seen
    d: dict[str, Any] = {
        "format": VIEW_FORMAT,
        "num_players": state.num_players,
        "phase": state.phase,
        "terrain": list(state.terrain),
        "placements": [p[:] for p in state.placements],
        "removed_tiles": state.removed_tiles[:],
        "owner": state.owner[:],
        "count": state.count[:],
        "city_owner": state.city_owner[:],
        "city_value": state.city_value[:],
        "bonus": state.bonus[:],
        "players": players,
        "start_player": state.start_player,
        "era_number": state.era_number,
        "action_round": state.action_round,
        "turn": state.turn,
        "stage": state.stage,
        "turn_actions": state.turn_actions,
        "acted": state.acted,
        "steps_left": state.steps_left,
        "touched": {str(k): v for k, v in state.touched.items()},
        "combat": combat,
        "discards": {str(k): v for k, v in state.discards.items()},
        "start_hexes": state.start_hexes[:],
        "scores": state.scores[:],
        "winners": state.winners[:],
        "rules_version": state.rules_version,
        "options": dict(state.options),
        "bonus_seat": state.bonus_seat[:],
        "seat": seat,
        "deck_size": len(state.deck),
        "discard_size": len(pile),
        "revealed_cards": [c for c, w in zip(pile, seen) if w == SEEN_BY_ALL],
    }
    if seat is not None:
        d["my_discarded_cards"] = [c for c, w in zip(pile, seen) if w == seat]
    d["current_tile"] = stack[0] if stack and state.phase == "tiles" else None
    d["tiles_left"] = len(stack)
    choices = state.progress_choices
    d["progress_submitted"] = sorted(choices)
    if seat is not None and seat in choices:
        d["my_progress_choice"] = choices[seat][:]
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
