"""Where a level's games are won and lost: the anatomy of a tournament.

A win share says how strong a level is, not where its games are decided. This plays the
same games as :mod:`.tournament` (same deals, seats and seeds, so the same results) and
follows the first level of the line-up, "the player", through each game:

* at the end of every era (after its progress phase) and at the end of the game, each
  seat's victory points as they would count now (R-END-2) and its era cube;
* per era, the actions every seat chose in its turns and the cards it played for their
  effect (R-ROUND-2, R-CARD-1);
* at the end, each seat's points by source (hexes, cities, Flight) and its cards.

The summary compares the player with the mean of the other seats: its lead in victory
points and in eras at the end of each era, separately in the games it won and lost (the
era where the two part is where its games are decided), its actions per era against the
others', where its points came from against the winners' of the games it lost, and its
win share by its position after the start player (R-SETUP-5 places in that order).

    python -m engine.ai anatomy --games 200 --seed 960000 --seats hard,normal,normal,normal \\
        --jobs 2 --budget 100
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import actions as A
from ..game import DecisionKind
from ..progress import all_victory_points
from ..score_breakdown import seat_score
from ..state import State
from ..views import view
from .tournament import check_levels, game_setup, play_game, run_games

#: a seat's points by source at the end of the game, and its cards (R-END-2, R-END-3)
FINAL_KEYS = ("hexes", "cities", "flight", "total", "city_count", "cards")


@dataclass
class GameAnatomy:
    """One game as the summary needs it (seats, not slots, except ``hero``)."""

    seed: int
    #: the seat of the line-up's first level
    hero: int
    #: the hero's position after the start player (0: it started)
    position: int
    winners: list[int]
    #: per era that ended: each seat's victory points and era cube after it
    vp: list[list[int]] = field(default_factory=list)
    cubes: list[list[int]] = field(default_factory=list)
    #: per era (index era - 1): per seat, how often each action (or a card played for its
    #: effect) was chosen in its turns; ending a turn is not counted
    actions: list[list[dict[str, int]]] = field(default_factory=list)
    #: per seat: points by source and cards at the end (:data:`FINAL_KEYS`)
    final: list[dict[str, int]] = field(default_factory=list)


class _Recorder:
    """Watches one game's actions (:data:`.tournament.Watcher`)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.era: int | None = None  # the era of the last action seen
        self.vp: list[list[int]] = []
        self.cubes: list[list[int]] = []
        self.actions: list[list[Counter[str]]] = [[Counter() for _ in range(n)]]

    def see(self, state: State, seat: int, kind: str, action: A.Action) -> None:
        if self.era is None:
            self.era = state.era_number
        elif state.era_number != self.era:
            self.end_era(state)
        if kind == DecisionKind.TURN and not isinstance(action, A.EndTurn):
            self.actions[-1][seat][action.type] += 1

    def end_era(self, state: State) -> None:
        """Record the position after an era (or the game) ended."""
        self.vp.append(all_victory_points(state))
        self.cubes.append([p.era for p in state.players])
        self.era = state.era_number
        self.actions.append([Counter() for _ in range(self.n)])


def anatomy_one(args: tuple[int, int, Sequence[str], float | None, int | None]
                ) -> GameAnatomy:
    """Game ``index`` of the line-up, watched (a worker of :func:`anatomy`)."""
    index, seed, lineup, budget_s, iterations = args
    n = len(lineup)
    rec = _Recorder(n)
    result, state = play_game(index, seed, lineup, 20_000, budget_s, iterations, True,
                              watch=rec.see)
    rec.end_era(state)
    slots, start = game_setup(index, n)
    hero = slots.index(0)
    public = view(state, None)
    final = []
    for s in range(n):
        sc = seat_score(public, s)
        final.append({"hexes": sc.hex_points, "cities": sc.city_points, "flight": sc.flight,
                      "total": sc.total, "city_count": sc.city_count, "cards": sc.cards})
    return GameAnatomy(result.seed, hero, (hero - start) % n, list(result.winners),
                       rec.vp, rec.cubes,
                       [[dict(c) for c in era] for era in rec.actions[:len(rec.vp)]], final)


