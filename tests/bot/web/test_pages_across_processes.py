"""Several processes on one PostgreSQL database: a page served by a process that does not
own the game sees it and its changes, and its taps reach the owner, which announces them
(as a click in that process would)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import aiohttp
import pytest

from bot.operator.settings import Settings
from bot.web.front import WebFront
from bot.web.links import Links
from tests.bot.cluster import test_cluster as cluster
from tests.bot.cluster.test_cluster import Process, _game, settle
from tests.bot.web.rig import SECRET
from tests.bot.web.test_server import _event

#: processes A and B on one PostgreSQL database (the cluster tests' fixture)
two = cluster.two


async def _front(proc: Process) -> tuple[WebFront, Links]:
    settings = Settings(db=":memory:", web_port=0, web_url="https://tempus.example/",
                        web_host="127.0.0.1", web_secret=SECRET.decode())
    links = Links(SECRET, settings.web_url or "")
    front = WebFront(settings, links=links)
    await front.attach(SimpleNamespace(service=proc.service))
    return front, links


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.asyncio
async def test_a_page_on_another_process_sees_the_game_and_its_taps_reach_the_owner(
        two: tuple[Process, Process]) -> None:
    a, b = two  # the game's server is on B's shard: A does not own it
    g = await _game(b)
    await settle(a, b)
    front, links = await _front(a)
    base = f"http://127.0.0.1:{front.port}"
    try:
        owner_table = await b.service.tables.get(g)
        seat = min(owner_table.since)
        uid = owner_table.seats[seat].user_id
        assert uid is not None
        announced = len(b.sink.outcomes)
        async with aiohttp.ClientSession() as s:
            async with s.get(base + "/api/state", headers=_auth(links.token(g, seat, uid))
                             ) as resp:
                assert resp.status == 200
                state = (await resp.json())["state"]
            assert state["v"] == owner_table.version
            watch = await s.get(base + f"/api/stream?v={state['v']}&map=",
                                headers=_auth(links.token(g, None, 555)))
            choices = state["choices"]
            move = next(c for c in (*choices["pairs"], *choices["spots"], *choices["buttons"])
                        if c.get("steps"))
            async with s.post(base + "/api/act", headers=_auth(links.token(g, seat, uid)),
                              json={"v": state["v"], "steps": move["steps"]}) as resp:
                answer = await resp.json()
                assert resp.status == 200, answer
            seen = await asyncio.wait_for(_event(watch), 5)
            assert seen["state"]["v"] > state["v"], "the watching page on A saw the move"
            watch.close()
        await settle(a, b)
        assert a.sink.outcomes == [], "the page's process never announces another's game"
        assert len(b.sink.outcomes) > announced, "the owner announced the tap"
        assert (await b.service.tables.get(g)).version == answer["v"]
    finally:
        await front.close()
