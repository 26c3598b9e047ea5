"""How long "What happened?" takes: ``python -m tests.bot.bench_recap --games 3``.

For whole random games (3 and 5 seats), times the three steps of a recap as the bot runs
them: the replay of the stored moves into the model (``collect``, in a worker), the words
(``recap_lines``, in the bot's process) and the marked picture (``render_recap``, in a
render worker), for a seated person (since their previous decision) and a spectator
(since round 1: the longest window), next to the plain board for scale. Prints JSON
(milliseconds, median over the games). Numbers, not a test: the machine is shared and
noisy.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from engine.record import Record
from engine.simulate import play_game
from games.tempus.recap import Since, collect, recap_lines
from lang.i18n import using
from render.board import render_board
from render.recap import render_recap


def _ms(fn: Callable[[], Any], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best * 1000


def measure(record: Record) -> dict[str, float]:
    """The timings of one game's recaps (see the module docstring)."""
    seat = record.moves[-1][0] ^ 1
    names = [f"P{i}" for i in range(record.num_players)]
    person = collect(record, Since.decision(seat))
    watcher = collect(record, Since.round_start(1))
    with using("en"):
        return {
            "moves": len(record.moves),
            "collect_person_ms": _ms(lambda: collect(record, Since.decision(seat))),
            "collect_round1_ms": _ms(lambda: collect(record, Since.round_start(1))),
            "words_round1_ms": _ms(lambda: recap_lines(watcher, names)),
            "picture_person_ms": _ms(lambda: render_recap(person.view, person.marks)),
            "picture_round1_ms": _ms(lambda: render_recap(watcher.view, watcher.marks)),
            "marks_round1": len(watcher.marks),
            "board_ms": _ms(lambda: render_board(watcher.view)),
        }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    rows: dict[str, list[float]] = {}
    for players in (3, 5):
        for seed in range(1, args.games + 1):
            for k, v in measure(play_game(players, seed)[1]).items():
                rows.setdefault(f"{players}p_{k}", []).append(float(v))
    print(json.dumps({k: round(statistics.median(v), 1) for k, v in rows.items()}, indent=1))


if __name__ == "__main__":
    main()
