"""``python -m bot migrate-db``: a SQLite database copied into (real) PostgreSQL, every game
verified by replaying its log (undo entries included), idempotent, refusing a log that
does not replay without touching what was copied before."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from datetime import datetime
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.history import ledger as hist
from bot.operator.migrate_db import COPIED, FAILED, KEPT, SAME, UPDATED, migrate_db
from bot.store import ACTIVE, CANCELLED, LOBBY
from bot.store.postgres import PgStorage
from bot.store.sqlite import SqliteStorage
from bot.table.service import TableService
from engine.undo import is_undo
from tests.bot.helpers import CollectSink
from tests.bot.history.test_history import store_game

HOST, BOB, CY = 100, 101, 102


async def _play(svc: TableService, g: int, rng: random.Random, steps: int) -> None:
    """People make ``steps`` random legal moves, taking some back."""
    for _ in range(steps):
        table = await svc.tables.get(g)
        if table.game.status != ACTIVE:
            return
        seat = rng.choice(sorted(table.since))
        uid = table.seats[seat].user_id
        await svc.act(g, uid, rng.choice(await svc.play.legal(g, uid)), table.version)
        if svc.undo_seat(table) == seat and rng.random() < 0.3:
            await svc.undo(g, uid, table.version)


async def _source(path: Path) -> tuple[TableService, SqliteStorage, dict[str, int]]:
    store = await SqliteStorage.open(str(path))
    svc = TableService(store, CollectSink(), ai_delay=0, seed_source=lambda: 5)
    games = {}
    for name, channel in (("played", 10), ("second", 11)):
        o = await svc.lobby.create(1, channel, HOST, "Ann", seats=3,  # and R-OPT-1 in one
                                   options={"protection_counts_cities": name == "second"})
        await svc.join(o.game_id, BOB, "Bob")
        await svc.join(o.game_id, CY, "Cy")
        await svc.start(o.game_id, HOST)
        games[name] = o.game_id
    await _play(svc, games["played"], random.Random(1), 60)
    await _play(svc, games["second"], random.Random(2), 10)
    games["lobby"] = (await svc.lobby.create(2, 12, BOB, "Bob", seats=4)).game_id
    cancelled = (await svc.lobby.create(2, 13, CY, "Cy")).game_id
    await svc.lobby.cancel(cancelled, CY)
    games["cancelled"] = cancelled
    games["finished"] = await store_game(store, [HOST, BOB, None], 7, channel=14)
    await hist.sync(store)  # its results and ratings (derived tables) in SQLite
    await svc.idle()
    return svc, store, games


async def _same(src: SqliteStorage, dst: PgStorage, game_id: int) -> None:
    a, b = await src.game(game_id), await dst.game(game_id)
    assert a == b
    assert await src.seats(game_id) == await dst.seats(game_id)
    assert await src.actions(game_id) == await dst.actions(game_id)


@pytest.mark.asyncio
async def test_copy_verify_and_run_again(tmp_path: Path, pg_url: str) -> None:
    path = tmp_path / "tempus.db"
    svc, src, games = await _source(path)
    rows = await src.actions(games["played"])
    assert any(is_undo(r.action) for r in rows), "the log to copy holds an undo"
    lines: list[str] = []
    report = await migrate_db(str(path), pg_url, say=lines.append)
    assert report.ok and set(report.results.values()) == {COPIED}, lines
    assert lines[-1] == "5 game(s): 5 copied, 0 updated, 0 unchanged, 0 kept, 0 failed"
    assert "history: the results of 1 finished game(s) derived from their logs" in lines
    dst = await PgStorage.open(pg_url)
    try:
        for g in games.values():
            await _same(src, dst, g)
        assert (await dst.game(games["lobby"])).status == LOBBY
        assert (await dst.game(games["cancelled"])).status == CANCELLED
        # the bot on PostgreSQL loads the game from its log and finds the same position
        pg_svc = TableService(dst, CollectSink(), ai_delay=0)
        table = await pg_svc.tables.get(games["played"])
        assert table.state.to_json() == (await src.game(games["played"])).state
        # the history tables are derived again from the copied logs: the same numbers
        assert await dst.results(1) == await src.results(1) != []
        assert await dst.ratings(1) == await src.ratings(1) != {}
        assert await dst.rated_games(1) == await src.rated_games(1)
        # new games continue the numbering
        new = await dst.create_game(3, 99, HOST, "Ann", {})
        assert new.id == max(games.values()) + 1
    finally:
        await dst.close()

    report = await migrate_db(str(path), pg_url, say=lines.append)  # again: nothing to do
    assert report.ok and set(report.results.values()) == {SAME}

    await _play(svc, games["second"], random.Random(3), 8)  # the SQLite bot went on
    report = await migrate_db(str(path), pg_url, say=lines.append)
    assert report.results[games["second"]] == UPDATED
    assert report.results[games["played"]] == SAME
    dst = await PgStorage.open(pg_url)
    try:
        await _same(src, dst, games["second"])
    finally:
        await dst.close()
    await svc.close()
    await src.close()


@pytest.mark.asyncio
async def test_a_log_that_does_not_replay_is_not_copied(tmp_path: Path, pg_url: str) -> None:
    path = tmp_path / "tempus.db"
    svc, _store, games = await _source(path)
    await svc.close()
    await svc.storage.close()
    assert await migrate_db(str(path), pg_url, say=lambda _: None)
    g = games["second"]
    with sqlite3.connect(path) as raw:  # an entry the engine refuses, appended by hand
        (seq, version) = raw.execute("SELECT max(seq) + 1, max(version) + 1 FROM actions "
                                     "WHERE game_id = ?", (g,)).fetchone()
        raw.execute("INSERT INTO actions (game_id, seq, seat, action, at, version) "
                    "VALUES (?, ?, 0, ?, 'now', ?)",
                    (g, seq, json.dumps({"type": "no_such_action"}), version))
        raw.execute("UPDATE games SET version = ? WHERE id = ?", (version, g))
    lines: list[str] = []
    report = await migrate_db(str(path), pg_url, say=lines.append)
    assert not report.ok and report.results[g] == FAILED
    assert any(f"game {g}: not copied: its log does not replay" in x for x in lines), lines
    assert report.results[games["played"]] == SAME
    dst = await PgStorage.open(pg_url)
    try:  # the earlier copy of the game is untouched
        assert len(await dst.actions(g)) == seq
        assert (await dst.game(g)).version == version - 1
    finally:
        await dst.close()
    assert await asyncio.to_thread(main, ["migrate-db", "--from", str(path), "--to", pg_url]) == 1


@pytest.mark.asyncio
async def test_a_game_the_bot_went_on_with_is_kept_an_id_collision_fails(
        tmp_path: Path, pg_url: str, pg_server) -> None:
    """Run again after the bot went on with a game in PostgreSQL: kept as it is there.
    A target game with the same number that is another game (another bot's database, say)
    is an id collision: failed and reported, not 'kept', and neither game changes, even
    when its version is higher; also when only its log tells them apart."""
    path = tmp_path / "tempus.db"
    svc, src, games = await _source(path)
    assert await migrate_db(str(path), pg_url, say=lambda _: None)
    dst = await PgStorage.open(pg_url)
    try:
        pg_svc = TableService(dst, CollectSink(), ai_delay=0)
        await _play(pg_svc, games["second"], random.Random(9), 3)  # the bot on PostgreSQL
        report = await migrate_db(str(path), pg_url, say=lambda _: None)
        assert report.ok and report.results[games["second"]] == KEPT
        assert report.results[games["played"]] == SAME
    finally:
        await dst.close()

    other = pg_server.create_database("migrate_collision")
    dst = await PgStorage.open(other)
    try:  # another bot's game got number 1 there first, and went further
        pg_svc = TableService(dst, CollectSink(), ai_delay=0, seed_source=lambda: 8)
        o = await pg_svc.lobby.create(1, 50, HOST, "Ann", seats=3)
        assert o.game_id == games["played"]
        await pg_svc.join(o.game_id, BOB, "Bob")
        await pg_svc.join(o.game_id, CY, "Cy")
        await pg_svc.start(o.game_id, HOST)
        await _play(pg_svc, o.game_id, random.Random(4), 120)
        theirs = await dst.game(o.game_id)
        assert theirs.version > (await src.game(games["played"])).version
        log = await dst.actions(o.game_id)
        lines: list[str] = []
        report = await migrate_db(str(path), other, say=lines.append)
        assert not report.ok and report.results[o.game_id] == FAILED, lines
        assert any(f"game {o.game_id}: not copied: an id collision" in x for x in lines), lines
        # the same channel and time (only the logs differ): still not the same game
        mine = await src.game(games["played"])
        row = await src._db.execute_fetchall(
            "SELECT created_at FROM games WHERE id = ?", (mine.id,))
        await dst._pool.execute("UPDATE games SET channel_id = $1, created_at = $2 "
                                "WHERE id = $3", mine.channel_id,
                                datetime.fromisoformat(row[0][0]), o.game_id)
        lines = []
        report = await migrate_db(str(path), other, say=lines.append)
        assert report.results[o.game_id] == FAILED, lines
        assert any("different log for this game, at a later version" in x for x in lines)
        after = await dst.game(o.game_id)
        assert (after.version, after.state) == (theirs.version, theirs.state)
        assert await dst.actions(o.game_id) == log
    finally:
        await dst.close()
        await svc.close()
        await src.close()


@pytest.mark.asyncio
async def test_the_command_line(tmp_path: Path, pg_url: str, capsys) -> None:
    path = tmp_path / "tempus.db"
    svc, _store, _games = await _source(path)
    await svc.close()
    await svc.storage.close()
    assert await asyncio.to_thread(main, ["migrate-db", "--from", str(path), "--to", pg_url]) == 0
    assert "5 copied" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="not a SQLite database file"):
        await asyncio.to_thread(main, ["migrate-db", "--from", str(tmp_path / "missing.db"),
                                       "--to", pg_url])
    with pytest.raises(SystemExit, match="not a postgresql:// URL"):
        await asyncio.to_thread(main, ["migrate-db", "--from", str(path),
                                       "--to", str(tmp_path / "other.db")])


@pytest.mark.asyncio
async def test_the_turn_clock_goes_with_the_games(tmp_path: Path, pg_url: str) -> None:
    """Deadlines (with the reminders sent and the strikes), a seat whose person left, who
    muted reminders and who muted a turn are copied as they are (the log cannot give them
    back); a bot started on PostgreSQL re-arms the same deadlines."""
    from bot.timing.pace import PACES, next_event
    from bot.timing.scheduler import Scheduler
    from bot.timing.time_source import FakeClock
    from tests.bot.timing.test_turnclock import LIVE, T0

    path = tmp_path / "tempus.db"
    clock = FakeClock(T0)
    sched = Scheduler(clock)
    src = await SqliteStorage.open(str(path))
    svc = TableService(src, CollectSink(), ai_delay=0, seed_source=lambda: 5, scheduler=sched)
    o = await svc.lobby.create(1, 10, HOST, "Ann", seats=3, pace_name="live")
    for uid, name in ((BOB, "Bob"), (CY, "Cy")):
        await svc.join(o.game_id, uid, name)
    await svc.start(o.game_id, HOST)
    g = o.game_id
    await svc.seats.leave_game(g, CY)
    await svc.clocks.set_reminders(BOB, False)
    await src.set_turn_mute(g, HOST, "1:actions:0")
    clock.advance(LIVE / 2 + 1)  # the half-time reminders are noted
    await sched.settle()
    await svc.idle()
    stored = await src.deadlines(g)
    assert stored and any(r.reminded for r in stored), stored
    await sched.close()
    await svc.close()
    await src.close()

    report = await migrate_db(str(path), pg_url, say=lambda _: None)
    assert report.ok and report.results[g] == COPIED
    src = await SqliteStorage.open(str(path))
    dst = await PgStorage.open(pg_url)
    try:
        assert await dst.deadlines(g) == stored
        assert await dst.seats(g) == await src.seats(g)
        assert [s.left for s in await dst.seats(g)] == [False, False, True]
        assert not await dst.reminders_on(BOB) and await dst.reminders_on(HOST)
        assert await dst.turn_mutes(g) == {HOST: "1:actions:0"}
        # the bot on PostgreSQL arms the copied deadlines as they were
        sched = Scheduler(clock)
        pg_svc = TableService(dst, CollectSink(), ai_delay=0, scheduler=sched)
        assert await pg_svc.sync.resume_all() == [g]
        for seat in range(3):
            row = next((r for r in stored if r.seat == seat), None)
            want = None if row is None or row.due_at is None else next_event(
                row.started_at, row.due_at, row.reminded, PACES["live"])
            assert sched.due((g, seat)) == want, seat
        await sched.close()
        await pg_svc.close()
        # running again: the same clocks, nothing copied twice
        report = await migrate_db(str(path), pg_url, say=lambda _: None)
        assert report.ok and report.results[g] == SAME
        assert await dst.deadlines(g) == stored
    finally:
        await dst.close()
        await src.close()
