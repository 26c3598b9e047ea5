"""One outbox per channel: every write to a channel or thread goes through it.

Discord allows about 5 message writes per 5 seconds in one channel (posts and edits; the
exact buckets are announced in rate-limit headers) and answers 429 past that. discord.py
waits and retries a 429 itself, but then the board lags behind the game and a burst of
computer moves piles up stale edits. The outbox instead:

* **paces** itself: at most ``limit`` posts and ``limit`` edits in any ``period`` seconds
  per channel (Discord keeps a bucket for each route: creating messages, editing them), so
  a 429 is never provoked. An item may say which it will do (``kind``: "post" or "edit",
  or "carried" for a write with a click's interaction token, bot/publish/carriers.py, which has a
  bucket of its own; or a function that tells just before it runs); an item that does not
  say counts against both of the channel's;
* **coalesces**: an item submitted with a ``key`` while an item with the same key still
  waits is merged into it (the waiting one runs once, with whatever is newest when it
  runs). The table's turn message is synced this way, so three quick edits become one.
  One submitted while the item with its key is being written makes that item run once
  more afterwards (what it wrote may already be old), never twice in parallel;
* **keeps order**: items run in submission order; nothing without a key is ever dropped;
* **retries** a write that Discord refused for a passing reason (429, 5xx, a network
  error) with exponential backoff for as long as it takes, and reports a run of
  ``TROUBLE_AFTER`` refusals in a row once (``on_trouble``) so the players can be told (a
  single passing 429 or 500 is not worth a message).

An item is a coroutine function that performs **one** write and returns whether it has
more writes to make (e.g. post the new turn message, then take the controls off the old
one); it is then run again, after the next free slot, before anything else. An item that
raises :class:`~bot.runtime.worker_pool.Superseded` wrote nothing because what it was about to write
is already out of date (a newer board was submitted while it waited for its drawing or for
Discord's global budget, :mod:`bot.publish.request_pace`): it is run again at once, with the newest
state, and no slot is spent on it.

The outbox holds nothing that cannot be rebuilt: what a game's turn message should show
is derived from the stored game, so after a crash the start-up re-announcement brings the
channel up to date.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord

from bot.runtime.worker_pool import Superseded
from bot.timing.time_source import loop_clock

log = logging.getLogger(__name__)

#: Discord's per-channel message bucket: 5 writes per 5 seconds
DEFAULT_LIMIT = 5
DEFAULT_PERIOD = 5.0
#: a little slack so that clock differences never make the sixth write land too early
SLACK = 0.25
MAX_BACKOFF = 60.0
#: a write still unanswered after this long counts as trouble (reported, still awaited)
STALL_AFTER = 20.0
#: refusals in a row (about 7 s of backoff) before the players are told
TROUBLE_AFTER = 3

Write = Callable[[], Awaitable[bool]]
#: "carried": a write made with a click's interaction token (bot/publish/carriers.py), in a bucket
#: of its own rather than the channel's
POST, EDIT, CARRIED = "post", "edit", "carried"
#: the bucket of an interaction token's follow-ups and edits (Discord gives no numbers:
#: "the same rate limit properties as normal webhooks"), paced per channel, the safe side
CARRIED_LIMIT, CARRIED_PERIOD = 5, 2.0
#: what an item's next write will be: "post", "edit", "carried", or None (either of the
#: channel's own: both buckets)
Kind = str | Callable[[], str | None] | None


class Pacer:
    """At most ``limit`` events in any window of ``period`` seconds (a sliding window)."""

    def __init__(self, limit: int = DEFAULT_LIMIT, period: float = DEFAULT_PERIOD,
                 clock: Callable[[], float] = loop_clock) -> None:
        self.limit = limit
        self.period = period + SLACK
        self.clock = clock
        self._times: collections.deque[float] = collections.deque()

    def delay(self) -> float:
        """Seconds to wait before the next event may happen (0: now)."""
        now = self.clock()
        while self._times and now - self._times[0] >= self.period:
            self._times.popleft()
        if len(self._times) < self.limit:
            return 0.0
        return self._times[0] + self.period - now

    def note(self) -> None:
        self._times.append(self.clock())

    @property
    def resting(self) -> bool:
        """No event in the last period: forgetting this pacer loses nothing."""
        return self.delay() == 0.0 and not self._times


@dataclass
class _Item:
    write: Write
    key: str | None
    kind: Kind = None
    running: bool = False
    #: submitted again while running: run once more when done
    again: bool = False
    #: refused because its thread was archived, which was then unarchived: tried again
    #: once (a second refusal is handled as any refusal for good)
    unarchived: bool = False

    def routes(self) -> tuple[str, ...]:
        kind = self.kind() if callable(self.kind) else self.kind
        return (kind,) if kind in (POST, EDIT, CARRIED) else (POST, EDIT)
    done: asyncio.Future[None] = field(default_factory=lambda: asyncio.get_running_loop()
                                       .create_future())


#: Discord's JSON code for "Thread is archived" (an edit in an archived thread)
ARCHIVED_THREAD = 50083


def retryable(exc: BaseException) -> bool:
    """A refusal that may pass: rate limited, Discord's server errors, the network."""
    if isinstance(exc, discord.HTTPException):
        return exc.status == 429 or exc.status >= 500
    return isinstance(exc, (aiohttp.ClientError, asyncio.TimeoutError, OSError))


