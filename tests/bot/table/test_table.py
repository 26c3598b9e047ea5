"""The table service without Discord: lobby rules, turns, versions, computer players,
restarts, and what announcements may show."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from bot.store.sqlite import SqliteStorage
from bot.table.service import TableError, TableService
from engine import actions as A
from engine.game import PROGRESS_CARDS, decision_for
from engine.record import Record, replay
from games.controls import ADDBOT, CANCEL, CARDS, JOIN, LEAVE, MENU, START
from games.tempus import panels
from games.tempus.labels import card_name
from lang.messages import t
from tests.bot.helpers import CollectSink

HOST, BOB, CY, EVE = 100, 101, 102, 999


async def _service(path: str = ":memory:", **kw) -> tuple[TableService, CollectSink]:
    store = await SqliteStorage.open(path)
    sink = CollectSink()
    return TableService(store, sink, ai_delay=0, seed_source=lambda: 7, **kw), sink


async def _close(svc: TableService) -> None:
    await svc.close()
    await svc.storage.close()


async def _three(svc: TableService, *, seed: int = 7, bots: int = 0) -> int:
    o = await svc.lobby.create(1, 10, HOST, "Ann", seats=3, seed=seed)
    g = o.game_id
    for uid, name in ((BOB, "Bob"), (CY, "Cy"))[: 2 - bots]:
        await svc.join(g, uid, name)
    for _ in range(bots):
        await svc.add_ai(g, HOST, "random")
    await svc.start(g, HOST)
    return g


async def _play_randomly(svc: TableService, g: int, rng: random.Random,
                         stop=lambda table: False) -> None:
    """People choose random legal actions (through the service) until the game ends."""
    while True:
        await svc.idle()
        table = await svc.tables.get(g)
        if table.game.status != "active" or stop(table):
            return
        seat = rng.choice(sorted(s for s in table.since if not table.seats[s].is_ai))
        uid = table.seats[seat].user_id
        action = rng.choice(await svc.play.legal(g, uid))
        await svc.act(g, uid, action, table.version)


@pytest.mark.asyncio
async def test_lobby_rules() -> None:
    svc, sink = await _service()
    o = await svc.lobby.create(1, 10, HOST, "Ann", seats=3)
    g = o.game_id
    with pytest.raises(TableError, match="already has"):
        await svc.lobby.create(1, 10, BOB, "Bob")
    with pytest.raises(TableError, match="at least 3"):
        await svc.start(g, HOST)
    await svc.join(g, BOB, "Bob")
    with pytest.raises(TableError, match="not started yet.*table addbot"):
        await svc.seats.autopilot(g, BOB, None, True)  # not "Game #1 is not running."
    with pytest.raises(TableError, match="has not started yet, so nobody holds cards"):
        await svc.menu(g, BOB, "hand")  # seated: not told they are not playing
    with pytest.raises(TableError, match="not playing"):
        await svc.menu(g, EVE, "hand")
    with pytest.raises(TableError, match="already have a seat"):
        await svc.join(g, BOB, "Bob")
    with pytest.raises(TableError, match="Only the host"):
        await svc.start(g, BOB)
    with pytest.raises(TableError, match="cannot leave"):
        await svc.lobby.leave(g, HOST)
    await svc.add_ai(g, BOB, "random")
    with pytest.raises(TableError, match="full"):
        await svc.join(g, CY, "Cy")
    await svc.lobby.remove_ai(g, BOB)
    await svc.lobby.leave(g, BOB)
    with pytest.raises(TableError, match="not playing"):
        await svc.lobby.leave(g, BOB)
    with pytest.raises(TableError, match="host .* or someone"):
        await svc.lobby.cancel(g, EVE)
    await svc.lobby.cancel(g, EVE, can_manage=True)
    await svc.idle()
    assert sink.outcomes[-1].kind == "cancel"
    await svc.lobby.create(1, 10, BOB, "Bob")  # the channel is free again
    await _close(svc)


@pytest.mark.asyncio
async def test_a_full_lobby_offers_no_join_and_no_computer() -> None:
    """Every seat taken: Join and Add computer could only be refused, so the lobby shows
    neither (and says the host may start); a seat freed brings them back. Start shows only
    once enough people sit (R-SETUP-1: 3)."""
    svc, sink = await _service()
    g = (await svc.lobby.create(1, 10, HOST, "Ann", seats=4)).game_id

    def ops() -> set[str]:
        panel = sink.outcomes[-1].panel
        assert panel is not None
        return {c.op for c in panel.controls()}
    await svc.idle()
    # only the host, who may not leave (error.host_leave): no Leave either
    assert START not in ops() and LEAVE not in ops() and {JOIN, ADDBOT} <= ops()
    await svc.join(g, BOB, "Bob")
    await svc.add_ai(g, HOST, "easy")
    await svc.idle()
    assert {JOIN, ADDBOT, START, LEAVE} <= ops()
    await svc.add_ai(g, HOST, "easy")
    await svc.idle()
    assert JOIN not in ops() and ADDBOT not in ops() and {LEAVE, START, CANCEL} <= ops()
    panel = sink.outcomes[-1].panel
    assert panel is not None and t("lobby.hint_full") in panel.text
    await svc.lobby.leave(g, BOB)
    await svc.idle()
    assert {JOIN, ADDBOT} <= ops()
    await _close(svc)


@pytest.mark.asyncio
async def test_no_second_game_opens_in_the_thread_of_a_running_one() -> None:
    """``/tempus new`` typed in a game's thread would open a lobby there that the thread's
    commands then find instead of the game being played in it."""
    svc, _ = await _service()
    g = await _three(svc)
    thread = 555
    await svc.storage.set_thread(g, thread)
    await svc.moved(g, thread)
    with pytest.raises(TableError, match="already has"):
        await svc.lobby.create(1, thread, BOB, "Bob", in_thread=True)
    assert await svc.tables.channel_game_id(thread) == g
    await _close(svc)


@pytest.mark.asyncio
async def test_who_left_gets_no_choices_of_the_seat_a_computer_now_plays() -> None:
    """Autocomplete lists a seat's legal actions (its card plays name its cards): after a
    person leaves, a computer plays the seat and its hand is nobody's to see, so the
    leaver's suggestions are empty even while the seat still owes its decision."""
    svc, _ = await _service()
    g = await _three(svc)
    await svc.idle()
    table = await svc.tables.get(g)
    (seat,) = table.since
    uid = table.seats[seat].user_id
    assert await svc.play.legal(g, uid)
    await svc.seats.leave_game(g, uid)
    async with table.lock:  # the computer has not taken the seat's decision yet
        assert seat in table.since and table.seats[seat].left
        assert await svc.play.legal(g, uid) == []
    await _close(svc)


