"""End to end, what a person sees of the table's edges: a private menu closed stays closed,
a defender is called by a message that notifies, the people who must choose in secret are
pinged by the message that names them."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client.app import TempusBot
from engine import actions as A
from lang.messages import t
from tests.bot.e2e import _op, bot_running, panel_message, settle
from tests.bot.end_to_end.test_e2e_edges import open_game
from tests.bot.fake_discord import running


async def _setup_done(bot: TempusBot, game: int) -> None:
    """The starting tokens placed (the first legal place each time), through the service."""
    assert bot.service is not None
    table = await bot.service.table(game)
    while table.state is not None and table.state.phase != "actions":
        (seat,) = table.since
        uid = table.seats[seat].user_id
        assert uid is not None
        await bot.service.act(game, uid, (await bot.service.legal(game, uid))[0],
                              table.version)
    await settle(bot)


@pytest.mark.asyncio
async def test_a_private_menu_closed_stays_closed(tmp_path: Path) -> None:
    """Back in a private menu closes it ("Closed. Choose again on the turn message."); when
    its decision passes later it is not brought back with its old choices and "no longer
    current"."""
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=3) as bot:
        ch = fake.channel_ids[0]
        await open_game(fake, bot, ch)
        assert bot.service is not None
        game = await bot.service.channel_game_id(ch)
        await _setup_done(bot, game)
        table = await bot.service.table(game)
        (seat,) = table.since
        uid = table.seats[seat].user_id
        assert uid is not None
        await bot.service.act(game, uid, A.BeginMove(), table.version)
        await settle(bot)
        msg = panel_message(fake, ch)
        assert msg is not None
        select = next(c for c in msg.controls()
                      if c["type"] == 3 and _op(c["custom_id"]) == "menu")
        opened = await fake.click(uid, msg, select["custom_id"], [select["options"][0]["value"]])
        (menu,) = [m for m in opened.replies if m.components]
        assert menu.where == "ephemeral"
        back = next(c for c in menu.controls() if c["custom_id"].endswith(":menu:close"))
        await fake.click(uid, menu, back["custom_id"])
        await fake.wait_for(lambda: menu.content == t("menu.closed"))
        assert not menu.components
        await bot.service.act(game, uid, A.EndMove(), table.version)  # the decision passes
        await settle(bot)
        assert menu.content == t("menu.closed") and not menu.components
        fake.check()
