"""``python -m tests.bot.bench_requests``: where the bot's REST requests go under load.

Runs :func:`tests.bot.bench_load.one_size` unchanged (the real bot process against the fake
Discord) and counts every request the fake receives during the playing window by kind:

- ``turn_post``: a new message with controls in a game's thread (a new turn message);
- ``board_edit``: an edit of the newest message with controls in a thread (the turn
  message) by the channel route (counts towards the global limit);
- ``strip``: an edit of an older message in a thread (controls taken off);
- ``thread_post``: any other post in a thread (notices, results);
- ``dm_post`` / ``dm_edit``: writes in DM channels;
- ``channel_post`` / ``channel_edit``: writes in the games' text channels (lobby, lines);
- ``get_channel``, ``create_dm``, ``get_user``, ``other``: everything else that counts;
- ``ack``, ``hook_post``, ``hook_edit``: interaction callbacks and follow-ups/edits through
  the interaction's webhook (Discord does not count these towards the global limit).

Prints one JSON line per size: the bench's own numbers plus ``requests`` (counts),
``per_action`` (counts over the actions logged in the window) and ``global_per_s`` (the
requests that count towards Discord's global limit, per second of the window).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections import Counter
from typing import Any

from aiohttp import web

from tests.bot import bench_load
from tests.bot.fake_discord import FakeDiscord

EXEMPT = {"ack", "hook_post", "hook_edit"}


class Counting:
    """Counts the fake's requests by kind while ``on`` is set."""

    def __init__(self) -> None:
        self.on = False
        self.counts: Counter[str] = Counter()
        self.refused: Counter[str] = Counter()

    def kind(self, fake: FakeDiscord, method: str, parts: list[str]) -> str:
        match (method, parts):
            case ("POST", ["interactions", *_]):
                return "ack"
            case ("POST", ["webhooks", *_]):
                return "hook_post"
            case ("PATCH" | "GET", ["webhooks", *_]):
                return "hook_edit"
            case ("POST", ["users", "@me", "channels"]):
                return "create_dm"
            case ("GET", ["users", _]):
                return "get_user"
            case ("GET", ["channels", _]):
                return "get_channel"
            case ("POST", ["channels", cid, "messages"]):
                c = int(cid)
                if c in fake.dm_channels:
                    return "dm_post"
                if c in fake.threads:
                    return "thread_post"  # re-labelled turn_post after the answer
                return "channel_post"
            case ("PATCH", ["channels", cid, "messages", mid]):
                c = int(cid)
                if c in fake.dm_channels:
                    return "dm_edit"
                if c in fake.threads:
                    newest = next((m for m in reversed(fake.channel_messages(c))
                                   if m.components), None)
                    return "board_edit" if newest is not None and newest.id == int(mid) \
                        else "strip"
                return "channel_edit"
        return "other"


def install(counting: Counting) -> None:
    """Wrap the fake's REST handler (class-level: the router binds it at start)."""
    original = FakeDiscord._rest

    async def _rest(self: FakeDiscord, request: web.Request) -> web.StreamResponse:
        parts = ("/" + request.match_info["tail"]).strip("/").split("/")
        kind = counting.kind(self, request.method, parts) if counting.on else ""
        resp = await original(self, request)
        if counting.on:
            if resp.status == 429:
                counting.refused[kind] += 1
            else:
                if kind == "thread_post":
                    with_controls = next((m for m in reversed(
                        self.channel_messages(int(parts[1]))) if m.components), None)
                    newest = self.channel_messages(int(parts[1]))[-1:]
                    if with_controls is not None and newest and with_controls is newest[0]:
                        kind = "turn_post"
                counting.counts[kind] += 1
        return resp

    # on purpose: the counter wraps the fake's handler for the bench's whole process
    FakeDiscord._rest = _rest  # type: ignore[method-assign]


def window(counting: Counting) -> None:
    """Count only during the bench's playing window: from the first ``Table.play`` until
    the last one returns (what the bench's ``window_s`` and ``actions`` cover)."""
    original = bench_load.Table.play
    playing = [0]

    async def play(self: bench_load.Table, pace: bench_load.Pace, until: float) -> None:
        playing[0] += 1
        counting.on = True
        try:
            await original(self, pace, until)
        finally:
            playing[0] -= 1
            if playing[0] == 0:
                counting.on = False

    # on purpose: the window wraps the load bench's tables for the whole process
    bench_load.Table.play = play  # type: ignore[method-assign]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bot.bench_requests",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="100", help="sizes, comma-separated")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--people-think", default="1-3")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fast", action="store_true")
    args = parser.parse_args(argv)
    lo, _, hi = args.people_think.partition("-")
    think = (float(lo), float(hi or lo))
    counting = Counting()
    install(counting)
    window(counting)
    for n in (int(x) for x in args.games.split(",")):
        counting.counts.clear()
        counting.refused.clear()
        result: dict[str, Any] = asyncio.run(bench_load.one_size(
            n, bench_load.Shape("sqlite", 1), args.seconds, think,
            0.5 if args.fast else 5.0, args.seed, max(2, n // 10), 30.0,
            warmup=min(20.0, args.seconds / 3)))
        actions = max(1, int(result["actions"]))
        counted = sum(v for k, v in counting.counts.items() if k not in EXEMPT)
        result["requests"] = dict(counting.counts.most_common())
        result["requests_refused"] = dict(counting.refused)
        result["per_action"] = {k: round(v / actions, 2)
                                for k, v in counting.counts.most_common()}
        result["global_per_action"] = round(counted / actions, 2)
        result["global_per_s"] = round(counted / float(result["window_s"]), 1)
        print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
