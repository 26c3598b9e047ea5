"""End to end, the edges of "a game in its own thread": no permission for threads,
a game opened inside a thread, `/tempus` not offered in DMs, Undo clicked as a person would,
a 429 forced on a board post."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from lang.messages import t
from tests.bot.e2e import (
    FakePlayer,
    _op,
    bot_running,
    choose,
    message_version,
    panel_message,
    play_channel,
    prompt_users,
    settle,
)
from tests.bot.end_to_end.test_e2e_edges import game_state, open_game
from tests.bot.fake_discord import CommandUnavailable, running

PEOPLE = (11, 12, 13)


@pytest.mark.asyncio
async def test_without_thread_permission_the_game_is_played_in_the_channel(
        tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=3) as bot:
        ch = fake.channel_ids[0]
        fake.deny_threads(ch)
        await open_game(fake, bot, ch)
        assert fake.threads_in(ch) == [] and play_channel(fake, ch) == ch
        told = [m for m in fake.channel_messages(ch)
                if m.content == t("thread.denied", host=11, game=1)]
        assert len(told) == 1 and told[0].mentions == [11], "the host is told why, once"
        msg = panel_message(fake, ch)
        assert msg is not None and msg.channel_id == ch and msg.controls()
        fake.check()


@pytest.mark.asyncio
async def test_the_channel_is_told_once_where_the_game_is_played(tmp_path: Path) -> None:
    """The lobby message becomes "Game #1 is being played in #thread" (an edit, in place):
    no second post right under it saying the same ("has started: follow it in ...")."""
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=3) as bot:
        ch = fake.channel_ids[0]
        await open_game(fake, bot, ch)
        [thread] = fake.threads_in(ch)
        said = [m.content for m in fake.channel_messages(ch)]
        where = t("lobby.started_in", game=1, thread=thread.id)
        # its first line (the shuffle's commitment follows it in the same message)
        assert [m.splitlines()[0] for m in said].count(where) == 1, said
        assert len(said) == 1, "the lobby message itself, edited: no second post"
        assert t("thread.start_line", game=1, thread=thread.id) not in said, said
        fake.check()


@pytest.mark.asyncio
async def test_new_inside_a_thread_plays_in_that_thread(tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=3) as bot:
        ch = fake.channel_ids[0]
        thread = await fake.person_thread(ch, 11, "tempus tonight")
        await open_game(fake, bot, thread)
        assert [th.id for th in fake.threads_in(ch)] == [thread], "no thread of its own"
        msg = panel_message(fake, thread)
        assert msg is not None and msg.channel_id == thread and msg.controls()
        assert fake.channel_messages(ch) == [], "the parent channel is left alone"
        fake.check()


@pytest.mark.asyncio
async def test_tempus_is_not_offered_in_direct_messages(tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=3):
        with pytest.raises(CommandUnavailable):
            await fake.slash(11, fake.dm_channel(11), "new", seats=3)
        assert fake.dms(11) == []
        fake.check()


@pytest.mark.asyncio
async def test_undo_by_button_restores_the_exact_state_and_refuses_others(
        tmp_path: Path) -> None:
    """R-ACT undo (BGA's rule): the player who just made an undoable step gets an Undo button
    on the turn message; it restores the exact state; anyone else's click on it is refused
    privately and changes nothing."""
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=12) as bot:
        ch = fake.channel_ids[0]
        await open_game(fake, bot, ch)
        people = {u: FakePlayer(fake, u, ch, random.Random(u)) for u in PEOPLE}
        for _ in range(400):
            msg = panel_message(fake, ch)
            assert msg is not None
            owing = prompt_users(msg)
            assert owing, "three people: someone owes a decision"
            uid = owing[0]
            before = (await game_state(bot, ch)).to_json()
            applied = await people[uid].act_on(msg)
            await settle(bot)
            after = panel_message(fake, ch)
            assert after is not None
            undo = [c for c in after.controls() if _op(c["custom_id"]) == "undo"]
            if applied and undo:
                break
        else:
            raise AssertionError("no undoable step in 400 clicks")
        version = message_version(after)
        other = next(u for u in PEOPLE if u != uid)
        refused = await fake.click(other, after, undo[0]["custom_id"])
        await fake.wait_for(lambda: refused.replies)
        assert all(m.where == "ephemeral" and m.to_user == other for m in refused.replies)
        assert "undo" in refused.text().lower() or "take back" in refused.text().lower()
        await settle(bot)
        assert message_version(panel_message(fake, ch)) == version, "nothing changed"

        await fake.click(uid, after, undo[0]["custom_id"])
        await fake.wait_for(lambda: message_version(panel_message(fake, ch)) > version)
        await settle(bot)
        assert (await game_state(bot, ch)).to_json() == before, "exactly the state before"
        assert "took back" in (panel_message(fake, ch).content or "")  # type: ignore[union-attr]
        fake.check()


@pytest.mark.asyncio
async def test_a_429_on_a_board_post_is_waited_out_and_nothing_is_lost(tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=4) as bot:
        ch = fake.channel_ids[0]
        msg = await open_game(fake, bot, ch)
        thread = play_channel(fake, ch)
        v0 = message_version(msg)
        fake.fail_next(thread, 429, 1, route="any", retry_after=0.3)
        uid = prompt_users(msg)[0]
        control = next(c for c in msg.controls() if _op(c["custom_id"]) == "act")
        await fake.click(uid, msg, control["custom_id"], choose(control, random.Random(1)))
        await settle(bot)
        await fake.wait_for(lambda: message_version(panel_message(fake, ch)) > v0)
        assert [f[3] for f in fake.limiter.faulted if f[1] == thread] == [429], "answered"
        state = await game_state(bot, ch)
        assert len(state.start_hexes) == 1, "the click counted once"
        fake.check()
