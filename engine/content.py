"""Game content loaded from ``data/tempus/*.json`` and validated once.

Everything numeric about Tempus (the era table, tiles, cards, piece counts) lives in
the data files; the engine reads it from :data:`CONTENT` and never hard-codes it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "tempus"

#: Terrain letters in a fixed order; engine code stores terrains as these letters.
TERRAINS = ("G", "F", "W", "H", "M")


class ContentError(ValueError):
    """The data files are malformed (wrong counts, unknown terrains, ...)."""


@dataclass(frozen=True, slots=True)
class Era:
    index: int
    name: str
    terrain: str | None
    move: int
    distance: int
    growth: int
    stack: int
    sea: bool
    draw: int
    limit: int
    actions: int
    bonus_draw: int
    final: bool


@dataclass(frozen=True, slots=True)
class Tile:
    id: int
    centre: str
    ring: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CardType:
    key: str
    name: str
    text: str


@dataclass(frozen=True, slots=True)
class Card:
    id: int
    type: str  # CardType.key, e.g. "WEA"
    terrain: str  # background terrain letter


@dataclass(frozen=True, slots=True)
class Content:
    columns: int
    rows: int
    terrain_names: dict[str, str]
    tiles: tuple[Tile, ...]
    eras: tuple[Era, ...]
    card_types: dict[str, CardType]
    cards: tuple[Card, ...]
    min_players: int
    max_players: int
    tokens_per_player: int
    city_values: tuple[int, ...]
    tiles_in_play: dict[int, int]
    starting_tokens: int
    protected_max_hexes: int
    flight_victory_points: int
    fortification_defence_bonus: int
    weapons_bonus: int
    education_progress: int
    city_progress: int
    colours: tuple[str, ...]

    @property
    def flight(self) -> int:
        """Index of the final era (Flight)."""
        return len(self.eras) - 1

    def tile(self, tile_id: int) -> Tile:
        for t in self.tiles:
            if t.id == tile_id:
                return t
        raise KeyError(tile_id)


def _read(name: str) -> dict:
    with open(DATA_DIR / name, encoding="utf-8") as fh:
        return json.load(fh)


def _check(cond: bool, msg: str) -> None:
    if not cond:
        raise ContentError(msg)


def load_content() -> Content:
    """Read and validate every data file (raises :class:`ContentError`)."""
    board = _read("board.json")
    tiles_raw = _read("tiles.json")["tiles"]
    eras_raw = _read("eras.json")["eras"]
    cards_raw = _read("cards.json")["types"]
    game = _read("game.json")

    terrain_names = dict(board["terrains"])
    _check(tuple(terrain_names) == TERRAINS, f"board.json terrains must be {TERRAINS}")

    tiles = []
    for t in tiles_raw:
        ring = tuple(t["ring"])
        _check(len(ring) == 6, f"tile {t['id']}: ring must have 6 hexes")
        for letter in (t["centre"], *ring):
            _check(letter in TERRAINS, f"tile {t['id']}: unknown terrain {letter!r}")
        tiles.append(Tile(int(t["id"]), t["centre"], ring))
    _check(len(tiles) == 12, f"expected 12 tiles, found {len(tiles)}")
    _check(len({t.id for t in tiles}) == 12, "tile ids must be unique")

    eras = []
    for i, e in enumerate(eras_raw):
        final = bool(e.get("final", False))
        terrain = e.get("terrain")
        _check(terrain is None or terrain in TERRAINS[:4], f"era {e['name']}: bad terrain")
        _check(
            (terrain is None) == (i == 0), f"era {e['name']}: only the Starting box has no terrain"
        )
        eras.append(
            Era(
                index=i,
                name=e["name"],
                terrain=terrain,
                move=int(e.get("move", 0)),
                distance=int(e.get("distance", 0)),
                growth=int(e.get("growth", 0)),
                stack=int(e.get("stack", 0)),
                sea=bool(e.get("sea", False)),
                draw=int(e.get("draw", 0)),
                limit=int(e.get("limit", 0)),
                actions=int(e.get("actions", 0)),
                bonus_draw=int(e.get("bonus_draw", 0)),
                final=final,
            )
        )
    _check(len(eras) == 11, "expected the Starting box plus 10 eras")
    _check(eras[-1].final and not any(e.final for e in eras[:-1]), "only the last era is final")

    card_types: dict[str, CardType] = {}
    cards: list[Card] = []
    for ct in cards_raw:
        card_types[ct["key"]] = CardType(ct["key"], ct["name"], ct["text"])
        backs = ct["backgrounds"]
        _check(sum(backs.values()) == 6, f"card type {ct['key']}: needs 6 cards")
        for letter in TERRAINS:
            for _ in range(int(backs.get(letter, 0))):
                cards.append(Card(len(cards), ct["key"], letter))
    _check(len(card_types) == 9, f"expected 9 card types, found {len(card_types)}")
    _check(len(cards) == 54, f"expected 54 cards, found {len(cards)}")

    tiles_in_play = {int(k): int(v) for k, v in game["tiles_in_play"].items()}
    return Content(
        columns=int(board["columns"]),
        rows=int(board["rows"]),
        terrain_names=terrain_names,
        tiles=tuple(tiles),
        eras=tuple(eras),
        card_types=card_types,
        cards=tuple(cards),
        min_players=int(game["min_players"]),
        max_players=int(game["max_players"]),
        tokens_per_player=int(game["tokens_per_player"]),
        city_values=tuple(sorted(int(v) for v in game["city_values"])),
        tiles_in_play=tiles_in_play,
        starting_tokens=int(game["starting_tokens"]),
        protected_max_hexes=int(game["protected_max_hexes"]),
        flight_victory_points=int(game["flight_victory_points"]),
        fortification_defence_bonus=int(game["fortification_defence_bonus"]),
        weapons_bonus=int(game["weapons_bonus"]),
        education_progress=int(game["education_progress"]),
        city_progress=int(game["city_progress"]),
        colours=tuple(game["colours"]),
    )


@cache
def content() -> Content:
    """The validated content, loaded once per process."""
    return load_content()


CONTENT = content()
