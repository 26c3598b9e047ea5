"""``python -m bot restore``: the database brought back from the newest sound backup and the
journal of changes (bot/store/journal.py), for when the file is damaged or lost.

Steps (the bot must be stopped; the database's lock is held throughout, so it cannot start
meanwhile):

1. the newest backup in the backup folder that passes SQLite's ``integrity_check`` (or
   ``--backup FILE``) is copied beside the database and brought to this bot's schema;
2. every change of the journal's segments is applied in order through the storage
   methods that made it, each only on the game version it was made at: a change the
   backup holds already is skipped, so the segments may overlap the backup. Of two entries
   made at one version of a game, the later one counts (the earlier one's commit failed);
   entries of a batch marked as not committed are skipped;
3. every game the journal changed gets its snapshot from the replay of its log (the
   journal holds no snapshots: its game replays a log exactly);
4. the result is checked as ``check-db`` does; the damaged database (with its ``-wal``
   and ``-shm``) is moved aside as ``<file>.damaged-<UTC time>``, the restored one takes
   its place (``--to FILE``: written there instead, the database left as it is).

Exit status 0: restored and sound; 1: restored, but something is missing or wrong (the
report says what: a gap in the journal, a game that does not replay); 2: nothing restored
(no sound backup, the bot is running).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sqlite3
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.store import journal as journal_
from bot.store import statements as q
from bot.store.backup import backups_in, folder_of, stamp_of
from bot.store.errors import StorageError
from bot.store.file_lock import StoreInUse, StoreLock
from bot.store.opening import is_postgres_url
from bot.store.rows import DeadlineRow
from bot.store.sqlite import SqliteStorage
from bot.store.statements import Json, Sql
from bot.store.storage import Connection
from games import registry
from games.port import BadLog

log = logging.getLogger(__name__)

OK, PROBLEMS, NOTHING = 0, 1, 2

#: a game as the journal made it: its number as it had it
_CREATE_WITH_ID = Sql(
    "INSERT INTO games (id, guild_id, channel_id, host_id, status, options, created_at, "
    "updated_at) VALUES (:game_id, :guild_id, :channel_id, :host_id, 'lobby', :options, "
    "now(), now())")
#: the same, of a game named (journals before the name was kept: the column's default)
_CREATE_OF_WITH_ID = Sql(
    "INSERT INTO games (id, guild_id, channel_id, host_id, status, options, game, "
    "created_at, updated_at) VALUES (:game_id, :guild_id, :channel_id, :host_id, 'lobby', "
    ":options, :game, now(), now())")
#: an action logged with the time it was played (the log takes no UPDATE)
_APPEND_ACTION_AT = Sql("INSERT INTO actions (game_id, seq, seat, action, at, version) "
                        "VALUES (:game_id, :seq, :seat, :action, :at, :version)")
#: the changes that raise a game's version: applied only on the version they were made at
_VERSIONED = {"add_seat", "remove_seat", "start", "set_status", "set_options",
              "set_autopilot", "append_action", "replace_seat", "leave_seat"}
#: the changes whose snapshot the restore computes (the journal holds none)
_SNAPSHOT = {"start", "append_action"}


@dataclass
class Outcome:
    backup: Path | None = None
    #: backups passed over as damaged
    unsound: list[Path] = field(default_factory=list)
    segments: list[Path] = field(default_factory=list)
    applied: int = 0
    skipped: int = 0
    games: set[int] = field(default_factory=set)
    reading: journal_.Reading = field(default_factory=journal_.Reading)
    problems: list[str] = field(default_factory=list)


def sound(path: Path) -> bool:
    """Whether the SQLite file at ``path`` passes ``integrity_check``."""
    try:
        with contextlib.closing(sqlite3.connect(path.absolute().as_uri() + "?mode=ro",
                                                uri=True)) as raw:
            rows = raw.execute("SELECT CAST(integrity_check AS BLOB) "
                               "FROM pragma_integrity_check").fetchall()
    except sqlite3.Error:
        return False
    return [bytes(r[0]) for r in rows] == [b"ok"]


def latest_per_version(entries: list[journal_.Entry]) -> list[journal_.Entry]:
    """The entries that count: of several made on one version of a game (or several
    creations of one game number), the last; a later one proves the earlier one was not
    committed (its batch failed, and the mark saying so could not be written)."""
    last: dict[tuple[str, int, int], int] = {}
    keys: list[tuple[str, int, int] | None] = []
    for i, e in enumerate(entries):
        key: tuple[str, int, int] | None = None
        if e.op == "create_game" and e.game_id is not None:
            key = ("create", e.game_id, 0)
        elif e.op in _VERSIONED and e.game_id is not None and e.version is not None:
            key = ("change", e.game_id, e.version)
        keys.append(key)
        if key is not None:
            last[key] = i
    return [e for i, (e, key) in enumerate(zip(entries, keys, strict=True))
            if key is None or last[key] == i]


def _deadlines(raw: Any) -> list[DeadlineRow] | None:
    return None if raw is None else [DeadlineRow(**d) for d in raw]


async def apply(store: SqliteStorage, e: journal_.Entry, out: Outcome) -> None:
    """One journal entry applied to the database being restored (or skipped: held
    already)."""
    args = dict(e.args)
    if "deadlines" in args:
        args["deadlines"] = _deadlines(args["deadlines"])
    gid = e.game_id
    if e.op == "create_game":
        assert gid is not None
        if await store.game_ref(gid) is not None:
            out.skipped += 1
            return

        async def body(con: Connection) -> None:
            named = {"game": args["game"]} if args.get("game") else {}
            await con.execute(_CREATE_OF_WITH_ID if named else _CREATE_WITH_ID, game_id=gid,
                              guild_id=args["guild_id"], channel_id=args["channel_id"],
                              host_id=args["host_id"], options=Json(args["options"]),
                              **named)
            if args["host_name"] is not None:
                await con.execute(q.ADD_SEAT, game_id=gid, seat=0, user_id=args["host_id"],
                                  ai_level=None, name=args["host_name"])
        await store._write(body)
    elif e.op in _VERSIONED:
        assert gid is not None and e.version is not None
        ref = await store.game_ref(gid)
        have = None if ref is None else ref.version
        if have is not None and have > e.version:
            out.skipped += 1
            return
        if have != e.version:
            out.problems.append(
                f"{e.where}: game {gid} is at version {have} but this change was made at "
                f"{e.version}: the changes between are missing")
            return
        if e.op == "append_action" and e.at is not None:
            # as the database's now() writes it (bot/store/rows.py, now_text)
            at = datetime.fromtimestamp(e.at, UTC).isoformat(timespec="milliseconds")
            await _append_action_at(store, gid, e.version, at, **args)
        else:
            if e.op in _SNAPSHOT:
                args["state"] = {}  # computed from the log at the end
            await getattr(store, e.op)(gid, e.version, **args)
    elif e.op in ("set_thread", "set_deadlines"):
        assert gid is not None
        if await store.game_ref(gid) is None:
            out.problems.append(f"{e.where}: {e.op} of game {gid}, which is missing")
            return
        await getattr(store, e.op)(gid, **args)
    elif e.op in ("set_reminders", "set_user_locale", "start_lesson", "set_lesson_step",
                  "set_lesson_place", "set_tips", "see_tip"):
        await getattr(store, e.op)(**args)
    else:
        out.problems.append(f"{e.where}: unknown change {e.op!r}")
        return
    out.applied += 1
    if gid is not None:
        out.games.add(gid)


async def _append_action_at(store: SqliteStorage, game_id: int, version: int, at: str, *,
                            seq: int, seat: int, action: dict[str, Any], status: str,
                            deadlines: list[DeadlineRow] | None) -> None:
    """``append_action`` (bot/store/storage.py) with the time the action was played:
    the history orders finished games by their last action's time. The snapshot is left
    empty here (computed from the log at the end)."""
    async def body(con: Connection) -> None:
        new = await store._bump(con, game_id, version, "state = :state, status = :status",
                                state="{}", status=status)
        await con.execute(_APPEND_ACTION_AT, game_id=game_id, seq=seq, seat=seat,
                          action=Json(action), at=at, version=new)
        await store._write_deadlines(con, game_id, deadlines)
    await store._write(body)


async def snapshot(store: SqliteStorage, game_id: int) -> str | None:
    """Store the game's snapshot as the replay of its log; why not, if it cannot be."""
    game = await store.game(game_id)
    assert game is not None
    seats = await store.seats(game_id)
    rows = await store.actions(game_id)
    try:
        state = registry.game(game.kind).records.replay(
            game.options, len(seats), [(row.seat, row.action) for row in rows])
    except BadLog as exc:  # the report says which game
        return f"game {game_id} does not replay: {exc.cause!r}"
    except registry.UnknownGame as exc:
        return f"game {game_id} does not replay: {exc!r}"
    await store.replace_snapshot(game_id, state.to_json())
    return None


