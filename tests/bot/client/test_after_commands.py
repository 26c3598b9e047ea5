"""After the game, through the table service and storage (no Discord): the last game stays
viewable, board at the end of an era, show, record, history, stats, replay, rematch, the
final result post; nothing secret in any of it."""

from __future__ import annotations

import asyncio
import io
import json
import random
import re

import pytest
from PIL import Image

from bot.client.commands.answers import (
    Asker,
    board_answer,
    game_choices,
    history_answer,
    leaderboard_answer,
    moment_choices,
    no_game_help,
    opening_text,
    record_answer,
    replay_answer,
    show_answer,
    stats_answer,
    status_answer,
)
from bot.history import ledger as hist
from bot.history.ratings import Skill
from bot.store import CANCELLED
from bot.store.sqlite import SqliteStorage
from bot.table.rematch import INVITED, REMATCH, REMATCH_OF
from bot.table.service import TableError, TableService
from engine import view
from engine.content import CONTENT
from engine.record import Record, replay
from engine.score_breakdown import breakdown
from engine.timeline import era_end, snapshots
from games.tempus import result_post as results
from games.tempus.labels import card_name
from lang import i18n
from lang.i18n import using
from lang.messages import t
from render.board import render_board
from tests.bot.helpers import CollectSink
from tests.bot.history.test_history import GUILD, OTHER_GUILD, store_game
from tests.engine.helpers import make_state

PNG = b"\x89PNG\r\n\x1a\n"
ANN, BOB, CY, EVE = 100, 101, 102, 999


async def _setup(people=(ANN, BOB, None), seed: int = 5):
    store = await SqliteStorage.open(":memory:")
    g = await store_game(store, list(people), seed)
    svc = TableService(store, CollectSink(), ai_delay=0, seed_source=lambda: 7)
    return svc, g


async def _close(svc: TableService) -> None:
    await svc.close()
    await svc.storage.close()


def _secret_names(record: Record) -> set[str]:
    """Names of the cards in the final hands: they must never be shown."""
    state = replay(record)
    return {card_name(c) for p in state.players for c in p.hand}


@pytest.mark.asyncio
async def test_after_the_end_board_status_and_record_show_the_last_game() -> None:
    svc, g = await _setup()
    asker = Asker(ANN, GUILD, 10)
    with pytest.raises(TableError, match="no Tempus game"):
        await svc.tables.channel_game_id(10)  # playing commands: still no game here
    assert await svc.tables.last_game_in_channel(10) == g
    b = await board_answer(svc, asker)
    assert b.files and b.files[0].data.startswith(PNG)
    assert t("status.phase.over") in b.text and "🏆" in b.text
    s = await status_answer(svc, asker)
    assert f"game #{g}" in s.text and "🏆" in s.text
    r = await record_answer(svc, asker)
    assert json.loads(r.files[0].data) == await svc.record(g)
    assert r.files[0].description == t("file.record")
    # a new lobby does not hide it; a started game does
    o = await svc.lobby.create(GUILD, 10, ANN, "Ann", seats=3)
    assert await svc.tables.last_game_in_channel(10) == g
    await svc.join(o.game_id, BOB, "Bob")
    await svc.join(o.game_id, CY, "Cy")
    await svc.start(o.game_id, ANN)
    assert await svc.tables.last_game_in_channel(10) == o.game_id
    running = await record_answer(svc, asker)  # the record would show the cards
    assert [f.filename for f in running.files] == [f"tempus-game-{o.game_id}-log.txt"]
    assert "tempus-record" not in running.files[0].data.decode()
    b2 = await board_answer(svc, asker)
    assert f"game #{o.game_id}" in b2.text
    assert (await record_answer(svc, asker, f"#{g}")).files  # the old one by number
    await _close(svc)


@pytest.mark.asyncio
async def test_help_where_a_game_ended_says_where_its_result_is() -> None:
    """``/tempus help`` in a finished game's channel (or thread) points to its result and
    its last position, not "there is no game"; where no game was ever played, how to open
    one; in Polish too."""
    svc, g = await _setup()
    text = await no_game_help(svc, 10)
    assert text == t("help.finished", game=g) and f"#{g}" in text
    assert text != t("help.no_game")
    assert await no_game_help(svc, 11) == t("help.no_game")
    assert await no_game_help(svc, None) == t("help.no_game")
    with using("pl"):
        assert "się zakończyła" in await no_game_help(svc, 10)
    await _close(svc)


