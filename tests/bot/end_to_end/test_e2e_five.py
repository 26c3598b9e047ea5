"""End to end: a five-seat game, one person and four computers at the bot's default
pace, played in its thread without one 429 and never more than five writes in a bucket's
period in any channel."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.operator.settings import Settings
from bot.publish.outbox import CARRIED_LIMIT, CARRIED_PERIOD, DEFAULT_PERIOD
from tests.bot.e2e import (
    FakePlayer,
    bot_running,
    check_no_leaks,
    final_record,
    in_process,
    play_channel,
    play_until,
    turns_in,
)
from tests.bot.fake_discord import running


@pytest.mark.asyncio
async def test_five_seats_with_computers_at_the_default_pace(tmp_path: Path) -> None:
    async with running() as fake:
        period = fake.limiter.limits.post_per
        # the default pause between computer moves, scaled as the tests scale the buckets
        ai_delay = Settings.ai_delay * period / 5.0
        async with bot_running(fake, tmp_path / "t.db", seed=21, ai_delay=ai_delay) as bot:
            ch = fake.channel_ids[0]
            # the publisher learns a started game's thread once, not from the store at
            # every move (that read waited in the database's queue under load)
            assert bot.publisher is not None
            store, asked = bot.publisher.storage, []
            real_ref = store.game_ref

            async def counted_ref(game_id: int):  # type: ignore[no-untyped-def]
                asked.append(game_id)
                return await real_ref(game_id)
            store.game_ref = counted_ref  # type: ignore[method-assign]
            await fake.slash(11, ch, "new", seats=5)
            for level in ("normal", "easy", "normal", "easy"):
                await fake.slash(11, ch, "table addbot", level=level)
            await fake.slash(11, ch, "start")
            people = {11: FakePlayer(fake, 11, ch, random.Random(3))}
            await play_until(fake, in_process(bot), ch, people)
            rec = final_record(fake, ch)
            assert len(rec["players"]) == 5
            assert {a["seat"] for a in rec["actions"]} == {0, 1, 2, 3, 4}
            thread = play_channel(fake, ch)
            assert thread != ch
            assert fake.rate_limited() == 0, fake.refusals[:3]
            # posts and edits each have their own bucket of 5 per period
            for kind in ("post", "edit"):
                for where in (ch, thread):
                    assert fake.max_writes_5s(where, window=period, kinds=(kind,)) <= 5
            # writes carried by a click's token: our own pace of CARRIED_LIMIT per
            # CARRIED_PERIOD (Discord does not publish the webhook bucket's numbers)
            carried = sorted(w.t for w in fake.public_writes(thread) if w.interaction)
            window = CARRIED_PERIOD * period / DEFAULT_PERIOD
            assert carried, "the person's clicks carried some writes"
            assert max(sum(1 for u in carried if t <= u < t + window) for t in carried) \
                <= CARRIED_LIMIT
            posts = sum(1 for w in fake.public_writes(thread) if w.kind == "post")
            assert posts <= turns_in(rec) + 2
            assert len(fake.channel_messages(ch)) <= 4
            check_no_leaks(fake, ch, {11: 0})
            fake.check()
            assert len(rec["actions"]) > 100 and len(asked) <= 10, len(asked)