@pytest.mark.asyncio
async def test_r_info_1_who_left_is_told_nothing_of_the_cards_a_computer_draws_for_them(
        ) -> None:
    """After leaving, the seat's hand is nobody's (R-INFO-1): the cards the computer draws
    or discards for it are in no private line addressed to the seat (its person's DM)."""
    svc, sink = await _service()
    g = await _three(svc)
    rng = random.Random(5)
    await _play_randomly(svc, g, rng, stop=lambda table: table.version > 60)
    table = await svc.tables.get(g)
    seat = table.seat_of(BOB)
    await svc.seats.leave_game(g, BOB)
    mark = len(sink.outcomes)
    await _play_randomly(svc, g, rng)
    after = sink.outcomes[mark:]
    assert any(o.finished for o in after), "the game went on to its end"
    assert not [o.private_lines[seat] for o in after if o.private_lines.get(seat)]
    assert not [o for o in after if seat in o.hand_views or seat in o.secret_panels]
    await _close(svc)


@pytest.mark.asyncio
async def test_the_host_can_give_a_leaver_their_seat_back() -> None:
    """A leaver who types /tempus join is told to ask the host for /tempus table replace:
    the host can then give them their own seat back (not a second seat)."""
    svc, _ = await _service()
    g = await _three(svc)
    await svc.idle()
    await svc.seats.leave_game(g, BOB)
    await svc.idle()
    with pytest.raises(TableError, match="table replace"):
        await svc.join(g, BOB, "Bob")
    with pytest.raises(TableError, match="already has a seat"):
        await svc.seats.replace(g, HOST, CY, BOB, "Bob")  # the leaver takes no other seat
    back = await svc.seats.replace(g, HOST, BOB, BOB, "Bob")
    assert back.lines[0].startswith(f"<@{BOB}> is back and plays"), back.lines
    await svc.idle()
    table = await svc.tables.get(g)
    seat = table.seat_of(BOB)
    assert seat is not None and not table.seats[seat].left
    assert table.seats[seat].autopilot is None
    panel, _ = await svc.menu(g, BOB, "hand")  # the hand is theirs to see again
    assert panel.text
    await _close(svc)


