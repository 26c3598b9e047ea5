"""``python -m tests.bot.bench``: speed of the real bot through the fake Discord.

Plays whole games of three scripted people (random clicks, as in the end-to-end tests)
against a fake Discord that enforces Discord's real per-channel buckets (5 posts and 5
edits per 5 s; ``--fast`` runs them ten times faster, as the tests do) and prints one JSON
line:

- ``ack_ms_p50``/``ack_ms_p95``/``ack_ms_max``: interaction received by the fake -> its
  acknowledgement; ``acks_over_3s`` counts the ones Discord would have refused;
- ``update_ms_p50``/``update_ms_p95``: a click that applied an action -> the next write
  (the turn message edited, or a new one posted) in the game's thread;
- ``posts``/``edits``: writes to public messages in the game's thread and its channel, by
  either route (the channel's, or a click's interaction token carrying the board; private
  replies are not counted), ``carried`` how many of them went by token, ``per_game`` the
  same counts game by game, ``posts_per_turn`` (turns and phases counted by replaying the game
  record with ``engine.undo.turn_key``), ``max_posts_5s``/``max_edits_5s`` (the busiest
  bucket period in any channel: Discord counts posts and edits in buckets of their own)
  ``max_writes_5s`` (all public writes of both routes in any 5 s sliding window, busiest
  channel: the issue's measure; posts, edits and carried writes have buckets of their own,
  so it may exceed 5 without a 429) and ``rate_limited`` (429s the fake answered).

Render work runs in ``--workers`` processes as in production (0: threads).

With any of the load options (``--backend``, ``--db``, ``--processes``, ``--people-think``,
``--compare``, ``--seconds``) it runs the load bench instead (``tests.bot.bench_load``: N
games at once, one scripted person and two computers each, SQLite or PostgreSQL, one or
several sharded processes), so the commands the issues name work as written. With
``--attention`` it runs the attention bench instead (``tests.bot.bench_attention``: pings,
DMs and private replies per person, thread posts, edits and boards per game).
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
from dataclasses import dataclass
from pathlib import Path

from tests.bot.e2e import (
    FakePlayer,
    bot_running,
    final_record,
    in_process,
    play_channel,
    play_until,
    turns_in,
)
from tests.bot.fake_discord import FakeDiscord, running
from tests.bot.fake_ratelimit import EDIT, POST


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


@dataclass(frozen=True)
class GameNumbers:
    """One game's measurements: the acknowledgements' and updates' times (ms) and counts."""

    acks: list[float]
    updates: list[float]
    actions: int
    posts: int
    edits: int
    carried: int
    turns: int
    max_writes_5s: int

    def counts(self) -> dict[str, int]:
        return {"actions": self.actions, "posts": self.posts, "edits": self.edits,
                "carried": self.carried, "turns": self.turns}


async def one_game(fake: FakeDiscord, db: Path, seed: int, workers: int,
                   channel: int, period: float) -> GameNumbers:
    async with bot_running(fake, db, seed=seed, workers=workers) as bot:
        people = (11, 12, 13)
        await fake.slash(people[0], channel, "new", seats=3)
        for u in people[1:]:
            await fake.slash(u, channel, "join")
        await fake.slash(people[0], channel, "start")
        rng = random.Random(seed)
        players = {u: FakePlayer(fake, u, channel, rng) for u in people}
        await play_until(fake, in_process(bot), channel, players)
    thread = play_channel(fake, channel)
    writes = sorted(w.t for w in fake.public_writes(thread))
    updates = []
    for p in players.values():
        for inter in p.applied:
            after = next((t for t in writes if t >= inter.sent_at), None)
            if after is not None:
                updates.append((after - inter.sent_at) * 1000)
    acks = [(i.acked_at - i.sent_at) * 1000 for i in fake.interactions.values()
            if i.acked_at is not None]
    public = [w for c in dict.fromkeys((channel, thread)) for w in fake.public_writes(c)]
    return GameNumbers(
        acks=acks, updates=updates,
        actions=sum(len(p.applied) for p in players.values()),
        posts=sum(w.kind == POST for w in public),
        edits=sum(w.kind == EDIT for w in public),
        carried=sum(w.interaction for w in public),
        turns=turns_in(final_record(fake, channel)),
        max_writes_5s=max(_busiest([w.t for w in public if w.channel_id == c], period)
                          for c in (channel, thread)),
    )


def _busiest(times: list[float], window: float) -> int:
    """The most of ``times`` in any ``window`` seconds (sliding)."""
    times = sorted(times)
    return max((sum(1 for u in times if t <= u < t + window) for t in times), default=0)


async def main_async(games: int, seed: int, workers: int, period: float) -> dict[str, object]:
    acks: list[float] = []
    updates: list[float] = []
    totals = {"actions": 0, "posts": 0, "edits": 0, "carried": 0, "turns": 0}
    per_game: list[dict[str, object]] = []
    busiest_any = 0
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        async with running(channel_ids=tuple(2000 + g for g in range(games)),
                           post_per=period, edit_per=period, webhook_per=period * 0.4) as fake:
            for g in range(games):
                one = await one_game(fake, Path(tmp) / "bench.db", seed + g, workers, 2000 + g,
                                     period)
                acks += one.acks
                updates += one.updates
                for k, n in one.counts().items():
                    totals[k] += n
                per_game.append({**one.counts(), "max_writes_5s": one.max_writes_5s})
                busiest_any = max(busiest_any, one.max_writes_5s)
            fake.check()
            busiest = {k: fake.max_writes_5s(window=period, kinds=(k,)) for k in ("post", "edit")}
            refused = fake.rate_limited()
    return {
        "games": games, "workers": workers, "bucket_s": period,
        "interactions": len(acks), **totals,
        "ack_ms_p50": round(statistics.median(acks), 1), "ack_ms_p95": round(pct(acks, .95), 1),
        "ack_ms_max": round(max(acks), 1), "acks_over_3s": sum(1 for a in acks if a > 3000),
        "update_ms_p50": round(statistics.median(updates), 1),
        "update_ms_p95": round(pct(updates, .95), 1),
        "posts_per_turn": round(totals["posts"] / max(1, totals["turns"]), 2),
        "posts_per_action": round(totals["posts"] / max(1, totals["actions"]), 2),
        "max_posts_5s": busiest["post"], "max_edits_5s": busiest["edit"],
        "max_writes_5s": busiest_any, "rate_limited": refused, "per_game": per_game,
        "seconds": round(time.perf_counter() - t0, 1),
    }


LOAD_OPTIONS = ("--backend", "--db", "--processes", "--people-think", "--compare", "--seconds")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--attention" in argv:
        from tests.bot import bench_attention
        return bench_attention.main([a for a in argv if a != "--attention"])
    if any(a.split("=", 1)[0] in LOAD_OPTIONS for a in argv):
        from tests.bot import bench_load
        return bench_load.main(argv)
    parser = argparse.ArgumentParser(prog="python -m tests.bot.bench", description=__doc__)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1,
                        help="render/AI worker processes (production default 1; 0 = threads)")
    parser.add_argument("--fast", action="store_true",
                        help="Discord's buckets ten times faster (5 writes per 0.5 s), as in the "
                             "tests; the bot paces itself to the same period")
    args = parser.parse_args(argv)
    period = 0.5 if args.fast else 5.0
    print(json.dumps(asyncio.run(main_async(args.games, args.seed, args.workers, period))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
