"""End to end with the turn clock: the real bot against the fake Discord, its
time driven by a FakeClock (nobody sleeps for a deadline).

Five seats, two people who never answer: they are reminded by DM with a link to the turn
message, the computer decides for them at each deadline, after three in a row their seats
go on autopilot, and the game finishes with nothing secret in public. Bad input to the
clock's commands gets a clear private answer and changes nothing.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest

from bot.client.app import TempusBot
from bot.timing.pace import PACES
from bot.timing.time_source import FakeClock
from lang.messages import t
from tests.bot.e2e import (
    FakePlayer,
    bot_running,
    check_no_leaks,
    game_over,
    panel_message,
    play_channel,
    prompt_users,
    settle,
)
from tests.bot.fake_discord import FakeDiscord, Forged, UserOption, running

T0 = 1_800_000_000.0
LIVE = PACES["live"].seconds or 0.0
PRESENT, ABSENT = (11, 12, 13), (14, 15)
LINK = re.compile(r"https://discord\.com/channels/(\d+)/(\d+)/(\d+)")
EXPIRED = t("menu.expired")


async def _settled(bot: TempusBot) -> None:
    assert bot.scheduler is not None
    await bot.scheduler.settle()
    await settle(bot)


async def _play_on_the_clock(fake: FakeDiscord, bot: TempusBot, clock: FakeClock, ch: int,
                             people: dict[int, FakePlayer], max_steps: int = 4000) -> int:
    """Present people act whenever the turn message names one of them; when it names
    only absent people, the clock moves to the scheduler's next entry (a reminder or a
    deadline). Returns how many times the clock moved."""
    assert bot.scheduler is not None
    moves = 0
    for _ in range(max_steps):
        await _settled(bot)
        if game_over(fake, ch):
            return moves
        msg = panel_message(fake, ch)
        assert msg is not None
        owing = [u for u in prompt_users(msg) if u in people]
        if owing:
            await people[owing[0]].act_on(msg)
            continue
        due = bot.scheduler.next_due()
        if due is None:  # a post or a computer is still on its way
            await fake.wait_for_change(30)
            continue
        clock.set(due)
        moves += 1
    raise AssertionError(f"the game did not end in {max_steps} steps")


def _thread_lines(fake: FakeDiscord, thread: int, needle: str) -> list[str]:
    return [line for m in fake.channel_messages(thread) for line in m.content.splitlines()
            if needle in line]


@pytest.mark.asyncio
async def test_five_seats_two_never_answer_and_the_game_still_finishes(tmp_path: Path) -> None:
    clock = FakeClock(T0)
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=7, clock=clock,
                                              ai_budget_s=0.05) as bot:
        ch = fake.channel_ids[0]
        await fake.slash(11, ch, "new", seats=5, pace="live")
        for u in (*PRESENT[1:], *ABSENT):
            await fake.slash(u, ch, "join")
        await fake.slash(11, ch, "start")
        await _settled(bot)
        thread = play_channel(fake, ch)
        assert thread != ch
        turn = panel_message(fake, ch)
        assert turn is not None and f"<t:{int(T0 + LIVE)}:R>" in turn.content

        rng = random.Random(3)
        people = {u: FakePlayer(fake, u, ch, rng) for u in PRESENT}
        t0 = time.perf_counter()
        moved = await _play_on_the_clock(fake, bot, clock, ch, people)
        print("clock moves", moved, "seconds", round(time.perf_counter() - t0, 1),
              "messages", len(fake.order))

        timeouts = _thread_lines(fake, thread, "Time is up for")
        autopilots = _thread_lines(fake, thread, "deadlines in a row")
        for u in ABSENT:
            # two deadlines decided for the seat, the third puts it on autopilot
            assert len([x for x in timeouts if f"<@{u}>" in x]) == 2, timeouts
            assert len([x for x in autopilots if f"<@{u}>" in x]) == 1, autopilots
            # each notice pings the absent person (a new message naming them)
            assert _pinged(fake, thread, "Time is up for", u)
            assert _pinged(fake, thread, "deadlines in a row", u)
            # a reminder at half time and shortly before each of the three deadlines, by
            # DM, with a link to a message of the game's thread (the turn message)
            reminders = [m for m in fake.dms(u) if m.content.startswith("⏰")]
            assert len(reminders) == 6, [m.content for m in reminders]
            for m in reminders:
                found = LINK.search(m.content)
                assert found is not None, m.content
                guild, where, message = map(int, found.groups())
                assert (guild, where) == (fake.guild_id, thread)
                assert fake.messages[message].channel_id == thread
                assert "remind off" in m.content
        # nobody present missed a deadline or got a reminder
        for u in PRESENT:
            assert not [x for x in timeouts + autopilots if f"<@{u}>" in x]
            assert not [m for m in fake.dms(u) if m.content.startswith("⏰")]
        # every private menu of the finished game was retired ("no longer current")
        live = [m for m in fake.order if m.where in ("dm", "ephemeral") and m.components
                and m.to_user in (*PRESENT, *ABSENT)]
        assert not live, [(m.where, m.to_user, m.content[:60]) for m in live]
        # the people at the table choose on the turn message: no secret choice by DM
        # (the absent ones get theirs by DM, retired above once it has passed)
        timed_out = t("menu.expired_timeout")
        assert not [m for u in PRESENT for m in fake.dms(u) if m.components or any(
            marker in m.content for marker in (EXPIRED, timed_out))], "no DM menu at the table"
        assert check_no_leaks(fake, ch, {u: i for i, u in enumerate((*PRESENT, *ABSENT))})
        assert fake.rate_limited() == 0
        fake.check()


def _private(inter_text: str, key: str, **kw: object) -> None:
    assert inter_text.strip() == t(key, **kw).strip(), inter_text


@pytest.mark.asyncio
async def test_bad_clock_commands_get_a_clear_private_answer(tmp_path: Path) -> None:
    clock = FakeClock(T0)
    async with running(managers={16}, users={11: "ada", 12: "brian", 13: "chen",
                                             14: "dora", 16: "mod"}) as fake, \
            bot_running(fake, tmp_path / "t.db", seed=7, clock=clock) as bot:
        fake.bots.add(77)
        ch = fake.channel_ids[0]
        bad = await fake.slash(11, ch, "new", seats=3, pace=Forged("fast"))
        assert bad.ephemeral and "pace" in bad.text() and "live" in bad.text(), bad.text()
        assert not fake.threads_in(ch)
        await fake.slash(11, ch, "new", seats=3, pace="live")
        await fake.slash(12, ch, "join")
        await fake.slash(13, ch, "join")
        await fake.slash(11, ch, "start")
        await _settled(bot)
        thread = play_channel(fake, ch)
        before = len(fake.channel_messages(thread))
        assert bot.service is not None
        g = await bot.service.tables.channel_game_id(ch)
        table = await bot.service.tables.get(g)
        version, seats = table.version, list(table.seats)

        cases = [
            (12, dict(seat=UserOption(13), player=UserOption(14)), "error.replace_denied"),
            (11, dict(seat=UserOption(13), player=UserOption(12)), "error.replace_seated"),
            (11, dict(seat=UserOption(13), player=UserOption(77)), "error.replace_bot"),
            (11, dict(seat=UserOption(14), player=UserOption(16)), "error.not_seated_other"),
        ]
        for uid, opts, key in cases:
            inter = await fake.slash(uid, thread, "table replace", **opts)
            assert inter.ephemeral, key
            head = t(key, host=11, user=opts["player"].id, game=g,
                     old=opts["seat"].id, new=opts["player"].id)
            if key == "error.not_seated_other":
                head = t(key, user=14, game=g)
            assert head.split("<@")[0] in inter.text(), (key, inter.text())
        forged = await fake.slash(11, thread, "table pace", pace=Forged("hourly"))
        assert forged.ephemeral and "hourly" in forged.text()
        denied = await fake.slash(12, thread, "table pace", pace="daily")
        assert denied.ephemeral and "host" in denied.text()
        same = await fake.slash(11, thread, "table pace", pace="live")
        assert same.ephemeral and "already" in same.text()

        await _settled(bot)
        assert table.version == version and table.seats == seats
        assert len(fake.channel_messages(thread)) == before, "nothing public was posted"

        # a channel manager may give a seat; the new player gets the hand by DM
        done = await fake.slash(16, thread, "table replace", seat=UserOption(13),
                                player=UserOption(14))
        assert "<@14>" in done.text()
        await _settled(bot)
        assert table.seats[2].user_id == 14
        assert any(a.filename == "hand.png" for m in fake.dms(14) for a in m.attachments)
        # announced in the thread (the turn message carries the line)
        assert any("<@14>" in m.content for m in fake.channel_messages(thread))
        fake.check()



@pytest.mark.asyncio
async def test_a_reminder_falls_back_to_a_mention_in_the_thread_when_dms_are_closed(
        tmp_path: Path) -> None:
    clock = FakeClock(T0)
    async with running(dm_closed={11}) as fake, \
            bot_running(fake, tmp_path / "t.db", seed=7, clock=clock) as bot:
        ch = fake.channel_ids[0]
        await fake.slash(11, ch, "new", seats=3, pace="live")
        await fake.slash(12, ch, "join")
        await fake.slash(13, ch, "join")
        await fake.slash(11, ch, "start")
        await _settled(bot)
        thread = play_channel(fake, ch)
        turn = panel_message(fake, ch)
        assert turn is not None
        owing = prompt_users(turn)
        assert len(owing) == 1
        uid = owing[0]
        if uid != 11:  # make the person who owes the first decision the one with closed DMs
            fake.dm_closed.add(uid)
        clock.set(T0 + LIVE / 2)
        await _settled(bot)
        reminders = [m for m in fake.channel_messages(thread)
                     if f"<@{uid}>" in m.content and "a reminder" in m.content]
        assert len(reminders) == 1 and uid in reminders[0].mentions, \
            [m.content for m in fake.channel_messages(thread)]
        assert not [m for m in fake.dms(uid) if m.content.startswith("⏰")]
        fake.check()


def _pinged(fake: FakeDiscord, thread: int, needle: str, uid: int) -> bool:
    """Whether a thread message with a line containing ``needle`` and ``<@uid>`` pinged
    ``uid`` (Discord pings only for a new message whose allowed mentions name them)."""
    return any(uid in m.mentions for m in fake.channel_messages(thread)
               if any(needle in line and f"<@{uid}>" in line for line in m.content.splitlines()))


@pytest.mark.asyncio
async def test_remind_off_timeout_ping_and_the_host_leaving_through_discord(
        tmp_path: Path) -> None:
    """Through the real commands and buttons on the fake Discord: `/tempus remind off`
    mutes the reminders (no DM, no mention in the thread); the "time is up" notice pings
    the absent person; `/tempus leave` mid-game asks privately, its Leave button hands the
    seat to a computer, the host role passes to the next person (who may then change the
    pace), and leaving again is refused."""
    clock = FakeClock(T0)
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=7,
                                              clock=clock) as bot:
        ch = fake.channel_ids[0]
        await fake.slash(11, ch, "new", seats=3, pace="live")
        await fake.slash(12, ch, "join")
        await fake.slash(13, ch, "join")
        await fake.slash(11, ch, "start")
        await _settled(bot)
        thread = play_channel(fake, ch)
        turn = panel_message(fake, ch)
        assert turn is not None
        owing = prompt_users(turn)
        assert len(owing) == 1
        uid = owing[0]
        off = await fake.slash(uid, thread, "remind", state="off")
        assert off.ephemeral and off.text().strip() == t("remind.off").strip()
        clock.set(T0 + LIVE / 2)
        await _settled(bot)
        clock.set(T0 + LIVE - 60)
        await _settled(bot)
        assert not [m for m in fake.dms(uid) if m.content.startswith("⏰")]
        assert not [m for m in fake.channel_messages(thread) if "a reminder" in m.content]
        clock.set(T0 + LIVE)
        await _settled(bot)
        await fake.wait_for(lambda: _thread_lines(fake, thread, "Time is up for"), 20)
        assert _pinged(fake, thread, "Time is up for", uid), \
            [(m.content, m.mentions) for m in fake.channel_messages(thread)]

        # the host leaves mid-game: a private question first, then the button
        asked = await fake.slash(11, thread, "leave")
        assert asked.ephemeral
        question = [m for m in asked.replies if m.components][-1]
        assert bot.service is not None
        g = await bot.service.tables.channel_game_id(ch)
        table = await bot.service.tables.get(g)
        assert table.seats[0].autopilot is None and table.game.host_id == 11, "asking only"
        done = await fake.click(11, question, question.custom_ids()[0])
        await _settled(bot)
        await fake.wait_for(lambda: _thread_lines(fake, thread, "left the game"), 20)
        assert "You left" in done.text() or "You left" in fake.messages[question.id].content
        assert not fake.messages[question.id].components
        assert table.seats[0].left and table.seats[0].autopilot == "normal"
        assert table.game.host_id == 12 and (await bot.service.storage.game(g)).host_id == 12
        await fake.wait_for(lambda: _thread_lines(fake, thread, "is now the host"), 20)
        assert [x for x in _thread_lines(fake, thread, "is now the host") if "<@12>" in x]
        again = await fake.slash(11, thread, "leave")
        assert again.ephemeral and "You left" in again.text()
        denied = await fake.slash(13, thread, "table pace", pace="daily")
        assert denied.ephemeral and "<@12>" in denied.text(), denied.text()
        changed = await fake.slash(12, thread, "table pace", pace="daily")
        await _settled(bot)
        assert table.game.options["pace"] == "daily", changed.text()
        fake.check()


@pytest.mark.asyncio
async def test_a_dm_menu_sent_before_a_restart_is_retired_after_it(tmp_path: Path) -> None:
    """A secret choice is waiting in someone's DMs when the bot restarts; after the
    restart the decision passes (the deadline, the computer decides): the DM menu from
    before the restart is edited to "no longer current", saying the time ran out, and
    loses its buttons."""
    clock = FakeClock(T0)
    people_ids = (11, 12, 13)
    async with running() as fake:
        async with bot_running(fake, tmp_path / "t.db", seed=7, clock=clock,
                               ai_budget_s=0.05) as bot:
            ch = fake.channel_ids[0]
            await fake.slash(11, ch, "new", seats=3, pace="live")
            await fake.slash(12, ch, "join")
            await fake.slash(13, ch, "join")
            await fake.slash(11, ch, "start")
            rng = random.Random(1)
            people = {u: FakePlayer(fake, u, ch, rng) for u in people_ids}
            menu = None
            for _ in range(3000):
                await _settled(bot)
                live = [m for u in people_ids for m in fake.dms(u) if m.components]
                if live:
                    menu = live[-1]
                    break
                assert not game_over(fake, ch)
                msg = panel_message(fake, ch)
                assert msg is not None
                owing = [u for u in prompt_users(msg) if u in people]
                if owing:
                    # the others have left the table: a secret choice finds them by DM
                    assert bot.service is not None
                    bot.service.presence.forget(await bot.service.tables.channel_game_id(ch))
                    await people[owing[0]].act_on(msg)
                else:
                    await fake.wait_for_change(30)
            assert menu is not None, "no secret choice came by DM"
            g = await bot.service.tables.channel_game_id(ch)  # type: ignore[union-attr]
            table = await bot.service.tables.get(g)  # type: ignore[union-attr]
            seat = table.seat_of(menu.to_user)
            assert seat is not None
            due = table.clock[seat].due_at
            assert due is not None
        # the restart, before the deadline: the menu is still live
        assert fake.messages[menu.id].components
        clock.set(due - 20)
        async with bot_running(fake, tmp_path / "t.db", seed=7, clock=clock,
                               ai_budget_s=0.05) as bot:
            await _settled(bot)
            assert fake.messages[menu.id].components, "still current after the restart"
            assert menu.to_user is not None
            asked = [m.id for m in fake.dms(menu.to_user) if m.components]
            assert asked == [menu.id], "the same decision is never asked twice by DM"
            clock.set(due)
            await _settled(bot)
            await fake.wait_for(lambda: not fake.messages[menu.id].components, 30)
            after = fake.messages[menu.id]
            assert after.content.endswith(t("menu.expired_timeout")), after.content[-120:]
            assert after.content.startswith(menu.content[:40])
            fake.check()
