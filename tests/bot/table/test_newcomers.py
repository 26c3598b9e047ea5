"""A first real game a newcomer can win (bot/table/newcomers.py, bot/table/tips.py): the
lobby offers each computer level with what it is for, a table of newcomers gets ``easy``
unless it chooses otherwise, the lobby suggests the lesson to whoever has neither played
nor learnt; a person's first two games show one short tip the first time each kind of
decision is theirs, never more than one a turn, none once switched off; the stats say
whether the lesson was finished."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client.commands.answers import Asker, stats_answer
from bot.store import ResultRow
from bot.table.service import TableService
from engine import actions as A
from games.controls import ADDBOT, Select
from lang import i18n
from lang.messages import t
from tests.bot.table.test_table import _close, _service

ANN, BOB, CY = 1, 2, 3


async def _finished(svc: TableService, user: int, games: int) -> None:
    """``user`` finished ``games`` games (results of lobbies opened for it elsewhere)."""
    for i in range(games):
        g = (await svc.lobby.create(9, 900 + 10 * user + i, 77, "X", seats=3)).game_id
        await svc.storage.save_results([ResultRow(g, 0, 9, 900, user, None, "P", 1, 10, True,
                                                  "grow", "2026-01-01T00:00:00+00:00")])


def _levels(svc: TableService, g: int) -> Select:
    table = svc.tables.cached(g)
    assert table is not None
    panel = svc.outcomes.lobby_panel(table)
    (select,) = [r for r in panel.rows if isinstance(r, Select)]
    assert select.op == ADDBOT
    return select


@pytest.mark.asyncio
async def test_a_table_of_newcomers_gets_easy_and_each_level_is_explained() -> None:
    svc, _ = await _service()
    try:
        g = (await svc.lobby.create(1, 10, ANN, "Ann", seats=4)).game_id
        select = _levels(svc, g)
        assert [o.value for o in select.options][0] == "easy"
        assert {o.value for o in select.options} == {"easy", "normal", "hard", "random"}
        for o in select.options:
            assert o.description == t(f"level.{o.value}.about")
        assert "suggested" in select.options[0].label
        await svc.lobby.add_ai(g, ANN)  # no level: the table's
        await svc.clicks.use(g, 0, ANN, "Ann", ADDBOT, "", ["hard"])  # chosen in the menu
        table = await svc.tables.get(g)
        assert [s.ai_level for s in table.seats] == [None, "easy", "hard"]
        text = svc.outcomes.lobby_panel(table).text
        assert "/tempus learn" in text and "Ann" in text
    finally:
        await _close(svc)


@pytest.mark.asyncio
async def test_someone_who_has_played_makes_it_a_normal_table() -> None:
    svc, _ = await _service()
    try:
        await _finished(svc, BOB, 1)
        g = (await svc.lobby.create(1, 10, ANN, "Ann", seats=4)).game_id
        assert _levels(svc, g).options[0].value == "easy"
        await svc.lobby.join(g, BOB, "Bob")
        assert _levels(svc, g).options[0].value == "normal"
        await svc.lobby.add_ai(g, ANN)
        table = await svc.tables.get(g)
        assert table.seats[-1].ai_level == "normal"
        # the lesson is suggested to Ann only; once she finished it, to nobody
        lines = svc.outcomes.lobby_panel(table).text.splitlines()
        (learn,) = [x for x in lines if "/tempus learn" in x]
        assert "Ann" in learn and "Bob" not in learn
        await svc.storage.start_lesson(ANN, "tempus", 1, 10)
        await svc.storage.set_lesson_step(ANN, 0, 37, "finished")
        await svc.lobby.leave(g, BOB)  # any change reads the people again
        table = await svc.tables.get(g)
        assert "/tempus learn" not in svc.outcomes.lobby_panel(table).text
    finally:
        await _close(svc)


async def _game(svc: TableService) -> int:
    """Ann (new), Bob (played two games already) and Cy (new, tips off)."""
    await _finished(svc, BOB, 2)
    await svc.tips.switch(CY, False)
    g = (await svc.lobby.create(1, 10, ANN, "Ann", seats=3, seed=7)).game_id
    await svc.lobby.join(g, BOB, "Bob")
    await svc.lobby.join(g, CY, "Cy")
    await svc.lobby.start(g, ANN)
    return g


def _tips(svc: TableService, g: int) -> list[str]:
    table = svc.tables.cached(g)
    assert table is not None
    text = svc.outcomes.turn_panel(table).text
    return [line for line in text.splitlines() if line.startswith("💡")]


@pytest.mark.asyncio
async def test_one_tip_per_kind_of_decision_and_turn_in_first_games_only() -> None:
    svc, _ = await _service()
    try:
        g = await _game(svc)
        table = await svc.tables.get(g)
        names = {s.user_id: s.name for s in table.seats}
        rules = table.port.rules
        shown: list[tuple[str, str]] = []  # (who, tip) as the turn messages showed them
        per_turn: dict[tuple[str, str], int] = {}
        steps = 0
        with i18n.using("en"):
            while not rules.is_over(table.state) and steps < 400:
                turn = rules.turn_key(table.state)
                for line in _tips(svc, g):
                    who = next(n for n in names.values() if line.startswith(f"💡 {n},"))
                    if (who, line) not in shown:
                        shown.append((who, line))
                        per_turn[(who, turn)] = per_turn.get((who, turn), 0) + 1
                seat = rules.to_act(table.state)[0]
                user = table.seats[seat].user_id
                assert user is not None
                action = rules.legal_actions(table.state, seat)[0]
                if isinstance(action, A.EndTurn | A.EndMove | A.EndGrow):
                    # stay a little in the turn: a second kind of decision comes up
                    action = next((a for a in rules.legal_actions(table.state, seat)
                                   if isinstance(a, A.BeginMove | A.BeginGrow)), action)
                await svc.play.act(g, user, action)
                steps += 1
        await svc.tips.close()
        assert {who for who, _ in shown} == {"Ann"}  # Bob has played two games, Cy said no
        kinds = [line.split("a tip: ", 1)[1] for _, line in shown]
        assert len(kinds) == len(set(kinds)) >= 3  # each kind once
        assert max(per_turn.values()) == 1  # never two in a turn
        seen = (await svc.storage.tips([ANN]))[ANN].seen
        assert "place_start_token" in seen and "turn" in seen
    finally:
        await _close(svc)


@pytest.mark.asyncio
async def test_tips_are_had_once_also_after_a_restart_and_can_be_switched_off(
        tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    svc, _ = await _service(db)
    try:
        g = await _game(svc)
        first = _tips(svc, g)
        assert len(first) == 1 and first[0].startswith("💡 Ann, a tip:")
        assert _tips(svc, g) == first  # the same tip while the decision waits
    finally:
        await _close(svc)  # its writes are done
    svc, _ = await _service(db)
    try:
        table = await svc.tables.get(g)
        assert _tips(svc, g) == []  # had already: not again
        assert await svc.tips.switch(ANN, False) == t("tips.off")
        rules = table.port.rules
        for _ in range(12):  # new kinds of decision come up: no tip, they are off
            seat = rules.to_act(table.state)[0]
            user = table.seats[seat].user_id
            assert user is not None
            await svc.play.act(g, user, rules.legal_actions(table.state, seat)[0])
            assert _tips(svc, g) == []
        assert (await svc.storage.tips([ANN]))[ANN].on is False
    finally:
        await _close(svc)


@pytest.mark.asyncio
async def test_stats_say_whether_the_lesson_was_finished() -> None:
    svc, _ = await _service()
    try:
        asker = Asker(ANN, 1, 10)
        with i18n.using("en"):
            assert t("stats.lesson.none") in (await stats_answer(svc, asker)).text
            await svc.lessons.open(ANN, 1, 10)
            await svc.storage.set_lesson_step(ANN, 0, 4, "running")
            assert t("stats.lesson.at", n=5, steps=37) in (await stats_answer(svc, asker)).text
            await svc.storage.set_lesson_step(ANN, 4, 37, "finished")
            assert t("stats.lesson.done") in (await stats_answer(svc, asker)).text
    finally:
        await _close(svc)
