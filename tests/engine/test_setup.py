"""Setting up: R-SETUP-1..7."""

import pytest

from engine import IllegalAction, apply, decisions, legal_actions, new_game
from engine.actions import PlaceStartToken, PlaceTile
from engine.content import CONTENT
from engine.hexgrid import NEIGHBOURS, NUM_HEXES, label, tile_hexes
from engine.setup import tile_fits
from engine.state import ACTIONS, TILES, TOKENS
from tests.engine.helpers import H


@pytest.mark.parametrize("n,tiles", [(3, 8), (4, 10), (5, 12)])
def test_r_setup_3_tiles_in_play(n, tiles):
    """R-SETUP-3: 8/10/12 tiles with 3/4/5 players."""
    state, _ = new_game(n, seed=5)
    assert state.phase == TILES and len(state.tile_stack) == tiles
    state, _ = new_game(n, seed=5, random_map=True)
    assert len(state.placements) + len(state.removed_tiles) == tiles
    assert sum(t is not None for t in state.terrain) == 7 * len(state.placements)


def test_r_setup_1_players_pieces_and_player_count():
    """R-SETUP-1: 3-5 players, 16 tokens, cities 2,2,2,3,3,3,4,4, cubes at the start."""
    for bad in (2, 6):
        with pytest.raises(IllegalAction, match="3 to 5 players"):
            new_game(bad, seed=1)
    state, _ = new_game(4, seed=1)
    for p in state.players:
        assert p.supply == 16 and p.cities == [2, 2, 2, 3, 3, 3, 4, 4] and p.era == 0


def test_r_setup_2_start_player_and_seat_order():
    """R-SETUP-2: the start player places first, then seat order clockwise."""
    state, _ = new_game(3, seed=3, start_player=2)
    assert decisions(state)[0].seat == 2
    state, _ = apply(state, 2, PlaceTile(H("F6"), 0))
    assert decisions(state)[0].seat == 0
    seats = {new_game(3, seed=s)[0].start_player for s in range(30)}
    assert seats == {0, 1, 2}  # random when not chosen


def test_r_setup_4_tile_placement_rules():
    """R-SETUP-4: no overlap, inside the board, touching an earlier tile."""
    state, _ = new_game(3, seed=3, start_player=0)
    with pytest.raises(IllegalAction, match="stick out"):
        apply(state, 0, PlaceTile(H("A1"), 0))
    state, _ = apply(state, 0, PlaceTile(H("F6"), 0))
    with pytest.raises(IllegalAction):  # overlapping
        apply(state, 1, PlaceTile(H("G6"), 0))
    with pytest.raises(IllegalAction):  # a second island, not touching
        apply(state, 1, PlaceTile(H("K10"), 0))
    with pytest.raises(IllegalAction, match="rotation"):
        apply(state, 1, PlaceTile(H("I6"), 6))
    # I6's tile touches F6's ring (G6) along an edge: legal
    state, _ = apply(state, 1, PlaceTile(H("I6"), 3))
    assert state.terrain[H("I6")] is not None
    legal = {a.centre for a in legal_actions(state, 2)}
    assert legal == {h for h in range(NUM_HEXES) if tile_fits(state.terrain, h)}
    assert all(a.rotation in range(6) for a in legal_actions(state, 2))


def test_r_setup_4_rotation_places_terrain():
    """The first ring terrain goes east at rotation 0, south-east at rotation 1."""
    state, _ = new_game(3, seed=3, start_player=0, tiles=[1, 2, 3, 4, 5, 6, 7, 8])
    state, _ = apply(state, 0, PlaceTile(H("F6"), 1))
    tile = CONTENT.tile(1)
    hexes = tile_hexes(H("F6"), 1)
    assert hexes is not None
    assert state.terrain[H("F6")] == tile.centre
    for h, i in hexes[1:]:
        assert state.terrain[h] == tile.ring[i]
    assert state.terrain[hexes[1][0]] == tile.ring[0] and label(hexes[1][0]) == "G7"