@pytest.mark.asyncio
async def test_board_at_the_end_of_an_era_replays_the_stored_log() -> None:
    svc, g = await _setup()
    asker = Asker(BOB, GUILD, 99)  # another channel of the same server
    a = await board_answer(svc, asker, f"#{g}", "round-5")
    # one round named throughout: the end of round 5, never "round 6 of 10" after it
    assert t("status.head.ended", game=g, round=5, rounds=10) in a.text
    assert "round 6" not in a.text and "Waiting for" not in a.text
    # "era-5", the first spelling, and Polish "runda-5" stay aliases of "round-5"
    for alias in ("era-5", "runda 5", "5"):
        assert (await board_answer(svc, asker, f"#{g}", alias)).files[0].data == \
            a.files[0].data
    record = Record.from_json(await svc.record(g))
    shot = era_end(snapshots(record), 5)
    # the image says "end of round 5" as the message does (not the next round's turn 1)
    assert shot is not None and a.files[0].data == render_board({**shot.view,
                                                                  "ended_round": 5})
    assert a.files[0].data != render_board(shot.view)
    assert t("board.at_start", game=g) in (await board_answer(svc, asker, f"#{g}",
                                                              "start")).text
    assert (await board_answer(svc, asker, str(g), "era 10")).files
    for bad in ("round-11", "era-0", "banana", "roundabout"):
        with pytest.raises(TableError, match="like `round-5`"):
            await board_answer(svc, asker, f"#{g}", bad)
    # a running game: only the eras that have ended
    live = await store_game(svc.storage, [ANN, BOB, CY], 8, channel=11, stop_after=120)
    with pytest.raises(TableError, match="has not finished round 9"):
        await board_answer(svc, asker, f"#{live}", "era-9")
    assert [v for _, v in moment_choices("")][:3] == ["start", "round-1", "round-2"]
    assert [v for _, v in moment_choices("end")] == ["end"]
    assert [v for _, v in moment_choices("era-1")] == ["round-1", "round-10"]
    assert t("board.at_choice", era=5).startswith("round-5")
    await _close(svc)


def _png_size(data: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(data)).size


@pytest.mark.asyncio
async def test_board_full_and_the_turn_controls_in_private() -> None:
    """``full`` shows the whole board (the default shows the land); the
    board of a running game comes with the turn message's controls, so the game can go on
    when its thread cannot be reached; a finished one has none."""
    svc, g = await _setup()
    asker = Asker(ANN, GUILD, 10)
    land = await board_answer(svc, asker, f"#{g}")
    whole = await board_answer(svc, asker, f"#{g}", full=True)
    (lw, lh), (ww, wh) = _png_size(land.files[0].data), _png_size(whole.files[0].data)
    assert lh > lw and ww > lw, "the whole board is wider than the land alone"
    assert land.panel is None, "a finished game has no controls"
    assert land.files[0].description and land.files[0].description != t("file.board")
    era = await board_answer(svc, asker, f"#{g}", "era-3", full=True)
    assert _png_size(era.files[0].data) == (ww, wh)
    live = await store_game(svc.storage, [ANN, BOB, CY], 8, channel=11, stop_after=40)
    b = await board_answer(svc, Asker(BOB, GUILD, 11))
    assert b.panel is not None and b.panel.rows
    game, version = b.game_version
    table = await svc.tables.get(live)
    assert game == live and version == table.version
    # for screen readers: the position in words, hex by hex, with the same controls; from
    # the public view only (no card in any hand is named)
    words = await board_answer(svc, Asker(BOB, GUILD, 11), text=True)
    assert words.panel is not None and words.game_version == b.game_version
    body = words.text if not words.files else words.files[0].data.decode()
    assert not words.files or words.files[0].filename == "position.txt"
    assert len(words.text) <= 2000
    from engine.views import view as public_view
    from games.tempus.images import position_lines
    lines = position_lines(public_view(table.state, None))
    assert lines and all(line in body for line in lines)
    hidden = {card_name(c) for p in table.state.players for c in p.hand}
    assert hidden and not any(name in body for name in hidden), "no hidden card named"
    await _close(svc)


