"""``python -m tests.bot.bench_lesson``: what the lesson (``/tempus learn``) costs in
attention, and how long it is.

Plays the whole lesson through the fake Discord with the real bot, once per language: a
person types ``/tempus learn`` and clicks the choice each page asks for (with
``--wrong``, first every other choice of each step once). Prints one JSON line per run:

- ``steps``: the lesson's pages before its end, ``clicks``: the person's clicks (the
  choices asked for, the pages read, and with ``--wrong`` the wrong turns);
- ``threads``: threads the bot opened, ``posts``: new messages in channels and threads,
  ``edits``: edits of messages (each click's page replaces the one clicked), ``boards``:
  board pictures uploaded (posts and edits);
- ``pings``: posts that notify someone (a mention let through), ``dms``: DM messages,
  ``ephemerals``: private replies (the command's answer);
- ``refused``: clicks the fake answered with an error, ``seconds``: wall time.

The lesson is meant to ping nobody and send no DM; its one post is the first page.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from games.tempus.lesson import coach
from tests.bot.e2e import bot_running
from tests.bot.fake_discord import FakeDiscord, Message, running

LEARNER = 11
LANGUAGES = ("en-US", "pl")


def speak(fake: FakeDiscord, locale: str) -> None:
    """Every interaction in ``locale`` (the person's client and the server)."""
    send = fake._dispatch

    async def dispatch(event: str, d: dict[str, Any]) -> int | None:
        if event == "INTERACTION_CREATE":
            d = {**d, "locale": locale, "guild_locale": locale}
        return await send(event, d)

    fake._dispatch = dispatch  # type: ignore[method-assign]


def _arg_of(n: int) -> str:
    _, step = coach.step_at(n)
    return coach.NEXT if step.reading else f"c{coach.choices(step).index(step.do)}"


def _wrong_of(n: int) -> list[str]:
    _, step = coach.step_at(n)
    return [f"c{i}" for i, c in enumerate(coach.choices(step)) if c != step.do]


async def _click(fake: FakeDiscord, msg: Message, arg: str) -> None:
    cid = next(c for c in msg.custom_ids() if c.split(":")[3:] == ["lesson", arg])
    inter = await fake.click(LEARNER, msg, cid)
    await fake.wait_for(lambda: bool(inter.replies), 30)


async def one_run(locale: str, *, wrong: bool) -> dict[str, Any]:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        async with running() as fake, bot_running(fake, Path(tmp) / "t.db"):
            speak(fake, locale)
            ch = fake.channel_ids[0]
            before = len(fake.order)
            await fake.slash(LEARNER, ch, "learn")
            (thread,) = fake.threads_in(ch)
            msg = [m for m in fake.channel_messages(thread.id) if m.components][-1]
            clicks = 0
            for n in range(coach.END):
                if wrong:
                    for arg in _wrong_of(n):
                        await _click(fake, msg, arg)
                        clicks += 1
                await _click(fake, msg, _arg_of(n))
                clicks += 1
            assert "🎓" in fake.messages[msg.id].content, "the lesson did not end"
            sent = fake.order[before:]
            fake.check()
            return {
                "language": locale, "wrong_turns": wrong, "steps": coach.END,
                "clicks": clicks, "threads": len(fake.threads_in(ch)),
                "posts": sum(1 for m in sent if m.public),
                "edits": sum(m.edits for m in fake.order),
                "boards": sum(1 for w in fake.writes() if w.files),
                "pings": sum(1 for m in sent if m.mentions),
                "dms": sum(1 for m in sent if m.where == "dm"),
                "ephemerals": sum(1 for m in sent if m.where == "ephemeral"),
                "refused": len(fake.failures),
                "seconds": round(time.perf_counter() - started, 1),
            }


async def main_async(args: argparse.Namespace) -> list[dict[str, Any]]:
    out = []
    for locale in args.languages:
        result = await one_run(locale, wrong=args.wrong)
        print(json.dumps(result), flush=True)
        out.append(result)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bot.bench_lesson",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--languages", nargs="+", default=list(LANGUAGES))
    parser.add_argument("--wrong", action="store_true",
                        help="take every wrong turn of each step once before the right one")
    args = parser.parse_args(argv)
    asyncio.run(main_async(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
