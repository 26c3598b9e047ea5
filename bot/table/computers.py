"""Computer players: one task per game lets computer seats act until a person must decide.

Part of :class:`bot.table.service.TableService` (see there for how the parts fit).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging

from bot.store import ACTIVE
from bot.table.base import TableBase
from bot.table.model import (
    StorageRefusal,
    Table,
    TableError,
    key_text,
)
from bot.tempus import computer_levels as players
from engine.actions import Action
from engine.game import to_act
from engine.state import State
from engine.views import view

log = logging.getLogger(__name__)


class ComputerMixin(TableBase):

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
        key = key_text(table.state)
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
            if self._ai_tasks.get(table.id) is asyncio.current_task():
                del self._ai_tasks[table.id]  # a waiting game keeps no finished task

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
