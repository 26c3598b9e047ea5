"""The game state: plain data, exact JSON round-trip, cheap copies.

Hexes are ints (see :mod:`engine.hexgrid`), cards are ids 0..53 (see
:mod:`engine.content`). Per-hex facts are parallel lists indexed by hex, which keeps a
copy down to a handful of list slices (AI search copies states thousands of times).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .content import CONTENT, Era
from .hexgrid import NUM_HEXES

# Phases of a game.
TILES = "tiles"  # R-SETUP-4: players place map tiles in turn
TOKENS = "tokens"  # R-SETUP-5: players place their 3 starting tokens in turn
ACTIONS = "actions"  # R-ROUND-2
PROGRESS = "progress"  # R-ROUND-3 (secret card choices, then bonus discards)
OVER = "over"  # R-END

# Sub-stages of a turn in the ACTIONS phase.
MAIN = "main"  # choose an action, play cards, end the turn
MOVE = "move"  # a Move action in progress (R-MOVE)
GROW = "grow"  # a Growth action in progress (R-GROW)
COMBAT = "combat"  # an attack in progress (R-COMBAT)
DISCARD = "discard"  # over the hand limit after drawing (R-DRAW-2)

# Steps of a combat.
C_TERRAIN = "terrain"  # defender names the city's terrain (R-COMBAT-4)
C_ATTACK = "attack_cards"  # attacker picks secret cards (R-COMBAT-5)
C_DEFEND = "defend_cards"  # defender answers with open cards
C_OCCUPY = "occupy"  # winning attacker moves tokens in (R-COMBAT-8)

STATE_FORMAT = 1


@dataclass(slots=True)
class Player:
    era: int = 0
    markers: int = 0
    supply: int = 0
    cities: list[int] = field(default_factory=list)  # unused city values, sorted
    hand: list[int] = field(default_factory=list)

    def copy(self) -> Player:
        return Player(self.era, self.markers, self.supply, self.cities[:], self.hand[:])

    def to_json(self) -> dict[str, Any]:
        return {
            "era": self.era,
            "markers": self.markers,
            "supply": self.supply,
            "cities": self.cities[:],
            "hand": self.hand[:],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Player:
        return cls(d["era"], d["markers"], d["supply"], list(d["cities"]), list(d["hand"]))


@dataclass(slots=True)
class Combat:
    attacker: int
    defender: int
    src: int
    dst: int
    city: bool
    #: the Leader card that allowed this attack, or None when it is the turn's action
    leader: int | None
    step: str
    #: the terrain the fight counts (the hex's own, or the one named for a city)
    terrain: str | None = None
    attack_cards: list[int] | None = None  # secret until the defender has answered
    defend_cards: list[int] | None = None

    def copy(self) -> Combat:
        return Combat(
            self.attacker,
            self.defender,
            self.src,
            self.dst,
            self.city,
            self.leader,
            self.step,
            self.terrain,
            None if self.attack_cards is None else self.attack_cards[:],
            None if self.defend_cards is None else self.defend_cards[:],
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "attacker": self.attacker,
            "defender": self.defender,
            "src": self.src,
            "dst": self.dst,
            "city": self.city,
            "leader": self.leader,
            "step": self.step,
            "terrain": self.terrain,
            "attack_cards": None if self.attack_cards is None else self.attack_cards[:],
            "defend_cards": None if self.defend_cards is None else self.defend_cards[:],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Combat:
        return cls(
            d["attacker"],
            d["defender"],
            d["src"],
            d["dst"],
            d["city"],
            d["leader"],
            d["step"],
            d["terrain"],
            None if d["attack_cards"] is None else list(d["attack_cards"]),
            None if d["defend_cards"] is None else list(d["defend_cards"]),
        )


@dataclass(slots=True)
class State:
    num_players: int
    seed: int
    #: how many shuffles have been made: shuffle k uses an RNG seeded by (seed, k)
    shuffles: int
    phase: str
    terrain: list[str | None]  # per hex: terrain letter, None = sea
    placements: list[list[int]]  # [tile id, centre hex, rotation] in placement order
    tile_stack: list[int]  # tiles still to place, next first (order is secret)
    removed_tiles: list[int]  # tiles that fit nowhere (R-SETUP-4)
    owner: list[int]  # per hex: seat with tokens there, -1 none
    count: list[int]  # per hex: number of tokens
    city_owner: list[int]  # per hex: seat owning a city there, -1 none
    city_value: list[int]  # per hex: city value, 0 none
    bonus: list[int]  # per hex: Sanitation stack-limit bonus (R-CARD-SAN)
    players: list[Player]
    deck: list[int]  # draw pile, top card last (order is secret)
    discard: list[int]  # discard pile, public
    start_player: int
    era_number: int  # eras played so far, counting the current one (1 = first)
    action_round: int
    turn: int  # seat to act in TILES/TOKENS/ACTIONS
    stage: str = MAIN
    turn_actions: int = 0  # actions (markers) still owed in this turn
    acted: bool = False  # a marker was used in this turn
    steps_left: int = 0  # tokens that may still move / grow in the current Move / Growth
    touched: dict[int, int] = field(default_factory=dict)  # hex -> tokens moved/grown there
    combat: Combat | None = None
    discards: dict[int, int] = field(default_factory=dict)  # seat -> cards owed
    progress_choices: dict[int, list[int]] = field(default_factory=dict)  # secret
    start_hexes: list[int] = field(default_factory=list)  # R-SETUP-5, current player
    scores: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)

    # ------------------------------------------------------------------ helpers
    def era(self, seat: int) -> Era:
        """The era row whose abilities ``seat`` uses. Flight has no row of its own (the game
        ends there), so a cube in Flight keeps the Railways abilities until the end."""
        return CONTENT.eras[min(self.players[seat].era, CONTENT.flight - 1)]

    def base_stack_limit(self, seat: int) -> int:
        if self.phase == TOKENS:
            return CONTENT.eras[0].stack
        return self.era(seat).stack

    def stack_limit(self, seat: int, h: int) -> int:
        """Most tokens ``seat`` may have on ``h`` (era limit plus Sanitation bonus)."""
        return self.base_stack_limit(seat) + self.bonus[h]

    def occupied_hexes(self, seat: int) -> list[int]:
        return [h for h in range(NUM_HEXES) if self.owner[h] == seat]

    def presence(self, seat: int) -> int:
        """Hexes occupied for R-COMBAT-2: own tokens or own city."""
        n = 0
        for h in range(NUM_HEXES):
            if self.owner[h] == seat or self.city_owner[h] == seat:
                n += 1
        return n

    # ------------------------------------------------------------------ copy / json
    def copy(self) -> State:
        return State(
            self.num_players,
            self.seed,
            self.shuffles,
            self.phase,
            self.terrain,  # replaced, never mutated, once the map is built
            [p[:] for p in self.placements],
            self.tile_stack[:],
            self.removed_tiles[:],
            self.owner[:],
            self.count[:],
            self.city_owner[:],
            self.city_value[:],
            self.bonus[:],
            [p.copy() for p in self.players],
            self.deck[:],
            self.discard[:],
            self.start_player,
            self.era_number,
            self.action_round,
            self.turn,
            self.stage,
            self.turn_actions,
            self.acted,
            self.steps_left,
            dict(self.touched),
            None if self.combat is None else self.combat.copy(),
            dict(self.discards),
            {k: v[:] for k, v in self.progress_choices.items()},
            self.start_hexes[:],
            self.scores[:],
            self.winners[:],
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "num_players": self.num_players,
            "seed": self.seed,
            "shuffles": self.shuffles,
            "phase": self.phase,
            "terrain": list(self.terrain),
            "placements": [p[:] for p in self.placements],
            "tile_stack": self.tile_stack[:],
            "removed_tiles": self.removed_tiles[:],
            "owner": self.owner[:],
            "count": self.count[:],
            "city_owner": self.city_owner[:],
            "city_value": self.city_value[:],
            "bonus": self.bonus[:],
            "players": [p.to_json() for p in self.players],
            "deck": self.deck[:],
            "discard": self.discard[:],
            "start_player": self.start_player,
            "era_number": self.era_number,
            "action_round": self.action_round,
            "turn": self.turn,
            "stage": self.stage,
            "turn_actions": self.turn_actions,
            "acted": self.acted,
            "steps_left": self.steps_left,
            "touched": {str(k): v for k, v in self.touched.items()},
            "combat": None if self.combat is None else self.combat.to_json(),
            "discards": {str(k): v for k, v in self.discards.items()},
            "progress_choices": {str(k): v[:] for k, v in self.progress_choices.items()},
            "start_hexes": self.start_hexes[:],
            "scores": self.scores[:],
            "winners": self.winners[:],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> State:
        if d.get("format") != STATE_FORMAT:
            raise ValueError(f"unsupported state format {d.get('format')!r}")
        return cls(
            num_players=d["num_players"],
            seed=d["seed"],
            shuffles=d["shuffles"],
            phase=d["phase"],
            terrain=list(d["terrain"]),
            placements=[list(p) for p in d["placements"]],
            tile_stack=list(d["tile_stack"]),
            removed_tiles=list(d["removed_tiles"]),
            owner=list(d["owner"]),
            count=list(d["count"]),
            city_owner=list(d["city_owner"]),
            city_value=list(d["city_value"]),
            bonus=list(d["bonus"]),
            players=[Player.from_json(p) for p in d["players"]],
            deck=list(d["deck"]),
            discard=list(d["discard"]),
            start_player=d["start_player"],
            era_number=d["era_number"],
            action_round=d["action_round"],
            turn=d["turn"],
            stage=d["stage"],
            turn_actions=d["turn_actions"],
            acted=d["acted"],
            steps_left=d["steps_left"],
            touched={int(k): v for k, v in d["touched"].items()},
            combat=None if d["combat"] is None else Combat.from_json(d["combat"]),
            discards={int(k): v for k, v in d["discards"].items()},
            progress_choices={int(k): list(v) for k, v in d["progress_choices"].items()},
            start_hexes=list(d["start_hexes"]),
            scores=list(d["scores"]),
            winners=list(d["winners"]),
        )
