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
from operator import add

from ..content import CONTENT
from ..geography import geography
from ..hexgrid import NEIGHBOURS, NUM_HEXES
from ..progress import all_victory_points
from ..state import ACTIONS, OVER, PROGRESS, TOKENS, State

FLIGHT = CONTENT.flight
ERAS = CONTENT.eras
#: the phases in which the coming progress phase's race is part of a position's worth
RACE_PHASES = frozenset((ACTIONS, PROGRESS, TOKENS))


def ramp(early: float, late: float) -> tuple[float, ...]:
    """A per-era schedule going linearly from ``early`` (first era) to ``late`` (last)."""
    n = FLIGHT
    return tuple(late + (early - late) * (n - 1 - i) / (n - 1) for i in range(n))


@dataclass(frozen=True, slots=True)
class Weights:
    """Worths in victory-point units. Tuples are per era (index = era number - 1).

    The schedules were fitted by regressing final scores on these features over 600
    self-play games of an earlier version (then smoothed by hand): early on, tokens
    and the growth engine predict the final score far better than the hexes held now.
    """

    hex: tuple[float, ...] = (0.5, 0.45, 0.45, 0.4, 0.3, 0.3, 0.3, 0.35, 0.5, 0.75)
    hex_mountain: float = 0.05
    token: tuple[float, ...] = (0.9, 0.9, 0.85, 0.7, 0.6, 0.55, 0.5, 0.5, 0.45, 0.3)
    supply: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0, 0.05, 0.15, 0.25, 0.15, 0.1, 0.0)
    supply_cap: int = 4
    #: per own grassland hex, up to the era's growth rate (when the supply is not empty)
    grow: tuple[float, ...] = (2.0, 2.0, 2.0, 2.2, 2.2, 2.0, 1.5, 0.9, 0.4, 0.2)
    #: per empty grassland hex next to own tokens, up to the growth rate not yet covered
    reach: tuple[float, ...] = (1.8, 1.6, 1.6, 1.9, 2.0, 1.8, 1.4, 1.0, 0.6, 0.1)
    #: per own grassland hex with room to grow now
    room: tuple[float, ...] = (1.0, 1.1, 1.1, 0.5, 0.6, 0.7, 0.8, 0.8, 0.6, 0.1)
    #: per own city, on top of its value
    city_each: tuple[float, ...] = (0.8, 0.8, 0.8, 0.6, 0.5, 0.2, 0.0, 0.0, 0.1, 0.0)
    #: times the biggest city some own stack could become now
    city_ready: tuple[float, ...] = (0.3, 0.1, 0.0, 0.0, 0.0, 0.2, 0.3, 0.3, 0.35, 0.15)
    frontier: tuple[float, ...] = (0.4, 0.4, 0.25, 0.05, 0.0, 0.0, 0.0, 0.0, 0.0, 0.05)
    frontier_cap: int = 6
    #: each of the first ``card_cap`` cards; later ones count half
    card: tuple[float, ...] = (0.25, 0.35, 0.25, 0.3, 0.4, 0.4, 0.25, 0.2, 0.18, 0.18)
    card_cap: int = 3
    #: an action still to take this era
    marker: tuple[float, ...] = (0.6, 0.55, 0.55, 0.6, 0.45, 0.5, 0.45, 0.4, 0.4, 0.3)
    #: how likely a winnable attack on us is actually made
    threat: tuple[float, ...] = (0.6, 0.5, 0.55, 0.6, 0.6, 0.4, 0.3, 0.25, 0.2, 0.1)
    #: times the prize of the coming progress phase and the chance of winning it
    progress: float = 1.0
    progress_scale: float = 1.6
    card_strength: float = 0.7  # expected combat strength one unknown card adds
    rival: float = 0.35  # weight of the rivals' mean in a seat's relative worth
    #: weight of the best rival's worth on top of the mean's (a win needs to beat the
    #: leader, not the average)
    rival_best: float = 0.0


#: the first, hand-set weights (kept for comparison runs)
HAND_WEIGHTS = Weights(
    hex=ramp(1.0, 1.0), hex_mountain=0.15, token=ramp(0.55, 0.12), supply=ramp(0.25, 0.0),
    grow=ramp(1.2, 0.0), reach=ramp(0.42, 0.0), room=ramp(0.15, 0.15),
    city_each=ramp(0.12 * (FLIGHT - 1), 0.0), city_ready=ramp(0.35, 0.35),
    frontier=ramp(0.12, 0.12), card=ramp(0.32, 0.25), marker=ramp(0.6, 0.6),
    threat=ramp(0.55, 0.55),
)
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


