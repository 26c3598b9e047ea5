"""Smoke: the real bot connects to the fake Discord and opens a table."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.e2e import bot_running, panel_message
from tests.bot.fake_discord import running


@pytest.mark.asyncio
async def test_lobby_through_slash_commands(tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=5) as bot:
        ch = fake.channel_ids[0]
        r = await fake.slash(11, ch, "new", seats=3)
        assert "created" in r.text()
        await bot.service.idle()
        lobby = panel_message(fake, ch)
        assert lobby is not None and "Join" in str(lobby.components), "everyone sees the lobby"
        await fake.slash(12, ch, "join")
        await fake.slash(13, ch, "join")
        await fake.slash(11, ch, "start")
        await bot.service.idle()
        msg = panel_message(fake, ch)
        assert msg is not None and "starting token" in msg.content
        fake.check()
