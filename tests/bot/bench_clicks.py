"""``python -m tests.bot.bench_clicks``: the clicks a person needs for a whole game.

Plays games of ``normal`` computer players in the engine and counts, for every decision,
the fewest clicks that make the same choice through the bot's controls: the turn message
(a button or a select of it: one click), a private menu (one click to open it, then its
own), the secret card selects. A control that makes a step and ends its action ("👣 E5 →
F5, and stop moving") counts once for both when the player's next choice is that end.

The same deals are played under rules 4 and rules 5 (R-INFO-4): the computers make the
same choices under both (each ends a spent Move or Growth it cannot extend at once, a
choice rules 4 made for it; its seeds skip those choices), so the difference is what rules
5 costs in clicks: a Move's or Growth's end that the player now says and rules 4 said for
them (``step_ends``), and how many of those the controls fold into the step before
(``folded``). Prints one JSON line per rules version and the difference per person.
"""

from __future__ import annotations

import argparse
import json

from bot.store import SeatRow
from engine import actions as A
from engine.ai import choose_action
from engine.ai.spent_steps import end_of_spent_step
from engine.game import apply_in_place, decision_for, decisions
from engine.setup import new_game
from engine.state import State
from engine.views import view
from games.controls import ACT, CARDS, MENU, Button, Panel, Select
from games.tempus import panels
from games.tempus.codec import decode_actions
from lang.i18n import using

SEATS = [SeatRow(i, 100 + i, None, f"P{i}") for i in range(5)]
CARD_KINDS = {"attack_cards": A.CommitAttackCards, "defend_cards": A.DefendCards,
              "discard": A.Discard, "progress_cards": A.ProgressCards}
ENDS = (A.EndMove, A.EndGrow)
#: clicks counted when no control was found (never seen; a sign of a broken panel)
UNREACHABLE = 99


def _owner_panel(state: State, seat: int) -> Panel:
    d = decision_for(state, seat)
    assert d is not None
    if d.kind in panels.HAND_KINDS:
        return panels.secret_panel(state, seat)
    return panels.public_panel(state, SEATS[: state.num_players])


def clicks(state: State, seat: int, panel: Panel, action: A.Action, then_end: bool,
           depth: int = 0) -> tuple[int, bool]:
    """The fewest clicks from ``panel`` that make ``action``, and whether they also make
    the end that follows (``then_end``: the player's next choice is that end)."""
    best = (UNREACHABLE, False)
    if depth > 4:
        return best

    def offer(steps: list[A.Action], cost: int) -> None:
        nonlocal best
        if steps[0] != action:
            return
        ends = len(steps) == 2
        if ends and not then_end:
            # the step's control also ends the action: to go on, a card is played first
            # (the same clicks, in another order)
            ends = False
        better = (cost, ends)
        if (better[0] - better[1]) < (best[0] - best[1]):
            best = better

    for c in panel.controls():
        if isinstance(c, Button):
            if c.op == ACT:
                offer(decode_actions(c.arg), 1)
            elif c.op == CARDS and c.arg in CARD_KINDS:
                offer([CARD_KINDS[c.arg](())], 1)
            elif c.op == MENU:
                sub = _menu(state, seat, c.arg)
                if sub is not None:
                    n, e = clicks(state, seat, sub, action, then_end, depth + 1)
                    offer([action, A.EndMove()] if e else [action], 1 + n)
        elif isinstance(c, Select):
            values = [o.value for o in c.options]
            if c.op == ACT:
                for v in values:
                    offer(decode_actions(v), 1)
            elif c.op == MENU:
                for v in values:
                    sub = _menu(state, seat, f"{c.arg}:{v}")
                    if sub is not None:
                        n, e = clicks(state, seat, sub, action, then_end, depth + 1)
                        offer([action, A.EndMove()] if e else [action], 1 + n)
            elif c.op == CARDS and c.arg in CARD_KINDS:
                chosen = getattr(action, "cards", None)
                if chosen is not None and set(chosen) <= {int(v) for v in values} \
                        and c.min_values <= len(chosen) <= c.max_values:
                    offer([action], 1)
    return best


def _menu(state: State, seat: int, spec: str) -> Panel | None:
    try:
        return panels.menu(state, seat, spec)
    except panels.MenuError:
        return None


def play(players: int, seed: int, rules_version: int) -> dict[str, int]:
    """One game of ``normal`` players under ``rules_version``; the clicks its people would
    make."""
    state, _ = new_game(players, seed, random_map=True, rules_version=rules_version)
    total = step_ends = folded = decided = unreachable = 0
    owed = 0  # the computers' own decisions, by which their seeds go
    skip_end = False
    while ds := decisions(state):
        d = ds[0]
        spent = end_of_spent_step(state, d.seat)
        if spent is not None:
            action: A.Action = spent
        else:
            action = choose_action(view(state, d.seat), "normal", seed * 100_003 + owed)
            owed += 1
        if isinstance(action, ENDS) and spent is not None:
            step_ends += 1
        if skip_end and isinstance(action, ENDS):
            folded += 1
            skip_end = False
        else:
            skip_end = False
            after = state.copy()
            apply_in_place(after, d.seat, action)
            nxt = decision_for(after, d.seat)
            then_end = (nxt is not None and after.stage in ("move", "grow")
                        and end_of_spent_step(after, d.seat) is not None)
            n, ends = clicks(state, d.seat, _owner_panel(state, d.seat), action, then_end)
            if n >= UNREACHABLE:
                unreachable += 1
            total += n
            skip_end = ends
        decided += 1
        apply_in_place(state, d.seat, action)
    return {"clicks": total, "decisions": decided, "step_ends": step_ends, "folded": folded,
            "unreachable": unreachable, "people": players}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=12)
    p.add_argument("--players", default="3,4,5", help="seat counts, taken in turn")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    counts = [int(x) for x in a.players.split(",")]
    results = {}
    with using("en"):
        for rules in (4, 5):
            games = [play(counts[g % len(counts)], a.seed + g, rules) for g in range(a.games)]
            people = sum(g["people"] for g in games)
            keys = ("clicks", "decisions", "step_ends", "folded", "unreachable")
            out: dict[str, float] = {k: sum(g[k] for g in games) for k in keys}
            out["clicks_per_person_per_game"] = round(out["clicks"] / people, 1)
            results[rules] = out
            print(json.dumps({"rules": rules, "games": a.games, **out}))
    people = sum(counts[g % len(counts)] for g in range(a.games))
    print(json.dumps({"extra_clicks_per_person_per_game": round(
        (results[5]["clicks"] - results[4]["clicks"]) / people, 2),
        "step_ends_per_person_per_game": round(results[5]["step_ends"] / people, 2),
        "unfolded_step_ends": results[5]["step_ends"] - results[5]["folded"]}))


if __name__ == "__main__":
    main()
