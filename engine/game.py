"""The engine's front door: who must decide what, and applying an action.

``apply(state, seat, action)`` never mutates its input: it validates on a copy and
returns ``(new_state, events)``, or raises :class:`~engine.errors.IllegalAction`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import StrEnum

from . import actions as A
from . import combat, progress, setup, turn
from .content import CONTENT
from .errors import IllegalAction, NotYourDecision
from .events import Event, colour
from .hexgrid import NUM_HEXES, label
from .state import (
    ACTIONS,
    C_ATTACK,
    C_DEFEND,
    C_OCCUPY,
    C_TERRAIN,
    COMBAT,
    DISCARD,
    GROW,
    MAIN,
    MOVE,
    OVER,
    PROGRESS,
    TILES,
    TOKENS,
    State,
)


class DecisionKind(StrEnum):
    """What a seat is asked to decide. The values are the kinds' names in views, records
    and the bot's controls (a member equals its string)."""

    PLACE_TILE = "place_tile"
    PLACE_START_TOKEN = "place_start_token"
    TURN = "turn"
    MOVING = "move"
    GROWING = "grow"
    NAME_CITY_TERRAIN = "name_city_terrain"
    ATTACK_CARDS = "attack_cards"
    DEFEND_CARDS = "defend_cards"
    OCCUPY = "occupy"
    DISCARDING = "discard"
    PROGRESS_CARDS = "progress_cards"


# the members under their own names, as most of the code reads them
PLACE_TILE = DecisionKind.PLACE_TILE
PLACE_START_TOKEN = DecisionKind.PLACE_START_TOKEN
TURN = DecisionKind.TURN
MOVING = DecisionKind.MOVING
GROWING = DecisionKind.GROWING
NAME_CITY_TERRAIN = DecisionKind.NAME_CITY_TERRAIN
ATTACK_CARDS = DecisionKind.ATTACK_CARDS
DEFEND_CARDS = DecisionKind.DEFEND_CARDS
OCCUPY = DecisionKind.OCCUPY
DISCARDING = DecisionKind.DISCARDING
PROGRESS_CARDS = DecisionKind.PROGRESS_CARDS


@dataclass(frozen=True, slots=True)
class Decision:
    """A seat owes a decision of this kind now."""

    seat: int
    kind: DecisionKind
    prompt: str


def decisions(state: State) -> list[Decision]:
    """Every decision owed now (several only in the progress phase). Empty iff game over."""
    ph = state.phase
    if ph == OVER:
        return []
    if ph == TILES:
        tile = state.tile_stack[0]
        return [Decision(state.turn, PLACE_TILE, f"{colour(state.turn)}: place tile {tile}")]
    if ph == TOKENS:
        left = CONTENT.starting_tokens - len(state.start_hexes)
        return [Decision(state.turn, PLACE_START_TOKEN,
                         f"{colour(state.turn)}: place a starting token ({left} left)")]
    if ph == PROGRESS:
        if state.discards:
            return [Decision(s, DISCARDING, f"{colour(s)}: discard {n} card(s)")
                    for s, n in sorted(state.discards.items())]
        return [Decision(s, PROGRESS_CARDS, f"{colour(s)}: choose progress cards in secret")
                for s in range(state.num_players) if s not in state.progress_choices]
    assert ph == ACTIONS
    st = state.stage
    seat = state.turn
    if st == MAIN:
        return [Decision(seat, TURN, f"{colour(seat)}: your turn")]
    if st == MOVE:
        return [Decision(seat, MOVING, f"{colour(seat)}: move up to {state.steps_left} "
                         "more token(s)")]
    if st == GROW:
        return [Decision(seat, GROWING, f"{colour(seat)}: grow up to {state.steps_left} "
                         "more token(s)")]
    if st == DISCARD:
        return [Decision(seat, DISCARDING,
                         f"{colour(seat)}: discard {state.discards[seat]} card(s)")]
    assert st == COMBAT and state.combat is not None
    c = state.combat
    if c.step == C_TERRAIN:
        return [Decision(c.defender, NAME_CITY_TERRAIN,
                         f"{colour(c.defender)}: name the terrain of your city on "
                         f"{label(c.dst)}")]
    if c.step == C_ATTACK:
        return [Decision(c.attacker, ATTACK_CARDS,
                         f"{colour(c.attacker)}: choose attack cards in secret")]
    if c.step == C_DEFEND:
        return [Decision(c.defender, DEFEND_CARDS,
                         f"{colour(c.defender)}: answer with defence cards")]
    assert c.step == C_OCCUPY
    return [Decision(c.attacker, OCCUPY,
                     f"{colour(c.attacker)}: move tokens into {label(c.dst)}?")]


def to_act(state: State) -> list[int]:
    """Seats that owe a decision now."""
    return [d.seat for d in decisions(state)]


def decision_for(state: State, seat: int) -> Decision | None:
    for d in decisions(state):
        if d.seat == seat:
            return d
    return None


Handler = Callable[[State, int, A.Action, list[Event]], None]