@pytest.mark.asyncio
async def test_join_after_the_start_tells_a_seated_player_they_have_a_seat() -> None:
    svc, _ = await _service()
    g = await _three(svc)
    with pytest.raises(TableError, match="already have a seat"):
        await svc.join(g, BOB, "Bob")  # not "ask the host to replace" someone
    with pytest.raises(TableError, match="already started"):
        await svc.join(g, EVE, "Eve")
    await _close(svc)


@pytest.mark.asyncio
async def test_only_the_seated_player_acts_and_stale_choices_are_refused() -> None:
    svc, sink = await _service()
    g = await _three(svc)
    table = await svc.tables.get(g)
    seat = next(iter(table.since))
    uid = table.seats[seat].user_id
    other = next(s.user_id for s in table.seats if s.user_id != uid)
    action = (await svc.play.legal(g, uid))[0]
    with pytest.raises(TableError, match="not playing"):
        await svc.act(g, EVE, action)
    with pytest.raises(TableError, match="not your turn"):
        await svc.act(g, other, action)
    with pytest.raises(TableError, match="Not allowed"):
        await svc.act(g, uid, A.DrawCards())
    v = table.version
    await svc.act(g, uid, action, v)
    with pytest.raises(TableError, match="no longer current"):
        await svc.act(g, uid, (await svc.play.legal(g, uid))[0], v)
    await _close(svc)


@pytest.mark.asyncio
async def test_two_simultaneous_clicks_apply_exactly_one() -> None:
    svc, sink = await _service()
    g = await _three(svc)
    table = await svc.tables.get(g)
    seat = next(iter(table.since))
    uid = table.seats[seat].user_id
    acts = await svc.play.legal(g, uid)
    v = table.version
    results = await asyncio.gather(svc.act(g, uid, acts[0], v), svc.act(g, uid, acts[-1], v),
                                   return_exceptions=True)
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and "no longer current" in str(errors[0])
    assert len(table.moves) == 1 and table.version == v + 1
    await _close(svc)


@pytest.mark.asyncio
async def test_progress_choices_do_not_invalidate_each_other() -> None:
    """R-PROG-2: everyone chooses at once; a menu opened before another player's choice
    still works."""
    svc, sink = await _service()
    g = await _three(svc, seed=3)
    rng = random.Random(3)
    await _play_randomly(svc, g, rng, stop=lambda tb: any(
        (d := decision_for(tb.state, s)) and d.kind == PROGRESS_CARDS for s in tb.since)
        and len(tb.since) >= 2)
    table = await svc.tables.get(g)
    owing = sorted(table.since)
    assert len(owing) >= 2
    v = table.version
    menus = {s: await svc.menu(g, table.seats[s].user_id, "secret", v) for s in owing}
    for s in owing:
        panel, ver = menus[s]
        uid = table.seats[s].user_id
        reply = await svc.clicks.use(g, ver, uid, "x", CARDS, PROGRESS_CARDS, [])
        assert reply.outcome is not None
    await _close(svc)


