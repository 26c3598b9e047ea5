"""Running CPU-heavy work (rendering, computer players) off the event loop.

With ``workers > 0`` a pool of worker processes does the work, so that neither Pillow's
pure-Python parts nor an AI search hold the GIL while the bot must acknowledge
interactions within Discord's 3 seconds. With ``workers == 0`` threads are used (tests,
the console). ``workers=None`` means one process per CPU core.

Three guarantees beyond a plain pool:

- **Newest wins.** :meth:`Offloader.latest` takes a key (say ``("board", game_id)``):
  a job that has not started when a newer job with the same key arrives is dropped and
  its caller gets :class:`Superseded`, so a board that is already out of date is never
  drawn. Jobs wait in the bot process (at most one in flight per worker), not inside
  the pool, which is what makes dropping them possible.
- **No orphans.** Every worker watches the process that started it and exits at once
  when it is gone, however it ended (``SIGKILL`` included): the worker's parent changes
  when its parent dies, which a thread in the worker notices within
  :data:`PARENT_POLL_S`. (Linux's ``PR_SET_PDEATHSIG`` is not used: it fires when the
  *thread* that started the worker ends, and a pool starts workers from whichever
  thread submits work.)
- **Boards people wait on first.** A job may carry a level (lower first: the board of a
  game in which a person just acted before one only computers are playing); waiting jobs
  start by level, then in arrival order, and a job gains a level for every
  :data:`AGING` seconds it waits, so none starves. Under load, a person's board no longer
  waits behind every computer move of a thousand games. A job waiting under a key can be
  **promoted** (:meth:`Offloader.promote`): a game's board that began waiting as a
  computer move's waits as a person's once a person waits on what it will draw.
- **A dead worker is replaced.** If a worker dies (killed, out of memory), a new one is
  started and the job that was running tries once more.

The worker processes are the pool's own (:class:`_Worker`), not a
``concurrent.futures.ProcessPoolExecutor``: each is a process spoken to over a socket that
the event loop reads and writes itself. An executor hands every job and result through
two threads of its own (a manager and a queue feeder) and back with
``call_soon_threadsafe``; at a few jobs per action those hops, the threads' fight for the
GIL and the loop's wake-ups cost the bot process more CPU than pickling the jobs does.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import heapq
import itertools
import logging
import multiprocessing
import os
import pickle
import socket
import struct
import threading
import time
import traceback
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar, cast

from bot.runtime.heap import keep_freed_pages

T = TypeVar("T")
log = logging.getLogger(__name__)

#: How often a worker checks that the bot process is still there (seconds).
PARENT_POLL_S = 0.25
#: Jobs in flight at once in thread mode (``workers == 0``).
THREAD_SLOTS = 4
#: seconds of waiting that count as one level (bot.publish.request_pace uses the same rule)
AGING = 5.0


class _Gate:
    """At most ``slots`` jobs at once; a free slot goes to the waiting job of the lowest
    level (aged by its wait), then the earliest.

    A job's rank, ``level - waited / AGING``, is ``(level * AGING + arrival - now) /
    AGING``: as time passes every rank falls alike, so the order of waiting jobs never
    changes and a heap keyed by ``level * AGING + arrival`` gives the next one. (Scanning
    every waiting job at each release took a tenth of the bot's event loop with a
    thousand boards waiting.)"""

    def __init__(self, slots: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.free = slots
        self.clock = clock
        self._waiting: list[tuple[float, int, asyncio.Future[None]]] = []  # a heap
        self._seq = itertools.count()
        #: waiting jobs that may be promoted: key -> [level, arrival, future]
        self._keyed: dict[Hashable, list[Any]] = {}

    @contextlib.asynccontextmanager
    async def slot(self, level: int = 0, key: Hashable | None = None) -> AsyncIterator[None]:
        if self.free > 0 and not self._waiting:
            self.free -= 1
        else:
            future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            arrival = self.clock()
            heapq.heappush(self._waiting, (level * AGING + arrival, next(self._seq), future))
            if key is not None:
                self._keyed[key] = [level, arrival, future]
            try:
                await future
            except asyncio.CancelledError:
                if future.done() and not future.cancelled():
                    self._release()  # granted just as it was cancelled: pass it on
                raise
            finally:
                entry = self._keyed.get(key) if key is not None else None
                if entry is not None and entry[2] is future:
                    del self._keyed[key]
        try:
            yield
        finally:
            self._release()

    def promote(self, key: Hashable, level: int) -> bool:
        """Let the job waiting under ``key`` wait at ``level`` if that is lower, ranked as
        if it had asked at that level when it did ask; whether it was promoted. (A second
        heap entry with the same future: whichever comes first grants the slot, and the
        other is skipped, as a cancelled waiter is.)"""
        entry = self._keyed.get(key)
        if entry is None or entry[0] <= level or entry[2].done():
            return False
        entry[0] = level
        heapq.heappush(self._waiting, (level * AGING + entry[1], next(self._seq), entry[2]))
        return True

    def _release(self) -> None:
        while self._waiting:
            _, _, future = heapq.heappop(self._waiting)
            if not future.done():  # (a cancelled waiter is skipped)
                future.set_result(None)
                return
        self.free += 1


class Superseded(Exception):
    """A newer job with the same key was submitted before this one started."""


def default_workers() -> int:
    """One worker process per CPU core."""
    return os.cpu_count() or 1


def _watch_parent(parent: int, interval: float) -> None:
    while True:
        if os.getppid() != parent:
            os._exit(0)  # the bot is gone: nothing to clean up that the OS will not
        time.sleep(interval)


def worker_start(parent: int, interval: float = PARENT_POLL_S) -> None:
    """Run first in every worker process: exit when ``parent`` (the bot) is gone; keep
    freed pages for the next job (bot.runtime.heap)."""
    if os.getppid() != parent:  # it died while this worker was starting
        os._exit(0)
    keep_freed_pages()
    threading.Thread(target=_watch_parent, args=(parent, interval), daemon=True,
                     name="parent-watch").start()


class WorkerDied(Exception):
    """The worker process running a job ended before it answered."""


class RemoteTraceback(Exception):
    """The traceback of an exception raised in a worker (its ``__cause__``)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return self.text


