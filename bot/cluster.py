"""Several bot processes on one PostgreSQL database: who works for which game, and telling
the owner about changes made elsewhere.

Wiring (``attach``), for a process that runs only some of the shards:

- the table service works (computer players, announcements) only for games it owns
  (``TableService.owns``, :mod:`bot.ownership`);
- storage sends a ``NOTIFY`` with every change it commits for a game this process does not
  own (``PgStorage.notify_when``), in the same transaction;
- a listener hears the notifications for this process's games and lets the table service
  catch up and announce (``TableService.refresh``); after (re)connecting it checks every
  active game it owns, so a notification missed while it was away loses nothing;
- the turn clock runs in the owner only: a change accepted elsewhere is stored with the
  deadlines it implies, and the owner arms them when it catches up
  (``TableService._rearm``); the other process's scheduler holds nothing for the game.

A process that runs every shard (the default) owns every game: nothing to wire.
"""

from __future__ import annotations

import logging
from typing import Any

from .notify_pg import Listener
from .ownership import Ownership
from .storage import ACTIVE

log = logging.getLogger(__name__)


class Cluster:
    def __init__(self, service: Any, storage: Any, ownership: Ownership) -> None:
        self.service = service
        self.storage = storage
        self.ownership = ownership
        self.listener: Listener | None = None

    async def start(self) -> None:
        owns = self.ownership.owns
        self.service.owns = owns
        self.storage.notify_when = lambda guild_id: not owns(guild_id)
        self.listener = Listener(self.storage.url, self._changed, on_connect=self.resync)
        await self.listener.start()
        log.info("sharing games with other processes: shards %s of %s",
                 sorted(self.ownership.shard_ids or ()), self.ownership.shard_count)

    async def _changed(self, game_id: int, version: int) -> None:
        await self.service.refresh(game_id, version)

    async def resync(self) -> None:
        """Catch up on every active game this process owns, and announce the finishes it
        has not announced (after missed notifications)."""
        # the number columns only: one damaged game cannot keep the others from catching up
        for ref in await self.storage.game_refs(ACTIVE):
            if self.ownership.owns(ref.guild_id):
                try:
                    await self.service.refresh(ref.id, ref.version)
                except Exception:
                    log.exception("game %s: catching up failed", ref.id)
        await self.service.announce_behind()

    async def idle(self) -> None:
        if self.listener is not None:
            await self.listener.idle()

    async def close(self) -> None:
        if self.listener is not None:
            await self.listener.close()
            self.listener = None


async def attach(service: Any, storage: Any, ownership: Ownership) -> Cluster | None:
    """Share games with other processes if this one runs only some shards on PostgreSQL;
    None when there is nothing to share (one process, or SQLite)."""
    if ownership.everything:
        return None
    if not hasattr(storage, "notify_when"):
        raise ValueError("TEMPUS_SHARDS splits the shards over several processes, which "
                         "must share a PostgreSQL database: set TEMPUS_DB=postgresql://...")
    cluster = Cluster(service, storage, ownership)
    await cluster.start()
    return cluster
