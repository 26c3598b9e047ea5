"""The lobby: opening a table (or a rematch), seats, computer seats, start and cancel.

A use case: it gets its tables from :class:`~bot.table.tables.Tables`, stores through the
commit path (:class:`~bot.table.commit.Commits`) and queues what it did with the
:class:`~bot.table.announce.Announcer`.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from bot.store import ACTIVE, CANCELLED, LOBBY, ChannelBusy, VersionConflict
from bot.table import newcomers, rematch
from bot.table.clocks import check_pace
from bot.table.commit import Change, lobby_change
from bot.table.model import (
    Outcome,
    OutcomeKind,
    Reply,
    Stale,
    Table,
    TableError,
    next_since,
    public,
)
from bot.table.parts import Parts, UseCase
from games import registry
from games.controls import Panel, shown
from lang.messages import t

log = logging.getLogger(__name__)


#: random bits of a new game's seed: far too many to find the seed by trying each one
#: against the public map and start player (and few enough for every JSON reader's
#: 64-bit integers)
SEED_BITS = 63


def new_seed() -> int:
    """The seed of a new game's deck and map: secret until the game ends."""
    return secrets.randbits(SEED_BITS)


def require_lobby(table: Table) -> None:
    if table.game.status != LOBBY:
        raise TableError("error.not_lobby", game=table.id)


def require_member(table: Table, user_id: int) -> None:
    if table.seat_of(user_id) is None and user_id != table.game.host_id:
        raise TableError("error.not_seated", game=table.id)


