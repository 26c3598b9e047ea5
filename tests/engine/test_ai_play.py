"""Computer players choose only legal actions, answer every kind of decision and
finish games (R-ROUND-2, R-ROUND-5, R-COMBAT-4/5/8, R-DRAW-2, R-PROG-2,
R-SETUP-4/5, R-END-1).

Every chosen action is applied with ``engine.apply``, which raises ``IllegalAction``
on anything illegal, so "no exception" is the legality check.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import apply, decisions, legal_actions, new_game, view
from engine.actions import Attack, CommitAttackCards, DrawCards
from engine.ai import ALL_LEVELS, LEVELS, choose_action
from engine.ai.tournament import game_setup
from engine.state import OVER, State
from tests.engine.helpers import H, card, make_state, play

ROOT = Path(__file__).resolve().parents[2]
FAST_HARD = {"budget_s": 30.0, "iterations": 2}  # tiny, deterministic search for tests
BLUE_FAR = {"K2": (1, 1), "K4": (1, 1), "K6": (1, 1), "K8": (1, 1)}


def ask(state: State, seat: int, level: str, seed: int):
    kw = FAST_HARD if level == "hard" else {}
    return choose_action(view(state, seat), level, seed, **kw)


def play_out(state: State, levels: list[str], seed: int, limit: int) -> tuple[State, int]:
    """Let computer players decide up to ``limit`` times, applying through engine.apply."""
    steps = 0
    while decisions(state) and steps < limit:
        for d in decisions(state):
            action = ask(state, d.seat, levels[d.seat], seed + steps)
            state, _ = apply(state, d.seat, action)  # raises IllegalAction if illegal
            steps += 1
    return state, steps


def test_levels_are_the_published_ones():
    assert LEVELS == ("easy", "normal", "hard")
    assert set(ALL_LEVELS) == {"easy", "normal", "hard", "random"}


@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(3, 5), seed=st.integers(0, 10**6), random_map=st.booleans(),
       levels=st.lists(st.sampled_from(["random", "easy", "normal", "normal", "hard"]),
                       min_size=5, max_size=5))
def test_computer_players_never_choose_an_illegal_action(n, seed, random_map, levels):
    """Mixed tables of every level, from tile placement (R-SETUP-4) on: each choice is
    accepted by engine.apply."""
    if "hard" in levels[:n]:  # keep the search's share of the test time small
        levels = [lv if lv != "hard" or i == levels.index("hard") else "normal"
                  for i, lv in enumerate(levels)]
    state, _ = new_game(n, seed, random_map=random_map)
    state, steps = play_out(state, levels[:n], seed, limit=160)
    assert steps >= 1


CITY_ATTACK = dict(tokens={"E5": (0, 4), **BLUE_FAR}, cities={"F5": (1, 2)}, eras={0: 8, 1: 8},
                   hands={0: [card("WEA", "G"), card("FOR", "H"), card("LEA", "F")],
                          1: [card("FOR", "W"), card("WEA", "F"), card("EDU", "G")]})


def kinds_of_decisions() -> list[tuple[str, State]]:
    """One hand-made position for each kind of secret or combat decision."""
    out = []
    s = make_state(**CITY_ATTACK)
    s, _ = play(s, 0, Attack(H("E5"), H("F5")))
    out.append(("name_city_terrain", s))
    s2, _ = play(s, 1, *[a for a in legal_actions(s, 1) if a.terrain == "M"][:1])
    out.append(("attack_cards", s2))
    s3, _ = play(s2, 0, CommitAttackCards((card("WEA", "G"),)))
    out.append(("defend_cards", s3))
    s4 = make_state(tokens={"E5": (0, 4), "F5": (1, 1), **BLUE_FAR}, eras={0: 8})
    s4, _ = play(s4, 0, Attack(H("E5"), H("F5")), CommitAttackCards(()))
    out.append(("occupy", s4))
    full = [card(t, "G") for t in ("EDU", "FOR", "HEA", "TRA", "WEA")]
    s5 = make_state(tokens={"E5": (0, 1)}, hands={0: full})
    s5, _ = play(s5, 0, DrawCards())
    out.append(("discard", s5))
    return out


@pytest.mark.parametrize("level", ALL_LEVELS)
def test_every_kind_of_decision_is_answered_legally(level):
    """R-COMBAT-4 (city terrain), R-COMBAT-5 (secret attack cards, defence), R-COMBAT-8
    (occupy), R-DRAW-2 (discard): each level answers with a legal action."""
    for kind, state in kinds_of_decisions():
        ds = decisions(state)
        assert ds[0].kind == kind
        action = ask(state, ds[0].seat, level, seed=5)
        assert action in legal_actions(state, ds[0].seat), (kind, action)
        apply(state, ds[0].seat, action)


@pytest.mark.parametrize("level", ["random", "easy", "normal"])
def test_a_game_of_computer_players_finishes(level):
    """R-END-1: three computer players of one level play a whole game to its end."""
    state, _ = new_game(3, 17, random_map=True)
    state, steps = play_out(state, [level] * 3, 17, limit=5000)
    assert state.phase == OVER and state.winners and steps < 5000


def test_a_game_of_hard_players_finishes():
    """R-END-1 for the search player (tiny iteration budget), placing tiles too."""
    from engine.ai import search

    search.ROLLOUT_ERRORS.clear()
    state, _ = new_game(3, 23)
    state, steps = play_out(state, ["hard"] * 3, 23, limit=5000)
    assert state.phase == OVER and state.winners
    assert not search.ROLLOUT_ERRORS  # the rollout policy never chose an illegal action


@pytest.mark.parametrize("level", ALL_LEVELS)
def test_same_view_level_and_seed_give_the_same_action(level):
    state, _ = new_game(4, 8, random_map=True)
    state, _ = play_out(state, ["normal"] * 4, 8, limit=40)
    d = decisions(state)[0]
    a = [ask(state, d.seat, level, seed=3) for _ in range(2)]
    assert a[0] == a[1]


def test_unknown_level_and_seat_without_decision_are_refused():
    state, _ = new_game(3, 2, random_map=True)
    d = decisions(state)[0]
    with pytest.raises(ValueError):
        choose_action(view(state, d.seat), "grandmaster", 0)
    with pytest.raises(ValueError):
        choose_action(view(state, (d.seat + 1) % 3), "normal", 0)


def test_tournament_rotates_seats_and_start_player():
    """Over n*n games every slot sits in every seat and every start position."""
    n = 4
    seen = {(game_setup(g, n)[0].index(0), game_setup(g, n)[1]) for g in range(n * n)}
    assert len(seen) == n * n


def test_tournament_cli_prints_win_shares_and_think_times():
    out = subprocess.run(
        [sys.executable, "-m", "engine.ai", "tournament", "--players", "3", "--games", "2",
         "--seed", "4", "--seats", "easy,random,random"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert abs(sum(result["win_share"].values()) - 1.0) < 1e-6
    assert set(result["think_time"]) == {"easy", "random"}
    assert result["think_time"]["easy"]["p95_s"] >= 0
    bad = subprocess.run(
        [sys.executable, "-m", "engine.ai", "tournament", "--players", "3", "--seats", "easy"],
        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "error" in json.loads(bad.stdout)


def _position(state: State):
    return (tuple(state.owner), tuple(state.count), tuple(state.city_owner),
            tuple(tuple(p.hand) for p in state.players),
            tuple(p.supply for p in state.players), len(state.deck), len(state.discard))


def test_easy_never_takes_an_action_that_does_nothing_when_a_useful_one_exists():
    """R-ROUND-5 allows a fruitless action (a Move that moves nothing, a Growth with no
    room, drawing from an empty pile); ``easy`` never takes one while an action that
    changes the position exists (here: the piles hold cards, so drawing always does)."""
    from engine.ai import choose_action as choose
    from engine.movement import destinations, movable_sources
    from engine.turn import city_sites, grow_hexes

    checked = 0
    for seed in (1, 2, 3):
        state, _ = new_game(3, seed, random_map=True)
        step = 0
        while decisions(state):
            d = decisions(state)[0]
            if d.kind == "turn" and state.turn_actions > 0:
                seat = d.seat
                useful = (bool(state.deck or state.discard) or bool(grow_hexes(state, seat))
                          or bool(city_sites(state, seat))
                          or any(destinations(state, seat, h)
                                 for h in movable_sources(state, seat)))
                before = _position(state)
                # the whole action: easy's own steps and any answer owed inside it
                action = choose(view(state, seat), "easy", step)
                state, _ = apply(state, seat, action)
                step += 1
                while decisions(state) and state.turn == seat and (
                        state.stage != "main" or state.combat is not None):
                    e = decisions(state)[0]
                    state, _ = apply(state, e.seat, choose(view(state, e.seat), "easy", step))
                    step += 1
                if useful:
                    assert _position(state) != before, (seed, action)
                    checked += 1
                continue
            state, _ = apply(state, d.seat, choose(view(state, d.seat), "easy", step))
            step += 1
    assert checked > 100
