"""A game goes on in an archived (not locked) thread: Discord archives a quiet thread by
itself, and a moderator may archive one without locking it. Edits there are refused (400,
50083 "Thread is archived"): the bot unarchives the thread before it writes there, when
the gateway told it (then no request is refused), or after the first refusal (when the
event was missed) and writes again. Without the right to unarchive it, a new post brings
the thread back (or the game moves to its channel).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.bot.e2e import (
    FakePlayer,
    bot_running,
    message_version,
    panel_message,
    play_channel,
    prompt_users,
    settle,
)
from tests.bot.fake_discord import running

ARCHIVED = 50083


@pytest.mark.asyncio
@pytest.mark.parametrize("tell", [True, False])
@pytest.mark.parametrize("may_unarchive", [True, False])
async def test_a_game_goes_on_in_an_archived_thread(tmp_path: Path, tell: bool,
                                                    may_unarchive: bool) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=5) as bot:
        ch = fake.channel_ids[0]
        await fake.slash(11, ch, "new", seats=3)
        await fake.slash(12, ch, "join")
        await fake.slash(13, ch, "join")
        await fake.slash(11, ch, "start")
        await settle(bot)
        thread = play_channel(fake, ch)
        assert thread != ch
        if not may_unarchive:
            fake.leave_thread_as_bot(thread)
        rng = random.Random(2)
        people = {u: FakePlayer(fake, u, ch, rng) for u in (11, 12, 13)}
        for _ in range(6):
            msg = panel_message(fake, ch)
            assert msg is not None
            before = message_version(msg)
            await fake.archive_thread(thread, tell=tell)
            (uid, *_) = prompt_users(msg)
            for _try in range(20):  # a random click may only look; until one acts
                if await people[uid].act_on(msg):
                    break
            await settle(bot)
            await fake.wait_for(lambda v=before: message_version(panel_message(fake, ch)) > v, 20)
            assert play_channel(fake, ch) == thread  # the game is still in its thread
        refused = [f for f in fake.failures if f[3] == ARCHIVED]
        if may_unarchive:
            assert fake.unarchived, "the bot unarchived the thread to write there"
            if tell:  # told by the gateway: unarchived before writing, nothing refused
                assert refused == []
            else:  # one refusal per archive at most, then the same write went through
                assert 0 < len(refused) <= 6
        else:
            assert fake.unarchived == []
        assert not fake.threads[thread].archived or not may_unarchive
        fake.check()
