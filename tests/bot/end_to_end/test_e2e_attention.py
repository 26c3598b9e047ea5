"""End to end: a table that respects attention. Two people and a computer play through the
fake Discord; what notifies them is counted as Discord would (a ping is a new public
message whose ``allowed_mentions`` lets the mention through; every new DM notifies; edits
never do).

- a person who clicked in the game lately is named in their turn message, not pinged;
  someone away is pinged, once per turn, and may mute a turn's pings from the turn message;
- each person's cards are one DM per game, edited in place, also after a restart; a secret
  choice comes by DM only to someone away;
- a computer's turn never opens a turn message of its own.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.client.app import TempusBot
from bot.table.model import key_text
from bot.timing.presence import AT_TABLE_S
from bot.timing.time_source import FakeClock
from engine import legal_actions, to_act
from games.tempus.labels import colour_name
from lang.messages import t
from tests.bot.e2e import (
    FakePlayer,
    _op,
    bot_running,
    check_no_leaks,
    final_record,
    in_process,
    panel_message,
    play_channel,
    play_until,
    prompt_users,
    settle,
)
from tests.bot.fake_discord import FakeDiscord, Message, running

PEOPLE = (11, 12)


async def open_table(fake: FakeDiscord, ch: int) -> None:
    await fake.slash(11, ch, "new", seats=3)
    await fake.slash(12, ch, "join")
    await fake.slash(11, ch, "table addbot", level="easy")
    await fake.slash(11, ch, "start")


def watch(fake: FakeDiscord) -> list[tuple[Message, str, list[int]]]:
    """Every new message as posted: (message, its text then, who it pinged)."""
    seen: list[tuple[Message, str, list[int]]] = []
    fake.on_message = lambda m: seen.append((m, m.content, list(m.mentions)))
    return seen


def prompt(text: str) -> str:
    return text.rsplit("\n", 1)[-1]


@pytest.mark.asyncio
async def test_people_at_the_table_are_named_not_pinged_and_the_away_are_pinged(
        tmp_path: Path) -> None:
    clock = FakeClock()
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=21,
                                              clock=clock) as bot:
        seen = watch(fake)
        ch = fake.channel_ids[0]
        await open_table(fake, ch)
        rng = random.Random(4)
        people = {u: FakePlayer(fake, u, ch, rng) for u in PEOPLE}
        await play_until(fake, in_process(bot), ch, people, stop=lambda n, m: n >= 40)
        thread = play_channel(fake, ch)
        posts = [(m, text, pinged) for m, text, pinged in seen
                 if m.channel_id == thread and m.public]
        for u in PEOPLE:
            named = [text for _, text, _ in posts if f"<@{u}>" in prompt(text)]
            pinged = [text for _, text, who in posts if u in who]
            assert len(named) >= 2, f"{u} is asked in the thread"
            # only before their first click (the start) are they away: one ping at most
            assert len(pinged) <= 1, pinged
            assert any(u not in who for _, text, who in posts if f"<@{u}>" in prompt(text))

        # everyone goes away between their steps: each decision finds them away
        mark = len(seen)

        def away(n: int, _m: Message) -> bool:
            clock.advance(AT_TABLE_S + 60)
            return n >= 25
        await play_until(fake, in_process(bot), ch, people, stop=away)
        later = [(text, who) for m, text, who in seen[mark:]
                 if m.channel_id == thread and m.public]
        pings = [u for _, who in later for u in who]
        assert pings, "someone away whose turn it is gets pinged"
        for text, who in later:
            assert set(who) <= set(prompt_users_of(text)), "only who must act is pinged"
        for u in PEOPLE:
            own = sum(1 for text, _ in later if u in prompt_users_of(text))
            assert pings.count(u) <= own, "at most one ping per turn message asking them"
        fake.check()


@pytest.mark.asyncio
async def test_who_just_joined_or_started_by_command_is_not_pinged(tmp_path: Path) -> None:
    """``/tempus join`` and ``/tempus start`` are uses of the game's controls, as the lobby's
    buttons are: the first turn messages name those people without pinging them."""
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=21,
                                              clock=FakeClock()) as bot:
        seen = watch(fake)
        ch = fake.channel_ids[0]
        await open_table(fake, ch)
        await settle(bot)
        thread = play_channel(fake, ch)
        posts = [(text, who) for m, text, who in seen if m.channel_id == thread and m.public]
        asked = [u for text, _ in posts for u in prompt_users_of(text)]
        assert asked, "a person is asked to act in the thread"
        assert not [who for _, who in posts if who], posts
        fake.check()


def prompt_users_of(text: str) -> list[int]:
    return [u for u in PEOPLE if f"<@{u}>" in "\n".join(text.splitlines()[-3:])]


@pytest.mark.asyncio
async def test_the_mute_button_answers_privately_and_mutes_the_turn(tmp_path: Path) -> None:
    clock = FakeClock()
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=22,
                                              clock=clock) as bot:
        ch = fake.channel_ids[0]
        await open_table(fake, ch)
        await settle(bot)
        msg = panel_message(fake, ch)
        assert msg is not None
        # whoever owes the first decision just started the game: at the table, so never
        # pinged (the daily pace reminds hours later): a mute would change nothing
        assert not [c for c in msg.custom_ids() if _op(c) == "mute"]
        # everyone goes away between steps: once the decision is someone's who has not
        # just acted, they are away, can be pinged, and may mute that
        assert bot.service is not None
        for _ in range(12):
            msg = panel_message(fake, ch)
            assert msg is not None
            if any(_op(c) == "mute" for c in msg.custom_ids()):
                break
            clock.advance(AT_TABLE_S + 60)
            table = await bot.service.tables.get(1)
            assert table.state is not None
            seat = min(table.since)
            user = table.seats[seat].user_id
            assert user is not None
            await bot.service.act(1, user, legal_actions(table.state, seat)[0],
                                  table.version)
            await settle(bot)
        mute = next(c for c in msg.custom_ids() if _op(c) == "mute")
        label = next(c["label"] for c in msg.controls() if c.get("custom_id") == mute)
        assert label == t("btn.mute")
        owing = [u for u in prompt_users(msg) if u in PEOPLE]
        other = next(u for u in PEOPLE if u not in owing)
        edits = msg.edits
        inter = await fake.click(other, msg, mute)
        assert inter.ephemeral and inter.text() == t("mute.done", game=1)
        assert msg.edits == edits, "nothing public changes"
        assert bot.service is not None
        table = await bot.service.tables.get(1)
        assert table.state is not None
        assert bot.service.presence.muted(1, other, key_text(table.state))
        # away, but muted: a decision of this turn does not ping them
        clock.advance(AT_TABLE_S + 60)
        assert bot.service.outcomes.to_notify(table, [table.seat_of(other) or 0],
                                              key_text(table.state)) == []
        spectator = await fake.click(13, msg, mute)
        assert "not playing" in spectator.text().lower() or "#1" in spectator.text()
        fake.check()


def hand_dms(fake: FakeDiscord, u: int) -> list[Message]:
    """``u``'s DMs but the notice a busy machine may cause (the fake's answers were slow:
    the bot tells the players it has trouble posting, by DM)."""
    trouble = t("notice.posts_refused", game=1, channel=0).split("<#")[0]
    return [m for m in fake.dms(u) if not m.content.startswith(trouble)]


@pytest.mark.asyncio
async def test_one_hand_message_per_person_edited_in_place_across_a_restart(
        tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    async with running() as fake:
        ch = fake.channel_ids[0]
        rng = random.Random(6)
        async with bot_running(fake, db, seed=23) as bot:
            await open_table(fake, ch)
            people = {u: FakePlayer(fake, u, ch, rng) for u in PEOPLE}
            await play_until(fake, in_process(bot), ch, people, stop=lambda n, m: n >= 60)
            first = {u: hand_dms(fake, u) for u in PEOPLE}
            for u in PEOPLE:
                # at the table all along: no secret choice by DM, no "you drew" DM
                assert len(first[u]) == 1, [m.content[:60] for m in first[u]]
                hand = first[u][0]
                assert hand.to_user == u and not hand.components
                assert hand.edits >= 1, "the hand changed: the one message was edited"
            edits = {u: first[u][0].edits for u in PEOPLE}
        async with bot_running(fake, db, seed=23) as bot:
            people = {u: FakePlayer(fake, u, ch, rng) for u in PEOPLE}
            await play_until(fake, in_process(bot), ch, people)
            secret = t("secret.intro", game=1, prompt="")
            for u in PEOPLE:
                dms = hand_dms(fake, u)
                assert dms[0].id == first[u][0].id, "the same message after a restart"
                assert dms[0].edits > edits[u]
                assert dms[0].channel_id == fake.dm_channel(u)
                # a restart forgets who was at the table: a secret choice owed then may
                # come by DM (once), but the cards never come in a message of their own
                others = [m.content[:40] for m in dms[1:] if not m.content.startswith(secret)]
                assert not others, others
            assert check_no_leaks(fake, ch, {11: 0, 12: 1})
            assert final_record(fake, ch)
            fake.check()


@pytest.mark.asyncio
async def test_a_computers_turn_never_opens_a_turn_message(tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=24) as bot:
        seen = watch(fake)
        ch = fake.channel_ids[0]
        await open_table(fake, ch)
        people = {u: FakePlayer(fake, u, ch, random.Random(8)) for u in PEOPLE}
        await play_until(fake, in_process(bot), ch, people, stop=lambda n, m: n >= 80)
        thread = play_channel(fake, ch)
        assert bot.service is not None
        computer = (await bot.service.tables.get(1)).seats
        name = next(s.name for s in computer if s.is_ai)
        posts = [text for m, text, _ in seen if m.channel_id == thread and m.public]
        waiting = [p for p in posts if name in prompt(p) and "<@" not in prompt(p)]
        assert not waiting, waiting[:2]
        asking = sum(1 for p in posts if "<@" in prompt(p))
        assert asking == len(posts), "every turn message asks a person"
        fake.check()


async def _live_game_owed_by_a_person(fake: FakeDiscord, bot: TempusBot, ch: int,
                                      mute: bool) -> int:
    """Two people and a computer at a live pace; the first person owing a decision
    (returned) mutes the turn from its turn message if ``mute``."""
    await fake.slash(11, ch, "new", seats=3, pace="live")
    await fake.slash(12, ch, "join")
    await fake.slash(11, ch, "table addbot", level="easy")
    await fake.slash(11, ch, "start")
    assert bot.scheduler is not None
    await bot.scheduler.settle()
    await settle(bot)
    msg = panel_message(fake, ch)
    assert msg is not None
    owing = [u for u in prompt_users(msg) if u in PEOPLE]
    assert owing
    if mute:
        button = next(c for c in msg.custom_ids() if _op(c) == "mute")
        inter = await fake.click(owing[0], msg, button)
        assert inter.text() == t("mute.done", game=1), "confirmed"
    return owing[0]


async def _reminders_until_the_deadline(fake: FakeDiscord, bot: TempusBot, clock: FakeClock,
                                        ch: int, who: int) -> list[Message]:
    """Run the turn clock through its reminders to the deadline; ``who``'s reminder DMs."""
    assert bot.scheduler is not None
    await bot.scheduler.settle()
    await settle(bot)
    timed_out = "Time is up for"
    for _ in range(10):  # reminders, then the deadline
        due = bot.scheduler.next_due()
        if due is None or any(timed_out in m.content for m in fake.channel_messages(
                play_channel(fake, ch))):
            break
        clock.set(due)
        await bot.scheduler.settle()
        await settle(bot)
    return [m for m in fake.dms(who) if m.content.startswith("⏰")]


