"""Taking the controls off messages whose decision has passed (split from the publisher).

When a new turn message is posted, the old one stays in the thread as the story of its turn,
but its buttons must come off. A click on them meanwhile is refused privately as stale by
the table's version check, so nobody waits on this edit: it is made with the token of a
recent click that may edit the message (outside Discord's global limit, bot/publish/carriers.py),
or else only when the channel's edit bucket and Discord's global budget have room for it.
It never delays a board or a DM.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.publish.carriers import Carriers
from bot.publish.outbox import CARRIED, EDIT, Outboxes
from bot.publish.request_pace import BACKGROUND, GlobalPace, priority
from bot.runtime.tasks import cancel_and_wait
from bot.runtime.worker_pool import Superseded

log = logging.getLogger(__name__)

#: how often the tidying task looks whether Discord's global budget has room again
TIDY_POLL = 0.25


class OldControls:
    """Old messages whose controls are to come off, and the task that does it."""

    def __init__(self, client: discord.Client, outboxes: Outboxes, carriers: Carriers,
                 pace: Callable[[], GlobalPace | None]) -> None:
        self.client = client
        self.outboxes = outboxes
        self.carriers = carriers
        self._pace = pace
        #: (channel, message) waiting for room in the channel's bucket and the global budget
        self._waiting: collections.deque[tuple[int, int]] = collections.deque()
        self._task: asyncio.Task[None] | None = None

    @property
    def waiting(self) -> bool:
        """Whether some old message still shows its controls."""
        return bool(self._waiting)

    async def strip(self, channel_id: int, message_id: int, content: str | None = None
                    ) -> None:
        """Take the controls off an old message now (and set its text, if given)."""
        kwargs: dict[str, Any] = {"view": None}
        if content is not None:
            kwargs["content"] = content
        partial = self.client.get_partial_messageable(channel_id).get_partial_message(
            message_id)
        with contextlib.suppress(discord.NotFound, discord.Forbidden):
            await partial.edit(**kwargs)

    def retire(self, channel_id: int, message_id: int, content: str | None = None) -> None:
        """Take the controls off in the channel's turn, as one of its edits (a lobby that
        became a game, a cancelled game's turn message)."""
        async def write() -> bool:
            await self.strip(channel_id, message_id, content)
            return False

        self.outboxes.submit(channel_id, write, kind=EDIT)

    def tidy(self, channel_id: int, message_id: int, game_id: int) -> None:
        """Take the controls off an old turn message: with the token of a click that may
        edit it, at once; else when there is room for it (see the module's docstring)."""
        if self.carriers.for_edit(game_id, channel_id, message_id) is not None:
            async def carried() -> bool:
                carrier = self.carriers.for_edit(game_id, channel_id, message_id)
                try:
                    if carrier is None:
                        raise Superseded()
                    with self.carriers.carrying(game_id, carrier):
                        await carrier.edit(message_id, components=None)
                except Superseded:  # the token is gone meanwhile: the slow way
                    self._later(channel_id, message_id)
                except discord.NotFound:
                    pass
                return False
            self.outboxes.submit(channel_id, carried, kind=CARRIED)
            return
        self._later(channel_id, message_id)

    def _later(self, channel_id: int, message_id: int) -> None:
        self._waiting.append((channel_id, message_id))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="tempus-tidy")

    def _next(self) -> tuple[int, int] | None:
        """The oldest old message whose channel has nothing waiting and an edit to spare."""
        for i, (channel_id, message_id) in enumerate(self._waiting):
            box = self.outboxes[channel_id]
            if not box.pending and box.pacers[EDIT].delay() <= 0:
                del self._waiting[i]
                box.pacers[EDIT].note()
                return channel_id, message_id
        return None

    async def _run(self) -> None:
        while self._waiting:
            pace = self._pace()
            job = None if pace is not None and pace.busy() else self._next()
            if job is None:
                await asyncio.sleep(TIDY_POLL)
                continue
            try:
                with priority(BACKGROUND):
                    await self.strip(*job)
            except discord.HTTPException as exc:
                log.info("channel %s: could not take the controls off %s: %s", *job, exc)
                refused = self.outboxes.on_refused
                if refused is not None:  # e.g. a locked thread (bot/publish/lost_threads.py)
                    await refused(job[0], exc)

    def forget(self, channel_id: int) -> None:
        """Nothing more to take off in ``channel_id`` (it can no longer be written to)."""
        self._waiting = collections.deque(w for w in self._waiting if w[0] != channel_id)

    async def close(self) -> None:
        await cancel_and_wait(self._task)
        self._task = None
