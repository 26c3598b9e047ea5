"""A player's turn in the action phase: the five actions, card effects, ending the turn.

R-ROUND-2, R-MOVE, R-GROW, R-DRAW, R-CITY, R-CARD-*. Combat lives in :mod:`combat`.
"""

from __future__ import annotations

from .actions import (
    BuildCity,
    GrowToken,
    MoveToken,
    PlayGovernment,
    PlayHealthCare,
    PlayReligion,
    PlaySanitation,
    PlayTransport,
)
from .combat import _use_marker, attack_targets, leader_cards
from .errors import IllegalAction
from .events import Event, EventKind, colour
from .hexgrid import NEIGHBOURS, NUM_HEXES, label
from .movement import Reach, destinations, movable_sources
from .pieces import (
    add_tokens,
    card_type,
    draw_cards,
    lapse_raises,
    owe_discard,
    play_card,
    remove_tokens,
    require_card,
)
from .progress import begin_progress
from .rules import (
    SANITATION_LAPSES_FROM,
    STEPS_END_ONLY_WITH_EMPTY_HAND_FROM,
    TURN_ENDS_ONLY_WITH_EMPTY_HAND_FROM,
)
from .setup import start_turn
from .state import C_OCCUPY, COMBAT, DISCARD, GROW, MAIN, MOVE, PROGRESS, State


def has_card(state: State, seat: int, kind: str) -> bool:
    return any(card_type(c) == kind for c in state.players[seat].hand)


# ---------------------------------------------------------------- Move (R-MOVE)
def begin_move(state: State, seat: int, events: list[Event]) -> None:
    _use_marker(state, seat)
    state.stage = MOVE
    state.steps_left = state.era(seat).move
    state.touched = {}
    events.append(Event(EventKind.MOVE, f"{colour(seat)} takes the Move action (up to "
                        f"{state.steps_left} token(s)).", seat, data={"n": state.steps_left}))
    _maybe_end_move(state, seat, events)


def move_token(state: State, seat: int, action: MoveToken, events: list[Event]) -> None:
    src, dst = action.src, action.dst
    if state.steps_left <= 0:
        raise IllegalAction.because("move.no_more")
    if state.owner[src] != seat:
        raise IllegalAction.because("move.no_tokens", src=src)
    if state.count[src] - state.touched.get(src, 0) <= 0:
        raise IllegalAction.because("move.already_moved", src=src)
    if dst not in destinations(state, seat, src):
        raise _why_not_destination(state, seat, src, dst)
    remove_tokens(state, src, 1)
    add_tokens(state, seat, dst, 1)
    state.touched[dst] = state.touched.get(dst, 0) + 1
    state.steps_left -= 1
    events.append(Event(EventKind.MOVE_TOKEN, f"{colour(seat)} moves a token from {label(src)} to "
                        f"{label(dst)}.", seat, data={"src": label(src), "dst": label(dst)}))
    _maybe_end_move(state, seat, events)


def _why_not_destination(state: State, seat: int, src: int, dst: int) -> IllegalAction:
    if state.terrain[dst] is None:
        return IllegalAction.because("move.sea", dst=dst)
    if state.city_owner[dst] >= 0:
        return IllegalAction.because("move.city", dst=dst)
    if state.owner[dst] not in (-1, seat):
        return IllegalAction.because("move.occupied", dst=dst, colour=state.owner[dst])
    if state.owner[dst] == seat and state.count[dst] >= state.stack_limit(seat, dst):
        return IllegalAction.because("move.stack_limit", dst=dst,
                                     n=state.stack_limit(seat, dst))
    return IllegalAction.because("move.out_of_reach", dst=dst, src=src,
                                 n=state.era(seat).distance)


def play_transport(state: State, seat: int, action: PlayTransport, events: list[Event]) -> None:
    require_card(state, seat, action.card, "TRA")
    play_card(state, seat, action.card)
    state.steps_left += 1
    events.append(Event(EventKind.CARD, f"{colour(seat)} plays Transport: one more token may move.",
                        seat, data={"card": action.card, "type": "TRA"}))


def end_move(state: State, seat: int, events: list[Event]) -> None:
    state.stage = MAIN
    state.steps_left = 0
    state.touched = {}
    after_step(state, seat, events)


