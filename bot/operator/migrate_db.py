"""``python -m bot migrate-db --from tempus.db --to postgresql://...``: copy a SQLite
database into PostgreSQL.

Idempotent: every game is copied in its own transaction, and a game already in the target
is brought up to date (its missing log entries appended: the log is append-only there
too) or left alone when it is the same; running it again copies nothing twice. A game the
target has moved on with (the bot already runs on PostgreSQL: its log there goes on from
this one) is kept as it is there. A target game with the same number that is another game
(made at another time or in another channel, or whose log differs) is an id collision:
reported as failed, neither game changed.

Verified: each copied game's log is read back from PostgreSQL inside the transaction and
replayed by its game (``games.game``; undo entries included), as the table service does
when it loads a game; a log that does not replay is not committed and is reported. A
snapshot that differs from the replay is replaced by the replay (as the bot would on
load) and reported.
The history tables (results and ratings, bot/history/ledger.py) are not copied: they are caches
of the logs, derived again in the target for every finished game it lacks them for.

The turn clock is copied, not re-derived: a game's ``deadlines`` rows go with the game (in
its transaction, replacing the target's unless the target has moved on with the game),
and ``seats.left_game`` with its seats, and so do its ``turn_mutes`` (who muted the pings of
the turn under way). The log cannot give them back: when each pending
decision began (re-deriving would restart every clock at the migration, granting extra
time), which reminders were sent (they would be sent again) and the missed deadlines in a
row (strikes). A deadline that passes while the bots are switched over is handled as after
any restart (bot/timing/turn_clock.py: it fires once, shortly after the bot starts). Per-person
``user_settings`` (reminders muted) are a person's choice, nothing derives them: copied,
the file's setting replacing the target's (run it again only until the bot runs on
PostgreSQL; every game the bot changed there is kept as it is anyway).
Exit status 0 when every game is in the target, 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.store.opening import is_postgres_url
from bot.store.rows import LOBBY
from bot.store.sqlite import SCHEMA_VERSION, SqliteStorage
from games import registry
from games.port import BadLog

COPIED, UPDATED, SAME, KEPT, FAILED = "copied", "updated", "unchanged", "kept", "failed"


class Refused(Exception):
    """This game cannot be copied (the reason is for the operator)."""


@dataclass
class Report:
    results: dict[int, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def count(self, what: str) -> int:
        return sum(1 for r in self.results.values() if r == what)

    @property
    def ok(self) -> bool:
        return self.count(FAILED) == 0


def replay_log(kind: str, options: dict[str, Any], seats: list[dict[str, Any]],
               actions: list[dict[str, Any]]) -> Any:
    """The position a started game's log leads to (as ``bot.table.tables.Tables.load``
    rebuilds it), by its game ``kind`` (the ``games.game`` column); raises
    :class:`games.port.BadLog` on a log the game refuses."""
    return registry.game(kind).records.replay(
        options, len(seats), [(row["seat"], row["action"]) for row in actions])


def _when(text: Any) -> datetime:
    try:
        when = datetime.fromisoformat(str(text))
    except ValueError:
        return datetime.now(UTC)
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _schema_of(path: str) -> int:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        if con.execute("SELECT 1 FROM sqlite_master WHERE name = 'schema_version'").fetchone():
            row = con.execute("SELECT version FROM schema_version").fetchone()
            return int(row[0]) if row else 0
        return 0
    finally:
        con.close()


def _read_sqlite(path: str) -> tuple[list[dict[str, Any]],
                                     list[tuple[int, bool, str | None]]]:
    """Every game of the SQLite file with its seats, turn clocks and log, and the
    per-person settings (read-only, one snapshot: a bot may go on writing to the file
    meanwhile; running again copies what it added)."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    con.row_factory = sqlite3.Row
    try:
        con.execute("BEGIN")  # one read transaction: the games, seats and logs agree
        games = [dict(r) for r in con.execute("SELECT * FROM games ORDER BY id")]
        for g in games:
            g["seats"] = [dict(r) for r in con.execute(
                "SELECT seat, user_id, ai_level, name, autopilot, left_game, timed_out "
                "FROM seats WHERE game_id = ? ORDER BY seat", (g["id"],))]
            g["deadlines"] = [tuple(r) for r in con.execute(
                "SELECT seat, since, started_at, due_at, reminded, strikes, covering, "
                "nudged FROM deadlines "
                "WHERE game_id = ? ORDER BY seat", (g["id"],))]
            g["mutes"] = [tuple(r) for r in con.execute(
                "SELECT user_id, turn_key FROM turn_mutes WHERE game_id = ? ORDER BY user_id",
                (g["id"],))]
            g["actions"] = [
                {"seq": r["seq"], "seat": r["seat"], "action": json.loads(r["action"]),
                 "at": r["at"], "version": r["version"]}
                for r in con.execute("SELECT seq, seat, action, at, version FROM actions "
                                     "WHERE game_id = ? ORDER BY seq", (g["id"],))]
        settings = [(r[0], bool(r[1]), r[2]) for r in con.execute(
            "SELECT user_id, reminders, locale FROM user_settings ORDER BY user_id")]
    finally:
        con.close()
    return games, settings


