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
from .rules import LEGACY_RULES_VERSION, PROTECTION_COUNTS_CITIES

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

STATE_FORMAT = 2
#: State formats :meth:`State.from_json` reads (format 1: before rules versions, so rules 1).
READABLE_STATE_FORMATS = (1, 2)

#: ``discard_seen`` value of a card everybody saw (played for its effect, or revealed in
#: a fight or a progress phase); a seat number means only that seat saw it (R-INFO-1).
SEEN_BY_ALL = -1
#: ``discard_seen`` value, in a determinised state only, of a face-down discard whose
#: discarding seat the sampling seat does not track (see engine.ai.sampling).
SEEN_BY_OTHER = -2


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
    bonus: list[int]  # per hex: Sanitation stack-limit raise (R-CARD-SAN)
    players: list[Player]
    deck: list[int]  # draw pile, top card last (order is secret)
    discard: list[int]  # discard pile, face down: its contents are secret (R-INFO-1)
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
    #: the rules this game is played under (:mod:`engine.rules`)
    rules_version: int = LEGACY_RULES_VERSION
    #: table options (R-OPT), every known one for rules 2 on; public
    options: dict[str, bool] = field(default_factory=dict)
    #: per hex: the seat whose Sanitation raised it, -1 none (rules 2: the raise is the
    #: card player's own, R-CARD-SAN; unused under rules 1)
    bonus_seat: list[int] = field(default_factory=lambda: [-1] * NUM_HEXES)
    #: parallel to ``discard``: who saw each card (SEEN_BY_ALL, or the one seat that
    #: discarded it face down for the hand limit)
    discard_seen: list[int] = field(default_factory=list)

    # ------------------------------------------------------------------ helpers
    def era(self, seat: int) -> Era:
        """The era row whose abilities ``seat`` uses. Flight has no row of its own (the game
        ends there), so a cube in Flight keeps the Railways abilities until the end."""
        return CONTENT.eras[min(self.players[seat].era, CONTENT.flight - 1)]

    def base_stack_limit(self, seat: int) -> int:
        if self.phase == TOKENS:
            return CONTENT.eras[0].stack
        return self.era(seat).stack

    def raise_for(self, seat: int, h: int) -> int:
        """The Sanitation raise ``seat`` may use on ``h`` (R-CARD-SAN). Rules 1: the
        hex's raise, whoever played it; rules 2: only a raise ``seat`` played itself."""
        b = self.bonus[h]
        if b and self.rules_version >= 2 and self.bonus_seat[h] != seat:
            return 0
        return b

    def stack_limit(self, seat: int, h: int) -> int:
        """Most tokens ``seat`` may have on ``h`` (era limit plus its Sanitation raise)."""
        return self.base_stack_limit(seat) + self.raise_for(seat, h)

    def occupied_hexes(self, seat: int) -> list[int]:
        return [h for h in range(NUM_HEXES) if self.owner[h] == seat]

    def cities_count_for_protection(self) -> bool:
        """R-COMBAT-2: whether a hex with only the player's city counts as occupied
        (rules 1 always; rules 2 only with the table option R-OPT-1)."""
        return self.rules_version < 2 or bool(self.options.get(PROTECTION_COUNTS_CITIES))

    def presence(self, seat: int) -> int:
        """Hexes occupied for R-COMBAT-2: hexes with own tokens, plus hexes with only an
        own city when :meth:`cities_count_for_protection`."""
        cities = self.cities_count_for_protection()
        n = 0
        for h in range(NUM_HEXES):
            if self.owner[h] == seat or (cities and self.city_owner[h] == seat):
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
            self.rules_version,
            self.options,  # never mutated after setup
            self.bonus_seat[:],
            self.discard_seen[:],
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
            "rules_version": self.rules_version,
            "options": dict(self.options),
            "bonus_seat": self.bonus_seat[:],
            "discard_seen": self.discard_seen[:],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> State:
        fmt = d.get("format")
        if fmt not in READABLE_STATE_FORMATS:
            raise ValueError(f"unsupported state format {fmt!r}")
        if fmt == 1:  # before rules versions: rules 1, every discard was public
            d = {**d, "rules_version": LEGACY_RULES_VERSION, "options": {},
                 "bonus_seat": [-1] * NUM_HEXES,
                 "discard_seen": [SEEN_BY_ALL] * len(d["discard"])}
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
            rules_version=int(d["rules_version"]),
            options={str(k): bool(v) for k, v in d["options"].items()},
            bonus_seat=list(d["bonus_seat"]),
            discard_seen=list(d["discard_seen"]),
        )
