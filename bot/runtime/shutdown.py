"""A clean stop on SIGTERM and SIGINT, within a bounded time.

``docker stop``, ``docker compose down``, systemd and Ctrl-C all send one of the two. The
bot then, in order:

1. takes no more clicks or commands: whoever uses one is told privately that the bot is
   restarting and to try again in a moment (``error.restarting``);
2. lets the interactions already being handled finish (at most ``INFLIGHT_S``);
3. stops the computer players and lets the queued writes go out (board edits, DMs, private
   menus retired), at most ``DRAIN_S``; what is still queued then is not lost: every
   change is stored before it is announced, and the next start announces what was stored
   but never shown (``TableService.announce_behind``);
4. closes everything (``TempusBot.close``: the scheduler, the workers, the outboxes, the
   stored DM menus, the database, the gateway) and the process exits 0.

A second signal, or a stop that is still not done after ``LIMIT_S``, ends the process at
once with status 1 (the database is never half-written: SQLite and PostgreSQL roll back an
unfinished transaction). Docker's default grace is 10 s, so ``LIMIT_S`` stays below it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import threading
from collections.abc import Awaitable, Callable, Iterator

log = logging.getLogger(__name__)

#: seconds for the interactions being handled, then for the queued writes
INFLIGHT_S = 3.0
DRAIN_S = 4.0
#: the whole stop, past which the process ends anyway (Docker kills after 10 s)
LIMIT_S = 9.0
SIGNALS = (signal.SIGTERM, signal.SIGINT)


class InFlight:
    """How many interactions are being handled now; :meth:`quiet` waits for none."""

    def __init__(self) -> None:
        self.count = 0
        self._quiet = asyncio.Event()
        self._quiet.set()

    @contextlib.contextmanager
    def track(self) -> Iterator[None]:
        self.count += 1
        self._quiet.clear()
        try:
            yield
        finally:
            self.count -= 1
            if self.count == 0:
                self._quiet.set()

    async def quiet(self) -> None:
        await self._quiet.wait()


async def bounded(what: str, job: Awaitable[object], seconds: float) -> bool:
    """Await ``job`` for at most ``seconds``; False (logged) if it had to be cut short."""
    try:
        await asyncio.wait_for(job, max(0.0, seconds))
        return True
    except TimeoutError:
        log.warning("stopping: %s took longer than %.0f s; going on", what, seconds)
        return False
    except Exception:
        log.exception("stopping: %s failed; going on", what)
        return False


class Shutdown:
    """Stops a running bot once, on the first signal (see the module docstring).

    ``begin``: take no more clicks; ``inflight``: the interactions being handled;
    ``settle``: stop the computers and write what is queued; ``close``: close it all."""

    def __init__(self, *, begin: Callable[[], None], inflight: InFlight,
                 settle: Callable[[], Awaitable[object]],
                 close: Callable[[], Awaitable[object]],
                 exit_now: Callable[[int], None] = os._exit) -> None:
        self._begin = begin
        self._inflight = inflight
        self._settle = settle
        self._close = close
        self._exit_now = exit_now
        self.task: asyncio.Task[None] | None = None
        self.signal: int | None = None
        self._watchdog: threading.Timer | None = None

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        for sig in SIGNALS:
            loop.add_signal_handler(sig, self.on_signal, sig)

    def on_signal(self, sig: int) -> None:
        if self.task is not None:
            log.warning("second %s while stopping: ending now", signal.Signals(sig).name)
            self._exit_now(1)
            return
        self.signal = sig
        log.info("%s: stopping (no more clicks; finishing what is under way)",
                 signal.Signals(sig).name)
        # a thread, not the event loop: it must fire even if the loop is stuck
        self._watchdog = threading.Timer(LIMIT_S, self._too_long)
        self._watchdog.daemon = True
        self._watchdog.start()
        self.task = asyncio.get_running_loop().create_task(self.stop(), name="tempus-stop")

    def _too_long(self) -> None:
        log.error("stopping took longer than %.0f s: ending the process now", LIMIT_S)
        logging.shutdown()
        self._exit_now(1)

    async def stop(self) -> None:
        loop = asyncio.get_running_loop()
        start = loop.time()
        self._begin()
        await bounded("the interactions under way", self._inflight.quiet(), INFLIGHT_S)
        await bounded("the queued writes", self._settle(), DRAIN_S)
        await bounded("closing", self._close(), LIMIT_S - 0.5 - (loop.time() - start))
        log.info("stopped cleanly in %.1f s", loop.time() - start)

    def disarm(self) -> None:
        """The process is about to exit normally: no watchdog."""
        if self._watchdog is not None:
            self._watchdog.cancel()