@pytest.mark.asyncio
async def test_full_game_with_a_computer_player_and_the_record_replays() -> None:
    svc, sink = await _service()
    g = await _three(svc, seed=11, bots=1)
    await _play_randomly(svc, g, random.Random(11))
    await svc.idle()
    table = await svc.tables.get(g)
    assert table.game.status == "finished"
    last = sink.outcomes[-1]
    assert last.finished and last.record is not None
    state = replay(Record.from_json(last.record))
    assert state.to_json() == table.state.to_json()
    assert state.scores and state.winners
    assert last.record["players"][2]["kind"] == "ai:random"
    await _close(svc)


@pytest.mark.asyncio
async def test_restart_mid_game_goes_on_where_it_was(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    svc, _ = await _service(db)
    g = await _three(svc, seed=5, bots=1)
    rng = random.Random(5)
    await _play_randomly(svc, g, rng, stop=lambda tb: len(tb.moves) > 60)
    before = (await svc.tables.get(g)).state.to_json()
    version = (await svc.tables.get(g)).version
    await _close(svc)

    svc2, sink2 = await _service(db)
    assert await svc2.sync.resume_all() == [g]
    table = await svc2.tables.get(g)
    assert table.state.to_json() == before and table.version == version
    await _play_randomly(svc2, g, rng)
    assert (await svc2.tables.get(g)).game.status == "finished"
    await _close(svc2)


@pytest.mark.asyncio
async def test_an_action_committed_but_never_announced_is_posted_after_a_restart(
        tmp_path: Path) -> None:
    """Nothing lost: a crash between the commit and the post is repaired on start-up;
    a game whose newest board did reach the channel is not posted again."""
    db = str(tmp_path / "t.db")
    svc, _ = await _service(db)
    g = await _three(svc, seed=6)
    await _play_randomly(svc, g, random.Random(6), stop=lambda tb: len(tb.moves) > 10)
    version = (await svc.tables.get(g)).version
    await svc.storage.set_panel_message(g, 1, version - 1)  # the last post never went out
    await _close(svc)

    svc2, sink2 = await _service(db)
    assert await svc2.sync.resume_all() == [g]
    await svc2.idle()
    assert [o.version for o in sink2.outcomes] == [version]
    assert "restarted" in sink2.outcomes[0].lines[0] and sink2.outcomes[0].panel is not None
    await svc2.storage.set_panel_message(g, 2, version)
    await _close(svc2)

    svc3, sink3 = await _service(db)
    await svc3.sync.resume_all()
    await svc3.idle()
    assert sink3.outcomes == []
    await _close(svc3)


@pytest.mark.asyncio
async def test_the_events_of_unannounced_actions_reach_the_repost(tmp_path: Path) -> None:
    """Nothing lost: after a crash between commits and posts, the repost tells
    what the missed actions did, line for line, not only the new board."""
    db = str(tmp_path / "t.db")
    svc, sink = await _service(db)
    g = await _three(svc, seed=6)
    await _play_randomly(svc, g, random.Random(6), stop=lambda tb: len(tb.moves) > 12)
    await svc.idle()
    version = (await svc.tables.get(g)).version
    missed = [o for o in sink.outcomes if o.version > version - 3]
    assert [o.version for o in missed] == [version - 2, version - 1, version]
    await svc.storage.set_panel_message(g, 1, version - 3)
    await _close(svc)

    svc2, sink2 = await _service(db)
    await svc2.sync.resume_all()
    await svc2.idle()
    [repost] = sink2.outcomes
    assert "restarted" in repost.lines[0]
    assert repost.lines[1:] == [line for o in missed for line in o.lines]
    assert any(repost.lines[1:]), "the missed actions said something"
    await _close(svc2)


async def _until_undoable(svc: TableService, g: int) -> tuple[Any, int]:
    """Play until a person may take back a step; returns the table and that person."""
    rng = random.Random(8)
    await _play_randomly(svc, g, rng, stop=lambda tb: svc.undo_seat(tb) is not None
                         and len(tb.moves) > 4)
    table = await svc.tables.get(g)
    return table, table.seats[svc.undo_seat(table)].user_id


@pytest.mark.asyncio
async def test_an_unannounced_undo_is_told_after_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    svc, _ = await _service(db)
    g = await _three(svc, seed=8)
    table, who = await _until_undoable(svc, g)
    version = table.version
    await svc.undo(g, who, version)
    await svc.idle()
    await svc.storage.set_panel_message(g, 1, version)  # the undo's post never went out
    await _close(svc)

    svc2, sink2 = await _service(db)
    await svc2.sync.resume_all()
    await svc2.idle()
    [repost] = sink2.outcomes
    assert len(repost.lines) == 2 and "took back" in repost.lines[1], repost.lines
    await _close(svc2)


@pytest.mark.asyncio
async def test_a_step_taken_back_before_anyone_saw_it_is_not_told(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    svc, _ = await _service(db)
    g = await _three(svc, seed=8)
    table, who = await _until_undoable(svc, g)
    version = table.version
    await svc.undo(g, who, version)
    await svc.idle()
    await svc.storage.set_panel_message(g, 1, version - 1)  # neither step nor undo shown
    await _close(svc)

    svc2, sink2 = await _service(db)
    await svc2.sync.resume_all()
    await svc2.idle()
    [repost] = sink2.outcomes
    assert len(repost.lines) == 1 and "restarted" in repost.lines[0], repost.lines
    await _close(svc2)


@pytest.mark.asyncio
async def test_a_wrong_snapshot_is_rebuilt_from_the_log(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    svc, _ = await _service(db)
    g = await _three(svc, seed=9)
    await _play_randomly(svc, g, random.Random(9), stop=lambda tb: len(tb.moves) > 20)
    good = (await svc.tables.get(g)).state.to_json()
    bad = dict(good, era_number=99)
    await svc.storage.replace_snapshot(g, bad)
    await _close(svc)
    svc2, _ = await _service(db)
    assert (await svc2.tables.get(g)).state.to_json() == good
    assert (await svc2.storage.game(g)).state == good
    await _close(svc2)


@pytest.mark.asyncio
async def test_announcements_never_show_a_hand() -> None:
    """R-INFO-1: channel texts and panels name no card that sits in someone's hand, and
    private texts go only to their seat."""
    svc, sink = await _service()
    g = await _three(svc, seed=13)
    await _play_randomly(svc, g, random.Random(13))
    table = await svc.tables.get(g)
    assert table.game.status == "finished"
    checked = 0
    for o in sink.outcomes:
        if o.public_view is None:
            continue
        for p in o.public_view["players"]:
            assert "hand" not in p
        public = "\n".join([*o.lines, o.panel.text if o.panel else ""])
        for seat, hv in o.hand_views.items():
            assert hv["seat"] == seat
            assert all("hand" not in p for i, p in enumerate(hv["players"]) if i != seat)
        for c in (o.panel.controls() if o.panel else []):
            assert c.op != CARDS  # card choices only in private menus
            if c.op == MENU:
                assert c.arg in ("secret", "cards", "attack", "city", "dest", "tile", "terrain")
        # a card name appears in public text only when the engine made it public
        # (played, revealed or discarded): never for cards still in a hand
        for seat, hv in o.hand_views.items():
            for card in hv["players"][seat]["hand"]:
                name = card_name(card)
                if name in public:
                    assert any(name in line and ("reveal" in line or "answers" in line
                                                 or "discard" in line or "plays" in line)
                               for line in o.lines)
        checked += 1
    assert checked > 50
    await _close(svc)


def test_panels_hand_kinds_are_the_private_ones() -> None:
    assert set(panels.HAND_KINDS) == {"attack_cards", "defend_cards", "discard",
                                      "progress_cards"}


async def _to_first_turn(svc: TableService, g: int, rng: random.Random) -> None:
    """Play the setup at random until someone's action turn (a person's) begins."""
    await _play_randomly(svc, g, rng, stop=lambda table: table.state.phase == "actions")


@pytest.mark.asyncio
async def test_undo_restores_the_exact_state_and_survives_a_restart(tmp_path: Path) -> None:
    """engine.undo through the service: logged (nothing deleted), replayed on load."""
    db = str(tmp_path / "u.db")
    svc, sink = await _service(db)
    g = await _three(svc)
    await _to_first_turn(svc, g, random.Random(2))
    table = await svc.tables.get(g)
    seat = next(iter(table.since))
    uid = table.seats[seat].user_id
    before = table.state.to_json()
    log_before = len(await svc.storage.actions(g))
    await svc.act(g, uid, A.BeginMove(), table.version)
    await svc.idle()
    assert table.timeline.undo_allowed(seat)
    assert any(b.op == "undo" for row in sink.outcomes[-1].panel.rows
               if isinstance(row, tuple) for b in row)
    o = await svc.undo(g, uid, table.version)
    assert "took back" in o.lines[0]
    assert table.state.to_json() == before
    rows = await svc.storage.actions(g)
    assert len(rows) == log_before + 2 and rows[-1].action == {"type": "undo"}
    # a second undo is refused with the reason, privately, and changes nothing
    with pytest.raises(TableError) as err:
        await svc.undo(g, uid, table.version)
    assert "Nothing to undo" in str(err.value)
    # another player may not undo someone else's step
    await svc.act(g, uid, A.BeginMove(), table.version)
    other = next(s.user_id for s in table.seats if s.user_id not in (uid, None))
    with pytest.raises(TableError):
        await svc.undo(g, other, table.version)
    moved = table.state.to_json()
    await _close(svc)
    svc2, _ = await _service(db)
    table2 = await svc2.tables.get(g)
    assert table2.state.to_json() == moved
    assert table2.timeline.undo_allowed(seat), "the undo window is rebuilt from the log"
    await svc2.undo(g, uid, table2.version)
    assert table2.state.to_json() == before
    record = await svc2.record(g)
    assert replay(Record.from_json(record)).to_json() == before
    await _close(svc2)


@pytest.mark.asyncio
async def test_undo_is_refused_after_a_draw() -> None:
    svc, _ = await _service()
    g = await _three(svc)
    await _to_first_turn(svc, g, random.Random(2))
    table = await svc.tables.get(g)
    seat = next(iter(table.since))
    uid = table.seats[seat].user_id
    await svc.act(g, uid, A.DrawCards(), table.version)
    with pytest.raises(TableError) as err:
        await svc.undo(g, uid, table.version)
    assert "cannot be undone" in str(err.value) or "another player" in str(err.value)
    await _close(svc)


@pytest.mark.asyncio
async def test_every_outcome_names_its_turn_and_steps_of_a_turn_share_it() -> None:
    svc, sink = await _service()
    g = await _three(svc)
    await _to_first_turn(svc, g, random.Random(2))
    table = await svc.tables.get(g)
    seat = next(iter(table.since))
    uid = table.seats[seat].user_id
    await svc.idle()
    key = sink.outcomes[-1].turn_key
    await svc.act(g, uid, A.BeginMove(), table.version)
    await svc.idle()
    assert sink.outcomes[-1].turn_key == key
    await _close(svc)


@pytest.mark.asyncio
async def test_table_option_r_opt_1_is_chosen_in_the_lobby_and_kept() -> None:
    """R-OPT-1: chosen at /tempus new, shown in the lobby, stored with the game,
    played by the engine and written into the record with the rules version."""
    import engine

    svc, sink = await _service()
    o = await svc.lobby.create(1, 10, HOST, "Ann", seats=3, seed=7,
                               options={"protection_counts_cities": True})
    assert t("lobby.opt1.on") in o.panel.text
    g = o.game_id
    await svc.join(g, BOB, "Bob")
    await svc.join(g, CY, "Cy")
    await svc.start(g, HOST)
    table = await svc.tables.get(g)
    assert table.state.options == {"protection_counts_cities": True}
    record = await svc.record(g)
    assert record["options"]["rules_version"] == engine.RULES_VERSION
    assert record["options"]["protection_counts_cities"] is True
    await _close(svc)
