"""The search's fitted leaf value (engine/ai/leaf_value.py): the fit, the shipped file, what
it reads (public facts only, R-INFO-1..3) and where the search uses it."""

import json
import random

import pytest

from engine import decisions, new_game, view
from engine.ai import leaf_value, search, tune
from engine.ai.evaluate import FLIGHT
from engine.ai.leaf_value import FEATURES, LeafValue, fit, load_leaf_value
from engine.ai.normal import NormalPlayer
from engine.ai.sampling import determinise
from engine.game import TURN, apply_in_place
from engine.state import OVER


def test_fit_recovers_a_linear_rule_per_era():
    """Rows made by a known rule per era give that rule back (no noise, no ridge)."""
    rng = random.Random(5)
    k = len(FEATURES)
    truth = {1: [rng.uniform(-2, 2) for _ in range(k)], 4: [rng.uniform(-2, 2) for _ in range(k)]}
    rows = []
    for era, coef in truth.items():
        for _ in range(200):
            x = [rng.uniform(-3, 3) for _ in range(k - 1)] + [1.0]
            rows.append((era, x, sum(c * v for c, v in zip(coef, x, strict=True))))
    got = fit(rows, ridge=0.0)
    assert sorted(got.eras) == [1, 4]
    for era, coef in truth.items():
        assert got.eras[era] == pytest.approx(coef, abs=1e-6)


def test_a_feature_that_never_varies_gets_no_weight():
    k = len(FEATURES)
    rows = [(2, [float(i % 3)] + [0.0] * (k - 2) + [1.0], 2.0 * (i % 3) + 1.0)
            for i in range(30)]
    got = fit(rows, ridge=0.0).eras[2]
    assert got[0] == pytest.approx(2.0) and got[-1] == pytest.approx(1.0)
    assert all(c == 0.0 for c in got[1:-1])


def test_file_round_trip_and_a_stale_file_is_refused(tmp_path):
    value = LeafValue({3: tuple(float(i) for i in range(len(FEATURES)))}, "about")
    path = tmp_path / "leaf.json"
    path.write_text(json.dumps(value.to_json()))
    assert load_leaf_value(path) == value
    data = value.to_json()
    data["features"] = list(FEATURES[:-2])
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="fit it again"):
        load_leaf_value(path)
    assert load_leaf_value(tmp_path / "missing.json") is None


def test_the_shipped_value_covers_every_era_before_the_last():
    shipped = load_leaf_value()
    assert shipped is not None and shipped == search.LEAF_VALUE
    assert sorted(shipped.eras) == list(range(1, FLIGHT))
    assert "--fit-leaf" in shipped.about


def _game_positions(seed: int, every: int = 9) -> list:
    state, _ = new_game(4, seed, random_map=True)
    out, step = [], 0
    while decisions(state):
        for d in decisions(state):
            apply_in_place(state, d.seat, NormalPlayer(random.Random(step)).act(state, d.seat))
            step += 1
            if step % every == 0:
                out.append(state.copy())
    return out


def test_the_value_reads_only_what_the_seat_may_see():
    """Two determinisations of one seat's view (other hands, the deck, face-down cards drawn
    differently, R-INFO-1..3) get the same features and the same value."""
    shipped = load_leaf_value()
    assert shipped is not None
    checked = 0
    for state in _game_positions(801)[::4]:
        if state.phase == OVER:
            continue
        for seat in range(4):
            v = view(state, seat)
            a = determinise(v, random.Random(1))
            b = determinise(v, random.Random(2))
            fa = leaf_value.features(search.leaf_evaluator(a), a, seat)
            fb = leaf_value.features(search.leaf_evaluator(b), b, seat)
            assert fa == pytest.approx(fb)
            assert shipped.value(search.leaf_evaluator(a), a, seat) == pytest.approx(
                shipped.value(search.leaf_evaluator(b), b, seat))
            checked += 1
    assert checked > 20


def test_no_fitted_value_for_the_last_era_or_a_finished_game():
    """The last era's searched turns run to the end and are scored by the result."""
    shipped = load_leaf_value()
    assert shipped is not None
    states = _game_positions(802, every=5)
    late = [s for s in states if s.era_number >= FLIGHT and s.phase != OVER]
    early = [s for s in states if s.era_number < FLIGHT and s.phase != OVER]
    assert late and early
    for s in late[:3]:
        assert shipped.value(search.leaf_evaluator(s), s, 0) is None
        ev = search.leaf_evaluator(s)
        assert search.turn_leaf_utility(ev, s, 0) == search.leaf_utility(ev, s, 0)
    for s in early[:3]:
        ev = search.leaf_evaluator(s)
        assert search.turn_leaf_utility(ev, s, 1) == shipped.value(ev, s, 1)


def test_positions_of_a_game_and_its_target():
    """One training game: a row at the start of each of the planner's turns before the
    last era, every row of the game with the same target, inside its bounds."""
    rows = tune.leaf_positions((0, 3_000_000))
    assert len(rows) > 20
    assert {era for era, _, _ in rows} <= set(range(1, FLIGHT))
    assert len({y for _, _, y in rows}) == 1
    y = rows[0][2]
    assert -leaf_value.CLIP <= y <= leaf_value.CLIP + leaf_value.WIN
    assert all(len(x) == len(FEATURES) and x[-1] == 1.0 for _, x, _ in rows)


def test_a_searched_turn_before_the_last_era_scores_its_rollouts_by_the_fitted_value(
        monkeypatch):
    """In era 9 ``hard`` searches its choice of action, and every rollout's end is scored
    through :func:`search.turn_leaf_utility` (the fitted value, or the score-based leaf
    once a rollout has reached the last era)."""
    calls = []
    real = search.turn_leaf_utility

    def spy(ev, state, seat):
        calls.append(state.era_number)
        return real(ev, state, seat)

    monkeypatch.setattr(search, "turn_leaf_utility", spy)
    for state in _game_positions(803, every=3):
        if state.era_number != FLIGHT - 1 or state.phase == OVER:
            continue
        ds = [d for d in decisions(state) if d.kind == TURN]
        if not ds:
            continue
        seat = ds[0].seat
        # a decision the search leaves to the planner keeps the last search's stats
        search.LAST_STATS.clear()
        search.search_action(view(state, seat), seed=1, budget_s=100.0)
        if search.LAST_STATS.get("kind") == TURN and len(search.LAST_STATS["candidates"]) > 1:
            break
    else:
        pytest.fail("no searched turn in era 9")
    assert calls and all(e in (FLIGHT - 1, FLIGHT) for e in calls)
    assert search.LAST_STATS["rollouts"] == len(calls)
