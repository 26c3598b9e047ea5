"""End to end against the fake Discord: "What happened?" on the turn message answers
whoever clicks privately (a player: since their previous decision; anyone else: since the
round began), with the marked board, in the clicker's language, and posts nothing in the
thread; after a restart the same button gives the same answer (built from the stored
moves); ``/tempus board since:N`` gives a round's recap to anyone."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.bot.e2e import (
    FakePlayer,
    _op,
    bot_running,
    in_process,
    message_version,
    panel_message,
    play_until,
    png_size,
    prompt_users,
    settle,
    writes,
)
from tests.bot.fake_discord import FakeDiscord, Interaction, Message, running

ADA, BRIAN, SPECTATOR, POLE = 11, 12, 40, 41


def recap_button(msg: Message) -> str | None:
    return next((c for c in msg.custom_ids() if _op(c) == "recap"), None)


def ready(tried: set[int]) -> Callable[[int, Message], bool]:
    """Far enough into the game, a person's turn after others played: the button is up (on
    a turn message not ``tried`` yet)."""
    def stop(applied: int, msg: Message) -> bool:
        return (applied >= 25 and recap_button(msg) is not None and bool(prompt_users(msg))
                and message_version(msg) not in tried)
    return stop


def polish_for(fake: FakeDiscord, uid: int) -> None:
    """Interactions of ``uid`` come from a Polish client."""
    send = fake._dispatch

    async def dispatch(event: str, d: dict[str, Any]) -> Any:
        if event == "INTERACTION_CREATE":
            who = int((d.get("member") or {}).get("user", d.get("user", {})).get("id", 0))
            if who == uid:
                d = {**d, "locale": "pl"}
        return await send(event, d)

    fake._dispatch = dispatch  # type: ignore[method-assign]


def private_recap(inter: Interaction, uid: int) -> tuple[str, Any]:
    """The reply's text and picture, checked to be one private message to ``uid``."""
    assert inter.ephemeral, "deferred as a private reply"
    assert len(inter.replies) == 1, [m.content for m in inter.replies]
    reply = inter.replies[0]
    assert reply.where == "ephemeral" and reply.to_user == uid
    assert not reply.components, "a recap has nothing to click"
    pictures = [a for a in reply.attachments if a.filename == "recap.png"]
    assert len(pictures) == 1, [a.filename for a in reply.attachments]
    width, height = png_size(pictures[0].data)
    assert width >= 600 and height > width  # the board with its panel
    assert len(reply.content) <= 2000
    return reply.content, pictures[0]


@pytest.mark.asyncio
async def test_what_happened_privately_and_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    async with running() as fake:
        polish_for(fake, POLE)
        ch = fake.channel_ids[0]
        rng = random.Random(5)
        people = {u: FakePlayer(fake, u, ch, rng) for u in (ADA, BRIAN)}
        async with bot_running(fake, db, seed=6) as bot:
            await fake.slash(ADA, ch, "new", seats=3)
            await fake.slash(BRIAN, ch, "join")
            await fake.slash(ADA, ch, "table addbot", level="easy")
            await fake.slash(ADA, ch, "start")
            await settle(bot)
            # random play may reach a turn after which nothing changed on the board (only
            # "began a Move action but moved no token", cards drawn): play on to the next
            # person's turn until the recap has something to mark
            tried: set[int] = set()
            for _ in range(20):
                await play_until(fake, in_process(bot), ch, people, stop=ready(tried))
                msg = panel_message(fake, ch)
                assert msg is not None
                button = recap_button(msg)
                assert button is not None
                owing = prompt_users(msg)[0]
                posts = writes(fake, ch)
                text, picture = private_recap(await fake.click(owing, msg, button), owing)
                assert text.startswith("**What happened since your last move**"), text
                assert "Victory points now:" in text.splitlines()[-1]
                if picture.description and "Marked on the board" in picture.description:
                    break
                tried.add(message_version(msg))
            else:
                raise AssertionError(f"no recap with anything marked; the last: {text}")
            watcher, _ = private_recap(await fake.click(SPECTATOR, msg, button), SPECTATOR)
            assert watcher.startswith("**What happened since the start of round"), watcher
            polish, _ = private_recap(await fake.click(POLE, msg, button), POLE)
            assert polish.startswith("**Co się wydarzyło od początku rundy"), polish
            await settle(bot)
            assert writes(fake, ch) == posts, "a recap posts and edits nothing in public"
        async with bot_running(fake, db, seed=6) as bot:  # a new process: nothing in memory
            await settle(bot)
            again = panel_message(fake, ch)
            assert again is not None
            button = recap_button(again)
            assert button is not None
            after, _ = private_recap(await fake.click(owing, again, button), owing)
            assert after == text, "the same recap from the stored moves"
            reply = await fake.slash(SPECTATOR, ch, "board", since=1)
            assert reply.replies and reply.replies[0].where == "ephemeral"
            assert reply.text().startswith("**What happened since the start of round 1**")
            assert [a.filename for a in reply.replies[0].attachments] == ["recap.png"]
            both = await fake.slash(SPECTATOR, ch, "board", since=1, at="round-1")
            assert "one thing at a time" in both.text()
            late = await fake.slash(SPECTATOR, ch, "board", since=10)
            assert late.text() == "Round 10 has not begun yet."
        fake.check()
