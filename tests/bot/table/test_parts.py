"""The table service's parts on their own: the click table, the announcer's ordering, the
commit path's version check, the outcome kinds."""

from __future__ import annotations

import pytest

from bot.store import VersionConflict
from bot.store.sqlite import SqliteStorage
from bot.table.announce import Announcer
from bot.table.commit import Change
from bot.table.model import Outcome, OutcomeKind, Stale
from bot.table.service import TableError, TableService
from games.controls import Op
from tests.bot.helpers import CollectSink

HOST, BOB = 100, 101


async def _service() -> TableService:
    return TableService(await SqliteStorage.open(":memory:"), CollectSink(), ai_delay=0,
                        seed_source=lambda: 7)


@pytest.mark.asyncio
async def test_every_op_has_one_handler_and_an_unknown_op_is_refused() -> None:
    svc = await _service()
    try:
        assert set(svc.clicks.handlers) == set(Op)
        g = (await svc.lobby.create(1, 10, HOST, "Ann", seats=3)).game_id
        with pytest.raises(TableError) as info:
            await svc.clicks.use(g, 1, BOB, "Bob", "nonsense", "")
        assert info.value.key == "error.bad_choice"
        reply = await svc.clicks.use(g, 1, BOB, "Bob", "join", "")  # a plain string works too
        assert reply.outcome is not None and reply.outcome.kind == OutcomeKind.LOBBY
    finally:
        await svc.close()
        await svc.storage.close()


def _outcome(version: int, actor: int | None, line: str) -> Outcome:
    return Outcome(1, 10, None, version, OutcomeKind.PLAY, [line], actor=actor)


@pytest.mark.asyncio
async def test_a_computer_run_is_announced_once_and_in_commit_order() -> None:
    sink = CollectSink()
    announcer = Announcer(sink, lambda guild_id: True)
    announcer.hold(_outcome(2, 1, "a"), more=True)
    announcer.hold(_outcome(3, 1, "b"), more=True)
    assert announcer.busy(1) and sink.outcomes == []
    announcer.enqueue(_outcome(4, 0, "c"))  # a person's move: the held run goes first
    await announcer.drain()
    assert [(o.version, o.lines) for o in sink.outcomes] == [(4, ["a", "b", "c"])]
    assert not announcer.busy(1) and announcer.outboxes == {}


@pytest.mark.asyncio
async def test_a_stale_commit_changes_nothing() -> None:
    svc = await _service()
    try:
        g = (await svc.lobby.create(1, 10, HOST, "Ann", seats=3)).game_id
        await svc.join(g, BOB, "Bob")
        await svc.add_ai(g, HOST, "random")
        await svc.start(g, HOST)
        await svc.idle()
        table = await svc.tables.get(g)
        before = (table.version, table.state, dict(table.since), list(table.seats))

        async def conflict(rows: object) -> int:
            raise VersionConflict()

        def told(table: object) -> Outcome:
            raise AssertionError("no outcome for a change that was not stored")

        async with table.lock:
            with pytest.raises(Stale):
                await svc.commits.commit(table, Change(conflict, since={}, reseat=True), told)
        assert (table.version, table.state, dict(table.since), list(table.seats)) == before
    finally:
        await svc.close()
        await svc.storage.close()


def test_outcome_kinds_are_a_closed_set() -> None:
    assert _outcome(1, None, "x").kind == "play"
    # a plain string (an older caller's) becomes the kind; the ignores: typed as the enum
    plain = Outcome(1, 10, None, 1, "notice", [])  # type: ignore[arg-type]
    assert plain.kind is OutcomeKind.NOTICE
    with pytest.raises(ValueError):
        Outcome(1, 10, None, 1, "moved", [])  # type: ignore[arg-type]
