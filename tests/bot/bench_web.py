"""``python -m tests.bot.bench_web``: the live pages' costs.

- **First load**: the bytes a phone downloads to show a seat's page mid-game (the page,
  its script and style, its first state with the map), as sent (gzip).
- **Push time**: from an accepted action (committed: stored) to its state arriving on
  every page open on its game, with ``--games`` games of three people and a page open for
  every seat and ``--watchers`` watching pages each (p50 and p95 over ``--actions``
  actions, made through the table service as clicks are). The pages are streams read by
  a client in another process, so the bot's process does only the bot's work.
- **Memory and CPU per open page**: the bot's process's resident memory with
  ``--pages`` more pages open on one game, per page (and the Python objects still alive
  for them once their first state is written: the page, its stream, its connection), its
  CPU while they are open and idle and for one push to all of them; the CPU an action
  costs with the pages open and with none (what the pages add to each action).

- **Taps against clicks**: in whole games of computer players, the taps a Move, a Growth
  and a fight take on the page, against the clicks the same choices take in Discord.

Prints one JSON object. Numbers only: nothing here is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import random
import resource
import subprocess
import sys
import time
import tracemalloc
from typing import Any

import aiohttp

from bot.table.model import Outcome
from engine import actions as A
from engine.ai import choose_action
from engine.ai.spent_steps import end_of_spent_step
from engine.game import apply_in_place, decision_for, decisions
from engine.legal import legal_actions
from engine.setup import new_game as new_engine_game
from engine.views import view
from lang.i18n import using
from tests.bot.web.rig import Rig, in_actions, new_game, play_until, rig

#: the client: opens the streams it is given and reports when each state arrived
CLIENT = r"""
import asyncio, json, sys, time
import aiohttp

async def main():
    job = json.loads(sys.stdin.readline())
    base, tokens = job["base"], job["tokens"]
    seen = []
    ready = 0
    async def page(game, token, session):
        nonlocal ready
        headers = {"Authorization": "Bearer " + token}
        async with session.get(base + "/api/stream?v=-1&map=", headers=headers,
                               timeout=aiohttp.ClientTimeout(total=None)) as resp:
            first = True
            async for line in resp.content:
                if line.startswith(b"data: "):
                    at = time.time()
                    data = json.loads(line[6:])
                    if first:
                        first = False
                        ready += 1
                        if ready == len(tokens):
                            print("ready", flush=True)
                        continue
                    seen.append((game, data["state"]["v"], at))
    conn = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=conn) as session:
        tasks = [asyncio.create_task(page(g, t, session)) for g, t in tokens]
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps(seen), flush=True)

