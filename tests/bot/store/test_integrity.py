"""Damage to the database noticed while the service runs (bot/store/integrity.py), and
backups of a live database (bot/store/backup.py): real pages overwritten on a real file."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
from pathlib import Path

import pytest

from bot.operator.check_db import main as check_db
from bot.store import StorageUnavailable
from bot.store.backup import BackupFailed, BackupKeeper, backup, seconds
from bot.store.backup import main as backup_main
from bot.store.integrity import IntegrityWatch
from bot.store.sqlite import _failures_mapped
from bot.table.service import StorageRefusal
from lang.messages import t
from tests.bot.store.test_storage_failures import close, next_move, service, started


def damage(db: Path, seed: int = 1) -> None:
    """Fold the write-ahead log into the file, then overwrite most of its pages (all but
    the first, the header) with noise: a failing disk under the running bot."""
    with contextlib.closing(sqlite3.connect(db)) as raw:
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = int(raw.execute("PRAGMA page_size").fetchone()[0])
    size = db.stat().st_size
    rng = random.Random(seed)
    with db.open("r+b") as f:
        for offset in range(page, size, page):
            f.seek(offset + 8)
            f.write(rng.randbytes(page - 16))


@pytest.mark.asyncio
async def test_damaged_pages_break_the_storage_once_and_no_action_is_taken(
        tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    svc, sink = await service(str(db))
    told: list[StorageUnavailable] = []
    store = svc.storage._storage  # type: ignore[attr-defined]
    store.on_broken = told.append
    g = await started(svc)
    assert await store.quick_check() == [] and store.broken is None
    assert await store.writable() is None
    rng = random.Random(2)
    uid, action, version = await next_move(svc, g, rng)
    damage(db)
    problems = await store.quick_check()
    assert problems and store.broken is not None and store.broken.reason == "corrupt"
    posted = len(sink.outcomes)
    for _ in range(3):  # every action refused, with the storage's words
        with pytest.raises(StorageRefusal) as info:
            await svc.act(g, uid, action, version)
        assert info.value.reason == "corrupt"
        assert str(info.value) == t("error.storage_corrupt")
    await svc.idle()
    assert len(sink.outcomes) == posted, "nothing may be announced"
    assert await store.quick_check() == []  # known already: not checked again
    assert (await store.writable() or "").startswith("corrupt")
    await asyncio.sleep(0)
    assert len(told) == 1, "told once"
    await close(svc)


@pytest.mark.asyncio
async def test_a_corrupt_error_from_any_statement_breaks_the_storage(tmp_path: Path) -> None:
    broke: list[StorageUnavailable] = []
    exc = sqlite3.DatabaseError("database disk image is malformed")
    exc.sqlite_errorcode = sqlite3.SQLITE_CORRUPT
    with pytest.raises(StorageUnavailable), _failures_mapped(broke.append):
        raise exc
    assert [b.reason for b in broke] == ["corrupt"]
    busy = sqlite3.OperationalError("database is locked")
    busy.sqlite_errorcode = sqlite3.SQLITE_BUSY
    with pytest.raises(StorageUnavailable), _failures_mapped(broke.append):
        raise busy
    assert len(broke) == 1, "a busy database is not a damaged one"


@pytest.mark.asyncio
async def test_the_watch_checks_periodically(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    svc, _ = await service(str(db))
    store = svc.storage._storage  # type: ignore[attr-defined]
    await started(svc)
    watch = IntegrityWatch(store.quick_check, 0.01)
    watch.start()
    try:
        for _ in range(500):
            if watch.runs >= 2:
                break
            await asyncio.sleep(0.01)
        assert store.broken is None
        damage(db)
        for _ in range(500):
            if store.broken is not None:
                break
            await asyncio.sleep(0.01)
        assert store.broken is not None and store.broken.reason == "corrupt"
    finally:
        await watch.close()
        await close(svc)


# ---------------------------------------------------------------------- backups
@pytest.mark.asyncio
async def test_a_backup_of_a_live_database_is_whole_and_checks_clean(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"
    svc, _ = await service(str(db))
    g = await started(svc)
    rng = random.Random(3)
    copies = []
    for i in range(6):  # the bot keeps playing while backups are taken
        uid, action, version = await next_move(svc, g, rng)
        await svc.act(g, uid, action, version)
        target = tmp_path / f"copy{i}.db"
        made = await asyncio.to_thread(backup, db, target)
        copies.append((made.path, (await svc.tables.get(g)).version))
    assert backup_main(["--db", str(db), "--to", str(tmp_path / "cli.db")]) == 0
    assert "backed up" in capsys.readouterr().out
    await close(svc)
    for path, version in copies:
        with contextlib.closing(sqlite3.connect(path)) as raw:
            (stored,) = raw.execute("SELECT version FROM games WHERE id = ?", (g,)).fetchone()
        assert stored == version, "the copy is the database as of one commit"
        assert await asyncio.to_thread(check_db, ["--db", str(path)]) == 0
    assert await asyncio.to_thread(check_db, ["--db", str(tmp_path / "cli.db")]) == 0
    assert not list(tmp_path.glob("*.part"))


def test_a_damaged_database_gives_no_backup(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with contextlib.closing(sqlite3.connect(db)) as raw:
        raw.execute("CREATE TABLE x (y)")
        raw.executemany("INSERT INTO x VALUES (?)", [("z" * 500,)] * 200)
        raw.execute("CREATE INDEX xy ON x (y)")
        raw.commit()
    damage(db)
    with pytest.raises(BackupFailed):
        backup(db, tmp_path / "b.db")
    assert not (tmp_path / "b.db").exists() and not list(tmp_path.glob("*.part"))
    assert backup_main(["--db", str(tmp_path / "none.db"), "--to", str(tmp_path / "c.db")]) == 1


@pytest.mark.asyncio
async def test_periodic_backups_keep_the_newest_and_none_of_a_broken_store(
        tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    svc, _ = await service(str(db))
    await started(svc)
    broken = False
    keeper = BackupKeeper(str(db), 3600, keep=2, folder=str(tmp_path / "b"),
                          broken=lambda: broken)
    made = []
    for i in range(4):
        m = await keeper.once()
        assert m is not None
        # one name per second: the test names them itself
        renamed = m.path.with_name(f"t-2026010{i}T000000Z.db")
        m.path.rename(renamed)
        made.append(renamed)
    await keeper.once()
    kept = keeper.kept()
    assert len(kept) == 2 and kept[1] == made[-1]
    broken = True
    assert await keeper.once() is None
    assert keeper.kept() == kept
    await close(svc)


def test_durations() -> None:
    assert seconds("90") == 90 and seconds("15m") == 900 and seconds("6h") == 21600
    assert seconds("1d") == 86400 and seconds("") == 0 and seconds(None) == 0
    with pytest.raises(ValueError):
        seconds("soon")


@pytest.mark.asyncio
async def test_a_write_that_meets_damaged_pages_runs_the_check_at_once(
        tmp_path: Path) -> None:
    """Damaged pages can answer a write's version check wrongly without any error of
    SQLite's (the game's row is not found): the check then runs at once, not minutes
    later, and the storage breaks (every action refused with the storage's words)."""
    db = tmp_path / "t.db"
    svc, _ = await service(str(db))
    store = svc.storage._storage  # type: ignore[attr-defined]
    g = await started(svc)
    rng = random.Random(2)
    uid, action, version = await next_move(svc, g, rng)
    damage(db)
    with contextlib.suppress(Exception):  # refused: as stale, or as damaged
        await svc.act(g, uid, action, version)
    for _ in range(200):
        if store.broken is not None:
            break
        await asyncio.sleep(0.01)
    assert store.broken is not None and store.broken.reason == "corrupt"
    with pytest.raises(StorageRefusal):
        await svc.act(g, uid, action, version)
    await close(svc)