#: a message between the bot and a worker: its length (8 bytes, big-endian), then a pickle
HEADER = struct.Struct("!Q")


def _read_exactly(sock: socket.socket, n: int) -> bytes | None:
    parts, got = [], 0
    while got < n:
        part = sock.recv(min(n - got, 1 << 20))
        if not part:
            return None
        parts.append(part)
        got += len(part)
    return b"".join(parts)


def _serve(sock: socket.socket, parent: int, interval: float) -> None:
    """A worker process: run each job the bot sends, answer ``(True, result)`` or
    ``(False, exception, traceback text)``; end when the bot closes its end (or is gone)."""
    worker_start(parent, interval)
    while True:
        head = _read_exactly(sock, HEADER.size)
        if head is None:
            return
        body = _read_exactly(sock, HEADER.unpack(head)[0])
        if body is None:
            return
        try:
            fn, args = pickle.loads(body)
            answer = pickle.dumps((True, fn(*args)), pickle.HIGHEST_PROTOCOL)
        except BaseException as exc:
            text = traceback.format_exc()
            try:
                answer = pickle.dumps((False, exc, text), pickle.HIGHEST_PROTOCOL)
            except Exception:  # an exception that does not pickle: its words do
                answer = pickle.dumps((False, RuntimeError(repr(exc)), text),
                                      pickle.HIGHEST_PROTOCOL)
        try:
            sock.sendall(HEADER.pack(len(answer)) + answer)
        except OSError:
            return  # the bot is gone


