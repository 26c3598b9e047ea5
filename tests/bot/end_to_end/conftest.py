"""The whole-game tests run on an event loop whose clock skips idle waits
(tests/bot/virtual_time.py): Discord's buckets, the bot's pacing, the computers' pause and
the fake's deadlines all follow that clock, so the tests wait no longer than they compute.
A test marked ``real_time`` (it waits on another process: ``python -m bot``, PostgreSQL,
which the loop cannot see working) keeps a standard loop."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import pytest

from tests.bot.virtual_time import new_loop


def pytest_asyncio_loop_factories(config: pytest.Config, item: pytest.Item
                                  ) -> Mapping[str, Any]:
    if item.get_closest_marker("real_time") is not None:
        return {"real_time": asyncio.new_event_loop}
    return {"virtual_time": new_loop}
