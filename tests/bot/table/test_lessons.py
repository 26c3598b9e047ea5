"""The lesson's use case without Discord (bot/table/lessons.py): a person's lesson moves
page by page through clicks (``Op.LESSON``), keeps its page in storage, refuses someone
else's clicks, shows the page it is at for an old page's click or a second click on the
same page, can be left and resumed, and at its end opens a real table; it announces
nothing and pings nobody."""

from __future__ import annotations

import pytest

from bot.table.lessons import RESUME
from bot.table.model import TableError
from games.controls import Op
from games.tempus.lesson import coach
from tests.bot.table.test_table import _close, _service

ANN, BOB = 1, 2


def right(n: int) -> str:
    _, step = coach.step_at(n)
    return coach.NEXT if step.reading else f"c{coach.choices(step).index(step.do)}"


@pytest.mark.asyncio
async def test_a_lesson_page_by_page() -> None:
    svc, sink = await _service()
    try:
        shown = await svc.lessons.open(ANN, 5, 50)
        assert shown.step == 0 and not shown.resumed and shown.panel.image == "board"
        ops = [b.op for b in shown.panel.controls()]
        assert Op.LESSON in ops and Op.LESSON_LEAVE in ops
        lid = shown.lesson_id
        reply = await svc.clicks.use(lid, 0, ANN, "Ann", Op.LESSON, right(0))
        assert reply.page is not None and reply.version == 1 and reply.page_game == "tempus"
        # a second click on page 0 (a double click): the page the lesson is at, once
        again = await svc.clicks.use(lid, 0, ANN, "Ann", Op.LESSON, right(0))
        assert again.version == 1
        # someone else's click
        with pytest.raises(TableError) as refused:
            await svc.clicks.use(lid, 1, BOB, "Bob", Op.LESSON, right(1))
        assert refused.value.key == "lesson.not_yours"
        # leave, resume
        left = await svc.clicks.use(lid, 1, ANN, "Ann", Op.LESSON_LEAVE, "")
        assert left.page is not None and left.page.image is None
        row = await svc.lessons.of_user(ANN)
        assert row is not None and row.status == "left" and row.step == 1
        back = await svc.clicks.use(lid, 1, ANN, "Ann", Op.LESSON, RESUME)
        assert back.version == 1
        assert (await svc.lessons.of_user(ANN)).status == "running"  # type: ignore[union-attr]
        # asked for again: where it was
        shown = await svc.lessons.open(ANN, 5, 51)
        assert shown.step == 1 and shown.resumed and shown.lesson_id == lid
        assert sink.outcomes == []  # nothing announced
    finally:
        await _close(svc)


@pytest.mark.asyncio
async def test_the_end_of_a_lesson_opens_a_table_with_easy_computers() -> None:
    svc, sink = await _service()
    try:
        shown = await svc.lessons.open(ANN, 5, 50)
        last = coach.END - 1
        assert await svc.storage.set_lesson_step(ANN, 0, last, "running")
        end = await svc.clicks.use(shown.lesson_id, last, ANN, "Ann", Op.LESSON, right(last))
        assert end.page is not None and end.version == coach.END
        assert Op.LESSON_TABLE in [b.op for b in end.page.controls()]
        row = await svc.lessons.of_user(ANN)
        assert row is not None and row.finished and row.status == "finished"
        opened = await svc.clicks.use(shown.lesson_id, coach.END, ANN, "Ann",
                                      Op.LESSON_TABLE, "")
        assert opened.outcome is not None and opened.page is not None
        table = await svc.tables.get(opened.outcome.game_id)
        assert table.game.channel_id == 50 and table.game.host_id == ANN
        assert [s.ai_level for s in table.seats] == [None, "easy", "easy"]
        # again from the start: the lesson stays finished once
        again = await svc.clicks.use(shown.lesson_id, coach.END, ANN, "Ann", Op.LESSON,
                                     coach.AGAIN)
        assert again.version == 0
        row = await svc.lessons.of_user(ANN)
        assert row is not None and row.finished and row.step == 0
    finally:
        await _close(svc)
