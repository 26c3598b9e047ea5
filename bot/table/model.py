"""What the table service works with and hands out: tables, outcomes, refusals."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Protocol

from bot.store import ACTIVE, DeadlineRow, GameRow, SeatRow, Storage, StorageUnavailable
from games import registry
from games.controls import Panel
from games.port import Game, Rules, Timeline
from games.registry import DEFAULT as DEFAULT_GAME
from lang import i18n
from lang.messages import t


class TableError(Exception):
    """A refusal with a player-readable message from the catalogue."""

    def __init__(self, key: str, **kwargs: Any) -> None:
        self.key = key
        self.kwargs = kwargs
        super().__init__(key)

    def __str__(self) -> str:
        """The message in the current language: the language of whoever reads it (the
        refusal may be raised while a public post is built in the game's language)."""
        return t(self.key, **self.kwargs)


class Stale(TableError):
    """The game changed since the control was made (a double click, an old button, or a
    change another process stored first): nothing was stored."""

    def __init__(self) -> None:
        super().__init__("error.stale")


# ---------------------------------------------------------------- storage failures
class StorageRefusal(TableError):
    """The store could not take or give the data (disk full, locked, read-only, file
    gone ...): nothing was changed; the same request may succeed once it recovers."""

    def __init__(self, cause: StorageUnavailable) -> None:
        super().__init__(cause.key)
        self.reason = cause.reason


class Refusing:
    """The storage with :class:`StorageUnavailable` turned into a :class:`StorageRefusal`
    for the player, on every call, so no call site can forget it."""

    def __init__(self, storage: Storage) -> None:
        self._storage = storage
        #: each method's wrapper, made once (several storage calls per action), with what
        #: it wraps: a method replaced on the storage (tests do) gets a new one
        self._calls: dict[str, tuple[Any, Any, Any]] = {}

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._storage, name)
        target = getattr(attr, "__func__", attr), getattr(attr, "__self__", None)
        known = self._calls.get(name)
        if known is not None and known[:2] == target:
            return known[2]
        if not inspect.iscoroutinefunction(attr):
            return attr

        @functools.wraps(attr)
        async def call(*args: Any, **kwargs: Any) -> Any:
            try:
                return await attr(*args, **kwargs)
            except StorageUnavailable as exc:
                raise StorageRefusal(exc) from exc

        self._calls[name] = (*target, call)
        return call


@dataclass(frozen=True)
class SetAside:
    """A game that could not be loaded (damaged options or log, a log that does not
    replay): kept out of play until the operator repairs it, so the others go on."""

    game_id: int
    channel_id: int | None
    guild_id: int | None
    reason: str

    def notice(self) -> str:
        """The one public line for the game's channel."""
        return t("notice.set_aside", game=self.game_id)


class Sink(Protocol):
    async def publish(self, outcome: Outcome) -> None: ...


class Menus(Protocol):
    """A sink's private menus (``sink.menus``, if it keeps any)."""

    def timed_out(self, game_id: int, user_id: int) -> None:
        """Retire the person's menus of the game, saying a computer decided for them."""
        ...


#: what a private menu made before a restart needs to know whether it is still current:
#: the game's seats and, for each seat owing a decision, the version since which it owes it
Position = tuple[Sequence[SeatRow], Mapping[int, int]]


@dataclass(frozen=True)
class Reminder:
    """A player owes a decision and its deadline is near (``stage``: see bot.timing.pace)."""

    user_id: int
    seat: int
    colour: str
    due_at: float
    stage: int


class OutcomeKind(StrEnum):
    """What an :class:`Outcome` announces (a ``StrEnum``: it compares equal to its value,
    so a sink may test ``outcome.kind == "play"``)."""

    #: the lobby's panel changed (created, joined, left, a computer seat, its pace)
    LOBBY = "lobby"
    #: the game started: the channel's start line, then the first turn
    START = "start"
    #: a change to a running game (a move, an undo, a seat changing hands, its pace)
    PLAY = "play"
    #: the game was cancelled
    CANCEL = "cancel"
    #: a line of its own in the game's thread that pings someone (time ran out, a game set
    #: aside, deadlines passed during a restart)
    NOTICE = "notice"
    #: reminders by DM that a deadline is near (``Outcome.reminders``)
    REMIND = "remind"
    #: the position re-posted after a restart, with what was stored but never announced
    RESUME = "resume"