def anatomy(lineup: Sequence[str], games: int, seed: int, *, jobs: int = 1,
            budget_s: float | None = None, iterations: int | None = None,
            on_game: Callable[[GameAnatomy], None] | None = None) -> dict[str, Any]:
    """Play ``games`` games of ``lineup`` as :func:`.tournament.tournament` does and
    summarise them from the first level's side (:func:`summarise`)."""
    check_levels(lineup)
    t0 = time.perf_counter()
    work = [(g, seed, tuple(lineup), budget_s, iterations) for g in range(games)]
    out = run_games(anatomy_one, work, jobs, on_game)
    summary = summarise(lineup, out)
    summary.update(seed=seed, budget_s=budget_s, iterations=iterations,
                   elapsed_s=round(time.perf_counter() - t0, 1))
    return summary


def _mean(xs: Sequence[float]) -> float | None:
    return round(statistics.fmean(xs), 2) if xs else None


def _lead(values: list[int], hero: int) -> float:
    others = [v for s, v in enumerate(values) if s != hero]
    return values[hero] - statistics.fmean(others)


def _won(g: GameAnatomy) -> float:
    return 1.0 / len(g.winners) if g.hero in g.winners else 0.0


def summarise(lineup: Sequence[str], games: Sequence[GameAnatomy]) -> dict[str, Any]:
    """The anatomy of ``games`` from the side of ``lineup[0]`` ("player") against the
    mean of the other seats ("others")."""
    n = len(lineup)
    wins = [g for g in games if g.hero in g.winners]
    losses = [g for g in games if g.hero not in g.winners]
    eras = max((len(g.vp) for g in games), default=0)
    by_era = []
    def leads(gs: Sequence[GameAnatomy], what: str, e: int) -> float | None:
        return _mean([_lead(getattr(g, what)[e], g.hero) for g in gs if e < len(g.vp)])

    for e in range(eras):
        mix_player: Counter[str] = Counter()
        mix_others: Counter[str] = Counter()
        played = [g for g in games if e < len(g.actions)]
        for g in played:
            for s, counts in enumerate(g.actions[e]):
                (mix_player if s == g.hero else mix_others).update(counts)
        k = max(1, len(played))
        by_era.append({
            "era": e + 1,
            "vp_lead": leads(games, "vp", e), "vp_lead_won": leads(wins, "vp", e),
            "vp_lead_lost": leads(losses, "vp", e),
            "era_lead_won": leads(wins, "cubes", e),
            "era_lead_lost": leads(losses, "cubes", e),
            "actions_player": {t: round(c / k, 2) for t, c in sorted(mix_player.items())},
            "actions_others": {t: round(c / k / (n - 1), 2)
                               for t, c in sorted(mix_others.items())},
        })

    def final(pick: Callable[[GameAnatomy], list[dict[str, int]]],
              gs: Sequence[GameAnatomy]) -> dict[str, float | None]:
        rows = [row for g in gs for row in pick(g)]
        return {k: _mean([r[k] for r in rows]) for k in FINAL_KEYS}

    positions = []
    for p in range(n):
        at = [g for g in games if g.position == p]
        positions.append({"position": p, "games": len(at),
                          "win_share": _mean([_won(g) for g in at])})
    return {
        "games": len(games),
        "seats": list(lineup),
        "player": lineup[0],
        "win_share": _mean([_won(g) for g in games]),
        # the games each "won" and "lost" figure is over (a shared win counts as won)
        "games_won": len(wins),
        "games_lost": len(losses),
        "by_era": by_era,
        "final": {
            "player": final(lambda g: [g.final[g.hero]], games),
            "others": final(lambda g: [f for s, f in enumerate(g.final) if s != g.hero],
                            games),
            "player_when_won": final(lambda g: [g.final[g.hero]], wins),
            "player_when_lost": final(lambda g: [g.final[g.hero]], losses),
            "winner_when_player_lost": final(lambda g: [g.final[g.winners[0]]], losses),
        },
        "by_start_position": positions,
    }
