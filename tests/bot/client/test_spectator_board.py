"""``/tempus board`` by someone who does not play the game: the board, without the seats'
controls (every click on them would only be refused: "You are not playing in game #1")."""

from __future__ import annotations

import pytest

from bot.client.commands.answers import Asker, board_answer
from tests.bot.client.test_after_commands import ANN, BOB, CY, EVE, _close
from tests.bot.history.test_history import GUILD, store_game


@pytest.mark.asyncio
async def test_a_spectators_board_shows_no_seats_controls() -> None:
    from bot.store.sqlite import SqliteStorage
    from bot.table.service import TableService
    from tests.bot.helpers import CollectSink

    store = await SqliteStorage.open(":memory:")
    svc = TableService(store, CollectSink(), ai_delay=0, seed_source=lambda: 7)
    live = await store_game(store, [ANN, BOB, CY], 8, channel=11, stop_after=60)
    player = await board_answer(svc, Asker(ANN, GUILD, 11), f"#{live}")
    assert player.files and player.panel is not None and player.panel.controls(), \
        "a player gets the turn message's controls (to play from here)"
    spectator = await board_answer(svc, Asker(EVE, GUILD, 11), f"#{live}")
    assert spectator.files and spectator.text == player.text
    assert spectator.panel is None
    await _close(svc)
