"""Events: what happened, as words a game log can show.

An event is public unless ``private_to`` names the one seat allowed to see it (for
example which cards that seat just drew). Consumers must filter with :func:`visible`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .content import CONTENT


class EventKind(StrEnum):
    """What an event tells (a ``StrEnum``: it is its text in JSON and in comparisons)."""

    ADVANCE = "advance"
    ATTACK = "attack"
    ATTACK_CARDS = "attack_cards"
    CARD = "card"
    CATCH_UP = "catch_up"
    CITY = "city"
    CITY_TERRAIN = "city_terrain"
    COMBAT_CARDS = "combat_cards"
    COMBAT_LOST = "combat_lost"
    COMBAT_WON = "combat_won"
    DISCARD = "discard"
    DISCARD_OWED = "discard_owed"
    DISCARD_PRIVATE = "discard_private"
    DRAW = "draw"
    DRAW_PRIVATE = "draw_private"
    ERA = "era"
    GAME_OVER = "game_over"
    GROW = "grow"
    GROW_TOKEN = "grow_token"
    MAP = "map"
    MOVE = "move"
    MOVE_TOKEN = "move_token"
    OCCUPY = "occupy"
    PROGRESS = "progress"
    PROGRESS_CHOICE = "progress_choice"
    PROGRESS_REVEAL = "progress_reveal"
    RESHUFFLE = "reshuffle"
    START = "start"
    START_TOKEN = "start_token"
    TILE = "tile"
    TILE_REMOVED = "tile_removed"
    TOKENS = "tokens"
    TURN = "turn"


@dataclass(frozen=True, slots=True)
class Event:
    kind: EventKind
    text: str
    seat: int | None = None  # the seat the event is about, if any
    private_to: int | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "text": self.text,
            "seat": self.seat,
            "private_to": self.private_to,
            "data": self.data,
        }


def visible(events: list[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may see (``None``: a spectator, public events only)."""
    return [e for e in events if e.private_to is None or e.private_to == seat]


def colour(seat: int) -> str:
    return CONTENT.colours[seat]


def card_name(card: int) -> str:
    c = CONTENT.cards[card]
    terrain = CONTENT.terrain_names[c.terrain]
    return f"{CONTENT.card_types[c.type].name} ({terrain})"


def card_list(cards: list[int] | tuple[int, ...]) -> str:
    return ", ".join(card_name(c) for c in cards) if cards else "no cards"
