"""no silent stall: when Discord keeps refusing the game's posts, the outbox retries
until they go through, the players are told once by DM, and `/tempus board` gives them the
turn's controls privately meanwhile."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from lang.messages import t
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

PEOPLE = (11, 12, 13)


@pytest.mark.asyncio
async def test_refused_posts_are_retried_told_once_and_the_game_stays_playable(
        tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=4) as bot:
        ch = fake.channel_ids[0]
        await fake.slash(11, ch, "new", seats=3)
        for u in PEOPLE[1:]:
            await fake.slash(u, ch, "join")
        await fake.slash(11, ch, "start")
        await settle(bot)
        thread = play_channel(fake, ch)
        msg = panel_message(fake, ch)
        assert msg is not None and thread != ch
        before = message_version(msg)
        # the next writes in the thread fail: discord.py retries them itself (1 s, then 3 s
        # later), longer than the outbox lets a write stall before it reports trouble
        fake.fail_next(thread, 500, 2, route="any")
        uid = prompt_users(msg)[0]
        player = FakePlayer(fake, uid, ch, random.Random(2))
        for _ in range(20):  # until a click applies an action (a look-up applies none)
            if await player.act_on(panel_message(fake, ch) or msg):
                break
        else:
            raise AssertionError(f"no action applied: {player.refusals[-2:]}")
        await settle(bot)
        assert message_version(panel_message(fake, ch)) > before, "the update got through"
        notice = t("notice.posts_refused", game=1, channel=thread)
        for u in PEOPLE:
            told = [m for m in fake.dms(u) if m.content == notice]
            assert len(told) == 1, (u, [m.content[:60] for m in fake.dms(u)][-3:])
        # the turn's controls, privately, from /tempus board in the thread
        owing = prompt_users(panel_message(fake, ch))  # type: ignore[arg-type]
        r = await fake.slash(owing[0] if owing else 11, thread, "board")
        assert r.ephemeral and r.replies and r.replies[-1].controls()
        assert any(a.filename == "board.png" for a in r.replies[-1].attachments)
        fake.check()
