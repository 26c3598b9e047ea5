"""End to end against the fake Discord: ``/tempus learn`` opens a private thread for the
person (no ping, no DM) with the lesson's first page; each click replaces the page in
place; a wrong choice is explained and retried; someone else's click is refused; leave,
resume and asking again go on where the lesson was, also after a restart; where no thread
can be made the lesson is a private reply; its end opens a real table; in Polish too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from games.tempus.lesson import coach
from tests.bot.e2e import bot_running
from tests.bot.fake_discord import FakeDiscord, Interaction, Message, running

LEARNER, OTHER = 11, 12


def right(n: int) -> str:
    """The argument of page ``n``'s control the script asks for."""
    _, step = coach.step_at(n)
    return coach.NEXT if step.reading else f"c{coach.choices(step).index(step.do)}"


def wrong(n: int) -> str | None:
    _, step = coach.step_at(n)
    if step.reading:
        return None
    offered = coach.choices(step)
    return next((f"c{i}" for i, c in enumerate(offered) if c != step.do), None)


def control(msg: Message, arg: str, op: str = "lesson") -> str:
    for cid in msg.custom_ids():
        parts = cid.split(":")
        if parts[3] == op and (len(parts) == 4 or parts[4] == arg):
            return cid
    raise AssertionError(f"no {op}:{arg} on {msg.custom_ids()}")


def step_of(msg: Message) -> int:
    return int(msg.custom_ids()[0].split(":")[2])


def lesson_message(fake: FakeDiscord, thread: int) -> Message:
    return [m for m in fake.channel_messages(thread) if m.components][-1]


async def click(fake: FakeDiscord, msg: Message, arg: str, op: str = "lesson",
                uid: int = LEARNER) -> Interaction:
    """Click and wait for the answer: the page edited in place, or a private refusal."""
    inter = await fake.click(uid, msg, control(msg, arg, op))
    await fake.wait_for(lambda: bool(inter.replies), 30)
    return inter


def no_attention(fake: FakeDiscord) -> None:
    """The lesson pinged nobody and sent no DM."""
    assert fake.dms(LEARNER) == [] and fake.dms(OTHER) == []
    assert all(not m.mentions for m in fake.order), [m.content for m in fake.order
                                                      if m.mentions]


