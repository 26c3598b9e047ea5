"""Low-level state changes shared by the rule modules: tokens, cards, shuffles.

Every change of tokens goes through :func:`add_tokens` / :func:`remove_tokens` so that
ownership and the Sanitation bonus (R-CARD-SAN) stay consistent in one place.
"""

from __future__ import annotations

import random

from .content import CONTENT
from .errors import IllegalAction
from .events import Event, EventKind, card_list, colour
from .rules import SANITATION_LAPSES_FROM
from .state import SEEN_BY_ALL, State


def rng_for(state: State) -> random.Random:
    """A fresh RNG for the next shuffle; reproducible from (seed, shuffle number)."""
    r = random.Random(f"tempus/{state.seed}/{state.shuffles}")
    state.shuffles += 1
    return r


def add_tokens(state: State, seat: int, h: int, n: int) -> None:
    """Put ``n`` tokens of ``seat`` on ``h``.

    R-CARD-SAN (rules 2): a raise another player left on an empty hex is not ``seat``'s,
    and it is gone as soon as the first of ``seat``'s tokens would leave; drop it now.
    """
    if state.rules_version >= 2 and state.bonus_seat[h] not in (-1, seat):
        state.bonus[h] = 0
        state.bonus_seat[h] = -1
    state.owner[h] = seat
    state.count[h] += n


def remove_tokens(state: State, h: int, n: int) -> None:
    """Take ``n`` tokens off ``h`` (the caller returns them to a supply or moves them).

    R-CARD-SAN: once a token leaves a hex its raised limit returns to normal. Rules 2:
    the whole raise is gone (tokens above the normal limit stay, but none may be added
    until the count is below the era limit of that time). Rules 1 kept a raise equal to
    the excess, which a later, higher era limit turned into room.
    """
    state.count[h] -= n
    if state.count[h] <= 0:
        state.count[h] = 0
        state.owner[h] = -1
        state.bonus[h] = 0
        state.bonus_seat[h] = -1
    elif state.bonus[h]:
        if state.rules_version >= 2:
            state.bonus[h] = 0
            state.bonus_seat[h] = -1
        else:
            state.bonus[h] = max(0, state.count[h] - state.base_stack_limit(state.owner[h]))


def lapse_raises(state: State, seat: int) -> None:
    """R-CARD-SAN (rules 3 on): at the end of an action (a Move, Growth, Idea or Build
    City action, a fight, or the turn), ``seat``'s raises on hexes where none of its
    tokens stands lapse. A raise played between actions counts with the next action (or
    fight) the player takes, or lapses with the turn."""
    if state.rules_version < SANITATION_LAPSES_FROM or seat not in state.bonus_seat:
        return
    owner, bonus, bonus_seat = state.owner, state.bonus, state.bonus_seat
    for h, s in enumerate(bonus_seat):
        if s == seat and owner[h] != seat:
            bonus[h] = 0
            bonus_seat[h] = -1


def card_type(card: int) -> str:
    return CONTENT.cards[card].type


def take_cards(state: State, seat: int, cards: tuple[int, ...] | list[int]) -> None:
    """Check that ``cards`` are distinct cards in ``seat``'s hand and remove them."""
    hand = state.players[seat].hand
    if len(set(cards)) != len(cards):
        raise IllegalAction.because("cards.twice")
    for c in cards:
        if c not in hand:
            raise IllegalAction.because("cards.not_in_hand", card=c)
    for c in cards:
        hand.remove(c)


def require_card(state: State, seat: int, card: int, kind: str) -> None:
    if card not in state.players[seat].hand:
        raise IllegalAction.because("cards.not_in_hand", card=card)
    if card_type(card) != kind:
        raise IllegalAction.because("cards.wrong_type", card_type=card_type(card), wanted=kind)


def to_discard(state: State, cards: list[int] | tuple[int, ...], seen: int = SEEN_BY_ALL
               ) -> None:
    """Put ``cards`` on the face-down discard pile; ``seen`` says who saw them
    (everybody, or only the seat that discarded them for the hand limit; R-INFO-1)."""
    state.discard.extend(cards)
    state.discard_seen.extend([seen] * len(cards))


def play_card(state: State, seat: int, card: int) -> None:
    """Play a card from hand for its effect, face up: it goes to the discard pile
    (R-CARD-2)."""
    state.players[seat].hand.remove(card)
    to_discard(state, (card,))


def draw_cards(state: State, seat: int, n: int, events: list[Event]) -> list[int]:
    """Draw ``n`` cards, reshuffling the discard pile when the deck runs out (R-DRAW-3)."""
    drawn: list[int] = []
    for _ in range(n):
        if not state.deck:
            if not state.discard:
                break
            state.deck = state.discard
            state.discard = []
            state.discard_seen = []
            rng_for(state).shuffle(state.deck)
            events.append(Event(EventKind.RESHUFFLE, "The discard pile is shuffled into a new draw "
                                f"pile of {len(state.deck)} cards.", data={"n": len(state.deck)}))
        drawn.append(state.deck.pop())
    state.players[seat].hand.extend(drawn)
    events.append(Event(EventKind.DRAW, f"{colour(seat)} draws {len(drawn)} card(s).", seat,
                        data={"count": len(drawn)}))
    if drawn:
        events.append(Event(EventKind.DRAW_PRIVATE, f"You drew {card_list(drawn)}.", seat,
                            private_to=seat, data={"cards": drawn}))
    return drawn


def owe_discard(state: State, seat: int) -> bool:
    """Record a discard owed if ``seat`` is over the hand limit (R-DRAW-2)."""
    over = len(state.players[seat].hand) - state.era(seat).limit
    if over > 0:
        state.discards[seat] = over
        return True
    return False
