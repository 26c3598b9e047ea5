"""Other processes (bot.cluster.coordinator): catching up with what another process committed to a
game, step by step when possible, announced by the game's owner.

Part of :class:`bot.table.service.TableService` (see there for how the parts fit).
"""

from __future__ import annotations

import logging
from dataclasses import fields, replace

import engine
from bot.store import ACTIVE, CANCELLED, FINISHED, LOBBY, ActionRow, GameRow
from bot.table.base import TableBase
from bot.table.model import (
    Outcome,
    Table,
    next_since,
)
from bot.table.ui import (
    Panel,
)
from bot.tempus.labels import action_label, colour_name
from engine.actions import Action, action_from_json
from engine.events import Event
from engine.state import OVER
from engine.undo import is_undo
from lang.messages import t
from render.positions import last_move_of

log = logging.getLogger(__name__)


class SyncMixin(TableBase):

    async def refresh(self, game_id: int, version: int | None = None) -> bool:
        """Catch up with what another process committed to ``game_id`` (bot.cluster.coordinator):
        read it from storage, announce it if this process owns the game, let the computer
        players go on. ``version``: the version it made, if known (nothing to do if this
        process has it already). Returns whether anything changed.

        A game this process owns but has not loaded (never, or unloaded after being idle,
        ``unload_idle``) is rebuilt as last announced here (``announced_version``) and
        brought up to date step by step, so the owner announces the other process's
        actions as its own, a finish with its result included; in the lobby or cancelled,
        its current panel is announced."""
        table = self._tables.get(game_id)
        if table is None:
            if game_id in self.set_aside:
                return False
            game = await self.storage.game(game_id)
            if (game is None or not self.owns(game.guild_id)
                    or (game.announced_version or 0) >= game.version):
                return False  # not this process's to announce, or nothing new
            table = await self._adopt(game)
            if table is None:  # another task loaded it meanwhile: catch up as loaded
                return await self.refresh(game_id, version)
            try:
                changed = await self._catch_up(table)
            except BaseException:
                if self._tables.get(game_id) is table:
                    del self._tables[game_id]  # loaded afresh (or set aside) at next use
                raise
            finally:
                table.lock.release()
            self._kick_ai(table)
            return changed
        if version is not None and table.version >= version:
            return False
        async with table.lock:
            changed = await self._catch_up(table)
        if changed:
            self._kick_ai(table)
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
            if not self.owns(ref.guild_id) or ref.id in self.set_aside:
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
        async with self._load_locks(game.id):
            if game.id in self._tables:
                return None
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
            await table.lock.acquire()  # a new lock: free
            self._tables[game.id] = table
        return table

    async def _at_announced(self, game: GameRow) -> Table | None:
        """``game`` replayed up to its announced version (None when that is not an active
        game's version or the log does not number its entries)."""
        upto = game.announced_version
        if upto is None or game.status == LOBBY:
            return None
        rows = await self.storage.actions(game.id)
        if not rows or any(r.version is None for r in rows):
            return None
        started = rows[0].version - 1
        if not started <= upto < game.version:
            return None
        table = Table(replace(game, version=upto, status=ACTIVE),
                      await self.storage.seats(game.id))
        state, _ = self._record(table).new_state()
        since = next_since({}, state, None, started)
        n = 0
        for row in rows:
            assert row.version is not None
            if row.version > upto:
                break
            if is_undo(row.action):
                state = table.timeline.undo(row.seat)
                table.moves.pop()
            else:
                action = action_from_json(row.action)
                before = state.copy()
                events = engine.apply_in_place(state, row.seat, action)
                table.timeline.record(before, row.seat, action, events, state)
                table.moves.append((row.seat, action))
            since = next_since(since, state, row.seat, row.version)
            n += 1
        if state.phase == OVER:
            return None  # announced as finished already (the version is behind: reload)
        table.state, table.since, table.log_len = state, since, n
        return table

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
        # the clocks and covered seats as stored with the change (a covered seat whose
        # person acted in the other process is no longer covered there)
        await self._rearm(table)
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
