"""A health signal a container runtime can use: a small file the bot keeps fresh, and
``python -m bot health`` that reads it (exit 0: healthy, 1: not).

Every ``every_s`` seconds (``TEMPUS_HEALTH_EVERY``, default 15) the running bot writes
``TEMPUS_HEALTH_FILE`` (default ``tempus-health.json`` in the temporary directory) with:

* ``gateway``: connected to Discord (every shard of this process);
* ``loop_late_ms``: how late the event loop woke this probe up (a loop stuck in a long
  computation or a blocking call answers nothing: over ``MAX_LATE_S`` is unhealthy);
* ``db``: the database takes a write (SQLite: the file is the one opened and sound, and
  its write lock can be taken; PostgreSQL: a statement runs): ``"ok"`` or why not.

The file is written whole (a temporary file renamed over it). ``python -m bot health``
says healthy when the file is younger than ``--max-age`` seconds (default four periods: a
bot that stopped writing it is not healthy either) and every part is fine; otherwise it
prints what is wrong. The Dockerfile's ``HEALTHCHECK`` runs it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.runtime.tasks import cancel_and_wait

log = logging.getLogger(__name__)

DEFAULT_EVERY_S = 15.0
#: a loop that wakes a probe up this late is not answering players in time either
MAX_LATE_S = 5.0
#: seconds a database probe may take before it counts as failed
DB_TIMEOUT_S = 10.0


def default_path() -> str:
    return os.path.join(tempfile.gettempdir(), "tempus-health.json")


class HealthFile:
    """Writes the health file every ``every_s`` seconds. ``gateway``: whether connected;
    ``db``: a coroutine that raises (or returns a reason) when the database cannot take a
    write."""

    def __init__(self, path: str, every_s: float, *, gateway: Callable[[], bool],
                 db: Callable[[], Awaitable[str | None]]) -> None:
        self.path = Path(path)
        self.every_s = every_s
        self.gateway = gateway
        self.db = db
        self.last: dict[str, Any] | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.every_s > 0 and self._task is None:
            self._task = asyncio.create_task(self._run(), name="tempus-health")

    async def probe(self, late_s: float = 0.0) -> dict[str, Any]:
        """Look at every part now and write the file; returns what was written."""
        try:
            why = await asyncio.wait_for(self.db(), DB_TIMEOUT_S)
            db = why or "ok"
        except TimeoutError:
            db = f"no answer in {DB_TIMEOUT_S:.0f} s"
        except Exception as exc:
            db = f"{type(exc).__name__}: {exc}"[:300]
        gateway = bool(self.gateway())
        report = {"ok": gateway and db == "ok" and late_s < MAX_LATE_S, "at": time.time(),
                  "pid": os.getpid(), "gateway": gateway,
                  "loop_late_ms": round(late_s * 1000), "db": db}
        self.last = report
        write_whole(self.path, json.dumps(report))
        return report

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        late = 0.0
        while True:
            try:
                await self.probe(late)
            except Exception:
                log.exception("writing the health file %s failed", self.path)
            due = loop.time() + self.every_s
            await asyncio.sleep(self.every_s)
            late = max(0.0, loop.time() - due)

    async def close(self) -> None:
        await cancel_and_wait(self._task)
        self._task = None
        with contextlib.suppress(OSError):  # a stopped bot is not healthy
            self.path.unlink()


def write_whole(path: Path, text: str) -> None:
    part = path.with_name(f".{path.name}.{os.getpid()}")
    part.write_text(text, encoding="utf-8")
    os.replace(part, path)


def verdict(path: str | Path, max_age_s: float, now: float | None = None) -> tuple[bool, str]:
    """(healthy, what the file says)."""
    try:
        report = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return False, f"no health file at {path} (the bot is not running, or not yet ready)"
    except (OSError, ValueError) as exc:
        return False, f"unreadable health file {path}: {exc}"
    age = (time.time() if now is None else now) - float(report.get("at", 0))
    if age > max_age_s:
        return False, f"the health file is {age:.0f} s old (the bot stopped writing it)"
    problems = []
    if not report.get("gateway"):
        problems.append("not connected to Discord")
    if report.get("db") != "ok":
        problems.append(f"database: {report.get('db')}")
    if float(report.get("loop_late_ms", 0)) >= MAX_LATE_S * 1000:
        problems.append(f"event loop {report.get('loop_late_ms')} ms late")
    if problems or not report.get("ok"):
        return False, "unhealthy: " + ("; ".join(problems) or "see the bot's log")
    return True, f"healthy ({age:.0f} s ago: gateway, event loop, database)"


def main(argv: list[str]) -> int:
    """``python -m bot health [--file F] [--max-age S]``: exit 0 when healthy."""
    every = float(os.environ.get("TEMPUS_HEALTH_EVERY") or DEFAULT_EVERY_S)
    parser = argparse.ArgumentParser(
        prog="python -m bot health",
        description="Whether the running bot is healthy (its health file is fresh and says "
                    "so). Exit status 0: healthy, 1: not.")
    parser.add_argument("--file", default=os.environ.get("TEMPUS_HEALTH_FILE")
                        or default_path(), help="default: $TEMPUS_HEALTH_FILE")
    parser.add_argument("--max-age", type=float, default=4 * every,
                        help="seconds (default: four times $TEMPUS_HEALTH_EVERY)")
    args = parser.parse_args(argv)
    ok, text = verdict(args.file, args.max_age)
    print(text, file=sys.stdout if ok else sys.stderr)
    return 0 if ok else 1