class ChannelOutbox:
    """The paced, coalescing queue of one channel (see the module docstring)."""

    def __init__(self, channel_id: int, *, limit: int = DEFAULT_LIMIT,
                 period: float = DEFAULT_PERIOD,
                 on_trouble: Callable[[int, BaseException], Awaitable[None]] | None = None,
                 clock: Callable[[], float] = loop_clock,
                 stall_after: float = STALL_AFTER) -> None:
        self.channel_id = channel_id
        self.stall_after = stall_after
        self.pacers = {POST: Pacer(limit, period, clock), EDIT: Pacer(limit, period, clock),
                       CARRIED: Pacer(CARRIED_LIMIT, CARRIED_PERIOD * period / DEFAULT_PERIOD,
                                      clock)}
        self.on_trouble = on_trouble
        #: told of a write refused for good; returns whether that was understood
        self.on_refused: Callable[[int, BaseException], Awaitable[bool]] | None = None
        #: unarchives the channel (a thread Discord or a moderator archived); returns
        #: whether it is active again
        self.on_archived: Callable[[int], Awaitable[bool]] | None = None
        #: the gateway said the thread was archived: unarchive it before the next write
        #: (an edit there would be refused; a post would bring it back by itself, but
        #: which write comes next is not known here)
        self.archived = False
        self._items: collections.deque[_Item] = collections.deque()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.writes = 0
        self.failures = 0
        self.superseded = 0  # runs that wrote nothing: a newer state had come
        self._streak = 0  # refusals in a row
        self._stalled = False  # the last write took longer than ``stall_after``
        self._troubled = False
        self._reports: set[asyncio.Future[None]] = set()  # stalls being reported

    def submit(self, write: Write, key: str | None = None, kind: Kind = None
               ) -> asyncio.Future[None]:
        """Queue ``write``; with a ``key`` already waiting, the waiting item stands for both
        (its write must read the newest state when it runs)."""
        if key is not None:
            for item in self._items:
                if item.key == key:
                    item.write, item.kind = write, kind
                    item.again = item.again or item.running
                    return item.done
        item = _Item(write, key, kind)
        self._items.append(item)
        self._wake.set()
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name=f"tempus-outbox-{self.channel_id}")
        return item.done

    @property
    def pending(self) -> int:
        return len(self._items)

    @property
    def idle(self) -> bool:
        """Nothing to write, nothing running, no trouble to remember and no write in the
        last period: the outbox may be dropped and made again on next use."""
        return (not self._items and (self._task is None or self._task.done())
                and not self._troubled and not self._stalled and self._streak == 0
                and all(p.resting for p in self.pacers.values()))

    async def drain(self) -> None:
        """Until everything submitted so far has been written (or given up)."""
        while self._items:
            await asyncio.gather(*(i.done for i in list(self._items)), return_exceptions=True)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        backoff = 1.0
        while self._items:
            item = self._items[0]
            routes = item.routes()
            wait = max(self.pacers[r].delay() for r in routes)
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            if self.archived and self.on_archived is not None:
                self.archived = False
                await self._unarchive()
            self.writes += 1
            item.running, item.again = True, False
            try:
                more = await self._write(item)
            except asyncio.CancelledError:
                raise
            except Superseded:  # nothing written: write the newest now
                self.writes -= 1
                self.superseded += 1
                await asyncio.sleep(0)
                continue
            except Exception as exc:
                self._note(routes)
                if retryable(exc):
                    self.failures += 1
                    self._streak += 1
                    log.warning("channel %s: write refused (%s); retrying in %.0f s",
                                self.channel_id, exc, backoff)
                    if self._streak >= TROUBLE_AFTER:
                        await self._report(exc)
                    await asyncio.sleep(backoff)
                    backoff = min(MAX_BACKOFF, backoff * 2)
                    continue
                if (isinstance(exc, discord.HTTPException) and exc.code == ARCHIVED_THREAD
                        and not item.unarchived and self.on_archived is not None):
                    # archived while the game waited (no event seen): bring the thread
                    # back and write this again, rather than dropping it
                    item.unarchived = True
                    if await self._unarchive():
                        continue
                # what on_refused submits anew under the same key (the turn message
                # posted anew in a thread only archived) runs after this item, not in it
                item.running = True
                try:
                    understood = await self._refused(exc)
                finally:
                    item.running = False
                if not understood:
                    log.exception("channel %s: a write failed for good", self.channel_id)
                more = False
            # noted when the write is done, not when it starts: a write may first draw its
            # board, so its request leaves later; counting from the end keeps any five
            # requests at least one period apart however long the drawing took
            self._note(routes)
            backoff = 1.0
            self._streak = 0
            if not self._stalled:  # a prompt write ends the run of trouble
                self._troubled = False
            if not more and not item.again:
                if self._items and self._items[0] is item:  # (clear() may have emptied it)
                    self._items.popleft()
                if not item.done.done():
                    item.done.set_result(None)


    def _note(self, routes: tuple[str, ...]) -> None:
        for r in routes:
            self.pacers[r].note()

    async def _write(self, item: _Item) -> bool:
        """Run one write; past ``stall_after`` seconds (discord.py retries 429s and 5xx
        itself before it gives up, so a refused write may just take long) report trouble
        and go on waiting. (The write runs in this task, a timer watches it: a task of its
        own and ``asyncio.wait`` for every write cost the bot more than the write's own
        bookkeeping.)"""
        self._stalled = False
        timer = asyncio.get_running_loop().call_later(self.stall_after, self._stall)
        try:
            return await item.write()
        finally:
            timer.cancel()
            item.running = False

    def _stall(self) -> None:
        """The running write has taken ``stall_after`` seconds: report it (once per run of
        trouble), in a task of its own while the write goes on."""
        self._stalled = True
        report = asyncio.ensure_future(
            self._report(TimeoutError(f"a write waited {self.stall_after:.0f} s")))
        self._reports.add(report)
        report.add_done_callback(self._reports.discard)

    async def _unarchive(self) -> bool:
        assert self.on_archived is not None
        try:
            return await self.on_archived(self.channel_id)
        except Exception:
            log.exception("channel %s: unarchiving failed", self.channel_id)
            return False

    async def _refused(self, exc: BaseException) -> bool:
        """A write refused for good: True if ``on_refused`` knew what it meant (e.g. the
        thread was locked or deleted: bot/publish/lost_threads.py)."""
        if self.on_refused is None:
            return False
        try:
            return await self.on_refused(self.channel_id, exc)
        except Exception:
            log.exception("channel %s: handling a refusal failed", self.channel_id)
            return False

    def clear(self) -> None:
        """Drop everything queued (the channel can no longer be written to)."""
        for item in self._items:
            if not item.done.done():
                item.done.set_result(None)
        self._items.clear()

    async def _report(self, exc: BaseException) -> None:
        """Tell ``on_trouble`` once per run of trouble."""
        if self._troubled or self.on_trouble is None:
            return
        self._troubled = True
        try:
            await self.on_trouble(self.channel_id, exc)
        except Exception:
            log.exception("channel %s: reporting trouble failed", self.channel_id)


