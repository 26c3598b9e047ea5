"""A game stored before the revised rulings (its options have no
``rules_version``: rules 1) loads through the table service, replays under rules 1, goes
on under rules 1 and reads as rules 1 in its history. The logs are real rules-1 games
(tests/engine/data/rules1-*.json) that break under rules 2, so replaying them under the
current rules would set the game aside or change it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.history import ledger as hist
from bot.store import ACTIVE
from bot.store.sqlite import SqliteStorage
from bot.table.service import TableService
from engine import IllegalAction, view
from engine.game import apply_in_place
from engine.record import Record, ReplayError, replay
from engine.rules import LEGACY_RULES_VERSION, RULES_VERSION
from games.tempus.describe import status_text
from lang.messages import t
from tests.bot.helpers import CollectSink

DATA = Path(__file__).resolve().parents[2] / "engine" / "data"
LOGS = sorted(DATA.glob("rules1-*.json"))
LEFT = 3  # actions of the log kept back: the game is still being played


def _breaks_under_rules_2(record: Record, n: int) -> bool:
    """Whether the first ``n`` moves replay differently (or not at all) under rules 2."""
    old = Record(**{**record.__dict__, "moves": record.moves[:n]})
    new = Record(**{**old.__dict__, "rules_version": RULES_VERSION, "options": {}})
    try:
        return replay(new) != replay(old)
    except (IllegalAction, ReplayError):
        return True


async def _store_old_game(store: SqliteStorage, record: Record, users: list[int]) -> int:
    """Store the first moves of ``record`` as the bot did before rules versions: the
    options without ``rules_version``, an active game, a log of actions."""
    options = {"max_seats": record.num_players, "random_map": record.random_map,
               "seed": record.seed, "start_player": record.start_player}
    g = await store.create_game(1, 10, users[0], None, dict(options))  # no seat yet
    v = g.version
    for u in users:
        v = await store.add_seat(g.id, v, u, None, f"P{u}")
    live, _ = record.new_state()
    v = await store.start(g.id, v, dict(options), live.to_json())
    moves = record.moves[:-LEFT]
    for i, (seat, action) in enumerate(moves):
        apply_in_place(live, seat, action)
        last = i == len(moves) - 1
        v = await store.append_action(g.id, v, i, seat, action.to_json(),
                                      live.to_json() if last else {}, ACTIVE)
    stored = await store.game(g.id)
    assert stored is not None and "rules_version" not in stored.options
    return g.id


@pytest.mark.asyncio
@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
async def test_a_game_stored_before_rules_versions_replays_under_rules_1(path: Path) -> None:
    record = Record.from_json(json.loads(path.read_text()))
    assert record.rules_version == LEGACY_RULES_VERSION
    n = len(record.moves) - LEFT
    assert _breaks_under_rules_2(record, n), "the log would not tell the versions apart"
    store = await SqliteStorage.open(":memory:")
    users = [300 + i for i in range(record.num_players)]
    g = await _store_old_game(store, record, users)
    svc = TableService(store, CollectSink(), ai_delay=0, seed_source=lambda: 7)
    try:
        assert await svc.sync.resume_all() == [g]
        assert not svc.set_aside
        table = await svc.tables.get(g)
        expected = replay(Record(**{**record.__dict__, "moves": record.moves[:n]}))
        assert table.state is not None and table.state.rules_version == LEGACY_RULES_VERSION
        assert table.state == expected
        assert (await svc.record(g))["options"]["rules_version"] == LEGACY_RULES_VERSION
        # it goes on under rules 1: the next move of the original game is accepted
        seat, action = record.moves[n]
        await svc.act(g, users[seat], action, table.version)
        assert len((await svc.tables.get(g)).moves) == n + 1
        assert (await svc.tables.get(g)).state.rules_version == LEGACY_RULES_VERSION
        # /tempus status says so, and the history reads the log as rules 1 too
        text = status_text(g, view(table.state, None), table.seats)
        assert t("status.safe") not in text  # a lone city counts under rules 1
        assert "tokens on 3" not in text
        game = await store.game(g)
        assert game is not None
        rows = await store.actions(g)
        old = hist.record_from_rows(game, await store.seats(g), rows)
        assert old.rules_version == LEGACY_RULES_VERSION and len(old.moves) == n + 1
        assert replay(old).to_json() == (await svc.tables.get(g)).state.to_json()
    finally:
        await svc.close()
        await store.close()
