"""An asyncio event loop whose clock skips the time in which nothing can happen.

The whole-game tests wait a lot: Discord's buckets (5 posts per 5 s per channel, kept by the
bot's outboxes and by the fake's 429s), the bot's global request pacing, the computers'
pause, discord.py's own retry sleeps. All of them are timers of the event loop
(``asyncio.sleep``, ``call_later``, ``wait_for``) measured with ``loop.time()``. This loop's
``time()`` is the real monotonic clock plus every stretch it skipped: when it is about to
block in ``select`` until its next timer, and nothing at all could happen before that
timer, it moves its clock to the timer instead of sleeping (the "autojump" of trio's
``MockClock(autojump_threshold=0)``, for asyncio).

"Nothing could happen" must include the work of other threads and bytes still travelling
between sockets, or time would jump while a board is drawn or a reply is on its way:

* work handed to an executor (``run_in_executor``, ``asyncio.to_thread``, ``getaddrinfo``)
  is counted until its thread finishes it (the result is already posted to the loop by
  then), and so is every call aiosqlite's connection thread runs;
* a socket with bytes its kernel has not sent yet (``SIOCOUTQNSD`` > 0) makes the loop
  wait in real time, a millisecond at a time, until they leave;
* while any of these is pending the loop blocks in ``select`` in real time, as any loop
  would;
* and before each jump the loop still waits ``GRACE`` seconds of real time for I/O: bytes
  sent over loopback are normally readable when ``send`` returns, but under load the
  kernel may finish delivering them a moment later (in ``ksoftirqd``).

* while a child process started on the loop (``asyncio.create_subprocess_exec``) runs, the
  loop keeps real time: it cannot tell when the child works for it.

What the loop cannot see is another process it did not start working for it (a PostgreSQL
server): tests that wait on one keep a standard loop. Real time still
passes inside the virtual clock (it is never frozen), so whatever takes CPU time takes as
long as it would: a slow acknowledgement still misses Discord's 3 seconds.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import fcntl
import functools
import selectors
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from typing import Any

#: how long the loop waits in real time for bytes still unsent before looking again
IN_FLIGHT_NAP = 0.001
#: the real time the loop gives the kernel to deliver what was sent before it jumps
GRACE = 0.0005
#: Linux's ioctl for the bytes of a socket's send queue not yet sent (linux/sockios.h)
SIOCOUTQNSD = 0x894B


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """A selector event loop whose clock jumps over idle waits (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        #: seconds skipped so far, and how many jumps (for the curious and for tests)
        self.skipped = 0.0
        self.jumps = 0
        self._work = 0
        self._work_lock = threading.Lock()
        self._children: weakref.WeakSet[Any] = weakref.WeakSet()
        self._selector = _JumpingSelector(self._selector, self)  # type: ignore[has-type]

    def time(self) -> float:
        return time.monotonic() + self.skipped

    # ------------------------------------------------------------------ work elsewhere
    @contextlib.contextmanager
    def working(self) -> Iterator[None]:
        """Time does not jump while this block runs (work another thread does for us)."""
        self._begin()
        try:
            yield
        finally:
            self._end()

    def _begin(self) -> None:
        with self._work_lock:
            self._work += 1

    def _end(self, _: object = None) -> None:
        with self._work_lock:
            self._work -= 1

    @property
    def threads_working(self) -> int:
        return self._work

    def run_in_executor(self, executor: Any, func: Callable[..., Any], *args: Any
                        ) -> asyncio.Future[Any]:
        # as BaseEventLoop.run_in_executor, counting the job until its thread is done
        self._check_closed()  # type: ignore[attr-defined]
        if executor is None:
            executor = self._default_executor  # type: ignore[attr-defined]
            self._check_default_executor()  # type: ignore[attr-defined]
            if executor is None:
                executor = concurrent.futures.ThreadPoolExecutor(thread_name_prefix="asyncio")
                self._default_executor = executor
        self._begin()
        try:
            job = executor.submit(func, *args)
        except BaseException:
            self._end()
            raise
        future = asyncio.wrap_future(job, loop=self)
        # added after wrap_future's own callback, which posts the result to this loop
        # first: when the count drops, the loop already has something to do
        job.add_done_callback(self._end)
        return future

    async def _make_subprocess_transport(self, *args: Any, **kwargs: Any) -> Any:
        transport = await super()._make_subprocess_transport(  # type: ignore[misc]
            *args, **kwargs)
        self._children.add(transport)
        return transport

    def children_running(self) -> bool:
        """Whether a child process started on this loop still runs."""
        return any(t.get_returncode() is None for t in list(self._children))

    # ------------------------------------------------------------------ bytes in flight
    def bytes_unsent(self) -> bool:
        """Whether a socket of this loop has bytes its kernel has not sent yet."""
        buf = bytearray(4)
        for key in list(self._selector.get_map().values()):
            fd = key.fd
            try:
                fcntl.ioctl(fd, SIOCOUTQNSD, buf)
            except OSError:  # not a socket (the loop's self-pipe) or already closed
                continue
            if int.from_bytes(buf, "little"):
                return True
        return False


class _JumpingSelector:
    """The loop's selector, except that a wait for the next timer with nothing else to
    wait for returns at once and moves the loop's clock to that timer."""

    def __init__(self, inner: selectors.BaseSelector, loop: VirtualTimeLoop) -> None:
        self._inner = inner
        self._loop = loop

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        if timeout is None or timeout <= 0:
            return self._inner.select(timeout)
        events = self._inner.select(0)
        if events:
            return events
        loop = self._loop
        if loop.threads_working or loop.children_running():
            return self._inner.select(timeout)  # a finished job, a child's output wake it
        if loop.bytes_unsent():
            return self._inner.select(min(timeout, IN_FLIGHT_NAP))
        started = time.monotonic()
        events = self._inner.select(min(timeout, GRACE))
        if events:
            return events
        loop.skipped += max(0.0, timeout - (time.monotonic() - started))
        loop.jumps += 1
        return []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def _track_aiosqlite() -> None:
    """Count every call aiosqlite's connection thread runs as work of the calling loop."""
    try:
        from aiosqlite import core
    except ImportError:  # pragma: no cover - aiosqlite is a dependency of the bot
        return
    conn = core.Connection
    if getattr(conn._execute, "_virtual_time", False):
        return

    def counted(method: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(method)
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            loop = asyncio.get_running_loop()
            if not isinstance(loop, VirtualTimeLoop):
                return await method(*args, **kwargs)
            with loop.working():
                return await method(*args, **kwargs)
        wrapper._virtual_time = True  # type: ignore[attr-defined]
        return wrapper

    conn._execute = counted(conn._execute)  # type: ignore[method-assign]
    conn._connect = counted(conn._connect)  # type: ignore[method-assign]
    conn.close = counted(conn.close)  # type: ignore[method-assign]  (awaits the thread's end)


def new_loop() -> VirtualTimeLoop:
    """A loop factory for pytest-asyncio (``pytest_asyncio_loop_factories``)."""
    _track_aiosqlite()
    return VirtualTimeLoop()