def _no_arg(fn: Callable[[State, int, list[Event]], None]) -> Handler:
    return lambda s, seat, _a, ev: fn(s, seat, ev)


# The tables below are keyed by the action's class and each handler takes exactly that
# class, so every call is well typed; mypy cannot see the key-value link and reads each
# handler as too narrow for ``Handler`` (its argument is contravariant): the
# ``ignore[dict-item]`` on each entry says only that.
_COMMON_CARDS: dict[type[A.Action], Handler] = {
    A.PlayReligion: turn.play_religion,  # type: ignore[dict-item]
    A.PlaySanitation: turn.play_sanitation,  # type: ignore[dict-item]
}

#: For each decision kind, the action types it accepts and their handlers.
HANDLERS: dict[str, dict[type[A.Action], Handler]] = {
    PLACE_TILE: {A.PlaceTile: setup.place_tile},  # type: ignore[dict-item]
    PLACE_START_TOKEN: {A.PlaceStartToken: setup.place_start_token},  # type: ignore[dict-item]
    TURN: {
        A.BeginMove: _no_arg(turn.begin_move),
        A.BeginGrow: _no_arg(turn.begin_grow),
        A.Attack: combat.start_attack,  # type: ignore[dict-item]
        A.DrawCards: _no_arg(turn.draw_action),
        A.BuildCity: turn.build_city,  # type: ignore[dict-item]
        A.PlayGovernment: turn.play_government,  # type: ignore[dict-item]
        A.EndTurn: _no_arg(turn.end_turn),
        **_COMMON_CARDS,
    },
    MOVING: {
        A.MoveToken: turn.move_token,  # type: ignore[dict-item]
        A.PlayTransport: turn.play_transport,  # type: ignore[dict-item]
        A.EndMove: _no_arg(turn.end_move),
        **_COMMON_CARDS,
    },
    GROWING: {
        A.GrowToken: turn.grow_token,  # type: ignore[dict-item]
        A.PlayHealthCare: turn.play_health_care,  # type: ignore[dict-item]
        A.EndGrow: _no_arg(turn.end_grow),
        **_COMMON_CARDS,
    },
    NAME_CITY_TERRAIN: {A.NameCityTerrain: combat.name_city_terrain},  # type: ignore[dict-item]
    ATTACK_CARDS: {A.CommitAttackCards: combat.commit_attack_cards},  # type: ignore[dict-item]
    DEFEND_CARDS: {A.DefendCards: combat.defend_cards},  # type: ignore[dict-item]
    OCCUPY: {
        A.Occupy: combat.occupy,  # type: ignore[dict-item]
        A.PlaySanitation: turn.play_sanitation,  # type: ignore[dict-item]
    },
    DISCARDING: {A.Discard: lambda s, seat, a, ev: _discard(s, seat, a, ev)},  # type: ignore[arg-type]
    PROGRESS_CARDS: {A.ProgressCards: progress.progress_cards},  # type: ignore[dict-item]
}


def _discard(state: State, seat: int, action: A.Discard, events: list[Event]) -> None:
    if state.phase == PROGRESS:
        progress.progress_discard(state, seat, action, events)
        return
    progress.apply_discard(state, seat, action, events)
    state.stage = MAIN
    turn.after_step(state, seat, events)


def apply(state: State, seat: int, action: A.Action) -> tuple[State, list[Event]]:
    """Validate ``action`` by ``seat`` and return the new state and its events."""
    new = state.copy()
    events = apply_in_place(new, seat, action)
    return new, events


def apply_in_place(state: State, seat: int, action: A.Action) -> list[Event]:
    """Like :func:`apply` but mutates ``state``; on error ``state`` may be half-changed,
    so only use it on a state you are prepared to throw away (simulations, AI search)."""
    if state.phase == OVER:
        raise IllegalAction.because("game.over")
    if not 0 <= seat < state.num_players:
        raise NotYourDecision.because("seat.unknown", n=seat)
    decision = decision_for(state, seat)
    if decision is None:
        waiting = [d.seat for d in decisions(state)]
        raise NotYourDecision.because("decision.not_yours", colours=waiting)
    handler = HANDLERS[decision.kind].get(type(action))
    if handler is None:
        raise NotYourDecision.because("decision.wrong_kind", kind=decision.kind, action=action.type)
    _check_shape(action)
    events: list[Event] = []
    handler(state, seat, action, events)
    return events


def _check_shape(action: A.Action) -> None:
    """Reject malformed values (wrong types, hexes off the board) with a clear message."""
    for f in fields(action):
        v = getattr(action, f.name)
        values = v if isinstance(v, tuple) else (v,)
        for x in values:
            if x is None and f.name == "leader":
                continue
            if f.name in ("terrain", "mode"):
                if not isinstance(x, str):
                    raise IllegalAction.because("shape.text", field=f.name)
                continue
            if not isinstance(x, int) or isinstance(x, bool):
                raise IllegalAction.because("shape.whole_number", field=f.name, got=repr(x))
            if f.name in action.hex_fields and not 0 <= x < NUM_HEXES:
                raise IllegalAction.because("shape.hex", field=f.name)
