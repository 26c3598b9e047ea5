"""End to end: ``python -m bot`` stopped by a real SIGTERM or SIGINT while a board write is
still queued (Discord keeps refusing it). A click during the stop is told the bot is
restarting; the process closes its database and exits 0; the next process announces the
move that was stored but never shown."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sqlite3
import sys
from pathlib import Path

import pytest

from lang.messages import t
from tests.bot.e2e import (
    ROOT,
    bot_process,
    by_asking,
    message_version,
    panel_message,
    play_channel,
    prompt_users,
)
from tests.bot.end_to_end.test_e2e_edges import PEOPLE
from tests.bot.fake_discord import running


def actions(db: Path) -> int:
    with contextlib.closing(sqlite3.connect(db)) as raw:
        return int(raw.execute("SELECT count(*) FROM actions").fetchone()[0])


async def health_check(health: Path) -> int:
    """``python -m bot health`` as the container runtime runs it."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "health", "--file", str(health), cwd=ROOT,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    return await proc.wait()


@pytest.mark.asyncio
@pytest.mark.real_time  # the bot runs in another process, on real time
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_a_signal_stops_the_bot_cleanly(tmp_path: Path, sig: signal.Signals) -> None:
    db, log, idle = tmp_path / "tempus.db", tmp_path / "bot.log", tmp_path / "idle.sock"
    async with running() as fake:
        ch = fake.channel_ids[0]
        health = tmp_path / "health.json"
        env = {"TEMPUS_HEALTH_FILE": str(health), "TEMPUS_HEALTH_EVERY": "1"}
        async with bot_process(fake, db, log, idle_socket=idle, env=env) as proc:
            settled = by_asking(idle)
            await fake.slash(PEOPLE[0], ch, "new", seats=3)
            for u in PEOPLE[1:]:
                await fake.slash(u, ch, "join")
            await fake.slash(PEOPLE[0], ch, "start")
            await settled()
            for _ in range(100):  # written every second, the first before connecting
                if await health_check(health) == 0:
                    break
                await asyncio.sleep(0.1)
            assert await health_check(health) == 0, health.read_text()
            msg = panel_message(fake, ch)
            assert msg is not None
            v0 = message_version(msg)
            uid = prompt_users(msg)[0]
            select = next(c for c in msg.controls() if c["type"] == 3)
            value = select["options"][0]["value"]
            # every board edit in the thread is refused from now on: the move's board is
            # still queued when the signal comes
            fake.fail_next(play_channel(fake, ch), 500, count=10_000, route="edit")
            stored = actions(db)
            await fake.click(uid, msg, select["custom_id"], [value])
            for _ in range(300):  # stored (the fake sees no change: the board is refused)
                if actions(db) > stored:
                    break
                await asyncio.sleep(0.05)

            proc.send_signal(sig)
            for _ in range(500):  # until the bot has taken the signal (its log says so)
                if "stopping (no more clicks" in log.read_text():
                    break
                await asyncio.sleep(0.01)
            late = await fake.click(uid, msg, select["custom_id"], [value])
            await fake.wait_for(lambda: late.replies, 5)
            assert late.text() == t("error.restarting")
            assert all(m.where == "ephemeral" for m in late.replies)
            assert await asyncio.wait_for(proc.wait(), 15) == 0
        assert await health_check(health) == 1, "a stopped bot is not"
        text = log.read_text()
        assert "stopped cleanly" in text and "Traceback" not in text, text[-3000:]
        # the database was closed: SQLite folds its write-ahead log back in on close
        assert not Path(f"{db}-wal").exists()
        assert actions(db) == stored + 1, "the refused click changed nothing"
        assert message_version(panel_message(fake, ch)) == v0, "the board never got out"

        fake.limiter.faults.clear()
        async with bot_process(fake, db, log, idle_socket=idle):
            await by_asking(idle)()
            await fake.wait_for(lambda: message_version(panel_message(fake, ch)) > v0, 20)
        fake.check()
