"""Old turn messages keep their controls while Discord's global budget is short (taking
them off is the first thing to give way): a click on one is refused privately
and changes nothing, the newest turn message is the one with controls that matters, and
the old controls come off once the budget has room again. With the token of the click
that ended the turn, they come off at once whatever the budget (bot/publish/carriers.py)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.publish.carriers import Carriers
from tests.bot.e2e import (
    FakePlayer,
    _op,
    bot_running,
    in_process,
    message_version,
    panel_message,
    play_channel,
    play_until,
    settle,
)
from tests.bot.fake_discord import running

PEOPLE = (11, 12, 13)


@pytest.mark.asyncio
async def test_old_turn_messages_are_tidied_when_the_budget_has_room(tmp_path: Path,
                                                                     monkeypatch) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=3) as bot:
        ch = fake.channel_ids[0]
        await fake.slash(PEOPLE[0], ch, "new", seats=3)
        for u in PEOPLE[1:]:
            await fake.slash(u, ch, "join")
        await fake.slash(PEOPLE[0], ch, "start")
        await settle(bot)
        pace = bot.global_pace
        monkeypatch.setattr(type(pace), "busy", lambda self: True)  # the budget is short
        # and no click's token may write the old message (bot/publish/carriers.py: e.g. expired)
        monkeypatch.setattr(Carriers, "offer", lambda self, game, inter: None)
        thread = play_channel(fake, ch)
        first = panel_message(fake, ch)
        assert first is not None
        people = {u: FakePlayer(fake, u, ch, random.Random(u)) for u in PEOPLE}

        def new_turn(applied: int, msg: object) -> bool:
            return panel_message(fake, ch) is not first
        await play_until(fake, in_process(bot), ch, people, stop=new_turn, max_steps=200)
        newest = panel_message(fake, ch)
        assert newest is not None and newest is not first
        assert first.components, "while the budget is short the old controls stay"
        # the e2e helpers find the newest message with controls: the current turn's
        assert [m for m in fake.channel_messages(thread) if m.components][-1] is newest

        # a click on the old turn message: a private refusal that changes nothing
        version = message_version(newest)
        control = next(c for c in first.controls() if _op(c["custom_id"]) == "act")
        values = ([control["options"][0]["value"]] if control["type"] == 3 else None)
        inter = await fake.click(PEOPLE[0], first, control["custom_id"], values)
        await fake.wait_for(lambda: inter.replies)
        reply = inter.replies[-1]
        assert reply.where == "ephemeral" and "no longer current" in reply.content
        await settle(bot)
        assert message_version(panel_message(fake, ch)) == version, "nothing changed"

        monkeypatch.undo()  # the budget has room again: the old controls come off
        await settle(bot)
        with_controls = [m for m in fake.channel_messages(thread) if m.components]
        assert with_controls == [panel_message(fake, ch)]
        assert not first.components and first.attachments, "the old board stays"
        fake.check()


@pytest.mark.asyncio
async def test_a_clicks_token_takes_the_old_controls_off_at_once(tmp_path: Path,
                                                                  monkeypatch) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=3) as bot:
        ch = fake.channel_ids[0]
        await fake.slash(PEOPLE[0], ch, "new", seats=3)
        for u in PEOPLE[1:]:
            await fake.slash(u, ch, "join")
        await fake.slash(PEOPLE[0], ch, "start")
        await settle(bot)
        monkeypatch.setattr(type(bot.global_pace), "busy", lambda self: True)
        thread = play_channel(fake, ch)
        people = {u: FakePlayer(fake, u, ch, random.Random(u)) for u in PEOPLE}
        seen: list[object] = []

        def turns(applied: int, msg: object) -> bool:
            if msg not in seen:
                seen.append(msg)
            return len(seen) > 4
        await play_until(fake, in_process(bot), ch, people, stop=turns, max_steps=300)
        await settle(bot)
        with_controls = [m for m in fake.channel_messages(thread) if m.components]
        assert with_controls == [panel_message(fake, ch)], "only the newest has controls"
        last = {w.message_id: w for w in fake.public_writes(thread)}
        for old in seen[:-1]:
            assert last[old.id].interaction, "the controls came off with a click's token"
        fake.check()