class _Worker(asyncio.BufferedProtocol):
    """One worker process and the bot's end of its socket, read by the event loop: each
    answer is read straight into a buffer of its size (a board's picture is a few hundred
    kB: gathering it from the loop's chunks cost more than unpickling it). The worker
    answers its jobs in the order they were sent; a job whose caller gave up (cancelled)
    still runs, and its answer is read and dropped."""

    def __init__(self, process: BaseProcess, loop: asyncio.AbstractEventLoop) -> None:
        self.process = process
        self.loop = loop
        self.transport: asyncio.Transport | None = None
        #: the message being read: its header, then its body once the header is in
        self._head = bytearray(HEADER.size)
        self._body: bytearray | None = None
        self._got = 0
        self._answers: collections.deque[asyncio.Future[Any]] = collections.deque()
        self.dead = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # a stream's transport (uvloop's do not derive from asyncio's classes: no check)
        self.transport = cast(asyncio.Transport, transport)

    def get_buffer(self, sizehint: int) -> memoryview:
        target = self._head if self._body is None else self._body
        return memoryview(target)[self._got:]

    def buffer_updated(self, nbytes: int) -> None:
        self._got += nbytes
        if self._body is None:
            if self._got == HEADER.size:
                self._body, self._got = bytearray(HEADER.unpack(self._head)[0]), 0
            else:
                return
        if self._got < len(self._body):
            return
        body, self._body, self._got = self._body, None, 0
        try:
            answer = pickle.loads(body)
        except Exception as exc:
            answer = (False, exc, traceback.format_exc())
        if self._answers:
            future = self._answers.popleft()
            if not future.done():
                future.set_result(answer)

    def connection_lost(self, exc: Exception | None) -> None:
        self.dead = True
        while self._answers:
            future = self._answers.popleft()
            if not future.done():
                future.set_exception(WorkerDied(f"worker {self.process.pid} ended"))

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        if self.dead or self.transport is None:
            raise WorkerDied(f"worker {self.process.pid} ended")
        job = pickle.dumps((fn, args), pickle.HIGHEST_PROTOCOL)
        future = self.loop.create_future()
        self._answers.append(future)
        self.transport.write(HEADER.pack(len(job)) + job)
        answer = await future
        if answer[0]:
            return answer[1]
        exc = answer[1]
        exc.__cause__ = RemoteTraceback(answer[2])
        raise exc

    def close(self) -> None:
        """The worker ends once its running job, if any, is done (it reads the end of
        its socket)."""
        self.dead = True
        if self.transport is not None and not self.loop.is_closed():
            self.transport.close()


