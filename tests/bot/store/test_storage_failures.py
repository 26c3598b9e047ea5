"""The store failing under a running table service, and damaged games at start-up.

Real failures on real SQLite files: a database made genuinely full with ``PRAGMA
max_page_count``, a write lock held by another connection past the busy timeout, a
connection switched to read-only (``PRAGMA query_only``), the file deleted or replaced
under the service, rows damaged with invalid UTF-8 or an action log that does not replay.
In every case the player is refused with the storage message, nothing is half-written or
announced, and the game goes on once the store recovers.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.store.sqlite import SqliteStorage
from bot.table.service import StorageRefusal, TableError, TableService
from engine.actions import Action
from games.tempus.codec import encode_action
from lang.messages import t
from tests.bot.helpers import CollectSink

HOST, BOB, CY = 100, 101, 102


async def service(path: str, *, busy_timeout: float = 5.0, ai_delay: float = 0.0
                  ) -> tuple[TableService, CollectSink]:
    store = await SqliteStorage.open(path, busy_timeout=busy_timeout)
    sink = CollectSink()
    return TableService(store, sink, ai_delay=ai_delay, seed_source=lambda: 7), sink


async def close(svc: TableService) -> None:
    await svc.close()
    await svc.storage.close()


async def started(svc: TableService, channel: int = 10, *, seed: int = 7, bots: int = 0) -> int:
    o = await svc.lobby.create(1, channel, HOST, "Ann", seats=3, seed=seed)
    for uid, name in ((BOB, "Bob"), (CY, "Cy"))[: 2 - bots]:
        await svc.join(o.game_id, uid, name)
    for _ in range(bots):
        await svc.add_ai(o.game_id, HOST, "random")
    await svc.start(o.game_id, HOST)
    await svc.idle()
    return o.game_id


async def next_move(svc: TableService, g: int, rng: random.Random) -> tuple[int, Action, int]:
    """A person who must decide now, a legal action of theirs, the version it is made at."""
    table = await svc.tables.get(g)
    seat = rng.choice(sorted(s for s in table.since if not table.seats[s].is_ai))
    uid = table.seats[seat].user_id
    assert uid is not None
    return uid, rng.choice(await svc.play.legal(g, uid)), table.version


def stored(path: str) -> list[Any]:
    """Everything the database holds about games, read by a separate connection."""
    with sqlite3.connect(path) as raw:
        raw.text_factory = bytes
        return [raw.execute("SELECT * FROM games ORDER BY id").fetchall(),
                raw.execute("SELECT * FROM seats ORDER BY game_id, seat").fetchall(),
                raw.execute("SELECT * FROM actions ORDER BY game_id, seq").fetchall()]


async def assert_refused(svc: TableService, sink: CollectSink, g: int, uid: int,
                         action: Action, version: int, reason: str) -> None:
    """The action is refused with the storage message and leaves no trace anywhere."""
    table = await svc.tables.get(g)
    before = (table.state.to_json(), table.version, len(table.moves), dict(table.since))
    posted = len(sink.outcomes)
    with pytest.raises(StorageRefusal) as info:
        await svc.act(g, uid, action, version)
    assert info.value.reason == reason and info.value.key == f"error.storage_{reason}"
    text = str(info.value)
    assert text == t(f"error.storage_{reason}")
    assert "Not done" in text and "bot's side" in text and "went wrong" not in text
    await svc.idle()
    assert (table.state.to_json(), table.version, len(table.moves), dict(table.since)) == before
    assert len(sink.outcomes) == posted, "nothing may be announced for a refused action"


# ---------------------------------------------------------------------- disk full
@pytest.mark.asyncio
async def test_a_full_database_refuses_the_action_and_the_game_goes_on_after(
        tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    svc, sink = await service(db)
    g = await started(svc)
    rng = random.Random(1)
    raw = svc.storage._db  # the service's own connection: the limit is per connection
    (pages,) = await (await raw.execute("PRAGMA page_count")).fetchone()
    await raw.execute(f"PRAGMA max_page_count={pages}")
    # play on until the file cannot grow: a genuinely full database
    for _ in range(500):
        uid, action, version = await next_move(svc, g, rng)
        before = stored(db)
        try:
            await svc.act(g, uid, action, version)
        except StorageRefusal as exc:
            assert exc.reason == "full"
            break
    else:
        pytest.fail("the database never became full")
    assert stored(db) == before, "nothing of the refused action may be written"
    await assert_refused(svc, sink, g, uid, action, version, "full")
    # the operator frees space: the same action is taken, and kept
    await raw.execute("PRAGMA max_page_count=1073741823")
    await svc.act(g, uid, action, version)
    await svc.idle()
    assert sink.outcomes[-1].version == version + 1
    state = (await svc.tables.get(g)).state.to_json()
    await close(svc)
    svc2, _ = await service(db)
    assert await svc2.sync.resume_all() == [g]
    assert (await svc2.tables.get(g)).state.to_json() == state
    await close(svc2)


# ---------------------------------------------------------------------- locked
@pytest.mark.asyncio
async def test_a_database_locked_past_the_timeout_refuses_then_recovers(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    svc, sink = await service(db, busy_timeout=0.2)
    g = await started(svc)
    uid, action, version = await next_move(svc, g, random.Random(2))
    other = sqlite3.connect(db, isolation_level=None)  # e.g. a backup tool holding a lock
    other.execute("BEGIN IMMEDIATE")
    try:
        await assert_refused(svc, sink, g, uid, action, version, "busy")
        with pytest.raises(StorageRefusal, match="locked by another program"):
            await svc.lobby.create(1, 11, BOB, "Bob")  # a new lobby too: nothing half-created
    finally:
        other.execute("ROLLBACK")
        other.close()
    await svc.act(g, uid, action, version)
    assert (await svc.tables.get(g)).version == version + 1
    await svc.lobby.create(1, 11, BOB, "Bob")
    await close(svc)


# ---------------------------------------------------------------------- read-only
@pytest.mark.asyncio
async def test_a_read_only_database_refuses_then_recovers(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    svc, sink = await service(db)
    g = await started(svc)
    uid, action, version = await next_move(svc, g, random.Random(3))
    await svc.storage._db.execute("PRAGMA query_only=ON")  # SQLITE_READONLY on every write
    await assert_refused(svc, sink, g, uid, action, version, "readonly")
    with pytest.raises(StorageRefusal):  # a click: refused, never "Done"
        await svc.clicks.use(g, version, uid, "x", "act", "", [encode_action(action)])
    await svc.storage._db.execute("PRAGMA query_only=OFF")
    reply = await svc.clicks.use(g, version, uid, "x", "act", "", [encode_action(action)])
    assert reply.outcome is not None and (await svc.tables.get(g)).version == version + 1
    await close(svc)


# ---------------------------------------------------------------------- file gone
@pytest.mark.asyncio
@pytest.mark.parametrize("how", ["deleted", "main file deleted", "replaced"])
async def test_a_database_file_deleted_or_replaced_under_the_bot_takes_no_action(
        tmp_path: Path, how: str) -> None:
    db = str(tmp_path / "t.db")
    svc, sink = await service(db)
    g = await started(svc)
    lobby = (await svc.lobby.create(1, 11, BOB, "Bob", seats=3)).game_id
    await svc.idle()
    uid, action, version = await next_move(svc, g, random.Random(4))
    if how == "deleted":
        for suffix in ("", "-wal", "-shm"):
            Path(db + suffix).unlink(missing_ok=True)
    elif how == "main file deleted":  # `rm tempus.db`: the write-ahead log stays
        Path(db).unlink()
    else:  # someone copies an old backup over it
        backup = str(tmp_path / "backup.db")
        with sqlite3.connect(backup) as raw:
            raw.execute("CREATE TABLE x (y)")
        os.replace(backup, db)
    await assert_refused(svc, sink, g, uid, action, version, "gone")
    with pytest.raises(StorageRefusal, match="deleted or replaced"):
        await svc.join(lobby, CY, "Cy")
    # still refused later: the service never acknowledges into a file nobody reads
    await assert_refused(svc, sink, g, uid, action, version, "gone")
    await close(svc)
    # the old write-ahead log is kept aside, so it cannot damage a file opened there next
    assert not Path(db + "-wal").exists()
    if how == "replaced":
        assert stored_tables(db) == ["x"], "the replacing file was not written to"
    if how == "main file deleted":
        assert list(tmp_path.glob("t.db-wal.orphaned-*"))
        svc2, _ = await service(db)  # a restart on the path starts afresh, soundly
        assert await svc2.sync.resume_all() == []
        assert await svc2.storage.integrity_problems() == []
        await close(svc2)


def stored_tables(path: str) -> list[str]:
    with sqlite3.connect(path) as raw:
        return [r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")]


# ---------------------------------------------------------------------- computer players
@pytest.mark.asyncio
async def test_computer_players_wait_for_the_storage_and_go_on(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db = str(tmp_path / "t.db")
    svc, sink = await service(db, ai_delay=0.05)
    g = await started(svc, bots=2)  # Ann and two computers
    table = await svc.tables.get(g)
    rng = random.Random(5)
    # Ann plays until it is a computer's turn with the store read-only
    for _ in range(200):
        await svc.idle()
        if table.game.status != "active":
            pytest.skip("game ended before a computer turn")
        if 0 in table.since:
            uid, action, version = await next_move(svc, g, rng)
            await svc.storage._db.execute("PRAGMA query_only=ON")
            with pytest.raises(StorageRefusal):
                await svc.act(g, uid, action, version)
            await svc.storage._db.execute("PRAGMA query_only=OFF")
            await svc.act(g, uid, action, version)
            if any(table.seats[s].is_ai for s in table.since):
                break
    else:
        pytest.fail("no computer turn")
    caplog.set_level(logging.WARNING, logger="bot.table.service")
    await svc.storage._db.execute("PRAGMA query_only=ON")
    stuck = table.version
    await asyncio.sleep(1.2)  # the computer tries, is refused, waits, tries again
    assert table.version == stuck
    assert sum("waits for the storage" in r.message for r in caplog.records) >= 2
    await svc.storage._db.execute("PRAGMA query_only=OFF")
    for _ in range(100):
        await asyncio.sleep(0.1)
        if table.version > stuck:
            break
    assert table.version > stuck, "the computer goes on once the store recovers"
    assert not any("gave up" in r.message for r in caplog.records)
    await close(svc)


# ---------------------------------------------------------------------- damaged games
def damage(db: str, sql: str, *args: Any) -> None:
    """Change the file behind the bot's back (the log's triggers are dropped and put back,
    as damage on disk would not ask them)."""
    with sqlite3.connect(db) as raw:
        triggers = raw.execute("SELECT sql FROM sqlite_master WHERE type='trigger'").fetchall()
        raw.execute("DROP TRIGGER actions_no_update")
        raw.execute("DROP TRIGGER actions_no_delete")
        raw.execute(sql, args)
        for (trigger,) in triggers:
            raw.execute(trigger)


@pytest.mark.asyncio
async def test_one_damaged_game_never_keeps_the_others_from_starting(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    svc, _ = await service(db)
    rng = random.Random(6)
    games = {}
    for ch in (10, 11, 12, 13):
        g = await started(svc, ch, seed=ch)
        for _ in range(8):
            uid, action, version = await next_move(svc, g, rng)
            await svc.act(g, uid, action, version)
        games[ch] = g
    states = {g: (await svc.tables.get(g)).state.to_json() for g in games.values()}
    await close(svc)

    bad_options, bad_state, bad_log, good = games[10], games[11], games[12], games[13]
    invalid = b'{"seed": \xff\xfe}'
    damage(db, "UPDATE games SET options = CAST(? AS TEXT) WHERE id = ?", invalid, bad_options)
    damage(db, "UPDATE games SET state = CAST(? AS TEXT) WHERE id = ?", invalid, bad_state)
    damage(db, "UPDATE actions SET action = ? WHERE game_id = ? AND seq = 3",
           '{"type": "end_turn"}', bad_log)
    with sqlite3.connect(db) as raw, pytest.raises(sqlite3.OperationalError,
                                                   match="Could not decode to UTF-8"):
        raw.execute("SELECT * FROM games").fetchall()  # what stopped the bot before

    svc2, sink2 = await service(db)
    resumed = await svc2.sync.resume_all()
    assert resumed == [bad_state, good]
    assert set(svc2.set_aside) == {bad_options, bad_log}
    aside = svc2.set_aside[bad_options]
    assert aside.channel_id == 10 and "UTF-8" in aside.reason
    assert "end turn" in svc2.set_aside[bad_log].reason
    assert svc2.set_aside[bad_log].channel_id == 12
    assert "could not be loaded" in aside.notice() and f"#{bad_options}" in aside.notice()
    await svc2.idle()
    told = [(o.game_id, o.play_channel_id, o.lines) for o in sink2.outcomes
            if o.kind == "notice"]
    assert sorted(told) == sorted([(bad_options, 10, [aside.notice()]),
                                   (bad_log, 12, [svc2.set_aside[bad_log].notice()])]), \
        "each set-aside game's channel is told once"
    # the snapshot is only a cache: a damaged one is rebuilt from the log
    assert (await svc2.tables.get(bad_state)).state.to_json() == states[bad_state]
    assert (await svc2.storage.game(bad_state)).state == states[bad_state]
    # the good game goes on; the set-aside ones refuse clearly, again and again
    uid, action, version = await next_move(svc2, good, rng)
    await svc2.act(good, uid, action, version)
    for g in (bad_options, bad_log):
        for _ in range(2):
            with pytest.raises(TableError) as info:
                await svc2.act(g, HOST, action)
            assert info.value.key == "error.game_set_aside"
            assert f"#{g}" in str(info.value) and "check-db" in str(info.value)
        with pytest.raises(TableError, match="set aside"):
            await svc2.clicks.use(g, 1, HOST, "Ann", "act", "draw_cards")
    # the channel still knows its game, and says so
    assert await svc2.tables.channel_game_id(10) == bad_options
    with pytest.raises(TableError, match="already has a Tempus game"):
        await svc2.lobby.create(1, 10, BOB, "Bob")
    # the host (or a channel manager) may cancel a set-aside game to free the channel
    with pytest.raises(TableError, match="Only the host"):
        await svc2.lobby.cancel(bad_options, BOB)
    outcome = await svc2.lobby.cancel(bad_options, BOB, can_manage=True)
    assert outcome.kind == "cancel" and outcome.channel_id == 10
    assert bad_options not in svc2.set_aside
    await svc2.lobby.create(1, 10, BOB, "Bob")
    await close(svc2)


@pytest.mark.asyncio
async def test_a_damaged_lobby_is_set_aside_when_first_used(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    svc, _ = await service(db)
    lobby = (await svc.lobby.create(1, 10, HOST, "Ann", seats=3)).game_id
    other = (await svc.lobby.create(1, 11, BOB, "Bob", seats=3)).game_id
    await close(svc)
    damage(db, "UPDATE games SET options = 'not json' WHERE id = ?", lobby)
    svc2, _ = await service(db)
    assert await svc2.sync.resume_all() == []
    with pytest.raises(TableError) as info:
        await svc2.join(lobby, CY, "Cy")
    assert info.value.key == "error.game_set_aside"
    assert svc2.set_aside[lobby].channel_id == 10 and "JSON" in svc2.set_aside[lobby].reason
    await svc2.join(other, CY, "Cy")
    await close(svc2)
