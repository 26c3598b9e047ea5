"""How ``house_schema7.db`` was made: run from a checkout of the code whose storage wrote
it (schema 7, SQLite migrations as Python strings, before they became .sql files):

    cd <that checkout> && python <this file> <out.db>

Kept beside the database so that the fixture's making can be read (and redone for a later
schema from a later checkout); the tests only open the database, they never run this.
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.history import ledger
from bot.store.sqlite import DeadlineRow, MenuRow, SqliteStorage
from bot.table.service import TableService
from tests.bot.helpers import CollectSink
from tests.bot.history.test_history import store_game
from tests.bot.store.test_storage_failures import next_move, started

#: the game played through the table service and left mid-game, and how far it goes
PLAYED_CHANNEL, PLAYED_MOVES, PLAYED_SEED = 10, 30, 7


async def make(path: str) -> None:
    store = await SqliteStorage.open(path)
    svc = TableService(store, CollectSink(), ai_delay=0, seed_source=lambda: PLAYED_SEED)
    g = await started(svc, PLAYED_CHANNEL, seed=PLAYED_SEED)
    rng = random.Random(1)
    for _ in range(PLAYED_MOVES):
        uid, action, version = await next_move(svc, g, rng)
        await svc.act(g, uid, action, version)
    await svc.idle()
    await store.set_thread(g, 7700)
    await store.set_turn_message(g, 501, '["turn",1,0]', announced=(await store.game(g)).version)
    await store.set_deadlines(g, [DeadlineRow(0, 3, 1000.0, 1180.5, 1, 0),
                                  DeadlineRow(1, None, strikes=1, covering='["turn",2,1]')])
    await store.set_reminders(101, False)
    await store.set_user_locale(102, "pl")
    await store.put_private_menu(MenuRow(9001, 9002, g, 102, 3, "Choose", "pl"))
    # a finished game with its derived history (results, ratings)
    await store_game(store, [100, 101, None], 70, channel=11)
    await ledger.sync(store)
    # a lobby with a computer seat
    lobby = await svc.lobby.create(1, 12, 100, "Ann", seats=3, seed=3)
    await svc.add_ai(lobby.game_id, 100, "random")
    await svc.idle()
    await svc.close()
    await store.close()


if __name__ == "__main__":
    asyncio.run(make(sys.argv[1]))
