"""Where a token may move (R-MOVE-2..7)."""

from __future__ import annotations

from .geography import geography
from .hexgrid import NEIGHBOURS
from .state import State


def can_end_on(state: State, seat: int, h: int) -> bool:
    """A token of ``seat`` may finish a move on ``h`` (R-MOVE-2/3/4/5)."""
    if state.terrain[h] is None or state.city_owner[h] >= 0:
        return False
    own = state.owner[h]
    if own == -1:
        return state.stack_limit(seat, h) >= 1
    return own == seat and state.count[h] + 1 <= state.stack_limit(seat, h)


def destinations(state: State, seat: int, src: int) -> set[int]:
    """Every hex a token of ``seat`` on ``src`` may move to in one Move step."""
    return Reach(state, seat).destinations(src)


class Reach:
    """Where tokens of one seat may move on a board that does not change meanwhile.

    Asking it for several sources (the legal moves, a computer player scoring every
    move) finds the hexes a token may end on by sea once rather than once per coastal
    source: from Seafaring on, that is every coastal hex of the map each time."""

    __slots__ = ("state", "seat", "era", "base", "own_raise_only", "geo", "_sea_ends")

    def __init__(self, state: State, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.era = state.era(seat)
        self.base = state.base_stack_limit(seat)
        self.own_raise_only = state.rules_version >= 2
        self.geo = geography(state.terrain)
        self._sea_ends: list[int] | None = None

    def can_end(self, n: int) -> bool:
        """:func:`can_end_on` with the stack limit's parts read once; the same answer."""
        state = self.state
        if state.terrain[n] is None or state.city_owner[n] >= 0:
            return False
        b = state.bonus[n]
        limit = self.base + (
            b if b and not (self.own_raise_only and state.bonus_seat[n] != self.seat) else 0)
        o = state.owner[n]
        if o == -1:
            return limit >= 1
        return o == self.seat and state.count[n] + 1 <= limit

    def destinations(self, src: int) -> set[int]:
        """Every hex a token on ``src`` may move to in one Move step.

        The set is filled in the same order every time (land, lakes, sea), so that its
        iteration order, which callers may break ties by, depends only on the board."""
        state, seat = self.state, self.seat
        terrain = state.terrain
        owner = state.owner
        city_owner = state.city_owner
        can_end = self.can_end
        out: set[int] = set()
        # Over land, up to `distance` steps (R-MOVE-2, R-MOVE-3: own cities may be passed).
        frontier = [src]
        seen = {src}
        for _ in range(self.era.distance):
            nxt = []
            for h in frontier:
                for n in NEIGHBOURS[h]:
                    if n in seen or terrain[n] is None:
                        continue
                    seen.add(n)
                    if owner[n] not in (-1, seat):
                        continue
                    co = city_owner[n]
                    if co >= 0:
                        if co == seat:
                            nxt.append(n)  # pass through own city, never end there
                        continue
                    nxt.append(n)
                    if can_end(n):
                        out.add(n)
            frontier = nxt
        geo = self.geo
        # Lake travel (R-MOVE-6): any shore hex of the same lake, using the whole move.
        for lake in geo.shore_lakes[src]:
            for n in geo.lakeshores[lake]:
                if n != src and can_end(n):
                    out.add(n)
        # Sea travel (R-MOVE-7, R-MOVE-9): coastal to coastal, from Seafaring on.
        if self.era.sea and src in geo.coastal:
            ends = self._sea_ends
            if ends is None:
                ends = self._sea_ends = [n for n in geo.coastal if can_end(n)]
            for n in ends:
                if n != src:
                    out.add(n)
        return out


def movable_sources(state: State, seat: int) -> list[int]:
    """Own hexes holding a token that has not moved yet in this action (R-MOVE-1)."""
    touched = state.touched
    return [
        h
        for h, o in enumerate(state.owner)
        if o == seat and state.count[h] - touched.get(h, 0) > 0
    ]
