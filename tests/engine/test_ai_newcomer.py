"""The scripted newcomer of the ``easy`` bench (engine/ai/newcomer.py) and the one notion
of an action that does nothing (engine/ai/useful.py).

The newcomer takes the hint's move on every other decision with a choice and a random
useful move on the others, from its seat's view alone. The hints here use a budget under
:data:`engine.ai.hints.MIN_SEARCH_BUDGET_S`, so that they are ``normal``'s moves and the
tests stay fast; the bench's own budget gives ``hard``'s.
"""

import inspect
import json
import random
import subprocess
import sys
from pathlib import Path

from engine import actions as A
from engine import apply, decisions, new_game, view
from engine.ai import choose_action, hint
from engine.ai.newcomer import Newcomer, hint_move
from engine.ai.tournament import check_levels
from engine.ai.useful import does_nothing, useful_actions
from engine.legal import legal_actions
from engine.state import OVER
from tests.engine.helpers import H, make_state, play
from tests.engine.test_ai_hidden import varied_positions
from tests.engine.test_properties import hide_and_reshuffle

FAST_HINT_S = 0.1  # below MIN_SEARCH_BUDGET_S: the hint is normal's move
ROOT = Path(__file__).resolve().parents[2]


def test_the_newcomer_is_a_bench_seat_not_a_level():
    from engine.ai import ALL_LEVELS, LEVELS

    assert "newcomer" not in LEVELS and "newcomer" not in ALL_LEVELS
    check_levels(["newcomer", "easy", "easy"])  # the tournament seats it
    assert list(inspect.signature(Newcomer.act).parameters) == ["self", "view", "seed"]


def test_newcomer_alternates_the_hint_and_a_random_useful_move_and_plays_legally():
    """A whole game against two ``easy``: each of the newcomer's choices is legal (engine
    .apply raises otherwise); its decisions with a choice alternate hint, random, hint ...;
    a hint decision is the hint's action for that view and seed; a random one is a useful
    action."""
    state, _ = new_game(3, 31, random_map=True)
    me = 1
    newcomer = Newcomer(budget_s=FAST_HINT_S)
    ways: list[str] = []
    hints_checked = 0
    step = 0
    while decisions(state):
        d = decisions(state)[0]
        v = view(state, d.seat)
        seed = 1000 + step
        if d.seat != me:
            action = choose_action(v, "easy", seed)
        else:
            legal = legal_actions(state, me)
            action = newcomer.act(v, seed)  # engine.apply below refuses an illegal one
            ways.append(newcomer.last)
            if newcomer.last == "forced":
                assert legal == [action]
            elif newcomer.last == "hint":
                assert action == hint_move(v, seed, FAST_HINT_S)
                if hints_checked < 5:  # the hint a person is shown (reasons and all)
                    assert action == hint(v, seed, FAST_HINT_S).action
                    hints_checked += 1
            else:
                assert not does_nothing(state, me, action) or all(
                    does_nothing(state, me, a) for a in legal)
        state, _ = apply(state, d.seat, action)
        step += 1
    assert state.phase == OVER
    chosen = [w for w in ways if w != "forced"]
    assert chosen[::2] == ["hint"] * len(chosen[::2])
    assert chosen[1::2] == ["random"] * len(chosen[1::2])
    assert newcomer.decisions == len(chosen) > 50


def test_r_info_1_2_3_newcomer_decides_on_the_view_alone():
    """Re-dealing every secret the seat may not know gives an equal view and, for the same
    seed and the same count of decisions made, the same move (hint turn and random turn)."""
    rng = random.Random(7)
    checked = 0
    for state in varied_positions(per_kind=1):
        seat = decisions(state)[0].seat
        other = hide_and_reshuffle(state, seat, rng)
        mine, theirs = view(state, seat), view(other, seat)
        assert mine == theirs
        for made in (0, 1):
            a, b = Newcomer(FAST_HINT_S), Newcomer(FAST_HINT_S)
            a.decisions = b.decisions = made
            assert a.act(mine, 5) == b.act(theirs, 5)
            assert a.last == b.last
            checked += 1
    assert checked >= 10


def test_newcomer_same_views_and_seeds_give_the_same_moves():
    state, _ = new_game(3, 8, random_map=True)
    seat = decisions(state)[0].seat
    v = view(state, seat)
    a, b = Newcomer(FAST_HINT_S), Newcomer(FAST_HINT_S)
    assert [a.act(v, s) for s in range(6)] == [b.act(v, s) for s in range(6)]


def test_r_round_5_fruitless_actions_are_the_ones_that_do_nothing():
    """R-ROUND-5 allows a Move that moves nothing, a Growth with no room and a draw from
    empty piles; those are what does_nothing names, while something else can be done."""
    # one token on a single mountain hex: it cannot move or grow
    stuck = make_state(land="E5:E5", default_terrain="M", tokens={"E5": (0, 1)})
    assert does_nothing(stuck, 0, A.BeginMove())
    assert does_nothing(stuck, 0, A.BeginGrow())
    assert not does_nothing(stuck, 0, A.DrawCards())
    stuck.deck, stuck.discard, stuck.discard_seen = [], [], []
    assert does_nothing(stuck, 0, A.DrawCards())
    legal = legal_actions(stuck, 0)
    assert useful_actions(stuck, 0, legal) == legal  # nothing does anything: all stay

    # Trade (era 5): two tokens move and two grow in one action
    open_land = make_state(tokens={"E5": (0, 1), "H8": (0, 1)}, eras={0: 5})
    assert not does_nothing(open_land, 0, A.BeginMove())
    assert not does_nothing(open_land, 0, A.BeginGrow())
    useful = useful_actions(open_land, 0, legal_actions(open_land, 0))
    assert A.BeginMove() in useful and A.BeginGrow() in useful

    moving, _ = play(open_land, 0, A.BeginMove())
    assert does_nothing(moving, 0, A.EndMove())  # ending before a token moved
    assert A.EndMove() not in useful_actions(moving, 0, legal_actions(moving, 0))
    moved, _ = play(moving, 0, A.MoveToken(H("E5"), H("F5")))
    assert moved.stage == "move"
    assert not does_nothing(moved, 0, A.EndMove())  # stopping after a step is a choice

    growing, _ = play(open_land, 0, A.BeginGrow())
    assert does_nothing(growing, 0, A.EndGrow())
    grown, _ = play(growing, 0, A.GrowToken(H("E5")))
    assert grown.stage == "grow"
    assert not does_nothing(grown, 0, A.EndGrow())



def test_newcomer_bench_prints_the_win_share_with_its_interval():
    out = subprocess.run(
        [sys.executable, "-m", "engine.ai", "newcomer", "--games", "2", "--seed", "3",
         "--budget", str(FAST_HINT_S)],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["seats"] == ["newcomer", "easy", "easy"] and result["games"] == 2
    low, high = result["newcomer_wilson95"]
    assert 0 <= low <= result["newcomer_win_share"] <= high <= 1
    assert abs(result["newcomer_win_share"] + 2 * result["easy_win_share_each"] - 1) < 1e-3
    assert set(result["mean_score"]) == {"newcomer", "easy"} and result["elapsed_s"] >= 0
