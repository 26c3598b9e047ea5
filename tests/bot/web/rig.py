"""A table service with the live pages on a local port, and a game to look at (no
Discord): what the unit tests and the bench drive."""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from types import SimpleNamespace
from typing import Any

from bot.operator.settings import Settings
from bot.store.sqlite import SqliteStorage
from bot.table.model import Outcome, Table
from bot.table.service import TableService
from bot.web.front import WebFront
from bot.web.links import Links
from tests.bot.fake_discord import FakeDiscord

HOST, BOB, CY = 101, 102, 103
PEOPLE = (HOST, BOB, CY)
SECRET = b"a test secret of thirty-two bytes"


class Sink:
    def __init__(self) -> None:
        self.outcomes: list[Outcome] = []

    async def publish(self, outcome: Outcome) -> None:
        self.outcomes.append(outcome)


@dataclass
class Rig:
    service: TableService
    front: WebFront
    links: Links
    sink: Sink

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.front.port}"

    def token(self, game_id: int, seat: int | None, user_id: int, hours: float | None = None
              ) -> str:
        return self.links.token(game_id, seat, user_id, hours)

    async def table(self, game_id: int) -> Table:
        return await self.service.tables.get(game_id)


@contextlib.asynccontextmanager
async def rig(*, ai_delay: float = 0.0, max_pages: int | None = None,
              discord: FakeDiscord | None = None) -> AsyncIterator[Rig]:
    """``discord``: the pages are also the Activity of that fake Discord's application."""
    store = await SqliteStorage.open(":memory:")
    sink = Sink()
    service = TableService(store, sink, ai_delay=ai_delay, seed_source=lambda: 7)
    settings = Settings(db=":memory:", web_port=0, web_url="https://tempus.example/",
                        web_host="127.0.0.1", web_secret=SECRET.decode())
    bot = SimpleNamespace(service=service)
    if discord is not None:
        settings = replace(settings, activity_secret=discord.client_secret,
                           api_base=discord.api_base)
        bot = SimpleNamespace(service=service, application_id=discord.app_id,
                              application_flags=SimpleNamespace(embedded=discord.activities),
                              http=SimpleNamespace(token="fake-token"))
    links = Links(SECRET, settings.web_url or "")
    front = WebFront(settings, links=links)
    await front.attach(bot)
    if max_pages is not None:
        assert front.hub is not None
        front.hub.max_pages = max_pages
    try:
        yield Rig(service, front, links, sink)
    finally:
        await front.close()
        await service.close()
        await store.close()


async def new_game(r: Rig, *, players: int = 3, seed: int = 7, channel: int = 10,
                   computers: int = 0) -> int:
    """A started game of ``players`` seats (people ``PEOPLE`` and then computers)."""
    lobby = r.service.lobby
    o = await lobby.create(1, channel, HOST, "Ann", seats=players, seed=seed)
    g = o.game_id
    people = players - computers
    for uid, name in list(zip(PEOPLE[1:], ("Bob", "Cy")))[: people - 1]:
        await lobby.join(g, uid, name)
    for _ in range(computers):
        await lobby.add_ai(g, HOST, "random")
    await lobby.start(g, HOST)
    return g


async def play_until(r: Rig, g: int, done: Any, *, seed: int = 1, limit: int = 2000) -> None:
    """People act at random through the service until ``done(table)``."""
    rng = random.Random(seed)
    for _ in range(limit):
        await r.service.idle()
        table = await r.table(g)
        if done(table) or table.game.status != "active":
            return
        people = sorted(s for s in table.since if not table.seats[s].is_ai)
        if not people:
            continue
        seat = rng.choice(people)
        uid = table.seats[seat].user_id
        assert uid is not None
        action = rng.choice(await r.service.play.legal(g, uid))
        await r.service.play.act(g, uid, action, table.version)
    raise AssertionError("the game never got there")


def in_actions(table: Table) -> bool:
    """The first turn of the actions phase, a person to decide."""
    state = table.state
    return state is not None and state.phase == "actions" and bool(table.since)
