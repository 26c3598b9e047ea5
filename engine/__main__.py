"""Command line: ``python -m engine replay RECORD.json``, ``python -m engine verify RECORD.json
--commitment HEX`` (engine/commitment.py) and ``python -m engine simulate``."""

from __future__ import annotations

import argparse
import json
import sys

from .commitment import verify
from .content import CONTENT
from .record import Record, ReplayError, replay
from .simulate import simulate
from .state import OVER


def _replay(args: argparse.Namespace) -> int:
    try:
        record = Record.load(args.record)
    except (OSError, ValueError, KeyError) as exc:
        print(json.dumps({"error": f"cannot read record: {exc}"}))
        return 2
    try:
        state = replay(record)
    except ReplayError as exc:
        print(json.dumps({"error": exc.message, "action_index": exc.index}))
        return 1
    out = {
        "players": state.num_players,
        "rules_version": state.rules_version,
        "options": state.options,
        "actions": len(record.moves),
        "finished": state.phase == OVER,
        "phase": state.phase,
        "eras": [CONTENT.eras[p.era].name for p in state.players],
        "scores": state.scores,
        "winners": state.winners,
    }
    print(json.dumps(out))
    return 0


def _verify(args: argparse.Namespace) -> int:
    """Exit 0 and one line starting ``OK`` when the record keeps the commitment; 1 and
    ``FAILED: why`` when it does not; 2 when the record cannot be read."""
    try:
        record = Record.load(args.record)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"FAILED: cannot read the record: {exc}")
        return 2
    result = verify(record, args.commitment)
    if not result.ok:
        print(f"FAILED: {result.problem}")
        return 1
    drawn = ", ".join(f"seat {s}: {n}" for s, n in sorted(result.drawn.items())) or "none"
    end = (f"the game ends with scores {result.scores}" if result.finished
           else "the game is not over")
    print(f"OK: seed {record.seed} and salt {record.salt} give the commitment "
          f"{args.commitment.strip().lower()} (rules {record.rules_version}); all "
          f"{result.actions} actions replay with the deck and map that seed made "
          f"({sum(result.drawn.values())} cards drawn: {drawn}; "
          f"{result.reshuffles} reshuffles); {end}.")
    if args.draws:
        for index, seat, cards in result.draws:
            names = ", ".join(f"{c} ({CONTENT.card_types[CONTENT.cards[c].type].name})"
                              for c in cards)
            print(f"action {index}: seat {seat} draws {names}")
    return 0


def _simulate(args: argparse.Namespace) -> int:
    print(json.dumps(simulate(args.players, args.games, args.seed, args.record)))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("replay", help="replay a game record and print the outcome as JSON")
    p.add_argument("record")
    p.set_defaults(func=_replay)
    p = sub.add_parser("verify", help="check a finished game's record against the "
                       "commitment published at its start")
    p.add_argument("record")
    p.add_argument("--commitment", required=True, metavar="HEX",
                   help="the SHA-256 shown in the game's start post")
    p.add_argument("--draws", action="store_true",
                   help="also list every card drawn, by action and seat")
    p.set_defaults(func=_verify)
    p = sub.add_parser("simulate", help="play random legal games and print speed as JSON")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--record", metavar="DIR", help="write each game's record here")
    p.set_defaults(func=_simulate)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
