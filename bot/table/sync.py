"""Catching up with the store: after a restart (:meth:`Sync.resume_all`: the games go on,
what was stored but never announced is announced), and with what another process
(bot.cluster.coordinator) committed to a game (:meth:`Sync.refresh`), announced by the
game's owner.

A use case: the bringing up to date itself is :class:`~bot.table.catch_up.CatchUp`'s.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from bot.store import ACTIVE, FINISHED, LOBBY, GameRow
from bot.table.model import (
    Outcome,
    OutcomeKind,
    StorageRefusal,
    Table,
    TableError,
    next_since,
    public,
    replay_move,
)
from bot.table.parts import UseCase
from lang.messages import t

log = logging.getLogger(__name__)


class Sync(UseCase):
    # ------------------------------------------------------------------ a restart
    async def resume_all(self) -> list[int]:
        """Load every active game and let computer players go on; returns the ids of the
        games resumed. Each game is loaded on its own: one that cannot be read is set
        aside (``Tables.set_aside``, for the application to tell its channel) and the
        others start normally. Then the finishes committed but never announced (this
        process stopped first, or another one finished the game meanwhile) are announced
        (:meth:`announce_behind`)."""
        ids = []
        for ref in await self.storage.game_refs(ACTIVE):
            if not self.owns(ref.guild_id):
                continue  # its owner resumes it
            # caught up already (bot.cluster.coordinator, which starts first): its news are
            # on the way
            caught_up = ref.id in self.tables
            try:
                table = await self.tables.get(ref.id)
            except StorageRefusal as exc:  # not the game's fault: loaded at its next use
                log.error("game %s: not resumed, the storage is unavailable: %s", ref.id, exc)
                continue
            except TableError:
                aside = self.tables.set_aside.get(ref.id)
                if aside is not None:  # set aside, logged: its channel is told once
                    where = ref.thread_id or ref.channel_id
                    self.announcer.queue(Outcome(
                        ref.id, ref.channel_id, ref.guild_id, 0, OutcomeKind.NOTICE,
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
            if self.clocks.timed:
                await self._resume_clock(table)
            self.computers.kick(table)
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
        outcome = self.outcomes.play(table, table.state, events, actor=None,
                                     kind=OutcomeKind.RESUME)
        show = table.port.show
        with public(table):
            lines = [t("resume.reposted", game=table.id)]
            for seat, action, step in missed:
                if step is None:
                    lines.append(t("undo.done", colour=show.seat_name(seat),
                                   what=show.action_label(action)))
                else:
                    lines.extend(show.event_lines(step))
            outcome.lines = lines
        self.announcer.enqueue(outcome)

    async def _resume_clock(self, table: Table) -> None:
        """Re-arm the game's deadlines; announce the ones that passed while we were down."""
        async with table.lock:
            try:
                late = await self.clocks.resume(table)
            except Exception:
                log.exception("game %s: cannot re-arm its deadlines", table.id)
                return
            if not late:
                return
            due = min(table.clock[s].due_at or 0 for s in late)
            with public(table):
                name = table.port.show.seat_name
                who = ", ".join(f"<@{table.seats[s].user_id}> ({name(s)})" for s in late)
                line = t("clock.restart_late", who=who, when=int(due))
            # the seats whose deadline passed have people (computers have no clock)
            self.announcer.queue(self.outcomes.notice(
                table, line, [u for s in late if (u := table.seats[s].user_id) is not None]))

    # ------------------------------------------------------------------ other processes
    async def refresh(self, game_id: int, version: int | None = None) -> bool:
        """Catch up with what another process committed to ``game_id``
        (bot.cluster.coordinator): read it from storage, announce it if this process owns
        the game, let the computer players go on. ``version``: the version it made, if
        known (nothing to do if this process has it already). Returns whether anything
        changed.

        A game this process owns but has not loaded (never, or unloaded after being idle,
        ``unload_idle``) is rebuilt as last announced here (``announced_version``) and
        brought up to date step by step, so the owner announces the other process's
        actions as its own, a finish with its result included; in the lobby or cancelled,
        its current panel is announced."""
        table = self.tables.cached(game_id)
        if table is None:
            if game_id in self.tables.set_aside:
                return False
            game = await self.storage.game(game_id)
            if (game is None or not self.owns(game.guild_id)
                    or (game.announced_version or 0) >= game.version):
                return False  # not this process's to announce, or nothing new
            table = await self._adopt(game)
            if table is None:  # another task loaded it meanwhile: catch up as loaded
                return await self.refresh(game_id, version)
            try:
                changed = await self.catch_up(table)
            except BaseException:
                self.tables.forget(table)  # loaded afresh (or set aside) at next use
                raise
            finally:
                table.lock.release()
            self.computers.kick(table)
            return changed
        if version is not None and table.version >= version:
            return False
        async with table.lock:
            changed = await self.catch_up(table)
        if changed:
            self.computers.kick(table)
        return changed

    async def announce_behind(self) -> list[int]:
        """Announce the finishes of this process's games that were committed but never
        announced (this process stopped first, or another process finished the game while
        this one was down or not listening); returns their ids. Active games are caught up
        by ``resume_all`` and ``Cluster.resync``. A finish is announced with its result,
        which the publisher stores (results and ratings). Games announced never at all
        (``announced_version`` unknown: from before schema 3) are left alone, as are
        lobbies and cancels, whose posts do not note a version."""
        done = []
        for ref in await self.storage.game_refs_behind(FINISHED):
            if not self.owns(ref.guild_id) or ref.id in self.tables.set_aside:
                continue
            try:
                if await self.refresh(ref.id, ref.version):
                    done.append(ref.id)
            except Exception:
                log.exception("game %s: announcing its finish failed", ref.id)
        return done

    async def _adopt(self, game: GameRow) -> Table | None:
        """A table for ``game`` (not loaded here) at the version this process last
        announced, registered as loaded with its lock held (the caller catches it up and
        releases it); None if it was loaded meanwhile. An active game whose log holds every
        step since that version is rebuilt there (the catch-up then goes step by step);
        anything else gets an empty table one version behind (the catch-up reloads it
        fully and announces the position: lobby, cancel or board)."""
        async def build() -> Table:
            table: Table | None = None
            try:
                table = await self._at_announced(game)
            except Exception:
                log.exception("game %s: cannot rebuild it as last announced; reloading",
                              game.id)
            if table is None:
                behind = min(game.announced_version or 0, game.version - 1)
                table = Table(replace(game, version=behind, status=LOBBY),
                              await self.storage.seats(game.id))
            return table

        return await self.tables.adopt(game.id, build)

    async def _at_announced(self, game: GameRow) -> Table | None:
        """``game`` replayed up to its announced version (None when that is not an active
        game's version or the log does not number its entries)."""
        upto = game.announced_version
        if upto is None or game.status == LOBBY:
            return None
        rows = await self.storage.actions(game.id)
        if not rows or rows[0].version is None or any(r.version is None for r in rows):
            return None
        started = rows[0].version - 1
        if not started <= upto < game.version:
            return None
        table = Table(replace(game, version=upto, status=ACTIVE),
                      await self.storage.seats(game.id))
        rules = table.port.rules
        state = rules.first_state(table.game.options, len(table.seats))
        since = next_since(rules, {}, state, None, started)
        n = 0
        for row in rows:
            assert row.version is not None
            if row.version > upto:
                break
            if rules.is_undo(row.action):
                state = table.timeline.undo(row.seat)
                table.moves.pop()
            else:
                replay_move(table, state, row.seat, rules.action_from_json(row.action))
            since = next_since(rules, since, state, row.seat, row.version)
            n += 1
        if rules.is_over(state):
            return None  # announced as finished already (the version is behind: reload)
        table.state, table.since, table.log_len = state, since, n
        return table

    async def clock_of_foreign_game(self, table: Table) -> None:
        """Before a click on another process's game: its clocks as stored now (the owner's
        reminders change them without a new version), so that the change planned here
        keeps them."""
        async with table.lock:
            await self.clocks.rearm(table)
