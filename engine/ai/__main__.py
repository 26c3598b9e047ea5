"""Command line, each printing one JSON object:

* ``python -m engine.ai tournament --players 4 --games 10 --seed 0
  --seats hard,normal,normal,normal``: a fixed line-up (win shares, think times);
* ``python -m engine.ai ladder --players 4 --games 40 --jobs 2``: seeded mixed tables of
  every level, rated with openskill (:mod:`engine.ai.ladder`);
* ``python -m engine.ai summarise --seats hard,normal,normal,normal --seed 0 FILE...``:
  the tournament's JSON from ``--progress`` lines, one game per seed."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .tournament import tournament


def _tournament(args: argparse.Namespace) -> int:
    lineup = [s.strip() for s in args.seats.split(",") if s.strip()]
    if len(lineup) != args.players:
        print(json.dumps({"error": f"--seats names {len(lineup)} levels for "
                                   f"{args.players} players"}))
        return 2
    on_result = None
    if args.progress:
        import dataclasses

        def on_result(r: Any) -> None:  # one JSON line per finished game (a dataclass)
            with open(args.progress, "a", encoding="utf-8") as f:
                f.write(json.dumps(dataclasses.asdict(r)) + "\n")

    try:
        out = tournament(lineup, args.games, args.seed, jobs=args.jobs, budget_s=args.budget,
                         iterations=args.iterations, random_map=not args.place_tiles,
                         on_result=on_result)
    except ValueError as exc:
        print(json.dumps({"error": str(exc)}))
        return 2
    print(json.dumps(out))
    return 0


def _summarise(args: argparse.Namespace) -> int:
    from .tournament import merge_progress, summarise

    lineup = [s.strip() for s in args.seats.split(",") if s.strip()]
    lines: list[str] = []
    for name in args.files:
        with open(name, encoding="utf-8") as f:
            lines.extend(f)
    try:
        results, twice = merge_progress(lines)
    except ValueError as exc:
        print(json.dumps({"error": str(exc)}))
        return 2
    out = summarise(lineup, results, args.seed, budget_s=args.budget,
                    iterations=args.iterations)
    out["games_played_twice"] = twice
    print(json.dumps(out))
    return 0


def _ladder(args: argparse.Namespace) -> int:
    from .ladder import ladder

    try:
        players = [int(x) for x in str(args.players).split(",") if x.strip()]
        levels = [s.strip() for s in args.levels.split(",") if s.strip()]
        out = ladder(players, args.games, args.seed, jobs=args.jobs, budget_s=args.budget,
                     iterations=args.iterations, levels=levels)
    except ValueError as exc:
        print(json.dumps({"error": str(exc)}))
        return 2
    print(json.dumps(out))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.ai", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("tournament", help="play computer-only games and print JSON results")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--seats", default="normal,normal,normal,normal",
                   help="comma-separated levels, one per player (easy, normal, hard, random)")
    p.add_argument("--jobs", type=int, default=1,
                   help="games played in parallel processes (this machine has 2 cores)")
    p.add_argument("--budget", type=float, default=None,
                   help="hard: CPU seconds per decision (default: the search's own)")
    p.add_argument("--iterations", type=int, default=None,
                   help="hard: cap on rollouts per decision (default: the search's own)")
    p.add_argument("--progress", metavar="FILE",
                   help="append each finished game's result to FILE as a JSON line")
    p.add_argument("--place-tiles", action="store_true",
                   help="players place the map tiles (default: a random map, as the bot)")
    p.set_defaults(func=_tournament)
    p = sub.add_parser("summarise", help="a tournament's JSON from its --progress lines "
                                         "(one run, or games shared out between processes)")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--seats", default="normal,normal,normal,normal")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--budget", type=float, default=None, help="recorded only")
    p.add_argument("--iterations", type=int, default=None, help="recorded only")
    p.set_defaults(func=_summarise)
    p = sub.add_parser("ladder", help="seeded mixed tables of every level, rated (JSON)")
    p.add_argument("--players", default="4",
                   help="seats per table, or a comma-separated list used in turn (3,4,5)")
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--levels", default="random,easy,normal,hard")
    p.add_argument("--budget", type=float, default=None,
                   help="hard: seconds per decision (results then depend on the machine)")
    p.add_argument("--iterations", type=int, default=None,
                   help="hard: rollouts per decision (default: hard's own cap; without "
                        "--budget no clock, so reproducible)")
    p.set_defaults(func=_ladder)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
