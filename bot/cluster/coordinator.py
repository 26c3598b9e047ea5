"""Several bot processes on one PostgreSQL database: who works for which game, and telling
the owner about changes made elsewhere.

Wiring (``attach``), for a process that runs only some of the shards:

- the table service works (computer players, announcements) only for games it owns
  (``TableService.owns``, :mod:`bot.cluster.ownership`);
- storage sends a ``NOTIFY`` with every change it commits for a game this process does not
  own (``PgStorage.notify_when``), in the same transaction;
- a listener hears the notifications for this process's games and lets the table service
  catch up and announce (``TableService.refresh``, step by step, also for a game it has
  unloaded); after (re)connecting it checks every active game it owns and every finish it
  has not announced, so a notification missed while it was away loses nothing;
- the turn clock runs in the owner only: a change accepted elsewhere is stored with the
  deadlines it implies, and the owner arms them when it catches up
  (``bot.table.clocks.Clocks.rearm``); the other process's scheduler holds nothing for the game.

A process that runs every shard (the default) owns every game: nothing to wire.

Each process claims its shards in the database before it works for any game
(:class:`ShardLocks`, PostgreSQL session-level advisory locks held while it runs): two
processes given the same shard, an unsharded process next to sharded ones, or processes
with different shard counts would each own the same games and post everything twice; the
second one to start refuses to, naming the shard (:class:`ShardsTaken`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
from typing import Any

import asyncpg

from bot.cluster.ownership import Ownership
from bot.store import ACTIVE, BUSY, SharedStore, StorageUnavailable
from bot.store.pg_notify import Listener
from lang.messages import t

log = logging.getLogger(__name__)

#: advisory lock keys (the two-int form; the migrations use the one-bigint form, a separate
#: key space): one per shard, held exclusively by the process that runs it ...
SHARD_LOCK = 0x74736864  # "tshd"
#: ... the whole bot: exclusive for a process running every shard, shared by sharded ones
WHOLE_LOCK = 0x7477686C  # "twhl"
#: ... and the shard count, shared by the sharded processes that use it
COUNT_LOCK = 0x74636E74  # "tcnt"


#: granted two-int advisory locks of this database (advisory locks are per database: a bot
#: on another database of the same server is another bot)
_OURS = ("l.locktype = 'advisory' AND l.objsubid = 2 AND l.granted AND l.database = "
         "(SELECT oid FROM pg_database WHERE datname = current_database())")


class ShardsTaken(StorageUnavailable):
    """Another process on the database already runs (some of) this process's shards;
    the message says which and who, for the operator."""

    def __init__(self, detail: str) -> None:
        super().__init__(BUSY, detail)


def _me() -> str:
    """This process, as the other processes name it (PostgreSQL's application_name)."""
    return f"tempus {os.getpid()} {socket.gethostname()}"[:63]


def _who(application_name: str | None) -> str:
    parts = (application_name or "").split(" ", 2)
    if len(parts) == 3 and parts[0] == "tempus" and parts[1].isdigit():
        return t("error.store_in_use.who_host", pid=parts[1], host=parts[2])
    return t("error.store_in_use.unknown")


class ShardLocks:
    """This process's claim on its shards: one connection holding session-level advisory
    locks (released when the process ends or the connection closes)."""

    def __init__(self, url: str, ownership: Ownership) -> None:
        self.url = url
        self.ownership = ownership
        self._con: asyncpg.Connection | None = None

    async def take(self) -> None:
        """Claim the shards, or raise :class:`ShardsTaken` (holding nothing then)."""
        con = await asyncpg.connect(self.url, server_settings={"application_name": _me()})
        try:
            await self._claim(con)
        except BaseException:
            with contextlib.suppress(Exception):
                await con.close(timeout=2)
            raise
        con.add_termination_listener(self._lost)
        self._con = con

    def _lost(self, con: asyncpg.Connection) -> None:
        if con is self._con:  # not closed by close()
            log.error("lost the connection that holds this process's shards: another "
                      "process could now start on them; restart this process")

    async def _claim(self, con: asyncpg.Connection) -> None:
        o = self.ownership
        if o.everything:
            if not await con.fetchval("SELECT pg_try_advisory_lock($1, 0)", WHOLE_LOCK):
                raise ShardsTaken(t("cluster.every_shard_taken",
                                    who=await self._holder(con, WHOLE_LOCK, 0)))
            return
        assert o.shard_ids is not None and o.shard_count is not None
        if not await con.fetchval("SELECT pg_try_advisory_lock_shared($1, 0)", WHOLE_LOCK):
            raise ShardsTaken(t("cluster.shards_run_whole",
                                who=await self._holder(con, WHOLE_LOCK, 0)))
        await con.execute("SELECT pg_advisory_lock_shared($1, $2)", COUNT_LOCK, o.shard_count)
        other = await con.fetchrow(
            "SELECT l.objid::bigint AS count, a.application_name FROM pg_locks l "
            f"LEFT JOIN pg_stat_activity a ON a.pid = l.pid WHERE {_OURS} "
            "AND l.classid = $1::bigint::oid AND l.objid <> $2::bigint::oid LIMIT 1",
            COUNT_LOCK, o.shard_count)
        if other is not None:
            raise ShardsTaken(t("cluster.shard_count_differs", other=other["count"],
                                count=o.shard_count, who=_who(other["application_name"])))
        for shard in sorted(o.shard_ids):
            if not await con.fetchval("SELECT pg_try_advisory_lock($1, $2)", SHARD_LOCK,
                                      shard):
                raise ShardsTaken(t("cluster.shard_taken", shard=shard, count=o.shard_count,
                                    who=await self._holder(con, SHARD_LOCK, shard)))

    @staticmethod
    async def _holder(con: asyncpg.Connection, key: int, sub: int) -> str:
        name = await con.fetchval(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a "
            f"ON a.pid = l.pid WHERE {_OURS} AND l.classid = $1::bigint::oid "
            "AND l.objid = $2::bigint::oid AND l.pid <> pg_backend_pid() LIMIT 1", key, sub)
        return _who(name)

    async def close(self) -> None:
        if self._con is not None:
            con, self._con = self._con, None
            with contextlib.suppress(Exception):
                await con.close(timeout=2)


class Cluster:
    def __init__(self, service: Any, storage: SharedStore, ownership: Ownership) -> None:
        self.service = service
        self.storage = storage
        self.ownership = ownership
        self.listener: Listener | None = None
        self.locks: ShardLocks | None = None

    async def start(self) -> None:
        """Claim this process's shards (:class:`ShardsTaken` if another process runs one
        of them), then, if it runs only some of them, listen for the other processes'
        changes. Call it before the process works for any game (before
        ``TableService.resume_all``)."""
        self.locks = ShardLocks(self.storage.url, self.ownership)
        await self.locks.take()
        if self.ownership.everything:
            log.info("running every shard on a shared database")
            return
        owns = self.ownership.owns
        self.service.owns = owns
        self.storage.notify_when = lambda guild_id: not owns(guild_id)
        self.listener = Listener(self.storage.url, self._changed, on_connect=self.resync)
        await self.listener.start()
        log.info("sharing games with other processes: shards %s of %s",
                 sorted(self.ownership.shard_ids or ()), self.ownership.shard_count)

    async def _changed(self, game_id: int, version: int) -> None:
        await self.service.sync.refresh(game_id, version)

    async def resync(self) -> None:
        """Catch up on every active game this process owns, and announce the finishes it
        has not announced (after missed notifications)."""
        # the number columns only: one damaged game cannot keep the others from catching up
        for ref in await self.storage.game_refs(ACTIVE):
            if self.ownership.owns(ref.guild_id):
                try:
                    await self.service.sync.refresh(ref.id, ref.version)
                except Exception:
                    log.exception("game %s: catching up failed", ref.id)
        await self.service.sync.announce_behind()

    async def idle(self) -> None:
        if self.listener is not None:
            await self.listener.idle()

    async def close(self) -> None:
        if self.listener is not None:
            await self.listener.close()
            self.listener = None
        if self.locks is not None:
            await self.locks.close()
            self.locks = None


async def attach(service: Any, storage: Any, ownership: Ownership) -> Cluster | None:
    """On PostgreSQL: claim this process's shards and, if it runs only some of them, share
    games with the other processes. None on SQLite (one process: its file lock says so).
    Call it before the process works for any game."""
    if not hasattr(storage, "notify_when"):
        if ownership.everything:
            return None
        raise ValueError("TEMPUS_SHARDS splits the shards over several processes, which "
                         "must share a PostgreSQL database: set TEMPUS_DB=postgresql://...")
    cluster = Cluster(service, storage, ownership)
    try:
        await cluster.start()
    except BaseException:
        await cluster.close()
        raise
    return cluster
