"""End to end: when a person's time runs out, the notice that a computer plays for them is
read before the computer's move, not below a turn message that already shows it, and it
pings them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client.app import TempusBot
from bot.timing.pace import PACES
from bot.timing.time_source import FakeClock
from tests.bot.e2e import bot_running, panel_message, play_channel, prompt_users, settle
from tests.bot.fake_discord import running

T0 = 1_800_000_000.0
LIVE = PACES["live"].seconds or 0.0
TIMEOUT = "Time is up for"


async def _settled(bot: TempusBot) -> None:
    assert bot.scheduler is not None
    await bot.scheduler.settle()
    await settle(bot)


@pytest.mark.asyncio
async def test_the_timeout_notice_comes_before_the_computers_move(tmp_path: Path) -> None:
    clock = FakeClock(T0)
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=7,
                                              clock=clock) as bot:
        ch = fake.channel_ids[0]
        await fake.slash(11, ch, "new", seats=3, pace="live")
        await fake.slash(12, ch, "join")
        await fake.slash(13, ch, "join")
        await fake.slash(11, ch, "start")
        await _settled(bot)
        thread = play_channel(fake, ch)
        turn = panel_message(fake, ch)
        assert turn is not None
        (uid,) = prompt_users(turn)
        before = {m.id: m.content for m in fake.channel_messages(thread)}
        clock.set(T0 + LIVE)
        await _settled(bot)
        await fake.wait_for(lambda: any(TIMEOUT in m.content
                                        for m in fake.channel_messages(thread)), 20)
        await _settled(bot)
        # nothing posted before the notice was edited to show the computer's move
        for m in fake.channel_messages(thread):
            if m.id in before:
                assert m.content.splitlines() == before[m.id].splitlines(), m.content
        notice = next(m for m in fake.channel_messages(thread) if TIMEOUT in m.content)
        assert notice.id not in before and uid in notice.mentions
        lines = notice.content.splitlines()
        first = next(i for i, line in enumerate(lines) if TIMEOUT in line)
        # the computer's move for them follows the notice in the same message
        assert len(lines) > first + 2, lines
        fake.check()
