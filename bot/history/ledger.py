"""Past games: results, statistics and ratings, derived from the stored action logs.

The action log is the source of truth. When a game has finished, :func:`sync` replays
its log once through its game (``games.port.Records``: the history knows no game's rules),
derives each seat's result (rank, points, opening) and stores it in the ``results``
table; then it brings the server's ratings up to date in game order
(:mod:`bot.history.ratings`). Both tables are caches: :func:`rebuild` drops them and
derives them again, and gives the same numbers (tests check it).
Cancelled and abandoned games never finish, so they never count.

**A person who left mid-game** (``/tempus leave`` in a running game, ``seats.left_game``;
or missed deadlines put a computer on the seat, ``seats.timed_out``, and it was still on
at the end: ``SeatRow.forfeited``) did not play that game to its end. Their seat's result
row keeps their id and name (the history shows who sat there) with the level of the
computer that finished it in ``ai_level``, which a person's row otherwise never has
(:func:`left_row`). It is not counted in their statistics (games, wins, points), but it
is rated: as finishing last, whatever the computer scored for the seat, so leaving never
saves a rating; the people who stayed are rated against that seat as against a computer
of its level (:mod:`bot.history.ratings`). (No new column in ``results``: it is derived
from the stored seats, so a rebuilt database gives the same numbers.)
"""

from __future__ import annotations

import asyncio
import weakref
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.history import ratings as R
from bot.store import (
    ACTIVE,
    CANCELLED,
    FINISHED,
    LOBBY,
    ActionRow,
    GameReads,
    GameRow,
    HistoryStore,
    RatingRow,
    ResultRow,
    SeatRow,
)
from games import registry

#: ratings and results of games outside a server are kept under this server id
NO_GUILD = 0

Runner = Callable[..., Awaitable[Any]]


def guild_key(guild_id: int | None) -> int:
    return guild_id or NO_GUILD


# ------------------------------------------------------------------ from the log
def record_from_rows(game: GameRow, seats: list[SeatRow], actions: list[ActionRow]) -> Any:
    """The game's record built from storage rows (as the table service builds it), in its
    game's own terms (games.port.Records.record)."""
    return registry.game(game.kind).records.record(
        game.options, seats, [(r.seat, r.action) for r in actions], game.seed_salt)


#: the computer level of a left seat whose level was not stored (never expected)
LEFT_LEVEL = "normal"


def _level(seat: SeatRow) -> str | None:
    """``ai_level`` of a seat's result row: a computer's level; for a person who left,
    the level of the computer that finished the game for them; None for a person who
    stayed to the end."""
    if seat.user_id is None:
        return seat.ai_level
    return (seat.autopilot or LEFT_LEVEL) if seat.forfeited else None


def left_row(r: ResultRow) -> bool:
    """The person of this seat left the game and a computer finished it (module doc)."""
    return r.user_id is not None and r.ai_level is not None


def stayed(r: ResultRow) -> bool:
    """A person who played this seat to the end."""
    return r.user_id is not None and r.ai_level is None


def result_rows(game: GameRow, seats: list[SeatRow], record: Any,
                finished_at: str) -> list[ResultRow]:
    """The ``results`` rows of a finished game (CPU work: replays the whole log)."""
    placed = registry.game(game.kind).records.summary(record).seats
    return [ResultRow(game.id, seat.seat, guild_key(game.guild_id), game.channel_id,
                      seat.user_id, _level(seat), seat.name, placed[seat.seat].rank,
                      placed[seat.seat].points, placed[seat.seat].won,
                      placed[seat.seat].opening, finished_at)
            for seat in seats]


async def load_record(storage: GameReads, game: GameRow) -> Any:
    seats = await storage.seats(game.id)
    return record_from_rows(game, seats, await storage.actions(game.id))


# ------------------------------------------------------------------ keeping caches up to date
_locks: weakref.WeakKeyDictionary[Any, asyncio.Lock] = weakref.WeakKeyDictionary()


def _lock(storage: HistoryStore) -> asyncio.Lock:
    lock = _locks.get(storage)
    if lock is None:
        lock = _locks[storage] = asyncio.Lock()
    return lock


async def _inline(fn: Callable[..., Any], *args: Any) -> Any:
    return await asyncio.to_thread(fn, *args)


#: each rated person's rating before and after one game
Changes = dict[int, tuple[R.Skill, R.Skill]]


async def sync(storage: HistoryStore, run: Runner | None = None) -> list[int]:
    """Derive the results of every finished game not summarised yet and update the
    ratings of their servers. ``run(fn, *args)`` runs the CPU work (default: a thread;
    the bot passes its worker pool). Returns the newly summarised game ids."""
    return list(await _sync(storage, run, {}))