def _maybe_end_move(state: State, seat: int, events: list[Event]) -> None:
    """End the Move once its last token has moved, unless a card could extend it: from
    rules 5 any card in hand (R-INFO-4: only the hand's size is public), before that a
    Transport in hand."""
    if state.steps_left <= 0 and not _step_kept_open(state, seat):
        end_move(state, seat, events)


def _step_kept_open(state: State, seat: int) -> bool:
    if state.rules_version >= STEPS_END_ONLY_WITH_EMPTY_HAND_FROM:
        return bool(state.players[seat].hand)
    return hand_extends_step(state, seat)


def waits_to_end_after(state: State, seat: int, step: MoveToken | GrowToken) -> bool:
    """Whether after ``step`` (legal now) the Move or Growth under way is spent (no token
    may move or grow) yet waits for its player to end it: from rules 5 with cards in hand
    (R-INFO-4). A front end offers "... and end the move" for such a step, so that the
    player does not have to say it in a click of its own."""
    if state.rules_version < STEPS_END_ONLY_WITH_EMPTY_HAND_FROM or not state.players[seat].hand:
        return False
    if isinstance(step, MoveToken):
        return state.stage == MOVE and state.steps_left == 1
    if state.stage != GROW or state.players[seat].supply <= 1:
        return False  # the last token of the supply ends the Growth by itself
    return state.steps_left == 1 or grow_hexes(state, seat) == [step.hex]


def hand_extends_step(state: State, seat: int) -> bool:
    """Whether a card in ``seat``'s hand could let the Move or Growth under way go on
    once it is spent: Transport after a Move's last token; Sanitation where no token has
    room to grow, Health care once the Growth's number is used. Rules 1-4 ended the step
    by itself when this was false; from rules 5 the player ends it (R-INFO-4), and the
    computer players still end it at once when this is false."""
    if state.stage == MOVE:
        return state.steps_left > 0 or has_card(state, seat, "TRA")
    if state.stage == GROW:
        if state.players[seat].supply <= 0:
            return False
        room = bool(grow_hexes(state, seat)) or has_card(state, seat, "SAN")
        count = state.steps_left > 0 or has_card(state, seat, "HEA")
        return room and count
    return False


# ---------------------------------------------------------------- Growth (R-GROW)
def grow_hexes(state: State, seat: int) -> list[int]:
    """Grassland hexes where one more token may grow now (R-GROW-1/2/3)."""
    if state.players[seat].supply <= 0:
        return []
    return [
        h
        for h in range(NUM_HEXES)
        if state.owner[h] == seat
        and state.terrain[h] == "G"
        and h not in state.touched
        and state.count[h] + 1 <= state.stack_limit(seat, h)
    ]


def begin_grow(state: State, seat: int, events: list[Event]) -> None:
    _use_marker(state, seat)
    state.stage = GROW
    state.steps_left = state.era(seat).growth
    state.touched = {}
    events.append(Event(EventKind.GROW, f"{colour(seat)} takes the Grow action (up to "
                        f"{state.steps_left} new token(s)).", seat,
                        data={"n": state.steps_left}))
    _maybe_end_grow(state, seat, events)


def grow_token(state: State, seat: int, action: GrowToken, events: list[Event]) -> None:
    h = action.hex
    if state.steps_left <= 0:
        raise IllegalAction.because("grow.no_more")
    if state.players[seat].supply <= 0:
        raise IllegalAction.because("grow.no_supply")
    if state.owner[h] != seat or state.terrain[h] != "G":
        raise IllegalAction.because("grow.not_grassland", hex=h)
    if h in state.touched:
        raise IllegalAction.because("grow.already", hex=h)
    if state.count[h] + 1 > state.stack_limit(seat, h):
        raise IllegalAction.because("grow.stack_limit", hex=h, n=state.stack_limit(seat, h))
    add_tokens(state, seat, h, 1)
    state.players[seat].supply -= 1
    state.touched[h] = 1
    state.steps_left -= 1
    events.append(Event(EventKind.GROW_TOKEN, f"{colour(seat)} grows a token on {label(h)}.", seat,
                        data={"hex": label(h)}))
    _maybe_end_grow(state, seat, events)


