"""Telling a game's owner process that another process committed a change (PostgreSQL
``LISTEN``/``NOTIFY``).

The sender calls :func:`notify` inside the transaction that made the change, so the message
is delivered when (and only if) that transaction commits. The payload is ``"<game>:<version>"``.
A notification is a hint, never the data: the receiver reloads the game from the database.
Notifications sent while the owner is not listening are lost by design (PostgreSQL keeps them
only for current listeners); the owner makes up for that with a resync (``on_connect``)
whenever it starts listening, and at start-up it re-announces every game whose announced
version is behind (``TableService.resume_all``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg

log = logging.getLogger(__name__)

CHANNEL = "tempus_game"


def payload(game_id: int, version: int) -> str:
    return f"{game_id}:{version}"


def parse(text: str) -> tuple[int, int] | None:
    """``(game, version)`` from a payload; None for anything else (never raises)."""
    game, sep, version = text.partition(":")
    if not sep:
        return None
    try:
        return int(game), int(version)
    except ValueError:
        return None


async def notify(con: asyncpg.Connection, game_id: int, version: int,
                 channel: str = CHANNEL) -> None:
    """Queue a notification; inside a transaction it goes out at commit."""
    await con.execute("SELECT pg_notify($1, $2)", channel, payload(game_id, version))


Handler = Callable[[int, int], Awaitable[None]]


class Listener:
    """One dedicated connection that ``LISTEN``s on :data:`CHANNEL` and calls ``on_change``
    for each notification: one call at a time per game (games in parallel), notifications
    that arrive meanwhile coalesced into one call with the newest version. Reconnects after
    a lost connection and then calls ``on_connect`` so that the owner can catch up on what
    it missed."""

    def __init__(self, url: str, on_change: Handler, *,
                 on_connect: Callable[[], Awaitable[None]] | None = None,
                 channel: str = CHANNEL, retry_s: float = 1.0) -> None:
        self.url = url
        self.on_change = on_change
        self.on_connect = on_connect
        self.channel = channel
        self.retry_s = retry_s
        #: per game, the newest version heard of and not yet handled
        self._pending: dict[int, int] = {}
        self._running: dict[int, asyncio.Task[None]] = {}
        self._con: asyncpg.Connection | None = None
        self._lost = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self.connected = asyncio.Event()

    async def start(self) -> None:
        """Listen (the first connection is made before this returns, so a failure to reach
        the database shows at start-up) and keep listening in the background."""
        await self._connect()
        self._tasks = [asyncio.create_task(self._keep(), name="tempus-listen")]

    async def close(self) -> None:
        tasks = [*self._tasks, *self._running.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks = []
        self._running.clear()
        if self._con is not None:
            with contextlib.suppress(Exception):
                await self._con.close(timeout=2)
            self._con = None

    async def _connect(self) -> None:
        con = await asyncpg.connect(self.url)
        self._lost.clear()
        con.add_termination_listener(lambda _c: self._lost.set())
        await con.add_listener(self.channel, self._received)
        self._con = con
        self.connected.set()
        if self.on_connect is not None:
            try:
                await self.on_connect()
            except Exception:
                log.exception("catching up after (re)connecting failed")

    def _received(self, _con: Any, _pid: int, _channel: str, text: str) -> None:
        parsed = parse(text)
        if parsed is None:
            log.warning("ignored a malformed notification: %r", text)
            return
        game_id, version = parsed
        if version > self._pending.get(game_id, -1):
            self._pending[game_id] = version
        if game_id not in self._running:
            self._running[game_id] = asyncio.create_task(self._run(game_id),
                                                         name=f"tempus-foreign-{game_id}")

    async def _keep(self) -> None:
        while True:
            await self._lost.wait()
            self.connected.clear()
            log.warning("lost the LISTEN connection to the database; reconnecting")
            self._con = None
            while True:
                try:
                    await self._connect()
                    break
                except (TimeoutError, OSError, asyncpg.PostgresError):
                    await asyncio.sleep(self.retry_s)
                except Exception:
                    log.exception("reconnecting the LISTEN connection failed")
                    await asyncio.sleep(self.retry_s)

    async def _run(self, game_id: int) -> None:
        try:
            while game_id in self._pending:
                version = self._pending.pop(game_id)
                try:
                    await self.on_change(game_id, version)
                except Exception:
                    log.exception("game %s: handling a change from another process failed",
                                  game_id)
        finally:
            self._running.pop(game_id, None)

    async def idle(self) -> None:
        """Until every notification received so far has been handled."""
        while self._running:
            await asyncio.gather(*list(self._running.values()), return_exceptions=True)
