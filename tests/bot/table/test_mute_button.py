"""The turn message's "🔕 No pings this turn" is there only when it would change
something: a person owing a decision could still be pinged (away from the table) or
reminded in this turn, and has not muted it yet."""

from __future__ import annotations

import pytest

from bot.table.model import key_text
from engine.game import to_act
from games.controls import MUTE, Button
from tests.bot.table.test_table import _close, _service, _three


async def _has_mute(svc, g: int) -> bool:  # type: ignore[no-untyped-def]
    panel, _ = await svc.play.turn_panel(g)
    assert panel is not None
    return any(isinstance(b, Button) and b.op == MUTE for b in panel.controls())


@pytest.mark.asyncio
async def test_no_mute_button_when_whoever_owes_is_at_the_table_without_a_clock() -> None:
    svc, _ = await _service()
    try:
        g = await _three(svc)
        await svc.idle()
        table = await svc.tables.get(g)
        assert table.state is not None
        for s in to_act(table.state):  # everyone owing clicked just now
            svc.presence.seen(g, table.seats[s].user_id)
        assert not await _has_mute(svc, g), "nobody could be pinged: the button is noise"
    finally:
        await _close(svc)


@pytest.mark.asyncio
async def test_the_mute_button_is_there_for_someone_away_until_they_mute() -> None:
    svc, _ = await _service(at_table_s=0.0)  # nobody ever counts as at the table
    try:
        g = await _three(svc)
        await svc.idle()
        table = await svc.tables.get(g)
        assert table.state is not None
        assert await _has_mute(svc, g)
        for s in to_act(table.state):
            svc.presence.mute(g, table.seats[s].user_id, key_text(table.state))
        assert not await _has_mute(svc, g), "muted already: nothing left to mute"
    finally:
        await _close(svc)


@pytest.mark.asyncio
@pytest.mark.parametrize(("pace", "shown"), [("live", True), ("daily", False)])
async def test_at_the_table_the_button_is_there_only_if_a_reminder_comes_meanwhile(
        pace: str, shown: bool) -> None:
    """At the live pace the half-time reminder (90 s) comes while a person still counts
    as at the table, so muting changes something; at the daily pace it comes hours later,
    when the person is away anyway."""
    from tests.bot.timing.test_turnclock import Rig, _game

    rig = await Rig.open()
    try:
        g = await _game(rig, pace=pace)
        table = await rig.svc.tables.get(g)
        assert table.state is not None
        for s in to_act(table.state):
            rig.svc.presence.seen(g, table.seats[s].user_id)
        assert await _has_mute(rig.svc, g) is shown
    finally:
        await _close(rig.svc)
