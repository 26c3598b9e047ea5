"""Actions: small typed values a seat submits to :func:`engine.game.apply`.

Each action serialises to a JSON object ``{"type": ..., ...}`` with hexes as labels
(``"C4"``) and cards as ids, which is the form stored in game records.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .hexgrid import label, parse_label


@dataclass(frozen=True, slots=True)
class Action:
    type: ClassVar[str] = ""
    #: field names that hold hexes (serialised as labels)
    hex_fields: ClassVar[tuple[str, ...]] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name in self.hex_fields:
                v = [label(h) for h in v] if isinstance(v, tuple) else label(v)
            elif isinstance(v, tuple):
                v = list(v)
            out[f.name] = v
        return out


# ---------------------------------------------------------------- setup (R-SETUP)
@dataclass(frozen=True, slots=True)
class PlaceTile(Action):
    """Place the current tile with its centre on ``centre``, turned ``rotation`` x 60°."""

    type: ClassVar[str] = "place_tile"
    hex_fields: ClassVar[tuple[str, ...]] = ("centre",)
    centre: int
    rotation: int


@dataclass(frozen=True, slots=True)
class PlaceStartToken(Action):
    """Place one of the 3 starting tokens (R-SETUP-5)."""

    type: ClassVar[str] = "place_start_token"
    hex_fields: ClassVar[tuple[str, ...]] = ("hex",)
    hex: int


# ---------------------------------------------------------------- the five actions
@dataclass(frozen=True, slots=True)
class BeginMove(Action):
    """Use a marker for the Move action (R-MOVE); tokens then move one by one."""

    type: ClassVar[str] = "begin_move"


@dataclass(frozen=True, slots=True)
class MoveToken(Action):
    type: ClassVar[str] = "move_token"
    hex_fields: ClassVar[tuple[str, ...]] = ("src", "dst")
    src: int
    dst: int


@dataclass(frozen=True, slots=True)
class EndMove(Action):
    type: ClassVar[str] = "end_move"


@dataclass(frozen=True, slots=True)
class BeginGrow(Action):
    """Use a marker for the Growth action (R-GROW); tokens are then placed one by one."""

    type: ClassVar[str] = "begin_grow"


@dataclass(frozen=True, slots=True)
class GrowToken(Action):
    """Put one new token on an own grassland hex (R-GROW-1/2)."""

    type: ClassVar[str] = "grow_token"
    hex_fields: ClassVar[tuple[str, ...]] = ("hex",)
    hex: int


@dataclass(frozen=True, slots=True)
class PlayHealthCare(Action):
    """R-CARD-HEA: during a Growth action, one more token may be placed."""

    type: ClassVar[str] = "play_health_care"
    card: int


@dataclass(frozen=True, slots=True)
class EndGrow(Action):
    type: ClassVar[str] = "end_grow"


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """Attack ``dst`` from ``src`` (R-COMBAT); with ``leader`` set it is the Leader card's
    free attack (R-CARD-LEA), otherwise it uses a marker."""

    type: ClassVar[str] = "attack"
    hex_fields: ClassVar[tuple[str, ...]] = ("src", "dst")
    src: int
    dst: int
    leader: int | None = None


@dataclass(frozen=True, slots=True)
class DrawCards(Action):
    """The Idea action (R-DRAW)."""

    type: ClassVar[str] = "draw_cards"


@dataclass(frozen=True, slots=True)
class BuildCity(Action):
    type: ClassVar[str] = "build_city"
    hex_fields: ClassVar[tuple[str, ...]] = ("hex",)
    hex: int
    value: int


# ---------------------------------------------------------------- combat steps
@dataclass(frozen=True, slots=True)
class NameCityTerrain(Action):
    """The city's defender names the terrain it counts as (R-COMBAT-4)."""

    type: ClassVar[str] = "name_city_terrain"
    terrain: str


@dataclass(frozen=True, slots=True)
class CommitAttackCards(Action):
    """The attacker's face-down cards (R-COMBAT-5); may be empty."""

    type: ClassVar[str] = "commit_attack_cards"
    cards: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class DefendCards(Action):
    """The defender's face-up answer (R-COMBAT-5); may be empty."""

    type: ClassVar[str] = "defend_cards"
    cards: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Occupy(Action):
    """After winning, move ``count`` tokens from the attacking hex in (R-COMBAT-8)."""

    type: ClassVar[str] = "occupy"
    count: int


# ---------------------------------------------------------------- cards and turn
@dataclass(frozen=True, slots=True)
class PlayReligion(Action):
    """R-CARD-REL: convert the enemy token on ``target`` onto own adjacent hex ``own``."""

    type: ClassVar[str] = "play_religion"
    hex_fields: ClassVar[tuple[str, ...]] = ("target", "own")
    card: int
    target: int
    own: int


@dataclass(frozen=True, slots=True)
class PlaySanitation(Action):
    """R-CARD-SAN: raise the stack limit of ``hex`` by one."""

    type: ClassVar[str] = "play_sanitation"
    hex_fields: ClassVar[tuple[str, ...]] = ("hex",)
    card: int
    hex: int


@dataclass(frozen=True, slots=True)
class PlayTransport(Action):
    """R-CARD-TRA: during a Move action, one more token may move."""

    type: ClassVar[str] = "play_transport"
    card: int


@dataclass(frozen=True, slots=True)
class PlayGovernment(Action):
    """R-CARD-GOV: ``mode`` "double" (next action at once) or "pass" (act later)."""

    type: ClassVar[str] = "play_government"
    card: int
    mode: str


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    type: ClassVar[str] = "end_turn"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Discard down to the hand limit (R-DRAW-2); no effect (R-CARD-3)."""

    type: ClassVar[str] = "discard"
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ProgressCards(Action):
    """The secret progress-phase choice (R-PROG-2); may be empty."""

    type: ClassVar[str] = "progress_cards"
    cards: tuple[int, ...] = ()


ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (
        PlaceTile,
        PlaceStartToken,
        BeginMove,
        MoveToken,
        EndMove,
        BeginGrow,
        GrowToken,
        PlayHealthCare,
        EndGrow,
        Attack,
        DrawCards,
        BuildCity,
        NameCityTerrain,
        CommitAttackCards,
        DefendCards,
        Occupy,
        PlayReligion,
        PlaySanitation,
        PlayTransport,
        PlayGovernment,
        EndTurn,
        Discard,
        ProgressCards,
    )
}


def action_from_json(d: dict[str, Any]) -> Action:
    """Parse a record's action object. Raises ValueError with a readable message."""
    if not isinstance(d, dict) or "type" not in d:
        raise ValueError("an action must be an object with a 'type'")
    cls = ACTION_TYPES.get(d["type"])
    if cls is None:
        raise ValueError(f"unknown action type {d['type']!r}")
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in d:
            continue
        v = d[f.name]
        if f.name in cls.hex_fields:
            v = tuple(parse_label(x) for x in v) if isinstance(v, list) else parse_label(v)
        elif isinstance(v, list):
            v = tuple(v)
        kwargs[f.name] = v
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise ValueError(f"bad fields for {d['type']}: {exc}") from None