@pytest.mark.asyncio
async def test_refusals_name_the_problem() -> None:
    svc, g = await _setup()
    other = await store_game(svc.storage, [ANN, BOB, CY], 9, guild=OTHER_GUILD, channel=30)
    asker = Asker(ANN, GUILD, 10)
    with pytest.raises(TableError, match="no game #424242"):
        await show_answer(svc, asker, "#424242")
    with pytest.raises(TableError, match=f"no game #{other}"):
        await show_answer(svc, asker, f"#{other}")  # another server's game
    with pytest.raises(TableError, match="like `#12`"):
        await show_answer(svc, asker, "last week")
    cancelled = await store_game(svc.storage, [ANN, BOB, CY], 10, channel=12, stop_after=50)
    game = await svc.storage.game(cancelled)
    assert game is not None
    await svc.storage.set_status(cancelled, game.version, CANCELLED)
    with pytest.raises(TableError, match="was cancelled"):
        await show_answer(svc, asker, f"#{cancelled}")
    running = await store_game(svc.storage, [ANN, BOB, CY], 11, channel=13, stop_after=50)
    with pytest.raises(TableError, match="not ended"):
        await show_answer(svc, asker, f"#{running}")
    with pytest.raises(TableError, match="no Tempus game"):
        await status_answer(svc, Asker(ANN, GUILD, 77))
    # before the start, status shows the lobby (who sits, the options: R-OPT) and the
    # other looks say it has not started and how to start it
    lobby = await svc.lobby.create(GUILD, 78, ANN, "Ann", seats=3)
    status = (await status_answer(svc, Asker(ANN, GUILD, 78))).text
    assert t("lobby.seat", n=1, name="Ann") in status and t("lobby.opt1.off") in status
    assert t("lobby.hint", min=3) in status
    for look in (show_answer(svc, Asker(ANN, GUILD, 78), f"#{lobby.game_id}"),
                 board_answer(svc, Asker(ANN, GUILD, 78))):
        with pytest.raises(TableError, match=f"#{lobby.game_id} has not started yet"):
            await look
    await _close(svc)


@pytest.mark.asyncio
async def test_show_history_stats_leaderboard_and_replay() -> None:
    svc, g = await _setup()
    asker = Asker(ANN, GUILD, 10)
    record = Record.from_json(await svc.record(g))
    secrets = _secret_names(record)
    show = await show_answer(svc, asker, f"#{g}")
    b = breakdown(view(replay(record), None))
    assert t("result.title", game=g) in show.text
    for seat in b.order:
        assert f"**{b.scores[seat].total} VP**" in show.text
    assert [f.filename for f in show.files] == [f"tempus-game-{g}-chart.png",
                                                 f"tempus-game-{g}-board.png"]
    hist_text = (await history_answer(svc, asker)).text
    assert f"#{g} ·" in hist_text and "P100" in hist_text and "<t:" in hist_text
    assert t("history.empty.channel") == (await history_answer(
        svc, Asker(ANN, GUILD, 55))).text
    assert f"#{g} ·" in (await history_answer(svc, Asker(ANN, GUILD, 55), "server")).text
    stats = (await stats_answer(svc, asker)).text
    assert "P100" in stats and t("leaderboard.title") in stats and "give or take" in stats
    assert t("stats.none", name="Eve") in (await stats_answer(svc, asker, EVE, "Eve")).text
    lb = (await leaderboard_answer(svc, asker)).text
    assert "P100" in lb and "P101" in lb and "Computer" not in lb
    # plain words and the reader's numbers: a rating with a Polish decimal comma, no "mu"
    assert re.search(r"rating -?\d+\.\d \(1 game, [01] wins?\)", lb), lb
    with using("pl"):
        lb_pl = (await leaderboard_answer(svc, asker)).text
        stats_pl = (await stats_answer(svc, asker, with_leaderboard=False)).text
    assert re.search(r": -?\d+,\d pkt \(1 gra, [01] zwycięstw", lb_pl), lb_pl
    assert not re.search(r"\d\.\d", lb_pl + stats_pl), lb_pl + stats_pl
    assert "Punkty rankingowe" in stats_pl and "Ranking tego serwera" in lb_pl
    rep = await replay_answer(svc, await svc.storage.game(g))  # type: ignore[arg-type]
    gif = Image.open(io.BytesIO(rep.files[0].data))
    assert gif.format == "GIF" and gif.n_frames > 40 and len(rep.files[0].data) < 8_000_000
    # a picture per action round ("turn N" of a round, as status counts), not one per
    # player's turn
    assert "after each turn of each round" in rep.text and "per turn" not in rep.text
    choices = await game_choices(svc, asker, "")
    assert choices and choices[0][1] == f"#{g}"
    for text in (show.text, hist_text, stats, lb, (await status_answer(svc, asker)).text):
        assert not any(name in text for name in secrets), "a card of a hand was shown"
        assert len(text) <= 2000
    await _close(svc)