class Outboxes:
    """The outboxes of all channels, made on first use."""

    def __init__(self, *, limit: int = DEFAULT_LIMIT, period: float = DEFAULT_PERIOD,
                 on_trouble: Callable[[int, BaseException], Awaitable[None]] | None = None
                 ) -> None:
        self.limit = limit
        self.period = period
        self.on_trouble = on_trouble
        self.on_refused: Callable[[int, BaseException], Awaitable[bool]] | None = None
        self.on_archived: Callable[[int], Awaitable[bool]] | None = None
        self._boxes: dict[int, ChannelOutbox] = {}

    def __getitem__(self, channel_id: int) -> ChannelOutbox:
        box = self._boxes.get(channel_id)
        if box is None:
            box = self._boxes[channel_id] = ChannelOutbox(
                channel_id, limit=self.limit, period=self.period, on_trouble=self.on_trouble,
                stall_after=STALL_AFTER * self.period / DEFAULT_PERIOD)
            box.on_refused = self.on_refused
            box.on_archived = self.on_archived
        return box

    def submit(self, channel_id: int, write: Write, key: str | None = None,
               kind: Kind = None) -> asyncio.Future[None]:
        return self[channel_id].submit(write, key, kind)

    async def drain(self) -> None:
        for box in list(self._boxes.values()):
            await box.drain()

    def boxes(self) -> list[ChannelOutbox]:
        return list(self._boxes.values())

    def forget_idle(self) -> int:
        """Drop the outboxes of channels with nothing going on (a waiting game's thread
        and its players' DMs: memory per waiting game); returns how many."""
        idle = [cid for cid, box in self._boxes.items() if box.idle]
        for cid in idle:
            del self._boxes[cid]
        return len(idle)

    async def close(self) -> None:
        for box in self._boxes.values():
            await box.close()

    def stats(self) -> dict[int, dict[str, Any]]:
        return {cid: {"writes": b.writes, "failures": b.failures, "pending": b.pending}
                for cid, b in self._boxes.items()}
