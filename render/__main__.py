"""Command line: board and hand images from game records, and the render benchmark.

    python -m render board RECORD.json [--at N] [--highlight C4,D5] [--last-move auto]
                                       [--full] [--lang en] --out board.png
    python -m render crop RECORD.json --hexes C4 [--highlight D4,D5] [--at N] --out crop.png
    python -m render hand RECORD.json --seat S [--at N] [--lang en] --out hand.png
    python -m render describe RECORD.json [--at N] [--lang en]
    python -m render bench [--renders 100] [--players 5] [--seed 11] [--maps 100]
    python -m render samples [--out docs/] [--record game.json]
    python -m render replay [RECORD.json] --out replay.gif  # the whole game, animated
    python -m render chart RECORD.json --out chart.png      # era track and VP by era
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine import view
from engine.content import CONTENT
from engine.hexgrid import NEIGHBOURS, parse_label
from engine.record import Record, ReplayError

from .alt_text import board_alt_text, describe_position
from .board import render_board, render_crop
from .hand import render_hand
from .overlays import ATTACK
from .positions import midgame, move_targets, position, recent_move


def _hexes(text: str) -> tuple[int, ...]:
    return tuple(parse_label(t) for t in text.split(",") if t.strip())


def _last_move(text: str, auto: tuple[int, ...] | None) -> tuple[int, ...] | None:
    """``auto`` (from the record), ``none``, ``C4``, ``C4,D5`` or ``C4,D5,attack``."""
    t = text.strip().lower()
    if t == "auto":
        return auto
    if t == "none":
        return None
    parts = [p for p in t.split(",") if p.strip()]
    attack = parts[-1].strip() == "attack"
    if attack:
        parts = parts[:-1]
    hexes = tuple(parse_label(p) for p in parts)
    return hexes + (ATTACK,) if attack else hexes


def _load(path: str) -> Record:
    try:
        return Record.load(path)
    except (OSError, ValueError, KeyError) as exc:
        raise SystemExit(f"cannot read record {path}: {exc}") from None


def _board(args: argparse.Namespace) -> int:
    record = _load(args.record)
    try:
        state, auto = position(record, args.at)
        v = view(state, None)
        png = render_board(v, _hexes(args.highlight), _last_move(args.last_move, auto),
                           full=args.full, lang=args.lang)
    except (ValueError, ReplayError) as exc:
        print(json.dumps({"error": str(exc)}))
        return 1
    Path(args.out).write_bytes(png)
    print(json.dumps({"out": args.out, "bytes": len(png), "phase": state.phase,
                      "alt": board_alt_text(v, None, args.lang)}, ensure_ascii=False))
    return 0


def _crop(args: argparse.Namespace) -> int:
    record = _load(args.record)
    try:
        state, _ = position(record, args.at)
        png = render_crop(view(state, None), _hexes(args.hexes), _hexes(args.highlight),
                          lang=args.lang)
    except (ValueError, ReplayError) as exc:
        print(json.dumps({"error": str(exc)}))
        return 1
    Path(args.out).write_bytes(png)
    print(json.dumps({"out": args.out, "bytes": len(png)}))
    return 0


def _describe(args: argparse.Namespace) -> int:
    record = _load(args.record)
    try:
        state, _ = position(record, args.at)
    except (ValueError, ReplayError) as exc:
        print(json.dumps({"error": str(exc)}))
        return 1
    print("\n".join(describe_position(view(state, None), args.lang)))
    return 0


def _hand(args: argparse.Namespace) -> int:
    record = _load(args.record)
    try:
        state, _ = position(record, args.at)
        if not 0 <= args.seat < state.num_players:
            raise ValueError(f"--seat must be between 0 and {state.num_players - 1}")
        png = render_hand(view(state, args.seat), args.lang)
    except (ValueError, ReplayError) as exc:
        print(json.dumps({"error": str(exc)}))
        return 1
    Path(args.out).write_bytes(png)
    print(json.dumps({"out": args.out, "bytes": len(png),
                      "cards": len(state.players[args.seat].hand)}))
    return 0


def _bench(args: argparse.Namespace) -> int:
    from .bench import main

    main(args.renders, args.players, args.seed, args.maps)
    return 0


def _samples(args: argparse.Namespace) -> int:
    """The images in docs/: a computer-played 5-player game in era 6 (the board, a
    move menu's crop and a hand)."""
    state, record = midgame(5, args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    v = view(state, None)
    targets = move_targets(state)
    board = render_board(v, targets, recent_move(record))
    (out / "board-sample.png").write_bytes(board)
    near = [h for h in range(len(v["owner"])) if v["owner"][h] == state.turn
            and v["count"][h] > 0 and set(NEIGHBOURS[h]) & set(targets)]
    crop = render_crop(v, tuple(near[:1]), tuple(t for t in targets
                                                 if not near or t in NEIGHBOURS[near[0]]))
    (out / "crop-sample.png").write_bytes(crop)
    seat = max(range(state.num_players), key=lambda s: (len(state.players[s].hand), -s))
    hand = render_hand(view(state, seat))
    (out / "hand-sample.png").write_bytes(hand)
    if args.record:
        record.dump(args.record)
    print(json.dumps({"board_bytes": len(board), "crop_bytes": len(crop),
                      "hand_bytes": len(hand), "hand_seat": seat,
                      "actions": len(record.moves), "record": args.record}))
    return 0


def _replay(args: argparse.Namespace) -> int:
    """Render a record's replay animation; prints its size and render time as JSON."""
    import time

    from .replay import replay_record

    if args.record:
        record = _load(args.record)
    else:  # a whole game played by the engine's "normal" computer players
        _, record = midgame(args.players, args.seed, era=len(CONTENT.eras))
    t0 = time.perf_counter()
    try:
        result = replay_record(record)
    except (ValueError, ReplayError) as exc:
        print(json.dumps({"error": str(exc)}))
        return 1
    seconds = time.perf_counter() - t0
    Path(args.out).write_bytes(result.data)
    print(json.dumps({"out": args.out, "bytes": len(result.data), "frames": result.frames,
                      "scale": result.scale, "size": list(result.size),
                      "players": record.num_players, "actions": len(record.moves),
                      "seconds": round(seconds, 3)}))
    return 0


def _chart(args: argparse.Namespace) -> int:
    from engine.timeline import era_ends, snapshots

    from .chart import render_chart

    record = _load(args.record)
    try:
        views = [s.view for s in era_ends(snapshots(record))]
    except ReplayError as exc:
        print(json.dumps({"error": str(exc)}))
        return 1
    names = [p.get("name", "") for p in record.players] or None
    png = render_chart(views, names)
    Path(args.out).write_bytes(png)
    print(json.dumps({"out": args.out, "bytes": len(png), "eras": len(views) - 1}))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m render", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("board", help="draw the public board after action N of a record")
    p.add_argument("record")
    p.add_argument("--at", type=int, default=None, help="actions to replay (default: all)")
    p.add_argument("--highlight", default="", help="hexes to outline, e.g. C4,D5")
    p.add_argument("--last-move", default="auto",
                   help="auto (from the record), none, C4, C4,D5 or C4,D5,attack")
    p.add_argument("--full", action="store_true", help="the whole board, not just the land")
    p.add_argument("--lang", default="en", help="language of the words in the image")
    p.add_argument("--out", required=True)
    p.set_defaults(func=_board)
    p = sub.add_parser("crop", help="draw a small part of the map (a private menu's picture)")
    p.add_argument("record")
    p.add_argument("--at", type=int, default=None)
    p.add_argument("--hexes", required=True, help="the hexes the choice is about, e.g. C4")
    p.add_argument("--highlight", default="", help="hexes to outline, e.g. D4,D5")
    p.add_argument("--lang", default="en")
    p.add_argument("--out", required=True)
    p.set_defaults(func=_crop)
    p = sub.add_parser("describe", help="print the position in words, hex by hex")
    p.add_argument("record")
    p.add_argument("--at", type=int, default=None)
    p.add_argument("--lang", default="en")
    p.set_defaults(func=_describe)
    p = sub.add_parser("hand", help="draw one seat's hand after action N of a record")
    p.add_argument("record")
    p.add_argument("--seat", type=int, required=True, help="seat number, 0 = first player")
    p.add_argument("--at", type=int, default=None)
    p.add_argument("--lang", default="en")
    p.add_argument("--out", required=True)
    p.set_defaults(func=_hand)
    p = sub.add_parser("bench", help="time board renders, print one JSON line")
    p.add_argument("--renders", type=int, default=100)
    p.add_argument("--players", type=int, default=5)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--maps", type=int, default=0,
                   help="instead: boards of this many different maps, round-robin")
    p.set_defaults(func=_bench)
    p = sub.add_parser("samples", help="write the sample images in docs/ (board, crop, hand)")
    p.add_argument("--out", default="docs")
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--record", help="also write the sample game's record here")
    p.set_defaults(func=_samples)
    p = sub.add_parser("replay", help="animated GIF of a whole game, one frame per round")
    p.add_argument("record", nargs="?", help="default: a game of computer players")
    p.add_argument("--players", type=int, default=5)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--out", required=True)
    p.set_defaults(func=_replay)
    p = sub.add_parser("chart", help="score chart: era track and VP at the end of each era")
    p.add_argument("record")
    p.add_argument("--out", required=True)
    p.set_defaults(func=_chart)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
