"""Where every victory point came from (R-END-2) and which tie-break decided (R-END-3).

Built from a **view** (the public one is enough: tokens, cities, era cubes and hand sizes
are public, R-INFO-1), so the bot can explain a result without touching the raw state.
The rules are the ones of :func:`engine.progress.victory_points` and
:func:`engine.progress.rank_keys`; tests check that the totals equal the engine's final
scores and that the winners equal the engine's winners, for random finished games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .content import CONTENT
from .hexgrid import NUM_HEXES

MOUNTAIN = "M"

#: R-END-3 tie-break criteria after victory points, in order.
CARDS, CITIES = "cards", "cities"
TIE_BREAKS = (CARDS, CITIES)


@dataclass(frozen=True, slots=True)
class SeatScore:
    """One seat's victory points by source, and its tie-break values."""

    seat: int
    #: hexes holding the seat's tokens that score (not mountains): 1 VP each
    hexes: tuple[int, ...]
    #: hexes holding the seat's tokens on mountains: they score nothing (R-END-2)
    mountain_hexes: tuple[int, ...]
    #: the seat's cities on the board as (hex, value); each scores its value
    cities: tuple[tuple[int, int], ...]
    #: 3 if the seat's cube reached Flight, else 0
    flight: int
    #: cards in hand (public as a number): the first tie-break
    cards: int

    @property
    def hex_points(self) -> int:
        return len(self.hexes)

    @property
    def city_points(self) -> int:
        return sum(v for _, v in self.cities)

    @property
    def total(self) -> int:
        return self.hex_points + self.city_points + self.flight

    @property
    def city_count(self) -> int:
        return len(self.cities)

    def value(self, criterion: str) -> int:
        """The seat's value for a ranking criterion: ``vp``, ``cards`` or ``cities``."""
        if criterion == "vp":
            return self.total
        if criterion == CARDS:
            return self.cards
        if criterion == CITIES:
            return self.city_count
        raise ValueError(f"unknown criterion {criterion!r}")

    @property
    def key(self) -> tuple[int, int, int]:
        """R-END-3 ranking key: points, then cards in hand, then cities on the board."""
        return (self.total, self.cards, self.city_count)


@dataclass(frozen=True, slots=True)
class TieStep:
    """One tie-break applied: the seats still level and each one's value."""

    criterion: str  # CARDS or CITIES
    values: tuple[tuple[int, int], ...]  # (seat, value), in seat order


@dataclass(frozen=True, slots=True)
class TieBreak:
    """How a tie on victory points at the top was decided (R-END-3)."""

    #: the seats level on the most victory points (two or more)
    tied: tuple[int, ...]
    vp: int
    #: the criteria applied in order, each with the values of the seats still level
    steps: tuple[TieStep, ...]
    #: the seats that won: one, or several sharing the win
    winners: tuple[int, ...]

    @property
    def shared(self) -> bool:
        return len(self.winners) > 1

    @property
    def decided_by(self) -> str | None:
        """The criterion that picked the single winner, or None for a shared win."""
        return None if self.shared else self.steps[-1].criterion


@dataclass(frozen=True, slots=True)
class Breakdown:
    scores: tuple[SeatScore, ...]
    #: seats from first place to last (R-END-3 order; equal keys keep seat order)
    order: tuple[int, ...]
    #: per seat: 1 = first; seats with equal keys share a rank
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    #: None unless two or more seats had the most victory points
    tie_break: TieBreak | None


def seat_score(v: dict[str, Any], seat: int) -> SeatScore:
    """R-END-2 for one seat of a view: hexes with tokens (not mountains), city values,
    Flight."""
    owner, terrain = v["owner"], v["terrain"]
    hexes: list[int] = []
    mountains: list[int] = []
    cities: list[tuple[int, int]] = []
    for h in range(NUM_HEXES):
        if owner[h] == seat and v["count"][h] > 0:
            (mountains if terrain[h] == MOUNTAIN else hexes).append(h)
        if v["city_owner"][h] == seat:
            cities.append((h, int(v["city_value"][h])))
    p = v["players"][seat]
    flight = CONTENT.flight_victory_points if p["era"] >= CONTENT.flight else 0
    cards = int(p["hand_size"]) if "hand_size" in p else len(p["hand"])
    return SeatScore(seat, tuple(hexes), tuple(mountains), tuple(cities), flight, cards)


def _tie_break(scores: tuple[SeatScore, ...]) -> TieBreak | None:
    best = max(s.total for s in scores)
    level = [s for s in scores if s.total == best]
    if len(level) < 2:
        return None
    tied = tuple(s.seat for s in level)
    steps: list[TieStep] = []
    for criterion in TIE_BREAKS:
        steps.append(TieStep(criterion, tuple((s.seat, s.value(criterion)) for s in level)))
        top = max(s.value(criterion) for s in level)
        level = [s for s in level if s.value(criterion) == top]
        if len(level) == 1:
            break
    return TieBreak(tied, best, tuple(steps), tuple(s.seat for s in level))


def breakdown(v: dict[str, Any]) -> Breakdown:
    """Every seat's victory points by source, the ranking and the deciding tie-break."""
    n = len(v["players"])
    scores = tuple(seat_score(v, s) for s in range(n))
    order = tuple(sorted(range(n), key=lambda s: scores[s].key, reverse=True))
    ranks = [0] * n
    for pos, s in enumerate(order):
        same = pos > 0 and scores[s].key == scores[order[pos - 1]].key
        ranks[s] = ranks[order[pos - 1]] if same else pos + 1
    best = scores[order[0]].key
    winners = tuple(s for s in range(n) if scores[s].key == best)
    return Breakdown(scores, order, tuple(ranks), winners, _tie_break(scores))
