"""The journal of changes (bot/store/journal.py) and ``python -m bot restore``
(bot/operator/restore.py): every acknowledged change is in the journal, on disk, before its
commit; the newest sound backup plus the journal bring back every game and every action
after the database's pages are damaged under the running service."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import shlex
import sqlite3
import subprocess
from concurrent.futures import Future
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from bot.__main__ import main as bot_main
from bot.operator.check_db import main as check_db
from bot.operator.restore import latest_per_version
from bot.operator.restore import main as restore_main
from bot.operator.settings import Settings
from bot.store import StorageUnavailable
from bot.store import backup as backup_module
from bot.store import journal as journal_
from bot.store.backup import BackupKeeper, backups_in
from bot.store.journal import Journal
from bot.store.postgres import PgStorage
from bot.store.sqlite import SqliteStorage
from bot.table.service import StorageRefusal, TableService
from tests.bot.store.test_integrity import damage
from tests.bot.store.test_storage_failures import close, next_move, service, started


def journaled(svc: TableService, folder: Path, name: str = "t") -> SqliteStorage:
    """The service's SQLite storage, keeping a journal in ``folder`` (as the bot does)."""
    store = svc.storage._storage  # type: ignore[attr-defined]
    assert isinstance(store, SqliteStorage)
    store.journal = Journal(folder, name)
    return store


def dump(path: Path) -> list[list[Any]]:
    """What restore must bring back of every game: the game rows (without the columns of
    what Discord shows, which are not the game), seats and the action logs."""
    with contextlib.closing(sqlite3.connect(path)) as raw:
        return [
            raw.execute("SELECT id, guild_id, channel_id, host_id, status, options, version, "
                        "state, thread_id, seed_salt, seed_commitment, game FROM games ORDER BY id"
                        ).fetchall(),
            raw.execute("SELECT * FROM seats ORDER BY game_id, seat").fetchall(),
            raw.execute("SELECT game_id, seq, seat, action, version FROM actions "
                        "ORDER BY game_id, seq").fetchall(),
            raw.execute("SELECT game_id, seat, since, due_at, covering FROM deadlines "
                        "ORDER BY game_id, seat").fetchall(),
        ]


def played_at(path: Path) -> list[float]:
    """When each logged action was played (the history orders games by it)."""
    with contextlib.closing(sqlite3.connect(path)) as raw:
        rows = raw.execute("SELECT at FROM actions ORDER BY game_id, seq").fetchall()
    return [datetime.fromisoformat(r[0]).timestamp() for r in rows]


async def play(svc: TableService, g: int, rng: random.Random, n: int) -> int:
    """``n`` accepted actions of the people at the table; how many were acknowledged."""
    done = 0
    for _ in range(n):
        uid, action, version = await next_move(svc, g, rng)
        await svc.act(g, uid, action, version)
        await svc.idle()
        done += 1
    return done


