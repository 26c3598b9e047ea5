"""End to end: a game's thread locked or deleted by a moderator, told by the gateway or
found out from Discord's first refusal (50083 archived, 160005 locked, 10003 unknown
channel). Nothing more is written there, the channel and the players are told once, and
the game goes on in the channel."""

from __future__ import annotations

from pathlib import Path

import pytest

from lang.messages import t
from tests.bot.e2e import bot_running, message_version, play_channel, prompt_users, settle
from tests.bot.end_to_end.test_e2e_edges import PEOPLE, open_game
from tests.bot.fake_discord import FakeDiscord, Message, running

GONE = (50083, 160005, 10003)


def channel_panel(fake: FakeDiscord, ch: int) -> Message | None:
    """The newest message with controls in the channel itself (not its threads)."""
    return next((m for m in reversed(fake.channel_messages(ch)) if m.components), None)


@pytest.mark.asyncio
@pytest.mark.parametrize("how,tell", [("locked", True), ("locked", False),
                                      ("deleted", True), ("deleted", False)])
async def test_the_game_goes_on_in_the_channel(tmp_path: Path, how: str, tell: bool) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=51) as bot:
        ch = fake.channel_ids[0]
        msg = await open_game(fake, bot, ch)
        assert bot.service is not None
        game = await bot.service.tables.channel_game_id(ch)
        thread = play_channel(fake, ch)
        assert thread != ch
        v0 = message_version(msg)
        if how == "locked":
            await fake.archive_thread(thread, locked=True, tell=tell)
        else:
            await fake.delete_thread(thread, tell=tell)
        if not tell:  # the bot learns it from Discord's refusal of its next write there
            uid = prompt_users(msg)[0]
            select = next(c for c in msg.controls() if c["type"] == 3)
            value = select["options"][0]["value"]
            if how == "locked":  # its buttons still work
                await fake.click(uid, msg, select["custom_id"], [value])
            else:  # gone with its buttons: a command in the channel
                await fake.slash(uid, ch, "place", hex=value.split(":")[-1])
        notice = t(f"thread.lost.{how}", game=game, thread=thread,
                   players=" ".join(f"<@{u}>" for u in PEOPLE))
        await fake.wait_for(lambda: any(m.content == notice
                                        for m in fake.channel_messages(ch)), 30)
        await fake.wait_for(lambda: channel_panel(fake, ch) is not None, 30)
        await settle(bot)
        writes_there = len(fake.writes(thread))
        refusals = [f for f in fake.failures if f[3] in GONE]
        # none with the gateway's word; without it, the writes already under way when the
        # first refusal came (the board and the old controls, at once)
        assert len(refusals) <= (0 if tell else 2), refusals
        told = [m for m in fake.channel_messages(ch) if m.content == notice]
        assert len(told) == 1 and set(told[0].mentions) == set(PEOPLE)

        # the game goes on in the channel: the prompted person plays there
        for _ in range(3):
            panel = channel_panel(fake, ch)
            assert panel is not None
            uid = prompt_users(panel)[0]
            select = next(c for c in panel.controls() if c["type"] == 3)
            before = message_version(panel)
            await fake.click(uid, panel, select["custom_id"], [select["options"][0]["value"]])
            await fake.wait_for(
                lambda b=before: message_version(channel_panel(fake, ch)) > b, 30)
            await settle(bot)
        assert message_version(channel_panel(fake, ch)) > v0
        assert len(fake.writes(thread)) == writes_there, "nothing more written there"
        assert [f for f in fake.failures if f[3] in GONE] == refusals
        assert [m.content for m in fake.channel_messages(ch)].count(notice) == 1, "once"
        status = await fake.slash(PEOPLE[0], ch, "status")
        assert status.text()
        fake.check()
