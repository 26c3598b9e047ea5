"""Backups of a SQLite database, also of a live one: ``python -m bot backup --db tempus.db
--to FILE``, and in the running bot at start-up and every ``TEMPUS_BACKUP_EVERY`` (default
6 hours).

The copy is made with SQLite's online backup API (``sqlite3.Connection.backup``) in one
step: one read transaction, so the copy is the database as of one commit, while the bot
goes on writing (in WAL mode a reader never blocks the writer). The copy is written beside
the target as ``FILE.part``, checked with ``PRAGMA integrity_check`` and only then renamed
into place, so a backup file is always whole and sound; a damaged source gives no backup
(and the periodic one never makes one while the storage is broken, so a good old backup is
never rotated out by damaged copies).

Periodic backups (:class:`BackupKeeper`) go to ``TEMPUS_BACKUP_DIR`` (default ``backups``
beside the database) as ``<name>-<UTC time>.db``; the newest ``TEMPUS_BACKUP_KEEP``
(default 7) are kept. Just before each one the journal of changes (bot/store/journal.py,
in the same folder) starts a new segment, so that backup plus the segments from its own
on hold every change; the segments older than the oldest backup kept are deleted with it.
PostgreSQL has its own tools (``pg_dump``; README, compose.yaml).

Restoring: ``python -m bot restore`` (bot/operator/restore.py): the newest sound backup, with
every change the journal holds since, put in the database's place.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import re
import sqlite3
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from bot.runtime.tasks import cancel_and_wait
from bot.store.journal import Journal, stamp_now

log = logging.getLogger(__name__)

DEFAULT_KEEP = 7
#: TEMPUS_BACKUP_EVERY unless set: a backup every 6 hours (and one at each start)
DEFAULT_EVERY = "6h"
_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


class BackupFailed(Exception):
    """No backup was made (the source is missing or damaged, the target unwritable)."""


@dataclass(frozen=True)
class Made:
    path: Path
    pages: int
    seconds: float


def seconds(text: str | None) -> float:
    """``"3600"``, ``"60m"``, ``"6h"``, ``"1d"`` as seconds (empty: 0, never)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*", (text or "0").lower())
    if m is None:
        raise ValueError(f"{text!r} is not a duration (seconds, or with s, m, h or d)")
    return float(m[1]) * _UNITS[m[2]]


def folder_of(db: str | Path, folder: str | Path | None) -> Path:
    """Where the backups (and the journal) of ``db`` go: ``folder``, or ``backups`` beside
    the database."""
    return Path(folder) if folder else Path(db).resolve().parent / "backups"


def backups_in(folder: str | Path, db: str | Path) -> list[Path]:
    """The backups of ``db`` in ``folder``, newest first."""
    folder = Path(folder)
    pattern = re.compile(re.escape(Path(db).stem) + r"-\d{8}T\d{6}Z\.db")
    if not folder.is_dir():
        return []
    return sorted((p for p in folder.iterdir() if pattern.fullmatch(p.name)), reverse=True)


def stamp_of(backup_file: Path) -> str:
    """The UTC time in a backup's name (``tempus-20261129T060000Z.db``)."""
    return backup_file.stem.rsplit("-", 1)[-1]


def backup(source: str | Path, target: str | Path) -> Made:
    """Copy the SQLite database ``source`` (live or not) to ``target``, checked."""
    started = time.perf_counter()
    source, target = Path(source), Path(target)
    if not source.is_file():
        raise BackupFailed(f"no database file at {source}")
    part = target.with_name(target.name + ".part")
    part.unlink(missing_ok=True)
    try:
        src = sqlite3.connect(source, timeout=10.0)
    except sqlite3.Error as exc:
        raise BackupFailed(f"cannot open {source}: {exc}") from exc
    try:
        dst = sqlite3.connect(part)
        try:
            src.backup(dst)  # every page in one step: the database as of one commit
            problems = [r[0] for r in dst.execute("PRAGMA integrity_check").fetchall()]
            if problems != ["ok"]:
                raise BackupFailed(f"{source} is damaged, no backup made: "
                                   + "; ".join(str(p) for p in problems[:3]))
            pages = int(dst.execute("PRAGMA page_count").fetchone()[0])
        finally:
            dst.close()
        os.replace(part, target)
    except sqlite3.Error as exc:
        raise BackupFailed(f"backing up {source} to {target} failed: {exc}") from exc
    finally:
        src.close()
        with contextlib.suppress(OSError):
            part.unlink(missing_ok=True)
    return Made(target, pages, time.perf_counter() - started)


