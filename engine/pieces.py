"""Low-level state changes shared by the rule modules: tokens, cards, shuffles.

Every change of tokens goes through :func:`add_tokens` / :func:`remove_tokens` so that
ownership and the Sanitation bonus (R-CARD-SAN) stay consistent in one place.
"""

from __future__ import annotations

import random

from .content import CONTENT
from .errors import IllegalAction
from .events import Event, card_list, colour
from .state import State


def rng_for(state: State) -> random.Random:
    """A fresh RNG for the next shuffle; reproducible from (seed, shuffle number)."""
    r = random.Random(f"tempus/{state.seed}/{state.shuffles}")
    state.shuffles += 1
    return r


def add_tokens(state: State, seat: int, h: int, n: int) -> None:
    state.owner[h] = seat
    state.count[h] += n


def remove_tokens(state: State, h: int, n: int) -> None:
    """Take ``n`` tokens off ``h`` (the caller returns them to a supply or moves them).

    R-CARD-SAN: once a token leaves a hex its raised limit returns to normal; tokens
    already above the normal limit stay, but none may be added (the bonus shrinks to
    exactly the excess, so the stack invariant still reads count <= limit + bonus).
    """
    state.count[h] -= n
    if state.count[h] <= 0:
        state.count[h] = 0
        state.owner[h] = -1
        state.bonus[h] = 0
    elif state.bonus[h]:
        state.bonus[h] = max(0, state.count[h] - state.base_stack_limit(state.owner[h]))


def card_type(card: int) -> str:
    return CONTENT.cards[card].type


def take_cards(state: State, seat: int, cards: tuple[int, ...] | list[int]) -> None:
    """Check that ``cards`` are distinct cards in ``seat``'s hand and remove them."""
    hand = state.players[seat].hand
    if len(set(cards)) != len(cards):
        raise IllegalAction("the same card was named twice")
    for c in cards:
        if c not in hand:
            raise IllegalAction(f"card {c} is not in your hand")
    for c in cards:
        hand.remove(c)


def require_card(state: State, seat: int, card: int, kind: str) -> None:
    if card not in state.players[seat].hand:
        raise IllegalAction(f"card {card} is not in your hand")
    if card_type(card) != kind:
        name = CONTENT.card_types[kind].name
        raise IllegalAction(f"that card is a {CONTENT.card_types[card_type(card)].name}, "
                            f"not a {name}")


def play_card(state: State, seat: int, card: int) -> None:
    """Play a card from hand for its effect: it goes to the discard pile (R-CARD-2)."""
    state.players[seat].hand.remove(card)
    state.discard.append(card)


def draw_cards(state: State, seat: int, n: int, events: list[Event]) -> list[int]:
    """Draw ``n`` cards, reshuffling the discard pile when the deck runs out (R-DRAW-3)."""
    drawn: list[int] = []
    for _ in range(n):
        if not state.deck:
            if not state.discard:
                break
            state.deck = state.discard
            state.discard = []
            rng_for(state).shuffle(state.deck)
            events.append(Event("reshuffle", "The discard pile is shuffled into a new draw "
                                f"pile of {len(state.deck)} cards.", data={"n": len(state.deck)}))
        drawn.append(state.deck.pop())
    state.players[seat].hand.extend(drawn)
    events.append(Event("draw", f"{colour(seat)} draws {len(drawn)} card(s).", seat,
                        data={"count": len(drawn)}))
    if drawn:
        events.append(Event("draw_private", f"You drew {card_list(drawn)}.", seat,
                            private_to=seat, data={"cards": drawn}))
    return drawn


def owe_discard(state: State, seat: int) -> bool:
    """Record a discard owed if ``seat`` is over the hand limit (R-DRAW-2)."""
    over = len(state.players[seat].hand) - state.era(seat).limit
    if over > 0:
        state.discards[seat] = over
        return True
    return False
