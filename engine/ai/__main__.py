"""Command line: ``python -m engine.ai tournament --players 4 --games 10 --seed 0
--seats hard,normal,normal,normal`` prints one JSON object (win shares, think times)."""

from __future__ import annotations

import argparse
import json
import sys

from .tournament import tournament


def _tournament(args: argparse.Namespace) -> int:
    lineup = [s.strip() for s in args.seats.split(",") if s.strip()]
    if len(lineup) != args.players:
        print(json.dumps({"error": f"--seats names {len(lineup)} levels for "
                                   f"{args.players} players"}))
        return 2
    try:
        out = tournament(lineup, args.games, args.seed, jobs=args.jobs, budget_s=args.budget,
                         iterations=args.iterations, random_map=not args.place_tiles)
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
                   help="hard: seconds per decision (default: the search's own)")
    p.add_argument("--iterations", type=int, default=None,
                   help="hard: cap on rollouts per decision (makes it deterministic)")
    p.add_argument("--place-tiles", action="store_true",
                   help="players place the map tiles (default: a random map, as the bot)")
    p.set_defaults(func=_tournament)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