class Offloader:
    """Runs functions in worker processes (or threads); see the module docstring."""

    def __init__(self, workers: int | None = None, *, slots: int | None = None,
                 parent_poll: float = PARENT_POLL_S) -> None:
        self.workers = default_workers() if workers is None else max(0, workers)
        self.slots = slots or (self.workers if self.workers > 0 else THREAD_SLOTS)
        self._parent_poll = parent_poll
        #: the running workers, not busy ones first (made on first use, on the loop that
        #: uses them)
        self._idle: list[_Worker] = []
        self._all: list[_Worker] = []
        self._idle_changed: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._gate: _Gate | None = None
        self._gate_loop: asyncio.AbstractEventLoop | None = None
        self._newest: dict[Hashable, int] = {}
        self._tickets = itertools.count(1)
        self.superseded = 0
        self.restarts = 0

    def _slots(self) -> _Gate:
        loop = asyncio.get_running_loop()
        if self._gate is None or self._gate_loop is not loop:
            self._gate, self._gate_loop = _Gate(self.slots), loop
        return self._gate

    async def run(self, fn: Callable[..., T], *args: Any, level: int = 0) -> T:
        """``fn(*args)`` in a worker; waits its turn behind earlier jobs of its level or
        a lower one (a person waits on it: 0)."""
        async with self._slots().slot(level):
            return await self._call(fn, *args)

    async def latest(self, key: Hashable, fn: Callable[..., T], *args: Any,
                     level: int = 0) -> T:
        """Like :meth:`run`, but raises :class:`Superseded` instead of running ``fn`` if
        another job with the same ``key`` was submitted before this one could start.
        A job that has started always finishes and returns its result."""
        async with self.newest(key, level) as run:
            return await run(fn, *args)

    @contextlib.asynccontextmanager
    async def newest(self, key: Hashable, level: int = 0
                     ) -> AsyncIterator[Callable[..., Awaitable[Any]]]:
        """:meth:`latest` for a job whose arguments are chosen when its turn comes: waits
        for a slot (raising :class:`Superseded` if another job with ``key`` asked after
        this one meanwhile) and yields the function that runs a job in it. Under load a
        job waits seconds for its slot; what it should draw may have changed by then
        (a game's newest state), and drawing the state of the time of asking would be
        work thrown away."""
        ticket = next(self._tickets)
        self._newest[key] = ticket
        try:
            async with self._slots().slot(level, key):
                if self._newest.get(key) != ticket:
                    self.superseded += 1
                    raise Superseded(key)
                yield self._call
        finally:
            if self._newest.get(key) == ticket:
                del self._newest[key]

    def promote(self, key: Hashable, level: int) -> bool:
        """The job waiting for a slot under ``key`` (:meth:`newest`) now waits at ``level``
        if that is lower: what it will draw has become more urgent (a game's board waited
        as a computer move's, and now a person waits on it). Whether it was promoted."""
        gate = self._gate
        if gate is None or self._gate_loop is not asyncio.get_running_loop():
            return False
        return gate.promote(key, level)

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        if self.workers == 0:
            return await asyncio.to_thread(fn, *args)
        for attempt in (1, 2):
            worker = await self._take()
            try:
                return await worker.call(fn, *args)
            except WorkerDied:
                if attempt == 2:
                    raise
                log.warning("a worker process died; starting a new one and trying again")
            finally:
                self._give(worker)
        raise AssertionError("unreachable")

    async def _take(self) -> _Worker:
        """A worker that runs nothing (started if there are fewer than ``workers``)."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # (a new event loop, as in tests: new workers)
            self.close()
            self._loop, self._idle_changed = loop, asyncio.Event()
        assert self._idle_changed is not None
        while True:
            for worker in [w for w in self._all if w.dead]:
                self._give(worker)  # (one that died between jobs)
            self._idle = [w for w in self._idle if not w.dead]
            if self._idle:
                return self._idle.pop()
            if len(self._all) < self.workers:
                return await self._start(loop)
            self._idle_changed.clear()
            await self._idle_changed.wait()

    def _give(self, worker: _Worker) -> None:
        if worker.dead:
            if worker in self._all:
                self._all.remove(worker)
                self.restarts += 1
                worker.process.join(0)  # (reaped, not left a zombie)
        elif worker not in self._idle:
            self._idle.append(worker)
        if self._idle_changed is not None:
            self._idle_changed.set()

    async def _start(self, loop: asyncio.AbstractEventLoop) -> _Worker:
        ours, theirs = socket.socketpair()
        ctx = multiprocessing.get_context("spawn")
        process = ctx.Process(target=_serve, args=(theirs, os.getpid(), self._parent_poll),
                              daemon=True, name="tempus-worker")
        worker = _Worker(process, loop)
        self._all.append(worker)
        try:
            process.start()
        except BaseException:
            self._all.remove(worker)
            ours.close()
            raise
        finally:
            theirs.close()
        await loop.create_unix_connection(lambda: worker, sock=ours)
        return worker

    async def warm_up(self, job: Callable[[], object]) -> None:
        """Start the worker processes before the first real job, each running ``job`` once
        (the caller's imports and caches: the pool knows nothing of what it runs)."""
        if self.workers > 0:
            await asyncio.gather(*(self.run(job) for _ in range(self.workers)))

    def worker_pids(self) -> list[int]:
        """Process ids of the running workers (for diagnostics and tests)."""
        return sorted(w.process.pid for w in self._all
                      if not w.dead and w.process.pid is not None)

    def close(self) -> None:
        for worker in self._all:
            worker.close()
        self._all, self._idle = [], []
