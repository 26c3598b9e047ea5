"""End to end: the database's pages damaged under the running bot. Once the periodic
quick check has run, no click is acknowledged ("Done" never follows), the game's thread
is told once, and the players' clicks are refused privately with the storage's words."""

from __future__ import annotations

from pathlib import Path

import pytest

from lang.messages import t
from tests.bot.e2e import bot_running, play_channel, prompt_users, settle
from tests.bot.end_to_end.test_e2e_edges import open_game
from tests.bot.end_to_end.test_e2e_forged import refused_privately
from tests.bot.fake_discord import running
from tests.bot.store.test_integrity import damage


@pytest.mark.asyncio
async def test_damaged_pages_stop_every_acknowledgement(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    async with running() as fake, bot_running(fake, db, seed=31) as bot:
        ch = fake.channel_ids[0]
        msg = await open_game(fake, bot, ch)
        assert bot.service is not None and bot.integrity is not None
        game = await bot.service.tables.channel_game_id(ch)
        thread = play_channel(fake, ch)
        damage(db)
        await bot.integrity.check()  # the periodic check, now
        notice = t("notice.storage_broken", game=game)
        await fake.wait_for(lambda: any(m.content == notice
                                        for m in fake.channel_messages(thread)), 10)
        assert [m.content for m in fake.channel_messages(thread)].count(notice) == 1
        uid = prompt_users(msg)[0]
        select = next(c for c in msg.controls() if c["type"] == 3)
        for option in select["options"][:4]:
            inter = await fake.click(uid, msg, select["custom_id"], [option["value"]])
            await fake.wait_for(lambda i=inter: i.replies)
            refused_privately(inter, uid, "damaged", "bot's side")
        r = await fake.slash(uid, ch, "place", hex=select["options"][0]["value"].split(":")[-1])
        refused_privately(r, uid, "damaged")
        await bot.integrity.check()
        await settle(bot)
        assert [m.content for m in fake.channel_messages(thread)].count(notice) == 1, "once"
        done = [m for m in fake.order if m.content.startswith("Done")]
        assert not done, done
        fake.check()
