"""The pages' hub: a game another process runs (several processes on PostgreSQL) is
looked up in the store for its pages here, which get its changes."""

from __future__ import annotations

import asyncio

import pytest

from bot.web import hub as hub_module
from bot.web.pages import Viewer
from tests.bot.web.rig import HOST, new_game, rig


@pytest.mark.asyncio
async def test_pages_of_a_game_another_process_runs_get_its_changes(monkeypatch) -> None:
    monkeypatch.setattr(hub_module, "FOREIGN_EVERY_S", 0.01)
    async with rig() as r:
        g = await new_game(r)
        hub = r.front.hub
        assert hub is not None
        await hub.close()  # the rig's hub watches at its own pace: a new one here
        hub = hub_module.Hub(r.service)
        table = await r.table(g)
        page = hub.open(Viewer(g, None, HOST, "en"), table.version, "")
        caught_up = []

        async def refresh(game_id: int, version: int | None = None) -> bool:
            caught_up.append(game_id)
            if len(caught_up) > 1:
                return False
            table.game.version += 1  # what another process committed, now read here
            return True

        r.service.ownership.owns = lambda guild: False
        monkeypatch.setattr(r.service.sync, "refresh", refresh)
        hub.start()
        try:
            await asyncio.wait_for(page.ready.wait(), 5)
            assert caught_up[0] == g and page.version == table.version
            assert page.take() is not None
        finally:
            await hub.close()
