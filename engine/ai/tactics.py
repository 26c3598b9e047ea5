"""Card arithmetic for combat and progress, estimated from one seat's knowledge.

Everything here reads only what ``seat`` may know: its own hand, the cards of the
discard pile it saw (revealed ones and its own face-down discards), revealed combat
cards and public counts. Unknown cards are drawn at random from the
cards ``seat`` has not seen (:func:`unseen_for`), which is also what a determinised
state would contain, so estimates agree across determinisations.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from functools import cache

from ..content import CONTENT
from ..state import SEEN_BY_ALL, State

CARDS = CONTENT.cards
WEAPONS = CONTENT.weapons_bonus
FORTIFICATION = CONTENT.fortification_defence_bonus


def contribution(card: int, terrain: str | None, defending: bool) -> int:
    """Combat strength one card adds (R-COMBAT-6)."""
    info = CARDS[card]
    s = 1 if info.terrain == terrain else 0
    if info.type == "WEA":
        s += WEAPONS
    elif info.type == "FOR" and defending:
        s += FORTIFICATION
    return s


#: a score per card: a mapping, or a table indexed by card number
Scores = Mapping[int, int] | Sequence[int]


@cache
def contributions(terrain: str | None, defending: bool) -> tuple[int, ...]:
    """:func:`contribution` of every card, indexed by card number (a fight scores the
    same cards for every target on the same terrain)."""
    return tuple(contribution(c, terrain, defending) for c in range(len(CARDS)))


def progress_contribution(card: int, terrain: str | None) -> int:
    """Progress points one card adds (R-PROG-3)."""
    info = CARDS[card]
    s = 1 if info.terrain == terrain else 0
    if info.type == "EDU":
        s += CONTENT.education_progress
    return s


def unseen_for(state: State, seat: int) -> list[int]:
    """Cards ``seat`` cannot place (other hands, deck, face-down cards, other seats'
    face-down discards: the discard pile is face down, R-INFO-1)."""
    known = set(state.players[seat].hand)
    known.update(c for c, w in zip(state.discard, state.discard_seen)
                 if w in (SEEN_BY_ALL, seat))
    c = state.combat
    if c is not None:
        if c.defend_cards is not None:
            known.update(c.defend_cards)
        if c.attack_cards is not None and (c.attacker == seat or c.defend_cards is not None):
            known.update(c.attack_cards)
    known.update(state.progress_choices.get(seat, ()))
    return [x for x in range(len(CARDS)) if x not in known]


def sample_sums(pool: Sequence[int], k: int, score: Scores, rng: random.Random,
                n: int = 32, best_of: int | None = None) -> list[int]:
    """``n`` samples of the summed score of ``k`` random cards from ``pool``.

    With ``best_of`` set, only the best ``best_of`` of the ``k`` cards count (an
    opponent who plays at most that many)."""
    if k <= 0 or not pool:
        return [0] * n
    k = min(k, len(pool))
    # sampling the scores picks the same positions as sampling the cards would (what
    # random.sample draws depends only on the sizes), without a look-up per card
    scores = [score[c] for c in pool]
    out = []
    for _ in range(n):
        vals = rng.sample(scores, k)
        if best_of is not None and best_of < k:
            vals.sort(reverse=True)
            vals = vals[:best_of]
        out.append(sum(vals))
    return out


def ordered_useful(cards: Iterable[int], score: Scores,
                   worth: dict[int, float]) -> list[int]:
    """Cards that add something, best value for money first."""
    useful = [c for c in cards if score[c] > 0]
    useful.sort(key=lambda c: (-(score[c] - worth[c]), worth[c], c))
    return useful


def beat_chance(mine: int, theirs: Sequence[int], strictly: bool) -> float:
    """Share of samples in which ``mine`` beats (or, not ``strictly``, at least ties)."""
    if not theirs:
        return 1.0
    if strictly:
        return sum(1 for t in theirs if mine > t) / len(theirs)
    return sum(1 for t in theirs if mine >= t) / len(theirs)
