"""End to end: three people play a whole game through the fake Discord (R-INFO leaks,
refusals, limits checked on the way)."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from lang.messages import t
from tests.bot.e2e import (
    FakePlayer,
    bot_running,
    check_no_leaks,
    final_record,
    in_process,
    play_channel,
    play_until,
    turns_in,
)
from tests.bot.fake_discord import running
from tests.bot.fake_ratelimit import POST


@pytest.mark.asyncio
async def test_three_people_play_a_whole_game(tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=7) as bot:
        ch = fake.channel_ids[0]
        await fake.slash(11, ch, "new", seats=3)
        await fake.slash(12, ch, "join")
        await fake.slash(13, ch, "join")
        await fake.slash(11, ch, "start")
        rng = random.Random(1)
        people = {u: FakePlayer(fake, u, ch, rng) for u in (11, 12, 13)}
        t0 = time.perf_counter()
        n = await play_until(fake, in_process(bot), ch, people)
        print("actions", n, "seconds", time.perf_counter() - t0, "messages", len(fake.order))
        rec = final_record(fake, ch)
        assert len(rec["actions"]) >= n
        last = fake.channel_messages(ch)[-1]
        # the channel gets the short result (the full one is in the thread)
        assert last.content.startswith(t("result.channel", game=1, winner="").strip())
        assert "🏆" in last.content
        # every seat got its hand by DM at least once, as a picture too, described
        for u in people:
            hands = [a for m in fake.dms(u) for a in m.attachments if a.filename == "hand.png"]
            assert hands and all(a.description for a in hands)
        assert check_no_leaks(fake, ch, {11: 0, 12: 1, 13: 2}) > 0
        # one board per turn in the game's thread, not one per click
        thread = play_channel(fake, ch)
        assert thread != ch, "the game was played in its own thread"
        # a post when a turn or phase begins (the lobby and the result), edits in between
        turns = turns_in(rec)
        board = fake.public_writes(thread)
        posts = sum(1 for w in board if w.kind == POST)
        assert posts <= turns + 2, (posts, turns, n)
        assert len(board) - posts >= n // 2, "the steps of a turn edit its message"
        # most of them with the clicks' own tokens, outside the global limit
        assert bot.publisher is not None and bot.publisher.carriers.carried > len(board) / 2
        assert sum(1 for w in board if w.interaction) == bot.publisher.carriers.carried
        assert len(fake.channel_messages(ch)) <= 4, "lobby, start line, result"
        assert fake.rate_limited() == 0
        fake.check()
