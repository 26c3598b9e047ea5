"""The lesson's positions: one fixed map, a fixed deck order, and the pieces of each
chapter's first position.

The first chapter is a game from its beginning: :func:`first_round` lays the map's tiles
and the starting tokens as real setup actions, with the deck in an order chosen so that
each draw of the script brings the card the lesson needs. A single game cannot bring
every situation of the lesson within a quarter of an hour, so the later chapters begin at
a position written out here (:func:`position`): the same map, the pieces where the
chapter needs them, each player's era, markers and hand; the rest of the deck in a fixed
order. From there on every step is an action the engine applies (``engine.apply``), the
learner's and the scripted computers' alike.
"""

from __future__ import annotations

from functools import cache

from engine import apply
from engine.actions import PlaceStartToken, PlaceTile
from engine.content import CONTENT
from engine.hexgrid import NUM_HEXES, parse_label
from engine.setup import new_game, start_turn
from engine.state import ACTIONS, MAIN, State

#: the learner plays Red; Blue and Yellow are the computers whose moves are scripted
LEARNER, BLUE, YELLOW = 0, 1, 2
PLAYERS = 3

#: the map: tile, centre, rotation, laid in this order by Red, Blue, Yellow in turn. An
#: island of eight tiles with a lake of three hexes (D4, E4, F3) in its north.
TILES = ((1, "B4", 0), (5, "B7", 2), (12, "D6", 1), (6, "D2", 3), (4, "F8", 4),
         (10, "G5", 3), (2, "B10", 0), (3, "G2", 4))
#: the starting tokens (R-SETUP-5), each player's three in the order they are placed
START_TOKENS = ((LEARNER, ("C4", "C5", "C5")), (BLUE, ("H2", "H2", "G2")),
                (YELLOW, ("B9", "B9", "A8")))


def H(text: str) -> int:
    """A hex from its label (``"C4"``)."""
    return parse_label(text)


def card(kind: str, terrain: str, nth: int = 0) -> int:
    """The id of the ``nth`` card of a type with a background terrain (data/tempus)."""
    return [c.id for c in CONTENT.cards if c.type == kind and c.terrain == terrain][nth]


def deck_with(draws: list[int]) -> list[int]:
    """A full deck (top card last) whose first draws are ``draws``, in order; the other
    cards below them by id."""
    rest = [c for c in range(len(CONTENT.cards)) if c not in draws]
    return rest + draws[::-1]


# ------------------------------------------------------------------ the first round
#: the cards the first two chapters draw, in the order they are drawn
FIRST_DRAWS = [
    card("FOR", "W"),   # Blue, round 1
    card("TRA", "F"),   # Yellow: the farmland card it lays in the first progress phase
    card("EDU", "F"),   # Red: Education with a farmland background, for the progress phase
    card("SAN", "W"),   # Blue
    card("LEA", "H"),   # Red's two cards for reaching Writing first: hills, the terrain
    card("WEA", "H"),   # of the next era
    card("GOV", "G"),   # Red's first draw of round 2
    card("HEA", "W"),
    card("EDU", "H"),   # Blue: its card for the second progress phase
    card("WEA", "W"),   # Yellow
    card("REL", "W"),   # Red's second draw: one over the hand limit
    card("FOR", "F"),
]


@cache
def _setup() -> State:
    state, _ = new_game(PLAYERS, seed=46, start_player=LEARNER,
                        tiles=[tile for tile, _, _ in TILES], deck=deck_with(FIRST_DRAWS))
    for _, centre, rotation in TILES:
        state, _ = apply(state, state.turn, PlaceTile(H(centre), rotation))
    for seat, hexes in START_TOKENS:
        for h in hexes:
            state, _ = apply(state, seat, PlaceStartToken(H(h)))
    return state


def first_round() -> State:
    """The game after its setup: the map laid, every starting token placed, Red to act
    in the first round (each step a real setup action)."""
    return _setup().copy()


# ------------------------------------------------------------------ a written position
def position(*, tokens: dict[str, tuple[int, int]],
             cities: dict[str, tuple[int, int]] | None = None,
             hands: dict[int, list[int]] | None = None,
             eras: dict[int, int] | None = None,
             markers: dict[int, int] | None = None,
             round_number: int = 3, start_player: int = LEARNER, turn: int = LEARNER,
             draws: list[int] | None = None) -> State:
    """A position on the lesson's map in the middle of a round: ``tokens`` and ``cities``
    map hex labels to (seat, count or value); ``eras`` each seat's era cube (0: the
    Starting box); ``markers`` the markers each seat has left (default: its era's
    number); ``turn`` the seat to act, at the start of its turn; ``draws`` the next cards
    drawn, in order."""
    state = first_round()
    state.owner = [-1] * NUM_HEXES
    state.count = [0] * NUM_HEXES
    for p in state.players:
        p.supply = CONTENT.tokens_per_player
        p.cities = list(CONTENT.city_values)
        p.hand = []
    for where, (seat, n) in tokens.items():
        h = H(where)
        state.owner[h], state.count[h] = seat, n
        state.players[seat].supply -= n
    for where, (seat, value) in (cities or {}).items():
        h = H(where)
        state.city_owner[h], state.city_value[h] = seat, value
        state.players[seat].cities.remove(value)
    held: set[int] = set()
    for seat, hand in (hands or {}).items():
        state.players[seat].hand = list(hand)
        held |= set(hand)
    state.deck = [c for c in deck_with(list(draws or [])) if c not in held]
    for seat, p in enumerate(state.players):
        p.era = (eras or {}).get(seat, 0)
        p.markers = (markers or {}).get(seat, CONTENT.eras[p.era].actions)
        assert p.supply >= 0, f"seat {seat} has more tokens than it owns"
    state.phase = ACTIONS
    state.stage = MAIN
    state.era_number = round_number
    state.start_player = start_player
    state.action_round = 1
    start_turn(state, turn)
    return state
