"""``python -m bot check-db``: integrity check plus every game's log replayed against its
snapshot; a clear report, a non-zero exit status when something is wrong."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.operator.check_db import check
from bot.store.sqlite import SqliteStorage
from bot.table.service import TableService
from tests.bot.helpers import CollectSink
from tests.bot.store.test_storage_failures import damage, next_move, started

ROOT = Path(__file__).resolve().parents[3]
HOST = 100


def check_db(path: Path | str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", "check-db", "--db", str(path)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)


async def games(path: str, channels: tuple[int, ...], moves: int = 6) -> list[int]:
    store = await SqliteStorage.open(path)
    svc = TableService(store, CollectSink(), ai_delay=0, seed_source=lambda: 7)
    rng = random.Random(1)
    ids = []
    for ch in channels:
        g = await started(svc, ch, seed=ch)
        for _ in range(moves):
            uid, action, version = await next_move(svc, g, rng)
            await svc.act(g, uid, action, version)
        ids.append(g)
    ids.append((await svc.lobby.create(1, 99, HOST, "Ann", seats=3)).game_id)  # a lobby
    await svc.idle()
    await svc.close()
    await store.close()
    return ids


@pytest.mark.asyncio
async def test_a_sound_database_passes(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    ids = await games(db, (10, 11))
    store = await SqliteStorage.open(db)  # the bot is running: checking is read-only
    try:
        report = await check(db)
    finally:
        await store.close()
    assert report.ok and report.exit_code() == 0, report.lines()
    out = check_db(db)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "integrity check: ok" in out.stdout
    assert f"Game #{ids[0]} (active, channel 10): ok, 6 actions replayed." in out.stdout
    assert f"Game #{ids[2]} (lobby, channel 99): ok, not started." in out.stdout
    assert "All 3 games ok." in out.stdout


@pytest.mark.asyncio
async def test_damaged_games_are_reported_as_the_bot_would_find_them(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    ids = await games(db, (10, 11, 12, 13, 14, 15))
    opts, state, log, snap, gap, good, lobby = ids
    damage(db, "UPDATE games SET options = CAST(x'7bff' AS TEXT) WHERE id = ?", opts)
    damage(db, "UPDATE games SET state = CAST(x'7bff' AS TEXT) WHERE id = ?", state)
    damage(db, "UPDATE actions SET action = '{\"type\": \"end_turn\"}' WHERE game_id = ? "
           "AND seq = 2", log)
    damage(db, "UPDATE games SET state = '{\"phase\": \"x\"}' WHERE id = ?", snap)
    damage(db, "DELETE FROM actions WHERE game_id = ? AND seq = 4", gap)
    out = check_db(db)
    assert out.returncode == 1, out.stdout + out.stderr
    text = out.stdout
    assert "Traceback" not in text + out.stderr
    lines = {int(x.split("#")[1].split(" ")[0]): x for x in text.splitlines()
             if x.startswith("Game #")}
    assert "PROBLEM: it cannot be read (options is not valid UTF-8)" in lines[opts]
    assert "snapshot cannot be read" in lines[state] and "rebuilds it" in lines[state]
    assert "log does not replay: entry 2" in lines[log] and "end turn" in lines[log]
    assert "snapshot differs from the replayed log" in lines[snap]
    assert "gap: entry 4 is missing" in lines[gap]
    assert lines[good].endswith("ok, 6 actions replayed.")
    assert lines[lobby].endswith("ok, not started.")
    assert "5 of 7 games with problems; database checks: ok." in text

    # the bot agrees: what check-db says it sets aside, it sets aside; the rest it loads
    store = await SqliteStorage.open(db)
    svc = TableService(store, CollectSink(), ai_delay=0)
    resumed = await svc.sync.resume_all()
    assert set(svc.set_aside) == {opts, log, gap}
    assert resumed == [state, snap, good]
    await svc.close()
    await store.close()
    after = await check(db)  # the rebuilt snapshots are now fine
    assert {g.game_id for g in after.games if g.problems} == {opts, log, gap}


def test_a_file_that_is_not_a_usable_database(tmp_path: Path) -> None:
    missing = tmp_path / "missing.db"
    out = check_db(missing)
    assert out.returncode == 2 and "Cannot open" in out.stdout and "Traceback" not in out.stderr
    assert not missing.exists(), "checking creates no database"
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n" * 500)
    out = check_db(text)
    assert out.returncode == 2 and "Cannot open" in out.stdout and "Traceback" not in out.stderr


@pytest.mark.asyncio
async def test_a_damaged_file_fails_the_check(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    await games(str(db), (10, 11, 12), moves=20)
    with sqlite3.connect(db) as raw:
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = raw.execute("PRAGMA page_size").fetchone()[0]
        pages = raw.execute("PRAGMA page_count").fetchone()[0]
        # the schema may need more than the first page (dbstat counts pages from 1)
        schema = {r[0] - 1 for r in raw.execute(
            "SELECT pageno FROM dbstat WHERE name = 'sqlite_schema'")} | {0}
    assert pages > 4
    data = bytearray(db.read_bytes())
    rng = random.Random(3)
    for p in set(range(2, pages)) - schema:  # scribble over every page but the schema's
        at = p * page + page // 3
        data[at:at + 64] = bytes(rng.randrange(256) for _ in range(64))
    db.write_bytes(bytes(data))
    out = check_db(db)
    assert out.returncode in (1, 2), out.stdout
    assert "Traceback" not in out.stderr
    assert "integrity check: " in out.stdout and ("problem" in out.stdout
                                                 or "Cannot open" in out.stdout)
    assert os.path.getsize(db) == len(data)


@pytest.mark.asyncio
async def test_a_damaged_schema_is_reported_without_a_traceback(tmp_path: Path) -> None:
    """Scribbles on the schema's pages too: SQLite then quotes damaged bytes in its error
    message, which is not UTF-8; still a clear refusal, no traceback."""
    db = tmp_path / "t.db"
    await games(str(db), (10, 11, 12), moves=20)
    with sqlite3.connect(db) as raw:
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = raw.execute("PRAGMA page_size").fetchone()[0]
        pages = raw.execute("PRAGMA page_count").fetchone()[0]
    data = bytearray(db.read_bytes())
    rng = random.Random(3)
    for p in range(2, pages):
        at = p * page + page // 3
        data[at:at + 64] = bytes(rng.randrange(256) for _ in range(64))
    db.write_bytes(bytes(data))
    out = check_db(db)
    assert "Traceback" not in out.stderr, out.stderr[-800:]
    assert out.returncode in (1, 2), out.stdout
    assert "Cannot open" in out.stdout or "integrity check: " in out.stdout, out.stdout


@pytest.mark.asyncio
async def test_a_log_with_steps_taken_back_replays_as_the_bot_loads_it(tmp_path: Path) -> None:
    """An undo entry takes back the last step, in check-db and in a restore's snapshots as
    when the bot loads the game."""
    from bot.operator.restore import snapshot

    db = str(tmp_path / "t.db")
    store = await SqliteStorage.open(db)
    svc = TableService(store, CollectSink(), ai_delay=0, seed_source=lambda: 7)
    g = await started(svc, 10, seed=3)
    rng = random.Random(4)
    undone = 0
    while undone < 2:
        uid, action, version = await next_move(svc, g, rng)
        await svc.act(g, uid, action, version)
        table = await svc.tables.get(g)
        seat = svc.undo_seat(table)
        if seat is not None:
            await svc.undo(g, table.seats[seat].user_id, table.version)
            undone += 1
    await svc.idle()
    await svc.close()
    assert sum(row.action == {"type": "undo"} for row in await store.actions(g)) == 2
    report = await check(db)
    assert report.ok, report.lines()
    game = await store.game(g)
    assert game is not None
    assert await snapshot(store, g) is None
    assert (await store.game(g)) == game  # the replay is the snapshot the bot stored
    await store.close()
