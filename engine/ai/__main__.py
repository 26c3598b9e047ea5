"""Command line, each printing one JSON object:

* ``python -m engine.ai tournament --players 4 --games 10 --seed 0
  --seats hard,normal,normal,normal``: a fixed line-up (win shares, think times);
* ``python -m engine.ai ladder --players 4 --games 40 --jobs 2``: seeded mixed tables of
  every level, rated with openskill (:mod:`engine.ai.ladder`);
* ``python -m engine.ai summarise --seats hard,normal,normal,normal --seed 0 FILE...``:
  the tournament's JSON from ``--progress`` lines, one game per seed;
* ``python -m engine.ai tune --iterations 400 --out FILE``: tune the planner's weights by
  self-play against ``normal`` (:mod:`engine.ai.tune`); ``tune --write FILE`` turns a
  run's log into ``data/ai/planner.json``; ``tune --fit-leaf FILE`` fits the search's
  leaf value (``data/ai/leaf.json``, :mod:`engine.ai.leaf_value`); ``tune --check`` plays
  the planner with the shipped (or ``--settings``) numbers against three ``normal``;
* ``python -m engine.ai newcomer --games 200 --seed 8000000 --jobs 2``: the scripted
  newcomer (the hint's move every other decision, a random useful move otherwise) against
  two ``easy``: its win share with a Wilson 95 % interval, mean scores, time
  (:mod:`engine.ai.newcomer`)."""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any

from .tournament import tournament


def _lineup(seats: str) -> list[str]:
    """The levels of ``--seats`` (comma-separated), in seat order."""
    return [s.strip() for s in seats.split(",") if s.strip()]


def _tournament(args: argparse.Namespace) -> int:
    lineup = _lineup(args.seats)
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

    lineup = _lineup(args.seats)
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


def _anatomy(args: argparse.Namespace) -> int:
    from .anatomy import anatomy
    lineup = _lineup(args.seats)
    if len(lineup) < 3:
        print(json.dumps({"error": f"--seats must name at least 3 levels, not {len(lineup)}"}))
        return 2
    try:
        out = anatomy(lineup, args.games, args.seed, jobs=args.jobs, budget_s=args.budget,
                      iterations=args.iterations)
    except ValueError as e:
        print(json.dumps({"error": str(e)}))
        return 2
    print(json.dumps(out, indent=1))
    return 0


def _newcomer(args: argparse.Namespace) -> int:
    from .newcomer import bench

    on_result = None
    if args.progress:
        import dataclasses

        def on_result(r: Any) -> None:  # one JSON line per finished game (a dataclass)
            with open(args.progress, "a", encoding="utf-8") as f:
                f.write(json.dumps(dataclasses.asdict(r)) + "\n")

    if args.games < 1:
        print(json.dumps({"error": "--games must be at least 1"}))
        return 2
    out = bench(args.games, args.seed, jobs=args.jobs, budget_s=args.budget,
                iterations=args.iterations, on_result=on_result)
    print(_data_text(out), end="")
    return 0


def _data_text(data: dict[str, Any]) -> str:
    """A computer player's numbers as the JSON kept in ``data/ai/``: one line per list (a
    schedule per era, a model's coefficients), since a reader compares across a row, not
    down a column."""
    text = json.dumps(data, indent=1)
    return re.sub(r"\[\s+([^\[\]]*?)\s+\]", lambda m: "[" + " ".join(m.group(1).split()) + "]",
                  text) + "\n"


