"""``python -m bot check-db``: is the database sound, and will every game load?

Read-only (it may run beside the bot): SQLite's ``integrity_check`` and
``foreign_key_check`` (PostgreSQL, ``--db postgresql://...``: its counted data-page
checksum failures and rows pointing at no game, in read-only transactions), then for every
game its row, its seats and its action log, the log replayed from the game's options and
compared with the stored snapshot, exactly as the bot does when it loads a game. Prints a
report and exits 0 when all is well, 1 when something is wrong, 2 when the database cannot
be opened at all.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import shutil
import sqlite3
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.operator.settings import Settings
from bot.store.errors import GameUnreadable, StorageError, StorageUnavailable
from bot.store.opening import is_postgres_url
from bot.store.protocol import GameReads
from bot.store.rows import ACTIVE, FINISHED, LOBBY, GameRef, GameStatus
from bot.store.sqlite import SCHEMA_VERSION, SqliteStorage
from games import registry
from games.port import BadLog
from lang.messages import t

OK, PROBLEMS, UNUSABLE = 0, 1, 2


@dataclass
class GameReport:
    game_id: int
    status: str
    channel_id: int
    actions: int = 0
    started: bool = True
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        where = {"game": self.game_id, "status": self.status, "channel": self.channel_id}
        if self.problems:
            return t("checkdb.game_bad", problem="; ".join(self.problems), **where)
        if not self.started:
            return t("checkdb.game_lobby", **where)
        return t("checkdb.game_ok", n=self.actions, **where)


@dataclass
class Report:
    path: str
    fatal: str | None = None
    integrity: list[str] = field(default_factory=list)
    foreign_keys: list[tuple[Any, ...]] = field(default_factory=list)
    schema: int | None = None
    games: list[GameReport] = field(default_factory=list)
    #: the schema this bot writes (PostgreSQL numbers its migrations on its own)
    want: int = SCHEMA_VERSION
    #: an older PostgreSQL schema: its games are checked once the bot has upgraded it
    older: bool = False

    @property
    def database_ok(self) -> bool:
        return (self.fatal is None and not self.integrity and not self.foreign_keys
                and self.schema is not None and self.schema <= self.want)

    @property
    def ok(self) -> bool:
        return self.database_ok and not any(g.problems for g in self.games)

    def exit_code(self) -> int:
        if self.fatal is not None:
            return UNUSABLE
        return OK if self.ok else PROBLEMS

    def lines(self) -> list[str]:
        out = [t("checkdb.title", path=self.path)]
        if self.fatal is not None:
            return [*out, t("checkdb.cannot_open", path=self.path, reason=self.fatal)]
        if self.integrity:
            out.append(t("checkdb.integrity_bad", n=len(self.integrity)))
            out.extend(f"  {p}" for p in self.integrity[:20])
        else:
            out.append(t("checkdb.integrity_ok"))
        if self.foreign_keys:
            table, row = self.foreign_keys[0][0], self.foreign_keys[0][1]
            out.append(t("checkdb.foreign_keys_bad", n=len(self.foreign_keys), table=table,
                         row=row))
        if self.schema is not None and self.schema > self.want:
            out.append(t("checkdb.schema_newer", have=self.schema, want=self.want))
            return out
        out.append(t("checkdb.schema", have=self.schema, want=self.want))
        if self.older:
            out.append(t("checkdb.schema_older", have=self.schema, want=self.want))
            return out
        out.extend(g.line() for g in self.games)
        bad = sum(1 for g in self.games if g.problems)
        if self.ok:
            out.append(t("checkdb.summary_ok", n=len(self.games)))
        else:
            out.append(t("checkdb.summary_bad", bad=bad, n=len(self.games),
                         db=t("checkdb.db_ok" if self.database_ok else "checkdb.db_bad")))
        return out


async def check(path: str) -> Report:
    """Check the database at ``path`` without changing it."""
    report = Report(path)
    store: Any
    folder: str | None = None  # of an upgraded copy
    try:
        if is_postgres_url(path):
            from bot.store.postgres import PG_SCHEMA_VERSION, PgStorage

            report.want = PG_SCHEMA_VERSION
            store = await PgStorage.open(path, read_only=True, max_size=2)
        else:
            store = await SqliteStorage.open(path, read_only=True)
    except StorageError as exc:
        report.fatal = _why(exc)
        return report
    try:
        try:
            report.integrity = await store.integrity_problems()
            report.foreign_keys = await store.foreign_key_problems()
        except StorageUnavailable as exc:  # too damaged to finish the check
            report.integrity = [_why(exc)]
        report.schema = await store.schema_version()
        if report.schema is not None and report.schema > report.want:
            return report
        if report.schema is not None and report.schema < report.want:
            if is_postgres_url(path):  # the bot upgrades it when it starts
                report.older = True
                return report
            # the games are read with this bot's columns: check an upgraded copy
            await store.close()
            folder = tempfile.mkdtemp(prefix="tempus-check-")
            store = await _upgraded_copy(path, f"{folder}/copy.db")
        refs: list[tuple[str, GameRef]] = []
        for wanted in GameStatus:
            refs.extend((wanted, r) for r in await store.game_refs(wanted))
        for status, ref in sorted(refs, key=lambda x: x[1].id):
            report.games.append(await check_game(store, ref, status))
    except StorageError as exc:  # the file itself is unusable (not a database, damaged)
        report.fatal = _why(exc)
    finally:
        await store.close()
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
    return report


async def _upgraded_copy(path: str, copy: str) -> SqliteStorage:
    """A copy of the SQLite file at ``path`` (written to ``copy``) brought to this bot's
    schema: the file itself is never changed."""
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        target = sqlite3.connect(copy)
        try:
            source.backup(target)
        finally:
            target.close()
    finally:
        source.close()
    return await SqliteStorage.open(copy)


def _why(exc: StorageError) -> str:
    return exc.detail or exc.reason if isinstance(exc, StorageUnavailable) else str(exc)


async def check_game(store: GameReads, ref: GameRef, status: str) -> GameReport:
    """One game as the bot would load it (see ``bot.table.tables.Tables.load``)."""
    rep = GameReport(ref.id, status, ref.channel_id)
    try:
        game = await store.game(ref.id)
        seats = await store.seats(ref.id)
        rows = await store.actions(ref.id)
    except GameUnreadable as exc:
        rep.problems.append(t("checkdb.problem.unreadable", reason=exc.reason))
        return rep
    except StorageUnavailable as exc:  # its pages are damaged
        rep.problems.append(t("checkdb.problem.unreadable", reason=_why(exc)))
        return rep
    assert game is not None
    rep.actions = len(rows)
    if status == LOBBY or (game.state is None and game.state_error is None and not rows):
        rep.started = False
        return rep
    for i, row in enumerate(rows):
        if row.seq != i:
            rep.problems.append(t("checkdb.problem.seq", expected=i, found=row.seq))
            break
    try:
        port = registry.game(game.kind)
    except registry.UnknownGame:
        rep.problems.append(t("checkdb.problem.replay",
                              reason=f"it is a game this bot does not know ({game.kind!r})"))
        return rep
    try:
        # as the table service loads it: the seats in order, the options of the started
        # game, undo entries taking back steps
        state = port.records.replay(game.options, len(seats),
                                    [(row.seat, row.action) for row in rows])
    except BadLog as exc:  # any failure here is the game's problem
        if exc.entry is None:
            reason = f"its options do not set up a game ({exc.cause!r})"
        else:
            row = rows[exc.entry]
            reason = f"entry {row.seq} (seat {row.seat}): {exc.cause}"
        rep.problems.append(t("checkdb.problem.replay", reason=reason))
        return rep
    if game.state_error is not None:
        rep.problems.append(t("checkdb.problem.snapshot_unreadable", reason=game.state_error))
    elif game.state is None:
        rep.problems.append(t("checkdb.problem.no_snapshot"))
    elif game.state != state.to_json():
        rep.problems.append(t("checkdb.problem.snapshot_differs"))
    over = port.rules.is_over(state)
    if (status == FINISHED and not over) or (status == ACTIVE and over):
        rep.problems.append(t("checkdb.problem.status", status=status,
                              phase="over" if over else "still running"))
    return rep


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot check-db",
        description="Check the bot's database (read-only; the bot may be running): SQLite's "
        "integrity check, then every game's log replayed against its snapshot. Exit status "
        "0: all ok, 1: problems found, 2: not usable as a database.")
    parser.add_argument("--db", help="SQLite database file or postgresql:// URL "
                        "(default: $TEMPUS_DB or tempus.db)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)  # the report says it all
    path = args.db or Settings.from_env().db
    report = asyncio.run(check(path))
    print("\n".join(report.lines()))
    return report.exit_code()


if __name__ == "__main__":
    sys.exit(main())
