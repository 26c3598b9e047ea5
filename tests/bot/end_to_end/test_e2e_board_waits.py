"""End to end: a board that waits for a render slot is drawn of the game's
newest state when its turn comes, not of the state of the time it asked.

Under load a board waits seconds for a render worker while the computers play on; a board
of the state of the time of asking is then of a turn that is over, and was drawn only to
be thrown away, after which the newest board queued again: twice the render work and
twice the wait for the person who clicked."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.table.service import Outcome
from games.tempus import images
from tests.bot.e2e import bot_running, play_channel, settle
from tests.bot.fake_discord import running


@pytest.mark.asyncio
async def test_a_board_that_waited_for_a_render_slot_shows_the_newest_state(
        tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=5) as bot:
        publisher, offloader, service = bot.publisher, bot.offloader, bot.service
        assert publisher is not None and service is not None
        published: list[Outcome] = []
        drawn: list[Any] = []  # the public views drawn, in order
        release = asyncio.Event()
        release.set()

        real_publish = publisher.publish

        async def recording_publish(o: Outcome) -> None:
            published.append(o)
            await real_publish(o)

        real_newest = offloader.newest

        @contextlib.asynccontextmanager
        async def held_newest(key: Any, level: int = 0) -> AsyncIterator[Any]:
            """Boards wait (before their slot) while ``release`` is clear: render workers
            busy with other games, made certain."""
            await release.wait()
            async with real_newest(key, level) as run:
                async def recording_run(fn: Any, *args: Any) -> Any:
                    if fn is images.board_png_and_alt:
                        drawn.append(args[0])
                    return await run(fn, *args)
                yield recording_run

        publisher.publish = recording_publish  # type: ignore[method-assign]
        offloader.newest = held_newest  # type: ignore[method-assign]

        ch = fake.channel_ids[0]
        await fake.slash(11, ch, "new", seats=3)
        for level in ("normal", "easy"):
            await fake.slash(11, ch, "table addbot", level=level)
        await fake.slash(11, ch, "start")
        await settle(bot)

        release.clear()
        n0 = len(published)

        def turns_since() -> int:
            return len({o.turn_key for o in published[n0:] if o.turn_key is not None})
        # the host's seat too is played by a computer: turns follow each other quickly,
        # and none of their boards can be drawn meanwhile
        await fake.slash(11, ch, "table autopilot")
        await fake.wait_for(lambda: turns_since() >= 3, 120)
        await fake.slash(11, play_channel(fake, ch), "table autopilot", on=False)
        # the computers play on until the host must decide again
        await fake.wait_for(lambda: not any(not t.done() for t in service.computers.tasks.values()),
                            120)
        newest = [o for o in published if o.public_view is not None][-1]
        d0 = len(drawn)
        release.set()
        await settle(bot)

        assert turns_since() >= 3
        # one board, of the newest state: none drawn of a turn that was over
        assert drawn[d0:] == [newest.public_view], (len(drawn) - d0)
        assert drawn[-1] is newest.public_view
        fake.check()