@pytest.mark.asyncio
async def test_restore_brings_back_every_acknowledged_action_after_damage(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"
    folder = tmp_path / "backups"
    svc, _ = await service(str(db))
    store = journaled(svc, folder)
    keeper = BackupKeeper(str(db), 3600, folder=str(folder), journal=store.journal,
                          rotate=store.rotate_journal)
    rng = random.Random(5)
    g = await started(svc)
    await play(svc, g, rng, 4)
    assert await keeper.once() is not None  # the last backup: the rest is in the journal
    h = await started(svc, channel=11, seed=8)  # a game the backup does not hold at all
    await svc.storage.set_thread(h, 555)
    await play(svc, g, rng, 6)
    await play(svc, h, rng, 5)
    await svc.storage.flush_shown()
    want, times = dump(db), played_at(db)
    damage(db)  # the pages under the running service
    assert await store.quick_check(), "damaged"
    await close(svc)
    capsys.readouterr()
    assert await asyncio.to_thread(restore_main, ["--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "restored to" in out and "applied" in out, out
    assert dump(db) == want, "every game, seat, action and snapshot is back"
    assert played_at(db) == pytest.approx(times, abs=0.5), "when each action was played"
    assert await asyncio.to_thread(check_db, ["--db", str(db)]) == 0
    assert list(tmp_path.glob("t.db.damaged-*")), "the damaged file is kept aside"
    # the restored database takes the bot again, and restoring twice changes nothing
    svc2, _ = await service(str(db))
    assert (await svc2.tables.get(g)).version == want[0][0][6]
    await close(svc2)
    again = tmp_path / "again.db"
    assert await asyncio.to_thread(restore_main, ["--db", str(db), "--to", str(again)]) == 0
    assert dump(again) == want


@pytest.mark.asyncio
async def test_without_a_sound_backup_nothing_is_restored(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"
    svc, _ = await service(str(db))
    await started(svc)
    await close(svc)
    assert await asyncio.to_thread(restore_main, ["--db", str(db)]) == 2
    assert "no sound backup" in capsys.readouterr().err
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / "t-20260101T000000Z.db").write_bytes(b"not a database" * 100)
    assert await asyncio.to_thread(restore_main, ["--db", str(db)]) == 2
    assert "passed over" in capsys.readouterr().out
    assert db.exists() and not list(tmp_path.glob("*.damaged-*")), "left as it was"


@pytest.mark.asyncio
async def test_restore_refuses_while_the_bot_runs(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"
    svc, _ = await service(str(db))
    try:
        assert await asyncio.to_thread(restore_main, ["--db", str(db)]) == 2
        assert "stop the bot" in capsys.readouterr().err
    finally:
        await close(svc)


@pytest.mark.asyncio
async def test_a_change_is_journaled_before_its_commit_and_only_if_committed(
        tmp_path: Path) -> None:
    """The journal's sync comes before the COMMIT; a change whose journal cannot be
    written is refused and not committed; a batch whose commit fails is marked so."""
    db = tmp_path / "t.db"
    folder = tmp_path / "backups"
    svc, _ = await service(str(db))
    store = journaled(svc, folder)
    rng = random.Random(1)
    g = await started(svc)
    await play(svc, g, rng, 2)
    j = store.journal
    assert j is not None and j.path is not None
    reading = journal_.read(j.segments())
    ops = [e.op for e in reading.entries]
    assert ops[0] == "create_game" and ops.count("append_action") == 2 and "start" in ops
    assert all("state" not in e.args for e in reading.entries), "no snapshots kept"

    # the journal cannot be written (a full disk): refused, nothing committed
    version = (await svc.tables.get(g)).version
    real_append = j.append

    def full(texts: list[str]) -> journal_.Pending:
        raise OSError(28, "No space left on device")
    j.append = full  # type: ignore[method-assign]
    uid, action, v = await next_move(svc, g, rng)
    with pytest.raises(StorageRefusal) as info:
        await svc.act(g, uid, action, v)
    assert info.value.reason == "full"
    with contextlib.closing(sqlite3.connect(db)) as raw:
        assert raw.execute("SELECT version FROM games WHERE id = ?", (g,)).fetchone() == (
            version,), "not committed"
    j.append = real_append  # type: ignore[method-assign]

    # the commit fails after the journal took the batch: the batch is marked
    checks = 0
    real_check = store._check_file

    def fail_second_check() -> None:  # the check before the COMMIT
        nonlocal checks
        checks += 1
        if checks == 2:
            raise StorageUnavailable("io", "simulated failure before the commit")
        real_check()
    store._check_file = fail_second_check  # type: ignore[method-assign]
    await svc.tables.get(g)
    uid, action, v = await next_move(svc, g, rng)
    with pytest.raises(StorageRefusal):
        await svc.act(g, uid, action, v)
    store._check_file = real_check  # type: ignore[method-assign]
    reading = journal_.read(j.segments())
    assert reading.aborted == 1
    assert [e.op for e in reading.entries].count("append_action") == 2
    await play(svc, g, rng, 1)  # the same version again, taken this time
    reading = journal_.read(j.segments())
    assert [e.op for e in reading.entries].count("append_action") == 3

    # the journal's sync fails after the commit: that one stands (the database has it),
    # every later change is refused, so none is acknowledged that the journal lacks. Only
    # the sync of the action's own batch fails: a write the service makes on its own in the
    # meantime (a clock's, a post's) must not be the one that fails first
    def failing_for_actions(texts: list[str]) -> journal_.Pending:
        pending = real_append(texts)
        if not any('"op":"append_action"' in t for t in texts):
            return pending
        pending.wait()
        failed: Future[None] = Future()
        failed.set_exception(OSError(5, "Input/output error"))
        return journal_.Pending(j, pending.batch, failed)
    j.append = failing_for_actions  # type: ignore[method-assign]
    version = (await svc.tables.get(g)).version
    try:
        await play(svc, g, rng, 1)
    finally:
        j.append = real_append  # type: ignore[method-assign]
    assert (await svc.tables.get(g)).version > version, "the action stands"
    assert j.failed is not None
    uid, action, v = await next_move(svc, g, rng)
    with pytest.raises(StorageRefusal) as info:
        await svc.act(g, uid, action, v)
    assert info.value.reason == "io"
    await close(svc)


def test_journal_lines_torn_damaged_and_superseded(tmp_path: Path) -> None:
    j = Journal(tmp_path, "t")
    b1 = j.append([journal_.entry_text("create_game", 1, None, {"x": 1})])
    j.append([journal_.entry_text("add_seat", 1, 0, {"name": "a"}),
              journal_.entry_text("add_seat", 1, 1, {"name": "b"})])
    b3 = j.append([journal_.entry_text("add_seat", 1, 2, {"name": "lost"})])
    b3.wait()
    j.abort(b3.batch)
    j.append([journal_.entry_text("add_seat", 1, 2, {"name": "c1"})])  # abort mark lost
    j.append([journal_.entry_text("add_seat", 1, 2, {"name": "c2"})])
    j.close()
    path = j.segments()[0]
    lines = path.read_bytes().split(b"\n")
    lines[1] = lines[1].replace(b'"a"', b'"A"')  # damaged: its checksum no longer holds
    path.write_bytes(b"\n".join(lines) + b'{"b":9,"op":"add_')  # a line torn by a crash
    reading = journal_.read([path])
    assert reading.torn == 1 and reading.aborted == 1
    assert reading.damaged == [f"{path.name}:2"]
    names = [e.args.get("name") for e in latest_per_version(reading.entries)]
    assert names == [None, "b", "c2"], "of two entries at one version the later counts"
    assert b1.batch == 1


@pytest.mark.asyncio
async def test_backups_rotate_the_journal_and_old_segments_go_with_old_backups(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "t.db"
    folder = tmp_path / "backups"
    svc, _ = await service(str(db))
    store = journaled(svc, folder)
    stamps = iter(f"2026010{i}T000000Z" for i in range(1, 9))
    monkeypatch.setattr(backup_module, "stamp_now", lambda: next(stamps))
    keeper = BackupKeeper(str(db), 3600, keep=2, folder=str(folder), journal=store.journal,
                          rotate=store.rotate_journal)
    rng = random.Random(4)
    await store.rotate_journal("20260100T000000Z")
    g = await started(svc)
    for _ in range(4):
        await play(svc, g, rng, 2)
        assert await keeper.once() is not None
    await play(svc, g, rng, 2)
    await svc.storage.flush_shown()
    await close(svc)
    want = dump(db)
    assert [p.name for p in backups_in(folder, db)] == ["t-20260104T000000Z.db",
                                                        "t-20260103T000000Z.db"]
    assert [p.name for p in journal_.segments(folder, "t")] == [
        "t-20260103T000000Z.000.journal", "t-20260104T000000Z.000.journal"], \
        "the segments older than the oldest backup kept are gone"
    # the oldest backup kept and the segments from its own on hold everything
    oldest = str(folder / "t-20260103T000000Z.db")
    assert await asyncio.to_thread(restore_main, ["--db", str(db), "--backup", oldest,
                         "--to", str(tmp_path / "r.db")]) == 0
    assert dump(tmp_path / "r.db") == want


def test_the_defaults_keep_backups_and_a_journal() -> None:
    s = Settings.from_env({})
    assert s.backup_every == 6 * 3600 and s.journal and s.backup_keep == 7
    off = Settings.from_env({"TEMPUS_BACKUP_EVERY": "0", "TEMPUS_JOURNAL": "0"})
    assert off.backup_every == 0 and not off.journal


def test_an_unknown_command_names_the_commands_and_fails(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert bot_main(["restor", "--help"]) == 2
    err = capsys.readouterr().err
    assert "restor" in err and "restore" in err and "check-db" in err


@pytest.mark.asyncio
async def test_compose_backs_postgres_up_and_the_readme_restores_a_dump(
        pg_server: Any, pg_url: str, tmp_path: Path) -> None:
    """compose.yaml's ``backup`` service, its script run as written (with this machine's
    pg_dump, every 0.3 s): whole dumps only, the newest KEEP kept; a dump restored with the
    README's ``pg_restore`` line brings the database back as it was."""
    root = Path(__file__).resolve().parents[3]
    service_ = yaml.safe_load((root / "compose.yaml").read_text())["services"]["backup"]
    assert service_["image"] == "postgres:15" and service_["entrypoint"] == ["sh", "-c"]
    script = service_["command"][0].replace("$$", "$")  # compose's escape of "$"
    url = urlsplit(pg_url)
    env = {**os.environ, "PATH": f"{pg_server.bindir}:{os.environ['PATH']}",
           "PGHOST": "127.0.0.1", "PGPORT": str(url.port), "PGUSER": "tempus",
           "PGDATABASE": url.path.lstrip("/"), "EVERY": "0.3", "KEEP": "2",
           "DIR": str(tmp_path)}
    assert service_["environment"]["DIR"] == "/backups"
    store = await PgStorage.open(pg_url)
    try:
        kept = await store.create_game(1, 70, 100, "Ann", {"seed": 1})
        proc = await asyncio.create_subprocess_exec(
            "sh", "-c", script, env=env, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE)
        try:
            await asyncio.sleep(3.5)
        finally:
            proc.terminate()
            out, err = await proc.communicate()
        dumps = sorted(tmp_path.glob("tempus-*.dump"))
        assert 1 <= len(dumps) <= 2, (dumps, out, err)
        assert b"backup" in out, err
        for dump in dumps:  # each whole (a stop may cut the one under way: a .part)
            listed = await asyncio.to_thread(
                subprocess.run, [str(pg_server.bindir / "pg_restore"), "--list", str(dump)],
                capture_output=True)
            assert listed.returncode == 0, listed.stderr
        lost = await store.create_game(1, 71, 100, "Bo", {"seed": 2})  # after the dump
        await store.close()
        text = (root / "README.md").read_text()
        line = next(x for x in text[text.index("**Backups (PostgreSQL"):].splitlines()
                    if "pg_restore" in x)
        argv = shlex.split(line.split("sh -c ", 1)[1])[0].split()
        assert argv[:3] == ["pg_restore", "-h", "db"], argv
        argv = [str(pg_server.bindir / "pg_restore"), "-h", "127.0.0.1", "-p",
                str(url.port), *argv[3:-1], str(dumps[-1])]
        argv[argv.index("-d") + 1] = url.path.lstrip("/")
        done = await asyncio.to_thread(subprocess.run, argv, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        store = await PgStorage.open(pg_url)
        assert await store.game(kept.id) is not None
        assert await store.game(lost.id) is None, "the database as of the dump"
    finally:
        await store.close()