@pytest.mark.asyncio
async def test_history_typed_in_the_games_thread_lists_its_channels_games() -> None:
    svc, g = await _setup()  # played in channel 10
    await svc.storage.set_thread(g, 555)
    other = await store_game(svc.storage, [ANN, BOB, None], 8, channel=20)  # type: ignore
    in_thread = await history_answer(svc, Asker(ANN, GUILD, 555))
    in_channel = await history_answer(svc, Asker(ANN, GUILD, 10))
    assert f"#{g} ·" in in_thread.text and f"#{other} ·" not in in_thread.text
    assert in_thread.text == in_channel.text
    assert [v for _, v in await game_choices(svc, Asker(ANN, GUILD, 555), "")][0] == f"#{g}"
    await _close(svc)


def test_opening_words() -> None:
    assert opening_text("grow-grow-move") == "Grow → Grow → Move"  # as the button says
    assert opening_text("") == t("opening.none")


@pytest.mark.asyncio
async def test_rematch_reopens_the_table_with_the_same_people() -> None:
    svc, g = await _setup(people=(ANN, BOB, CY, None))
    game = await svc.storage.game(g)
    assert game is not None
    with pytest.raises(TableError, match="Only the people who played"):
        await svc.clicks.use(g, game.version, EVE, "Eve", REMATCH, "")
    reply = await svc.clicks.use(g, game.version, BOB, "Bob", REMATCH, "")
    new = reply.outcome.game_id  # type: ignore[union-attr]
    assert t("rematch.created", old=g, game=new, invited="P100, P102") == reply.text
    table = await svc.tables.get(new)
    assert table.game.status == "lobby" and table.game.host_id == BOB
    assert table.game.options[REMATCH_OF] == g
    assert table.game.options["max_seats"] == 4 and table.game.options["random_map"]
    assert [s.user_id for s in table.seats] == [BOB, None]
    assert [s.ai_level for s in table.seats] == [None, "normal"]
    assert [u for u, _ in table.game.options[INVITED]] == [ANN, CY]
    panel = svc.outcomes.lobby_panel(table).text
    assert t("lobby.invited", n=3, name="P100") in panel
    with pytest.raises(TableError, match="kept for the players of the rematch"):
        await svc.join(new, EVE, "Eve")
    await svc.join(new, ANN, "Ann")
    reply = await svc.clicks.use(g, game.version, CY, "Cy", REMATCH, "")  # the button again: joins
    assert reply.text == t("rematch.joined", game=new)
    assert [s.user_id for s in (await svc.tables.get(new)).seats] == [BOB, None, ANN, CY]
    await svc.start(new, BOB)
    with pytest.raises(TableError, match=f"already has game #{new}"):
        await svc.clicks.use(g, game.version, ANN, "Ann", REMATCH, "")
    with pytest.raises(TableError, match="has not ended"):
        await svc.clicks.use(new, 0, ANN, "Ann", REMATCH, "")
    await _close(svc)


