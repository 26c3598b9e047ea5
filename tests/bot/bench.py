"""``python -m tests.bot.bench``: speed of the real bot through the fake Discord.

Plays whole games of three scripted people (random clicks, as in the end-to-end tests)
and prints one JSON line: ``ack_ms_p95`` (interaction received by the fake -> its
acknowledgement), ``post_ms_p50``/``post_ms_p95`` (a click that applied an action -> the
new board image posted in the channel), the slowest ack and counts. Render work runs in
``--workers`` processes as in production (0: threads).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from .e2e import FakePlayer, bot_running, in_process, play_until
from .fake_discord import FakeDiscord, running


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def one_game(fake: FakeDiscord, db: Path, seed: int, workers: int,
                   channel: int) -> tuple[list[float], list[float], int]:
    async with bot_running(fake, db, seed=seed, workers=workers) as bot:
        people = (11, 12, 13)
        await fake.slash(people[0], channel, "new", seats=3)
        for u in people[1:]:
            await fake.slash(u, channel, "join")
        await fake.slash(people[0], channel, "start")
        rng = random.Random(seed)
        players = {u: FakePlayer(fake, u, channel, rng) for u in people}
        await play_until(fake, in_process(bot), channel, players)
    boards = [m for m in fake.channel_messages(channel)
              if any(a.filename == "board.png" for a in m.attachments)]
    posts = []
    for p in players.values():
        for inter in p.applied:
            after = next((m.created for m in boards if m.created >= inter.sent_at), None)
            if after is not None:
                posts.append((after - inter.sent_at) * 1000)
    acks = [(i.acked_at - i.sent_at) * 1000 for i in fake.interactions.values()
            if i.acked_at is not None]
    return acks, posts, sum(len(p.applied) for p in players.values())


async def main_async(games: int, seed: int, workers: int) -> dict[str, object]:
    acks: list[float] = []
    posts: list[float] = []
    actions = 0
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        async with running(channel_ids=tuple(2000 + g for g in range(games))) as fake:
            for g in range(games):
                a, p, n = await one_game(fake, Path(tmp) / "bench.db", seed + g, workers,
                                         2000 + g)
                acks += a
                posts += p
                actions += n
            fake.check()
    return {
        "games": games, "workers": workers, "interactions": len(acks), "actions": actions,
        "ack_ms_p50": round(statistics.median(acks), 1), "ack_ms_p95": round(pct(acks, .95), 1),
        "ack_ms_max": round(max(acks), 1), "acks_over_3s": sum(1 for a in acks if a > 3000),
        "post_ms_p50": round(statistics.median(posts), 1),
        "post_ms_p95": round(pct(posts, .95), 1),
        "seconds": round(time.perf_counter() - t0, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bot.bench", description=__doc__)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1,
                        help="render/AI worker processes (production default 1; 0 = threads)")
    args = parser.parse_args(argv)
    print(json.dumps(asyncio.run(main_async(args.games, args.seed, args.workers))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
