"""The port: everything the host (``bot/``: the table, publishing, timing, storage, the front
ends) may ask of a game, and nothing more.

A game is one folder under ``games/`` whose ``GAME`` is a :class:`Game`: its
:class:`Rules` (what may happen: new games, actions, who decides, views, records, the
computer players) and its :class:`Presentation` (how it is shown: words, panels, images,
the result). The host holds states, actions and events as opaque values it gets from and
hands back to the same game; it stores what :meth:`Rules.action_to_json` and
:meth:`State.to_json` give. ``games.registry`` finds a game by the name stored with each
table (the ``games.game`` column).

Like boardgame.io's ``Game`` handed to its ``Master``: the host runs any game that fills
this in, and knows nothing else about it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

#: a game's public or private view: plain JSON-able data (views are what leave the rules)
View = dict[str, Any]


class State(Protocol):
    """A game's position, opaque to the host but for copying and storing it."""

    def copy(self) -> Any: ...

    def to_json(self) -> dict[str, Any]: ...


class Action(Protocol):
    """One decision a seat submits, opaque to the host but for storing it."""

    def to_json(self) -> dict[str, Any]: ...


class Event(Protocol):
    """Something that happened; ``private_to`` is the one seat that may see it (None:
    everyone)."""

    @property
    def private_to(self) -> int | None: ...


class Decision(Protocol):
    """A seat owes a decision of a kind (the game's own names)."""

    @property
    def seat(self) -> int: ...

    @property
    def kind(self) -> str: ...


class Seat(Protocol):
    """What a game may know of who plays a seat (``bot.store.SeatRow`` is one)."""

    @property
    def seat(self) -> int: ...

    @property
    def user_id(self) -> int | None: ...

    @property
    def ai_level(self) -> str | None: ...

    @property
    def name(self) -> str: ...

    @property
    def is_ai(self) -> bool: ...

    @property
    def level(self) -> str | None: ...


class Rating(Protocol):
    """A person's rating before or after a game, as a result post shows it."""

    @property
    def ordinal(self) -> float: ...


class Offload(Protocol):
    """Where heavy work (a computer's search, a picture) runs: the host's worker pool."""

    def run(self, fn: Callable[..., Any], *args: Any) -> Awaitable[Any]: ...


class Refused(Exception):
    """The rules refuse an action; ``reason`` says why, worded in the language current
    when it is turned into text (a refusal may be worded later, for whoever reads it)."""

    def __init__(self, reason: object) -> None:
        super().__init__(reason)
        self.reason = reason


class NotYourTurn(Refused):
    """The seat owes no decision that this action answers."""


class UndoRefused(Refused):
    """The rules refuse to take back a step."""


class Timeline(Protocol):
    """The steps of a game that could still be taken back (the game's undo rule)."""

    @property
    def seat(self) -> int | None: ...

    def record(self, before: Any, seat: int, action: Any, events: list[Any],
               after: Any) -> None: ...

    def undo_allowed(self, seat: int) -> bool: ...

    def refusal(self, seat: int) -> object: ...

    def last_before(self) -> Any: ...

    def undo(self, seat: int) -> Any: ...


@dataclass(frozen=True)
class Started:
    """A new game: its first position and events, and what the game stores with it."""

    state: Any
    events: list[Any]
    #: the table's options to store from now on (e.g. the rules version it is played by)
    options: dict[str, Any]
    #: the salt and the published commitment of the seed (None: the game commits to none)
    salt: str | None = None
    commitment: str | None = None


class Rules(Protocol):
    """What may happen in a game: pure, synchronous and deterministic. States, actions
    and events are the game's own values; the host only passes them back."""

    @property
    def min_players(self) -> int: ...

    @property
    def max_players(self) -> int: ...

    @property
    def undo_json(self) -> dict[str, Any]:
        """The stored log entry of an undo."""
        ...

    def start(self, players: int, options: Mapping[str, Any]) -> Started: ...

    def first_state(self, options: Mapping[str, Any], players: int) -> Any: ...

    def state_from_json(self, data: Mapping[str, Any]) -> Any: ...

    def apply(self, state: Any, seat: int, action: Any) -> tuple[Any, list[Any]]:
        """The state after ``action`` and its events; ``state`` is unchanged. Raises
        :class:`Refused` (:class:`NotYourTurn`)."""
        ...

    def apply_in_place(self, state: Any, seat: int, action: Any) -> list[Any]: ...

    def to_act(self, state: Any) -> list[int]: ...

    def decisions(self, state: Any) -> Sequence[Decision]: ...

    def decision_for(self, state: Any, seat: int) -> Decision | None: ...

    def legal_actions(self, state: Any, seat: int) -> list[Any]: ...

    def view(self, state: Any, seat: int | None) -> View:
        """What ``seat`` may know (None: a spectator): the only way anything of a state
        reaches a person."""
        ...

    def visible(self, events: list[Any], seat: int | None) -> list[Any]: ...

    def is_over(self, state: Any) -> bool: ...

    def turn_key(self, state: Any) -> str:
        """Which turn (or phase) a position is in: steps with the same key belong together."""
        ...

    def round_key(self, state: Any) -> str:
        """Which round a position is in: the turns of one round share a turn message."""
        ...

    def action_from_json(self, data: Mapping[str, Any]) -> Any: ...

    def is_undo(self, data: Mapping[str, Any]) -> bool: ...

    def timeline(self) -> Timeline: ...

    def record(self, options: Mapping[str, Any], players: Sequence[dict[str, Any]],
               moves: list[tuple[int, Any]], salt: str | None) -> Any: ...


@dataclass(frozen=True)
class Game:
    """A game as the host runs it: its name (the stored ``games.game`` value) and its
    halves, each the interface of one part of the host."""

    name: str
    #: what may happen (the table's commit path, loading, catching up, storage's checks)
    rules: Rules
    #: the table's words and controls: seat names, event lines, panels and menus
    show: Presentation
    #: the computer players (the table's computer seats and their clocks)
    computers: Computers


class Presentation(Protocol):
    """How the table words and shows a game: in the language current when called (the
    host chooses it: the game's for public posts, a person's for what only they see)."""

    def seat_name(self, seat: int) -> str:
        """A seat as every player knows it (Tempus: its colour)."""
        ...


class Computers(Protocol):
    """The computer players: their levels, and a seat's next action."""

    def levels(self) -> tuple[str, ...]:
        """The levels a host may choose, strongest last."""
        ...

    def default_level(self) -> str: ...