@pytest.mark.asyncio
async def test_status_after_a_rematch_shows_its_lobby_and_where_the_result_is() -> None:
    """Once a rematch's lobby is open in the channel, ``/tempus status`` there shows that
    lobby (the finished game is no longer what the channel is about) and says where the
    finished game's result is; board and record still show the finished game (they cannot
    show a lobby), and status in the old game's thread still shows that game."""
    svc, g = await _setup(people=(ANN, BOB, CY))
    game = await svc.storage.game(g)
    assert game is not None
    await svc.storage.set_thread(g, 55)
    asker = Asker(ANN, GUILD, 10)
    assert "🏆" in (await status_answer(svc, asker)).text
    reply = await svc.clicks.use(g, game.version, BOB, "Bob", REMATCH, "")
    new = reply.outcome.game_id  # type: ignore[union-attr]
    status = (await status_answer(svc, asker)).text
    assert status.startswith(svc.outcomes.lobby_panel(await svc.tables.get(new)).text)
    assert status.endswith("\n" + t("status.previous_game", game=g))
    assert f"/tempus-records show game:#{g}" in status and "🏆" not in status
    with using("pl"):
        assert t("status.previous_game", game=g) in (await status_answer(svc, asker)).text
    assert await svc.tables.last_game_in_channel(10) == g  # the other looks: unchanged
    assert f"game #{g}" in (await board_answer(svc, asker)).text
    assert (await record_answer(svc, asker)).files[0].filename == f"tempus-game-{g}.json"
    in_thread = (await status_answer(svc, Asker(ANN, GUILD, 55))).text
    assert f"game #{g}" in in_thread and "🏆" in in_thread
    # once the lobby is cancelled, status shows the finished game again
    await svc.lobby.cancel(new, BOB)
    assert "🏆" in (await status_answer(svc, asker)).text
    await _close(svc)


@pytest.mark.asyncio
async def test_rematch_keeps_every_lobby_option_and_mentions_the_invited() -> None:
    """Every option ``/tempus new`` took comes back: pace, R-OPT-1, hints, language, map,
    seats, computer levels, a game opened inside a thread, and any other lobby option;
    the lobby mentions (and so pings) the invited people."""
    store = await SqliteStorage.open(":memory:")
    g = await store_game(store, [ANN, "hard", BOB, "easy"], 5, channel=77)
    game = await store.game(g)
    assert game is not None
    lobby = {"pace": "live", "protection_counts_cities": True, "hints": False,
             "locale": "pl", "random_map": False, "some_later_option": [1, 2]}
    await store.set_options(g, game.version, {**game.options, **lobby})
    await store.set_thread(g, 77)  # /tempus new typed inside a thread: played right there
    svc = TableService(store, CollectSink(), ai_delay=0, seed_source=lambda: 7)
    game = await store.game(g)
    assert game is not None and game.options["rules_version"] and game.options["seed"]
    reply = await svc.clicks.use(g, game.version, BOB, "Bob", REMATCH, "")
    outcome = reply.outcome
    assert outcome is not None
    new = await store.game(outcome.game_id)
    assert new is not None
    kept = {k: v for k, v in game.options.items()
            if k not in ("seed", "start_player", "rules_version")}
    assert {k: new.options.get(k) for k in kept} == kept, "every lobby option survives"
    assert "seed" not in new.options and "rules_version" not in new.options  # a new game
    assert new.thread_id == 77 and new.channel_id == 77
    seats = await store.seats(new.id)
    assert [(s.user_id, s.ai_level) for s in seats] == [(BOB, None), (None, "hard"),
                                                        (None, "easy")]
    assert new.options["max_seats"] == 4
    # the lobby's line mentions the invited person, and its first post may ping them
    with i18n.using("pl"):  # the kept language
        line = t("rematch.invite", old=g, people=f"<@{ANN}>")
    assert line in outcome.panel.text  # type: ignore[union-attr]
    assert outcome.mention == [ANN]
    joined = await svc.join(new.id, ANN, "Ann")
    assert joined.mention == [] and f"<@{ANN}>" not in joined.panel.text  # type: ignore
    await _close(svc)


def _names(n: int) -> list[str]:
    return ["Ann", "Bob", "Cy", "Dee", "Eve"][:n]


