"""The posts at a game's end (split from the publisher).

The result (the game's ``media.final_post_job``, games/port.py) goes in full, with the
score chart, the final board, the record and the Rematch button, into the game's thread,
and shorter, with the final board, into the channel (when the game had a thread of its
own). Results and ratings are stored first
(bot/history/ledger.py), once for both posts.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.history import ledger as history
from bot.publish.components import make_view
from bot.publish.outbox import Outboxes
from bot.publish.text_fit import fit
from bot.runtime.worker_pool import Offloader
from bot.store import Storage
from bot.table.model import Outcome
from games import registry
from games.port import ResultPost
from lang import i18n
from lang.messages import t

log = logging.getLogger(__name__)


def post_final(o: Outcome, play: int, *, storage: Storage, offloader: Offloader,
               outboxes: Outboxes,
               channel: Callable[[int], Awaitable[discord.abc.Messageable]],
               keep: Callable[[asyncio.Task[Any]], None]) -> None:
    """Queue the end posts of ``o`` (a finished game played in ``play``) in the outboxes of
    the thread and the channel; ``keep`` is given the background task that builds them."""
    assert o.public_view is not None and o.record is not None
    record = o.record
    media = registry.game(o.game_name).media
    building: list[asyncio.Future[ResultPost]] = []  # the one build both posts share

    async def build() -> ResultPost:
        try:
            changes = await history.record_finished(storage, o.game_id, run=offloader.run)
        except Exception:
            log.exception("game %s: results and ratings could not be stored", o.game_id)
            changes = {}
        return await offloader.run(
            media.final_post_job, o.game_id, record, [s.name for s in o.seats],
            [s.user_id for s in o.seats], changes, o.locale)

    async def made() -> ResultPost:
        """The post, built once for the thread's and the channel's outbox, which run at
        the same time: a build each would store the results twice and draw everything
        twice. A failed build is tried again by the next caller (the outbox retries its
        write)."""
        task = building[0] if building else None
        if task is None or (task.done() and (task.cancelled()
                                             or task.exception() is not None)):
            task = asyncio.ensure_future(build())
            task.set_name(f"tempus-final-{o.game_id}")
            keep(task)
            building[:] = [task]
        # shielded: one outbox giving up its write must not cancel the other's post
        return await asyncio.shield(task)

    def files(p: ResultPost, names: tuple[str, ...] | None = None) -> list[discord.File]:
        return [discord.File(io.BytesIO(f.data), filename=f.filename,
                             description=f.description)
                for f in p.files if names is None or f.filename.endswith(names)]

    async def thread_post() -> bool:
        p = await made()
        ch = await channel(play)
        kwargs: dict[str, Any] = {"files": files(p),
                                  "allowed_mentions": discord.AllowedMentions.none()}
        view = make_view(p.panel, o.game_id, o.version) if p.panel else None
        if view is not None:
            kwargs["view"] = view
        await ch.send(p.text, **kwargs)
        return False

    outboxes.submit(play, thread_post)
    if play != o.channel_id:
        async def channel_post() -> bool:
            p = await made()
            ch = await channel(o.channel_id)
            with i18n.using(o.locale):
                end = t("end.thread", thread=play)
            text = fit([*p.channel_text.splitlines(), end])
            await ch.send(text, files=files(p, ("-board.png",)) or files(p, (".png",)),
                          allowed_mentions=discord.AllowedMentions.none())
            return False

        outboxes.submit(o.channel_id, channel_post)
