"""The fake Discord's sharded gateway sessions, with a bare websocket client: READY per
shard, the guild only to its shard ((guild_id >> 22) % count), DM interactions to shard 0,
an invalid shard closed with 4010, and ``GET /gateway/bot`` as Discord answers it."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import pytest

from .fake_discord import FakeDiscord, Message, running

GUILD = 1 << 22  # shard 1 of 2


async def identify(http: aiohttp.ClientSession, fake: FakeDiscord, shard: list[int]
                   ) -> tuple[aiohttp.ClientWebSocketResponse, list[dict[str, Any]]]:
    ws = await http.ws_connect(fake.gateway)
    hello = json.loads((await ws.receive()).data)
    assert hello["op"] == 10
    await ws.send_str(json.dumps({"op": 2, "d": {"token": "t", "intents": 1,
                                                 "properties": {}, "shard": shard}}))
    events = [json.loads((await ws.receive()).data)]
    assert events[0]["t"] == "READY"
    if events[0]["d"]["guilds"]:
        events.append(json.loads((await ws.receive()).data))
    return ws, events


async def next_event(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    return json.loads((await asyncio.wait_for(ws.receive(), 5)).data)


@pytest.mark.asyncio
async def test_guild_events_go_to_the_guilds_shard_and_dms_to_shard_0() -> None:
    async with running(guild_id=GUILD) as fake, aiohttp.ClientSession() as http:
        ws0, ev0 = await identify(http, fake, [0, 2])
        ws1, ev1 = await identify(http, fake, [1, 2])
        assert [e["t"] for e in ev0] == ["READY"] and ev0[0]["d"]["shard"] == [0, 2]
        assert ev0[0]["d"]["guilds"] == []
        assert [e["t"] for e in ev1] == ["READY", "GUILD_CREATE"]
        assert ev1[0]["d"]["shard"] == [1, 2] and ev1[1]["d"]["id"] == str(GUILD)
        assert [e["s"] for e in ev1] == [1, 2], "each session counts its own sequence"
        panel = Message(fake.next_id(), fake.channel_ids[0], "x",
                        [{"type": 1, "components": [{"type": 2, "custom_id": "a",
                                                     "label": "A", "style": 1}]}], [])
        fake._add(panel)
        in_guild = await fake.click(11, panel, "a", wait=False)
        assert in_guild.shard == 1
        assert (await next_event(ws1))["d"]["guild_id"] == str(GUILD)
        dm = Message(fake.next_id(), fake.dm_channel(11), "y", panel.components, [],
                     where="dm", to_user=11)
        fake._add(dm)
        in_dm = await fake.click(11, dm, "a", wait=False)
        assert in_dm.shard == 0
        got = await next_event(ws0)
        assert got["t"] == "INTERACTION_CREATE" and "guild_id" not in got["d"]
        fake.deny_threads(fake.channel_ids[0])
        assert (await next_event(ws1))["t"] == "CHANNEL_UPDATE"
        await ws0.close()
        await ws1.close()
        assert not fake.errors


@pytest.mark.asyncio
async def test_an_invalid_shard_is_closed_with_4010_and_gateway_bot_answers() -> None:
    async with running(shards=2) as fake, aiohttp.ClientSession() as http:
        ws = await http.ws_connect(fake.gateway)
        await ws.receive()
        await ws.send_str(json.dumps({"op": 2, "d": {"token": "t", "shard": [2, 2]}}))
        closed = await asyncio.wait_for(ws.receive(), 5)
        assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == 4010
        fake.errors.clear()
        async with http.get(fake.api_base + "/gateway/bot") as r:
            body = await r.json()
        assert body["url"] == fake.gateway and body["shards"] == 2
        limit = body["session_start_limit"]
        assert set(limit) == {"total", "remaining", "reset_after", "max_concurrency"}
        async with http.get(fake.api_base + "/gateway") as r:
            assert await r.json() == {"url": fake.gateway}
