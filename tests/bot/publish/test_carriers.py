"""Board writes carried by the players' clicks (bot/publish/carriers.py): which click's
token may write which message, for how long, and what happens when Discord refuses one."""

from __future__ import annotations

import random
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.publish.carriers import KEEP, MARGIN, TOKEN_LIFETIME, Carriers
from tests.bot.e2e import (
    FakePlayer,
    bot_running,
    in_process,
    panel_message,
    play_channel,
    play_until,
)
from tests.bot.fake_discord import running

PEOPLE = (11, 12, 13)


def _click(message_id: int, channel_id: int = 5, ephemeral: bool = False) -> Any:
    """What Carriers reads of a discord.Interaction."""
    msg = SimpleNamespace(id=message_id, flags=SimpleNamespace(ephemeral=ephemeral))
    return SimpleNamespace(message=msg, channel_id=channel_id)


def test_a_click_carries_its_message_and_posts_in_its_channel_until_near_its_end() -> None:
    now = [1000.0]
    carriers = Carriers(clock=lambda: now[0])
    carriers.offer(1, _click(100))
    c = carriers.for_edit(1, 5, 100)
    assert c is not None and carriers.for_post(1, 5) is c
    assert carriers.for_edit(1, 5, 101) is None, "another message: not this token's"
    assert carriers.for_post(1, 6) is None, "another channel: not this token's"
    assert carriers.for_post(2, 5) is None, "another game"
    c.followups.add(101)  # a message it posted
    assert carriers.for_edit(1, 5, 101) is c
    now[0] += TOKEN_LIFETIME - MARGIN - 1
    assert carriers.for_post(1, 5) is c
    now[0] += 2  # the last minute of the token: no longer used
    assert carriers.for_post(1, 5) is None and carriers.for_edit(1, 5, 100) is None
    assert carriers.forget_idle() == 0, "already gone"


def test_a_carrier_keeps_the_token_not_the_parsed_message() -> None:
    """Kept up to 14 minutes, three per game: the clicked message with its components is
    let go (its id is all a carrier needs)."""
    carriers = Carriers()
    click = _click(100)
    carriers.offer(1, click)
    c = carriers.for_edit(1, 5, 100)
    assert c is not None and c.interaction is click and click.message is None


def test_the_newest_clicks_are_kept_and_used_first() -> None:
    now = [0.0]
    carriers = Carriers(clock=lambda: now[0])
    for i in range(KEEP + 2):
        carriers.offer(1, _click(100 + i))
        now[0] += 1
    assert carriers.for_post(1, 5).original_id == 100 + KEEP + 1  # type: ignore[union-attr]
    assert carriers.for_edit(1, 5, 100) is None, "the oldest were let go"
    assert carriers.for_edit(1, 5, 102) is not None
    carriers.offer(1, _click(200, ephemeral=True))  # a private reply: never a carrier
    assert carriers.for_edit(1, 5, 200) is None
    c = carriers.for_edit(1, 5, 103)
    assert c is not None
    carriers.drop(1, c, RuntimeError("refused"))
    assert carriers.for_edit(1, 5, 103) is None and carriers.refused == 1
    now[0] += TOKEN_LIFETIME
    assert carriers.forget_idle() == 1


@pytest.mark.asyncio
async def test_a_refused_token_falls_back_to_the_channel_and_nothing_is_lost(
        tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=4) as bot:
        ch = fake.channel_ids[0]
        await fake.slash(PEOPLE[0], ch, "new", seats=3)
        for u in PEOPLE[1:]:
            await fake.slash(u, ch, "join")
        await fake.slash(PEOPLE[0], ch, "start")
        people = {u: FakePlayer(fake, u, ch, random.Random(u)) for u in PEOPLE}

        def some(applied: int, _msg: object) -> bool:
            return applied >= 8
        await play_until(fake, in_process(bot), ch, people, stop=some)
        assert bot.publisher is not None
        carriers = bot.publisher.carriers
        assert carriers.carried > 0 and carriers.refused == 0
        # Discord stops accepting every token given so far (as if revoked), and new
        # clicks bring none: the next writes try the old ones
        for inter in fake.interactions.values():
            inter.invalid = True
        carriers.offer = lambda game, inter: None  # type: ignore[method-assign]
        refusals = len(fake.failures)
        carried = carriers.carried

        def more(applied: int, _msg: object) -> bool:
            return applied >= 8
        before = time.perf_counter()
        await play_until(fake, in_process(bot), ch, people, stop=more)
        assert time.perf_counter() - before < 60
        assert carriers.refused >= 1, "a write tried a refused token"
        assert len(fake.failures) > refusals
        thread = play_channel(fake, ch)
        # the game went on through the channel: its newest turn message is the one with
        # controls (nothing was lost: play_until waited for every board)
        assert [m for m in fake.channel_messages(thread) if m.components] == \
            [panel_message(fake, ch)]
        assert carriers.carried == carried
        fake.check()


@pytest.mark.asyncio
async def test_an_expired_token_is_never_used(tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=4) as bot:
        ch = fake.channel_ids[0]
        await fake.slash(PEOPLE[0], ch, "new", seats=3)
        for u in PEOPLE[1:]:
            await fake.slash(u, ch, "join")
        await fake.slash(PEOPLE[0], ch, "start")
        people = {u: FakePlayer(fake, u, ch, random.Random(u)) for u in PEOPLE}

        def some(applied: int, _msg: object) -> bool:
            return applied >= 6
        await play_until(fake, in_process(bot), ch, people, stop=some)
        assert bot.publisher is not None
        carriers = bot.publisher.carriers
        # sixteen minutes pass, for Discord and for the bot; new clicks bring no token
        fake.advance(16 * 60)
        carriers.clock = lambda: time.monotonic() + 16 * 60
        carriers.offer = lambda game, inter: None  # type: ignore[method-assign]
        carried = carriers.carried
        thread = play_channel(fake, ch)
        old_channel_writes = sum(1 for w in fake.public_writes(thread) if not w.interaction)
        await play_until(fake, in_process(bot), ch, people, stop=some)
        assert sum(1 for w in fake.public_writes(thread) if not w.interaction) \
            > old_channel_writes, "the boards went through the channel"
        assert carriers.carried == carried and carriers.refused == 0
        fake.check()  # among others: no token used after 15 minutes