@pytest.mark.asyncio
@pytest.mark.parametrize("muted", [False, True])
async def test_a_muted_turn_sends_no_reminder(tmp_path: Path, muted: bool) -> None:
    """The turn clock's reminders are DMs that notify: muting the turn from its turn
    message stops them for that turn (the deadline itself still holds)."""
    clock = FakeClock(1_800_000_000.0)
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=25,
                                              clock=clock) as bot:
        ch = fake.channel_ids[0]
        who = await _live_game_owed_by_a_person(fake, bot, ch, muted)
        reminders = await _reminders_until_the_deadline(fake, bot, clock, ch, who)
        assert (not reminders) if muted else reminders, [m.content[:40] for m in reminders]
        fake.check()


@pytest.mark.asyncio
@pytest.mark.parametrize("muted", [False, True])
async def test_a_muted_turn_stays_muted_after_a_restart(tmp_path: Path, muted: bool) -> None:
    """"No pings this turn" is a promise: it is stored before it is confirmed, so a bot
    restarted in the same turn sends none of that turn's reminders either (unmuted, the
    restarted bot does send them)."""
    clock = FakeClock(1_800_000_000.0)
    db = tmp_path / "t.db"
    async with running() as fake:
        ch = fake.channel_ids[0]
        async with bot_running(fake, db, seed=25, clock=clock) as bot:
            who = await _live_game_owed_by_a_person(fake, bot, ch, muted)
        async with bot_running(fake, db, seed=25, clock=clock) as bot:
            reminders = await _reminders_until_the_deadline(fake, bot, clock, ch, who)
        assert (not reminders) if muted else reminders, [m.content[:40] for m in reminders]
        fake.check()


@pytest.mark.asyncio
async def test_a_computer_beginning_the_game_posts_no_message_of_its_own(
        tmp_path: Path) -> None:
    """Seed 24 gives the first tile to the computer's seat; at a pace people can follow
    (a pause before each computer move) the thread's first post is still the first
    person's turn, carrying what the computer did."""
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=24,
                                              ai_delay=0.3) as bot:
        seen = watch(fake)
        ch = fake.channel_ids[0]
        await open_table(fake, ch)
        assert bot.service is not None
        table = await bot.service.tables.get(1)
        assert table.state is not None
        (first,) = to_act(table.state)
        assert table.seats[first].is_ai, "the computer begins"
        await settle(bot)
        thread = play_channel(fake, ch)
        posts = [text for m, text, _ in seen if m.channel_id == thread and m.public]
        assert posts and "<@" in prompt(posts[0]), posts[:1]
        assert table.moves and table.moves[0][0] == first
        assert colour_name(first) in posts[0], "what the computer did opens the message"
        fake.check()