def play_health_care(state: State, seat: int, action: PlayHealthCare,
                     events: list[Event]) -> None:
    require_card(state, seat, action.card, "HEA")
    play_card(state, seat, action.card)
    state.steps_left += 1
    events.append(Event(
        EventKind.CARD, f"{colour(seat)} plays Health care: one more token may grow.",
        seat, data={"card": action.card, "type": "HEA"}))


def end_grow(state: State, seat: int, events: list[Event]) -> None:
    state.stage = MAIN
    state.steps_left = 0
    state.touched = {}
    after_step(state, seat, events)


def _maybe_end_grow(state: State, seat: int, events: list[Event]) -> None:
    """End the Growth when nothing more can grow: the supply is empty (public), or no
    token can grow (no room, or no growth left) and no card could change that: from
    rules 5 any card in hand (R-INFO-4), before that Sanitation for room or Health care
    for growth."""
    spent = state.steps_left <= 0 or not grow_hexes(state, seat)
    if state.players[seat].supply <= 0 or (spent and not _step_kept_open(state, seat)):
        end_grow(state, seat, events)


# ---------------------------------------------------------------- Idea (R-DRAW)
def draw_action(state: State, seat: int, events: list[Event]) -> None:
    _use_marker(state, seat)
    draw_cards(state, seat, state.era(seat).draw, events)
    if owe_discard(state, seat):
        state.stage = DISCARD
        events.append(Event(EventKind.DISCARD_OWED, f"{colour(seat)} must discard "
                            f"{state.discards[seat]} card(s) (hand limit "
                            f"{state.era(seat).limit}).", seat,
                            data={"n": state.discards[seat], "limit": state.era(seat).limit}))
        return
    after_step(state, seat, events)


# ---------------------------------------------------------------- Build city (R-CITY)
def city_sites(state: State, seat: int) -> list[tuple[int, int]]:
    """Legal (hex, value) pairs for Build City."""
    values = sorted(set(state.players[seat].cities))
    out: list[tuple[int, int]] = []
    for h in range(NUM_HEXES):
        if state.owner[h] != seat or state.count[h] < 2 or state.terrain[h] == "M":
            continue
        if any(state.city_owner[n] >= 0 for n in NEIGHBOURS[h]):
            continue
        out.extend((h, v) for v in values if v <= state.count[h])
    return out


def build_city(state: State, seat: int, action: BuildCity, events: list[Event]) -> None:
    h, value = action.hex, action.value
    if state.owner[h] != seat:
        raise IllegalAction.because("city.no_tokens", hex=h)
    if state.terrain[h] == "M":
        raise IllegalAction.because("city.mountains")
    if any(state.city_owner[n] >= 0 for n in NEIGHBOURS[h]):
        raise IllegalAction.because("city.next_to_city", hex=h)
    if value not in state.players[seat].cities:
        raise IllegalAction.because("city.no_value", value=value,
                                    values=list(state.players[seat].cities))
    if value > state.count[h]:
        raise IllegalAction.because("city.too_few", value=value, hex=h, n=state.count[h])
    _use_marker(state, seat)
    n = state.count[h]
    remove_tokens(state, h, n)
    state.players[seat].supply += n
    state.players[seat].cities.remove(value)
    state.city_owner[h] = seat
    state.city_value[h] = value
    events.append(Event(
        EventKind.CITY, f"{colour(seat)} builds a city of value {value} on {label(h)} "
        f"({n} token(s) back to supply).", seat,
        data={"hex": label(h), "value": value, "tokens": n}))
    after_step(state, seat, events)


# ---------------------------------------------------------------- cards (R-CARD)
def religion_targets(state: State, seat: int) -> list[tuple[int, int]]:
    """Legal (target, own) pairs for Religion (R-CARD-REL)."""
    if state.players[seat].supply <= 0:
        return []
    out = []
    for own in range(NUM_HEXES):
        if state.owner[own] != seat or state.count[own] + 1 > state.stack_limit(seat, own):
            continue
        for t in NEIGHBOURS[own]:
            if state.owner[t] not in (-1, seat):
                out.append((t, own))
    return out


