"""The progress phase, the end of an era, and the end of the game (R-PROG, R-ROUND-4, R-END)."""

from __future__ import annotations

from .actions import Discard, ProgressCards
from .content import CONTENT
from .errors import IllegalAction
from .events import Event, EventKind, card_list, colour
from .hexgrid import NUM_HEXES
from .pieces import draw_cards, owe_discard, take_cards, to_discard
from .setup import begin_era
from .state import OVER, State


def new_era_index(state: State) -> int:
    """R-PROG-3/6: the era just above the (common, after catching up) cube position."""
    return max(p.era for p in state.players) + 1


def begin_progress(state: State, events: list[Event]) -> None:
    """All markers are used: catch up (R-PROG-1), then collect secret choices (R-PROG-2)."""
    top = max(p.era for p in state.players)
    for seat, p in enumerate(state.players):
        p.markers = 0
        if p.era < top:
            p.era = top
            events.append(Event(EventKind.CATCH_UP, f"{colour(seat)} catches up to "
                                f"{CONTENT.eras[top].name}.", seat, data={"era_index": top}))
    new = CONTENT.eras[top + 1]
    events.append(Event(EventKind.PROGRESS, f"Progress phase: who reaches {new.name}? Terrain "
                        f"{CONTENT.terrain_names[new.terrain or 'G']}. Everyone chooses cards "
                        "in secret.", data={"era": new.name, "terrain": new.terrain,
                                            "era_index": top + 1}))
    state.progress_choices = {}
    state.discards = {}
    for seat, p in enumerate(state.players):
        if not p.hand:  # nothing to choose: an empty choice, made at once
            state.progress_choices[seat] = []
    _maybe_resolve(state, events)


def progress_cards(state: State, seat: int, action: ProgressCards, events: list[Event]) -> None:
    take_cards(state, seat, action.cards)
    state.progress_choices[seat] = list(action.cards)
    events.append(Event(
        EventKind.PROGRESS_CHOICE, f"{colour(seat)} has chosen progress cards.", seat))
    _maybe_resolve(state, events)


def progress_points(state: State, seat: int, cards: list[int], era_index: int) -> int:
    """R-PROG-3: tokens on the era's terrain, matching cards, Education, own cities."""
    terrain = CONTENT.eras[era_index].terrain
    pts = 0
    for h in range(NUM_HEXES):
        if state.owner[h] == seat and state.terrain[h] == terrain:
            pts += state.count[h]
        if state.city_owner[h] == seat:
            pts += CONTENT.city_progress
    for c in cards:
        info = CONTENT.cards[c]
        if info.terrain == terrain:
            pts += 1
        if info.type == "EDU":
            pts += CONTENT.education_progress
    return pts


def _maybe_resolve(state: State, events: list[Event]) -> None:
    if len(state.progress_choices) < state.num_players:
        return
    new = new_era_index(state)
    points = [progress_points(state, s, state.progress_choices[s], new)
              for s in range(state.num_players)]
    for s in range(state.num_players):
        cards = state.progress_choices[s]
        events.append(Event(EventKind.PROGRESS_REVEAL, f"{colour(s)} reveals {card_list(cards)}: "
                            f"{points[s]} progress point(s).", s,
                            data={"cards": cards, "points": points[s]}))
        to_discard(state, cards)  # R-PROG-4; revealed, so seen by all (R-INFO-1)
    state.progress_choices = {}
    best = max(points)
    era = CONTENT.eras[new]
    order = [(state.start_player + i) % state.num_players for i in range(state.num_players)]
    for s in order:
        if points[s] != best:
            continue
        state.players[s].era = new  # R-PROG-5
        events.append(Event(EventKind.ADVANCE, f"{colour(s)} advances to {era.name}.", s,
                            data={"era": new}))
        if era.bonus_draw:  # R-ERA-3
            draw_cards(state, s, era.bonus_draw, events)
            if owe_discard(state, s):
                events.append(Event(EventKind.DISCARD_OWED, f"{colour(s)} must discard "
                                    f"{state.discards[s]} card(s) (hand limit "
                                    f"{state.era(s).limit}).", s,
                                    data={"n": state.discards[s], "limit": state.era(s).limit}))
    if not state.discards:
        end_era(state, events)


def progress_discard(state: State, seat: int, action: Discard, events: list[Event]) -> None:
    apply_discard(state, seat, action, events)
    if not state.discards:
        end_era(state, events)


def apply_discard(state: State, seat: int, action: Discard, events: list[Event]) -> None:
    owed = state.discards.get(seat, 0)
    if len(action.cards) != owed:
        raise IllegalAction.because("discard.exactly", n=owed)
    take_cards(state, seat, action.cards)
    # R-DRAW-2 / R-INFO-1: face down; only their number is public
    to_discard(state, action.cards, seen=seat)
    del state.discards[seat]
    n = len(action.cards)
    events.append(Event(EventKind.DISCARD, f"{colour(seat)} discards {n} card(s) face down.", seat,
                        data={"count": n}))
    events.append(Event(EventKind.DISCARD_PRIVATE, f"You discard {card_list(action.cards)}.", seat,
                        private_to=seat, data={"cards": list(action.cards)}))


def end_era(state: State, events: list[Event]) -> None:
    """R-ROUND-4 and R-END-1."""
    state.start_player = (state.start_player + 1) % state.num_players
    if any(p.era >= CONTENT.flight for p in state.players):
        finish_game(state, events)
        return
    state.era_number += 1
    begin_era(state, events)


def victory_points(state: State, seat: int) -> int:
    """R-END-2: occupied non-mountain hexes, city values, 3 for Flight."""
    return all_victory_points(state)[seat]


def all_victory_points(state: State) -> list[int]:
    """:func:`victory_points` of every seat, in one pass over the board."""
    vp = [0] * state.num_players
    terrain, city_value = state.terrain, state.city_value
    for h, o in enumerate(state.owner):
        if o >= 0 and terrain[h] != "M":
            vp[o] += 1
    for h, o in enumerate(state.city_owner):
        if o >= 0:
            vp[o] += city_value[h]
    for seat, p in enumerate(state.players):
        if p.era >= CONTENT.flight:
            vp[seat] += CONTENT.flight_victory_points
    return vp


def rank_keys(state: State) -> list[tuple[int, int, int]]:
    """Every seat's R-END-3 key: points, then cards in hand, then cities on the board."""
    cities = [0] * state.num_players
    for o in state.city_owner:
        if o >= 0:
            cities[o] += 1
    return [(vp, len(p.hand), c)
            for vp, p, c in zip(all_victory_points(state), state.players, cities)]


def finish_game(state: State, events: list[Event]) -> None:
    state.phase = OVER
    keys = rank_keys(state)
    state.scores = [k[0] for k in keys]
    best = max(keys)
    state.winners = [s for s in range(state.num_players) if keys[s] == best]
    names = " and ".join(colour(s) for s in state.winners)
    table = ", ".join(f"{colour(s)} {state.scores[s]}" for s in range(state.num_players))
    events.append(Event(EventKind.GAME_OVER, f"The game ends. Scores: {table}. Winner: {names}.",
                        data={"scores": state.scores, "winners": state.winners}))