class Lobby(UseCase):
    def __init__(self, parts: Parts, seed: Callable[[], int]) -> None:
        super().__init__(parts)
        #: the seed of a new game's deck and map
        self.seed = seed

    async def create(self, guild_id: int | None, channel_id: int, user_id: int, name: str,
                     *, game: str = registry.DEFAULT, options: Mapping[str, Any] | None = None,
                     seats: int = 5, seed: int | None = None, host_plays: bool = True,
                     in_thread: bool = False, extra: dict[str, Any] | None = None,
                     pace_name: str | None = None) -> Outcome:
        """A new lobby of ``game`` (a stored name of :mod:`games.registry`); the host takes
        the first seat unless ``host_plays`` is False. ``options``: the game's own table
        options, over its defaults (``Rules.default_options``: one it does not have is
        refused); ``extra``: the table's options stored with the game: ``hints`` (bool,
        default on), ``locale`` (the language of its channel and thread posts: the
        server's preferred one), a rematch's invitations (bot/table/rematch.py);
        ``pace_name``: time per decision (bot.timing.pace; None: the default)."""
        try:
            rules = registry.game(game).rules
        except registry.UnknownGame:
            raise TableError("error.bad_choice", reason=shown(game)) from None
        own = rules.default_options()
        unknown = set(options or {}) - set(own)
        if unknown:
            raise ValueError(f"{game} has no table options {sorted(unknown)}")
        seats = max(rules.min_players, min(rules.max_players, seats))
        stored: dict[str, Any] = {"hints": True, **(extra or {}), "max_seats": seats, **own,
                                  **(options or {}), "pace": check_pace(pace_name).name}
        if seed is not None:
            stored["seed"] = seed
        # the database keeps one open game per channel id; a game's thread is not its
        # channel id, so a lobby opened in it would be found there before the game itself
        played_here = await self.storage.open_game_ref(channel_id)
        if played_here is not None:
            raise TableError("error.game_exists", game=played_here.id)
        try:
            row = await self.storage.create_game(guild_id, channel_id, user_id,
                                                 name if host_plays else None, stored,
                                                 game=game)
        except ChannelBusy:
            existing = await self.storage.open_game_ref(channel_id)
            raise TableError("error.game_exists", game=existing.id if existing else "?") from None
        if in_thread:  # opened inside a thread: the game is played right there
            await self.storage.set_thread(row.id, channel_id)
            row.thread_id = channel_id
        table = await self.tables.get(row.id)
        await newcomers.know(self.storage, table)
        with public(table):
            outcome = self.outcomes.lobby(table, t("lobby.created", game=row.id))
        self.announcer.enqueue(outcome)
        return outcome

    async def _change(self, table: Table, write: Callable[[], Awaitable[int]], key: str,
                      **kwargs: Any) -> Outcome:
        """Commit a lobby change and announce it: ``key`` and ``kwargs`` are written in the
        game's language."""
        def told(table: Table) -> Outcome:
            with public(table):
                return self.outcomes.lobby(table, t(key, **kwargs))

        # who is new to the game, as of now (a lesson finished since, a game ended)
        await newcomers.know(self.storage, table)
        outcome = await self.commits.commit(table, lobby_change(write), told)
        self.announcer.enqueue(outcome)
        return outcome

    async def join(self, game_id: int, user_id: int, name: str) -> Outcome:
        table = await self.tables.get(game_id)
        async with table.lock:
            seat = table.seat_of(user_id)
            if table.game.status == ACTIVE:
                if seat is not None and not table.seats[seat].left:
                    raise TableError("error.already_seated", game=table.id)
                raise TableError("error.not_lobby_join", game=table.id, host=table.game.host_id)
            require_lobby(table)
            if seat is not None:
                raise TableError("error.already_seated", game=table.id)
            if len(table.seats) >= table.game.options["max_seats"]:
                raise TableError("error.table_full", seats=len(table.seats))
            kept = rematch.join_refusal(table.id, table.game.options, table.seats, user_id)
            if kept is not None:
                raise TableError(kept[0], **kept[1])
            await newcomers.know(self.storage, table, also=[user_id])
            return await self._change(
                table, lambda: self.storage.add_seat(table.id, table.version, user_id, None,
                                                     name),
                "lobby.joined", name=name, game=table.id)

    async def leave(self, game_id: int, user_id: int) -> Outcome:
        table = await self.tables.get(game_id)
        async with table.lock:
            require_lobby(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("error.not_seated", game=table.id)
            if user_id == table.game.host_id:
                raise TableError("error.host_leave")
            name = table.seats[seat].name
            return await self._change(
                table, lambda: self.storage.remove_seat(table.id, table.version, seat),
                "lobby.left", name=name, game=table.id)

    async def add_ai(self, game_id: int, user_id: int, level: str | None = None) -> Outcome:
        """A computer seat of ``level``; without one, the level the lobby suggests (for a
        table of newcomers, the game's level for newcomers)."""
        table = await self.tables.get(game_id)
        players = table.port.computers
        if level is None:
            await newcomers.know(self.storage, table)
            level = newcomers.suggested_level(table)
        if level not in players.levels():
            raise TableError("error.unknown_level", level=level,
                             levels=", ".join(players.levels()))
        async with table.lock:
            require_lobby(table)
            require_member(table, user_id)
            if len(table.seats) >= table.game.options["max_seats"]:
                raise TableError("error.table_full", seats=len(table.seats))
            n = sum(1 for s in table.seats if s.user_id is None) + 1
            with public(table):  # the seat's name is shown to everyone
                name = t("ai.name", n=n, level=t(f"level.{level}"))
            return await self._change(
                table, lambda: self.storage.add_seat(table.id, table.version, None, level, name),
                "lobby.bot_added", name=name, game=table.id)

    async def remove_ai(self, game_id: int, user_id: int) -> Outcome:
        table = await self.tables.get(game_id)
        async with table.lock:
            require_lobby(table)
            require_member(table, user_id)
            bots = [s for s in table.seats if s.user_id is None]
            if not bots:
                raise TableError("error.no_bot_seat")
            last = bots[-1]
            return await self._change(
                table, lambda: self.storage.remove_seat(table.id, table.version, last.seat),
                "lobby.bot_removed", name=last.name, game=table.id)

    async def start(self, game_id: int, user_id: int) -> Outcome:
        table = await self.tables.get(game_id)
        async with table.lock:
            require_lobby(table)
            if user_id != table.game.host_id:
                raise TableError("error.host_only", host=table.game.host_id)
            rules = table.port.rules
            if len(table.seats) < rules.min_players:
                raise TableError("error.too_few", min=rules.min_players, have=len(table.seats))
            # who is in their first games: the first turn message may carry their tip
            await newcomers.know(self.storage, table)
            if self.tips is not None:
                await self.tips.know(table)
            options = dict(table.game.options)
            options.setdefault("seed", self.seed())
            # the game's first position, by the current rules, its seed committed to
            started_game = rules.start(len(table.seats), options)
            options, state, events = started_game.options, started_game.state, started_game.events
            salt, digest = started_game.salt, started_game.commitment
            since = next_since(rules, {}, state, None, table.version + 1)

            def started(table: Table) -> None:
                table.game.status = ACTIVE
                table.game.options = options
                table.game.seed_salt, table.game.seed_commitment = salt, digest
                table.state = state

            def told(table: Table) -> Outcome:
                outcome = self.outcomes.play(table, None, events, actor=None,
                                             kind=OutcomeKind.START)
                with public(table):
                    name = table.port.show.seat_name
                    colours = [t("lobby.seat_colour", colour=name(s.seat), name=s.name)
                               for s in table.seats]
                    outcome.lines = [t("lobby.started", game=table.id), *colours,
                                     t("shuffle.commitment", commitment=digest),
                                     *outcome.lines]
                return outcome

            outcome = await self.commits.commit(table, Change(
                lambda rows: self.storage.start(table.id, table.version, options,
                                                state.to_json(), rows, seed_salt=salt,
                                                seed_commitment=digest),
                self.clocks.plan(table, since), since=since, update=started), told)
            self.announcer.enqueue(outcome)
        self.computers.kick(table)
        return outcome

    async def cancel(self, game_id: int, user_id: int, *, can_manage: bool = False) -> Outcome:
        try:
            table = await self.tables.get(game_id)
        except TableError as exc:
            if exc.key != "error.game_set_aside":
                raise
            return await self._cancel_set_aside(game_id, user_id, can_manage)
        async with table.lock:
            if table.game.status not in (LOBBY, ACTIVE):
                raise TableError("error.not_active", game=table.id)
            if user_id != table.game.host_id and not can_manage:
                raise TableError("error.cancel_denied", host=table.game.host_id)

            def cancelled(table: Table) -> None:
                table.game.status = CANCELLED

            def told(table: Table) -> Outcome:
                with public(table):
                    line = t("lobby.cancelled", game=table.id, user=user_id)
                return self.outcomes.cancelled(table, [line])

            outcome = await self.commits.commit(table, Change(
                lambda rows: self.storage.set_status(table.id, table.version, CANCELLED, rows),
                self.clocks.stopped(), since={}, update=cancelled), told)
            self.announcer.enqueue(outcome)
        self.computers.stop(table.id)
        return outcome

    async def _cancel_set_aside(self, game_id: int, user_id: int, can_manage: bool
                                ) -> Outcome:
        """Cancel a game that cannot be loaded, so its channel is free again: only its
        number columns are needed (there is no loaded table to commit to)."""
        ref = await self.storage.game_ref(game_id)
        if ref is None:
            raise TableError("error.no_game")
        if user_id != ref.host_id and not can_manage:
            raise TableError("error.cancel_denied", host=ref.host_id)
        try:
            version = await self.storage.set_status(game_id, ref.version, CANCELLED)
        except VersionConflict:
            raise Stale() from None
        self.tables.repaired(game_id)
        self.tables.channel_closed(ref.channel_id)
        outcome = Outcome(game_id, ref.channel_id, ref.guild_id, version, OutcomeKind.CANCEL,
                          [t("lobby.cancelled", game=game_id, user=user_id)], panel=Panel(""))
        self.announcer.enqueue(outcome)
        return outcome

    async def rematch(self, game_id: int, user_id: int, name: str) -> Reply:
        """Open the rematch of finished game ``game_id`` (or join it, if it is open): see
        :mod:`bot.table.rematch`."""
        old = rematch.check(await self.storage.game(game_id), game_id)
        seats = await self.storage.seats(game_id)
        rematch.check_player(seats, game_id, user_id)
        current = await self.storage.open_game_in_channel(old.channel_id)
        if current is not None:
            if not rematch.is_rematch_of(current, game_id):
                raise TableError("error.rematch_busy", game=current.id)
            outcome = await self.join(current.id, user_id, name)
            return Reply(text=t("rematch.joined", game=current.id), outcome=outcome)
        opening = rematch.opening(old, seats, user_id)
        outcome = await self.create(old.guild_id, old.channel_id, user_id, name,
                                    **opening.arguments)
        new_id = outcome.game_id
        for level in opening.computers:
            outcome = await self.add_ai(new_id, user_id, level)
        return Reply(text=opening.line(game_id, new_id), outcome=outcome)