def play_religion(state: State, seat: int, action: PlayReligion, events: list[Event]) -> None:
    require_card(state, seat, action.card, "REL")
    t, own = action.target, action.own
    if state.owner[own] != seat:
        raise IllegalAction.because("religion.no_tokens", own=own)
    if t not in NEIGHBOURS[own] or state.owner[t] in (-1, seat):
        raise IllegalAction.because("religion.target", target=t, own=own)
    if state.players[seat].supply <= 0:
        raise IllegalAction.because("religion.no_supply")
    if state.count[own] + 1 > state.stack_limit(seat, own):
        raise IllegalAction.because("religion.stack_limit", own=own)
    play_card(state, seat, action.card)
    victim = state.owner[t]
    remove_tokens(state, t, 1)
    state.players[victim].supply += 1
    add_tokens(state, seat, own, 1)
    state.players[seat].supply -= 1
    events.append(Event(
        EventKind.CARD, f"{colour(seat)} plays Religion: a {colour(victim)} token on "
        f"{label(t)} is converted onto {label(own)}.", seat,
        data={"card": action.card, "type": "REL", "target": label(t),
                              "own": label(own), "victim": victim}))
    _maybe_end_step_after_card(state, seat, events)


def sanitation_hexes(state: State, seat: int) -> list[int]:
    """Hexes whose stack limit Sanitation may raise now (R-CARD-SAN).

    Rules 1 and 2: any own or empty land hex without a city (a hex the player occupies
    or is about to enter). Rules 3 on, only where the raise can matter before it lapses:
    a hex the player holds, or an empty hex its tokens can still enter in the Move under
    way (or, between actions with an action still to take, in a Move action). During a
    fight: only the won hex, before moving in (R-COMBAT-8)."""
    if state.stage == COMBAT:
        c = state.combat
        return [c.dst] if c is not None and sanitation_at_occupy(state) else []
    owner = state.owner
    if state.rules_version < SANITATION_LAPSES_FROM:
        return [
            h
            for h in range(NUM_HEXES)
            if state.terrain[h] is not None
            and state.city_owner[h] < 0
            and owner[h] in (-1, seat)
        ]
    out = {h for h in range(NUM_HEXES) if owner[h] == seat}
    if state.stage == MOVE:
        sources = (movable_sources(state, seat)
                   if state.steps_left > 0 or has_card(state, seat, "TRA") else [])
    elif state.stage == MAIN and state.turn_actions > 0:
        sources = sorted(out)
    else:
        sources = []
    reach = Reach(state, seat)
    for src in sources:
        out.update(h for h in reach.destinations(src) if owner[h] < 0)
    return sorted(out)


def can_play_sanitation(state: State, seat: int) -> bool:
    """Whether :func:`sanitation_hexes` is not empty (cheaply: a held hex is enough)."""
    if state.stage != COMBAT and seat in state.owner:
        return True
    return bool(sanitation_hexes(state, seat))


def sanitation_at_occupy(state: State) -> bool:
    """R-CARD-SAN / R-COMBAT-8 (rules 2): the winning attacker may raise the emptied
    hex before moving in. Rules 1 did not allow it."""
    c = state.combat
    return state.rules_version >= 2 and c is not None and c.step == C_OCCUPY


def play_sanitation(state: State, seat: int, action: PlaySanitation,
                    events: list[Event]) -> None:
    require_card(state, seat, action.card, "SAN")
    h = action.hex
    if state.stage == COMBAT:
        c = state.combat
        if c is None or not sanitation_at_occupy(state) or h != c.dst:
            if c is None:
                raise IllegalAction.because("sanitation.in_fight")
            raise IllegalAction.because("sanitation.won_hex", dst=c.dst)
    if state.terrain[h] is None or state.city_owner[h] >= 0 or state.owner[h] not in (-1, seat):
        raise IllegalAction.because("sanitation.bad_hex", hex=h)
    if (state.rules_version >= SANITATION_LAPSES_FROM and state.stage != COMBAT
            and state.owner[h] != seat and h not in sanitation_hexes(state, seat)):
        raise IllegalAction.because("sanitation.no_use", hex=h)
    play_card(state, seat, action.card)
    if state.rules_version >= 2:
        if state.bonus_seat[h] != seat:  # a raise another player left on an empty hex
            state.bonus[h] = 0
        state.bonus_seat[h] = seat
    state.bonus[h] += 1
    events.append(Event(EventKind.CARD, f"{colour(seat)} plays Sanitation: their stack limit on "
                        f"{label(h)} rises by 1.", seat, data={"card": action.card, "type": "SAN",
                                                             "hex": label(h)}))
    if state.stage == GROW:
        _maybe_end_grow(state, seat, events)
    elif state.stage == MOVE:
        _maybe_end_step_after_card(state, seat, events)