def test_r_setup_4_tile_that_fits_nowhere_is_removed():
    """R-SETUP-4: a tile with no legal place is removed from the game."""
    state, _ = new_game(3, seed=3, start_player=0)
    # Fill the board so that no 7-hex tile fits any more, then place the last tile.
    state.terrain = ["G"] * NUM_HEXES
    for h in range(NUM_HEXES):
        state.terrain[h] = "G"
    state.terrain[H("F6")] = None
    for n in NEIGHBOURS[H("F6")]:
        state.terrain[n] = None
    before = len(state.tile_stack)
    state, events = apply(state, 0, PlaceTile(H("F6"), 0))
    assert state.phase == TOKENS
    assert len(state.removed_tiles) == before - 1
    assert any(e.kind == "tile_removed" for e in events)


def _map_state(seed=11, n=3):
    state, _ = new_game(n, seed=seed, random_map=True, start_player=0)
    assert state.phase == TOKENS
    return state


def test_r_setup_7_random_map_is_legal():
    """R-SETUP-7: a generated map obeys R-SETUP-4 (one island, tiles on the board)."""
    for seed in range(20):
        state = _map_state(seed, 3 + seed % 3)
        land = {h for h in range(NUM_HEXES) if state.terrain[h] is not None}
        start = next(iter(land))
        seen, todo = {start}, [start]
        while todo:
            for nb in NEIGHBOURS[todo.pop()]:
                if nb in land and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        assert seen == land
        assert len(land) == 7 * len(state.placements)


def test_r_setup_5_starting_tokens_connected_and_in_turn():
    """R-SETUP-5: 3 tokens each, in turn, connected, stack limit 2, never on others' hexes."""
    state = _map_state()
    first = legal_actions(state, 0)[0].hex
    state, _ = apply(state, 0, PlaceStartToken(first))
    state, _ = apply(state, 0, PlaceStartToken(first))
    with pytest.raises(IllegalAction, match="starting stack limit"):
        apply(state, 0, PlaceStartToken(first))
    far = next(h for h in range(NUM_HEXES) if state.terrain[h] and h not in NEIGHBOURS[first]
               and h != first)
    with pytest.raises(IllegalAction, match="one group"):
        apply(state, 0, PlaceStartToken(far))
    sea = state.terrain.index(None)
    with pytest.raises(IllegalAction, match="sea"):
        apply(state, 0, PlaceStartToken(sea))
    with pytest.raises(IllegalAction, match="not your turn"):
        apply(state, 1, PlaceStartToken(far))
    assert all(a.hex == first or a.hex in NEIGHBOURS[first] for a in legal_actions(state, 0))
    nb = legal_actions(state, 0)[0].hex
    state, _ = apply(state, 0, PlaceStartToken(nb))
    assert decisions(state)[0].seat == 1
    with pytest.raises(IllegalAction, match="Red's tokens"):
        apply(state, 1, PlaceStartToken(first))
    for seat in (1, 2):
        for _ in range(3):
            state, _ = apply(state, seat, legal_actions(state, seat)[0])
    assert state.phase == ACTIONS
    assert [p.supply for p in state.players] == [13, 13, 13]


def test_r_setup_5_mountains_allowed_and_group_finishable():
    """R-SETUP-5 ruling: mountains are allowed; a first token that could not be completed
    into a group of 3 is not offered."""
    state = _map_state(seed=4)
    hexes = {a.hex for a in legal_actions(state, 0)}
    mountains = {h for h in range(NUM_HEXES) if state.terrain[h] == "M"}
    assert hexes & mountains


def test_r_setup_6_deck_shuffled_no_starting_cards():
    """R-SETUP-6: 54 cards face down, nobody starts with cards."""
    state, _ = new_game(5, seed=2)
    assert sorted(state.deck) == list(range(54)) and state.deck != list(range(54))
    assert all(p.hand == [] for p in state.players)
    pinned, _ = new_game(5, seed=2, deck=list(range(54)))
    assert pinned.deck == list(range(54))
    with pytest.raises(IllegalAction):
        new_game(5, seed=2, deck=[0] * 54)
