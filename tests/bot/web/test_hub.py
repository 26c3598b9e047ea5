"""The pages' hub: a game another process runs (several processes on PostgreSQL) is
looked up in the store for its pages here, which get its changes."""

from __future__ import annotations

import asyncio

import pytest

from bot.table.model import record_of
from bot.web import hub as hub_module
from bot.web.pages import Viewer
from render.positions import last_move_of, recent_move
from tests.bot.web.rig import HOST, new_game, play_until, rig


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


@pytest.mark.asyncio
async def test_the_boards_last_move_is_the_newest_step_that_has_one() -> None:
    """A computer's steps reach the pages one by one and its turn ends with steps that mark
    nothing (ending a move, drawing): the pages' overlay stays the newest step that marks
    something, as the record's pictures show it (render.positions.recent_move)."""
    async with rig() as r:
        g = await new_game(r, computers=2)
        checked = 0
        for seed in range(1, 40):
            await play_until(r, g, lambda table, n=seed: len(table.moves) >= 20 + 3 * n,
                             seed=seed)
            table = await r.table(g)
            if table.game.status != "active":
                break
            expected = recent_move(record_of(table))
            found = hub_module.Hub.last_move(table)
            recent = [a for _, a in table.moves[-hub_module.RECENT_STEPS:]
                      if last_move_of(a) is not None]
            if recent:
                assert found == expected
                checked += 1
            else:
                assert found is None
        assert checked > 5