@lru_cache(maxsize=64)
def _terrain_tables(terrain: tuple[str | None, ...], next_terrain: str, hex_worth: float,
                    mountain_worth: float) -> tuple[tuple[float, ...], tuple[bool, ...],
                                                    tuple[bool, ...], tuple[bool, ...]]:
    """Per hex: the worth of occupying it, whether it is the next era's terrain, grassland,
    and land a city may stand on. Kept per map and era (every decision's evaluator
    needs them, and building them costs as much as scoring a few moves)."""
    return (tuple(0.0 if ter is None else (mountain_worth if ter == "M" else hex_worth)
                  for ter in terrain),
            tuple(ter == next_terrain for ter in terrain),
            tuple(ter == "G" for ter in terrain),
            tuple(ter is not None and ter != "M" for ter in terrain))


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


class Snapshot:
    """Per-hex and per-seat sums behind one evaluation (see :meth:`Evaluator.snapshot`)."""

    __slots__ = ("base", "hv", "hs", "fs", "presence", "prog", "grass", "grass_room",
                 "ready", "frontier", "fgrass", "protected", "extra", "att_bonus",
                 "race")

    def __init__(self, n: int, per_hex: bool = True) -> None:
        self.base = [0.0] * n
        # a changed position's sums (Evaluator.changed) never need the per-hex lists
        self.hv = [0.0] * NUM_HEXES if per_hex else []
        self.hs = [-1] * NUM_HEXES if per_hex else []
        self.fs: dict[int, tuple[int, ...]] = {}
        self.presence = [0] * n
        self.prog = [0] * n
        self.grass = [0] * n
        self.grass_room = [0] * n
        self.ready: list[dict[int, int]] = [{} for _ in range(n)]
        self.frontier = [0] * n
        self.fgrass = [0] * n
        self.protected: list[bool] = []
        self.extra: list[float] = []
        #: each seat's expected attack bonus from its cards (fixed while cards are)
        self.att_bonus: list[float] = []
        #: the progress race's terms per seat (:meth:`Evaluator.progress_race`), once known
        self.race: tuple[float, ...] | None = None

    def derived(self) -> Snapshot:
        """A copy of the per-seat sums for :meth:`Evaluator.changed` to adjust (the
        per-hex lists are not needed there; ``ready`` is copied by the caller, per seat
        it changes; presence and protection are shared, as ``changed`` hands a change
        of protection over to :meth:`Evaluator.after`)."""
        new = Snapshot.__new__(Snapshot)
        new.base = self.base[:]
        new.hv = []
        new.hs = []
        new.fs = {}
        new.presence = self.presence
        new.prog = self.prog[:]
        new.grass = self.grass[:]
        new.grass_room = self.grass_room[:]
        new.ready = self.ready[:]
        new.frontier = self.frontier[:]
        new.fgrass = self.fgrass[:]
        new.protected = self.protected
        new.extra = []
        new.att_bonus = self.att_bonus
        new.race = None
        return new


