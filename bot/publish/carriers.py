"""Board writes carried by the players' own clicks, outside Discord's global limit.

A click on a game's public turn message is acknowledged with a deferred update (callback
type 6); its interaction token then lets the bot edit that message (``@original``) and post
follow-up messages in the same channel, and edit those, for 15 minutes. Discord does not
count interaction endpoints towards a bot's global limit of 50 requests per second
(developers/topics/rate-limits, "Global Rate Limit"); they have a bucket per token instead
(5 per 2 s in our fake, undocumented in numbers). A bot with a thousand busy games spends
that global budget many times over on boards; with the click's token, the board a person
waits for after their own click, the computers' moves that follow it and the next turn's
message are written without waiting for the global budget at all.

:class:`Carriers` remembers, for each game, the newest few clicks on its public messages and
which messages each click's token may write; the publisher asks it for a carrier before
each board write and falls back to the channel's own route (bot/publish/outbox.py, global pace)
when there is none: nobody clicked lately (a game of computers, a restart: tokens are kept
in memory only), the token is near its end, or Discord refused it once.
"""

from __future__ import annotations

import collections
import contextlib
import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord.utils import MISSING

from bot.publish.message_writes import Rows, edit_with_token, post_with_token
from bot.runtime.worker_pool import Superseded
from bot.timing.time_source import loop_clock

log = logging.getLogger(__name__)

#: Discord's interaction tokens last 15 minutes; a carrier is not used in the last minute
#: (a write may wait for its channel's bucket and its drawing first)
TOKEN_LIFETIME = 15 * 60.0
MARGIN = 60.0
#: clicks kept per game: a turn message posted with an older click's token can only be
#: edited with that token (carried writes are paced per channel: bot/publish/outbox.py, CARRIED)
KEEP = 3
#: Discord's answers that mean a token can no longer be used (not the message: 10008)
UNKNOWN_MESSAGE = 10008


@dataclass
class Carrier:
    """One click's token: the channel it was in, when it arrived, the messages it may
    write (the clicked one and its follow-ups)."""

    interaction: discord.Interaction[Any]
    channel_id: int
    received: float
    original_id: int
    followups: set[int] = field(default_factory=set)

    def covers(self, message_id: int) -> bool:
        return message_id == self.original_id or message_id in self.followups

    async def edit(self, message_id: int, *, content: str = MISSING,
                   attachments: Sequence[discord.File] = MISSING,
                   components: Rows = MISSING) -> None:
        """Edit ``message_id`` (what is not given stays as it is; None components take
        its controls off)."""
        await edit_with_token(self.interaction.followup,
                              None if message_id == self.original_id else message_id,
                              content=content, attachments=attachments, components=components)

    async def post(self, content: str, *, files: Sequence[discord.File],
                   allowed_mentions: discord.AllowedMentions,
                   components: Rows) -> int:
        """A new public message in the click's channel; returns its id."""
        posted = await post_with_token(self.interaction.followup, content, files=files,
                                       allowed_mentions=allowed_mentions,
                                       components=components)
        self.followups.add(posted)
        return posted


class Carriers:
    """The newest clicks of each game whose tokens may still write its board."""

    def __init__(self, clock: Callable[[], float] = loop_clock) -> None:
        self.clock = clock
        self._games: dict[int, collections.deque[Carrier]] = {}
        self.carried = 0  # writes made with a click's token (for benchmarks and tests)
        self.refused = 0  # carriers dropped because Discord refused their token

    def offer(self, game_id: int, interaction: discord.Interaction[Any]) -> None:
        """A click on one of the game's public messages, acknowledged with a deferred
        update: its token may write that message and post in its channel."""
        msg, channel = interaction.message, interaction.channel_id
        if msg is None or channel is None or msg.flags.ephemeral:
            return
        kept = self._games.setdefault(game_id, collections.deque(maxlen=KEEP))
        kept.append(Carrier(interaction, channel, self.clock(), msg.id))
        # the clicked message as discord.py parsed it (every component, every select
        # option: some 60 objects) is not needed to write with the token, and a carrier
        # is kept for up to 14 minutes: three per busy game were a third of the bot's
        # objects at 1,000 games in play. The click's handler has read it already.
        interaction.message = None

    def _live(self, game_id: int, channel_id: int) -> list[Carrier]:
        kept = self._games.get(game_id)
        if not kept:
            return []
        now = self.clock()
        while kept and now - kept[0].received > TOKEN_LIFETIME - MARGIN:
            kept.popleft()
        if not kept:
            del self._games[game_id]
        return [c for c in reversed(kept) if c.channel_id == channel_id]

    def for_edit(self, game_id: int, channel_id: int, message_id: int) -> Carrier | None:
        """The newest live carrier that may edit ``message_id``."""
        return next((c for c in self._live(game_id, channel_id) if c.covers(message_id)),
                    None)

    def for_post(self, game_id: int, channel_id: int) -> Carrier | None:
        """The newest live carrier in ``channel_id``."""
        live = self._live(game_id, channel_id)
        return live[0] if live else None

    @staticmethod
    def refuses_token(exc: discord.HTTPException) -> bool:
        """Whether Discord refused a carried write because of its token (expired, unknown
        webhook, no access), not because of the message or a passing limit."""
        return exc.status in (401, 403, 404) and exc.code != UNKNOWN_MESSAGE

    def drop(self, game_id: int, carrier: Carrier, exc: BaseException) -> None:
        """Discord refused ``carrier``'s token (expired, unknown): never use it again."""
        self.refused += 1
        log.info("game %s: a click's token was refused (%s); writing through the channel",
                 game_id, exc)
        kept = self._games.get(game_id)
        if kept is not None and carrier in kept:
            kept.remove(carrier)

    @contextlib.contextmanager
    def carrying(self, game_id: int, carrier: Carrier) -> Iterator[None]:
        """A write with ``carrier``'s token: if Discord refuses the token, the carrier is
        dropped and the write counts as superseded (nothing written; the outbox runs it
        again at once, through the channel)."""
        try:
            yield
        except discord.HTTPException as exc:
            if not self.refuses_token(exc):
                raise
            self.drop(game_id, carrier, exc)
            raise Superseded() from exc
        self.carried += 1

    def forget_idle(self) -> int:
        """Drop the carriers whose tokens have run out (memory per waiting game)."""
        stale = [g for g, kept in self._games.items()
                 if not kept or self.clock() - kept[-1].received > TOKEN_LIFETIME - MARGIN]
        for g in stale:
            del self._games[g]
        return len(stale)