asyncio.run(main())
"""


def _rss_kb() -> int:
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _cpu() -> float:
    return time.process_time()


async def first_load(r: Rig, game: int) -> dict[str, int]:
    table = await r.table(game)
    seat = min(table.since)
    uid = table.seats[seat].user_id
    assert uid is not None
    token = r.token(game, seat, uid)
    sizes: dict[str, int] = {}
    headers = {"Accept-Encoding": "gzip"}
    async with aiohttp.ClientSession(auto_decompress=False) as s:
        for name, path, auth in (("page", "/", False), ("script", "/static/app.js", False),
                                 ("style", "/static/app.css", False),
                                 ("state", "/api/state", True)):
            h = {**headers, **({"Authorization": f"Bearer {token}"} if auth else {})}
            async with s.get(r.base + path, headers=h) as resp:
                body = await resp.read()
                sizes[name] = len(body)
                if name == "state":
                    sizes["state_raw"] = len(gzip.decompress(body)) \
                        if resp.headers.get("Content-Encoding") == "gzip" else len(body)
    sizes["total"] = sizes["page"] + sizes["script"] + sizes["style"] + sizes["state"]
    return sizes


class Client:
    """The pages, in another process."""

    def __init__(self, base: str, tokens: list[tuple[int, str]]) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", CLIENT], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"base": base, "tokens": tokens}) + "\n")
        self.proc.stdin.flush()

    async def ready(self) -> None:
        assert self.proc.stdout is not None
        line = await asyncio.to_thread(self.proc.stdout.readline)
        assert line.strip() == "ready", line

    async def close(self) -> list[tuple[int, int, float]]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("\n")
        self.proc.stdin.flush()
        out = await asyncio.to_thread(self.proc.stdout.readline)
        self.proc.wait()
        return [(int(g), int(v), float(at)) for g, v, at in json.loads(out)]


async def act_randomly(r: Rig, games: list[int], n: int, rng: random.Random) -> int:
    """``n`` actions of the people deciding, through the table service as clicks."""
    done = 0
    while done < n:
        g = rng.choice(games)
        table = await r.table(g)
        people = sorted(s for s in table.since if not table.seats[s].is_ai)
        if table.game.status != "active" or not people:
            continue
        seat = rng.choice(people)
        uid = table.seats[seat].user_id
        assert uid is not None
        legal = await r.service.play.legal(g, uid)
        if not legal:
            continue
        await r.service.play.act(g, uid, rng.choice(legal), table.version)
        done += 1
        await asyncio.sleep(0.01)  # people do not all act at once: let the pushes go out
    return done


def _pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


async def bench(games_n: int, actions: int, watchers: int, pages: int, seed: int
                ) -> dict[str, Any]:
    rng = random.Random(seed)
    out: dict[str, Any] = {"games": games_n, "actions": actions, "watchers_per_game": watchers}
    async with rig(max_pages=games_n * (3 + watchers) + pages + 10) as r:
        games = []
        for i in range(games_n):
            g = await new_game(r, seed=seed + i, channel=10 + i)
            await play_until(r, g, in_actions, seed=seed + i)
            games.append(g)
        out["first_load_bytes"] = await first_load(r, games[0])
        commits: dict[tuple[int, int], float] = {}

        def committed(o: Outcome) -> None:
            # the wall clock at the commit (perf_counter's committed_at, moved to it)
            commits[(o.game_id, o.version)] = time.time() - (time.perf_counter()
                                                              - o.committed_at)

        r.service.announcer.listeners.append(committed)
        tokens: list[tuple[int, str]] = []
        for g in games:
            table = await r.table(g)
            for s in table.seats:
                assert s.user_id is not None
                tokens.append((g, r.token(g, s.seat, s.user_id)))
            tokens += [(g, r.token(g, None, 900 + k)) for k in range(watchers)]
        rss0 = _rss_kb()
        client = Client(r.base, tokens)
        await client.ready()
        out["open_pages"] = len(tokens)
        out["rss_kb_per_page_live"] = round((_rss_kb() - rss0) / len(tokens), 1)
        cpu0 = _cpu()
        done = await act_randomly(r, games, actions, rng)
        await r.service.idle()
        await asyncio.sleep(0.5)
        cpu_with = (_cpu() - cpu0) / done
        seen = await client.close()
        delays = []
        for g, v, at in seen:
            t0 = commits.get((g, v))
            if t0 is not None:
                delays.append((at - t0) * 1000)
        out["push_ms"] = {"pages_told": len(delays), "p50": round(_pct(delays, 0.5), 1),
                          "p95": round(_pct(delays, 0.95), 1),
                          "max": round(max(delays), 1) if delays else None}
        cpu0 = _cpu()
        done = await act_randomly(r, games, actions, rng)
        await r.service.idle()
        cpu_without = (_cpu() - cpu0) / done
        out["cpu_ms_per_action"] = {"pages_open": round(cpu_with * 1000, 2),
                                    "no_pages": round(cpu_without * 1000, 2)}
        # many idle pages on one game: memory and CPU per page
        table = await r.table(games[0])
        one = [(games[0], r.token(games[0], None, 5000 + k)) for k in range(pages)]
        rss0 = _rss_kb()
        tracemalloc.start()
        heap0 = tracemalloc.get_traced_memory()[0]
        client = Client(r.base, one)
        await client.ready()
        await asyncio.sleep(0.5)
        rss1 = _rss_kb()
        heap1 = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        cpu0 = _cpu()
        await asyncio.sleep(5)
        idle_cpu = _cpu() - cpu0
        # one change pushed to all of them
        cpu0 = _cpu()
        await act_randomly(r, [games[0]], 1, rng)
        await r.service.idle()
        await asyncio.sleep(1.0)
        push_cpu = _cpu() - cpu0
        seen = await client.close()
        out["one_game_pages"] = {
            "pages": pages, "rss_kb_per_page": round((rss1 - rss0) / pages, 1),
            "live_heap_kb_per_page": round((heap1 - heap0) / 1024 / pages, 1),
            "idle_cpu_ms_per_page_per_s": round(idle_cpu * 1000 / pages / 5, 4),
            "cpu_ms_per_page_for_one_push": round(push_cpu * 1000 / pages, 3),
            "pushed": len(seen)}
    return out


# ---------------------------------------------------------------- taps against clicks
def page_taps(state: Any, seat: int, action: Any, following: list[Any]) -> tuple[int, int]:
    """The taps the page needs for ``action`` (the seat's next ones are ``following``), and
    how many of those next actions the same taps also make (a Move begun with its first
    token, a last token that also ends it)."""
    from games.registry import game

    web = game("tempus").web
    assert web is not None
    legal = legal_actions(state, seat)
    c = web.choices(state, seat, legal, "en")
    assert c is not None
    if c["cards"] is not None and hasattr(action, "cards"):
        return (len(action.cards) + 1 if action.cards else 1), 0
    want = [action, *following]
    best: tuple[int, int] | None = None
    for kind in ("pairs", "spots", "buttons"):
        for option in c[kind]:
            steps = web.actions({"steps": option["steps"]})
            if steps[0] != action:
                continue
            # what the page shows while this option is (the card plays apart, behind a
            # "Play a card" button: one tap more), as app.js does
            card = option["tone"] == "card"
            shown = {k: [o for o in c[k] if (o["tone"] == "card") == card]
                     for k in ("pairs", "spots")}
            sources = {p["from"] for p in shown["pairs"]}
            if kind == "pairs":
                same = [p for p in shown["pairs"] if (p["from"], p["to"]) ==
                        (option["from"], option["to"])]
                taps = 2 + (len(same) > 1)
            elif kind == "spots":
                here = [s for s in shown["spots"] if s["at"] == option["at"]]
                taps = 1 if len(here) == 1 and option["at"] not in sources else 2
            else:
                taps = 1
            taps += card
            # a step that also ends its action while the player goes on (a card first):
            # the same taps in another order, nothing more made by them
            folded = len(steps) - 1 if steps == want[:len(steps)] else 0
            found = (taps, folded)
            if best is None or found[0] - found[1] < best[0] - best[1]:
                best = found
    assert best is not None, action
    return best


def taps(games: int, seed: int) -> dict[str, Any]:
    """Whole games of ``normal`` players: the taps a Move, a Growth and a fight take on
    the page against the clicks in Discord (tests.bot.bench_clicks: a select's choice is
    one click there, though a phone needs two touches for it)."""
    from tests.bot import bench_clicks as bc

    sums: dict[str, list[int]] = {k: [0, 0, 0] for k in ("move", "growth", "fight")}
    for g in range(games):
        state, _ = new_engine_game(3, seed + g, random_map=True)
        plan: list[tuple[int, Any]] = []
        owed = 0
        while decisions(state) and len(plan) < 4000:  # the game's decisions, in order
            d = decisions(state)[0]
            spent = end_of_spent_step(state, d.seat)
            if spent is not None:
                action: Any = spent
            else:
                action = choose_action(view(state, d.seat), "normal", seed * 100_003 + owed)
                owed += 1
            plan.append((d.seat, action))
            apply_in_place(state, d.seat, action)
        state, _ = new_engine_game(3, seed + g, random_map=True)
        current: str | None = None
        skip_page = skip_discord = 0
        for i, (seat, action) in enumerate(plan):
            kind = ("move" if isinstance(action, A.BeginMove) else
                    "growth" if isinstance(action, A.BeginGrow) else
                    "fight" if isinstance(action, A.Attack) else None)
            if kind is not None:
                current = kind
                sums[kind][2] += 1
            if current is not None:
                following = [a for s, a in plan[i + 1:i + 3] if s == seat]
                if skip_page:
                    skip_page -= 1
                else:
                    n, skip_page = page_taps(state, seat, action, following)
                    sums[current][0] += n
                if skip_discord:
                    skip_discord -= 1
                else:
                    after = state.copy()
                    apply_in_place(after, seat, action)
                    then_end = (decision_for(after, seat) is not None
                                and after.stage in ("move", "grow")
                                and end_of_spent_step(after, seat) is not None)
                    n, ends = bc.clicks(state, seat, bc._owner_panel(state, seat), action,
                                        then_end)
                    sums[current][1] += n
                    skip_discord = int(ends)
            apply_in_place(state, seat, action)
            if current is not None and (
                    isinstance(action, (A.EndMove, A.EndGrow))
                    or (current == "fight" and state.combat is None)
                    or (current != "fight" and state.stage not in ("move", "grow"))):
                current = None
    return {k: {"actions": n, "page_taps": round(p / n, 2) if n else None,
                "discord_clicks": round(d / n, 2) if n else None}
            for k, (p, d, n) in sums.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bot.bench_web",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="live games (default 100)")
    parser.add_argument("--actions", type=int, default=300,
                        help="actions timed (default 300)")
    parser.add_argument("--watchers", type=int, default=1,
                        help="watching pages per game besides its seats' (default 1)")
    parser.add_argument("--pages", type=int, default=1000,
                        help="pages open on one game for memory and CPU (default 1000)")
    parser.add_argument("--taps", type=int, default=4, metavar="GAMES",
                        help="games of computers whose Moves, Growths and fights are counted "
                             "in taps and clicks (default 4; 0: none)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    result: dict[str, Any] = {}
    if args.taps:
        with using("en"):
            result["taps_against_clicks"] = taps(args.taps, args.seed)
    if args.games:
        result.update(asyncio.run(bench(args.games, args.actions, args.watchers, args.pages,
                                        args.seed)))
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
