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
    era = state.era(seat)
    terrain = state.terrain
    owner = state.owner
    city_owner = state.city_owner
    count, bonus, bonus_seat = state.count, state.bonus, state.bonus_seat
    base = state.base_stack_limit(seat)
    own_raise_only = state.rules_version >= 2

    def can_end(n: int) -> bool:
        # can_end_on with the stack limit's parts read once (sea travel asks for every
        # coastal hex); the same answer
        if terrain[n] is None or city_owner[n] >= 0:
            return False
        b = bonus[n]
        limit = base + (b if b and not (own_raise_only and bonus_seat[n] != seat) else 0)
        o = owner[n]
        if o == -1:
            return limit >= 1
        return o == seat and count[n] + 1 <= limit

    out: set[int] = set()
    # Over land, up to `distance` steps (R-MOVE-2, R-MOVE-3: own cities may be passed).
    frontier = [src]
    seen = {src}
    for _ in range(era.distance):
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
    geo = geography(terrain)
    # Lake travel (R-MOVE-6): any shore hex of the same lake, using the whole move.
    for lake in geo.shore_lakes[src]:
        for n in geo.lakeshores[lake]:
            if n != src and can_end(n):
                out.add(n)
    # Sea travel (R-MOVE-7, R-MOVE-9): coastal to coastal, from Seafaring on.
    if era.sea and src in geo.coastal:
        for n in geo.coastal:
            if n != src and can_end(n):
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
