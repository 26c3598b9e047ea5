""""What happened?" on the page: the same recap as the button in Discord, for a seat's
person and for a watcher, in their language, from the public log only; a bad link gets a
clear refusal."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from bot.web.pages import without_mentions
from tests.bot.web.rig import Rig, in_actions, new_game, play_until, rig


@pytest_asyncio.fixture
async def ready() -> AsyncIterator[tuple[Rig, int]]:
    async with rig() as r:
        g = await new_game(r)
        await play_until(r, g, in_actions)
        yield r, g


async def _recap(r: Rig, token: str | None) -> tuple[int, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with aiohttp.ClientSession() as s, s.get(r.base + "/api/recap",
                                                   headers=headers) as resp:
        return resp.status, json.loads(await resp.read())


@pytest.mark.asyncio
async def test_a_seat_and_a_watcher_get_the_recap_the_button_gives(ready) -> None:
    r, g = ready
    table = await r.table(g)
    seat = sorted(table.since)[0]
    uid = table.seats[seat].user_id
    assert uid is not None
    for token, user in ((r.token(g, seat, uid), uid), (r.token(g, None, 555), 555)):
        status, data = await _recap(r, token)
        assert status == 200
        panel, version = await r.service.recaps.for_user(g, user)
        assert data["v"] == version == table.version
        assert data["lines"] == without_mentions(panel.text.split("\n"), table.seats)
        assert any(data["lines"])


@pytest.mark.asyncio
async def test_a_recap_without_a_good_link_is_refused(ready) -> None:
    r, g = ready
    for token in (None, "forged", r.token(g, None, 555, hours=-1)):
        status, data = await _recap(r, token)
        assert status == 401 and data["error"]


@pytest.mark.asyncio
async def test_the_page_has_the_recap_box(ready) -> None:
    r, _ = ready
    async with aiohttp.ClientSession() as s, s.get(r.base + "/") as resp:
        page = (await resp.read()).decode()
    assert 'id="recapbox"' in page and 'id="recap"' in page


def test_mentions_read_as_names_on_a_page() -> None:
    """A page is no Discord client: ``<@id>`` reads as the seated person's name."""
    from bot.store import SeatRow

    seats = [SeatRow(0, 101, None, "Ann"), SeatRow(1, None, "easy", "Computer 1")]
    lines = ["<@101> (Red) left the game.", "<@!101> and <@999> and <@101>", "plain"]
    assert without_mentions(lines, seats) == [
        "Ann (Red) left the game.", "Ann and … and Ann", "plain"]
