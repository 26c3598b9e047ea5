"""Ending the bot's background tasks: one way to stop a periodic task and wait for it."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any


async def cancel_and_wait(task: asyncio.Task[Any] | None) -> None:
    """Cancel ``task`` (None: nothing runs) and wait until it has ended, so that nothing of
    it runs after its owner has closed; its cancellation is not an error of the caller."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
