"""Which refusal comes first when a request is wrong twice: the game is looked up before
its own argument is read (an action's text, a card choice, a computer's level), since
what the argument means is the game's to say (games.port). A game that does not exist is
named as such, whatever else is wrong."""

from __future__ import annotations

import pytest

from bot.store.sqlite import SqliteStorage
from bot.table.model import TableError
from bot.table.service import TableService
from games.controls import Op
from tests.bot.helpers import CollectSink


@pytest.mark.asyncio
async def test_an_unknown_game_is_named_before_a_bad_argument() -> None:
    store = await SqliteStorage.open(":memory:")
    svc = TableService(store, CollectSink(), ai_delay=0)
    try:
        for op, arg in ((Op.ACT, "no:such:action"), (Op.CARDS, "no_such_kind")):
            with pytest.raises(TableError) as info:
                await svc.clicks.use(404, 1, 101, "Ann", op, arg, None)
            assert info.value.key == "error.no_game", op
        with pytest.raises(TableError) as info:
            await svc.lobby.add_ai(404, 101, "grandmaster")
        assert info.value.key == "error.no_game"
        with pytest.raises(TableError) as info:
            await svc.seats.autopilot(404, 101, None, True, "grandmaster")
        assert info.value.key == "error.no_game"
    finally:
        await svc.close()
        await store.close()