async def _copy_game(con: Any, g: dict[str, Any], report: Report) -> str:
    gid = g["id"]
    there = await con.fetchrow("SELECT version, channel_id, created_at FROM games "
                               "WHERE id = $1 FOR UPDATE", gid)
    old = await con.fetch("SELECT seq, seat, action, version FROM actions WHERE game_id = $1 "
                          "ORDER BY seq", gid)
    ours = [(a["seq"], a["seat"], a["action"], a["version"]) for a in g["actions"]]
    theirs = [(r["seq"], r["seat"], json.loads(r["action"]), r["version"]) for r in old]
    if there is not None:
        # the same game (copied before) or another one that got the same number there
        if (there["channel_id"], there["created_at"]) != (g["channel_id"],
                                                         _when(g["created_at"])):
            raise Refused(
                f"an id collision: the target's game {gid} is another game (made "
                f"{there['created_at'].isoformat()} in channel {there['channel_id']}; this "
                f"one {g['created_at']} in channel {g['channel_id']})")
        if there["version"] > g["version"]:
            # kept only if the bot went on with this very game there: its log goes on ours
            if theirs[: len(ours)] == ours:
                return KEPT
            raise Refused("the target holds a different log for this game, at a later "
                          "version (an id collision, or the game went on differently in "
                          "each database)")
    if theirs != ours[: len(theirs)]:
        raise Refused("the target holds a different log for this game")
    options = json.loads(g["options"])
    kind = g.get("game") or registry.DEFAULT  # (a file from before the column: its default)
    state = json.loads(g["state"]) if g["state"] else None
    await con.execute(
        "INSERT INTO games (id, game, guild_id, channel_id, host_id, status, options, "
        "version, state, panel_message_id, created_at, updated_at, announced_version, "
        "thread_id, turn_key, seed_salt, seed_commitment) VALUES ($1, $2, $3, $4, $5, $6, "
        "$7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) ON CONFLICT (id) DO UPDATE SET "
        "game = $2, guild_id = $3, channel_id = $4, host_id = $5, status = $6, options = $7, "
        "version = $8, state = $9, panel_message_id = $10, created_at = $11, "
        "updated_at = $12, announced_version = $13, thread_id = $14, turn_key = $15, "
        "seed_salt = $16, seed_commitment = $17",
        gid, kind, g["guild_id"], g["channel_id"], g["host_id"],
        g["status"], options, g["version"], g["state"], g["panel_message_id"],
        _when(g["created_at"]), _when(g["updated_at"]), g.get("announced_version"),
        g.get("thread_id"), g.get("turn_key"), g.get("seed_salt"), g.get("seed_commitment"))
    await con.execute("DELETE FROM seats WHERE game_id = $1", gid)
    await con.executemany(
        "INSERT INTO seats (game_id, seat, user_id, ai_level, name, autopilot, left_game, "
        "timed_out) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        [(gid, s["seat"], s["user_id"], s["ai_level"], s["name"], s["autopilot"],
          bool(s["left_game"]), bool(s["timed_out"])) for s in g["seats"]])
    await con.execute("DELETE FROM deadlines WHERE game_id = $1", gid)
    await con.executemany(
        "INSERT INTO deadlines (game_id, seat, since, started_at, due_at, reminded, strikes, "
        "covering, nudged) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        [(gid, *d[:7], bool(d[7])) for d in g["deadlines"]])
    await con.execute("DELETE FROM turn_mutes WHERE game_id = $1", gid)
    await con.executemany(
        "INSERT INTO turn_mutes (game_id, user_id, turn_key) VALUES ($1, $2, $3)",
        [(gid, *m) for m in g["mutes"]])
    await con.executemany(
        "INSERT INTO actions (game_id, seq, seat, action, at, version) "
        "VALUES ($1, $2, $3, $4, $5, $6)",
        [(gid, a["seq"], a["seat"], a["action"], _when(a["at"]), a["version"])
         for a in g["actions"][len(theirs):]])
    # verify what PostgreSQL now holds, before committing it
    log = [{"seat": r["seat"], "action": json.loads(r["action"])} for r in await con.fetch(
        "SELECT seat, action FROM actions WHERE game_id = $1 ORDER BY seq", gid)]
    if log or (g["status"] != LOBBY and state is not None):
        seats = await con.fetch("SELECT seat FROM seats WHERE game_id = $1", gid)
        try:
            replayed = replay_log(kind, options, [dict(s) for s in seats], log).to_json()
        except BadLog as exc:
            cause = exc.cause
            raise Refused(f"its log does not replay: {type(cause).__name__}: {cause}") from None
        except registry.UnknownGame as exc:
            raise Refused(f"its log does not replay: {type(exc).__name__}: {exc}") from None
        if replayed != state:
            report.notes.append(f"game {gid}: the stored position differed from its log; "
                                "the replayed log is stored instead")
            await con.execute("UPDATE games SET state = $1 WHERE id = $2",
                              json.dumps(replayed, separators=(",", ":")), gid)
    if there is None:
        return COPIED
    return SAME if len(theirs) == len(ours) and there["version"] == g["version"] else UPDATED


async def migrate_db(source: str, target: str, *,
                     say: Callable[[str], None] = print) -> Report:
    if is_postgres_url(source) or not Path(source).is_file():
        raise SystemExit(f"--from: {source!r} is not a SQLite database file")
    if not is_postgres_url(target):
        raise SystemExit(f"--to: {target!r} is not a postgresql:// URL")
    if _schema_of(source) < SCHEMA_VERSION:  # an old file: brought up to the current schema
        lite = await SqliteStorage.open(source)  # (refused while a bot has it open)
        await lite.close()
    games, settings = _read_sqlite(source)
    from bot.store.postgres import PgStorage

    dst = await PgStorage.open(target)
    report = Report()
    try:
        async with dst._pool.acquire() as con:
            for g in games:
                try:
                    async with con.transaction():
                        report.results[g["id"]] = await _copy_game(con, g, report)
                except Refused as exc:
                    report.results[g["id"]] = FAILED
                    report.notes.append(f"game {g['id']}: not copied: {exc}")
                except Exception as exc:  # a constraint of the target (e.g. a busy channel)
                    report.results[g["id"]] = FAILED
                    report.notes.append(f"game {g['id']}: not copied: "
                                        f"{type(exc).__name__}: {exc}")
            await con.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), "
                              "GREATEST((SELECT max(id) FROM games), 1))")
            await con.executemany(
                "INSERT INTO user_settings (user_id, reminders, locale) VALUES ($1, $2, $3) "
                "ON CONFLICT (user_id) DO UPDATE SET reminders = excluded.reminders, "
                "locale = excluded.locale", settings)
        if settings:
            report.notes.append(f"settings of {len(settings)} person(s) copied")
        # the history tables (results, ratings) are caches of the logs: derived again here
        # rather than copied, exactly as the bot would (bot/history/ledger.py)
        from bot.history import ledger as history

        derived = await history.sync(dst)
        report.notes.append(f"history: the results of {len(derived)} finished game(s) "
                            "derived from their logs")
    finally:
        await dst.close()
    for note in report.notes:
        say(note)
    say(f"{len(games)} game(s): " + ", ".join(
        f"{report.count(k)} {k}" for k in (COPIED, UPDATED, SAME, KEPT, FAILED)))
    return report


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot migrate-db", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--from", dest="source", required=True, help="the SQLite file")
    parser.add_argument("--to", dest="target", required=True,
                        help="postgresql://user:password@host/database")
    args = parser.parse_args(argv)
    report = asyncio.run(migrate_db(args.source, args.target))
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
