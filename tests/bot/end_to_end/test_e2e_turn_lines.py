"""Every event line reaches the thread exactly once, also when a new turn begins while the
board of the turn before is still being drawn (quick computer turns do that all the time).

A board that took long to draw used to be written with the new turn's lines beside the old
turn's picture, and, when Discord's budget then made it wait, the new turn's lines were
put in front of themselves: a line such as "<@15> missed 3 deadlines in a row" showed twice
in one message (seen in CI, test_e2e_clock)."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.publish.text_fit import fit
from bot.table.service import Outcome
from lang.messages import t
from tests.bot.e2e import bot_running, play_channel, settle
from tests.bot.fake_discord import running

HOLDS = 3  # boards held back until a new turn has begun
#: "(… 14 more lines)", any number
MORE = re.compile(re.escape(t("post.more", n=12345)).replace("12345", r"(\d+)")
                  .replace("lines", "lines?"))


@pytest.mark.asyncio
async def test_a_new_turn_while_the_board_is_drawn_neither_doubles_nor_loses_lines(
        tmp_path: Path) -> None:
    async with running() as fake, bot_running(fake, tmp_path / "t.db", seed=5) as bot:
        publisher, offloader = bot.publisher, bot.offloader
        assert publisher is not None
        published: list[Outcome] = []
        held: list[tuple[str, str]] = []  # (turn key while drawn, turn key after)

        real_publish = publisher.publish

        async def recording_publish(o: Outcome) -> None:
            published.append(o)
            await real_publish(o)

        real_newest = offloader.newest

        @contextlib.asynccontextmanager
        async def slow_newest(key: Any, level: int = 0) -> AsyncIterator[Any]:
            """Draws the board, then (a few times) waits until the game's next turn has
            begun before handing it over: a slow render, made certain."""
            async with real_newest(key, level) as run:
                async def slow_run(fn: Any, *args: Any) -> Any:
                    png = await run(fn, *args)
                    turn = publisher._turns.get(key[1]) if key[0] == "board" else None
                    if turn is not None and len(held) < HOLDS:
                        before = turn.key
                        for _ in range(500):
                            if turn.key != before:
                                held.append((before, turn.key))
                                break
                            await asyncio.sleep(0.01)
                    return png
                yield slow_run

        publisher.publish = recording_publish  # type: ignore[method-assign]
        offloader.newest = slow_newest  # type: ignore[method-assign]

        ch = fake.channel_ids[0]
        await fake.slash(11, ch, "new", seats=3)
        for level in ("normal", "easy"):
            await fake.slash(11, ch, "table addbot", level=level)
        await fake.slash(11, ch, "start")
        # the host's seat too is played by a computer: turns follow each other quickly
        await fake.slash(11, ch, "table autopilot")
        await fake.wait_for(lambda: len(held) >= HOLDS, 120)
        await fake.slash(11, play_channel(fake, ch), "table autopilot", on=False)
        await settle(bot)

        thread = play_channel(fake, ch)
        wanted = Counter(line for o in published if o.game_id is not None
                         and o.kind not in ("lobby", "remind", "notice") for line in o.lines)
        # the shuffle commitment opens the game in the thread and in the channel's start line
        commitment = t("shuffle.commitment", commitment="").split("`")[0]
        for line in [x for x in wanted if x.startswith(commitment)]:
            wanted[line] += 1
        texts = [m.content for where in (ch, thread) for m in fake.channel_messages(where)]
        shown = Counter(line for text in texts for line in text.splitlines() if line in wanted)
        # a message with many quick computer turns leaves its oldest lines out, saying so
        left_out = sum(int(n) for text in texts for n in MORE.findall(text))
        assert len(held) == HOLDS and all(a != b for a, b in held)
        doubled = {line: n for line, n in shown.items() if n > wanted[line]}
        assert not doubled, doubled
        assert sum(shown.values()) + left_out == sum(wanted.values()), (shown, wanted)
        fake.check()


def test_a_long_message_says_how_many_of_its_oldest_lines_it_leaves_out() -> None:
    lines = [f"line {i:03} " + "x" * 40 for i in range(200)]
    text = fit(lines, "the prompt", limit=1000)
    assert len(text) <= 1000 and text.endswith("the prompt")
    kept = [line for line in text.splitlines() if line.startswith("line ")]
    assert kept == lines[-len(kept):], "the newest lines are kept, in order"
    (n,) = MORE.findall(text)
    assert int(n) + len(kept) == len(lines), text.splitlines()[0]
    assert fit(lines[:3], "p") == "\n".join([*lines[:3], "p"])
