"""Any input, sendable or not, gets a clean refusal and changes nothing.

Hypothesis forges custom ids (the codec), control uses (``TableService.use`` with random
game, version, user, op, arg and select values) and checks that each is either a legal
action taken normally or refused with a catalogue message, never an internal error or
Python text, with the database and the in-memory game unchanged.
"""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bot.store.sqlite import SqliteStorage
from bot.table.service import TableError, TableService
from engine.actions import ACTION_TYPES
from games.controls import ACT, ADDBOT, CANCEL, CARDS, JOIN, LEAVE, MENU, START
from games.custom_ids import BUTTON_RE, MAX_ID, SELECT_RE, ComponentId, parse_component_id
from games.tempus.codec import decode_action, encode_action
from lang import i18n
from tests.bot.helpers import CollectSink
from tests.bot.store.test_storage_failures import next_move, started, stored

#: what must never reach a player: Python's own words
PYTHON_TEXT = re.compile(
    r"Traceback|invalid literal|base 10|Error\b|NoneType|object has no attribute|"
    r"unknown action|takes \d+ values|int\(\)|is not a hex label|most recent call|"
    r"<Object|<class |object at 0x",
)

NUMBERS = st.one_of(st.integers(0, 2**63 - 1).map(str), st.integers(0, 9).map(str),
                    st.sampled_from(["", "-1", "1e3", "٣", "00", "9" * 19, "9" * 40]))
WORDS = st.one_of(st.text(max_size=12), st.sampled_from(
    ["act", "cards", "menu", "join", "leave", "addbot", "start", "cancel", "zz", "ACT"]))


def clean(exc: TableError) -> None:
    """A refusal as players see it: a catalogue message, no Python."""
    assert i18n.has(exc.key) and exc.key != "error.internal", exc.key
    text = str(exc)
    assert text and len(text) < 1500, text
    assert not PYTHON_TEXT.search(text), text


# ---------------------------------------------------------------------- codec
@settings(max_examples=600, deadline=None)
@given(st.one_of(
    st.text(max_size=120),
    st.builds(lambda *p: ":".join(p), st.sampled_from(["tempus", "tempus-s", "x"]),
              NUMBERS, NUMBERS, st.one_of(NUMBERS, WORDS), WORDS, st.text(max_size=30)),
    st.builds(lambda *p: ":".join(p), st.just("tempus"), NUMBERS, NUMBERS, WORDS,
              st.text(max_size=40)),
))
def test_forged_custom_ids_parse_or_are_refused_never_crash(custom_id: str) -> None:
    cid = parse_component_id(custom_id)
    matched = BUTTON_RE.fullmatch(custom_id) or SELECT_RE.fullmatch(custom_id)
    # what discord.py routes to our controls (the same patterns) always parses
    assert (cid is not None) == (matched is not None)
    if cid is None:
        return
    assert 0 <= cid.game < 2**63 and 0 <= cid.version < 2**63
    assert cid.index is None or 0 <= cid.index < 2**63
    again = ComponentId(cid.game, cid.version, cid.op, cid.arg, cid.index)
    if len(custom_id) <= MAX_ID and cid.arg:
        assert parse_component_id(again.render()) == cid


@settings(max_examples=1500, deadline=None)
@given(st.sampled_from([*ACTION_TYPES, "", "nope"]),
       st.lists(st.one_of(st.text(max_size=8), NUMBERS,
                          st.sampled_from(["-", "A1", "c04", "Z99", "1.2.3", ".", "1..2"])),
                max_size=5))
def test_forged_action_texts_decode_or_raise_value_error(head: str, rest: list[str]) -> None:
    text = ":".join([head, *rest])
    try:
        action = decode_action(text)
    except ValueError:
        return
    assert decode_action(encode_action(action)) == action


