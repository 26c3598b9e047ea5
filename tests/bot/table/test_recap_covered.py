"""A person whose turn a computer played (their time ran out) is told of it in their
"What happened?": the missed deadlines of their clock go back over those turns."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.store.rows import DeadlineRow
from tests.bot.table.test_table import _close, _play_randomly, _service, _three


@pytest.mark.asyncio
async def test_the_recap_tells_a_turn_played_for_the_reader() -> None:
    svc, _ = await _service()
    try:
        g = await _three(svc)
        await _play_randomly(svc, g, random.Random(3),
                             stop=lambda table: len(table.moves) > 40
                             and table.state.phase == "actions")
        table = await svc.tables.get(g)
        seat = next(s for s in sorted(table.since) if not table.seats[s].is_ai)
        user = table.seats[seat].user_id
        plain, _ = await svc.recaps.for_user(g, user)
        assert "computer played" not in plain.text
        table.clock[seat] = dataclasses.replace(table.clock.get(seat) or DeadlineRow(seat),
                                                strikes=1)
        told, _ = await svc.recaps.for_user(g, user)
        assert "⏰ Your time ran out: a computer played your last turn for you" in told.text
        assert len(told.text) >= len(plain.text) or "not shown" in told.text
    finally:
        await _close(svc)
