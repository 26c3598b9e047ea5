"""Game creation and the setup phases: tiles (R-SETUP-3/4/7) and starting tokens (R-SETUP-5)."""

from __future__ import annotations

from .actions import PlaceStartToken, PlaceTile
from .content import CONTENT
from .errors import IllegalAction
from .events import Event, EventKind, colour
from .hexgrid import NEIGHBOURS, NUM_HEXES, label, tile_hexes
from .pieces import add_tokens, rng_for
from .rules import RULES_VERSION, TABLE_OPTIONS, check_rules
from .state import ACTIONS, MAIN, TILES, TOKENS, Player, State


def new_game(
    num_players: int,
    seed: int,
    *,
    start_player: int | None = None,
    random_map: bool = False,
    deck: list[int] | None = None,
    tiles: list[int] | None = None,
    rules_version: int = RULES_VERSION,
    options: dict[str, bool] | None = None,
) -> tuple[State, list[Event]]:
    """A new game in its first decision (tile placement, or tokens with ``random_map``).

    ``deck`` (top card last) and ``tiles`` (next first) pin the shuffles, for tests and
    bug reports; otherwise both come from ``seed``.

    ``rules_version`` is the rules the game is played under (:mod:`engine.rules`): new
    games take the default, the current rules; replaying a stored game must pass the
    version it was started with (1 for games stored before versions existed).
    ``options`` are the table options (R-OPT), e.g. ``{"protection_counts_cities": True}``
    for R-OPT-1; each is off unless given. Rules 1 has none.
    """
    if not CONTENT.min_players <= num_players <= CONTENT.max_players:
        raise IllegalAction.because("setup.players", least=CONTENT.min_players,
                                    most=CONTENT.max_players, n=num_players)
    table_options = check_rules(rules_version, options)
    state = State(
        num_players=num_players,
        seed=int(seed),
        shuffles=0,
        phase=TILES,
        terrain=[None] * NUM_HEXES,
        placements=[],
        tile_stack=[],
        removed_tiles=[],
        owner=[-1] * NUM_HEXES,
        count=[0] * NUM_HEXES,
        city_owner=[-1] * NUM_HEXES,
        city_value=[0] * NUM_HEXES,
        bonus=[0] * NUM_HEXES,
        players=[
            Player(0, 0, CONTENT.tokens_per_player, list(CONTENT.city_values), [])
            for _ in range(num_players)
        ],
        deck=[],
        discard=[],
        start_player=0,
        era_number=1,
        action_round=0,
        turn=0,
        rules_version=rules_version,
        options=table_options,
    )
    rng = rng_for(state)
    drawn_start = rng.randrange(num_players)  # drawn always, so pinning it changes nothing else
    if start_player is None:
        start_player = drawn_start
    if not 0 <= start_player < num_players:
        raise IllegalAction.because("setup.start_player", most=num_players - 1)
    state.start_player = start_player
    state.turn = start_player
    wanted = CONTENT.tiles_in_play[num_players]
    if tiles is None:
        all_tiles = [t.id for t in CONTENT.tiles]
        rng.shuffle(all_tiles)
        tiles = all_tiles[:wanted]
    elif len(tiles) != wanted or len(set(tiles)) != wanted or not set(tiles) <= {
        t.id for t in CONTENT.tiles
    }:
        raise IllegalAction.because("setup.tiles", n=num_players, tiles=wanted)
    state.tile_stack = list(tiles)
    if deck is None:
        deck = list(range(len(CONTENT.cards)))
        rng.shuffle(deck)
    elif sorted(deck) != list(range(len(CONTENT.cards))):
        raise IllegalAction.because("setup.deck")
    state.deck = list(deck)
    on = [TABLE_OPTIONS[k] for k, v in table_options.items() if v]
    chosen = f" Table options: {', '.join(on)}." if on else ""
    events = [
        Event(EventKind.START, f"A game for {num_players} players begins; {colour(start_player)} "
              f"is the start player.{chosen}", start_player,
              data={"players": num_players, "rules_version": rules_version,
                    "options": dict(table_options)})
    ]
    if random_map:
        generate_map(state, events)
    else:
        _skip_unplaceable(state, events)
    return state, events


# ---------------------------------------------------------------- tiles
def _cells(centre: int) -> tuple[int, ...] | None:
    hexes = tile_hexes(centre, 0)
    return None if hexes is None else tuple(h for h, _ in hexes)


#: TILE_CELLS[centre] = the 7 hexes a tile centred there covers, or None if it sticks out.
TILE_CELLS = tuple(_cells(h) for h in range(NUM_HEXES))


def tile_fits(terrain: list[str | None], centre: int, *, first: bool | None = None) -> bool:
    """R-SETUP-4: on the board, no overlap, and touching land unless it is the first."""
    cells = TILE_CELLS[centre]
    if cells is None or any(terrain[h] is not None for h in cells):
        return False
    if first is None:
        first = all(t is None for t in terrain)
    return first or any(terrain[n] is not None for h in cells for n in NEIGHBOURS[h])


def legal_tile_centres(terrain: list[str | None]) -> list[int]:
    first = all(t is None for t in terrain)
    return [h for h in range(NUM_HEXES) if tile_fits(terrain, h, first=first)]


def place_tile(state: State, seat: int, action: PlaceTile, events: list[Event]) -> None:
    if not 0 <= action.rotation < 6:
        raise IllegalAction.because("tile.rotation")
    if not 0 <= action.centre < NUM_HEXES:
        raise IllegalAction.because("tile.off_board")
    if not tile_fits(state.terrain, action.centre):
        raise IllegalAction.because("tile.no_fit", centre=action.centre)
    _lay_tile(state, state.tile_stack.pop(0), action.centre, action.rotation)
    events.append(Event(EventKind.TILE, f"{colour(seat)} places tile {state.placements[-1][0]} at "
                        f"{label(action.centre)} (rotation {action.rotation}).", seat,
                        data={"centre": label(action.centre), "rotation": action.rotation,
                              "tile": state.placements[-1][0]}))
    state.turn = (state.turn + 1) % state.num_players
    _skip_unplaceable(state, events)