def _tune(args: argparse.Namespace) -> int:
    import dataclasses
    from pathlib import Path

    from . import tune
    from .planner import BASE_SETTINGS, SETTINGS, SETTINGS_FILE, load_settings

    if args.fit_leaf:
        value = tune.fit_leaf(args.games, args.seed, jobs=args.jobs)
        Path(args.fit_leaf).write_text(_data_text(value.to_json()), encoding="utf-8")
        print(json.dumps({"written": args.fit_leaf, "about": value.about}))
        return 0
    if args.check:
        settings = load_settings(Path(args.settings)) if args.settings else SETTINGS
        if args.base:
            settings = BASE_SETTINGS
        out = tune.evaluate(settings, args.games, args.seed, jobs=args.jobs)
        print(json.dumps(out))
        return 0
    if args.write:
        with open(args.write, encoding="utf-8") as f:
            theta = tune.average(f.readlines(), args.average, args.until)
        settings = tune.apply_parameters(theta, BASE_SETTINGS)
        which = (f"the {args.average} iterations up to {args.until}" if args.until is not None
                 else f"the last {args.average} iterations")
        data = {"about": f"python -m engine.ai tune: mean of {which} of "
                         f"{Path(args.write).name}",
                **dataclasses.asdict(settings)}
        target = Path(args.settings) if args.settings else SETTINGS_FILE
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_data_text(data), encoding="utf-8")
        print(json.dumps({"written": str(target), "parameters": theta}))
        return 0
    if not args.out:
        print(json.dumps({"error": "tune needs --out FILE (or --write FILE, or --check)"}))
        return 2
    start, first = None, 0
    if args.resume and Path(args.out).exists():
        with open(args.out, encoding="utf-8") as f:
            rows = [json.loads(x) for x in f if x.strip()]
        if rows:
            start, first = rows[-1]["theta"], rows[-1]["iteration"] + 1
    theta = tune.spsa(args.iterations, args.games, args.seed, args.out, jobs=args.jobs,
                      a=args.step, c=args.perturbation, start=start, first_iteration=first,
                      parameters=args.parameters)
    print(json.dumps({"parameters": theta}))
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
    p = sub.add_parser("anatomy", help="where the first level's games are won and lost: "
                                       "its lead by era in wins and losses, actions, "
                                       "points by source (JSON)")
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--seats", default="hard,normal,normal,normal",
                   help="comma-separated levels, one per player; the first is followed")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--budget", type=float, default=None,
                   help="hard: CPU seconds per decision (default: the search's own)")
    p.add_argument("--iterations", type=int, default=None,
                   help="hard: cap on rollouts per decision (default: the search's own)")
    p.set_defaults(func=_anatomy)
    p = sub.add_parser("newcomer", help="the scripted newcomer (hint every other decision, "
                                         "a random useful move otherwise) against two easy: "
                                         "its win share with a Wilson 95 %% interval (JSON)")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=8_000_000)
    p.add_argument("--jobs", type=int, default=1,
                   help="games played in parallel processes (this machine has 2 cores)")
    p.add_argument("--budget", type=float, default=None,
                   help="the hint's seconds per decision (default: the bot's, 1.5)")
    p.add_argument("--iterations", type=int, default=None,
                   help="the hint's cap on rollouts per decision (default: hard's own)")
    p.add_argument("--progress", metavar="FILE",
                   help="append each finished game's result to FILE as a JSON line")
    p.set_defaults(func=_newcomer)
    p = sub.add_parser("tune", help="tune the planner's weights by self-play (SPSA)")
    p.add_argument("--iterations", type=int, default=400)
    p.add_argument("--games", type=int, default=8, help="deals per side per iteration")
    p.add_argument("--seed", type=int, default=100_000,
                   help="first training deal (never the seeds results are reported on)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--step", type=float, default=0.005, help="SPSA's a")
    p.add_argument("--perturbation", type=float, default=0.35, help="SPSA's c")
    p.add_argument("--out", help="append one JSON line per iteration to this file")
    p.add_argument("--resume", action="store_true", help="continue the run in --out")
    p.add_argument("--write", metavar="LOG", help="write the settings from a run's log")
    p.add_argument("--average", type=int, default=100,
                   help="with --write: mean of this many last iterations")
    p.add_argument("--until", type=int, metavar="ITERATION",
                   help="with --write: the averaged iterations end with this one")
    p.add_argument("--parameters", choices=("all", "weights"), default="all",
                   help="what a run tunes: the evaluation's weights only, or also the tactics")
    p.add_argument("--settings", help="settings file to write or check (default: shipped)")
    p.add_argument("--check", action="store_true",
                   help="play the planner against three normal and print its results")
    p.add_argument("--base", action="store_true", help="with --check: the hand-set numbers")
    p.add_argument("--fit-leaf", metavar="FILE",
                   help="fit the search's leaf value to --games games of the planner from "
                        "--seed and write it to FILE (shipped: data/ai/leaf.json)")
    p.set_defaults(func=_tune)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