@dataclass
class Outcome:
    """What happened, for announcing: built from views only (never from the raw state)."""

    game_id: int
    channel_id: int
    guild_id: int | None
    version: int
    kind: OutcomeKind
    lines: list[str]
    #: where the game is played: its thread, or the channel itself
    play_channel_id: int = 0
    #: which turn or phase the position belongs to
    turn_key: str = ""
    #: which round (or phase) it belongs to: a person's turn in a new round opens a new
    #: turn message; within a round the message is edited unless someone must be pinged
    round_key: str = ""
    #: a person (not a computer) owes a decision now: a computer's turn never opens a
    #: turn message of its own, it is told in the one before or after it
    waits_for_person: bool = False
    panel: Panel | None = None
    seats: list[SeatRow] = field(default_factory=list)
    public_view: dict[str, Any] | None = None
    private_lines: dict[int, list[str]] = field(default_factory=dict)
    hand_views: dict[int, dict[str, Any]] = field(default_factory=dict)
    secret_panels: dict[int, Panel] = field(default_factory=dict)
    mention: list[int] = field(default_factory=list)
    #: people the turn message pings because it tells them what was done for them (a
    #: computer covering their turn when their time ran out), whether or not they still
    #: owe a decision; such an outcome opens a new turn message, so the notice comes
    #: before (above) the computer's move, not after it
    told: list[int] = field(default_factory=list)
    highlight: tuple[int, ...] = ()
    #: the last action's overlay for the board picture (see render.positions.last_move_of)
    last_move: tuple[int, ...] | None = None
    record: dict[str, Any] | None = None
    finished: bool = False
    actor: int | None = None
    committed_at: float = field(default_factory=time.perf_counter)
    #: the language of the game's public posts (the server's, stored at create); DMs follow
    #: each person's own (lang.i18n.user_locale)
    locale: str = i18n.DEFAULT
    #: for each seat owing a decision, the version since which it owes it (private menus
    #: made before that, or for a seat not in here, are no longer current)
    since: dict[int, int] = field(default_factory=dict)
    #: kind "remind": who to remind (by DM, else in the game's thread)
    reminders: list[Reminder] = field(default_factory=list)
    #: which game it is (games.registry's name): the sink draws and words it through it
    game_name: str = DEFAULT_GAME
    #: a computer's step that will be announced merged with the same seat's next one
    #: (bot.table.announce.Announcer.hold) leaves out what only the newest part of a merge
    #: shows (the position: panel, public view, turn and round): this fills them in, from
    #: the table as it stands, if it is announced alone after all (None: filled in)
    fill: Callable[[Outcome], None] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        # a plain string from an older caller becomes the enum; an unknown kind fails here,
        # where it is made, not in the sink
        self.kind = OutcomeKind(self.kind)

    def merge(self, later: Outcome) -> Outcome:
        """This outcome followed by ``later`` as one announcement."""
        private = {s: [*self.private_lines.get(s, []), *later.private_lines.get(s, [])]
                   for s in {*self.private_lines, *later.private_lines}}
        return Outcome(
            game_id=self.game_id, channel_id=self.channel_id, guild_id=self.guild_id,
            version=later.version, kind=later.kind, lines=[*self.lines, *later.lines],
            play_channel_id=later.play_channel_id, turn_key=later.turn_key,
            round_key=later.round_key, waits_for_person=later.waits_for_person,
            panel=later.panel, seats=later.seats, public_view=later.public_view,
            private_lines=private, hand_views={**self.hand_views, **later.hand_views},
            secret_panels={**self.secret_panels, **later.secret_panels},
            mention=self._pinged(later), told=list(dict.fromkeys([*self.told, *later.told])),
            highlight=later.highlight or self.highlight,
            last_move=later.last_move or self.last_move,
            record=later.record, finished=later.finished, actor=later.actor,
            committed_at=self.committed_at, locale=later.locale, since=later.since,
            reminders=[*self.reminders, *later.reminders], game_name=later.game_name,
            fill=later.fill,
        )

    def filled(self) -> Outcome:
        """This outcome with its position filled in (see ``fill``)."""
        fill, self.fill = self.fill, None
        if fill is not None:
            fill(self)
        return self


    def _pinged(self, later: Outcome) -> list[int]:
        """Who the merged announcement pings: whom either part would, if they still owe a
        decision after ``later`` (a computer or a forced answer right after a person's
        move must not drop the ping of someone that move made owe a decision)."""
        owing = {later.seats[s].user_id for s in later.since if s < len(later.seats)}
        return [u for u in dict.fromkeys([*self.mention, *later.mention]) if u in owing]


@dataclass
class Reply:
    """The answer to one use of a control: a short text, or a private menu to show."""

    text: str = ""
    menu: Panel | None = None
    outcome: Outcome | None = None
    version: int = 0  # the version the menu's controls are made at
    #: a lesson's page, shown in place of the page clicked (its controls made at
    #: ``version``, the page's number), drawn by the game named ``page_game``
    page: Panel | None = None
    page_game: str = ""


@dataclass(frozen=True)
class Experience:
    """How new to the game a person is: the games they finished (on any server, from the
    history) and whether they reached the end of the lesson."""

    finished: int = 0
    learnt: bool = False

    @property
    def newcomer(self) -> bool:
        """Never finished a game (the lesson is no game)."""
        return self.finished == 0