async def _sync(storage: HistoryStore, run: Runner | None, changes: dict[int, Changes]
                ) -> list[int]:
    """:func:`sync`; ``changes`` receives, per game rated now, its rating changes as
    that game's own update made them."""
    run = run or _inline
    async with _lock(storage):
        games = await storage.games_without_results()
        for game in games:
            seats = await storage.seats(game.id)
            record = record_from_rows(game, seats, await storage.actions(game.id))
            finished_at = await storage.finished_at(game.id) or ""
            rows = await run(result_rows, game, seats, record, finished_at)
            await storage.save_results(rows)
        for guild in sorted({guild_key(g.guild_id) for g in games}):
            changes.update(await _update_ratings(storage, guild))
    return [g.id for g in games]


def rated_seat(r: ResultRow) -> R.RatedSeat:
    """A result row as ratings see it: a person who left is marked so, with the level of
    the computer that finished their seat (module doc)."""
    return R.RatedSeat(r.user_id, r.ai_level, r.rank, left=left_row(r))


def rated_games(rows: list[ResultRow]) -> list[R.RatedGame]:
    """The games of ``rows`` (one server's results) that count for ratings (at least two
    people took part), in order."""
    by_game: dict[int, list[ResultRow]] = {}
    for r in rows:
        by_game.setdefault(r.game_id, []).append(r)
    games = [R.RatedGame(gid, seats[0].finished_at,
                         tuple(rated_seat(s) for s in sorted(seats, key=lambda x: x.seat)))
             for gid, seats in by_game.items()]
    return sorted((g for g in games if g.counts), key=lambda g: g.key)


async def _update_ratings(storage: HistoryStore, guild: int) -> dict[int, Changes]:
    """Apply the server's not-yet-rated games: one at a time when they all come after
    the rated ones (the normal case), else recompute the server from scratch. Returns
    each game's rating changes as its own update made them."""
    games = rated_games(await storage.results(guild))
    done = await storage.rated_games(guild)
    done_ids = {gid for _, gid in done}
    pending = [g for g in games if g.game_id not in done_ids]
    if not pending:
        return {}
    if not done or pending[0].key > max(done):
        table = {u: R.Skill(r.mu, r.sigma, r.games)
                 for u, r in (await storage.ratings(guild)).items()}
        changes = R.replay(table, pending)
        changed = {u for c in changes.values() for u in c}
        await storage.store_ratings(guild, _rows(guild, {u: table[u] for u in changed}),
                                    [(g.game_id, g.finished_at) for g in pending],
                                    replace=False)
        return changes
    table = {}
    changes = R.replay(table, games)
    await storage.store_ratings(guild, _rows(guild, table),
                                [(g.game_id, g.finished_at) for g in games], replace=True)
    return {g.game_id: changes[g.game_id] for g in pending}


def _rows(guild: int, table: dict[int, R.Skill]) -> list[RatingRow]:
    return [RatingRow(guild, u, s.mu, s.sigma, s.games) for u, s in sorted(table.items())]


async def rebuild(storage: HistoryStore, run: Runner | None = None) -> None:
    """Drop the derived tables and derive them again from the action logs."""
    async with _lock(storage):
        await storage.clear_history()
    await sync(storage, run)


async def ratings(storage: HistoryStore, guild_id: int | None) -> dict[int, R.Skill]:
    """The server's ratings, brought up to date first."""
    await sync(storage)
    rows = await storage.ratings(guild_key(guild_id))
    return {u: R.Skill(r.mu, r.sigma, r.games) for u, r in rows.items()}


async def record_finished(storage: HistoryStore, game_id: int, run: Runner | None = None
                          ) -> Changes:
    """Call when a game has finished: derive its result and update the ratings.
    Returns each rated person's rating before and after this game's own update (empty
    if the game does not count: fewer than two people took part).

    The numbers come from the update itself, never from reading the ratings table
    around it: another caller may have rated the game (or later games) in between. If
    this call did not rate it, they are derived again by applying the server's games in
    game order up to this one (:func:`bot.history.ratings.changes_in`), which gives the same."""
    game = await storage.game(game_id)
    if game is None or game.status != FINISHED:
        return {}
    made: dict[int, Changes] = {}
    await _sync(storage, run, made)
    if game_id in made:
        return made[game_id]
    games = rated_games(await storage.results(guild_key(game.guild_id)))
    if not any(g.game_id == game_id for g in games):
        return {}
    return await (run or _inline)(R.changes_in, games, game_id)


# ------------------------------------------------------------------ questions
@dataclass(frozen=True)
class PastGame:
    game_id: int
    finished_at: str
    channel_id: int
    seats: tuple[ResultRow, ...]

    @property
    def winners(self) -> list[ResultRow]:
        return [s for s in self.seats if s.won]