@pytest.mark.asyncio
async def test_a_lesson_in_a_private_thread(tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db") as bot:
        ch = fake.channel_ids[0]
        r = await fake.slash(LEARNER, ch, "learn")
        (thread,) = fake.threads_in(ch)
        assert thread.type == 12 and LEARNER in thread.members  # private, the person added
        assert f"<#{thread.id}>" in r.text()
        msg = lesson_message(fake, thread.id)
        assert step_of(msg) == 0 and "step 1 of" in msg.content
        assert msg.attachments and msg.attachments[0].filename.endswith(".png")
        assert msg.attachments[0].description  # the board described
        first_id = msg.id

        await click(fake, msg, coach.NEXT)
        msg = lesson_message(fake, thread.id)
        assert msg.id == first_id and step_of(msg) == 1 and "step 2 of" in msg.content

        # a wrong choice: explained, same page
        bad = wrong(1)
        assert bad is not None
        await click(fake, msg, bad)
        msg = lesson_message(fake, thread.id)
        assert step_of(msg) == 1 and ("❌" in msg.content or "↩️" in msg.content)

        # someone else's click is refused privately and moves nothing
        refused = await click(fake, msg, right(1), uid=OTHER)
        assert "someone else's" in refused.text()
        assert step_of(lesson_message(fake, thread.id)) == 1

        await click(fake, msg, right(1))
        msg = lesson_message(fake, thread.id)
        assert step_of(msg) == 2 and "Move a token" in str(msg.components)

        # leave, then resume with the button
        await click(fake, msg, "", "lesson_leave")
        msg = lesson_message(fake, thread.id)
        assert "You left the lesson at step 3" in msg.content and not msg.attachments
        await click(fake, msg, "resume")
        msg = lesson_message(fake, thread.id)
        assert step_of(msg) == 2 and msg.attachments

        # asked for again: the same thread, the page posted anew at the same step (a post
        # keeps the thread open), the older one without its buttons
        r = await fake.slash(LEARNER, ch, "learn")
        assert f"<#{thread.id}>" in r.text() and "step 3" in r.text()
        assert len(fake.threads_in(ch)) == 1
        newest = lesson_message(fake, thread.id)
        assert newest.id != first_id and step_of(newest) == 2
        assert fake.messages[first_id].components == []
        # idle a day, the thread archived: asked again, the post brings it back
        await fake.archive_thread(thread.id, tell=False)
        await fake.slash(LEARNER, ch, "learn")
        assert not fake.threads[thread.id].archived
        latest = lesson_message(fake, thread.id)
        assert latest.id != newest.id and step_of(latest) == 2
        assert fake.messages[newest.id].components == []
        assert bot.service is not None
        row = await bot.service.lessons.of_user(LEARNER)
        assert row is not None and row.step == 2 and row.thread_id == thread.id
        no_attention(fake)
        fake.check()


@pytest.mark.asyncio
async def test_the_lesson_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    async with running() as fake:
        ch = fake.channel_ids[0]
        async with bot_running(fake, db):
            await fake.slash(LEARNER, ch, "learn")
            (thread,) = fake.threads_in(ch)
            for n in range(4):
                await click(fake, lesson_message(fake, thread.id), right(n))
            assert step_of(lesson_message(fake, thread.id)) == 4
        async with bot_running(fake, db):
            msg = lesson_message(fake, thread.id)
            await click(fake, msg, right(4))  # the old message's controls, a new process
            assert step_of(lesson_message(fake, thread.id)) == 5
        no_attention(fake)
        fake.check()


@pytest.mark.asyncio
async def test_privately_where_no_thread_can_be_made(tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db"):
        ch = fake.channel_ids[1]
        fake.deny_threads(ch)
        r = await fake.slash(LEARNER, ch, "learn")
        assert fake.threads_in(ch) == []
        (page,) = [m for m in r.replies if m.components]
        assert page.where == "ephemeral" and page.to_user == LEARNER
        assert "only you can see" in page.content and page.attachments
        await click(fake, page, coach.NEXT)
        assert step_of(fake.messages[page.id]) == 1
        no_attention(fake)
        fake.check()


@pytest.mark.asyncio
async def test_the_end_opens_a_real_table(tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db") as bot:
        ch = fake.channel_ids[0]
        await fake.slash(LEARNER, ch, "learn")
        (thread,) = fake.threads_in(ch)
        assert bot.service is not None
        # (the whole way through is tests/games/tempus/test_lesson.py's): to the last step
        last = coach.END - 1
        assert await bot.service.storage.set_lesson_step(LEARNER, 0, last, "running")
        msg = lesson_message(fake, thread.id)
        await click(fake, msg, coach.NEXT)  # page 1's control: shows the page it is at
        assert step_of(lesson_message(fake, thread.id)) == last
        await click(fake, lesson_message(fake, thread.id), right(last))
        msg = lesson_message(fake, thread.id)
        assert "finished the lesson" in msg.content
        row = await bot.service.lessons.of_user(LEARNER)
        assert row is not None and row.finished and row.status == "finished"
        await click(fake, msg, "", "lesson_table")
        await bot.service.idle()
        lobby = [m for m in fake.channel_messages(ch) if "btn" not in m.content
                 and m.components]
        assert lobby and "Computer 1, easy" in lobby[-1].content
        assert "Computer 2, easy" in lobby[-1].content
        assert "is open in" in lesson_message(fake, thread.id).content
        no_attention(fake)
        fake.check()


def speak_polish(fake: FakeDiscord) -> None:
    send = fake._dispatch

    async def dispatch(event: str, d: dict[str, Any]) -> int | None:
        if event == "INTERACTION_CREATE":
            d = {**d, "locale": "pl", "guild_locale": "pl"}
        return await send(event, d)

    fake._dispatch = dispatch  # type: ignore[method-assign]


@pytest.mark.asyncio
async def test_the_lesson_in_polish(tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db"):
        speak_polish(fake)
        ch = fake.channel_ids[0]
        r = await fake.slash(LEARNER, ch, "learn")
        assert "Twoja lekcja czeka" in r.text()
        (thread,) = fake.threads_in(ch)
        msg = lesson_message(fake, thread.id)
        assert "krok 1 z" in msg.content and "Dalej" in str(msg.components)
        await click(fake, msg, coach.NEXT)
        assert "Poruszanie" in lesson_message(fake, thread.id).content
        no_attention(fake)
        fake.check()


@pytest.mark.asyncio
async def test_the_lobby_offers_the_levels_and_the_lesson(tmp_path: Path) -> None:
    """A newcomer's lobby: "add a computer" is a menu of the levels, each explained, easy
    first; the lobby names who could take the lesson (no ping); ``/tempus tips`` switches
    the tips of the first games off."""
    async with running() as fake, bot_running(fake, tmp_path / "t.db") as bot:
        ch = fake.channel_ids[0]
        await fake.slash(LEARNER, ch, "new", seats=3)
        assert bot.service is not None
        await bot.service.idle()
        lobby = [m for m in fake.channel_messages(ch) if m.components][-1]
        assert "/tempus learn" in lobby.content
        (menu,) = [c for c in lobby.controls() if c.get("type") == 3]
        assert [o["value"] for o in menu["options"]][0] == "easy"
        assert all(o.get("description") for o in menu["options"])
        inter = await fake.click(LEARNER, lobby, menu["custom_id"], ["hard"])
        await fake.wait_for(lambda: "Computer 1, hard" in fake.messages[lobby.id].content, 30)
        assert inter.acked.is_set()
        r = await fake.slash(LEARNER, ch, "tips", state="off")
        assert "Tips are off" in r.text()
        no_attention(fake)
        fake.check()
