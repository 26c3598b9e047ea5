"""A lobby is opened for a game by its stored name (games/registry.py), with that game's own
table options over its defaults (``Rules.default_options``): the host passes them through
without knowing them, stores the game's name with the table, and a rematch opens the same
game with the same options."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.store.sqlite import SqliteStorage
from bot.table import rematch
from bot.table.service import TableError, TableService
from games import registry
from tests.bot.helpers import CollectSink

HOST, BOB = 100, 101


@pytest_asyncio.fixture
async def table() -> AsyncIterator[tuple[TableService, SqliteStorage]]:
    store = await SqliteStorage.open(":memory:")
    svc = TableService(store, CollectSink(), ai_delay=0, seed_source=lambda: 3)
    try:
        yield svc, store
    finally:
        await svc.close()
        await store.close()


@pytest.mark.asyncio
async def test_a_lobby_stores_its_games_name_and_its_options_over_the_defaults(
        table: tuple[TableService, SqliteStorage]) -> None:
    svc, store = table
    o = await svc.lobby.create(1, 10, HOST, "Ann", game=registry.DEFAULT, seats=3,
                               options={"random_map": False})
    row = await store.game(o.game_id)
    assert row is not None and row.kind == registry.DEFAULT
    own = registry.game(registry.DEFAULT).rules.default_options()
    assert {k: row.options[k] for k in own} == {**own, "random_map": False}


@pytest.mark.asyncio
async def test_an_unknown_game_is_refused_in_words_and_an_unknown_option_is_a_bug(
        table: tuple[TableService, SqliteStorage]) -> None:
    svc, store = table
    with pytest.raises(TableError):
        await svc.lobby.create(1, 10, HOST, "Ann", game="chess")
    with pytest.raises(ValueError, match="no table options"):
        await svc.lobby.create(1, 10, HOST, "Ann", options={"castling": True})
    assert await store.open_game_ref(10) is None, "nothing opened"


@pytest.mark.asyncio
async def test_a_rematch_opens_the_same_game_with_the_same_options(
        table: tuple[TableService, SqliteStorage]) -> None:
    svc, store = table
    o = await svc.lobby.create(1, 10, HOST, "Ann", seats=3,
                               options={"random_map": False, "protection_counts_cities": True})
    await svc.lobby.join(o.game_id, BOB, "Bob")
    row = await store.game(o.game_id)
    assert row is not None
    opening = rematch.opening(row, await store.seats(o.game_id), HOST)
    assert opening.arguments["game"] == row.kind
    assert opening.arguments["options"] == {"random_map": False,
                                            "protection_counts_cities": True}
    assert "random_map" not in opening.arguments["extra"]


@pytest.mark.asyncio
async def test_a_rematch_of_a_row_written_long_ago_gets_its_options_of_the_right_kind(
        table: tuple[TableService, SqliteStorage]) -> None:
    """Options missing (a row older than them) take the game's defaults; a null or a 0/1
    stored by hand becomes a yes/no, which the game's rules accept."""
    svc, store = table
    o = await svc.lobby.create(1, 10, HOST, "Ann", seats=3)
    row = await store.game(o.game_id)
    assert row is not None
    row.options.pop("random_map")
    row.options["protection_counts_cities"] = None
    opening = rematch.opening(row, await store.seats(o.game_id), HOST)
    assert opening.arguments["options"] == {"random_map": True,
                                            "protection_counts_cities": False}
    row.kind = "a game long gone"
    with pytest.raises(TableError, match="no longer plays"):
        rematch.opening(row, await store.seats(o.game_id), HOST)
