"""A game's thread locked or deleted under the game: noticed, and the game goes on in the
channel.

A moderator may lock a game's thread (Discord then archives it: edits are refused with
50083 "operation on an archived thread", posts with 160005 "Thread is locked") or delete
it (10003 "Unknown Channel"). The bot notices it from the gateway (THREAD_UPDATE with
``locked``, THREAD_DELETE) or from the first such refusal, and then, once per game:

* writes nothing more there (what was queued for the thread is dropped);
* stores that the game is played in its channel from now on (``set_thread(None)``);
* tells the channel, mentioning the players, that the game goes on there;
* asks the table service for the position as it stands (``on_left``): the board and the
  turn's controls are posted in the channel, so nobody waits on a thread they cannot use.

A thread that is only archived (Discord does so after a week without messages) is not
lost: a post brings it back, so the turn message is posted anew rather than edited.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

log = logging.getLogger(__name__)

#: Discord's JSON codes (developers/topics/opcodes-and-status-codes, "JSON Error Codes")
ARCHIVED, LOCKED, UNKNOWN_CHANNEL = 50083, 160005, 10003
GONE_CODES = (ARCHIVED, LOCKED, UNKNOWN_CHANNEL)


class LostThreads:
    """Which game threads are lost, and what is done when one is.

    ``games_in``: the games played in a channel (thread) now; ``move``: move a game to
    its parent channel (the publisher's state, the store, the players told, the position
    re-posted)."""

    def __init__(self, games_in: Callable[[int], list[int]],
                 move: Callable[[int, int, str], Awaitable[None]]) -> None:
        self.games_in = games_in
        self.move = move
        self.lost: set[int] = set()

    def is_lost(self, channel_id: int) -> bool:
        return channel_id in self.lost

    async def gone(self, thread_id: int, why: str) -> bool:
        """The thread is locked or deleted: move its games out, once. True if any."""
        if thread_id in self.lost:
            return False
        games = self.games_in(thread_id)
        if not games:
            return False
        self.lost.add(thread_id)
        log.warning("thread %s is %s: its game(s) %s go on in the channel", thread_id, why,
                    games)
        for game_id in games:
            try:
                await self.move(game_id, thread_id, why)
            except Exception:
                log.exception("game %s: could not move out of thread %s", game_id, thread_id)
        return True

    async def refused(self, channel_id: int, exc: BaseException,
                      is_locked: Callable[[int], Awaitable[bool | None]]) -> bool:
        """A write to ``channel_id`` was refused for good: True if that means its thread is
        lost (and the games were moved). 50083 alone may be an idle thread Discord
        archived, which a post brings back: only a locked one is lost."""
        if not isinstance(exc, discord.HTTPException) or exc.code not in GONE_CODES:
            return False
        if channel_id in self.lost or not self.games_in(channel_id):
            return channel_id in self.lost
        if exc.code == ARCHIVED:
            locked = await is_locked(channel_id)
            if locked is False:
                return False
        why = "deleted" if exc.code == UNKNOWN_CHANNEL else "locked"
        return await self.gone(channel_id, why)
