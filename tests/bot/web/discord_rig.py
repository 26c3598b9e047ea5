"""The real bot with its live pages on, against the fake Discord: a game of three people
opened with slash commands and played to its first turn, and their links as the "🗺️
Board" button gives them."""

from __future__ import annotations

import contextlib
import random
import re
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.client.app import TempusBot
from bot.web.front import WebFront
from tests.bot.e2e import bot_running, panel_message, play_channel
from tests.bot.fake_discord import FakeDiscord, Interaction, Message, running

ANN, BOB, CY, WATCHER = 11, 12, 13, 99
SECRET = "the browser test's secret, 32 bytes long"
LINK = re.compile(r"(https?://\S+/#[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Table:
    fake: FakeDiscord
    bot: TempusBot
    channel: int
    game: int

    @property
    def web(self) -> WebFront:
        front = self.bot.beside[0]
        assert isinstance(front, WebFront)
        return front

    @property
    def thread(self) -> int:
        return play_channel(self.fake, self.channel)

    def turn_message(self) -> Message:
        msg = panel_message(self.fake, self.channel)
        assert msg is not None
        return msg

    async def board(self, uid: int) -> Interaction:
        """A click of the turn message's "🗺️ Board" by ``uid``: what Discord saw of it."""
        msg = self.turn_message()
        board = next(c["custom_id"] for c in msg.controls()
                     if c["custom_id"].split(":")[3] == "board")
        return await self.fake.click(uid, msg, board)

    async def board_link(self, uid: int) -> str:
        """What the turn message's "🗺️ Board" answers ``uid``, privately: their link."""
        inter = await self.board(uid)
        assert all(m.where == "ephemeral" for m in inter.replies), "answered privately"
        found = LINK.search(inter.text())
        assert found, inter.text()
        return found.group(1)


@contextlib.asynccontextmanager
async def table_with_pages(tmp_path: Path, *, seed: int = 5, web: bool = True,
                           activity: bool | None = None) -> AsyncIterator[Table]:
    """``activity``: the pages are also the application's Activity, which Discord launches
    in threads (True) or refuses to there (False)."""
    port = free_port()
    settings: dict[str, Any] = {}
    if web:
        settings = {"web_port": port, "web_url": f"http://127.0.0.1:{port}/",
                    "web_host": "127.0.0.1", "web_secret": SECRET}
    async with running() as fake:
        if activity is not None:
            fake.enable_activities(in_threads=activity)
            settings["activity_secret"] = fake.client_secret
        async with bot_running(fake, tmp_path / "t.db", seed=seed, settings=settings) as bot:
            yield await _opened(fake, bot)


async def _opened(fake: FakeDiscord, bot: TempusBot) -> Table:
    """A game of three people opened with slash commands, at its first turn."""
    ch = fake.channel_ids[0]
    await fake.slash(ANN, ch, "new", seats=3)
    await fake.slash(BOB, ch, "join")
    await fake.slash(CY, ch, "join")
    await fake.slash(ANN, ch, "start")
    assert bot.service is not None
    await bot.service.idle()
    game = max(t.id for t in bot.service.tables)
    await _to_the_first_turn(bot, game)
    return Table(fake, bot, ch, game)


async def _to_the_first_turn(bot: TempusBot, game: int) -> None:
    """The starting tokens placed (through the table service, as clicks would)."""
    service = bot.service
    assert service is not None
    rng = random.Random(3)
    for _ in range(100):
        await service.idle()
        table = await service.tables.get(game)
        if table.state is not None and table.state.phase == "actions":
            return
        seat = min(table.since)
        uid = table.seats[seat].user_id
        assert uid is not None
        action = rng.choice(await service.play.legal(game, uid))
        await service.play.act(game, uid, action, table.version)
    raise AssertionError("the setup never ended")