def test_final_post_text_sources_and_files() -> None:
    from engine.simulate import play_game

    state, record = play_game(5, 17)
    names = _names(5)
    post = results.final_post(31, record.to_json(), names, seat_users=[1, 2, 3, 4, None],
                              rating_changes={1: (Skill(), Skill(27.5, 7.9, 1))})
    assert len(post.text) <= 2000 and len(post.channel_text) <= 2000
    b = breakdown(view(state, None))
    for seat in range(5):
        s = b.scores[seat]
        row = t("result.row", rank=b.ranks[seat],
                who=t("result.who", colour=CONTENT.colours[seat], name=names[seat]),
                vp=s.total, parts=results._parts(s))
        assert row in post.text
    # the rating the leaderboard shows (mu less three sigmas), not the bare skill estimate
    assert t("result.rating.change", name="Ann", before="0.0", after="3.8") in post.text
    with using("pl"):
        pl = results.final_post(31, record.to_json(), names, seat_users=[1, 2, 3, 4, None],
                                rating_changes={1: (Skill(), Skill(27.5, 7.9, 1))})
        assert t("result.rating.change", name="Ann", before="0,0", after="3,8") in pl.text
    assert "python -m" not in post.text  # no developer commands for players
    assert t("result.files") in post.text
    assert [f.filename for f in post.files] == ["tempus-game-31-chart.png",
                                                "tempus-game-31-board.png",
                                                "tempus-game-31.json"]
    assert post.files[2].description == t("file.record")
    # the final board's alt text: the winner and every score, from the public view
    alt = post.files[1].description
    assert results.winner_line(b, names) in alt and len(alt) <= 1024
    for seat in range(5):
        assert f"{CONTENT.colours[seat]} {b.scores[seat].total}" in alt
    assert not any(n in alt for n in _secret_names(record))
    assert json.loads(post.files[2].data) == record.to_json()
    assert post.panel is not None and post.panel.controls()[0].op == REMATCH
    assert "🏆" in post.channel_text and t("result.see_thread") in post.channel_text
    assert not any(n in post.text + post.channel_text for n in _secret_names(record))


def test_tie_break_lines_for_constructed_ties_r_end_3() -> None:
    names = _names(3)
    cards = make_state(tokens={"C3": (0, 1), "D5": (0, 1), "F3": (1, 1), "G5": (1, 1)},
                       hands={0: [0], 1: [1, 2]})
    b = breakdown(view(cards, None))
    lines = results.tie_break_lines(b, names)
    # the channel's short result names the tie-break that decided
    assert t("result.tie.short.cards", vp=2) in results.channel_lines(1, b, names)
    assert lines == [
        t("result.tie.intro", names="Red (Ann) and Blue (Bob)", vp=2),
        t("result.tie.cards", values="Red 1, Blue 2"),
        t("result.tie.winner", who="Blue (Bob)"),
    ]
    cities = make_state(tokens={"C3": (0, 1), "D5": (0, 1), "F3": (1, 1)},
                        cities={"J9": (0, 3), "C9": (1, 2), "E9": (1, 2)},
                        hands={0: [0], 1: [1]})
    b = breakdown(view(cities, None))
    lines = results.tie_break_lines(b, names)
    assert t("result.tie.short.cities", vp=5) in results.channel_lines(1, b, names)
    assert lines[1:] == [t("result.tie.cards", values="Red 1, Blue 1"),
                         t("result.tie.cities", values="Red 1, Blue 2"),
                         t("result.tie.winner", who="Blue (Bob)")]
    shared = make_state(tokens={"C3": (0, 1), "F3": (1, 1), "J3": (2, 1)})
    b = breakdown(view(shared, None))
    lines = results.tie_break_lines(b, names)
    assert lines[0] == t("result.tie.intro", names="Red (Ann) and Blue (Bob) and Yellow (Cy)",
                         vp=1)
    assert lines[-1] == t("result.tie.shared")
    assert t("result.tie.short.shared", vp=1) in results.channel_lines(1, b, names)
    assert results.winner_line(b, names) == t(
        "result.shared", names="Red (Ann) and Blue (Bob) and Yellow (Cy)", vp=1)
    alone = make_state(tokens={"C3": (0, 2), "D5": (0, 1), "F3": (1, 1)})
    b = breakdown(view(alone, None))
    assert results.tie_break_lines(b, names) == []
    assert len(results.channel_lines(1, b, names)) == 3  # no tie line


