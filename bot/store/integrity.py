"""Damage to the database noticed while the bot runs.

A damaged SQLite file (a failing disk, a copy over the live file, a bug elsewhere) does
not make every statement fail: the bot's connection keeps pages in its cache and appends
to the write-ahead log, so it could go on acknowledging actions into a file that will not
open after the next restart. Two things notice it:

* any statement that SQLite answers with SQLITE_CORRUPT or SQLITE_NOTADB ("database disk
  image is malformed") breaks the storage at once (``bot.store.sqlite``);
* :class:`IntegrityWatch` runs ``PRAGMA quick_check`` every ``every_s`` seconds
  (``TEMPUS_QUICK_CHECK_EVERY``, default 300; 0: never) on a connection of its own in a
  thread: O(pages) reading, no index cross-checks, so cheap; the bot goes on meanwhile.

A broken storage is what a file deleted under the bot already was: no action is
acknowledged any more (each is refused with the storage message), the players of the
games in play are told once, and the log says what to do (``python -m bot restore``:
the last backup and the journal of changes since, ``bot.operator.restore``).

A write that SQLite lets through but whose version check finds no game where there must
be one (a damaged page can answer so without an error) runs the quick check at once
(``SqliteStorage._check_soon``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.runtime.tasks import cancel_and_wait

log = logging.getLogger(__name__)

DEFAULT_EVERY_S = 300.0


class IntegrityWatch:
    """Calls ``check`` (the storage's ``quick_check``) every ``every_s`` seconds."""

    def __init__(self, check: Callable[[], Awaitable[list[str]]], every_s: float) -> None:
        self.check = check
        self.every_s = every_s
        self.runs = 0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.every_s > 0 and self._task is None:
            self._task = asyncio.create_task(self._run(), name="tempus-quick-check")

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every_s)
            try:
                problems = await self.check()
            except Exception:
                log.exception("the database's quick check failed to run")
                continue
            self.runs += 1
            if problems:
                log.error("the database's quick check found %d problem(s): %s",
                          len(problems), "; ".join(problems[:5]))

    async def close(self) -> None:
        await cancel_and_wait(self._task)
        self._task = None
