"""Game records: ``setup + every decision in order`` as versioned JSON (docs/record-format.md).

The record is the source of truth for a game; replaying it reproduces the state exactly.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .actions import Action, action_from_json
from .errors import IllegalAction
from .events import Event
from .game import apply_in_place
from .rules import LEGACY_RULES_VERSION, RULES_VERSION, TABLE_OPTIONS, check_rules, stored_rules
from .setup import new_game
from .state import State

RECORD_FORMAT = "tempus-record"
#: Version 2 adds ``options.rules_version`` and the table options (R-OPT).
RECORD_VERSION = 2
#: Record versions :meth:`Record.from_json` reads (version 1 records are rules 1 games).
READABLE_RECORD_VERSIONS = (1, 2)


@dataclass
class Record:
    num_players: int
    seed: int
    start_player: int | None = None
    random_map: bool = False
    players: list[dict[str, Any]] = field(default_factory=list)  # {"name", "kind"}
    deck: list[int] | None = None  # pinned draw pile, top card last
    tiles: list[int] | None = None  # pinned tile order, next first
    moves: list[tuple[int, Action]] = field(default_factory=list)
    #: the rules the game is played under (engine.rules); a stored game must give the
    #: version it was started with (1 for games stored before rules versions existed)
    rules_version: int = RULES_VERSION
    #: table options (R-OPT), e.g. {"protection_counts_cities": True}; off unless given
    options: dict[str, bool] = field(default_factory=dict)
    #: the salt of the seed's commitment (engine/commitment.py), lower-case hex; None for
    #: a game started without one
    salt: str | None = None

    @classmethod
    def from_stored(cls, options: Mapping[str, Any], num_players: int,
                    **fields: Any) -> Record:
        """The record of a game set up from a front end's stored flat options (its seed,
        start player and map, and the rules it was started with, never today's);
        ``fields``: the rest of the record (players, moves)."""
        rules_version, table_options = stored_rules(options)
        return cls(num_players=num_players, seed=int(options["seed"]),
                   start_player=options.get("start_player"),
                   random_map=bool(options.get("random_map", True)),
                   rules_version=rules_version, options=table_options, **fields)

    def new_state(self) -> tuple[State, list[Event]]:
        return new_game(
            self.num_players,
            self.seed,
            start_player=self.start_player,
            random_map=self.random_map,
            deck=self.deck,
            tiles=self.tiles,
            rules_version=self.rules_version,
            options=self.options,
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "players": self.players
            or [{"name": f"Player {i + 1}", "kind": "human"} for i in range(self.num_players)],
            "options": {
                "num_players": self.num_players,
                "seed": self.seed,
                "start_player": self.start_player,
                "random_map": self.random_map,
                "rules_version": self.rules_version,
                **check_rules(self.rules_version, self.options),
            },
            "actions": [{"seat": s, "action": a.to_json()} for s, a in self.moves],
        }
        if self.deck is not None:
            out["deck"] = list(self.deck)
        if self.tiles is not None:
            out["tiles"] = list(self.tiles)
        if self.salt is not None:
            out["salt"] = self.salt
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Record:
        if d.get("format") != RECORD_FORMAT:
            raise ValueError(f"not a Tempus record (format {d.get('format')!r})")
        version = d.get("version")
        if version not in READABLE_RECORD_VERSIONS:
            raise ValueError(f"unsupported record version {version!r}")
        opts = d["options"]
        if version == 1:  # before rules versions: played under rules 1, no table options
            rules_version = LEGACY_RULES_VERSION
        elif "rules_version" not in opts:
            raise ValueError("a version 2 record needs options.rules_version")
        else:
            rules_version = opts["rules_version"]
        table = {k: opts[k] for k in TABLE_OPTIONS if k in opts}
        try:
            table = check_rules(rules_version, table)
        except IllegalAction as exc:
            raise ValueError(str(exc)) from None
        moves = [(int(m["seat"]), action_from_json(m["action"])) for m in d.get("actions", [])]
        return cls(
            num_players=int(opts["num_players"]),
            seed=int(opts["seed"]),
            start_player=opts.get("start_player"),
            random_map=bool(opts.get("random_map", False)),
            players=list(d.get("players", [])),
            deck=d.get("deck"),
            tiles=d.get("tiles"),
            moves=moves,
            rules_version=rules_version,
            options=table,
            salt=None if d.get("salt") is None else str(d["salt"]),
        )

    def dump(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Record:
        return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))


class ReplayError(Exception):
    """An action of a record is illegal; ``index`` is its position in ``actions``."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(f"action {index}: {message}")
        self.index = index
        self.message = message


def replay(record: Record, upto: int | None = None) -> State:
    """The state after the first ``upto`` actions (default: all)."""
    state, _ = record.new_state()
    moves = record.moves if upto is None else record.moves[:upto]
    for i, (seat, action) in enumerate(moves):
        try:
            apply_in_place(state, seat, action)
        except IllegalAction as exc:
            raise ReplayError(i, str(exc)) from None
    return state
