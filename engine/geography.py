"""Derived geography of a built map: land, lakes, open sea, coasts, lakeshores.

Computed from the terrain list alone, so a spectator view or a renderer derives exactly
what the engine uses. A lake is a connected group of sea hexes that touches neither open
sea nor the board edge; every other sea hex is open sea (R-MOVE-6, R-MOVE-7, R-MOVE-9).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .hexgrid import EDGE, NEIGHBOURS, NUM_HEXES


@dataclass(frozen=True, slots=True)
class Geography:
    land: frozenset[int]
    open_sea: frozenset[int]
    #: lakes[i] = the sea hexes of lake i
    lakes: tuple[frozenset[int], ...]
    #: lake_of[h] = index of the lake hex h belongs to, or -1
    lake_of: tuple[int, ...]
    #: land hexes adjacent to open sea or on the board edge
    coastal: frozenset[int]
    #: lakeshores[i] = land hexes adjacent to lake i
    lakeshores: tuple[frozenset[int], ...]
    #: shore_lakes[h] = indices of the lakes land hex h touches
    shore_lakes: tuple[tuple[int, ...], ...]


def geography(terrain: tuple[str | None, ...] | list[str | None]) -> Geography:
    """Geography of a terrain list (``None`` = sea). Cached per distinct map."""
    return _geography(tuple(terrain))


@lru_cache(maxsize=64)
def _geography(terrain: tuple[str | None, ...]) -> Geography:
    land = frozenset(h for h in range(NUM_HEXES) if terrain[h] is not None)
    sea = [h for h in range(NUM_HEXES) if terrain[h] is None]
    seen: set[int] = set()
    open_sea: set[int] = set()
    lakes: list[frozenset[int]] = []
    for start in sea:
        if start in seen:
            continue
        group = {start}
        stack = [start]
        seen.add(start)
        while stack:
            h = stack.pop()
            for n in NEIGHBOURS[h]:
                if n not in land and n not in seen:
                    seen.add(n)
                    group.add(n)
                    stack.append(n)
        if group & EDGE:
            open_sea |= group
        else:
            lakes.append(frozenset(group))
    lakes.sort(key=min)
    lake_of = [-1] * NUM_HEXES
    for i, lake in enumerate(lakes):
        for h in lake:
            lake_of[h] = i
    coastal = frozenset(
        h for h in land if h in EDGE or any(n in open_sea for n in NEIGHBOURS[h])
    )
    shore_lakes: list[tuple[int, ...]] = [()] * NUM_HEXES
    lakeshores: list[set[int]] = [set() for _ in lakes]
    for h in land:
        touched = sorted({lake_of[n] for n in NEIGHBOURS[h] if lake_of[n] >= 0})
        shore_lakes[h] = tuple(touched)
        for i in touched:
            lakeshores[i].add(h)
    return Geography(
        land=land,
        open_sea=frozenset(open_sea),
        lakes=tuple(lakes),
        lake_of=tuple(lake_of),
        coastal=coastal,
        lakeshores=tuple(frozenset(s) for s in lakeshores),
        shore_lakes=tuple(shore_lakes),
    )
