"""The fake Discord's sharded gateway sessions, with a bare websocket client: READY per
shard, a guild only to its shard ((guild_id >> 22) % count), with several guilds each
session getting exactly its guilds' GUILD_CREATEs and events, DM interactions to shard 0,
an invalid shard closed with 4010, and ``GET /gateway/bot`` as Discord answers it."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import pytest

from tests.bot.fake_discord import (
    FakeDiscord,
    Message,
    message_json,
    running,
    shard_of,
    spread_guilds,
)

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


async def guild_events(ws: aiohttp.ClientWebSocketResponse, ready: dict[str, Any]
                       ) -> list[dict[str, Any]]:
    """The GUILD_CREATEs that follow READY (one per guild READY lists)."""
    return [await next_event(ws) for _ in ready["d"]["guilds"]]


@pytest.mark.asyncio
async def test_several_guilds_each_session_gets_only_its_guilds() -> None:
    channels = tuple(3000 + i for i in range(8))
    guilds = spread_guilds(channels, 4, shard_count=2)
    assert [shard_of(g, 2) for g in guilds] == [0, 1, 0, 1]
    assert sorted(c for cs in guilds.values() for c in cs) == list(channels)
    async with running(guilds=guilds) as fake, aiohttp.ClientSession() as http:
        assert fake.channel_ids == tuple(c for cs in guilds.values() for c in cs)
        assert fake.guild_id == next(iter(guilds))
        on = {s: [g for g in guilds if shard_of(g, 2) == s] for s in (0, 1)}
        socks: dict[int, aiohttp.ClientWebSocketResponse] = {}
        for s in (0, 1):
            ws = await http.ws_connect(fake.gateway)
            await ws.receive()  # HELLO
            await ws.send_str(json.dumps({"op": 2, "d": {"token": "t", "shard": [s, 2]}}))
            ready = await next_event(ws)
            assert ready["t"] == "READY"
            assert [int(g["id"]) for g in ready["d"]["guilds"]] == on[s]
            created = await guild_events(ws, ready)
            assert [e["t"] for e in created] == ["GUILD_CREATE"] * 2
            assert [int(e["d"]["id"]) for e in created] == on[s]
            for e in created:  # each guild with its own channels, and only those
                gid = int(e["d"]["id"])
                assert [int(c["id"]) for c in e["d"]["channels"]] == list(guilds[gid])
                assert {c["guild_id"] for c in e["d"]["channels"]} == {str(gid)}
            socks[s] = ws
        for gid, cs in guilds.items():  # a click in each guild reaches its shard only
            panel = Message(fake.next_id(), cs[-1], "x", [{"type": 1, "components": [
                {"type": 2, "custom_id": "a", "label": "A", "style": 1}]}], [])
            fake._add(panel)
            assert message_json(fake, panel)["guild_id"] == str(gid)
            inter = await fake.click(11, panel, "a", wait=False)
            assert inter.shard == shard_of(gid, 2)
            got = await next_event(socks[inter.shard])
            assert got["t"] == "INTERACTION_CREATE"
            assert got["d"]["guild_id"] == str(gid) and got["d"]["channel_id"] == str(cs[-1])
            assert got["d"]["channel"]["guild_id"] == str(gid)
        # a thread in a guild of shard 1: THREAD_CREATE there, with its guild
        gid1 = on[1][0]
        async with http.post(f"{fake.api_base}/channels/{guilds[gid1][0]}/threads",
                             json={"name": "t", "type": 11}) as r:
            assert r.status == 201
            thread = await r.json()
        assert thread["guild_id"] == str(gid1)
        got = await next_event(socks[1])
        assert got["t"] == "THREAD_CREATE" and got["d"]["guild_id"] == str(gid1)
        assert fake.guild_of(int(thread["id"])) == gid1
        # a channel update in a guild of shard 0, then a DM: both to shard 0
        gid0 = on[0][1]
        fake.deny_threads(guilds[gid0][0])
        got = await next_event(socks[0])
        assert got["t"] == "CHANNEL_UPDATE" and got["d"]["guild_id"] == str(gid0)
        dm = Message(fake.next_id(), fake.dm_channel(12), "y", panel.components, [],
                     where="dm", to_user=12)
        fake._add(dm)
        assert (await fake.click(12, dm, "a", wait=False)).shard == 0
        got = await next_event(socks[0])
        assert got["t"] == "INTERACTION_CREATE" and "guild_id" not in got["d"]
        # and nothing else reached either session: every event went to its guild's shard
        for name, data in fake.dispatched:
            gid = data.get("guild_id") if name not in ("READY", "GUILD_CREATE") else None
            if gid is not None:
                assert fake.guild_of(int(data.get("channel_id") or data["id"])) == int(gid)
        for ws in socks.values():
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(ws.receive(), 0.2)
            await ws.close()
        start = ["READY", "GUILD_CREATE", "GUILD_CREATE"]
        clicks = ["INTERACTION_CREATE"] * 2
        assert [e for e, s in fake.routed if s == 0] == start + clicks + [
            "CHANNEL_UPDATE", "INTERACTION_CREATE"]
        assert [e for e, s in fake.routed if s == 1] == start + clicks + ["THREAD_CREATE"]
        assert not fake.errors


@pytest.mark.asyncio
async def test_one_unsharded_session_gets_every_guild() -> None:
    guilds = spread_guilds(tuple(range(5000, 5006)), 3, shard_count=2)
    async with running(guilds=guilds) as fake, aiohttp.ClientSession() as http:
        ws, events = await identify(http, fake, [0, 1])
        events += [await next_event(ws) for _ in range(2)]
        assert [e["t"] for e in events] == ["READY"] + ["GUILD_CREATE"] * 3
        assert [int(e["d"]["id"]) for e in events[1:]] == list(guilds)
        await ws.close()
    with pytest.raises(ValueError):
        spread_guilds((1, 2), 3)
