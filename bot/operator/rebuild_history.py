"""``python -m bot rebuild-history [--db PATH]``: derive every finished game's results and
every server's ratings again from the action logs, in game order, and print what changed.

The results and ratings tables are caches (bot/history/ledger.py): a rule for ratings that
changed (a leaver now rated as finishing last, bot/history/ratings.py) or a bug fixed in
deriving them applies to the games already stored only when they are derived again. This
command does it: it reads every table first, drops the caches and derives them from the
logs (:func:`bot.history.ledger.rebuild`), then compares. It prints one line per result
row and per rating that changed (``before -> after``), then a summary; exit status 0.

It never runs beside a bot on the same database: the bot would derive results and
ratings at the same time from half-dropped tables. On SQLite the bot holds the file lock
(bot/store/file_lock.py) and this command refuses, naming the bot's process; on
PostgreSQL it claims every shard the way a bot process does (bot/cluster/coordinator.py)
and refuses the same way while any bot process runs. Exit status 3 then, nothing changed.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from babel.numbers import format_decimal

from bot.cluster.coordinator import ShardLocks
from bot.cluster.ownership import Ownership
from bot.history import ledger
from bot.store import FINISHED, HistoryStore, RatingRow, ResultRow, StorageUnavailable
from bot.store.file_lock import StoreInUse
from bot.store.opening import is_postgres_url, open_storage, without_password
from lang import i18n
from lang.messages import t

#: exit status when a bot runs on the database (or it cannot be opened): nothing changed
EXIT_BUSY = 3

#: (server, game, seat) -> the result row; (server, person) -> the rating
Results = dict[tuple[int, int, int], ResultRow]
Ratings = dict[tuple[int, int], RatingRow]


@dataclass
class Changes:
    """What a rebuild changed."""

    results: list[tuple[ResultRow | None, ResultRow | None]] = field(default_factory=list)
    ratings: list[tuple[RatingRow | None, RatingRow | None]] = field(default_factory=list)
    games: int = 0
    rated: int = 0


async def _servers(storage: HistoryStore) -> list[int]:
    """Every server with a finished game (results and ratings are kept per server)."""
    refs = await storage.game_refs(FINISHED)
    return sorted({ledger.guild_key(r.guild_id) for r in refs})


async def _read(storage: HistoryStore, servers: Sequence[int]) -> tuple[Results, Ratings, int]:
    results: Results = {}
    ratings: Ratings = {}
    rated = 0
    for guild in servers:
        for r in await storage.results(guild):
            results[(guild, r.game_id, r.seat)] = r
        for user, row in (await storage.ratings(guild)).items():
            ratings[(guild, user)] = row
        rated += len(await storage.rated_games(guild))
    return results, ratings, rated


async def rebuild_history(storage: HistoryStore) -> Changes:
    """Drop and derive the history tables again; what changed (module doc)."""
    servers = await _servers(storage)
    old_results, old_ratings, _ = await _read(storage, servers)
    await ledger.rebuild(storage)
    new_results, new_ratings, rated = await _read(storage, servers)
    out = Changes(games=len({k[1] for k in new_results}), rated=rated)
    for key in sorted(old_results.keys() | new_results.keys()):
        before, after = old_results.get(key), new_results.get(key)
        if before != after:
            out.results.append((before, after))
    for person in sorted(old_ratings.keys() | new_ratings.keys()):
        was, now = old_ratings.get(person), new_ratings.get(person)
        if was != now:
            out.ratings.append((was, now))
    return out


def _number(x: float) -> str:
    return format_decimal(round(x, 2), format="#,##0.00", locale=i18n.current())


def _result_text(r: ResultRow | None) -> str:
    if r is None:
        return t("rebuild.none")
    key = "rebuild.result.left" if ledger.left_row(r) else "rebuild.result"
    return t(key, rank=r.rank, vp=r.vp, level=r.ai_level or "")


def _rating_text(r: RatingRow | None) -> str:
    if r is None:
        return t("rebuild.none")
    return t("rebuild.rating", mu=_number(r.mu), sigma=_number(r.sigma), n=r.games)


def report_lines(path: str, changes: Changes) -> list[str]:
    """The report, in the current language."""
    lines = [t("rebuild.title", path=path)]
    for before, after in changes.results:
        row = after or before
        assert row is not None
        lines.append(t("rebuild.result_changed", game=row.game_id, seat=row.seat + 1,
                       name=row.name, before=_result_text(before),
                       after=_result_text(after)))
    for was, now in changes.ratings:
        rating = now or was
        assert rating is not None
        lines.append(t("rebuild.rating_changed", server=rating.guild_id, user=rating.user_id,
                       before=_rating_text(was), after=_rating_text(now)))
    if not changes.results and not changes.ratings:
        lines.append(t("rebuild.unchanged", games=changes.games, rated=changes.rated))
    else:
        lines.append(t("rebuild.summary", games=changes.games, rated=changes.rated,
                       results=len(changes.results), ratings=len(changes.ratings)))
    return lines


async def run(path: str) -> tuple[int, list[str]]:
    """Rebuild the history of the database at ``path``: (exit status, report lines)."""
    shown = without_password(path)
    if not is_postgres_url(path) and not os.path.isfile(path):
        return EXIT_BUSY, [t("rebuild.cannot", path=shown, reason=t("rebuild.no_file"))]
    locks: ShardLocks | None = None
    try:
        if is_postgres_url(path):  # every shard, as a bot process running alone claims
            locks = ShardLocks(path, Ownership())
            await locks.take()
        storage = await open_storage(path)
    except StoreInUse as exc:
        who = (t("error.store_in_use.who", pid=exc.pid) if exc.pid is not None
               else t("error.store_in_use.unknown"))
        return EXIT_BUSY, [t("rebuild.busy", path=shown, who=who)]
    except StorageUnavailable as exc:  # ShardsTaken too: it names the running process
        if locks is not None:
            await locks.close()
        return EXIT_BUSY, [t("rebuild.cannot", path=shown, reason=exc.detail or exc.reason)]
    try:
        changes = await rebuild_history(storage)
    finally:
        await storage.close()
        if locks is not None:
            await locks.close()
    return 0, report_lines(shown, changes)


def main(argv: Sequence[str] | None = None) -> int:
    from bot.operator.settings import Settings

    parser = argparse.ArgumentParser(
        prog="python -m bot rebuild-history",
        description="Derive every finished game's results and every server's ratings again "
        "from the action logs and print what changed. Refuses (exit status 3) while a bot "
        "runs on the database.")
    parser.add_argument("--db", help="SQLite database file or postgresql:// URL "
                        "(default: $TEMPUS_DB or tempus.db)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)
    path = args.db or Settings.from_env().db
    code, lines = asyncio.run(run(path))
    print("\n".join(lines), file=sys.stderr if code else sys.stdout)
    return code


if __name__ == "__main__":
    sys.exit(main())
