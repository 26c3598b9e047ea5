"""End to end: no interaction left hanging when Discord keeps failing. A command's answer
refused five times with 500 still arrives; so does a refusal of a click; an answer Discord
never takes comes by DM before the token's 15 minutes are up; an acknowledgement that
Discord fails twice is made again within the 3 seconds; one it never takes is explained by
DM (nothing done)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lang.messages import t
from tests.bot.e2e import (
    bot_running,
    message_version,
    panel_message,
    play_channel,
    prompt_users,
    settle,
)
from tests.bot.end_to_end.test_e2e_edges import game_state, open_game
from tests.bot.fake_discord import running

OUTSIDER = 14


@pytest.mark.asyncio
async def test_answers_arrive_although_discord_refuses_them_five_times(tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=41) as bot:
        ch = fake.channel_ids[0]
        msg = await open_game(fake, bot, ch)
        fake.fail_next(ch, 500, count=5, route="post")  # the command's follow-up
        inter = await fake.slash(OUTSIDER, ch, "status", wait=False)
        await fake.wait_replied(inter, 600)
        assert inter.replies and inter.replies[0].content, "not left thinking"
        # a click refused (not this person's game): the refusal's follow-up refused 5 times
        thread = play_channel(fake, ch)
        select = next(c for c in msg.controls() if c["type"] == 3)
        fake.fail_next(thread, 500, count=5, route="post")
        click = await fake.click(OUTSIDER, msg, select["custom_id"],
                                 [select["options"][0]["value"]])
        await fake.wait_for(lambda: click.replies, 600)
        assert click.replies[0].where == "ephemeral" and click.text()
        assert not fake.dms(OUTSIDER)
        fake.check()


@pytest.mark.asyncio
async def test_an_answer_discord_never_takes_comes_by_dm(tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=42) as bot:
        ch = fake.channel_ids[0]
        await open_game(fake, bot, ch)
        # the answer fills the deferred reply by editing it (and a follow-up would post)
        fake.fail_next(ch, 500, count=100_000, route="any")
        inter = await fake.slash(OUTSIDER, ch, "status", wait=False)
        await fake.wait_for(lambda: fake.dms(OUTSIDER), 20 * 60)
        (dm,) = fake.dms(OUTSIDER)
        assert dm.content.startswith(t("reply.by_dm")) and len(dm.content) > 80
        assert not inter.replies or not inter.replies[0].content
        fake.check()  # the token was never used after its 15 minutes


@pytest.mark.asyncio
async def test_a_failing_acknowledgement_is_made_again_in_time(tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=43) as bot:
        ch = fake.channel_ids[0]
        msg = await open_game(fake, bot, ch)
        v0 = message_version(msg)
        select = next(c for c in msg.controls() if c["type"] == 3)
        uid = prompt_users(msg)[0]
        fake.fail_callbacks(2)  # discord.py alone would answer after 4 s
        inter = await fake.click(uid, msg, select["custom_id"], [select["options"][0]["value"]])
        assert inter.acked_at is not None and inter.acked_at - inter.sent_at <= 3
        await fake.wait_for(lambda: message_version(panel_message(fake, ch)) > v0, 30)
        fake.check()


@pytest.mark.asyncio
async def test_an_acknowledgement_discord_never_takes_is_explained_by_dm(
        tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=44) as bot:
        ch = fake.channel_ids[0]
        msg = await open_game(fake, bot, ch)
        state = (await game_state(bot, ch)).to_json()
        select = next(c for c in msg.controls() if c["type"] == 3)
        uid = prompt_users(msg)[0]
        fake.fail_callbacks(1000)
        inter = await fake.click(uid, msg, select["custom_id"],
                                 [select["options"][0]["value"]], wait=False)
        await fake.wait_for(lambda: fake.dms(uid), 60)
        assert fake.dms(uid)[-1].content == t("reply.not_acknowledged")
        assert not inter.acked.is_set()
        await settle(bot)
        assert (await game_state(bot, ch)).to_json() == state, "nothing was done"
        fake.callback_faults.clear()
        fake.check()