@pytest.mark.asyncio
async def test_a_game_played_through_the_service_is_kept_rated_and_shown() -> None:
    """The real path: two people and a computer play to the end through the table
    service; the finished game is then summarised, rated and shown."""
    store = await SqliteStorage.open(":memory:")
    svc = TableService(store, CollectSink(), ai_delay=0, seed_source=lambda: 12)
    o = await svc.lobby.create(GUILD, 40, ANN, "Ann", seats=3)
    g = o.game_id
    await svc.join(g, BOB, "Bob")
    await svc.add_ai(g, ANN, "random")
    await svc.start(g, ANN)
    rng = random.Random(4)
    while True:
        await svc.idle()
        table = await svc.tables.get(g)
        if table.game.status != "active":
            break
        seat = rng.choice(sorted(s for s in table.since if not table.seats[s].is_ai))
        uid = table.seats[seat].user_id
        await svc.act(g, uid, rng.choice(await svc.play.legal(g, uid)), table.version)
    assert table.game.status == "finished"
    changes = await hist.record_finished(store, g)
    assert set(changes) == {ANN, BOB}
    assert all(before == Skill() and after.games == 1 for before, after in changes.values())
    from bot.runtime.worker_pool import Offloader

    post = await Offloader(0).run(results.final_post_job, g, await svc.record(g),
                                  [s.name for s in table.seats],
                                  [s.user_id for s in table.seats], changes)
    assert t("result.rating", changes="@").split("@")[0] in post.text
    # asking twice counts the game once, and says the same: this game's own change
    assert await hist.record_finished(store, g) == changes
    assert {u: (r.mu, r.games) for u, r in (await store.ratings(GUILD)).items()} == {
        u: (a.mu, 1) for u, (_, a) in changes.items()}
    assert (await hist.listing(store, GUILD, 40))[0][0].game_id == g
    assert f"game #{g}" in (await status_answer(svc, Asker(BOB, GUILD, 40))).text
    await _close(svc)


def test_the_tempus_group_fits_discord_limits() -> None:
    """Discord allows 25 subcommands in a group; discord.py refuses more at start-up."""
    from bot.client.commands.records import RecordsCog
    from bot.client.commands.tempus import TempusCog

    names = [c.name for c in TempusCog.__cog_app_commands__]
    records = [c.name for c in RecordsCog.__cog_app_commands__]
    assert len(names) <= 25 and len(records) <= 25
    assert {"board", "status", "history", "show", "stats"} <= set(names) | set(records)


class _Channel:
    """A channel of a stub client: records what is sent to it."""

    def __init__(self, cid: int, sent: list[tuple[int, str, list[str]]]) -> None:
        self.id, self.sent = cid, sent

    async def send(self, content: str, **kwargs: object) -> None:
        files = kwargs.get("files") or []
        self.sent.append((self.id, content, [f.filename for f in files]))  # type: ignore


class _Client:
    def __init__(self) -> None:
        self.sent: list[tuple[int, str, list[str]]] = []

    async def channel(self, cid: int) -> _Channel:
        return _Channel(cid, self.sent)


class _CountingOffloader:
    """Runs jobs in a thread, counting the result builds; the pause lets the thread's
    and the channel's post interleave as they do in the bot."""

    def __init__(self) -> None:
        self.builds = 0

    async def run(self, fn, *args, level: int = 0):  # type: ignore[no-untyped-def]
        if fn is results.final_post_job:
            self.builds += 1
        await asyncio.sleep(0.05)
        return await asyncio.to_thread(fn, *args)


