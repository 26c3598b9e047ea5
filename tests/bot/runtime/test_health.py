"""The health file (bot/runtime/health.py): written by the running bot, read by
``python -m bot health``; stale, disconnected or a database that takes no write is
unhealthy."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from bot.runtime.health import HealthFile, main, verdict
from bot.store.sqlite import SqliteStorage


@pytest.mark.asyncio
async def test_the_health_file_says_what_is_wrong(tmp_path: Path) -> None:
    path = tmp_path / "health.json"
    store = await SqliteStorage.open(str(tmp_path / "t.db"))
    connected = True
    health = HealthFile(str(path), 15, gateway=lambda: connected, db=store.writable)
    try:
        report = await health.probe()
        assert report["ok"] and report["db"] == "ok"
        assert verdict(path, 60) == (True, verdict(path, 60)[1])
        assert main(["--file", str(path)]) == 0
        assert not verdict(path, 60, now=time.time() + 120)[0], "a stale file"
        connected = False
        await health.probe()
        ok, why = verdict(path, 60)
        assert not ok and "Discord" in why
        connected = True
        await health.probe(late_s=9)
        assert not verdict(path, 60)[0], "a late event loop"
        os.unlink(tmp_path / "t.db")  # the database file deleted under the bot
        report = await health.probe()
        assert not report["ok"] and report["db"].startswith("gone")
        ok, why = verdict(path, 60)
        assert not ok and "database" in why
        assert main(["--file", str(path)]) == 1
        assert json.loads(path.read_text())["pid"] == os.getpid()
    finally:
        await health.close()
        await store.close()
    assert not path.exists(), "a stopped bot leaves no health file"
    assert main(["--file", str(path)]) == 1