def _lay_tile(state: State, tile_id: int, centre: int, rotation: int) -> None:
    tile = CONTENT.tile(tile_id)
    terrain = list(state.terrain)  # replaced, not mutated: copies share the old list
    for h, ring_index in tile_hexes(centre, rotation) or ():
        terrain[h] = tile.centre if ring_index < 0 else tile.ring[ring_index]
    state.terrain = terrain
    state.placements.append([tile_id, centre, rotation])


def _skip_unplaceable(state: State, events: list[Event]) -> None:
    """Remove tiles that fit nowhere (R-SETUP-4); start the token phase when done."""
    while state.tile_stack and not legal_tile_centres(state.terrain):
        gone = state.tile_stack.pop(0)
        state.removed_tiles.append(gone)
        events.append(Event(EventKind.TILE_REMOVED, f"Tile {gone} fits nowhere and is removed.",
                            data={"tile": gone}))
    if not state.tile_stack:
        state.phase = TOKENS
        state.turn = state.start_player
        state.start_hexes = []
        events.append(Event(EventKind.TOKENS, "The map is complete. Each player now places 3 "
                            "starting tokens, starting with "
                            f"{colour(state.start_player)}.", state.start_player,
                            data={"tokens": CONTENT.starting_tokens}))


def generate_map(state: State, events: list[Event]) -> None:
    """R-SETUP-7: place every tile at a random legal position and rotation."""
    rng = rng_for(state)
    while state.tile_stack:
        centres = legal_tile_centres(state.terrain)
        if not centres:
            _skip_unplaceable(state, events)
            return
        _lay_tile(state, state.tile_stack.pop(0), rng.choice(centres), rng.randrange(6))
    events.append(Event(EventKind.MAP, f"A random map of {len(state.placements)} tiles is laid.",
                        data={"tiles": len(state.placements)}))
    _skip_unplaceable(state, events)


# ---------------------------------------------------------------- starting tokens
def start_token_ok(state: State, seat: int, placed: list[int], h: int) -> bool:
    """Whether one more starting token may go on ``h`` given this player's ``placed``."""
    if state.terrain[h] is None:
        return False
    if state.owner[h] not in (-1, seat):
        return False
    if placed.count(h) >= CONTENT.eras[0].stack:
        return False
    return not placed or h in placed or any(p in NEIGHBOURS[h] for p in placed)


def _completable(state: State, seat: int, placed: list[int]) -> bool:
    if len(placed) == CONTENT.starting_tokens:
        return True
    candidates = set(placed)
    for p in placed:
        candidates.update(NEIGHBOURS[p])
    return any(
        start_token_ok(state, seat, placed, h) and _completable(state, seat, placed + [h])
        for h in candidates
    )


def start_token_hexes(state: State, seat: int) -> list[int]:
    """Hexes where the next starting token may go without leaving the group unfinishable."""
    placed = state.start_hexes
    if placed:
        candidates = sorted(set(placed) | {n for p in placed for n in NEIGHBOURS[p]})
    else:
        candidates = list(range(NUM_HEXES))
    return [
        h
        for h in candidates
        if start_token_ok(state, seat, placed, h) and _completable(state, seat, placed + [h])
    ]


def place_start_token(
    state: State, seat: int, action: PlaceStartToken, events: list[Event]
) -> None:
    h = action.hex
    if not 0 <= h < NUM_HEXES:
        raise IllegalAction.because("start.off_board")
    placed = state.start_hexes
    if not start_token_ok(state, seat, placed, h):
        if state.terrain[h] is None:
            raise IllegalAction.because("start.sea", hex=h)
        if state.owner[h] not in (-1, seat):
            raise IllegalAction.because("start.occupied", hex=h, colour=state.owner[h])
        if placed.count(h) >= CONTENT.eras[0].stack:
            raise IllegalAction.because("start.stack", hex=h)
        raise IllegalAction.because("start.not_touching", hex=h, hexes=sorted(set(placed)))
    if not _completable(state, seat, placed + [h]):
        raise IllegalAction.because("start.unfinishable", hex=h)
    add_tokens(state, seat, h, 1)
    state.players[seat].supply -= 1
    placed.append(h)
    events.append(Event(
        EventKind.START_TOKEN, f"{colour(seat)} places a starting token on {label(h)}.",
        seat, data={"hex": label(h)}))
    if len(placed) < CONTENT.starting_tokens:
        return
    state.start_hexes = []
    state.turn = (state.turn + 1) % state.num_players
    if state.turn == state.start_player:
        begin_era(state, events)


# ---------------------------------------------------------------- eras
def begin_era(state: State, events: list[Event]) -> None:
    """R-ROUND-1: everyone takes markers; the start player begins the first action round."""
    state.phase = ACTIONS
    for p in state.players:
        p.markers = CONTENT.eras[p.era].actions
    state.action_round = 1
    start_turn(state, state.start_player)
    events.append(Event(
        EventKind.ERA, f"Round {state.era_number} begins; {colour(state.start_player)} "
        "starts.", state.start_player, data={"era_number": state.era_number}))


def start_turn(state: State, seat: int) -> None:
    state.turn = seat
    state.stage = MAIN
    state.turn_actions = 1
    state.acted = False
    state.steps_left = 0
    state.touched = {}