@pytest.mark.asyncio
async def test_the_result_is_built_once_and_its_ratings_are_this_games_own() -> None:
    """Both posts of the end (thread and channel) run at once: one build, and the rating
    line shows this game's change, never "27.8 → 27.8" read after the other build stored
    the new ratings."""
    from bot.publish.final_post import post_final
    from bot.publish.publisher import DiscordPublisher
    from bot.table.model import Outcome

    async def two_games() -> tuple[SqliteStorage, int]:
        """A rated game, then one that has just ended (not summarised yet)."""
        store = await SqliteStorage.open(":memory:")
        await store_game(store, [ANN, BOB, None], 5, winner=ANN)
        assert await hist.sync(store) == [1]
        return store, await store_game(store, [ANN, BOB, None], 6, winner=BOB)

    twin, g = await two_games()
    expected = await hist.record_finished(twin, g)
    assert set(expected) == {ANN, BOB} and all(b != a for b, a in expected.values())
    await twin.close()
    store, g = await two_games()
    game = await store.game(g)
    assert game is not None
    client, off = _Client(), _CountingOffloader()
    pub = DiscordPublisher(client, store, off, period=0.01)  # type: ignore[arg-type]
    pub.channel = client.channel  # type: ignore[method-assign,assignment]
    seats = await store.seats(g)
    record = (await hist.load_record(store, game)).to_json()
    o = Outcome(g, 10, GUILD, game.version, "play", [], seats=seats, public_view={},
                record=record, finished=True)
    thread = 11
    post_final(o, thread, storage=store, offloader=off, outboxes=pub.outboxes,  # type: ignore[arg-type]
               channel=client.channel, keep=pub._keep)  # type: ignore[arg-type]
    await pub.drain()
    assert off.builds == 1, "one result build for both posts"
    posted = {cid: text for cid, text, _ in client.sent}
    assert set(posted) == {thread, 10}
    changes = ", ".join(t("result.rating.change", name=s.name, before=f"{b.ordinal:.1f}",
                          after=f"{a.ordinal:.1f}")
                        for s in seats if s.user_id is not None
                        for b, a in [expected[s.user_id]])
    assert t("result.rating", changes=changes) in posted[thread]
    await pub.close()
    await store.close()


@pytest.mark.asyncio
async def test_a_running_games_record_is_its_public_log_only() -> None:
    """``/tempus-records show what:record`` while the game runs: the lines the table saw,
    never the seed, the salt, a hand or a face-down card; the whole record (with the
    seed and salt the start post's commitment hides) once it has ended."""
    from engine.commitment import commitment
    from tests.bot.e2e import private_texts
    from tests.bot.store.test_storage_failures import next_move

    store = await SqliteStorage.open(":memory:")
    svc = TableService(store, CollectSink(), ai_delay=0)
    seed = 8_765_432_109_876_543
    g = (await svc.lobby.create(GUILD, 20, ANN, "Ann", seats=3, seed=seed)).game_id
    await svc.join(g, BOB, "Bob")
    await svc.join(g, CY, "Cy")
    await svc.start(g, ANN)
    rng = random.Random(3)
    record = await svc.record(g)
    while sum(len(v) for v in private_texts(record).values()) < 6:
        uid, action, version = await next_move(svc, g, rng)
        await svc.act(g, uid, action, version)
        record = await svc.record(g)
    game = await store.game(g)
    assert game is not None and game.seed_salt and game.seed_commitment
    assert game.seed_commitment == commitment(seed, game.seed_salt, record["options"][
        "rules_version"])
    answer = await record_answer(svc, Asker(EVE, GUILD, 20))
    log = answer.files[0].data.decode()
    assert answer.files[0].description == t("file.public_log")
    assert t("record.public_log", game=g, n=len(log.splitlines())) == answer.text
    assert game.seed_commitment in log, "the commitment is public"
    for secret in (str(seed), game.seed_salt, '"seed"', '"deck"', '"salt"'):
        assert secret not in log and secret not in answer.text, secret
    for texts in private_texts(record).values():
        for text in texts:
            assert text not in log, text
    assert any(t("lobby.seat_colour", colour=t("colour.0"), name="Ann") == line.split(
        ". ", 1)[1] for line in log.splitlines())
    await _close(svc)


def test_the_result_post_reveals_the_seed_and_salt_of_a_committed_game() -> None:
    """The result (thread post and ``/tempus-records show``) names the seed, the salt and
    the commitment with the verify command; a game started before commitments, none."""
    from engine.commitment import commitment
    from engine.simulate import play_game

    _, record = play_game(3, seed=44)
    names = ["A", "B", "C"]
    plain = results.final_post(5, record.to_json(), names, board=False)
    assert "verify" not in plain.text
    record.salt = "0f" * 16
    post = results.final_post(5, record.to_json(), names, board=False)
    digest = commitment(44, record.salt, record.rules_version)
    assert t("shuffle.reveal", seed=44, salt=record.salt, commitment=digest,
             game=5) in post.text
    attached = json.loads(post.file("tempus-game-5.json").data)  # type: ignore[union-attr]
    assert attached["salt"] == record.salt and attached["options"]["seed"] == 44