async def rebuild(backup: Path, segments: list[Path], target: Path) -> Outcome:
    """``target``: the backup with every change of the journal's ``segments`` since."""
    out = Outcome(backup=backup, segments=segments)
    part = target.with_name(target.name + ".part")
    for leftover in (part, Path(f"{part}-wal"), Path(f"{part}-shm")):
        leftover.unlink(missing_ok=True)
    with contextlib.closing(sqlite3.connect(backup.absolute().as_uri() + "?mode=ro",
                                            uri=True)) as src, \
            contextlib.closing(sqlite3.connect(part)) as dst:
        src.backup(dst)
    out.reading = journal_.read(segments)
    out.problems.extend(f"{where}: damaged, left out" for where in out.reading.damaged)
    store = await SqliteStorage.open(str(part))  # (brought to this bot's schema)
    # no sync per change: the file is synced once when the log is folded in at the end,
    # before it takes the database's place
    await store._db.execute("PRAGMA synchronous=OFF")
    try:
        snapshots: set[int] = set()
        for e in latest_per_version(out.reading.entries):
            before = out.applied
            await apply(store, e, out)
            if out.applied > before and e.op in _SNAPSHOT and e.game_id is not None:
                snapshots.add(e.game_id)
        for gid in sorted(snapshots):
            why = await snapshot(store, gid)
            if why is not None:
                out.problems.append(why)
    finally:
        await store.close()
    with contextlib.closing(sqlite3.connect(part)) as raw:  # one file, no -wal beside it
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        raw.execute("PRAGMA journal_mode=DELETE")
    Path(f"{part}.lock").unlink(missing_ok=True)
    os.replace(part, target)
    return out


