"""``python -m bot rebuild-history`` (bot/operator/rebuild_history.py): a database whose results and
ratings were derived under the old rule (a leaver not rated, a seat left on autopilot by
missed deadlines rated on the computer's result) gets the numbers the rules of
bot/history/ratings.py document, and the report says what changed; refused while a bot
holds the database."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from bot.history import ledger as hist
from bot.history import ratings as R
from bot.operator.rebuild_history import EXIT_BUSY, rebuild_history, report_lines
from bot.store import RatingRow
from bot.store.sqlite import SqliteStorage
from lang.messages import t
from tests.bot.history.test_history import GUILD, store_game

ROOT = Path(__file__).resolve().parents[3]


def _old_rule(games: list[R.RatedGame]) -> dict[int, R.Skill]:
    """Ratings as the bot derived them before leavers were rated: a leaver's seat is the
    computer that finished it, and a game counts only with two people who stayed."""
    old = [R.RatedGame(g.game_id, g.finished_at, tuple(
        R.RatedSeat(None, s.ai_level, s.rank) if s.left else s for s in g.seats))
        for g in games]
    return R.recompute(g for g in old if g.counts)


async def _old_database(path: Path) -> list[int]:
    """Four finished games, with the history tables as the old code left them."""
    store = await SqliteStorage.open(str(path))
    try:
        ids = [await store_game(store, people, 300 + k, winner=win)
               for k, (people, win) in enumerate([([1, 2, 3], 3), ([1, 2, None], 2),
                                                  ([2, 3, 1], 1), ([3, 1, 2], 2)])]
        leaver = ids[0]  # person 3 left game 1 (a hard computer won it for them)
        game = await store.game(leaver)
        assert game is not None
        seat = next(s.seat for s in await store.seats(leaver) if s.user_id == 3)
        await store.leave_seat(leaver, game.version, seat, "hard")
        timed = ids[1]  # person 2's seat went on autopilot by missed deadlines for good
        game = await store.game(timed)
        assert game is not None
        seat = next(s.seat for s in await store.seats(timed) if s.user_id == 2)
        await store.set_autopilot(timed, game.version, seat, "normal", timed_out=True)
        await hist.sync(store)
        # the old code: that seat's result row was a person's, the ratings the old rule's
        rows = await store.results(GUILD, game_ids=[timed])
        await store.save_results([replace(r, ai_level=None) if r.user_id == 2 else r
                                  for r in rows])
        games = hist.rated_games(await store.results(GUILD))
        old = _old_rule(games)
        await store.store_ratings(
            GUILD, [RatingRow(GUILD, u, s.mu, s.sigma, s.games) for u, s in old.items()],
            [(g.game_id, g.finished_at) for g in games], replace=True)
    finally:
        await store.close()
    return ids


@pytest.mark.asyncio
async def test_rebuild_gives_the_documented_numbers_and_says_what_changed(
        tmp_path: Path) -> None:
    path = tmp_path / "tempus.db"
    ids = await _old_database(path)
    store = await SqliteStorage.open(str(path))
    try:
        old = {u: (r.mu, r.sigma, r.games) for u, r in (await store.ratings(GUILD)).items()}
        # while a bot holds the database: refused, nothing changed
        held = subprocess.run([sys.executable, "-m", "bot", "rebuild-history", "--db",
                               str(path)], cwd=ROOT, capture_output=True, text=True,
                              timeout=120)
        assert held.returncode == EXIT_BUSY, held.stdout + held.stderr
        assert t("rebuild.busy", path=str(path), who=t("error.store_in_use.who",
                                                       pid=_pid())) in held.stderr
        assert {u: (r.mu, r.sigma, r.games)
                for u, r in (await store.ratings(GUILD)).items()} == old
    finally:
        await store.close()
    done = subprocess.run([sys.executable, "-m", "bot", "rebuild-history", "--db",
                           str(path)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    store = await SqliteStorage.open(str(path))
    try:
        results = await store.results(GUILD)
        games = hist.rated_games(results)
        # the documented numbers: every game in game order under the rules of ratings.py
        documented = R.recompute(games)
        new = await store.ratings(GUILD)
        assert {u: (r.mu, r.sigma, r.games) for u, r in new.items()} == {
            u: (s.mu, s.sigma, s.games) for u, s in documented.items()}
        assert documented[3].games == 3 and old[3][2] == 2, "person 3's leave now counts"
        # person 2's time-out: rated as finishing last, not on the computer's result;
        # person 1 stayed alone with computers in that game: no longer rated on it
        assert documented[2].games == 4 == old[2][2] and documented[2].mu != old[2][0]
        assert documented[1].games == 3 and old[1][2] == 4
        assert len(games) == 4
        # what the report says: the time-out's result row and every rating that changed
        lines = done.stdout.splitlines()
        assert lines[0] == t("rebuild.title", path=str(path))
        timed_out = next(r for r in results if r.game_id == ids[1] and r.user_id == 2)
        assert any(line.startswith(t("rebuild.result_changed", game=ids[1],
                                     seat=timed_out.seat + 1, name="P2", before="",
                                     after="").split(":")[0]) for line in lines)
        for user in (1, 2, 3):
            assert old[user] != (new[user].mu, new[user].sigma, new[user].games)
            assert any(f"{new[user].mu:.2f}" in line and
                       line.startswith(t("rebuild.rating_changed", server=GUILD, user=user,
                                         before="", after="").split(":")[0])
                       for line in lines), user
        assert lines[-1] == t("rebuild.summary", games=4, rated=4, results=1, ratings=3)
        # and the README shows this very report
        readme = (ROOT / "README.md").read_text(encoding="utf-8")
        block = readme.split("<!-- rebuild-history example")[1].split("```")[1]
        assert done.stdout.replace(str(path), "tempus.db").strip() == block.strip(), \
            "update README's rebuild-history example to this output"
        # a second rebuild changes nothing
        again = await rebuild_history(store)
        assert not again.results and not again.ratings
        assert report_lines("x", again)[-1] == t("rebuild.unchanged", games=4, rated=4)
    finally:
        await store.close()


def _pid() -> int:
    return os.getpid()


def test_a_missing_file_is_not_created(tmp_path: Path) -> None:
    missing = tmp_path / "nothing.db"
    r = subprocess.run([sys.executable, "-m", "bot", "rebuild-history", "--db", str(missing)],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == EXIT_BUSY and not missing.exists()
    assert t("rebuild.no_file") in r.stderr


@pytest.mark.asyncio
async def test_on_postgresql_refused_while_a_bot_runs(pg_url: str) -> None:
    """A bot process holds its shard locks: the rebuild claims every shard the same way,
    so it refuses, naming the process; once the bot is gone it runs."""
    from bot.cluster.coordinator import ShardLocks
    from bot.cluster.ownership import Ownership
    from bot.operator.rebuild_history import run
    from bot.store.opening import open_storage

    store = await open_storage(pg_url)
    try:
        g = await store_game(store, [1, 2, None], 400)  # type: ignore[arg-type]
    finally:
        await store.close()
    bot = ShardLocks(pg_url, Ownership.of([1], 2))
    await bot.take()
    try:
        code, lines = await run(pg_url)
    finally:
        await bot.close()
    assert code == EXIT_BUSY and f"pid {os.getpid()}" in lines[0], lines  # who runs
    assert lines[0].startswith(t("rebuild.cannot", path=pg_url, reason="").split(":")[0])
    code, lines = await run(pg_url)
    assert code == 0, lines
    store = await open_storage(pg_url)
    try:
        assert {r.game_id for r in await store.results(GUILD)} == {g}
    finally:
        await store.close()
