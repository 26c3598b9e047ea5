"""``normal``'s choices while the game is set up: where each map tile goes and where the
start tokens stand (R-SETUP)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ... import actions as A
from ...content import CONTENT
from ...hexgrid import NEIGHBOURS, NUM_HEXES, distance, neighbour
from ...setup import TILE_CELLS, legal_tile_centres, start_token_hexes
from ...state import State

if TYPE_CHECKING:
    from .player import NormalPlayer, Scored

#: how much a hex of each terrain is worth when choosing where to start (R-SETUP-5)
SITE_TERRAIN = {"G": 1.0, "F": 0.7, "H": 0.5, "W": 0.45, "M": 0.1}


def place_tile(player: NormalPlayer, state: State, seat: int) -> Scored:
    terrain = state.terrain
    first = all(t is None for t in terrain)
    tile = CONTENT.tile(state.tile_stack[0])
    centre_mid = (CONTENT.rows // 2) * CONTENT.columns + CONTENT.columns // 2
    out: Scored = []
    for h in legal_tile_centres(terrain):
        cells = TILE_CELLS[h]
        assert cells is not None
        cellset = set(cells)
        if first:
            touch = -distance(h, centre_mid)
        else:
            touch = sum(1 for x in cells for n in NEIGHBOURS[x]
                        if n not in cellset and terrain[n] is not None)
        for r in range(6):
            # ring entry i lands in direction (i + r) % 6 around the centre
            score = float(touch)
            for i, ter in enumerate(tile.ring):
                x = neighbour(h, (i + r) % 6)
                if x is None:
                    continue
                for n in NEIGHBOURS[x]:
                    if n not in cellset and terrain[n] == ter == "G":
                        score += 0.3
            score += player.rng.random() * 0.2
            out.append((score, A.PlaceTile(h, r)))
    return out


def start_token(player: NormalPlayer, state: State, seat: int) -> Scored:
    placed = state.start_hexes
    out: Scored = []
    for h in start_token_hexes(state, seat):
        s = site_score(player, state, seat, h)
        if h in placed:
            # three hexes beat a stack: more points and growth spots
            s -= player.tactics.site_stack
        s += player.rng.random() * 0.05
        out.append((s, A.PlaceStartToken(h)))
    return out


def site_score(player: NormalPlayer, state: State, seat: int, h: int) -> float:
    """How good a place ``h`` is to start on: its terrain and its neighbours', and how
    far it is from the rivals."""
    tactics = player.tactics
    terrain = state.terrain
    ter = terrain[h]
    assert ter is not None
    s = SITE_TERRAIN[ter] * 1.5
    for n in NEIGHBOURS[h]:
        t = terrain[n]
        if t is None:
            continue
        free = state.owner[n] < 0
        s += tactics.site_neighbour * SITE_TERRAIN[t] * (1.0 if free else 0.2)
        for m in NEIGHBOURS[n]:
            tm = terrain[m]
            if tm is not None and m != h:
                s += 0.06 * SITE_TERRAIN[tm]
    for x in range(NUM_HEXES):
        o = state.owner[x]
        if o >= 0 and o != seat:
            dd = distance(h, x)
            if dd <= 4:
                s -= tactics.site_rival[max(dd, 2) - 2]
    return s