# ---------------------------------------------------------------------- table service
def uses(game: int, version: int, users: list[int], acting: list[int]
         ) -> st.SearchStrategy[dict[str, Any]]:
    """Control uses as a forger would send them: ids near the real ones and far off, mostly
    by a player whose turn it is (so that forged choices get as far as the engine)."""
    action_texts = st.one_of(
        st.builds(lambda h, r: ":".join([h, *r]), st.sampled_from(sorted(ACTION_TYPES)),
                  st.lists(st.one_of(NUMBERS, st.sampled_from(["-", "A1", "C4", "Q1", "1.2"]),
                                     st.text(max_size=5)), max_size=4)),
        st.text(max_size=20))
    args = st.one_of(action_texts, st.sampled_from(
        ["", "hand", "secret", "attack", "city", "cards", "card", "tile", "dest", "card:",
         "card:x", "card:99999",
         "card:٣", "dest:Z9", "dest:", "tile:A1:x", "tile:C4:99", "tile::", "discard",
         "attack_cards", "defend_cards", "progress_cards", "nope"]), st.text(max_size=30))
    values = st.one_of(st.none(), st.lists(st.one_of(
        NUMBERS, action_texts, st.text(max_size=20), st.sampled_from(["C4", "A1", "x"])),
        max_size=4))
    ops = [ACT, CARDS, MENU, JOIN, LEAVE, ADDBOT, START, CANCEL]
    far = st.fixed_dictionaries({
        "game_id": st.one_of(st.just(game), st.sampled_from([game + 1, 0, 2**62])),
        "version": st.one_of(st.just(version),
                             st.sampled_from([version - 1, version + 1, 0, 2**62])),
        "user_id": st.one_of(st.sampled_from(acting), st.sampled_from([*users, 999])),
        "name": st.text(max_size=10),
        "op": st.one_of(st.sampled_from(ops), WORDS),
        "arg": args,
        "values": values,
    })
    # the right game, version and player, a real op: only the arg and values are forged
    near = st.fixed_dictionaries({
        "game_id": st.just(game), "version": st.just(version),
        "user_id": st.sampled_from(acting), "name": st.just("x"),
        "op": st.sampled_from([ACT, CARDS, MENU]), "arg": args, "values": values,
    })
    return st.one_of(far, near)


def test_forged_control_uses_are_refused_cleanly_and_change_nothing(tmp_path: Path) -> None:
    loop = asyncio.new_event_loop()
    db = str(tmp_path / "t.db")
    store = loop.run_until_complete(SqliteStorage.open(db))
    svc = TableService(store, CollectSink(), ai_delay=0, seed_source=lambda: 7)
    try:
        game = loop.run_until_complete(started(svc, seed=11))
        table = loop.run_until_complete(svc.tables.get(game))
        rng = random.Random(11)
        for _ in range(12):  # past the setup, into real turns with cards
            uid, action, version = loop.run_until_complete(next_move(svc, game, rng))
            loop.run_until_complete(svc.act(game, uid, action, version))
        users = [s.user_id for s in table.seats if s.user_id is not None]
        outcome = {"refused": 0, "taken": 0, "menus": 0}

        @settings(max_examples=400, deadline=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
        @given(st.data())
        def fuzz(data: st.DataObject) -> None:
            acting = [table.seats[s].user_id for s in sorted(table.since)] or users
            use = data.draw(uses(game, table.version, users, acting))
            # the host's Cancel button is real and ends the game: not a forgery
            assume(not (use["op"] == CANCEL and use["user_id"] == table.game.host_id))
            before_db = stored(db)
            before = (table.state.to_json(), table.version, len(table.moves))
            try:
                reply = loop.run_until_complete(svc.clicks.use(**use))
            except TableError as exc:
                clean(exc)
                outcome["refused"] += 1
                assert stored(db) == before_db, "a refusal changes nothing"
                assert (table.state.to_json(), table.version, len(table.moves)) == before
                return
            if reply.menu is not None:  # a private menu: shows, changes nothing
                outcome["menus"] += 1
                assert stored(db) == before_db
                return
            # a legal action a forger happened to hit: taken like any other, once
            outcome["taken"] += 1
            assert table.version == before[1] + 1 and len(table.moves) == before[2] + 1
            assert reply.text.startswith("Done")

        fuzz()
        assert outcome["refused"] > 200, outcome
    finally:
        loop.run_until_complete(svc.close())
        loop.run_until_complete(store.close())
        loop.close()
