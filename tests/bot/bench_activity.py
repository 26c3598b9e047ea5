"""``python -m tests.bot.bench_activity``: what opening the page inside Discord costs.

Against the fake Discord on this machine (its rate limits off), ``--sign-ins`` people
open the Activity of a running game one after another: each sign-in is the page's one
request (``POST /api/activity``) and the server's three questions to Discord (the code
exchanged, the person, the instance) with the access token revoked after. Prints the
server's own time per sign-in (p50, p95: real Discord adds its round trips) and the calls
to Discord each one made, as one JSON object. Numbers only: nothing here is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from typing import Any

import aiohttp

from tests.bot.fake_discord import running
from tests.bot.web.rig import BOB, new_game, rig

CHANNEL, GUILD = 10, 1


async def measure(sign_ins: int) -> dict[str, Any]:
    async with running(rate_limits=False) as fake:
        fake.enable_activities()
        async with rig(discord=fake) as r:
            await new_game(r, channel=CHANNEL)
            server = r.front.server
            assert server is not None
            for limit in (server.senders, server.sign_ins):  # one sender, as fast as it can
                limit.rate = limit.burst = float(sign_ins)
            iid = fake.activity_instance(CHANNEL, GUILD, [BOB])
            calls_before = sum(fake.requests.values())
            times = []
            async with aiohttp.ClientSession() as s:
                for _ in range(sign_ins):
                    body = {"code": fake.authorize(BOB), "instance": iid}
                    t0 = time.perf_counter()
                    async with s.post(r.base + "/api/activity", json=body) as resp:
                        await resp.read()
                        if resp.status != 200:
                            raise SystemExit(f"a sign-in was refused: {resp.status}")
                    times.append(time.perf_counter() - t0)
            activity = r.front.activity
            assert activity is not None
            await activity.close()  # (the revocations still under way)
            calls = sum(fake.requests.values()) - calls_before
    times.sort()
    return {"sign_ins": sign_ins,
            "server_ms_p50": round(times[len(times) // 2] * 1000, 2),
            "server_ms_p95": round(times[int(len(times) * 0.95)] * 1000, 2),
            "discord_calls_per_sign_in": round(calls / sign_ins, 2),
            "revoked": fake.revoked}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bot.bench_activity",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sign-ins", type=int, default=200,
                        help="sign-ins timed (default 200)")
    args = parser.parse_args(argv)
    print(json.dumps(asyncio.run(measure(args.sign_ins))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
