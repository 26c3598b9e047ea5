"""Static evaluation of a position: every seat's expected worth in victory-point units.

The evaluation reads only public facts (the board, supplies, eras, hand *sizes*) so that
it gives the same answer on every determinisation of a view. One pass over the land
hexes scores all seats at once; the search compares the result across seats.

What is counted, and why:

* victory points now (R-END-2): occupied non-mountain hexes and city values;
* tokens on the board and in supply: they become hexes, cities and combat strength
  later, so their worth shrinks as the game nears its end;
* growth capacity (R-GROW): own grassland hexes with room, up to the era's growth rate;
* the coming progress phase (R-PROG-3): points already on the next era's terrain
  against the best rival, times what winning that era is worth (more actions, bonus
  cards, Flight's victory points);
* exposure to attack (R-COMBAT-2/6/7): own hexes next to a stronger enemy stack;
* cards in hand, up to the hand limit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from ..content import CONTENT
from ..geography import geography
from ..hexgrid import NEIGHBOURS, NUM_HEXES
from ..progress import victory_points
from ..state import ACTIONS, OVER, PROGRESS, State

FLIGHT = CONTENT.flight
ERAS = CONTENT.eras


@dataclass(frozen=True, slots=True)
class Weights:
    """Tunable worths (victory-point units). ``*_late`` is the worth in the last era,
    the plain value the worth at the start; in between they are interpolated."""

    hex_mountain: float = 0.15
    token: float = 0.55
    token_late: float = 0.12
    supply: float = 0.25
    supply_late: float = 0.0
    supply_cap: int = 4
    grow: float = 0.9
    grow_late: float = 0.0
    grass_full: float = 0.3
    city_progress: float = 0.25  # per remaining era: a city is a progress point each era
    frontier: float = 0.12
    frontier_cap: int = 6
    card: float = 0.45
    card_late: float = 0.3
    progress_scale: float = 1.6
    threat: float = 0.55  # how likely a winnable attack on us is actually made
    card_strength: float = 0.7  # expected combat strength one unknown card adds
    protected_bonus: float = 0.0
    rival: float = 0.35  # weight of the rivals' mean in a seat's relative worth


DEFAULT_WEIGHTS = Weights()


def progress_prize(era_index: int) -> float:
    """What advancing into ``era_index`` ahead of the others is worth (R-PROG-5).

    The winner uses the better row of the era table for one era (R-ERA), draws bonus
    cards (R-ERA-3) or, at the end, scores Flight's victory points (R-ERA-4).
    """
    new = ERAS[era_index]
    if new.final:
        return float(CONTENT.flight_victory_points)
    old = ERAS[era_index - 1]
    prize = 1.3 * (new.actions - old.actions)
    prize += 0.5 * (new.move - old.move) + 0.3 * (new.distance > old.distance)
    prize += 0.6 * (new.growth - old.growth) + 0.5 * (new.stack - old.stack)
    prize += 0.5 * (new.sea and not old.sea) + 0.2 * (new.limit > old.limit)
    prize += 0.45 * new.bonus_draw
    return prize + 0.3


@dataclass(frozen=True, slots=True)
class MapInfo:
    land: tuple[int, ...]
    mountain: frozenset[int]
    #: land neighbours of each hex
    land_nb: tuple[tuple[int, ...], ...]
    coastal: frozenset[int]


@lru_cache(maxsize=32)
def _map_info(terrain: tuple[str | None, ...]) -> MapInfo:
    land = tuple(h for h in range(NUM_HEXES) if terrain[h] is not None)
    nb = tuple(tuple(n for n in NEIGHBOURS[h] if terrain[n] is not None) for h in range(NUM_HEXES))
    return MapInfo(land, frozenset(h for h in land if terrain[h] == "M"), nb,
                   geography(terrain).coastal)


def map_info(state: State) -> MapInfo:
    return _map_info(tuple(state.terrain))


def lerp(early: float, late: float, t: float) -> float:
    return late + (early - late) * t


def time_left(state: State) -> float:
    """1.0 in the first era, 0.0 in the last."""
    return max(0.0, (FLIGHT - state.era_number) / (FLIGHT - 1))


def next_progress_era(state: State) -> int:
    """Index of the era the coming progress phase decides (R-PROG-3)."""
    return min(max(p.era for p in state.players) + 1, FLIGHT)


def win_chance(margin: float, scale: float = 1.0) -> float:
    """A smooth chance of coming out ahead by ``margin`` (ties count half won)."""
    return 1.0 / (1.0 + math.exp(-margin / scale))


def loss_chance(att: float, dfn: float) -> float:
    """Chance that an attack of expected strength ``att`` beats ``dfn`` (ties: defender)."""
    return 1.0 / (1.0 + math.exp(-(att - dfn - 0.5) * 1.6))


class Evaluator:
    """Scores positions of one game from the point of view of all seats at once."""

    def __init__(self, state: State, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.w = weights
        self.refresh(state)

    def refresh(self, state: State) -> None:
        """Recompute the era-dependent constants (call when eras or the map change)."""
        w = self.w
        self.map = map_info(state)
        t = time_left(state)
        self.t = t
        self.tok = lerp(w.token, w.token_late, t)
        self.sup = lerp(w.supply, w.supply_late, t)
        self.grow = lerp(w.grow, w.grow_late, t)
        self.card = lerp(w.card, w.card_late, t)
        self.city_bonus = w.city_progress * (FLIGHT - state.era_number)
        nxt = next_progress_era(state)
        self.next_terrain = ERAS[nxt].terrain
        self.prize = progress_prize(nxt)

    def values(self, state: State) -> list[float]:
        """Each seat's worth (absolute, not relative to the others)."""
        if state.phase == OVER:
            return [float(s) for s in state.scores]
        w = self.w
        n = state.num_players
        owner, count = state.owner, state.count
        city_owner, city_value = state.city_owner, state.city_value
        bonus = state.bonus
        mp = self.map
        mountain = mp.mountain
        terrain = state.terrain
        players = state.players
        rows = [state.era(s) for s in range(n)]
        stack = [r.stack for r in rows]
        tok = self.tok
        nt = self.next_terrain
        val = [0.0] * n
        presence = [0] * n
        prog = [0] * n
        grass = [0] * n
        grass_room = [0] * n
        frontier = [0] * n
        land = mp.land
        # pass 1: material, presence, progress points, growth capacity
        for h in land:
            o = owner[h]
            if o >= 0:
                c = count[h]
                presence[o] += 1
                val[o] += (w.hex_mountain if h in mountain else 1.0) + c * tok
                ter = terrain[h]
                if ter == nt:
                    prog[o] += c
                if ter == "G":
                    if c < stack[o] + bonus[h]:
                        grass_room[o] += 1
                    else:
                        grass[o] += 1
            co = city_owner[h]
            if co >= 0:
                presence[co] += 1
                prog[co] += CONTENT.city_progress
                val[co] += city_value[h] + self.city_bonus
        # pass 2: exposure to attack and room to expand
        cards = [len(p.hand) for p in players]
        cs = w.card_strength
        protected_max = CONTENT.protected_max_hexes
        seen = [-1] * NUM_HEXES
        nbs = mp.land_nb
        for h in land:
            o = owner[h]
            co = city_owner[h]
            d = o if o >= 0 else co
            if d < 0:
                continue
            if o >= 0:
                for x in nbs[h]:
                    if owner[x] < 0 and city_owner[x] < 0 and x not in mountain and seen[x] != o:
                        seen[x] = o
                        frontier[o] += 1
            if presence[d] <= protected_max:
                continue
            best = 0.0
            for x in nbs[h]:
                e = owner[x]
                if e >= 0 and e != d:
                    a = count[x] + cs * min(cards[e], 2)
                    if a > best:
                        best = a
            if best <= 0.0:
                continue
            if o >= 0:
                dfn = count[h] + 0.5 * cs * min(cards[d], 2)
                at_stake = (w.hex_mountain if h in mountain else 1.0) + count[h] * tok
            else:
                dfn = city_value[h] + 0.8 * cs * min(cards[d], 2)
                at_stake = city_value[h] + self.city_bonus
            val[d] -= w.threat * loss_chance(best, dfn) * at_stake
        # per-seat terms
        top_prog = sorted(((prog[s] + 0.5 * min(cards[s], 3), s) for s in range(n)),
                          reverse=True)
        for s in range(n):
            p = players[s]
            r = rows[s]
            val[s] += self.sup * min(p.supply, w.supply_cap)
            if p.supply > 0:
                val[s] += self.grow * min(grass_room[s], r.growth)
                val[s] += w.grass_full * self.grow * min(grass[s], r.growth)
            val[s] += w.frontier * min(frontier[s], w.frontier_cap)
            val[s] += self.card * min(cards[s], r.limit)
            if p.era >= FLIGHT:
                val[s] += CONTENT.flight_victory_points
            if state.phase in (ACTIONS, PROGRESS) or state.phase == "tokens":
                mine = prog[s] + 0.5 * min(cards[s], 3)
                rival = top_prog[0][0] if top_prog[0][1] != s else (
                    top_prog[1][0] if n > 1 else 0.0)
                val[s] += self.prize * win_chance(mine - rival + 0.3, w.progress_scale)
        return val

    def relative(self, state: State, seat: int) -> float:
        """``seat``'s worth minus a share of the rivals' mean worth."""
        v = self.values(state)
        others = [v[s] for s in range(len(v)) if s != seat]
        return v[seat] - self.w.rival * (sum(others) / len(others))

    def utility(self, state: State) -> list[float]:
        """Per seat: worth minus the best rival's worth (what winning is about)."""
        v = self.values(state)
        out = []
        for s in range(len(v)):
            best = max(v[o] for o in range(len(v)) if o != s)
            out.append(v[s] - best)
        return out


def final_points(state: State) -> list[int]:
    return [victory_points(state, s) for s in range(state.num_players)]