async def listing(storage: HistoryStore, guild_id: int | None, channel_id: int | None,
                  *, page: int = 1, per_page: int = 10) -> tuple[list[PastGame], bool]:
    """Finished games of a channel (or, with ``channel_id`` None, the server), newest
    first; and whether there are more after this page."""
    await sync(storage)
    guild = guild_key(guild_id)
    offset = (max(1, page) - 1) * per_page
    ids = await storage.result_game_ids(guild, channel_id, per_page + 1, offset)
    more = len(ids) > per_page
    ids = ids[:per_page]
    rows = await storage.results(guild, game_ids=ids)
    by_game: dict[int, list[ResultRow]] = {}
    for r in rows:
        by_game.setdefault(r.game_id, []).append(r)
    games = [PastGame(g, by_game[g][0].finished_at, by_game[g][0].channel_id,
                      tuple(sorted(by_game[g], key=lambda r: r.seat)))
             for g in ids if g in by_game]
    return games, more


@dataclass(frozen=True)
class PlayerStats:
    user_id: int
    name: str
    games: int
    wins: int
    average_vp: float
    #: the most frequent opening and in how many games (ties: the most recent one)
    opening: str
    opening_games: int
    skill: R.Skill | None


async def stats(storage: HistoryStore, guild_id: int | None, user_id: int) -> PlayerStats | None:
    """A person's statistics on a server, or None if they have no finished game there
    (games they left before the end are not theirs: module doc)."""
    await sync(storage)
    guild = guild_key(guild_id)
    mine = [r for r in await storage.results(guild, user_id=user_id)
            if r.user_id == user_id and stayed(r)]
    if not mine:
        return None
    counts = Counter(r.opening for r in mine)
    last_seen = {r.opening: i for i, r in enumerate(mine)}
    opening = max(counts, key=lambda o: (counts[o], last_seen[o]))
    row = (await storage.ratings(guild)).get(user_id)
    skill = R.Skill(row.mu, row.sigma, row.games) if row else None
    return PlayerStats(user_id, mine[-1].name, len(mine), sum(r.won for r in mine),
                       sum(r.vp for r in mine) / len(mine), opening, counts[opening], skill)


@dataclass(frozen=True)
class Standing:
    user_id: int
    name: str
    skill: R.Skill
    games: int
    wins: int


async def leaderboard(storage: HistoryStore, guild_id: int | None, limit: int = 10
                      ) -> list[Standing]:
    """The server's rated people, best first by the conservative rating."""
    await sync(storage)
    guild = guild_key(guild_id)
    rows = await storage.results(guild)
    names: dict[int, str] = {}
    games: Counter[int] = Counter()
    wins: Counter[int] = Counter()
    for r in rows:
        if r.user_id is not None:
            names[r.user_id] = r.name  # also of a person rated only on games they left
        if r.user_id is not None and stayed(r):
            games[r.user_id] += 1
            wins[r.user_id] += r.won
    table = await storage.ratings(guild)
    ranked = sorted(table.values(), key=lambda r: (-(r.mu - 3 * r.sigma), -r.mu, r.user_id))
    return [Standing(r.user_id, names.get(r.user_id, str(r.user_id)),
                     R.Skill(r.mu, r.sigma, r.games), games[r.user_id], wins[r.user_id])
            for r in ranked[:limit]]


# ------------------------------------------------------------------ one past game
class GameLookupError(Exception):
    """A game number that cannot be shown here; ``key`` and ``kwargs`` are a message."""

    def __init__(self, key: str, **kwargs: Any) -> None:
        super().__init__(key)
        self.key = key
        self.kwargs = kwargs


def parse_game_number(text: str) -> int:
    """``#12``, ``12`` or ``game 12`` -> 12; GameLookupError otherwise."""
    digits = text.strip().lstrip("#").strip()
    if digits.lower().startswith("game"):
        digits = digits[4:].strip().lstrip("#")
    if not digits.isdigit() or len(digits) > 12:
        raise GameLookupError("error.bad_game", text=text[:20])
    return int(digits)


async def game_on_server(storage: GameReads, guild_id: int | None, game_id: int,
                         *, finished: bool = True, lobby: bool = False) -> GameRow:
    """The game, if it belongs to this server (and, with ``finished``, has ended; a lobby
    only with ``lobby``)."""
    game = await storage.game(game_id)
    if game is None or guild_key(game.guild_id) != guild_key(guild_id):
        raise GameLookupError("error.unknown_game", game=game_id)
    if game.status == CANCELLED:
        raise GameLookupError("error.cancelled_game", game=game_id)
    if game.status == LOBBY and not lobby:
        # what is wrong (not started) and what would be right (join, start)
        raise GameLookupError("help.lobby", game=game_id)
    if finished and game.status == ACTIVE:
        raise GameLookupError("error.not_finished", game=game_id)
    return game
