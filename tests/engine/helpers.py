"""Building positions for rule tests: a hand-made map, tokens, cities and hands."""

from __future__ import annotations

from engine import apply
from engine.content import CONTENT
from engine.events import Event
from engine.hexgrid import NUM_HEXES, label, parse_label
from engine.rules import RULES_VERSION
from engine.setup import new_game, start_turn
from engine.state import ACTIONS, State


def H(text: str) -> int:
    return parse_label(text)


def card(kind: str, terrain: str, nth: int = 0) -> int:
    """The id of the ``nth`` card of a type with a background terrain."""
    ids = [c.id for c in CONTENT.cards if c.type == kind and c.terrain == terrain]
    return ids[nth]


def make_state(
    n: int = 3,
    *,
    land: str = "B2:L11",
    terrain: dict[str, str] | None = None,
    default_terrain: str = "G",
    sea: list[str] | None = None,
    tokens: dict[str, tuple[int, int]] | None = None,
    cities: dict[str, tuple[int, int]] | None = None,
    hands: dict[int, list[int]] | None = None,
    eras: dict[int, int] | None = None,
    turn: int = 0,
    start_player: int = 0,
    markers: int | None = None,
    rules_version: int = RULES_VERSION,
    options: dict[str, bool] | None = None,
) -> State:
    """A state in the action phase, ``turn``'s turn, with a rectangle of land.

    ``land`` is a rectangle "B2:L11" of land hexes (all ``default_terrain`` unless
    ``terrain`` overrides them); ``sea`` turns hexes inside it into sea (lakes).
    ``tokens`` and ``cities`` map labels to (seat, count/value). ``rules_version`` and
    ``options`` as for :func:`engine.setup.new_game` (default: the current rules).
    """
    state, _ = new_game(n, seed=1, start_player=start_player, rules_version=rules_version,
                        options=options)
    a, b = land.split(":")
    a_col, a_row = ord(a[0]) - 65, int(a[1:]) - 1
    b_col, b_row = ord(b[0]) - 65, int(b[1:]) - 1
    ter: list[str | None] = [None] * NUM_HEXES
    for h in range(NUM_HEXES):
        col, row = h % 13, h // 13
        if a_col <= col <= b_col and a_row <= row <= b_row:
            ter[h] = default_terrain
    for lab, t in (terrain or {}).items():
        ter[H(lab)] = t
    for lab in sea or []:
        ter[H(lab)] = None
    state.terrain = ter
    state.tile_stack = []
    state.phase = ACTIONS
    for seat, p in enumerate(state.players):
        p.era = (eras or {}).get(seat, 0)
    for lab, (seat, count) in (tokens or {}).items():
        h = H(lab)
        state.owner[h] = seat
        state.count[h] = count
        state.players[seat].supply -= count
    for lab, (seat, value) in (cities or {}).items():
        h = H(lab)
        state.city_owner[h] = seat
        state.city_value[h] = value
        state.players[seat].cities.remove(value)
    held: set[int] = set()
    for seat, hand in (hands or {}).items():
        state.players[seat].hand = list(hand)
        held |= set(hand)
    state.deck = [c for c in range(len(CONTENT.cards)) if c not in held]
    for p in state.players:
        p.markers = CONTENT.eras[p.era].actions if markers is None else markers
    state.start_player = start_player
    state.action_round = 1
    start_turn(state, turn)
    return state


def play(state: State, seat: int, *actions) -> tuple[State, list[Event]]:
    """Apply several actions by one seat; returns the final state and all events."""
    events: list[Event] = []
    for a in actions:
        state, ev = apply(state, seat, a)
        events += ev
    return state, events


def tokens_of(state: State, seat: int) -> dict[str, int]:
    return {label(h): state.count[h] for h in range(NUM_HEXES) if state.owner[h] == seat}
