"""Tempus's rules as the host asks for them (games.port.Rules), from the engine.

Everything here hands the engine's own values through (states, actions, events,
decisions); what it adds is the host's vocabulary: the engine's refusals as
:class:`games.port.Refused` carrying their words (games.tempus.refusal_text), turn and
round keys as text, and a game started or replayed from its stored options.
"""

from __future__ import annotations

import contextlib
import json
import random
import secrets
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import engine
from engine import game as G
from engine.actions import Action, action_from_json
from engine.commitment import SALT_BYTES, commitment
from engine.content import CONTENT
from engine.errors import IllegalAction, NotYourDecision
from engine.events import Event, visible
from engine.legal import legal_actions
from engine.record import Record
from engine.setup import new_game
from engine.state import ACTIONS, OVER, TILES, TOKENS, State
from engine.undo import UNDO_JSON, Timeline, is_undo, turn_key
from engine.undo import UndoRefused as EngineUndoRefused
from engine.views import view
from games.port import NotYourTurn, Refused, Started, UndoRefused
from games.tempus.forced import forced_answer
from games.tempus.refusal_text import Reason


@contextlib.contextmanager
def _as_port_refusals() -> Iterator[None]:
    """The engine's refusals as the port's, worded for whoever reads them."""
    try:
        yield
    except NotYourDecision as exc:
        raise NotYourTurn(Reason(exc), exc) from None
    except IllegalAction as exc:
        raise Refused(Reason(exc), exc) from None


class Steps:
    """The steps that could still be taken back (engine.undo's rule), with its refusals in
    the port's terms."""

    __slots__ = ("_timeline",)

    def __init__(self) -> None:
        self._timeline = Timeline()

    @property
    def seat(self) -> int | None:
        return self._timeline.seat

    def record(self, before: State, seat: int, action: Action, events: list[Event],
               after: State) -> None:
        self._timeline.record(before, seat, action, events, after)

    def undo_allowed(self, seat: int) -> bool:
        return self._timeline.undo_allowed(seat)

    def refusal(self, seat: int) -> Reason:
        return Reason(self._timeline.refusal(seat))

    @property
    def steps(self) -> list[Any]:
        """The steps that could be taken back, oldest first."""
        return self._timeline.steps

    def last_before(self) -> State:
        """The position before the step an undo would take back."""
        return self._timeline.steps[-1].before

    def undo(self, seat: int) -> State:
        try:
            return self._timeline.undo(seat)
        except EngineUndoRefused as exc:
            raise UndoRefused(Reason(exc), exc) from None


class TempusRules:
    """games.port.Rules for Tempus."""

    min_players = CONTENT.min_players
    max_players = CONTENT.max_players
    undo_json: dict[str, Any] = dict(UNDO_JSON)

    def owns(self, state: object) -> bool:
        return isinstance(state, State)

    def default_options(self) -> dict[str, Any]:
        return {"random_map": True, "protection_counts_cities": False}

    def twin(self, state: State, seat: int | None, seed: int) -> State:
        """The unseen cards (the draw pile and the hands ``seat`` does not hold, R-INFO-3)
        shuffled together and dealt back in the same numbers."""
        out = state.copy()
        hidden = [p for s, p in enumerate(out.players) if s != seat]
        pool = [*out.deck, *(c for p in hidden for c in p.hand)]
        random.Random(seed).shuffle(pool)
        out.deck[:] = pool[:len(out.deck)]
        at = len(out.deck)
        for p in hidden:
            p.hand[:] = pool[at:at + len(p.hand)]
            at += len(p.hand)
        return out

    def start(self, players: int, options: Mapping[str, Any]) -> Started:
        """A new game by the current rules (a stored game keeps its own: engine.rules),
        its seed committed to now and revealed at the end (engine/commitment.py)."""
        stored = dict(options)
        stored["start_player"] = None
        stored["rules_version"] = engine.RULES_VERSION
        stored.setdefault("protection_counts_cities", False)  # R-OPT-1
        rules_version, table_options = engine.stored_rules(stored)
        state, events = new_game(players, int(stored["seed"]),
                                 random_map=bool(stored["random_map"]),
                                 rules_version=rules_version, options=table_options)
        salt = secrets.token_hex(SALT_BYTES)
        return Started(state, events, stored, salt,
                       commitment(int(stored["seed"]), salt, rules_version))

    def first_state(self, options: Mapping[str, Any], players: int) -> State:
        """The position a stored game started from (its log replays on top of it)."""
        state, _ = Record.from_stored(options, players).new_state()
        return state

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return State.from_json(dict(data))

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        with _as_port_refusals():
            return engine.apply(state, seat, action)

    def apply_in_place(self, state: State, seat: int, action: Action) -> list[Event]:
        with _as_port_refusals():
            return engine.apply_in_place(state, seat, action)

    def to_act(self, state: State) -> list[int]:
        return G.to_act(state)

    def decisions(self, state: State) -> list[G.Decision]:
        return G.decisions(state)

    def decision_for(self, state: State, seat: int) -> G.Decision | None:
        return G.decision_for(state, seat)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return legal_actions(state, seat)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view(state, seat)

    def visible(self, events: list[Event], seat: int | None) -> list[Event]:
        return visible(events, seat)

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def turn_key(self, state: State) -> str:
        return json.dumps(turn_key(state), separators=(",", ":"))

    def round_key(self, state: State) -> str:
        """The round (or phase) of the position, as text: every seat's turn of one action
        round shares it; the tiles of the setup share one; a progress phase is one."""
        key = turn_key(state)
        if state.phase in (ACTIONS, TOKENS):
            key = key[:3]
        elif state.phase == TILES:
            key = key[:1]
        return json.dumps(key, separators=(",", ":"))

    def action_from_json(self, data: Mapping[str, Any]) -> Action:
        return action_from_json(dict(data))

    def is_undo(self, data: Mapping[str, Any]) -> bool:
        return is_undo(dict(data))

    def forced(self, state: State, seat: int, *, may_undo: bool) -> Action | None:
        return forced_answer(state, seat, may_undo=may_undo)

    def changed_hands(self, before: State | None, after: State) -> list[int]:
        """The seats whose hand ``after`` differs from ``before``'s (all with cards when
        there is no ``before``)."""
        return [s for s, p in enumerate(after.players)
                if sorted(before.players[s].hand if before is not None else [])
                != sorted(p.hand)]

    def timeline(self) -> Steps:
        return Steps()

    def record(self, options: Mapping[str, Any], players: Sequence[dict[str, Any]],
               moves: list[tuple[int, Action]], salt: str | None) -> Record:
        """The game's record (setup and every move so far), as the engine replays it."""
        return Record.from_stored(options, len(players), players=list(players),
                                  moves=moves, salt=salt)
