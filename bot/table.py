"""The table service: lobby, play and computer players, without any Discord.

Each call loads the game (cached in memory, checked against its log on first load), lets
the engine validate and apply, stores the result in one transaction, and only then hands
an :class:`Outcome` (texts, views, controls) to the **sink** that announces it: the
Discord publisher, the offline console, or a test. Outcomes of one game reach the sink in
commit order through a per-game queue, so slow image posting never delays the next
interaction's acknowledgement.

Concurrency: a per-game ``asyncio.Lock`` plus a version check. Controls carry the version
they were made at; a choice is accepted only if its seat has owed the same decision ever
since (``since[seat] <= version``), so a double click or a stale button is refused while
players choosing at the same time (the progress phase) do not invalidate each other.

Several processes (bot.cluster, PostgreSQL): the version check in storage is the guarantee,
the lock only an optimisation. A process works (computer players, announcements) only for
the games it ``owns``; one that accepted an action for another's game leaves announcing to
the owner, which catches up through :meth:`TableService.refresh`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import inspect
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, field, fields, replace
from typing import Any, Protocol

import engine
from engine import actions as A
from engine.actions import Action, action_from_json
from engine.content import CONTENT
from engine.errors import IllegalAction
from engine.events import Event, visible
from engine.game import decisions, to_act
from engine.hexgrid import parse_label
from engine.record import Record
from engine.setup import new_game
from engine.state import OVER, State
from engine.undo import UNDO_JSON, Timeline, UndoRefused, is_undo, turn_key
from engine.views import view
from render.positions import last_move_of

from . import deadlines, i18n, panels, players, rematch
from . import help as guide
from .codec import decode_action, shown
from .event_text import event_text
from .labels import action_label, colour_name
from .messages import t
from .offload import Offloader
from .pace import PACES, Pace, UnknownPace, pace, reminder_stage
from .scheduler import Scheduler
from .storage import (
    ACTIVE,
    CANCELLED,
    FINISHED,
    LOBBY,
    ActionRow,
    ChannelBusy,
    DeadlineRow,
    GameRow,
    GameUnreadable,
    SeatRow,
    Storage,
    StorageUnavailable,
    VersionConflict,
)
from .turnclock import TurnClock
from .ui import (
    ACT,
    ADDBOT,
    CANCEL,
    CARDS,
    HELP,
    JOIN,
    LEAVE,
    MENU,
    QUIT,
    START,
    UNDO,
    Button,
    Panel,
    button_rows,
)

log = logging.getLogger(__name__)

CARD_ACTIONS: dict[str, Callable[[tuple[int, ...]], Action]] = {
    engine.game.ATTACK_CARDS: lambda c: A.CommitAttackCards(c),
    engine.game.DEFEND_CARDS: lambda c: A.DefendCards(c),
    engine.game.DISCARDING: lambda c: A.Discard(c),
    engine.game.PROGRESS_CARDS: lambda c: A.ProgressCards(c),
}


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


# ---------------------------------------------------------------- storage failures (issue 16)
class StorageRefusal(TableError):
    """The store could not take or give the data (disk full, locked, read-only, file
    gone ...): nothing was changed; the same request may succeed once it recovers."""

    def __init__(self, cause: StorageUnavailable) -> None:
        super().__init__(cause.key)
        self.reason = cause.reason


class _Refusing:
    """The storage with :class:`StorageUnavailable` turned into a :class:`StorageRefusal`
    for the player, on every call, so no call site can forget it."""

    def __init__(self, storage: Storage) -> None:
        self._storage = storage

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._storage, name)
        if not inspect.iscoroutinefunction(attr):
            return attr

        @functools.wraps(attr)
        async def call(*args: Any, **kwargs: Any) -> Any:
            try:
                return await attr(*args, **kwargs)
            except StorageUnavailable as exc:
                raise StorageRefusal(exc) from exc

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
# ---------------------------------------------------------------- end storage failures


class Sink(Protocol):
    async def publish(self, outcome: Outcome) -> None: ...


@dataclass(frozen=True)
class Reminder:
    """A player owes a decision and its deadline is near (``stage``: see bot.pace)."""

    user_id: int
    seat: int
    colour: str
    due_at: float
    stage: int


@dataclass
class Outcome:
    """What happened, for announcing: built from views only (never from the raw state)."""

    game_id: int
    channel_id: int
    guild_id: int | None
    version: int
    kind: str  # lobby | start | play | cancel
    lines: list[str]
    #: where the game is played: its thread, or the channel itself
    play_channel_id: int = 0
    #: which turn or phase the position belongs to (a new one starts a new turn message)
    turn_key: str = ""
    panel: Panel | None = None
    seats: list[SeatRow] = field(default_factory=list)
    public_view: dict[str, Any] | None = None
    private_lines: dict[int, list[str]] = field(default_factory=dict)
    hand_views: dict[int, dict[str, Any]] = field(default_factory=dict)
    secret_panels: dict[int, Panel] = field(default_factory=dict)
    mention: list[int] = field(default_factory=list)
    highlight: tuple[int, ...] = ()
    #: the last action's overlay for the board picture (see render.positions.last_move_of)
    last_move: tuple[int, ...] | None = None
    record: dict[str, Any] | None = None
    finished: bool = False
    actor: int | None = None
    committed_at: float = field(default_factory=time.perf_counter)
    #: the language of the game's public posts (the server's, stored at create); DMs follow
    #: each person's own (bot.i18n.user_locale)
    locale: str = i18n.DEFAULT
    #: for each seat owing a decision, the version since which it owes it (private menus
    #: made before that, or for a seat not in here, are no longer current)
    since: dict[int, int] = field(default_factory=dict)
    #: kind "remind": who to remind (by DM, else in the game's thread)
    reminders: list[Reminder] = field(default_factory=list)

    def merge(self, later: Outcome) -> Outcome:
        """This outcome followed by ``later`` as one announcement."""
        private = {s: [*self.private_lines.get(s, []), *later.private_lines.get(s, [])]
                   for s in {*self.private_lines, *later.private_lines}}
        return Outcome(
            game_id=self.game_id, channel_id=self.channel_id, guild_id=self.guild_id,
            version=later.version, kind=later.kind, lines=[*self.lines, *later.lines],
            play_channel_id=later.play_channel_id, turn_key=later.turn_key,
            panel=later.panel, seats=later.seats, public_view=later.public_view,
            private_lines=private, hand_views={**self.hand_views, **later.hand_views},
            secret_panels={**self.secret_panels, **later.secret_panels},
            mention=later.mention, highlight=later.highlight or self.highlight,
            last_move=later.last_move or self.last_move,
            record=later.record, finished=later.finished, actor=later.actor,
            committed_at=self.committed_at, locale=later.locale, since=later.since,
            reminders=[*self.reminders, *later.reminders],
        )


@dataclass
class Reply:
    """The answer to one use of a control: a short text, or a private menu to show."""

    text: str = ""
    menu: Panel | None = None
    outcome: Outcome | None = None
    version: int = 0  # the version the menu's controls are made at


@dataclass
class Table:
    game: GameRow
    seats: list[SeatRow]
    state: State | None = None
    moves: list[tuple[int, Action]] = field(default_factory=list)
    since: dict[int, int] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: the steps that could still be taken back (engine.undo)
    timeline: Timeline = field(default_factory=Timeline)
    #: entries in the stored action log (moves plus undos)
    log_len: int = 0
    #: each seat's turn clock (bot.deadlines), as stored
    clock: dict[int, DeadlineRow] = field(default_factory=dict)
    #: seats whose time ran out: a computer decides for them while they still owe a
    #: decision in this turn (seat -> the turn key)
    covering: dict[int, str] = field(default_factory=dict)

    @property
    def id(self) -> int:
        return self.game.id

    @property
    def version(self) -> int:
        return self.game.version

    def seat_of(self, user_id: int) -> int | None:
        """The seat of ``user_id`` (also one they left: they may not take another)."""
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None


def next_since(prev: dict[int, int], state: State, actor: int | None, version: int
               ) -> dict[int, int]:
    """For each seat owing a decision: the version since which it has owed it."""
    return {s: prev[s] if s in prev and s != actor else version for s in set(to_act(state))}


class TableService:
    def __init__(
        self,
        storage: Storage,
        sink: Sink | None = None,
        *,
        ai_delay: float = 0.8,
        ai_budget_s: float | None = None,
        offloader: Offloader | None = None,
        seed_source: Callable[[], int] | None = None,
        scheduler: Scheduler | None = None,
    ) -> None:
        """``scheduler``: the one scheduler of the process; with it, tables have a pace and
        nobody waits forever (bot.turnclock). None: no deadlines (tests, the console)."""
        self.storage: Storage = _Refusing(storage)  # type: ignore[assignment]
        self.sink = sink
        self.ai_delay = ai_delay
        self.ai_budget_s = ai_budget_s
        self.offloader = offloader or Offloader(0)
        self._seed = seed_source or (lambda: secrets.randbelow(2**31))
        self._tables: dict[int, Table] = {}
        self._by_channel: dict[int, int] = {}
        self._load_lock = asyncio.Lock()
        self._outboxes: dict[int, asyncio.Queue[Outcome]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._publishers: dict[int, asyncio.Task[None]] = {}
        self._ai_tasks: dict[int, asyncio.Task[None]] = {}
        self._held: dict[int, Outcome] = {}
        self.turnclock: TurnClock | None = None
        if scheduler is not None:
            self.turnclock = TurnClock(scheduler)
            self.turnclock.on_remind = self.remind
            self.turnclock.on_deadline = self.timeout
        #: who muted their reminders (cache of storage.reminders_on)
        self._reminders_on: dict[int, bool] = {}
        #: whether this process works for a game of this server (computer players,
        #: announcements); set by bot.cluster when processes share the shards
        self.owns: Callable[[int | None], bool] = lambda guild_id: True
        #: games that could not be loaded, by id: refused with a clear message until a
        #: restart; the application tells each channel once (``SetAside.notice``)
        self.set_aside: dict[int, SetAside] = {}

    # ------------------------------------------------------------------ loading
    async def table(self, game_id: int) -> Table:
        table = self._tables.get(game_id)
        if table is not None:
            return table
        if game_id in self.set_aside:
            raise TableError("error.game_set_aside", game=game_id)
        async with self._load_lock:
            table = self._tables.get(game_id)
            if table is None:
                try:
                    game = await self.storage.game(game_id)
                    if game is None:
                        raise TableError("error.no_game")
                    table = await self._load(game)
                except TableError:
                    raise  # no such game, or the store is unavailable now: not its fault
                except Exception as exc:
                    await self._set_aside(game_id, exc)
                    raise TableError("error.game_set_aside", game=game_id) from None
                self._tables[game_id] = table
        return table

    async def _set_aside(self, game_id: int, exc: Exception) -> None:
        """Keep a game that cannot be loaded out of play (logged once)."""
        damaged = isinstance(exc, GameUnreadable | IllegalAction | ValueError | KeyError)
        log.error("game %s: cannot be loaded, set aside until repaired "
                  "(python -m bot check-db): %s", game_id, exc, exc_info=not damaged)
        ref = None
        with contextlib.suppress(Exception):
            ref = await self.storage.game_ref(game_id)
        self.set_aside[game_id] = SetAside(
            game_id, ref.channel_id if ref else None, ref.guild_id if ref else None,
            f"{type(exc).__name__}: {exc}")

    async def _load(self, game: GameRow) -> Table:
        """Build the table from the log; repair the snapshot if it differs from the replay."""
        seats = await self.storage.seats(game.id)
        table = Table(game, seats)
        if game.status == LOBBY:
            return table
        record = self._record(table)
        state, _ = record.new_state()
        rows = await self.storage.actions(game.id)
        # versions of logs written before schema 3: as if lobby and start came first
        offset = game.version - len(rows)
        started = rows[0].version - 1 if rows and rows[0].version is not None else offset
        since = next_since({}, state, None, started)
        for i, row in enumerate(rows):
            if is_undo(row.action):
                state = table.timeline.undo(row.seat)
                table.moves.pop()
            else:
                action = action_from_json(row.action)
                before = state.copy()
                events = engine.apply_in_place(state, row.seat, action)
                table.timeline.record(before, row.seat, action, events, state)
                table.moves.append((row.seat, action))
            made = row.version if row.version is not None else i + 1 + offset
            since = next_since(since, state, row.seat, made)
        table.since = since
        table.log_len = len(rows)
        if self.turnclock is not None and game.status == ACTIVE:
            # as stored with the last change (armed by the owner: resume_all, _rearm)
            table.clock = {r.seat: r for r in await self.storage.deadlines(game.id)}
        if game.state != state.to_json():
            log.warning("game %s: snapshot %s; rebuilt from the log", game.id,
                        game.state_error or "differs from the replayed log")
            try:
                await self.storage.replace_snapshot(game.id, state.to_json())
            except StorageRefusal as exc:  # the replay is right; repair it next time
                log.warning("game %s: could not store the rebuilt snapshot: %s", game.id, exc)
        table.state = state
        return table

    async def resume_all(self) -> list[int]:
        """Load every active game and let computer players go on; returns the ids of the
        games resumed. Each game is loaded on its own: one that cannot be read is set
        aside (:attr:`set_aside`, for the application to tell its channel) and the others
        start normally."""
        ids = []
        for ref in await self.storage.game_refs(ACTIVE):
            if not self.owns(ref.guild_id):
                continue  # its owner resumes it
            try:
                table = await self.table(ref.id)
            except StorageRefusal as exc:  # not the game's fault: loaded at its next use
                log.error("game %s: not resumed, the storage is unavailable: %s", ref.id, exc)
                continue
            except TableError:
                aside = self.set_aside.get(ref.id)
                if aside is not None:  # set aside, logged: its channel is told once
                    where = ref.thread_id or ref.channel_id
                    self._queue(Outcome(ref.id, ref.channel_id, ref.guild_id, 0, "notice",
                                        [aside.notice()], play_channel_id=where))
                continue
            except Exception:
                log.exception("game %s: cannot be loaded", ref.id)
                continue
            game = table.game
            ids.append(game.id)
            if game.announced_version is None or game.announced_version < game.version:
                # the process stopped between committing and announcing: post it now
                async with table.lock:
                    self._repost(table)
            if self.turnclock is not None:
                await self._resume_clock(table)
            self._kick_ai(table)
        return ids

    def _repost(self, table: Table) -> None:
        assert table.state is not None
        outcome = self._play_outcome(table, table.state, [], actor=None, kind="resume")
        with self.public(table):
            outcome.lines = [t("resume.reposted", game=table.id)]
        self._enqueue(outcome)

    async def _resume_clock(self, table: Table) -> None:
        """Re-arm the game's deadlines; announce the ones that passed while we were down."""
        assert self.turnclock is not None
        async with table.lock:
            try:
                late = await self.turnclock.resume(table, self.storage)
            except Exception:
                log.exception("game %s: cannot re-arm its deadlines", table.id)
                return
            if not late:
                return
            due = min(table.clock[s].due_at or 0 for s in late)
            with self.public(table):
                who = ", ".join(f"<@{table.seats[s].user_id}> ({colour_name(s)})" for s in late)
                line = t("clock.restart_late", who=who, when=int(due))
            self._queue(Outcome(
                table.id, table.game.channel_id, table.game.guild_id, table.version, "notice",
                [line], play_channel_id=table.game.play_channel_id, seats=list(table.seats),
                mention=[table.seats[s].user_id for s in late],  # type: ignore[misc]
                since=dict(table.since), locale=self.locale_of(table)))

    def _record(self, table: Table) -> Record:
        o = table.game.options
        rules_version, table_options = engine.stored_rules(o)
        return Record(
            num_players=len(table.seats),
            seed=int(o["seed"]),
            start_player=o.get("start_player"),
            random_map=bool(o.get("random_map", True)),
            players=[{"name": s.name,
                      "kind": "human" if s.user_id is not None else f"ai:{s.ai_level}"}
                     for s in table.seats],
            moves=list(table.moves),
            rules_version=rules_version,
            options=table_options,
        )

    async def record(self, game_id: int) -> dict[str, Any]:
        table = await self.table(game_id)
        return self._record(table).to_json()

    # ------------------------------------------------------------------ lobby
    async def create(self, guild_id: int | None, channel_id: int, user_id: int, name: str,
                     *, seats: int = 5, random_map: bool = True, seed: int | None = None,
                     host_plays: bool = True, in_thread: bool = False,
                     protection_counts_cities: bool = False,
                     extra: dict[str, Any] | None = None,
                     pace_name: str | None = None) -> Outcome:
        """A new lobby; the host takes the first seat unless ``host_plays`` is False.
        ``protection_counts_cities`` is the table option R-OPT-1; ``extra``: more table
        options stored with the game: ``hints`` (bool, default on), ``locale`` (the
        language of its channel and thread posts: the server's preferred one), a rematch's
        invitations (bot/rematch.py); ``pace_name``: time per decision (bot.pace; None: the
        default)."""
        seats = max(CONTENT.min_players, min(CONTENT.max_players, seats))
        options: dict[str, Any] = {"hints": True, **(extra or {}), "max_seats": seats,
                                   "random_map": random_map,
                                   "protection_counts_cities": protection_counts_cities,
                                   "pace": self._check_pace(pace_name).name}
        if seed is not None:
            options["seed"] = seed
        try:
            game = await self.storage.create_game(guild_id, channel_id, user_id,
                                                  name if host_plays else None, options)
        except ChannelBusy:
            existing = await self.storage.open_game_ref(channel_id)
            raise TableError("error.game_exists", game=existing.id if existing else "?") from None
        if in_thread:  # opened inside a thread: the game is played right there
            await self.storage.set_thread(game.id, channel_id)
            game.thread_id = channel_id
        table = await self.table(game.id)
        with self.public(table):
            outcome = self._lobby_outcome(table, t("lobby.created", game=game.id))
        self._enqueue(outcome)
        return outcome

    async def _lobby_change(self, table: Table, change: Callable[[], Awaitable[int]],
                            key: str | Callable[[], str], **kwargs: Any) -> Outcome:
        """Store a lobby change and announce it: ``key`` and ``kwargs`` (or ``key()``, for a
        line made of several messages) are written in the game's language."""
        try:
            table.game.version = await change()
        except VersionConflict:
            raise TableError("error.stale") from None
        table.seats = await self.storage.seats(table.id)
        with self.public(table):
            line = key() if callable(key) else t(key, **kwargs)
            outcome = self._lobby_outcome(table, line)
        self._enqueue(outcome)
        return outcome

    def _require_lobby(self, table: Table) -> None:
        if table.game.status != LOBBY:
            raise TableError("error.not_lobby", game=table.id)

    def _require_member(self, table: Table, user_id: int) -> None:
        if table.seat_of(user_id) is None and user_id != table.game.host_id:
            raise TableError("error.not_seated", game=table.id)

    async def join(self, game_id: int, user_id: int, name: str) -> Outcome:
        table = await self.table(game_id)
        async with table.lock:
            if table.game.status == ACTIVE:
                raise TableError("error.not_lobby_join", game=table.id, host=table.game.host_id)
            self._require_lobby(table)
            if table.seat_of(user_id) is not None:
                raise TableError("error.already_seated", game=table.id)
            if len(table.seats) >= table.game.options["max_seats"]:
                raise TableError("error.table_full", seats=len(table.seats))
            kept = rematch.join_refusal(table.id, table.game.options, table.seats, user_id)
            if kept is not None:
                raise TableError(kept[0], **kept[1])
            return await self._lobby_change(
                table, lambda: self.storage.add_seat(table.id, table.version, user_id, None,
                                                     name),
                "lobby.joined", name=name, game=table.id)

    async def leave(self, game_id: int, user_id: int) -> Outcome:
        table = await self.table(game_id)
        async with table.lock:
            self._require_lobby(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("error.not_seated", game=table.id)
            if user_id == table.game.host_id:
                raise TableError("error.host_leave")
            name = table.seats[seat].name
            return await self._lobby_change(
                table, lambda: self.storage.remove_seat(table.id, table.version, seat),
                "lobby.left", name=name, game=table.id)

    async def add_ai(self, game_id: int, user_id: int, level: str | None = None) -> Outcome:
        level = level or players.default_level()
        if level not in players.levels():
            raise TableError("error.unknown_level", level=level,
                             levels=", ".join(players.levels()))
        table = await self.table(game_id)
        async with table.lock:
            self._require_lobby(table)
            self._require_member(table, user_id)
            if len(table.seats) >= table.game.options["max_seats"]:
                raise TableError("error.table_full", seats=len(table.seats))
            n = sum(1 for s in table.seats if s.user_id is None) + 1
            with self.public(table):  # the seat's name is shown to everyone
                name = t("ai.name", n=n, level=t(f"level.{level}"))
            return await self._lobby_change(
                table, lambda: self.storage.add_seat(table.id, table.version, None, level, name),
                "lobby.bot_added", name=name, game=table.id)

    async def remove_ai(self, game_id: int, user_id: int) -> Outcome:
        table = await self.table(game_id)
        async with table.lock:
            self._require_lobby(table)
            self._require_member(table, user_id)
            bots = [s for s in table.seats if s.user_id is None]
            if not bots:
                raise TableError("error.no_bot_seat")
            last = bots[-1]
            return await self._lobby_change(
                table, lambda: self.storage.remove_seat(table.id, table.version, last.seat),
                "lobby.bot_removed", name=last.name, game=table.id)

    async def start(self, game_id: int, user_id: int) -> Outcome:
        table = await self.table(game_id)
        async with table.lock:
            self._require_lobby(table)
            if user_id != table.game.host_id:
                raise TableError("error.host_only", host=table.game.host_id)
            if len(table.seats) < CONTENT.min_players:
                raise TableError("error.too_few", min=CONTENT.min_players, have=len(table.seats))
            options = dict(table.game.options)
            options.setdefault("seed", self._seed())
            options["start_player"] = None
            # new games follow the current rules; stored games keep theirs (engine.rules)
            options["rules_version"] = engine.RULES_VERSION
            options.setdefault("protection_counts_cities", False)  # R-OPT-1
            rules_version, table_options = engine.stored_rules(options)
            state, events = new_game(len(table.seats), int(options["seed"]),
                                     random_map=bool(options["random_map"]),
                                     rules_version=rules_version, options=table_options)
            since = next_since({}, state, None, table.version + 1)
            rows = self._plan(table, since)
            try:
                version = await self.storage.start(table.id, table.version, options,
                                                   state.to_json(), rows)
            except VersionConflict:
                raise TableError("error.stale") from None
            table.game.version = version
            table.game.status = ACTIVE
            table.game.options = options
            table.state = state
            table.since = since
            self._committed(table, rows)
            outcome = self._play_outcome(table, None, events, actor=None, kind="start")
            with self.public(table):
                colours = [t("lobby.seat_colour", colour=colour_name(s.seat), name=s.name)
                           for s in table.seats]
                outcome.lines = [t("lobby.started", game=table.id), *colours, *outcome.lines]
            self._enqueue(outcome)
        self._kick_ai(table)
        return outcome

    async def cancel(self, game_id: int, user_id: int, *, can_manage: bool = False) -> Outcome:
        try:
            table = await self.table(game_id)
        except TableError as exc:
            if exc.key != "error.game_set_aside":
                raise
            return await self._cancel_set_aside(game_id, user_id, can_manage)
        async with table.lock:
            if table.game.status not in (LOBBY, ACTIVE):
                raise TableError("error.not_active", game=table.id)
            if user_id != table.game.host_id and not can_manage:
                raise TableError("error.cancel_denied", host=table.game.host_id)
            try:
                table.game.version = await self.storage.set_status(
                    table.id, table.version, CANCELLED,
                    [] if self.turnclock is not None else None)
            except VersionConflict:
                raise TableError("error.stale") from None
            table.game.status = CANCELLED
            table.since = {}
            self._committed(table, [] if self.turnclock is not None else None)
            with self.public(table):
                line = t("lobby.cancelled", game=table.id, user=user_id)
            outcome = Outcome(table.id, table.game.channel_id, table.game.guild_id,
                              table.version, "cancel", [line],
                              panel=Panel(""), seats=list(table.seats),
                              locale=self.locale_of(table))
            self._enqueue(outcome)
        task = self._ai_tasks.pop(table.id, None)
        if task:
            task.cancel()
        return outcome

    async def _cancel_set_aside(self, game_id: int, user_id: int, can_manage: bool
                                ) -> Outcome:
        """Cancel a game that cannot be loaded (issue 16), so its channel is free again:
        only its number columns are needed."""
        ref = await self.storage.game_ref(game_id)
        if ref is None:
            raise TableError("error.no_game")
        if user_id != ref.host_id and not can_manage:
            raise TableError("error.cancel_denied", host=ref.host_id)
        try:
            version = await self.storage.set_status(game_id, ref.version, CANCELLED)
        except VersionConflict:
            raise TableError("error.stale") from None
        self.set_aside.pop(game_id, None)
        self._by_channel.pop(ref.channel_id, None)
        outcome = Outcome(game_id, ref.channel_id, ref.guild_id, version, "cancel",
                          [t("lobby.cancelled", game=game_id, user=user_id)], panel=Panel(""))
        self._enqueue(outcome)
        return outcome

    async def autopilot(self, game_id: int, user_id: int, target: int | None, on: bool,
                        level: str | None = None, *, can_manage: bool = False) -> Outcome:
        """A computer plays ``target``'s seat (default: the caller's) from now on, or the
        person again. Anyone may do it for their own seat; the host or a channel manager
        for an absent player; only the seat's owner (or they) may take it back."""
        level = level or players.default_level()
        if level not in players.levels():
            raise TableError("error.unknown_level", level=level,
                             levels=", ".join(players.levels()))
        table = await self.table(game_id)
        async with table.lock:
            if table.game.status != ACTIVE:
                raise TableError("error.not_active", game=table.id)
            target = user_id if target is None else target
            seat = table.seat_of(target)
            if seat is None:
                raise TableError("error.not_seated_other", user=target, game=table.id)
            if target != user_id and user_id != table.game.host_id and not can_manage:
                raise TableError("error.autopilot_denied", host=table.game.host_id)
            if table.seats[seat].left:
                raise TableError("error.left_other", user=target, game=table.id)
            current = table.seats[seat].autopilot
            if (current is not None) == on:
                raise TableError("error.autopilot_already" if on else "error.autopilot_not_on",
                                 user=target)
            after = _with_seat(table.seats, seat, autopilot=level if on else None)
            since = table.since if on else {  # the person decides again from now on
                s: table.version + 1 if s == seat else v for s, v in table.since.items()}
            covering = {s: k for s, k in table.covering.items() if s != seat}
            rows = self._plan(table, since, seats=after, person=None if on else seat,
                              computer=covering)
            try:
                table.game.version = await self.storage.set_autopilot(
                    table.id, table.version, seat, level if on else None, rows)
            except VersionConflict:
                raise TableError("error.stale") from None
            table.seats = await self.storage.seats(table.id)
            table.since = since
            table.covering = covering
            self._committed(table, rows)
            assert table.state is not None
            outcome = self._play_outcome(table, table.state, [], actor=None)
            key = "autopilot.on" if on else "autopilot.off"
            with self.public(table):
                outcome.lines = [t(key, user=target, colour=colour_name(seat),
                                   level=t(f"level.{level}"))]
            self._enqueue(outcome)
        self._kick_ai(table)
        return outcome

    def lobby_panel(self, table: Table) -> Panel:
        o = table.game.options
        lines = [t("lobby.title", game=table.id, host=table.game.host_id,
                   map=t("lobby.map.random" if o["random_map"] else "lobby.map.place"),
                   seated=len(table.seats), seats=o["max_seats"]),
                 t("lobby.opt1.on" if o.get("protection_counts_cities") else "lobby.opt1.off")]
        if not o.get("hints", True):
            lines.append(t("lobby.hints_off"))
        kept = rematch.lobby_lines(o, table.seats)  # seats kept for a rematch's players
        for i in range(o["max_seats"]):
            if i < len(table.seats):
                lines.append(t("lobby.seat", n=i + 1, name=table.seats[i].name))
            elif i - len(table.seats) < len(kept):
                lines.append(kept[i - len(table.seats)])
            else:
                lines.append(t("lobby.empty", n=i + 1))
        if self.turnclock is not None:
            p = self.turnclock.pace_of(table)
            lines.append(t("lobby.pace", pace=t(f"pace.{p.name}")) if p.seconds is not None
                         else t("lobby.pace_none"))
        lines.append(t("lobby.hint", min=CONTENT.min_players))
        buttons = [Button(t("btn.join"), JOIN, style="primary"), Button(t("btn.leave"), LEAVE),
                   Button(t("btn.addbot"), ADDBOT), Button(t("btn.start"), START, style="success"),
                   Button(t("btn.cancel"), CANCEL, style="danger")]
        return Panel("\n".join(lines), button_rows(buttons))

    def _lobby_outcome(self, table: Table, line: str) -> Outcome:
        with self.public(table):
            return Outcome(table.id, table.game.channel_id, table.game.guild_id,
                           table.version, "lobby", [line], panel=self.lobby_panel(table),
                           seats=list(table.seats), locale=self.locale_of(table))

    @staticmethod
    def locale_of(table: Table) -> str:
        """The language of the game's public posts (stored at create; English before)."""
        return i18n.normalize(table.game.options.get("locale"))

    def public(self, table: Table) -> contextlib.AbstractContextManager[str]:
        """``with self.public(table):`` writes in the game's language: public posts follow
        the server's language, whoever's action (or computer) caused them."""
        return i18n.using(self.locale_of(table))

    def personal(self, table: Table, seat: int) -> contextlib.AbstractContextManager[str]:
        """The language of the person in ``seat`` (their client's, last seen), for what
        only they see (DMs, secret choices); the game's language if not known."""
        user = table.seats[seat].user_id if seat < len(table.seats) else None
        return i18n.using(i18n.user_locale(user, self.locale_of(table)))

    # ------------------------------------------------------------------ play
    def _check_turn(self, table: Table, user_id: int, version: int | None) -> int:
        if table.game.status != ACTIVE or table.state is None:
            raise TableError("error.not_active", game=table.id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError("error.not_seated", game=table.id)
        if seat not in table.since:
            if version is not None and version < table.version:
                raise TableError("error.stale")
            raise TableError("error.not_your_turn", waiting=self.waiting(table))
        if version is not None and not table.since[seat] <= version <= table.version:
            raise TableError("error.stale")
        if table.seats[seat].left:
            raise TableError("error.left", game=table.id, colour=colour_name(seat))
        if table.seats[seat].autopilot is not None:
            raise TableError("error.on_autopilot")
        return seat

    def waiting(self, table: Table) -> str:
        assert table.state is not None
        return ", ".join(f"{table.seats[d.seat].name} ({colour_name(d.seat)})"
                         for d in decisions(table.state)) or "-"

    async def act(self, game_id: int, user_id: int, action: Action,
                  version: int | None = None) -> Outcome:
        """Apply ``user_id``'s action; ``version`` is the one its control was made at."""
        table = await self.table(game_id)
        try:
            async with table.lock:
                seat = self._check_turn(table, user_id, version)
                table.covering.pop(seat, None)  # the person is back: the computer stops
                outcome = await self._apply(table, seat, action)
                self._enqueue(outcome)
        finally:
            self._kick_ai(table)
        return outcome

    async def act_many(self, game_id: int, user_id: int, actions: list[Action]) -> Outcome:
        """Several actions in a row (``/tempus move`` = begin the move + move a token),
        each its own transaction, announced together."""
        table = await self.table(game_id)
        outcome: Outcome | None = None
        try:
            async with table.lock:
                seat = self._check_turn(table, user_id, None)
                table.covering.pop(seat, None)
                trial = table.state
                assert trial is not None
                try:  # all or nothing: a refused last step must not spend the marker
                    for action in actions:
                        trial, _ = engine.apply(trial, seat, action)
                except engine.NotYourDecision:
                    raise TableError("error.not_your_turn", waiting=self.waiting(table)) from None
                except IllegalAction as exc:
                    raise TableError("error.illegal", reason=str(exc).rstrip(".")) from None
                try:
                    for action in actions:
                        step = await self._apply(table, seat, action)
                        outcome = step if outcome is None else outcome.merge(step)
                finally:
                    if outcome is not None:
                        self._enqueue(outcome)
        finally:
            self._kick_ai(table)
        assert outcome is not None
        return outcome

    async def undo(self, game_id: int, user_id: int, version: int | None = None) -> Outcome:
        """Take back ``user_id``'s last step of this turn (engine.undo's rule); the undo is
        logged as an entry of its own, nothing is deleted."""
        table = await self.table(game_id)
        try:
            async with table.lock:
                if table.game.status != ACTIVE or table.state is None:
                    raise TableError("error.not_active", game=table.id)
                seat = table.seat_of(user_id)
                if seat is None:
                    raise TableError("error.not_seated", game=table.id)
                if version is not None and version != table.version:
                    raise TableError("error.stale")
                if table.seats[seat].is_ai:
                    raise TableError("error.on_autopilot")
                if not table.timeline.undo_allowed(seat):
                    raise TableError("error.undo_refused", reason=table.timeline.reason(seat))
                assert table.state is not None
                before = table.timeline.steps[-1].before
                status = ACTIVE
                since = next_since(table.since, before, seat, table.version + 1)
                table.covering.pop(seat, None)
                covering = self._still_covered(table, before, since)
                rows = self._plan(table, since, person=seat, computer=covering)
                try:
                    new_version = await self.storage.append_action(
                        table.id, table.version, table.log_len, seat, dict(UNDO_JSON),
                        before.to_json(), status, rows)
                except VersionConflict:
                    raise TableError("error.stale") from None
                try:
                    restored = table.timeline.undo(seat)
                except UndoRefused as exc:  # checked above under the lock: cannot happen
                    raise TableError("error.undo_refused", reason=str(exc)) from None
                _, undone = table.moves.pop()
                table.game.version = new_version
                table.log_len += 1
                table.state = restored
                table.since = since
                table.covering = covering
                self._committed(table, rows)
                outcome = self._play_outcome(table, None, [], actor=seat)
                with self.public(table):
                    outcome.lines = [t("undo.done", colour=colour_name(seat),
                                       what=action_label(undone))]
                self._enqueue(outcome)
        finally:
            self._kick_ai(table)
        return outcome

    def undo_seat(self, table: Table) -> int | None:
        """The person who may take back their last step now (engine.undo), if any."""
        seat = table.timeline.seat
        if table.game.status != ACTIVE or seat is None or table.seats[seat].is_ai:
            return None
        return seat

    async def _apply(self, table: Table, seat: int, action: Action, *,
                     person: bool = True) -> Outcome:
        """Validate, store (one transaction, with the turn clocks it implies), update the
        cache; caller holds the lock. ``person``: the seat's person decided (not a
        computer), so their missed deadlines no longer count."""
        before = table.state
        assert before is not None
        try:
            new, events = engine.apply(before, seat, action)
        except IllegalAction as exc:
            raise TableError("error.illegal", reason=str(exc).rstrip(".")) from None
        status = FINISHED if new.phase == OVER else ACTIVE
        since = next_since(table.since, new, seat, table.version + 1)
        covering = self._still_covered(table, new, since)
        rows = self._plan(table, since, person=seat if person else None, computer=covering,
                          over=status == FINISHED)
        try:
            version = await self.storage.append_action(
                table.id, table.version, table.log_len, seat, action.to_json(),
                new.to_json(), status, rows)
        except VersionConflict:
            raise TableError("error.stale") from None
        table.game.version = version
        table.game.status = status
        table.log_len += 1
        table.timeline.record(before, seat, action, events, new)
        table.state = new
        table.moves.append((seat, action))
        table.since = since
        table.covering = covering
        self._committed(table, rows)
        outcome = self._play_outcome(table, before, events, actor=seat)
        outcome.last_move = last_move_of(action)
        return outcome

    def _play_outcome(self, table: Table, before: State | None, events: list[Event], *,
                      actor: int | None, kind: str = "play") -> Outcome:
        state = table.state
        assert state is not None
        seats = table.seats
        private: dict[int, list[str]] = {}
        for e in events:
            if e.private_to is not None:
                with self.personal(table, e.private_to):
                    private.setdefault(e.private_to, []).append(event_text(e))
        hand_views = {}
        for s, p in enumerate(state.players):
            old = before.players[s].hand if before is not None else []
            if sorted(old) != sorted(p.hand) and seats[s].user_id is not None \
                    and not seats[s].left:
                hand_views[s] = view(state, s)
        fresh = [s for s, v in table.since.items() if v == table.version]
        secret = {}
        for s in fresh:
            if not seats[s].is_ai and _owes_hand_choice(state, s):
                with self.personal(table, s):
                    secret[s] = panels.secret_panel(state, s)
        with self.public(table):
            return self._public_outcome(table, state, events, actor, kind, private,
                                        hand_views, secret, fresh)

    def _public_outcome(self, table: Table, state: State, events: list[Event],
                        actor: int | None, kind: str, private: dict[int, list[str]],
                        hand_views: dict[int, dict[str, Any]], secret: dict[int, Panel],
                        fresh: list[int]) -> Outcome:
        """The public part of an outcome, written in the current (the game's) language."""
        seats = table.seats
        panel = self._turn_panel(table)
        outcome = Outcome(
            game_id=table.id, channel_id=table.game.channel_id, guild_id=table.game.guild_id,
            version=table.version, kind=kind,
            lines=[event_text(e) for e in visible(events, None)],
            play_channel_id=table.game.play_channel_id, turn_key=_key_text(state),
            panel=panel, seats=list(seats),
            public_view=view(state, None), private_lines=private, hand_views=hand_views,
            secret_panels=secret,
            mention=[seats[s].user_id for s in sorted(fresh)  # type: ignore[misc]
                     if s != actor and not seats[s].is_ai],
            highlight=_event_hexes(events), actor=actor, locale=self.locale_of(table),
            since=dict(table.since),
        )
        if state.phase == OVER:
            outcome.finished = True
            outcome.record = self._record(table).to_json()
        return outcome

    def _turn_panel(self, table: Table) -> Panel:
        """The turn message's text and controls for the current state (with Undo when a
        player may take back a step)."""
        state = table.state
        assert state is not None
        panel = panels.public_panel(state, table.seats)
        undo = self.undo_seat(table)
        if undo is not None:
            deciding = to_act(state)
            panel = panels.with_undo(panel, None if deciding == [undo]
                                     else colour_name(undo))
        if state.phase != OVER:
            panel = panels.with_help(panel)
        due = self._due_line(table)
        if due and table.game.status == ACTIVE:  # above the prompt, which stays last
            head, _, prompt = panel.text.rpartition("\n")
            panel.text = "\n".join(x for x in (head, due, prompt) if x)
        return panel

    async def turn_panel(self, game_id: int) -> tuple[Panel | None, int]:
        """The turn message's controls now and their version (None when the game is not
        being played): for a private copy when the public one cannot be reached."""
        table = await self.table(game_id)
        async with table.lock:
            if table.state is None or table.game.status != ACTIVE:
                return None, table.version
            return self._turn_panel(table), table.version

    # ------------------------------------------------------------------ controls
    async def use(self, game_id: int, version: int, user_id: int, name: str, op: str, arg: str,
                  values: list[str] | None = None, *, can_manage: bool = False) -> Reply:
        """One use of a control (button or select) described by a :class:`~bot.ui.Panel`.

        A click refused as stale is tried once more if the game had changed in another
        process (this process's copy was behind); a game of another process is brought up
        to date before its menus are shown."""
        cached = self._tables.get(game_id)
        if cached is not None and not self.owns(cached.game.guild_id) \
                and not await self.refresh(game_id):
            await self._clock_of_foreign_game(cached)
        try:
            return await self._use(game_id, version, user_id, name, op, arg, values,
                                   can_manage=can_manage)
        except TableError as exc:
            if exc.key != "error.stale" or not await self.refresh(game_id):
                raise
        return await self._use(game_id, version, user_id, name, op, arg, values,
                               can_manage=can_manage)

    async def _use(self, game_id: int, version: int, user_id: int, name: str, op: str, arg: str,
                   values: list[str] | None = None, *, can_manage: bool = False) -> Reply:
        if op == JOIN:
            return Reply(outcome=await self.join(game_id, user_id, name))
        if op == LEAVE:
            return Reply(outcome=await self.leave(game_id, user_id))
        if op == ADDBOT:
            return Reply(outcome=await self.add_ai(game_id, user_id))
        if op == START:
            return Reply(outcome=await self.start(game_id, user_id))
        if op == CANCEL:
            return Reply(outcome=await self.cancel(game_id, user_id, can_manage=can_manage))
        if op == QUIT:
            outcome = await self.leave_game(game_id, user_id)
            return Reply(text=t("leave.done", game=game_id), outcome=outcome)
        if op == UNDO:
            outcome = await self.undo(game_id, user_id, version)
            return Reply(text=outcome.lines[0], outcome=outcome)
        if op == HELP:  # the "?" button: help for whoever clicks, privately
            table = await self.table(game_id)
            return Reply(menu=Panel(guide.help_for_user(table, user_id)),
                         version=table.version)
        if op == rematch.REMATCH:
            return await rematch.rematch(self, game_id, user_id, name)
        if op == MENU:
            spec = f"{arg}:{values[0]}" if values else arg
            panel, now = await self.menu(game_id, user_id, spec, version)
            return Reply(menu=panel, version=now)
        if op == ACT:
            text = values[0] if values else arg
            try:
                action = decode_action(text)
            except ValueError:
                raise TableError("error.bad_choice", reason=shown(text)) from None
        elif op == CARDS:
            make = CARD_ACTIONS.get(arg)
            if make is None:
                raise TableError("error.bad_choice", reason=shown(arg))
            bad = [v for v in values or () if not (v.isascii() and v.isdigit() and len(v) < 6)]
            if bad:
                raise TableError("error.bad_choice", reason=shown(bad[0]))
            action = make(tuple(sorted(int(v) for v in values or ())))
        else:
            raise TableError("error.bad_choice", reason=shown(op))
        outcome = await self.act(game_id, user_id, action, version)
        return Reply(text=t("ack.done", what=action_label(action)), outcome=outcome)

    async def menu(self, game_id: int, user_id: int, spec: str,
                   version: int | None = None) -> tuple[Panel, int]:
        """A private menu for ``user_id``'s seat (hand, card choices, targets ...) and the
        version its controls belong to."""
        table = await self.table(game_id)
        async with table.lock:
            if spec == "close":
                return Panel(t("menu.closed")), table.version
            if spec == "hand":
                seat = table.seat_of(user_id)
                if seat is None or table.state is None:
                    raise TableError("hand.spectator", game=table.id)
                if table.seats[seat].left:
                    raise TableError("error.left", game=table.id,
                                     colour=colour_name(seat))
            else:
                seat = self._check_turn(table, user_id, version)
            try:
                panel = panels.menu(table.state, seat, spec, table.id)  # type: ignore[arg-type]
            except panels.MenuError as exc:
                raise TableError(str(exc)) from None
            return panel, table.version

    async def legal(self, game_id: int, user_id: int, prefix: list[Action] | None = None
                    ) -> list[Action]:
        """The legal actions of ``user_id`` now, or after the actions ``prefix`` (tried on a
        copy): for autocomplete. Empty when the user has nothing to decide."""
        table = await self.table(game_id)
        seat = table.seat_of(user_id)
        state = table.state
        if seat is None or state is None or table.game.status != ACTIVE:
            return []
        try:
            for action in prefix or []:
                state, _ = engine.apply(state, seat, action)
        except IllegalAction:
            return []
        return engine.legal_actions(state, seat)

    async def public_view(self, game_id: int) -> tuple[dict[str, Any] | None, list[SeatRow]]:
        table = await self.table(game_id)
        v = None if table.state is None else view(table.state, None)
        return v, list(table.seats)

    async def channel_game_id(self, channel_id: int) -> int:
        """The open (lobby or active) game of a channel; cached for autocomplete speed."""
        game_id = self._by_channel.get(channel_id)
        if game_id is not None:
            table = self._tables.get(game_id)
            if table is not None and table.game.status in (LOBBY, ACTIVE):
                return game_id
        game = await self.storage.open_game_ref(channel_id)  # numbers only: never damaged
        if game is None:
            self._by_channel.pop(channel_id, None)
            raise TableError("error.no_game")
        self._by_channel[channel_id] = game.id
        return game.id

    # ------------------------------------------------------------------ turn clock
    def _check_pace(self, name: str | None) -> Pace:
        try:
            return pace(name)
        except UnknownPace:
            raise TableError("error.unknown_pace", pace=str(name)[:30],
                             paces=", ".join(PACES)) from None

    def _plan(self, table: Table, since: dict[int, int], *,
              seats: list[SeatRow] | None = None, person: int | None = None,
              computer: Collection[int] = (), over: bool = False,
              clock: dict[int, DeadlineRow] | None = None) -> list[DeadlineRow] | None:
        """The game's turn clocks after a change, to store with it (None: no clocks)."""
        if self.turnclock is None:
            return None
        return self.turnclock.plan(table, since, seats=seats, person=person,
                                   computer=computer, over=over, clock=clock)

    def _committed(self, table: Table, rows: list[DeadlineRow] | None) -> None:
        """The change is stored with ``rows``: keep them; only the game's owner arms them
        (another process that accepted a click leaves reminders and deadlines to the owner,
        which reads the stored clocks when it catches up, :meth:`_rearm`)."""
        if self.turnclock is None:
            return
        if self.owns(table.game.guild_id):
            self.turnclock.committed(table, rows)
            return
        if rows is not None:
            table.clock = {r.seat: r for r in rows}
        self.turnclock.disarm(table.id)

    async def _rearm(self, table: Table, before: dict[int, DeadlineRow] | None = None,
                     covering: dict[int, str] | None = None) -> None:
        """The game's turn clocks as stored (lock held), after another process changed the
        game: its change was stored with its clocks. The owner arms them; a clock the
        other process could not plan (it had no turn clock) is planned here and stored;
        a seat the owner's computer still covers after a missed deadline keeps the owner's
        own row (``before``: its clocks before catching up; ``covering``: its covered
        seats), which is stored with the computer's step. Any other process only keeps
        the rows, to plan its next change from them, and arms nothing."""
        if self.turnclock is None:
            return
        try:
            stored = {r.seat: r for r in await self.storage.deadlines(table.id)}
            if not self.owns(table.game.guild_id):
                table.clock = stored
                self.turnclock.disarm(table.id)
                return
            if table.game.status != ACTIVE or table.state is None:
                table.clock = stored
                self.turnclock.arm(table)  # nothing runs in a game that is not active
                return
            rows = {r.seat: r for r in self.turnclock.plan(table, table.since, clock=stored)}
            if rows != stored:
                await self.storage.set_deadlines(table.id, list(rows.values()))
        except StorageRefusal as exc:
            log.warning("game %s: cannot read its turn clocks now: %s", table.id, exc)
            return
        table.covering = dict(covering or {})
        table.covering = self._still_covered(table, table.state, table.since)
        for s in table.covering:
            if before is not None and s in before:
                rows[s] = before[s]
        table.clock = rows
        self.turnclock.arm(table)

    @staticmethod
    def _still_covered(table: Table, state: State, since: dict[int, int]) -> dict[int, str]:
        """The seats a computer still decides for after a change: those that owe a
        decision in the same turn as when their time ran out."""
        key = _key_text(state)
        return {s: k for s, k in table.covering.items() if s in since and k == key}

    def _due_line(self, table: Table) -> str:
        """The turn message's clock line: the pace and each pending deadline."""
        if self.turnclock is None:
            return ""
        rows = deadlines.pending(table.clock)
        if not rows:
            return ""
        due = ", ".join(t("clock.due", colour=colour_name(r.seat), when=int(r.due_at or 0))
                        for r in rows)
        return t("clock.line", pace=t(f"pace.short.{self.turnclock.pace_of(table).name}"),
                 due=due)

    async def clock_lines(self, game_id: int) -> list[str]:
        """For ``/tempus status``: the pace and each pending decision's deadline."""
        if self.turnclock is None:
            return []
        table = await self.table(game_id)
        lines = [t("clock.status", pace=t(f"pace.{self.turnclock.pace_of(table).name}"))]
        if table.game.status == ACTIVE:
            for r in deadlines.pending(table.clock):
                lines.append(t("clock.status_due", colour=colour_name(r.seat),
                               name=table.seats[r.seat].name, when=int(r.due_at or 0),
                               strikes=r.strikes))
            for s in sorted(table.covering):
                lines.append(t("clock.status_covering", colour=colour_name(s)))
        return lines

    async def wants_reminders(self, user_id: int) -> bool:
        on = self._reminders_on.get(user_id)
        if on is None:
            on = self._reminders_on[user_id] = await self.storage.reminders_on(user_id)
        return on

    async def set_reminders(self, user_id: int, on: bool) -> str:
        """``/tempus remind on|off``: turn reminders by DM on or off for this person."""
        await self.storage.set_reminders(user_id, on)
        self._reminders_on[user_id] = on
        return t("remind.on" if on else "remind.off")

    async def set_pace(self, game_id: int, user_id: int, name: str, *,
                       can_manage: bool = False) -> Outcome:
        """The host (or a channel manager) changes the time per decision; pending decisions
        keep their start, so a longer pace extends them (see bot.deadlines.repace)."""
        p = self._check_pace(name)
        table = await self.table(game_id)
        async with table.lock:
            if table.game.status not in (LOBBY, ACTIVE):
                raise TableError("error.not_active", game=table.id)
            if user_id != table.game.host_id and not can_manage:
                raise TableError("error.pace_denied", host=table.game.host_id)
            if table.game.options.get("pace") == p.name:
                raise TableError("error.pace_same", game=table.id, pace=t(f"pace.{p.name}"))
            options = {**table.game.options, "pace": p.name}

            def said() -> str:
                return t("clock.pace_changed", user=user_id, pace=t(f"pace.{p.name}"))
            if table.game.status == LOBBY:
                async def change() -> int:
                    version = await self.storage.set_options(table.id, table.version, options)
                    table.game.options = options
                    return version
                return await self._lobby_change(table, change, said)
            rows = self.turnclock.repace(table, p) if self.turnclock is not None else None
            try:
                table.game.version = await self.storage.set_options(table.id, table.version,
                                                                    options, rows)
            except VersionConflict:
                raise TableError("error.stale") from None
            table.game.options = options
            self._committed(table, rows)
            assert table.state is not None
            outcome = self._play_outcome(table, table.state, [], actor=None)
            with self.public(table):
                outcome.lines = [said()]
            self._enqueue(outcome)
        return outcome

    async def remind(self, game_id: int, seat: int) -> None:
        """The scheduler: a reminder may be due for ``seat``. Noted before it is sent, so
        it is sent at most once; a person who muted reminders gets none."""
        assert self.turnclock is not None
        table = await self.table(game_id)
        async with table.lock:
            if not self.owns(table.game.guild_id):  # the owner's clock fires
                self.turnclock.disarm(table.id)
                return
            row = table.clock.get(seat)
            if table.game.status != ACTIVE or row is None or row.due_at is None \
                    or row.started_at is None:
                return
            stage = reminder_stage(row.started_at, row.due_at, self.turnclock.now(),
                                   self.turnclock.pace_of(table))
            if stage <= row.reminded:  # not yet (the deadline moved): wait again
                self.turnclock.arm(table)
                return
            if not await self.storage.update_deadline(table.id, seat, row.since,
                                                      due_at=row.due_at, reminded=stage):
                log.warning("game %s: seat %s's clock is not the stored one", table.id, seat)
                return
            table.clock[seat] = replace(row, reminded=stage)
            self.turnclock.arm(table)
            user = table.seats[seat].user_id
            if user is None or not await self.wants_reminders(user):
                return
            self._queue(Outcome(
                table.id, table.game.channel_id, table.game.guild_id, table.version, "remind",
                [], play_channel_id=table.game.play_channel_id, seats=list(table.seats),
                since=dict(table.since), locale=self.locale_of(table),
                reminders=[Reminder(user, seat, colour_name(seat), row.due_at, stage)]))

    async def timeout(self, game_id: int, seat: int) -> None:
        """The scheduler: ``seat``'s time may be up. A computer then decides for the seat
        while it owes a decision in this turn (announced in the game's thread); after
        ``turnclock.strikes`` missed deadlines in a row the seat stays on autopilot until
        its person takes it back."""
        assert self.turnclock is not None
        table = await self.table(game_id)
        async with table.lock:
            if not self.owns(table.game.guild_id):  # the owner's clock fires
                self.turnclock.disarm(table.id)
                return
            row = table.clock.get(seat)
            state = table.state
            if table.game.status != ACTIVE or state is None or row is None \
                    or row.due_at is None:
                return
            if row.due_at > self.turnclock.now():  # moved meanwhile: wait again
                self.turnclock.arm(table)
                return
            if seat not in table.since or table.seats[seat].is_ai:
                return  # no clock runs for such a seat (bot.deadlines): nothing to do
            strikes = row.strikes + 1
            user = table.seats[seat].user_id
            level = self.turnclock.level
            if strikes >= self.turnclock.strikes:
                after = _with_seat(table.seats, seat, autopilot=level)
                covering = {s: k for s, k in table.covering.items() if s != seat}
                rows = self._plan(table, table.since, seats=after, computer=covering,
                                  clock={**table.clock, seat: replace(row, strikes=strikes)})
                try:
                    table.game.version = await self.storage.set_autopilot(
                        table.id, table.version, seat, level, rows)
                except VersionConflict:
                    log.error("game %s: changed outside its lock", table.id)
                    return
                table.seats = await self.storage.seats(table.id)
                table.covering = covering
                self._committed(table, rows)
                outcome = self._play_outcome(table, state, [], actor=None)
                with self.public(table):
                    outcome.lines = [t("clock.autopilot", user=user, colour=colour_name(seat),
                                       level=level, n=strikes)]
                self._enqueue(outcome)
            else:
                # stored with the computer's first step (a crash before it: the deadline
                # fires again after the restart, and is counted once)
                table.clock[seat] = replace(row, due_at=None, strikes=strikes)
                table.covering[seat] = _key_text(state)
                self.turnclock.arm(table)
                outcome = self._play_outcome(table, state, [], actor=seat)
                with self.public(table):
                    outcome.lines = [t("clock.timeout", user=user, colour=colour_name(seat),
                                       level=level, n=strikes, limit=self.turnclock.strikes)]
                self._hold(outcome, more=True)  # announced with the computer's decision
        self._kick_ai(table)

    # ------------------------------------------------------------------ leaving, replacing
    async def leave_panel(self, game_id: int, user_id: int) -> tuple[Panel, int] | None:
        """``/tempus leave`` during a game: the private confirmation to show (None: the
        game has not started, a plain leave applies)."""
        table = await self.table(game_id)
        if table.game.status == LOBBY:
            return None
        if table.game.status != ACTIVE:
            raise TableError("error.not_active", game=table.id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError("error.not_seated", game=table.id)
        if table.seats[seat].left:
            raise TableError("error.left", game=table.id, colour=colour_name(seat))
        panel = Panel(t("leave.confirm", game=table.id, colour=colour_name(seat),
                        level=self._leave_level()),
                      [(Button(t("btn.leave_game"), QUIT, style="danger"),)])
        return panel, table.version

    def _leave_level(self) -> str:
        return self.turnclock.level if self.turnclock is not None else players.default_level()

    async def leave_game(self, game_id: int, user_id: int) -> Outcome:
        """The person leaves a running game: a computer plays their seat to the end and
        their cards go to nobody (the seat's hand is never shown again)."""
        table = await self.table(game_id)
        async with table.lock:
            if table.game.status != ACTIVE:
                raise TableError("error.not_active", game=table.id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("error.not_seated", game=table.id)
            if table.seats[seat].left:
                raise TableError("error.left", game=table.id, colour=colour_name(seat))
            level = self._leave_level()
            after = _with_seat(table.seats, seat, autopilot=level, left=True)
            covering = {s: k for s, k in table.covering.items() if s != seat}
            rows = self._plan(table, table.since, seats=after, computer=covering)
            try:
                table.game.version = await self.storage.leave_seat(table.id, table.version,
                                                                   seat, level, rows)
            except VersionConflict:
                raise TableError("error.stale") from None
            table.seats = await self.storage.seats(table.id)
            table.covering = covering
            self._committed(table, rows)
            assert table.state is not None
            outcome = self._play_outcome(table, table.state, [], actor=None)
            with self.public(table):
                outcome.lines = [t("leave.public", user=user_id, colour=colour_name(seat),
                                   level=level)]
            self._enqueue(outcome)
        self._kick_ai(table)
        return outcome

    async def replace(self, game_id: int, user_id: int, old_user: int, new_user: int,
                      new_name: str, *, new_is_bot: bool = False,
                      can_manage: bool = False) -> Outcome:
        """The host (or a channel manager) gives ``old_user``'s seat to ``new_user``, who
        gets the hand by DM and decides from now on (with a fresh clock)."""
        table = await self.table(game_id)
        async with table.lock:
            if table.game.status == LOBBY:
                raise TableError("error.replace_lobby", game=table.id, old=old_user,
                                 new=new_user)
            if table.game.status != ACTIVE:
                raise TableError("error.not_active", game=table.id)
            if user_id != table.game.host_id and not can_manage:
                raise TableError("error.replace_denied", host=table.game.host_id)
            if new_is_bot:
                raise TableError("error.replace_bot", user=new_user)
            seat = table.seat_of(old_user)
            if seat is None:
                raise TableError("error.not_seated_other", user=old_user, game=table.id)
            if table.seat_of(new_user) is not None:
                raise TableError("error.replace_seated", user=new_user, game=table.id)
            after = _with_seat(table.seats, seat, user_id=new_user, name=new_name,
                               autopilot=None, left=False)
            since = {s: table.version + 1 if s == seat else v for s, v in table.since.items()}
            covering = {s: k for s, k in table.covering.items() if s != seat}
            clock = {s: r for s, r in table.clock.items() if s != seat}  # no strikes
            rows = self._plan(table, since, seats=after, computer=covering, clock=clock)
            try:
                table.game.version = await self.storage.replace_seat(
                    table.id, table.version, seat, new_user, new_name, rows)
            except VersionConflict:
                raise TableError("error.stale") from None
            table.seats = await self.storage.seats(table.id)
            table.since = since
            table.covering = covering
            self._committed(table, rows)
            state = table.state
            assert state is not None
            outcome = self._play_outcome(table, state, [], actor=None)
            outcome.hand_views = {seat: view(state, seat)}
            with self.public(table):
                outcome.lines = [t("replace.done", old=old_user, new=new_user,
                                   colour=colour_name(seat))]
            self._enqueue(outcome)
        self._kick_ai(table)
        return outcome
    async def last_game_in_channel(self, channel_id: int) -> int:
        """For looking (board, status, record): the channel's running game, else its last
        finished one (so the final position stays visible until a new game starts), else
        its lobby; TableError when the channel has none."""
        game = await self.storage.latest_game_in_channel(channel_id, (ACTIVE,))
        if game is None:
            game = await self.storage.latest_game_in_channel(channel_id, (FINISHED,))
        if game is None:
            return await self.channel_game_id(channel_id)
        return game.id

    # ------------------------------------------------------------------ computer players
    def _kick_ai(self, table: Table) -> None:
        if table.game.status != ACTIVE or not (any(s.is_ai for s in table.seats)
                                               or table.covering):
            return
        if not self.owns(table.game.guild_id):
            return  # the owner's computer players play it
        task = self._ai_tasks.get(table.id)
        if task is not None and not task.done():
            return
        self._ai_tasks[table.id] = asyncio.create_task(self._ai_loop(table),
                                                       name=f"tempus-ai-{table.id}")

    def _ai_seat(self, table: Table) -> int | None:
        if table.game.status != ACTIVE or table.state is None:
            return None
        for s in to_act(table.state):
            if table.seats[s].is_ai:
                return s
        key = _key_text(table.state)
        for s in to_act(table.state):
            if table.covering.get(s) == key:
                return s
        return None

    async def _ai_loop(self, table: Table) -> None:
        """Let computer seats act until a person must decide; one announcement per run of
        one seat's actions."""
        failures = waits = 0
        try:
            while True:
                async with table.lock:
                    seat = self._ai_seat(table)
                    if seat is None:
                        self._flush(table.id)
                        break
                    state, version = table.state, table.version
                assert state is not None
                if self.ai_delay:
                    await asyncio.sleep(self.ai_delay)
                try:
                    action = await self._think(table, state, seat, version)
                    async with table.lock:
                        if table.since.get(seat, version + 1) > version:
                            continue  # the position changed under us: think again
                        try:
                            outcome = await self._apply(table, seat, action, person=False)
                        except StorageRefusal:
                            raise
                        except TableError as exc:
                            if exc.key == "error.stale":  # changed in another process
                                await self._catch_up(table)
                                continue
                            log.error("game %s: computer seat %s chose %s: %s", table.id,
                                      seat, action.to_json(), exc)
                            assert table.state is not None
                            fallback = players.random_action(table.state, seat, version)
                            outcome = await self._apply(table, seat, fallback, person=False)
                        assert table.state is not None
                        self._hold(outcome, more=set(to_act(table.state)) == {seat})
                    failures = 0
                    waits = 0
                except StorageRefusal as exc:
                    # the store cannot take the move now: wait for it as long as it takes
                    # (the move was not kept, so thinking again is right)
                    waits += 1
                    log.warning("game %s: computer seat %s waits for the storage: %s",
                                table.id, seat, exc)
                    await asyncio.sleep(min(30.0, 0.25 * 2 ** min(waits, 7)))
                except Exception:
                    failures += 1
                    log.exception("game %s: computer seat %s failed (%d in a row)", table.id,
                                  seat, failures)
                    if failures >= 5:
                        raise
                    await asyncio.sleep(0.5 * failures)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: computer player loop gave up", table.id)
        finally:
            self._flush(table.id)

    async def _think(self, table: Table, state: State, seat: int, version: int) -> Action:
        level = table.seats[seat].level or (
            self.turnclock.level if self.turnclock is not None and seat in table.covering
            else players.RANDOM)
        # one-way, so that nothing about the game seed (hence the deck order) reaches an AI
        digest = hashlib.sha256(f"{table.game.options.get('seed', 0)}:{version}:{seat}".encode())
        seed = int.from_bytes(digest.digest()[:4], "big") % 2**31
        if level == players.RANDOM:
            return players.random_action(state, seat, seed)
        try:
            out = await self.offloader.run(players.think, view(state, seat), level, seed,
                                           self.ai_budget_s)
            return players.parse(out)
        except Exception:
            log.exception("game %s: computer seat %s failed to think", table.id, seat)
            return players.random_action(state, seat, seed)

    # ------------------------------------------------------------------ announcing
    def _hold(self, outcome: Outcome, *, more: bool) -> None:
        """A computer's outcome: kept back while the same seat goes on acting (``more``),
        so a run of its small steps is announced as one message."""
        held = self._held.pop(outcome.game_id, None)
        if held is not None:
            if held.actor == outcome.actor:
                outcome = held.merge(outcome)
            else:
                self._enqueue(held)
        if more:
            self._held[outcome.game_id] = outcome
        else:
            self._enqueue(outcome)

    def _flush(self, game_id: int) -> None:
        held = self._held.pop(game_id, None)
        if held is not None:
            self._enqueue(held)

    def _enqueue(self, outcome: Outcome) -> None:
        """Queue an announcement; anything held back for the game goes out first (merged),
        so announcements always follow commit order."""
        held = self._held.pop(outcome.game_id, None)
        if held is not None:
            outcome = held.merge(outcome)
        self._queue(outcome)

    def _queue(self, outcome: Outcome) -> None:
        """Queue an outcome as it is (a reminder or notice: never merged into a move)."""
        if self.sink is None or not self.owns(outcome.guild_id):
            return  # another process owns the game: storage notified it, it announces
        queue = self._outboxes.get(outcome.game_id)
        if queue is None:
            queue = self._outboxes[outcome.game_id] = asyncio.Queue()
        queue.put_nowait(outcome)
        task = self._publishers.get(outcome.game_id)
        if task is None or task.done():
            self._publishers[outcome.game_id] = asyncio.create_task(
                self._publish_loop(outcome.game_id, queue), name=f"tempus-post-{outcome.game_id}")

    async def _publish_loop(self, game_id: int, queue: asyncio.Queue[Outcome]) -> None:
        assert self.sink is not None
        while True:
            outcome = await queue.get()
            try:
                await self.sink.publish(outcome)
            except Exception:
                log.exception("game %s: announcing version %s failed", game_id, outcome.version)
            finally:
                queue.task_done()

    async def moved(self, game_id: int, thread_id: int) -> None:
        """The game is played in ``thread_id`` from now on (the publisher opened it)."""
        table = self._tables.get(game_id)
        if table is not None:
            table.game.thread_id = thread_id
        self._by_channel[thread_id] = game_id

    async def idle(self) -> None:
        """Wait until no computer player is thinking and every outcome is announced."""
        while True:
            busy = [t for t in self._ai_tasks.values() if not t.done()]
            if busy:
                await asyncio.gather(*busy, return_exceptions=True)
            for q in list(self._outboxes.values()):
                await q.join()
            drain = getattr(self.sink, "drain", None)
            if drain is not None:
                await drain()
            if not any(not t.done() for t in self._ai_tasks.values()):
                return

    # ------------------------------------------------------------------ other processes
    async def refresh(self, game_id: int, version: int | None = None) -> bool:
        """Catch up with what another process committed to ``game_id`` (bot.cluster):
        read it from storage, announce it if this process owns the game, let the computer
        players go on. ``version``: the version it made, if known (nothing to do if this
        process has it already). Returns whether anything changed."""
        table = self._tables.get(game_id)
        if table is None:  # not loaded here: loading reads it fresh anyway
            game = await self.storage.game(game_id)
            if (game is None or game.status != ACTIVE or not self.owns(game.guild_id)
                    or (game.announced_version or 0) >= game.version):
                return False
            table = await self.table(game_id)
            async with table.lock:
                self._repost(table)
                await self._rearm(table)
            self._kick_ai(table)
            return True
        if version is not None and table.version >= version:
            return False
        async with table.lock:
            changed = await self._catch_up(table)
        if changed:
            self._kick_ai(table)
        return changed

    async def _clock_of_foreign_game(self, table: Table) -> None:
        """Before a click on another process's game: its clocks as stored now (the owner's
        reminders change them without a new version), so that the change planned here
        keeps them."""
        async with table.lock:
            await self._rearm(table)

    async def _catch_up(self, table: Table) -> bool:
        """Bring ``table`` (lock held) up to the stored game: the new log entries one by
        one when that is all that changed (announced like local ones), else a full reload
        announced as the position."""
        game = await self.storage.game(table.id)
        if game is None or game.version <= table.version:
            return False
        owned = self.owns(game.guild_id)
        before, covering = dict(table.clock), dict(table.covering)
        seats = await self.storage.seats(table.id)
        rows = (await self.storage.actions(table.id))[table.log_len:]
        outcome: Outcome | None = None
        stepwise = (table.state is not None and table.game.status == ACTIVE
                    and seats == table.seats and bool(rows)
                    and [r.version for r in rows]
                    == list(range(table.version + 1, game.version + 1)))
        if stepwise:
            try:
                for row in rows:
                    step = self._replay_step(table, row, announce=owned)
                    if step is not None:
                        outcome = step if outcome is None else outcome.merge(step)
            except Exception:
                log.exception("game %s: catching up step by step failed; reloading", table.id)
                stepwise = False
        if stepwise:
            table.game = game
        else:
            fresh = await self._load(game)
            for f in fields(Table):
                if f.name != "lock":
                    setattr(table, f.name, getattr(fresh, f.name))
            outcome = None
            if owned and game.status == LOBBY:
                outcome = self._lobby_outcome(table, "")
                outcome.lines = []
            elif owned and game.status == CANCELLED:
                outcome = Outcome(table.id, game.channel_id, game.guild_id, table.version,
                                  "cancel", [], panel=Panel(""), seats=list(table.seats),
                                  locale=self.locale_of(table))
            elif owned and table.state is not None:
                outcome = self._play_outcome(table, table.state, [], actor=None)
        await self._rearm(table, before, covering)
        if outcome is not None:
            self._enqueue(outcome)
        return True

    def _replay_step(self, table: Table, row: ActionRow, *, announce: bool) -> Outcome | None:
        """Apply one stored log entry made elsewhere to ``table``; its outcome if
        ``announce``."""
        before = table.state
        assert before is not None and row.version is not None
        if is_undo(row.action):
            table.state = table.timeline.undo(row.seat)
            _, undone = table.moves.pop()
            events: list[Event] = []
            action: Action | None = None
        else:
            action = action_from_json(row.action)
            table.state, events = engine.apply(before, row.seat, action)
            table.timeline.record(before, row.seat, action, events, table.state)
            table.moves.append((row.seat, action))
        table.game.version = row.version
        table.game.status = FINISHED if table.state.phase == OVER else ACTIVE
        table.log_len += 1
        table.since = next_since(table.since, table.state, row.seat, row.version)
        if not announce:
            return None
        if action is None:
            outcome = self._play_outcome(table, None, [], actor=row.seat)
            with self.public(table):
                outcome.lines = [t("undo.done", colour=colour_name(row.seat),
                                   what=action_label(undone))]
        else:
            outcome = self._play_outcome(table, before, events, actor=row.seat)
            outcome.last_move = last_move_of(action)
        return outcome

    async def close(self) -> None:
        for task in [*self._ai_tasks.values(), *self._publishers.values()]:
            task.cancel()
        await asyncio.gather(*self._ai_tasks.values(), *self._publishers.values(),
                             return_exceptions=True)
        self._ai_tasks.clear()
        self._publishers.clear()


def _with_seat(seats: list[SeatRow], seat: int, **changes: Any) -> list[SeatRow]:
    """The seats with ``seat`` changed (what the table will look like after a commit)."""
    return [replace(s, **changes) if s.seat == seat else s for s in seats]


def _key_text(state: State) -> str:
    return json.dumps(turn_key(state), separators=(",", ":"))


def _owes_hand_choice(state: State, seat: int) -> bool:
    d = engine.decision_for(state, seat)
    return d is not None and d.kind in panels.HAND_KINDS


def _event_hexes(events: list[Event]) -> tuple[int, ...]:
    out: list[int] = []
    for e in visible(events, None):
        for key in ("src", "dst", "hex", "target", "own", "centre"):
            v = e.data.get(key)
            if isinstance(v, str):
                with contextlib.suppress(ValueError):
                    out.append(parse_label(v))
    return tuple(dict.fromkeys(out))
