"""The live pages seen from Discord: the "🗺️ Board" button on the turn message (only
where the pages are on) answers privately with the clicker's own link, or a link to watch;
the hand message carries the person's link."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.bot.web.discord_rig import ANN, BOB, LINK, WATCHER, table_with_pages


def _ops(controls: list[dict]) -> list[str]:  # type: ignore[type-arg]
    return [c["custom_id"].split(":")[3] for c in controls]


@pytest.mark.asyncio
async def test_the_board_button_gives_each_person_their_own_link(tmp_path: Path) -> None:
    async with table_with_pages(tmp_path) as t:
        assert "board" in _ops(t.turn_message().controls())
        links = t.web.links
        mine = links.check((await t.board_link(ANN)).split("#")[1])
        table = await t.bot.service.tables.get(t.game)  # type: ignore[union-attr]
        assert (mine.game_id, mine.user_id, mine.seat) == (t.game, ANN, table.seat_of(ANN))
        bob = links.check((await t.board_link(BOB)).split("#")[1])
        assert bob.seat == table.seat_of(BOB) != mine.seat
        watching = links.check((await t.board_link(WATCHER)).split("#")[1])
        assert watching.watching and watching.game_id == t.game
        # the hand message links to its person's own page: the first cards drawn
        seat = min(table.since)
        uid = table.seats[seat].user_id
        assert uid is not None
        draw = table.port.show.decode("draw_cards")[0]
        await t.bot.service.play.act(t.game, uid, draw, table.version)  # type: ignore[union-attr]
        await t.fake.wait_for(lambda: any(LINK.search(m.content) for m in t.fake.dms(uid)), 10)
        hand = [m for m in t.fake.dms(uid) if LINK.search(m.content)]
        found = LINK.search(hand[-1].content)
        assert found is not None
        assert links.check(found.group(1).split("#")[1]).seat == seat


@pytest.mark.asyncio
async def test_no_board_button_without_the_pages(tmp_path: Path) -> None:
    async with table_with_pages(tmp_path, web=False) as t:
        assert "board" not in _ops(t.turn_message().controls())
        assert not any(LINK.search(m.content) for m in t.fake.dms(ANN))


@pytest.mark.asyncio
async def test_with_the_activity_the_board_button_launches_it_in_the_games_thread(
        tmp_path: Path) -> None:
    """The click is answered with LAUNCH_ACTIVITY (its body as Discord's API description
    has it): no private reply, and the Activity runs in the thread the game is played in."""
    async with table_with_pages(tmp_path, activity=True) as t:
        inter = await t.board(BOB)
        assert inter.response_type == 12 and inter.replies == []
        (instance,) = t.fake.activity_instances.values()
        assert instance["location"]["channel_id"] == str(t.thread)
        assert instance["users"] == [str(BOB)]
        await t.bot.service.idle()  # type: ignore[union-attr]
        for _ in range(100):  # (the bot reads Discord's answer after the fake sent it)
            if t.bot.launcher.launched:
                break
            await asyncio.sleep(0.01)
        assert (t.bot.launcher.launched, t.bot.launcher.fell_back) == (1, 0)
        entry = [c for c in t.fake.commands if c["type"] == 4]
        assert [c["name"] for c in entry] == ["launch"], "the Entry Point kept by the sync"
        assert t.fake.errors == []


@pytest.mark.asyncio
async def test_where_discord_refuses_to_launch_in_a_thread_the_link_stays(
        tmp_path: Path) -> None:
    """Refused in the thread: the same click gets the person's link, and the next clicks
    in threads go straight to the link (no refused call each time)."""
    async with table_with_pages(tmp_path, activity=False) as t:
        link = await t.board_link(ANN)
        mine = t.web.links.check(link.split("#")[1])
        assert mine.user_id == ANN and mine.seat is not None
        assert t.bot.launcher.refused_in_threads and t.bot.launcher.fell_back == 1
        refused = [f for f in t.fake.failures if f[2] == 400]
        assert len(refused) == 1 and refused[0][3] == 50039
        await t.board_link(BOB)
        assert len([f for f in t.fake.failures if f[2] == 400]) == 1, "not tried again"
        assert t.fake.activity_instances == {}


@pytest.mark.asyncio
async def test_a_launch_that_fails_for_another_reason_gives_the_link_and_keeps_launching(
        tmp_path: Path) -> None:
    """A late click (10062) or Discord failing is no refusal of threads: that click gets
    the link, and the next one launches again."""
    async with table_with_pages(tmp_path, activity=True) as t:
        t.fake.fail_callbacks(1, 404)
        link = await t.board_link(ANN)
        assert t.web.links.check(link.split("#")[1]).user_id == ANN
        assert not t.bot.launcher.refused_in_threads and t.bot.launcher.fell_back == 1
        assert (await t.board(BOB)).response_type == 12