def _maybe_end_step_after_card(state: State, seat: int, events: list[Event]) -> None:
    """Rules 5: a card played during a spent Move or Growth may leave the hand empty, and
    the step then ends as it would have after its last token (R-INFO-4). Rules 1-4
    checked only after a Sanitation in a Growth, and replay as they were played."""
    if state.rules_version < STEPS_END_ONLY_WITH_EMPTY_HAND_FROM:
        return
    if state.stage == MOVE:
        _maybe_end_move(state, seat, events)
    elif state.stage == GROW:
        _maybe_end_grow(state, seat, events)


def play_government(state: State, seat: int, action: PlayGovernment,
                    events: list[Event]) -> None:
    require_card(state, seat, action.card, "GOV")
    if action.mode == "double":
        if state.players[seat].markers <= state.turn_actions:
            raise IllegalAction.because("government.no_marker")
        play_card(state, seat, action.card)
        state.turn_actions += 1
        events.append(Event(EventKind.CARD, f"{colour(seat)} plays Government: another action "
                            "follows at once.", seat,
                            data={"card": action.card, "type": "GOV", "mode": "double"}))
    elif action.mode == "pass":
        if state.acted or state.turn_actions != 1:
            raise IllegalAction.because("government.pass_late")
        play_card(state, seat, action.card)
        state.turn_actions = 0
        events.append(Event(EventKind.CARD, f"{colour(seat)} plays Government and passes, keeping "
                            "the marker for later this round.", seat,
                            data={"card": action.card, "type": "GOV", "mode": "pass"}))
        end_turn(state, seat, events)
    else:
        raise IllegalAction.because("government.mode")


# ---------------------------------------------------------------- turn flow
def card_play_possible(state: State, seat: int) -> bool:
    """Whether any card could still be played for its effect in the MAIN stage."""
    hand = state.players[seat].hand
    kinds = {card_type(c) for c in hand}
    if not kinds & {"LEA", "REL", "SAN", "GOV"}:
        return False
    if "SAN" in kinds and can_play_sanitation(state, seat):
        return True
    if "GOV" in kinds and state.players[seat].markers > state.turn_actions:
        return True
    if "LEA" in kinds and leader_cards(state, seat) and attack_targets(state, seat):
        return True
    return "REL" in kinds and bool(religion_targets(state, seat))


def after_step(state: State, seat: int, events: list[Event]) -> None:
    """An action has ended (R-CARD-SAN: the player's raises on hexes it does not hold
    lapse, rules 3 on); back in the MAIN stage, end the turn by itself when nothing is
    left to do."""
    lapse_raises(state, seat)
    if state.stage == MAIN and state.turn_actions <= 0 and nothing_left(state, seat):
        end_turn(state, seat, events)


def nothing_left(state: State, seat: int) -> bool:
    """Whether the turn may end without the player saying so. From rules 4 only an empty
    hand ends it (R-INFO-1: hand sizes are public, their cards are not; ending at once
    whenever no card could be played would tell the table what the hand lacks)."""
    if state.rules_version >= TURN_ENDS_ONLY_WITH_EMPTY_HAND_FROM:
        return not state.players[seat].hand
    return not card_play_possible(state, seat)


def end_turn(state: State, seat: int, events: list[Event]) -> None:
    """Pass the turn to the next seat with markers (R-ROUND-2), or start progress."""
    if state.turn_actions > 0:
        raise IllegalAction.because("turn.action_first")
    lapse_raises(state, seat)  # R-CARD-SAN: a raise played after the last action
    n = state.num_players
    order = [(seat + i) % n for i in range(1, n + 1)]
    nxt = next((s for s in order if state.players[s].markers > 0), None)
    if nxt is None:
        state.stage = MAIN
        state.phase = PROGRESS
        begin_progress(state, events)
        return
    rel = (nxt - state.start_player) % n
    if rel <= (seat - state.start_player) % n:
        state.action_round += 1
    start_turn(state, nxt)
    events.append(Event(EventKind.TURN, f"{colour(nxt)} to act (turn "
                            f"{state.action_round}).", nxt,
                            data={"action_round": state.action_round}))
