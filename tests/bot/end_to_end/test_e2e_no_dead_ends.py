"""End to end, what a person sees of the table's edges: a private menu closed stays closed,
a defender away from the table is told once, the people away who must choose in secret are
each told once."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client.app import TempusBot
from engine import actions as A
from lang.messages import t
from tests.bot.e2e import _op, bot_running, panel_message, play_channel, settle
from tests.bot.end_to_end.test_e2e_edges import open_game
from tests.bot.fake_discord import running


async def _setup_done(bot: TempusBot, game: int) -> None:
    """The starting tokens placed (the first legal place each time), through the service."""
    assert bot.service is not None
    table = await bot.service.tables.get(game)
    while table.state is not None and table.state.phase != "actions":
        (seat,) = table.since
        uid = table.seats[seat].user_id
        assert uid is not None
        await bot.service.act(game, uid, (await bot.service.play.legal(game, uid))[0],
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
        game = await bot.service.tables.channel_game_id(ch)
        await _setup_done(bot, game)
        table = await bot.service.tables.get(game)
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


def _pinged(fake, thread: int, uid: int) -> list:  # type: ignore[no-untyped-def]
    """The thread's messages that pinged ``uid`` (Discord pings for a new message whose
    allowed mentions name them, never for an edit)."""
    return [m for m in fake.channel_messages(thread) if uid in m.mentions]


def _dms(fake, uid: int) -> list:  # type: ignore[no-untyped-def]
    """``uid``'s DMs but the notice a busy machine may cause (the bot tells the players
    by DM that Discord refuses its posts when the fake answers slowly)."""
    trouble = t("notice.posts_refused", game=1, channel=0).split("<#")[0]
    return [m for m in fake.dms(uid) if not m.content.startswith(trouble)]


@pytest.mark.asyncio
async def test_the_defender_away_is_told_of_the_fight_once(tmp_path: Path) -> None:
    """A fight's defender who is away from the table learns of it while the attacker's
    turn message stands (an edit of it would notify nobody): the defence cards are a secret
    choice, so it reaches them as one DM menu, and nothing else notifies them of it (no
    ping in the thread besides it, nothing more once they have answered)."""
    from tests.bot.positions import BLUE_FAR
    from tests.engine.helpers import H, card, make_state

    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=3) as bot:
        ch = fake.channel_ids[0]
        await open_game(fake, bot, ch)
        assert bot.service is not None
        game = await bot.service.tables.channel_game_id(ch)
        await _setup_done(bot, game)
        table = await bot.service.tables.get(game)
        async with table.lock:  # a test's state surgery: Red (11) next to Blue (12)
            table.state = make_state(tokens={"E5": (0, 3), "F5": (1, 2), **BLUE_FAR},
                                     hands={0: [card("EDU", "W")], 1: [card("FOR", "G")]},
                                     markers=1)
            table.since = {0: table.version}
            table.timeline = table.port.rules.timeline()
        ann, bob = table.seats[0].user_id, table.seats[1].user_id
        assert ann is not None and bob is not None
        bot.service.presence.forget(game)  # a while later: Bob has left the table
        await bot.service.act(game, ann, A.Attack(H("E5"), H("F5")), table.version)
        await settle(bot)
        thread = play_channel(fake, ch)

        def told() -> tuple[list, list]:  # type: ignore[type-arg]
            return _pinged(fake, thread, bob), _dms(fake, bob)
        pings0, dms0 = told()
        await bot.service.act(game, ann, A.CommitAttackCards(()), table.version)
        await settle(bot)
        pings, dms = told()
        new_pings, new_dms = pings[len(pings0):], dms[len(dms0):]
        assert len(new_pings) + len(new_dms) == 1, (
            [m.content for m in new_pings], [m.content for m in new_dms])
        (menu,) = new_dms  # a secret choice: by DM, with its controls
        assert menu.components and menu.content.startswith(
            t("secret.intro", game=game, prompt=""))
        await bot.service.act(game, bob, A.DefendCards(()), table.version)
        await settle(bot)
        pings, dms = told()
        assert len(pings) - len(pings0) + len(dms) - len(dms0) == 1, "told once"
        fake.check()


@pytest.mark.asyncio
async def test_the_secret_choosers_away_are_each_told_once(tmp_path: Path) -> None:
    """The progress phase's message names everyone who must choose cards in secret; each
    of them who is away is told once (the choice is secret: one DM menu, no ping besides),
    the one who just acted is at the table and told nothing; a computer choosing at once
    (before that message is posted) must not leave anyone untold."""
    import asyncio
    import contextlib

    from tests.bot.e2e import prompt_users
    from tests.engine.helpers import card, make_state

    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=3) as bot:
        ch = fake.channel_ids[0]
        await fake.slash(11, ch, "new", seats=3)
        await fake.slash(12, ch, "join")
        await fake.slash(11, ch, "table addbot", level="random")
        await fake.slash(11, ch, "start")
        await settle(bot)
        assert bot.service is not None and bot.publisher is not None
        publisher = bot.publisher
        game = await bot.service.tables.channel_game_id(ch)
        real_newest = bot.offloader.newest

        @contextlib.asynccontextmanager
        async def computer_first(key, level=0):  # type: ignore[no-untyped-def]
            """The progress phase's board is drawn only after the computer has chosen
            (as happens most of the time: it chooses at once)."""
            turn = publisher._turns.get(key[1])
            if turn is not None and turn.message_id is None and turn.outcome is not None \
                    and '"progress"' in (turn.key or ""):
                v = turn.outcome.version
                for _ in range(200):
                    if turn.outcome is None or turn.outcome.version > v:
                        break
                    await asyncio.sleep(0.01)
            async with real_newest(key, level) as run:
                yield run

        bot.offloader.newest = computer_first  # type: ignore[method-assign]
        table = await bot.service.tables.get(game)
        async with table.lock:  # a test's state surgery: Red's last action of the round
            state = make_state(tokens={"C3": (0, 2), "H8": (1, 2), "K4": (2, 2)},
                               hands={0: [card("EDU", "W")], 1: [card("FOR", "G")],
                                      2: [card("WEA", "F")]}, markers=1)
            state.players[1].markers = state.players[2].markers = 0
            table.state = state
            table.since = {0: table.version}
            table.timeline = table.port.rules.timeline()
        assert table.seats[0].user_id == 11 and table.seats[2].is_ai
        bot.service.presence.forget(game)  # a while later: nobody is at the table
        thread = play_channel(fake, ch)
        mark = {u: (len(_pinged(fake, thread, u)), len(_dms(fake, u))) for u in (11, 12)}
        await bot.service.act(game, 11, A.DrawCards(), table.version)
        if table.state.phase != "progress":
            await bot.service.act(game, 11, A.EndTurn(), table.version)
        assert table.state.phase == "progress"
        acted = 11
        await settle(bot)
        phase = next(m for m in reversed(fake.channel_messages(thread))
                     if '"progress"' not in m.content and "in secret" in m.content)
        named = prompt_users(phase)
        waiting = [u for u in named if u != acted]  # who just acted is at the table
        assert waiting == [12], phase.content
        secret = t("secret.intro", game=game, prompt="")
        for u in (11, 12):
            pings = _pinged(fake, thread, u)[mark[u][0]:]
            dms = [m for m in _dms(fake, u)[mark[u][1]:]
                   if u in waiting or m.content.startswith(secret)]
            told = [m.content[:60] for m in [*pings, *dms]]
            if u in waiting:  # away: told once, by the one DM menu of the secret choice
                assert len(told) == 1, (u, told)
                assert not pings and dms[0].components and dms[0].content.startswith(secret)
            else:  # at the table: named on the turn message, neither pinged nor DMed
                assert told == [], (u, told)
        fake.check()