def set_aside(db: Path, stamp: str) -> list[Path]:
    """Move the database and its ``-wal`` and ``-shm`` out of the way (kept, renamed)."""
    moved = []
    for path in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        if path.exists():
            aside = path.with_name(f"{path.name}.damaged-{stamp}")
            os.replace(path, aside)
            moved.append(aside)
    return moved


def since(segments: list[Path], backup: Path, db: Path) -> list[Path]:
    """The journal segments from the backup's own on (it holds everything of the older
    ones, and a change without a version, such as a turn clock, must not go back to an
    older value); all of them for a backup not named by the bot."""
    if backup.name not in {p.name for p in backups_in(backup.parent, db)}:
        return segments
    first = f"{db.stem}-{stamp_of(backup)}"
    return [s for s in segments if s.name >= first]


def choose_backup(folder: Path, db: Path, given: str | None, out: Outcome) -> Path | None:
    if given:
        path = Path(given)
        if sound(path):
            return path
        out.unsound.append(path)
        return None
    for path in backups_in(folder, db):
        if sound(path):
            return path
        out.unsound.append(path)
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot restore",
        description="Bring the database back after it was damaged or lost: the newest "
        "sound backup plus every change the journal holds since (both in the backup "
        "folder). Stop the bot first. The damaged file is kept as <file>.damaged-<time>. "
        "Exit status 0: restored and sound, 1: restored with problems (listed), 2: nothing "
        "restored.")
    parser.add_argument("--db", default=os.environ.get("TEMPUS_DB") or "tempus.db",
                        help="the database file (default: $TEMPUS_DB or tempus.db)")
    parser.add_argument("--backup-dir", default=os.environ.get("TEMPUS_BACKUP_DIR") or None,
                        help="the backups and the journal (default: $TEMPUS_BACKUP_DIR or "
                        "backups beside the database)")
    parser.add_argument("--backup", help="this backup file instead of the newest sound one")
    parser.add_argument("--to", help="write the restored database here and leave the "
                        "database as it is")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)
    if is_postgres_url(args.db):
        print("PostgreSQL: restore a pg_dump backup with pg_restore (README, 'Backups')",
              file=sys.stderr)
        return NOTHING
    db = Path(args.db)
    folder = folder_of(db, args.backup_dir)
    try:
        lock = StoreLock.acquire(str(db))
    except StoreInUse as exc:
        print(f"{db} is in use by process {exc.pid}: stop the bot first", file=sys.stderr)
        return NOTHING
    except OSError as exc:  # e.g. its folder is gone with the disk
        print(f"cannot lock {db}: {exc.strerror or exc}", file=sys.stderr)
        return NOTHING
    try:
        return _restore(db, folder, args.backup, Path(args.to) if args.to else None)
    finally:
        lock.release()


def _restore(db: Path, folder: Path, given: str | None, to: Path | None) -> int:
    from bot.operator.check_db import check

    out = Outcome()
    backup = choose_backup(folder, db, given, out)
    for bad in out.unsound:
        print(f"{bad}: damaged or not a database, passed over")
    if backup is None:
        print(f"no sound backup of {db} in {folder}: nothing restored", file=sys.stderr)
        return NOTHING
    segments = since(journal_.segments(folder, db.stem), backup, db)
    stamp = journal_.stamp_now()
    target = to or db.with_name(f"{db.name}.restored-{stamp}")
    try:
        out = asyncio.run(rebuild(backup, segments, target))
    except (StorageError, sqlite3.Error, OSError) as exc:
        print(f"restoring from {backup} failed: {exc}", file=sys.stderr)
        return NOTHING
    r = out.reading
    print(f"from {backup} and {len(segments)} journal segment(s) in {folder}: "
          f"{out.applied} change(s) applied to {len(out.games)} game(s), {out.skipped} held "
          f"by the backup already" + (f", {r.aborted} not committed" if r.aborted else "")
          + (f", {r.torn} cut short by a crash (never acknowledged)" if r.torn else ""))
    for problem in out.problems:
        print(f"  problem: {problem}")
    report = asyncio.run(check(str(target)))
    if not report.ok:
        print("\n".join(report.lines()))
    if to is None:
        moved = set_aside(db, stamp)
        os.replace(target, db)
        for aside in moved:
            print(f"the old {aside.name.split('.damaged-')[0]} is kept as {aside}")
        target = db
    print(f"restored to {target}; start the bot")
    return OK if report.ok and not out.problems else PROBLEMS
