"""End to end: the bot process is killed in the middle of an era and a new process on the
same database file resumes the game, whose old buttons still work; then it is finished."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from tests.bot.e2e import (
    FakePlayer,
    bot_process,
    by_asking,
    check_no_leaks,
    final_record,
    message_version,
    panel_message,
    play_until,
)
from tests.bot.fake_discord import Message, running

ROUND = re.compile(r"round (\d+)")


def mid_era(applied: int, panel: Message) -> bool:
    """Far enough into the game, in an action round after the first of an era."""
    m = ROUND.search(panel.content.splitlines()[-1])
    return applied >= 40 and m is not None and int(m[1]) >= 2


@pytest.mark.asyncio
@pytest.mark.real_time  # the bot runs in another process, on real time
async def test_kill_and_restart_mid_era_then_finish(tmp_path: Path) -> None:
    db, log = tmp_path / "tempus.db", tmp_path / "bot.log"
    idle = tmp_path / "idle.sock"  # each process says there when it is idle
    async with running() as fake:
        ch = fake.channel_ids[0]
        rng = random.Random(3)
        people = {u: FakePlayer(fake, u, ch, rng) for u in (11, 12)}
        async with bot_process(fake, db, log, idle_socket=idle) as first:
            await fake.slash(11, ch, "new", seats=3)
            await fake.slash(12, ch, "join")
            r = await fake.slash(11, ch, "table addbot", level="easy")
            assert "easy" in r.text().lower(), r.text()
            await fake.slash(11, ch, "start")
            before = await play_until(fake, by_asking(idle), ch, people, stop=mid_era)
            status_before = (await fake.slash(14, ch, "status")).text()
            panel_before = panel_message(fake, ch)
            first.kill()  # no goodbye: as if the machine died
            await first.wait()
        assert panel_before is not None
        async with bot_process(fake, db, log, idle_socket=idle):
            status_after = (await fake.slash(14, ch, "status")).text()
            assert status_after == status_before
            # the buttons posted by the dead process work in the new one
            owing = [u for u in re.findall(r"<@(\d+)>", panel_before.content.splitlines()[-1])]
            assert owing, panel_before.content
            v0 = message_version(panel_before)
            applied = False
            for _ in range(20):
                if await people[int(owing[0])].act_on(panel_before):
                    applied = True
                    break
            assert applied, people[int(owing[0])].refusals[-3:]
            assert message_version(panel_message(fake, ch)) > v0
            after = await play_until(fake, by_asking(idle), ch, people)
        record = final_record(fake, ch)
        humans = [a for a in record["actions"] if a["seat"] in (0, 1)]
        assert len(humans) >= before + 1 + after
        check_no_leaks(fake, ch, {11: 0, 12: 1})
        fake.check()
        assert "Traceback" not in log.read_text()
