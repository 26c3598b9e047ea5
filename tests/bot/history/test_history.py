"""Past games from the stored logs: results, statistics, ratings (bot/history/ledger.py,
bot/history/ratings.py) and the derived tables of storage migration SCHEMA_VERSION."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.history import ledger as hist
from bot.history import ratings as R
from bot.store import ACTIVE, CANCELLED, FINISHED
from bot.store.sqlite import SCHEMA_VERSION, SqliteStorage
from engine import actions as A
from engine.game import apply_in_place
from engine.rules import RULES_VERSION
from engine.score_breakdown import breakdown
from engine.setup import new_game
from engine.simulate import play_game
from engine.state import ACTIONS, OVER
from engine.views import view
from games.tempus.records import OPENING_KINDS

GUILD, OTHER_GUILD = 1, 2


def _single_winner_game(n: int, seed: int):
    while True:
        state, record = play_game(n, seed)
        if len(state.winners) == 1:
            return state, record
        seed += 1000


async def store_game(store: SqliteStorage, people: list[int | str | None], seed: int, *,
                     guild: int | None = GUILD, channel: int = 10,
                     winner: int | None = None, stop_after: int | None = None) -> int:
    """Play a random legal game and store it as the bot would: lobby, seats, start, one
    logged action at a time. ``people``: a user id per seat (None: a ``normal`` computer,
    a string: a computer of that level); ``winner``: that user gets the winning seat;
    ``stop_after``: leave it unfinished."""
    state, record = _single_winner_game(len(people), seed)
    seed = record.seed
    order = list(people)
    if winner is not None:
        w, i = state.winners[0], order.index(winner)
        order[i], order[w] = order[w], order[i]
    host = next(u for u in order if isinstance(u, int))
    g = await store.create_game(guild, channel, host, None,
                                {"max_seats": len(order), "random_map": True, "seed": seed})
    v = g.version
    for u in order:
        if isinstance(u, int):
            v = await store.add_seat(g.id, v, u, None, f"P{u}")
        else:
            level = u or "normal"
            v = await store.add_seat(g.id, v, None, level, f"Computer ({level})")
    live, _ = new_game(len(order), seed, random_map=True)
    v = await store.start(g.id, v, {"max_seats": len(order), "random_map": True, "seed": seed,
                                    "start_player": None, "rules_version": RULES_VERSION},
                          live.to_json())
    for i, (seat, action) in enumerate(record.moves):
        if stop_after is not None and i == stop_after:
            return g.id
        apply_in_place(live, seat, action)
        over = live.phase == OVER
        v = await store.append_action(g.id, v, i, seat, action.to_json(),
                                      live.to_json() if over else {}, FINISHED if over
                                      else ACTIVE)
    return g.id


async def _store() -> SqliteStorage:
    store = await SqliteStorage.open(":memory:")
    assert await store.schema_version() == SCHEMA_VERSION
    return store


@pytest.mark.asyncio
async def test_results_are_derived_from_the_log() -> None:
    store = await _store()
    g = await store_game(store, [100, 101, None], 5)
    assert await hist.sync(store) == [g]
    assert await hist.sync(store) == []  # once only
    rows = await store.results(GUILD)
    game = await store.game(g)
    assert game is not None
    record = await hist.load_record(store, game)
    state, _ = record.new_state()
    openings: list[list[str]] = [[], [], []]
    for seat, action in record.moves:
        if state.phase == ACTIONS and state.era_number == 1 and isinstance(
                action, A.BeginMove | A.BeginGrow | A.DrawCards | A.BuildCity | A.Attack):
            openings[seat].append(OPENING_KINDS[type(action)])
        apply_in_place(state, seat, action)
    b = breakdown(view(state, None))
    assert [r.vp for r in rows] == state.scores
    assert [r.seat for r in rows if r.won] == state.winners
    assert [r.rank for r in rows] == list(b.ranks)
    assert [r.opening for r in rows] == ["-".join(o) for o in openings]
    assert all(r.opening for r in rows)
    assert {r.finished_at for r in rows} == {await store.finished_at(g)}
    assert [r.user_id for r in rows] == [100, 101, None]
    assert rows[2].ai_level == "normal" and rows[0].ai_level is None
    await store.close()


@pytest.mark.asyncio
async def test_a_person_who_wins_every_game_ranks_first() -> None:
    store = await _store()
    lineups = [[1, 2, 3], [1, 2, 3, 4], [4, 1, None], [2, 3, 1, None, 4], [3, 1, 2],
               [1, 4, 2], [2, 1, 3, 4]]
    for k, people in enumerate(lineups):
        await store_game(store, people, 40 + k, winner=1)
    board = await hist.leaderboard(store, GUILD)
    assert board[0].user_id == 1
    assert board[0].wins == board[0].games == len(lineups)
    assert board[0].skill.mu > max(s.skill.mu for s in board[1:])
    st = await hist.stats(store, GUILD, 1)
    assert st is not None and st.wins == st.games == len(lineups)
    assert st.skill is not None and st.skill.games == len(lineups)
    assert st.skill.sigma < R.SIGMA  # more games, less uncertainty
    await store.close()


async def _ratings(store: SqliteStorage) -> dict[int, tuple[float, float, int]]:
    return {u: (r.mu, r.sigma, r.games) for u, r in (await store.ratings(GUILD)).items()}


@pytest.mark.asyncio
async def test_recomputation_from_scratch_equals_the_incremental_numbers() -> None:
    store = await _store()
    lineups = [[1, 2, 3], [2, 3, 4, None], [1, 3, None], [4, 1, 2, 3, None], [2, 4, 1],
               [3, None, None], [1, 2, 4], [2, 3, None]]
    left = {4: (4, "hard"), 7: (3, "easy")}  # game index: who left, who finished it
    for k, people in enumerate(lineups):
        g = await store_game(store, people, 70 + k)
        if k in left:
            await _leave(store, g, *left[k])
        await hist.sync(store)  # one game at a time, as when games finish
    rated = await store.rated_games(GUILD)
    # the game with one person does not count; the one with one person who stayed does
    # (for the one who left)
    assert len(rated) == 7
    incremental = await _ratings(store)
    scratch = R.recompute(hist.rated_games(await store.results(GUILD)))
    assert incremental == {u: (s.mu, s.sigma, s.games) for u, s in scratch.items()}
    await hist.rebuild(store)  # a rebuilt database gives the same numbers
    assert await _ratings(store) == incremental
    assert await store.rated_games(GUILD) == rated
    # a lost bookkeeping row of an early game: repaired by recomputing in game order
    await store._db.execute("DELETE FROM rated_games WHERE game_id = ?", (rated[0][1],))
    await hist.sync(store)
    assert await _ratings(store) == incremental
    await store.close()


@pytest.mark.asyncio
async def test_a_games_rating_changes_are_its_own_update() -> None:
    """The before/after of a game come from that game's update: the same whether its
    result post rated it or something else did first (and rated later games too)."""
    async def stored() -> tuple[SqliteStorage, list[int]]:
        store = await _store()
        ids = [await store_game(store, people, 120 + k) for k, people in
               enumerate([[1, 2, 3], [2, 1, None], [3, 1, 2]])]
        return store, ids

    store, (g1, g2, g3) = await stored()
    await hist.sync(store)
    await hist.sync(store)
    for g in (g1, g2, g3):  # rated already (e.g. by a /tempus stats meanwhile)
        game_changes = await hist.record_finished(store, g)
        assert set(game_changes) == {u for u in (1, 2, 3) if u != 3 or g != g2}
        assert all(b.mu != a.mu and a.games == b.games + 1 for b, a in game_changes.values())
    fresh, _ = await stored()
    own = [await hist.record_finished(fresh, g) for g in (g1, g2, g3)]  # one at a time
    assert own == [await hist.record_finished(store, g) for g in (g1, g2, g3)]
    r = await store.ratings(GUILD)
    assert {u: (a.mu, a.sigma, a.games) for u, (_, a) in own[2].items()} == {
        u: (r[u].mu, r[u].sigma, r[u].games) for u in own[2]}
    await store.close()
    await fresh.close()


@pytest.mark.asyncio
async def test_a_cancelled_or_abandoned_game_changes_nothing() -> None:
    store = await _store()
    await store_game(store, [1, 2, 3], 90)
    await store_game(store, [1, 2, None], 91, winner=2)
    assert len(await hist.sync(store)) == 2
    before = (await _ratings(store), await hist.listing(store, GUILD, None),
              await hist.stats(store, GUILD, 1), await hist.leaderboard(store, GUILD))
    g = await store_game(store, [1, 2, 3], 92, stop_after=200)
    game = await store.game(g)
    assert game is not None
    await store.set_status(g, game.version, CANCELLED)
    await store_game(store, [3, 2, 1], 93, stop_after=150)  # abandoned: never finished
    lobby = await store.create_game(GUILD, 12, 1, "P1", {"max_seats": 3})
    assert lobby.status == "lobby"
    assert await hist.sync(store) == []
    after = (await _ratings(store), await hist.listing(store, GUILD, None),
             await hist.stats(store, GUILD, 1), await hist.leaderboard(store, GUILD))
    assert after == before
    await store.close()


@pytest.mark.asyncio
async def test_a_game_both_people_left_rates_both_as_last() -> None:
    """Review 13's scenario through the table service: two people and a computer; both
    people leave in the first round and computers finish the game. Both are rated as
    finishing last (tied), whatever the computers scored for their seats; neither has the
    game in their statistics."""
    import asyncio

    from bot.table.service import TableService
    from tests.bot.helpers import CollectSink

    store = await _store()
    svc = TableService(store, CollectSink(), ai_delay=0, seed_source=lambda: 12)
    svc.clocks.leave_level = lambda: "random"  # type: ignore[method-assign]
    g = (await svc.lobby.create(GUILD, 40, 100, "Ann", seats=3)).game_id
    await svc.join(g, 101, "Bob")
    await svc.add_ai(g, 100, "random")
    await svc.start(g, 100)
    await svc.idle()
    await svc.seats.leave_game(g, 100)
    await svc.seats.leave_game(g, 101)
    for _ in range(600):
        await svc.idle()
        table = await svc.tables.get(g)
        if table.game.status != ACTIVE:
            break
        await asyncio.sleep(0.05)
    assert table.game.status == FINISHED
    assert [(s.user_id, s.left) for s in table.seats] == [(100, True), (101, True),
                                                          (None, False)]
    changes = await hist.record_finished(store, g)
    last = R.rate_game({}, R.RatedGame(g, "", (R.RatedSeat(100, None, 2),
                                                R.RatedSeat(101, None, 2),
                                                R.RatedSeat(None, "random", 1))))
    assert {u: after for u, (_, after) in changes.items()} == last
    assert all(after.mu < before.mu for before, after in changes.values())
    assert {s.user_id for s in await hist.leaderboard(store, GUILD)} == {100, 101}
    assert await hist.stats(store, GUILD, 100) is None
    rows = await store.results(GUILD)
    assert [(r.user_id, r.ai_level, r.name) for r in rows] == [
        (100, "random", "Ann"), (101, "random", "Bob"), (None, "random", rows[2].name)]
    games, _ = await hist.listing(store, GUILD, 40)
    assert [s.name for s in games[0].seats][:2] == ["Ann", "Bob"]  # still who sat there
    await svc.close()
    await store.close()


async def _leave(store: SqliteStorage, g: int, user: int, level: str) -> None:
    """``user`` left game ``g`` and a computer of ``level`` finished it (as stored by
    ``TableService.leave_game``)."""
    game = await store.game(g)
    assert game is not None
    seat = next(s.seat for s in await store.seats(g) if s.user_id == user)
    await store.leave_seat(g, game.version, seat, level)


@pytest.mark.asyncio
async def test_a_leaver_is_rated_as_finishing_last_and_the_others_as_before() -> None:
    """The one who left: the change of finishing last, whatever the computer scored for
    the seat; the two who stayed: rated against that seat as against a ``hard``
    computer at the place it finished."""
    store = await _store()
    g = await store_game(store, [1, 2, 3], 130, winner=3)  # the computer wins seat 3
    await _leave(store, g, 3, "hard")
    changes = await hist.record_finished(store, g)
    assert set(changes) == {1, 2, 3}
    rows = await store.results(GUILD)
    rated = hist.rated_games(rows)
    seats = rated[0].seats
    # the winning seat is wherever the game put it: compare the seats by who held them
    assert sorted((s.user_id, s.ai_level, s.left) for s in seats) == [
        (1, None, False), (2, None, False), (3, "hard", True)]
    assert next(s for s in seats if s.user_id == 3).rank == 1, "the computer won"
    # the leaver: exactly the change of finishing last among these three
    stayed = [s for s in seats if s.user_id != 3]
    place = {s.user_id: 1 + sum(o.rank < s.rank for o in stayed) for s in stayed}  # ties share
    place[3] = 3
    finishing_last = R.RatedGame(g, "", tuple(
        R.RatedSeat(s.user_id, None, place[s.user_id]) for s in seats))
    assert changes[3][1] == R.rate_game({}, finishing_last)[3]
    assert changes[3][1].mu < changes[3][0].mu
    # who stayed: as if seat 3 had been a hard computer all along
    as_before = R.RatedGame(g, "", tuple(
        R.RatedSeat(None, "hard", s.rank) if s.user_id == 3 else s for s in seats))
    assert {u: changes[u][1] for u in (1, 2)} == R.rate_game({}, as_before)
    assert await hist.stats(store, GUILD, 3) is None  # not in their statistics
    assert {s.user_id for s in await hist.leaderboard(store, GUILD)} == {1, 2, 3}
    # with only one person who stayed: the leaver is rated, the one who stayed is not
    g2 = await store_game(store, [1, 2, None], 131)
    await _leave(store, g2, 2, "easy")
    assert set(await hist.record_finished(store, g2)) == {2}
    assert len(await store.rated_games(GUILD)) == 2
    st = await hist.stats(store, GUILD, 1)
    assert st is not None and st.games == 2  # one person's game counts in stats
    await store.close()


@pytest.mark.asyncio
async def test_games_with_one_person_count_in_stats_but_not_in_ratings() -> None:
    store = await _store()
    await store_game(store, [7, None, None], 95, winner=7)
    st = await hist.stats(store, GUILD, 7)
    assert st is not None and st.games == 1 and st.wins == 1 and st.skill is None
    assert await hist.leaderboard(store, GUILD) == []
    await store_game(store, [7, 8, None], 96, winner=8)
    st = await hist.stats(store, GUILD, 7)
    assert st is not None and st.games == 2 and st.skill is not None and st.skill.games == 1
    await store.close()


@pytest.mark.asyncio
async def test_stats_numbers_and_favourite_opening() -> None:
    store = await _store()
    for k, people in enumerate([[5, 6, 7], [6, 5, None], [7, 6, 5, None]]):
        await store_game(store, people, 110 + k)
    st = await hist.stats(store, GUILD, 5)
    mine = [r for r in await store.results(GUILD) if r.user_id == 5]
    assert st is not None and st.games == 3 == len(mine)
    assert st.wins == sum(r.won for r in mine)
    assert st.average_vp == pytest.approx(sum(r.vp for r in mine) / 3)
    counts = Counter(r.opening for r in mine)
    assert st.opening_games == max(counts.values()) and counts[st.opening] == st.opening_games
    assert st.name == "P5"
    assert await hist.stats(store, GUILD, 999) is None
    assert await hist.stats(store, OTHER_GUILD, 5) is None  # per server
    await store.close()


@pytest.mark.asyncio
async def test_history_listing_by_channel_and_server() -> None:
    store = await _store()
    ids = {}
    for k, (guild, channel) in enumerate([(GUILD, 10), (GUILD, 11), (GUILD, 10),
                                          (OTHER_GUILD, 20)]):
        ids[k] = await store_game(store, [1, 2, 3], 130 + k, guild=guild, channel=channel)
    games, more = await hist.listing(store, GUILD, 10)
    assert [g.game_id for g in games] == [ids[2], ids[0]] and not more
    games, more = await hist.listing(store, GUILD, None)
    assert [g.game_id for g in games] == [ids[2], ids[1], ids[0]]
    page1, more1 = await hist.listing(store, GUILD, None, page=1, per_page=2)
    page2, more2 = await hist.listing(store, GUILD, None, page=2, per_page=2)
    assert more1 and not more2
    assert [g.game_id for g in page1 + page2] == [ids[2], ids[1], ids[0]]
    g = games[0]
    assert [s.name for s in g.seats] == ["P1", "P2", "P3"] and g.winners
    with pytest.raises(hist.GameLookupError):
        await hist.game_on_server(store, GUILD, ids[3])  # another server's game
    assert (await hist.game_on_server(store, OTHER_GUILD, ids[3])).id == ids[3]
    await store.close()


def test_parse_game_number() -> None:
    assert hist.parse_game_number("#12") == 12
    assert hist.parse_game_number(" 7 ") == 7
    assert hist.parse_game_number("game #3") == 3
    for bad in ("", "#", "twelve", "#1x", "-3"):
        with pytest.raises(hist.GameLookupError):
            hist.parse_game_number(bad)


def test_rating_model_rules() -> None:
    seats = (R.RatedSeat(1, None, 1), R.RatedSeat(2, None, 1), R.RatedSeat(None, "hard", 3))
    new = R.rate_game({}, R.RatedGame(1, "t1", seats))
    assert set(new) == {1, 2}  # the computer's strength never changes
    assert new[1] == new[2] and new[1].mu > R.MU  # a shared first place rates the same
    assert R.rate_game({}, R.RatedGame(2, "t2", (R.RatedSeat(1, None, 1),
                                                 R.RatedSeat(None, "easy", 2),
                                                 R.RatedSeat(None, "normal", 3)))) == {}
    # beating a hard computer is worth more than beating a random one
    vs_hard = R.rate_game({}, R.RatedGame(3, "t3", (R.RatedSeat(1, None, 1),
                                                    R.RatedSeat(2, None, 3),
                                                    R.RatedSeat(None, "hard", 2))))
    vs_random = R.rate_game({}, R.RatedGame(3, "t3", (R.RatedSeat(1, None, 1),
                                                      R.RatedSeat(2, None, 3),
                                                      R.RatedSeat(None, "random", 2))))
    assert vs_hard[1].mu > vs_random[1].mu
    # order matters and is fixed: finish time, then game id
    games = [R.RatedGame(9, "2026-01-02", seats), R.RatedGame(3, "2026-01-01", seats[:2] +
                                                             (R.RatedSeat(3, None, 2),))]
    assert R.recompute(games) == R.recompute(list(reversed(games)))


@pytest.mark.asyncio
async def test_a_seat_left_on_autopilot_by_missed_deadlines_is_a_leaver() -> None:
    """Missed deadlines put a computer on the seat (``timed_out``) and the person never
    took it back: rated as finishing last, like a leave. A seat a person put on autopilot
    themselves, or took back, is theirs."""
    store = await _store()
    g = await store_game(store, [1, 2, 3], 140, winner=3)
    game = await store.game(g)
    assert game is not None
    seat = next(s.seat for s in await store.seats(g) if s.user_id == 3)
    await store.set_autopilot(g, game.version, seat, "normal", timed_out=True)
    g2 = await store_game(store, [1, 2, 3], 141, winner=3)
    game2 = await store.game(g2)
    assert game2 is not None
    seat = next(s.seat for s in await store.seats(g2) if s.user_id == 3)
    v = await store.set_autopilot(g2, game2.version, seat, "normal", timed_out=True)
    await store.set_autopilot(g2, v, seat, None)  # taken back
    await hist.sync(store)
    rows = {(r.game_id, r.user_id): r for r in await store.results(GUILD)}
    assert hist.left_row(rows[(g, 3)]) and not hist.left_row(rows[(g2, 3)])
    assert rows[(g, 3)].ai_level == "normal"
    changes = await hist.record_finished(store, g)
    assert changes[3][1].mu < changes[3][0].mu, "won by the computer, rated as last"
    await store.close()


def test_leaving_never_beats_staying() -> None:
    """Whatever place the person would have finished in, staying is at least as good
    for their rating as leaving (rated last of all)."""
    table = {1: R.Skill(30.0, 4.0, 10), 2: R.Skill(20.0, 5.0, 3)}
    others = (R.RatedSeat(1, None, 1), R.RatedSeat(None, "hard", 2),
              R.RatedSeat(None, "random", 3))
    left = R.rate_game(table, R.RatedGame(1, "", (*others, R.RatedSeat(2, "hard", 1,
                                                                        left=True))))
    for place in (1, 2, 3, 4):
        seats = [R.RatedSeat(s.user_id, s.ai_level, s.rank + (s.rank >= place))
                 for s in others]
        stayed = R.rate_game(table, R.RatedGame(1, "", (*seats, R.RatedSeat(2, None,
                                                                             place))))
        assert stayed[2].mu >= left[2].mu - 1e-9
    assert left[2].mu == pytest.approx(R.rate_game(table, R.RatedGame(1, "", (
        *others, R.RatedSeat(2, None, 4))))[2].mu)
    assert 1 not in left, "the one who stayed, alone with computers, is not rated"
