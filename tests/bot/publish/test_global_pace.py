"""Discord's global limit (50 requests per second, interactions excepted) is kept by the
bot rather than hit (bot/publish/request_pace.py)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import discord
import pytest

from bot.publish.request_pace import (
    AGING,
    BACKGROUND,
    NORMAL,
    URGENT,
    GlobalPace,
    counts,
    install,
    priority,
)
from bot.runtime.worker_pool import Superseded
from tests.bot.publish.test_outbox import max_in_window


def test_interaction_routes_do_not_count() -> None:
    r = discord.http.Route
    assert counts(r("POST", "/channels/{channel_id}/messages", channel_id=1))
    assert counts(r("POST", "/users/@me/channels"))
    assert counts(r("GET", "/channels/{channel_id}", channel_id=1))
    assert not counts(r("POST", "/interactions/{interaction_id}/{interaction_token}/callback",
                        interaction_id=1, interaction_token="t"))
    assert not counts(r("POST", "/webhooks/{webhook_id}/{webhook_token}",
                        webhook_id=1, webhook_token="t"))


class _Http:
    """Stands in for discord.py's HTTPClient: notes when each request went out."""

    def __init__(self) -> None:
        self.sent: list[tuple[float, str]] = []

    async def request(self, route: discord.http.Route, **kwargs: Any) -> Any:
        self.sent.append((time.monotonic(), route.path))
        return {}


@pytest.mark.asyncio
async def test_requests_that_count_keep_under_the_limit_in_order() -> None:
    http = _Http()
    pace = install(http, GlobalPace(limit=10, period=0.2))  # type: ignore[arg-type]
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=1)
    dm = discord.http.Route("POST", "/users/@me/channels")
    hook = discord.http.Route("POST", "/webhooks/{webhook_id}/{webhook_token}",
                              webhook_id=1, webhook_token="t")
    t0 = time.monotonic()
    await asyncio.gather(*(http.request(route if i % 2 else dm) for i in range(40)),
                         *(http.request(hook) for _ in range(20)))
    counted = [t for t, p in http.sent if not p.startswith("/webhooks")]
    assert len(counted) == 40
    assert max_in_window(counted, 0.2 - 0.01) <= 10
    assert time.monotonic() - t0 >= 3 * 0.2 - 0.05  # 40 requests need at least 4 windows
    hooks = [t for t, p in http.sent if p.startswith("/webhooks")]
    assert max(hooks) - t0 < 0.1, "interaction follow-ups never wait"
    assert pace.waited > 0


@pytest.mark.asyncio
async def test_waiting_requests_go_by_priority_then_in_order() -> None:
    """Once the budget is spent, what players wait for (URGENT) goes before other boards
    (NORMAL) and before DMs and tidying (BACKGROUND)."""
    pace = GlobalPace(limit=1, period=0.05)
    order: list[str] = []

    async def ask(name: str, level: int) -> None:
        await pace.slot(level)
        order.append(name)

    await ask("first", NORMAL)  # spends the window
    tasks = [asyncio.create_task(ask(n, lv)) for n, lv in
             [("dm1", BACKGROUND), ("board1", NORMAL), ("click1", URGENT),
              ("dm2", BACKGROUND), ("click2", URGENT), ("board2", NORMAL)]]
    await asyncio.wait_for(asyncio.gather(*tasks), 10)
    assert order == ["first", "click1", "click2", "board1", "board2", "dm1", "dm2"]
    assert pace.granted == {NORMAL: 3, URGENT: 2, BACKGROUND: 2}


@pytest.mark.asyncio
async def test_a_waiting_background_request_is_not_starved(monkeypatch: Any) -> None:
    """Waiting raises a request's priority (AGING): DMs are late under load, not lost."""
    import bot.publish.request_pace as gp

    monkeypatch.setattr(gp, "AGING", 0.1)
    pace = GlobalPace(limit=1, period=0.5)
    await pace.slot()  # the budget is spent for 0.5 s
    order: list[str] = []

    async def ask(name: str, level: int) -> None:
        await pace.slot(level)
        order.append(name)

    dm = asyncio.create_task(ask("dm", BACKGROUND))
    await asyncio.sleep(0.3)  # by 0.5 s the DM has waited five levels' worth
    board = asyncio.create_task(ask("board", URGENT))
    await asyncio.wait_for(asyncio.gather(dm, board), 10)
    assert order == ["dm", "board"]
    assert AGING >= 1.0, "in production a level is worth seconds of waiting"


@pytest.mark.asyncio
async def test_a_request_no_longer_wanted_is_dropped_without_spending_a_slot() -> None:
    """A board edit whose game moved on while it waited is dropped when its turn comes
    (Superseded to its caller, which writes the newest instead)."""
    http = _Http()
    pace = install(http, GlobalPace(limit=1, period=0.1))  # type: ignore[arg-type]
    route = discord.http.Route("PATCH", "/channels/{channel_id}/messages/{message_id}",
                               channel_id=1, message_id=2)
    newest = {"v": 1}
    await http.request(route)  # spends the window

    async def edit(v: int) -> str:
        with priority(URGENT, lambda: newest["v"] == v):
            try:
                await http.request(route)
            except Superseded:
                return f"dropped {v}"
        return f"sent {v}"

    old = asyncio.create_task(edit(1))
    await asyncio.sleep(0.01)
    newest["v"] = 2
    new = asyncio.create_task(edit(2))
    t0 = time.monotonic()
    assert await asyncio.wait_for(old, 5) == "dropped 1"
    assert await asyncio.wait_for(new, 5) == "sent 2"
    assert time.monotonic() - t0 < 0.1 + 0.08, "the dropped one spent no slot"
    assert len(http.sent) == 2 and pace.dropped == 1


class _SlowHttp:
    """Requests that reach Discord late (a busy event loop, a slow network): each arrives
    at the end of its own delay."""

    def __init__(self, delays: list[float]) -> None:
        self.delays = delays
        self.arrived: list[float] = []

    async def request(self, route: discord.http.Route, **kwargs: Any) -> Any:
        await asyncio.sleep(self.delays.pop(0))
        self.arrived.append(time.monotonic())
        return {}


@pytest.mark.asyncio
async def test_requests_that_arrive_late_still_keep_under_the_limit() -> None:
    """A request counts from its grant until a period after its answer: ten slow ones
    granted first and ten quick ones granted a period later would otherwise reach
    Discord within one window (the global 429s of the load bench's set-up)."""
    http = _SlowHttp([0.15] * 10 + [0.0] * 10)
    install(http, GlobalPace(limit=10, period=0.2))  # type: ignore[arg-type]
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=1)
    await asyncio.wait_for(asyncio.gather(*(http.request(route) for _ in range(20))), 10)
    assert len(http.arrived) == 20
    assert max_in_window(http.arrived, 0.2 - 0.01) <= 10