@dataclass
class Table:
    game: GameRow
    seats: list[SeatRow]
    #: the game's position (the game's own value: the host only hands it back to it)
    state: Any = None
    moves: list[tuple[int, Any]] = field(default_factory=list)
    since: dict[int, int] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: the steps that could still be taken back (the game's undo rule); made by the game
    timeline: Timeline = field(default=None)  # type: ignore[assignment]
    #: entries in the stored action log (moves plus undos)
    log_len: int = 0
    #: each seat's turn clock (bot.timing.deadlines), as stored
    clock: dict[int, DeadlineRow] = field(default_factory=dict)
    #: seats whose time ran out: a computer decides for them while they still owe a
    #: decision in this turn (seat -> the turn key)
    covering: dict[int, str] = field(default_factory=dict)
    #: when this process last used the table (time.monotonic): idle ones are unloaded
    touched: float = field(default_factory=time.monotonic)
    #: stored actions never announced (the process stopped in between), found when the
    #: table was loaded, in order: (seat, action, its events), or (seat, action, None) for
    #: an undo of an announced step; the repost after a restart tells them
    unannounced: list[tuple[int, Any, list[Any] | None]] = field(default_factory=list)
    #: what the table knows of its people's experience (bot.table.newcomers), by user id:
    #: read when the lobby changes and when the game is loaded
    people: dict[int, Experience] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.timeline is None:
            self.timeline = self.port.rules.timeline()

    @property
    def port(self) -> Game:
        """The game this table plays, as the host may use it (games.port)."""
        return registry.game(self.game.kind)

    @property
    def id(self) -> int:
        return self.game.id

    @property
    def turn(self) -> str | None:
        """The turn (or phase) the game is in, as text (None before it starts)."""
        return None if self.state is None else self.port.rules.turn_key(self.state)

    @property
    def version(self) -> int:
        return self.game.version

    def seat_of(self, user_id: int) -> int | None:
        """The seat of ``user_id`` (also one they left: they may not take another)."""
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None


def record_of(table: Table) -> Any:
    """The game's record (setup and every move so far), as the game replays it."""
    return table.port.rules.record(
        table.game.options,
        [{"name": s.name, "kind": "human" if s.user_id is not None else f"ai:{s.ai_level}"}
         for s in table.seats],
        list(table.moves), table.game.seed_salt)


def replay_move(table: Table, state: Any, seat: int, action: Any) -> list[Any]:
    """A stored move applied to ``state`` in place and recorded in ``table``'s timeline
    and moves (loading a game, catching up with another process); returns its events."""
    before = state.copy()
    events = table.port.rules.apply_in_place(state, seat, action)
    table.timeline.record(before, seat, action, events, state)
    table.moves.append((seat, action))
    return events


def locale_of(table: Table) -> str:
    """The language of the game's public posts (stored at create; English before)."""
    return i18n.normalize(table.game.options.get("locale"))


def public(table: Table) -> contextlib.AbstractContextManager[str]:
    """``with public(table):`` writes in the game's language: public posts follow the
    server's language, whoever's action (or computer) caused them."""
    return i18n.using(locale_of(table))


def personal(table: Table, seat: int) -> contextlib.AbstractContextManager[str]:
    """The language of the person in ``seat`` (their client's, last seen), for what only
    they see (DMs, secret choices); the game's language if not known."""
    user = table.seats[seat].user_id if seat < len(table.seats) else None
    return i18n.using(i18n.user_locale(user, locale_of(table)))


def undo_seat(table: Table) -> int | None:
    """The person who may take back their last step now (engine.undo), if any: not once
    another person has been told to decide (:func:`told_since`)."""
    seat = table.timeline.seat
    if table.game.status != ACTIVE or seat is None or table.seats[seat].is_ai:
        return None
    if told_since(table, seat):
        return None
    return seat


def told_since(table: Table, seat: int) -> list[int]:
    """The other people who owe a decision now, so have been told it is theirs (the
    announcement names them): ``seat``'s steps before are final then, as on Board Game
    Arena, even where engine.undo would still take them back (the next player has not
    acted yet); a decision taken back under someone's eyes would leave them with a turn
    message whose buttons die."""
    if table.state is None:
        return []
    return [s for s in table.port.rules.to_act(table.state)
            if s != seat and not table.seats[s].is_ai]


def next_since(rules: Rules, prev: dict[int, int], state: Any, actor: int | None,
               version: int) -> dict[int, int]:
    """For each seat owing a decision: the version since which it has owed it."""
    return {s: prev[s] if s in prev and s != actor else version
            for s in set(rules.to_act(state))}


def with_seat(seats: list[SeatRow], seat: int, **changes: Any) -> list[SeatRow]:
    """The seats with ``seat`` changed (what the table will look like after a commit)."""
    return [replace(s, **changes) if s.seat == seat else s for s in seats]


def key_text(state: Any) -> str:
    """The turn (or phase) ``state`` is in, as text (the game's ``Rules.turn_key``)."""
    return registry.game_of(state).rules.turn_key(state)


class Ownership:
    """Whether this process works for a game of a server (computer players, announcements,
    clocks): every part asks this one object, so the coordinator sets it in one place
    (bot.cluster.coordinator, when processes share the shards)."""

    def __init__(self) -> None:
        self.owns: Callable[[int | None], bool] = lambda guild_id: True

    def __call__(self, guild_id: int | None) -> bool:
        return self.owns(guild_id)