class Evaluator:
    """Scores positions of one game from the point of view of all seats at once.

    Constants that depend on the map and the eras are cached and recomputed by
    :meth:`values` when those change (as they do during a rollout).
    """

    def __init__(self, state: State, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.w = weights
        self._key: tuple | None = None
        self._loss: dict[tuple[float, float], float] = {}
        self._race: dict[tuple[int, ...], tuple[float, ...]] = {}
        self.refresh(state)

    def refresh(self, state: State) -> None:
        """Recompute the era-dependent constants."""
        w = self.w
        self._race.clear()  # its numbers depend on the coming era's prize
        # the map list itself is kept so that its id cannot be reused by another map
        self._terrain = state.terrain
        self._key = (state.era_number, tuple(p.era for p in state.players), id(state.terrain))
        terrain_key = tuple(state.terrain)
        self.map = _map_info(terrain_key)
        t = time_left(state)
        self.t = t
        e = min(max(state.era_number, 1), FLIGHT) - 1
        self.hex = w.hex[e]
        self.tok = w.token[e]
        self.sup = w.supply[e]
        self.grow = w.grow[e]
        self.reach = w.reach[e]
        self.room = w.room[e]
        self.card = w.card[e]
        self.city_bonus = w.city_each[e]
        self.city_ready = w.city_ready[e]
        self.frontier = w.frontier[e]
        self.marker = w.marker[e]
        self.threat = w.threat[e]
        nxt = next_progress_era(state)
        self.next_terrain = ERAS[nxt].terrain
        self.prize = progress_prize(nxt)
        self.rows = [state.era(s) for s in range(state.num_players)]
        #: per hex: worth of occupying it, on the next era's terrain, grassland, buildable
        self.hexval, self.is_next, self.is_grass, self.buildable = _terrain_tables(
            terrain_key, self.next_terrain, self.hex, w.hex_mountain)

    def check(self, state: State) -> None:
        """Refresh the constants if the era, the seats' eras or the map changed."""
        key = (state.era_number, tuple(p.era for p in state.players), id(state.terrain))
        if key != self._key:
            self.refresh(state)

    def hand_value(self, cards: int, limit: int) -> float:
        """Worth of holding ``cards`` cards: the first few count fully, later ones half."""
        k = min(cards, limit)
        cap = self.w.card_cap
        return self.card * (min(k, cap) + 0.5 * max(0, k - cap))

    def loss_chance(self, att: float, dfn: float) -> float:
        key = (att, dfn)
        p = self._loss.get(key)
        if p is None:
            p = self._loss[key] = loss_chance(att, dfn)
        return p

    # -------------------------------------------------------------- per-hex terms
    def _hex_value(self, state: State, h: int, protected: list[bool],
                   att_bonus: list[float]) -> tuple[int, float]:
        """(seat credited, worth) of what stands on ``h``: material minus exposure."""
        owner, count = state.owner, state.count
        o = owner[h]
        if o >= 0:
            c = count[h]
            hv = self.hexval[h]
            v = hv + c * self.tok
            d = o
        else:
            d = state.city_owner[h]
            if d < 0:
                return -1, 0.0
            c = state.city_value[h]
            v = c + self.city_bonus
        if protected[d]:
            return d, v
        best = 0.0
        for x in self.map.land_nb[h]:
            e = owner[x]
            if e >= 0 and e != d:
                a = count[x] + att_bonus[e]
                if a > best:
                    best = a
        if best > 0.0:
            dfn = c + (0.5 if o >= 0 else 0.8) * att_bonus[d]
            v -= self.threat * self.loss_chance(best, dfn) * v
        return d, v

    def _frontier_seats(self, state: State, x: int) -> tuple[int, ...]:
        """Seats for which empty land ``x`` is room to expand into (next to their tokens)."""
        if state.owner[x] >= 0 or state.city_owner[x] >= 0 or not self.buildable[x]:
            return ()
        owner = state.owner
        return tuple({owner[n] for n in self.map.land_nb[x] if owner[n] >= 0})

    def snapshot(self, state: State) -> Snapshot:
        """Everything :meth:`values` sums, kept per hex so that small changes (a token
        moved or grown) can be re-scored by looking at a few hexes only."""
        self.check(state)
        n = state.num_players
        snap = Snapshot(n)
        owner, count = state.owner, state.count
        city_owner = state.city_owner
        cities_count = state.cities_count_for_protection()
        for h in self.map.land:
            o = owner[h]
            if o >= 0:
                snap.presence[o] += 1
                self._add_aggregates(state, snap, h, 1)
            elif city_owner[h] >= 0:
                if cities_count:  # R-COMBAT-2 (rules 1, or R-OPT-1)
                    snap.presence[city_owner[h]] += 1
                snap.prog[city_owner[h]] += CONTENT.city_progress
        protected = [p <= CONTENT.protected_max_hexes for p in snap.presence]
        att_bonus = snap.att_bonus = self._att_bonus(state)
        land_nb, buildable, is_grass = self.map.land_nb, self.buildable, self.is_grass
        hs, hv, base, sfs = snap.hs, snap.hv, snap.base, snap.fs
        frontier, fgrass = snap.frontier, snap.fgrass
        for h in self.map.land:
            if owner[h] >= 0 or city_owner[h] >= 0:
                d, v = self._hex_value(state, h, protected, att_bonus)
                hs[h] = d
                hv[h] = v
                base[d] += v
            elif not buildable[h]:
                sfs[h] = ()
            else:
                fs = sfs[h] = self._next_to(owner, land_nb[h])
                g = is_grass[h]
                for o in fs:
                    frontier[o] += 1
                    if g:
                        fgrass[o] += 1
        del count
        snap.protected = protected
        snap.extra = [self._seat_extra(state, snap, s) for s in range(n)]
        return snap

    @staticmethod
    def _next_to(owner: list[int], neighbours: tuple[int, ...]) -> tuple[int, ...]:
        """The seats with tokens on ``neighbours`` (for an empty hex: the seats it is
        frontier to), in the order met."""
        fs: tuple[int, ...] = ()
        for x in neighbours:
            o = owner[x]
            if o >= 0 and o not in fs:
                fs += (o,)
        return fs

    def after(self, state: State, snap: Snapshot, hexes: tuple[int, ...],
              before: tuple[tuple[int, int], ...]) -> Snapshot:
        """The :meth:`snapshot` of ``state``, built from ``snap``, the snapshot of the
        position before the owners and counts of ``hexes`` changed (``before`` holds
        each hex's earlier (owner, count); supplies may have changed too; cities, cards,
        eras and the map are as in ``snap``).

        Unlike :meth:`changed`, whose worths may differ from a fresh evaluation's in
        the last bit, this is the very snapshot :meth:`snapshot` would build: only the
        hexes whose terms can have changed are scored again (the area around
        ``hexes``, and every hex of a seat whose protection changed), but every sum of
        floats is then taken afresh over the land in the map's order, as
        :meth:`snapshot` takes it."""
        owner, count, city_owner = state.owner, state.count, state.city_owner
        n = state.num_players
        presence = snap.presence[:]
        for h, (o0, _c0) in zip(hexes, before):
            o1 = owner[h]
            if o0 != o1:
                if o0 >= 0:
                    presence[o0] -= 1
                if o1 >= 0:
                    presence[o1] += 1
        pm = CONTENT.protected_max_hexes
        protected = [p <= pm for p in presence]
        flipped = [s for s in range(n) if protected[s] != snap.protected[s]]
        new = Snapshot.__new__(Snapshot)
        new.presence = presence
        new.protected = protected
        new.att_bonus = att_bonus = snap.att_bonus
        new.race = None
        new.prog = snap.prog[:]
        new.grass = snap.grass[:]
        new.grass_room = snap.grass_room[:]
        new.frontier = frontier = snap.frontier[:]
        new.fgrass = fgrass = snap.fgrass[:]
        new.hs = hs = snap.hs[:]
        new.hv = hv = snap.hv[:]
        new.fs = sfs = dict(snap.fs)
        # the token aggregates (integers): out with the old hexes, in with the new
        seats = {o for o, _ in before}
        seats.update(owner[h] for h in hexes)
        seats.discard(-1)
        new.ready = snap.ready[:]
        for o in seats:
            new.ready[o] = dict(new.ready[o])
        saved = [(h, owner[h], count[h]) for h in hexes]
        for h, (o0, c0) in zip(hexes, before):
            owner[h], count[h] = o0, c0
        for h in hexes:
            self._add_aggregates(state, new, h, -1)
        for h, o1, c1 in saved:
            owner[h], count[h] = o1, c1
        for h in hexes:
            self._add_aggregates(state, new, h, 1)
        # the per-hex terms that can have changed
        nb, buildable, is_grass = self.map.land_nb, self.buildable, self.is_grass
        again: set[int] = set(hexes)
        for h in hexes:
            again.update(nb[h])
        if flipped:
            again.update(h for h in self.map.land if hs[h] in flipped)
        for h in again:
            for o in snap.fs.get(h, ()):
                frontier[o] -= 1
                if is_grass[h]:
                    fgrass[o] -= 1
            if owner[h] >= 0 or city_owner[h] >= 0:
                hs[h], hv[h] = self._hex_value(state, h, protected, att_bonus)
                sfs.pop(h, None)
                continue
            hs[h], hv[h] = -1, 0.0
            if not buildable[h]:
                sfs[h] = ()
                continue
            fs = sfs[h] = self._next_to(owner, nb[h])
            g = is_grass[h]
            for o in fs:
                frontier[o] += 1
                if g:
                    fgrass[o] += 1
        # the sums of worths, in the order snapshot() adds them
        new.base = base = [0.0] * n
        for h in self.map.land:
            d = hs[h]
            if d >= 0:
                base[d] += hv[h]
        new.extra = [self._seat_extra(state, new, s) for s in range(n)]
        return new

    def _att_bonus(self, state: State) -> list[float]:
        cs = self.w.card_strength
        return [cs * min(len(p.hand), 2) for p in state.players]

    def _add_aggregates(self, state: State, snap: Snapshot, h: int, sign: int) -> None:
        """Add (sign 1) or remove (-1) the token aggregates of hex ``h``."""
        o = state.owner[h]
        if o < 0:
            return
        c = state.count[h]
        if self.is_next[h]:
            snap.prog[o] += sign * c
        if self.is_grass[h]:
            snap.grass[o] += sign
            if c < self.rows[o].stack + (state.raise_for(o, h) if state.bonus[h] else 0):
                snap.grass_room[o] += sign
        if c >= 2 and self.buildable[h]:
            for x in NEIGHBOURS[h]:
                if state.city_owner[x] >= 0:
                    return
            r = snap.ready[o]
            r[c] = r.get(c, 0) + sign

    def values(self, state: State, snap: Snapshot | None = None) -> list[float]:
        """Each seat's worth (absolute, not relative to the others); ``snap``, if given,
        is this position's :meth:`snapshot`."""
        if state.phase == OVER:
            return [float(s) for s in state.scores]
        if snap is None:
            snap = self.snapshot(state)
        return self.finish(state, snap, set(), snap)

    def finish(self, state: State, snap: Snapshot,
               seats: set[int] | None = None, old: Snapshot | None = None) -> list[float]:
        """Add the per-seat terms to the per-hex sums of ``snap``; with ``seats`` and
        ``old`` given, only those seats' terms are recomputed, the rest come from ``old``."""
        n = state.num_players
        players = state.players
        if seats is None or old is None:
            snap.extra = [self._seat_extra(state, snap, s) for s in range(n)]
        else:
            snap.extra = old.extra[:]
            for s in seats:
                snap.extra[s] = self._seat_extra(state, snap, s)
        val = [snap.base[s] + snap.extra[s] for s in range(n)]
        if state.phase in RACE_PHASES:
            race = old.race if old is not None and snap.prog == old.prog else None
            if race is None:
                race = self.progress_race(snap.prog, [min(len(p.hand), 3) for p in players])
            snap.race = race
            for s in range(n):
                val[s] += race[s]
        return val

    def progress_race(self, prog: list[int], cards: list[int]) -> tuple[float, ...]:
        """Per seat: the coming progress phase's prize times the chance of winning it,
        from the seats' points on its terrain and their cards (up to three). Most
        positions scored in one decision share these numbers, so they are kept by
        their inputs (until the era's constants change)."""
        key = (*prog, *cards)
        race = self._race.get(key)
        if race is None:
            n = len(prog)
            scale = self.w.progress_scale
            prize = self.w.progress * self.prize
            score = [prog[s] + 0.5 * cards[s] for s in range(n)]
            first = max(range(n), key=score.__getitem__)
            second = max((s for s in range(n) if s != first), key=score.__getitem__)
            out = []
            for s in range(n):
                rival = score[first] if first != s else score[second]
                out.append(prize * win_chance(score[s] - rival + 0.3, scale))
            race = self._race[key] = tuple(out)
        return race

    def _seat_extra(self, state: State, snap: Snapshot, s: int) -> float:
        """The per-seat terms (supply, growth, cities, room, cards, Flight)."""
        # (``a if a < b else b`` is min(a, b) of these ints without a call; this runs
        # for every scored move)
        w = self.w
        p = state.players[s]
        r = self.rows[s]
        supply = p.supply
        cap = w.supply_cap
        val = self.sup * (supply if supply < cap else cap)
        if supply > 0:
            growth = r.growth
            grown = snap.grass[s]
            if grown > growth:
                grown = growth
            val += self.grow * grown
            reach = snap.fgrass[s]
            if reach > growth - grown:
                reach = growth - grown
            val += self.reach * reach
            room = snap.grass_room[s]
            val += self.room * (room if room < growth else growth)
        ready = snap.ready[s]
        if ready and p.cities:
            top = 0
            for c, k in ready.items():
                if k > 0 and c > top:
                    top = c
            fit = 0
            for v in p.cities:
                if fit < v <= top:
                    fit = v
            val += self.city_ready * fit
        f = snap.frontier[s]
        cap = w.frontier_cap
        val += self.frontier * (f if f < cap else cap)
        # hand_value, inline
        k = len(p.hand)
        if k > r.limit:
            k = r.limit
        cap = w.card_cap
        val += self.card * ((k if k < cap else cap) + 0.5 * (k - cap if k > cap else 0))
        val += self.marker * p.markers
        if p.era >= FLIGHT:
            val += CONTENT.flight_victory_points
        return val

    def changed(self, state: State, snap: Snapshot, hexes: tuple[int, ...],
                before: tuple[tuple[int, int], ...]) -> list[float]:
        """Worths after ``hexes`` changed (``state`` is already changed; ``before`` holds
        each hex's (owner, count) from the snapshot's time). Cities, cards, eras and the
        map must be as in the snapshot."""
        owner, city_owner = state.owner, state.city_owner
        n = state.num_players
        # a change of protection (R-COMBAT-2) changes every exposure: score afresh
        moved: dict[int, int] = {}
        for h, (o0, _c0) in zip(hexes, before):
            o1 = owner[h]
            if o0 != o1:
                if o0 >= 0:
                    moved[o0] = moved.get(o0, 0) - 1
                if o1 >= 0:
                    moved[o1] = moved.get(o1, 0) + 1
        protected = snap.protected
        if moved:
            pm = CONTENT.protected_max_hexes
            presence = snap.presence
            for o, k in moved.items():
                if (presence[o] + k <= pm) != protected[o]:
                    return self.values(state, self.after(state, snap, hexes, before))
        # the area whose per-hex terms can change: the hexes and their land neighbours
        # (built as a set in this order: its iteration order fixes the order of the
        # float sums below, and with it the last bit of every worth)
        area: set[int] = set(hexes)
        nb = self.map.land_nb
        for h in hexes:
            area.update(nb[h])
        new = snap.derived()
        base, frontier, fgrass = new.base, new.frontier, new.fgrass
        # the seats that held the hexes before or hold them now: their token aggregates
        # change (they get their own copy of ``ready``)
        seats: set[int] = set()
        for h, (o0, _c0) in zip(hexes, before):
            if o0 >= 0:
                seats.add(o0)
            if owner[h] >= 0:
                seats.add(owner[h])
        ready = new.ready
        for o in seats:
            ready[o] = dict(ready[o])
        # Which empty land is next to whose tokens changes only when an owner changes
        # (a count alone does not): otherwise the frontier sums stay as they are.
        owners_changed = bool(moved)
        # take out the old per-hex terms of the area, using the old owners and counts
        count = state.count
        saved = [(h, owner[h], count[h]) for h in hexes]
        for h, (o0, c0) in zip(hexes, before):
            owner[h], count[h] = o0, c0
        for h in hexes:
            self._add_aggregates(state, new, h, -1)
        hs, hv, sfs, is_grass = snap.hs, snap.hv, snap.fs, self.is_grass
        for h in area:
            d = hs[h]
            if d >= 0:
                base[d] -= hv[h]
            elif owners_changed:
                for o in sfs.get(h, ()):
                    frontier[o] -= 1
                    if is_grass[h]:
                        fgrass[o] -= 1
        for h, o1, c1 in saved:
            owner[h], count[h] = o1, c1
        # and put the new ones in
        for h in hexes:
            self._add_aggregates(state, new, h, 1)
        att_bonus = snap.att_bonus
        buildable = self.buildable
        # A hex outside ``hexes`` keeps its worth unless its exposure changed: when
        # its owner is protected, or when one seat alone held the changed hexes
        # before and after and that seat owns it (its own tokens never threaten it).
        # Its worth is then taken from the snapshot, the very number recomputing it
        # would give; it is still added back in the same order.
        sole = next(iter(seats)) if len(seats) == 1 else -2
        for h in area:
            if owner[h] >= 0 or city_owner[h] >= 0:
                if h not in hexes:
                    d = hs[h]
                    if d == sole or protected[d]:
                        base[d] += hv[h]
                        continue
                d, v = self._hex_value(state, h, protected, att_bonus)
                base[d] += v
            elif owners_changed and buildable[h]:
                # the seats with tokens next to this empty land (_frontier_seats)
                g = is_grass[h]
                for o in {owner[x] for x in nb[h] if owner[x] >= 0}:
                    frontier[o] += 1
                    if g:
                        fgrass[o] += 1
        if owners_changed:
            old_frontier, old_fgrass = snap.frontier, snap.fgrass
            for o in range(n):
                if frontier[o] != old_frontier[o] or fgrass[o] != old_fgrass[o]:
                    seats.add(o)
        # finish(state, new, seats, snap), inline: the same sums in the same order
        extra = new.extra = snap.extra[:]
        for o in seats:
            extra[o] = self._seat_extra(state, new, o)
        val = list(map(add, base, extra))
        if state.phase in RACE_PHASES:
            race = snap.race if new.prog == snap.prog else None
            if race is None:
                race = self.progress_race(
                    new.prog, [min(len(p.hand), 3) for p in state.players])
            new.race = race
            val = list(map(add, val, race))
        return val

    def terms(self, state: State, seat: int,
              position: tuple[Snapshot, list[float]] | None = None) -> dict[str, float]:
        """``seat``'s relative worth (:meth:`relative`) split into named terms that add up
        to it, in VP units: the same evaluation the computer players choose by, so a hint
        can say why (a change in ``threat`` is a change in exposure to attack ...).

        ``board``: occupied hexes and tokens; ``cities``: own cities; ``threat``: worth
        lost to likely attacks (negative); ``growth``: growth capacity (own and reachable
        grassland, room to grow); ``city_ready``: a stack ready to become a city;
        ``frontier``: empty land next to own tokens; ``cards``: cards in hand;
        ``actions_left``: markers still to use this era; ``supply``: tokens in supply;
        ``flight``: Flight's victory points; ``progress_race``: the chance of winning
        the coming progress phase times its prize; ``rivals``: minus a share of the
        rivals' mean worth (and of the best rival's).

        ``position``: this position's :meth:`snapshot` and the :meth:`finish` of it, when
        the caller asks for several seats' terms of one position."""
        if state.phase == OVER:
            v = [float(x) for x in state.scores]
            return {"score": v[seat], "rivals": self.rel(v, seat) - v[seat]}
        if position is None:
            snap = self.snapshot(state)
            values = self.finish(state, snap)
        else:
            snap, values = position
        w = self.w
        out = dict.fromkeys(("board", "cities", "threat", "growth", "city_ready", "frontier",
                             "cards", "actions_left", "supply", "flight", "progress_race",
                             "rivals"), 0.0)
        for h in self.map.land:
            if snap.hs[h] != seat:
                continue
            if state.owner[h] >= 0:
                v0 = self.hexval[h] + state.count[h] * self.tok
                out["board"] += v0
            else:
                v0 = state.city_value[h] + self.city_bonus
                out["cities"] += v0
            out["threat"] += snap.hv[h] - v0
        p = state.players[seat]
        r = self.rows[seat]
        out["supply"] = self.sup * min(p.supply, w.supply_cap)
        if p.supply > 0:
            grown = min(snap.grass[seat], r.growth)
            reach = min(snap.fgrass[seat], r.growth - grown)
            out["growth"] = (self.grow * grown + self.reach * reach
                             + self.room * min(snap.grass_room[seat], r.growth))
        out["city_ready"] = snap.extra[seat] - out["supply"] - out["growth"] - (
            self.frontier * min(snap.frontier[seat], w.frontier_cap)
            + self.hand_value(len(p.hand), r.limit) + self.marker * p.markers
            + (CONTENT.flight_victory_points if p.era >= FLIGHT else 0.0))
        out["frontier"] = self.frontier * min(snap.frontier[seat], w.frontier_cap)
        out["cards"] = self.hand_value(len(p.hand), r.limit)
        out["actions_left"] = self.marker * p.markers
        out["flight"] = float(CONTENT.flight_victory_points) if p.era >= FLIGHT else 0.0
        out["progress_race"] = values[seat] - snap.base[seat] - snap.extra[seat]
        out["rivals"] = self.rel(values, seat) - values[seat]
        return out

    def relative(self, state: State, seat: int) -> float:
        """``seat``'s worth minus a share of the rivals' mean worth (and of the best
        rival's)."""
        return self.rel(self.values(state), seat)

    def rel(self, v: list[float], seat: int) -> float:
        others = sum(v) - v[seat]
        out = v[seat] - self.w.rival * others / (len(v) - 1)
        if self.w.rival_best:
            out -= self.w.rival_best * max(x for i, x in enumerate(v) if i != seat)
        return out

    def utility(self, state: State) -> list[float]:
        """Per seat: worth minus the best rival's worth (what winning is about)."""
        v = self.values(state)
        out = []
        for s in range(len(v)):
            best = max(v[o] for o in range(len(v)) if o != s)
            out.append(v[s] - best)
        return out


def final_points(state: State) -> list[int]:
    return all_victory_points(state)