class BackupKeeper:
    """A backup of ``db`` at start and then every ``every_s`` seconds into ``folder``, the
    newest ``keep`` kept. ``broken``: whether the storage is known to be damaged or gone
    (then none is made). ``journal``: the storage's journal of changes, whose next segment
    ``rotate`` (the storage's ``rotate_journal``) starts just before each backup, and whose
    segments older than every backup kept are deleted."""

    def __init__(self, db: str, every_s: float, *, keep: int = DEFAULT_KEEP,
                 folder: str | None = None, broken: Callable[[], bool] = lambda: False,
                 journal: Journal | None = None,
                 rotate: Callable[[str], Awaitable[None]] | None = None) -> None:
        self.db = Path(db)
        self.every_s = every_s
        self.keep = max(1, keep)
        self.folder = folder_of(db, folder)
        self.broken = broken
        self.journal = journal
        self.rotate = rotate
        self.newest: Path | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.every_s > 0 and self._task is None:
            self.newest = next(iter(self.kept()), None)
            self._task = asyncio.create_task(self._run(), name="tempus-backup")

    def kept(self) -> list[Path]:
        """The backups in the folder, newest first."""
        return backups_in(self.folder, self.db)

    async def once(self) -> Made | None:
        """One backup now (None: the storage is broken, or it failed: logged)."""
        if self.broken():
            log.error("no backup made: the database is damaged or gone; the newest backup "
                      "is %s", self.newest or "none")
            return None
        self.folder.mkdir(parents=True, exist_ok=True)
        stamp = stamp_now()
        target = self.folder / f"{self.db.stem}-{stamp}.db"
        if self.rotate is not None:
            # the backup below holds everything of the segments before this one
            try:
                await self.rotate(stamp)
            except Exception as exc:
                log.error("the journal could not start a new segment: %s", exc)
        try:
            made = await asyncio.to_thread(backup, self.db, target)
        except (BackupFailed, OSError) as exc:
            log.error("backup failed: %s", exc)
            return None
        self.newest = made.path
        log.info("backup %s made (%d pages, %.1f s)", made.path, made.pages, made.seconds)
        kept = self.kept()
        for old in kept[self.keep:]:
            with contextlib.suppress(OSError):
                old.unlink()
        if self.journal is not None:
            # the oldest backup kept holds every change of the segments before its own
            self.journal.prune(stamp_of(kept[: self.keep][-1]))
        return made

    async def _run(self) -> None:
        await self.once()  # at start: the journal from here on has a backup to go with
        while True:
            await asyncio.sleep(self.every_s)
            await self.once()

    async def close(self) -> None:
        await cancel_and_wait(self._task)
        self._task = None


def main(argv: list[str]) -> int:
    """``python -m bot backup [--db FILE] --to FILE``."""
    from bot.store.opening import is_postgres_url

    parser = argparse.ArgumentParser(
        prog="python -m bot backup",
        description="Copy a SQLite database, also while the bot runs on it, and check the "
                    "copy. Restore: stop the bot, copy the backup over the database file "
                    "(delete its -wal and -shm files), run check-db, start the bot.")
    parser.add_argument("--db", default=os.environ.get("TEMPUS_DB") or "tempus.db",
                        help="the database (default: $TEMPUS_DB or tempus.db)")
    parser.add_argument("--to", required=True, help="the backup file to write")
    args = parser.parse_args(argv)
    if is_postgres_url(args.db):
        print("PostgreSQL: use pg_dump (README, 'Backups')", file=sys.stderr)
        return 2
    try:
        made = backup(args.db, args.to)
    except BackupFailed as exc:
        print(exc, file=sys.stderr)
        return 1
    print(f"{args.db} backed up to {made.path} ({made.pages} pages, checked, "
          f"{made.seconds:.1f} s)")
    return 0
