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

Several processes (bot.cluster.coordinator, PostgreSQL): the version check in storage is the
guarantee,
the lock only an optimisation. A process works (computer players, announcements) only for
the games it ``owns``; one that accepted an action for another's game leaves announcing to
the owner, which catches up through :meth:`TableService.refresh`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

import engine
from bot.runtime.keyed_lock import KeyedLocks
from bot.runtime.worker_pool import Offloader
from bot.store import ACTIVE, LOBBY, GameRow, GameUnreadable, Storage
from bot.table.announce import AnnounceMixin
from bot.table.clocks import ClockMixin
from bot.table.computers import ComputerMixin
from bot.table.lobby import LobbyMixin
from bot.table.model import (
    Outcome,
    Refusing,
    Reminder,
    Reply,
    SetAside,
    Sink,
    StorageRefusal,
    Table,
    TableError,
    next_since,
)
from bot.table.play import PlayMixin
from bot.table.seats import SeatsMixin
from bot.table.sync import SyncMixin
from bot.tempus.event_text import event_text
from bot.tempus.labels import action_label, colour_name
from bot.timing.scheduler import Scheduler
from bot.timing.turn_clock import TurnClock
from engine.actions import action_from_json
from engine.errors import IllegalAction
from engine.events import visible
from engine.record import Record
from engine.undo import is_undo
from lang import i18n
from lang.messages import t

__all__ = ["Outcome", "Reminder", "Reply", "SetAside", "StorageRefusal", "Table", "TableError",
           "TableService"]

log = logging.getLogger(__name__)


class TableService(LobbyMixin, PlayMixin, SeatsMixin, ClockMixin, ComputerMixin, SyncMixin,
                   AnnounceMixin):
    """The whole service. This module loads games (replaying their logs), resumes them
    after a restart and knows each game's languages; the jobs live in their own modules:

    - :mod:`bot.table.lobby`: opening a table, seats, start, cancel;
    - :mod:`bot.table.play`: turns, actions, undo, controls and private menus;
    - :mod:`bot.table.seats`: autopilot, leaving and replacing during a game;
    - :mod:`bot.table.clocks`: pace, deadlines, reminders, time running out;
    - :mod:`bot.table.computers`: computer players;
    - :mod:`bot.table.sync`: catching up with other processes (bot.cluster.coordinator);
    - :mod:`bot.table.announce`: outcomes and their per-game queue to the sink;
    - :mod:`bot.table.model`: the data they share (tables, outcomes, refusals).
    """

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
        nobody waits forever (bot.timing.turn_clock). None: no deadlines (tests, the console)."""
        self.storage: Storage = Refusing(storage)  # type: ignore[assignment]
        self.sink = sink
        self.ai_delay = ai_delay
        self.ai_budget_s = ai_budget_s
        self.offloader = offloader or Offloader(0)
        self._seed = seed_source or (lambda: secrets.randbelow(2**31))
        self._tables: dict[int, Table] = {}
        self._by_channel: dict[int, int] = {}
        self._load_locks = KeyedLocks()
        self._outboxes: dict[int, asyncio.Queue[Outcome]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._publishers: dict[int, asyncio.Task[None]] = {}
        self._closing = False
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
        #: announcements); set by bot.cluster.coordinator when processes share the shards
        self.owns: Callable[[int | None], bool] = lambda guild_id: True
        #: games that could not be loaded, by id: refused with a clear message until a
        #: restart; the application tells each channel once (``SetAside.notice``)
        self.set_aside: dict[int, SetAside] = {}

    async def table(self, game_id: int) -> Table:
        table = self._tables.get(game_id)
        if table is not None:
            table.touched = time.monotonic()
            return table
        if game_id in self.set_aside:
            raise TableError("error.game_set_aside", game=game_id)
        async with self._load_locks(game_id):
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

    def unload_idle(self, idle_s: float) -> int:
        """Forget the games nobody has used for ``idle_s`` seconds and that have nothing
        running (no lock held, no computer thinking, nothing waiting to be announced, no
        seat covered after a missed deadline); returns how many. A game is loaded again
        from the store at its next use, exactly as after a restart, so a bot with many
        slow (daily) games keeps in memory only the ones being played."""
        now = time.monotonic()
        gone = [gid for gid, table in self._tables.items()
                if now - table.touched >= idle_s and not self._busy(table)]
        for gid in gone:
            del self._tables[gid]
        return len(gone)

    def _busy(self, table: Table) -> bool:
        gid = table.id
        ai = self._ai_tasks.get(gid)
        post = self._publishers.get(gid)
        return (table.lock.locked() or bool(table.covering) or gid in self._held
                or (ai is not None and not ai.done()) or (post is not None and not post.done()))

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
        announced = game.announced_version
        told: list[bool] = []  # per effective move: announced before the stop?
        for i, row in enumerate(rows):
            made = row.version if row.version is not None else i + 1 + offset
            new = announced is not None and made > announced
            if is_undo(row.action):
                state = table.timeline.undo(row.seat)
                undone_seat, undone = table.moves.pop()
                if not told.pop():
                    table.unannounced.pop()  # taken back before anyone saw it
                elif new:
                    table.unannounced.append((undone_seat, undone, None))
            else:
                action = action_from_json(row.action)
                before = state.copy()
                events = engine.apply_in_place(state, row.seat, action)
                table.timeline.record(before, row.seat, action, events, state)
                table.moves.append((row.seat, action))
                told.append(not new)
                if new:
                    table.unannounced.append((row.seat, action, events))
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
        # a computer covering a seat's turn after a missed deadline goes on doing so
        table.covering = self._covered_in(table, table.clock)
        return table

    async def resume_all(self) -> list[int]:
        """Load every active game and let computer players go on; returns the ids of the
        games resumed. Each game is loaded on its own: one that cannot be read is set
        aside (:attr:`set_aside`, for the application to tell its channel) and the others
        start normally. Then the finishes committed but never announced (this process
        stopped first, or another one finished the game meanwhile) are announced
        (:meth:`announce_behind`)."""
        ids = []
        for ref in await self.storage.game_refs(ACTIVE):
            if not self.owns(ref.guild_id):
                continue  # its owner resumes it
            # caught up already (bot.cluster.coordinator, which starts first): its news are
            # on the way
            caught_up = ref.id in self._tables
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
            if not caught_up and (game.announced_version is None
                                  or game.announced_version < game.version):
                # the process stopped between committing and announcing: post it now
                async with table.lock:
                    self._repost(table)
            if self.turnclock is not None:
                await self._resume_clock(table)
            self._kick_ai(table)
        finished = await self.announce_behind()
        if finished:
            log.info("announced %d finish(es) made while this process was away: %s",
                     len(finished), finished)
        return ids

    def _repost(self, table: Table) -> None:
        """Post the game as it stands, with the events of the actions stored but never
        announced (the process stopped in between): nothing the players need is lost."""
        assert table.state is not None
        missed, table.unannounced = table.unannounced, []
        events = [e for _, _, step in missed for e in step or ()]
        outcome = self._play_outcome(table, table.state, events, actor=None, kind="resume")
        with self.public(table):
            lines = [t("resume.reposted", game=table.id)]
            for seat, action, step in missed:
                if step is None:
                    lines.append(t("undo.done", colour=colour_name(seat),
                                   what=action_label(action)))
                else:
                    lines.extend(event_text(e) for e in visible(step, None))
            outcome.lines = lines
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
