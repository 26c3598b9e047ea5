"""Discord's global limit (50 requests per second, interactions excepted) is kept by the
bot rather than hit (bot/global_pace.py)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import discord
import pytest

from bot.global_pace import GlobalPace, counts, install

from .test_outbox import max_in_window


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
