"""The lobby: opening a table, seats, computer seats, start and cancel.

Part of :class:`bot.table.service.TableService` (see there for how the parts fit).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import engine
from bot.store import ACTIVE, CANCELLED, LOBBY, ChannelBusy, VersionConflict
from bot.table import rematch
from bot.table.base import TableBase
from bot.table.model import (
    Outcome,
    Table,
    TableError,
    next_since,
)
from bot.table.ui import (
    ADDBOT,
    CANCEL,
    JOIN,
    LEAVE,
    START,
    Button,
    Panel,
    button_rows,
)
from bot.tempus import computer_levels as players
from bot.tempus.labels import colour_name
from engine.content import CONTENT
from engine.setup import new_game
from lang.messages import t

log = logging.getLogger(__name__)


class LobbyMixin(TableBase):

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
        invitations (bot/table/rematch.py); ``pace_name``: time per decision (bot.timing.pace;
        None: the
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

    def lobby_panel(self, table: Table) -> Panel:
        o = table.game.options
        lines = [t("lobby.title", game=table.id, host=table.game.host_id,
                   map=t("lobby.map.random" if o["random_map"] else "lobby.map.place"),
                   seated=len(table.seats), seats=o["max_seats"]),
                 t("lobby.opt1.on" if o.get("protection_counts_cities") else "lobby.opt1.off")]
        if not o.get("hints", True):
            lines.append(t("lobby.hints_off"))
        invite = rematch.invitation_line(o, table.seats)
        if invite is not None:
            lines.append(invite)
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
                           seats=list(table.seats), locale=self.locale_of(table),
                           mention=rematch.mentioned(table.game.options, table.seats))
