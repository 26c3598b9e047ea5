"""engine.ai.hint: the strongest level's move with reasons from the evaluation the
computer players choose by, as machine-readable keys and numbers."""

import random

import pytest

from engine import apply_in_place, decisions, legal_actions, new_game, view
from engine.ai import choose_action, hint
from engine.ai.evaluate import Evaluator
from engine.ai.hints import MIN_SEARCH_BUDGET_S, Hint, level_for
from engine.simulate import random_action

KEYS = {"vp", "board", "cities", "threat", "growth", "city_ready", "frontier", "cards",
        "actions_left", "supply", "flight", "progress_race", "rivals", "score"}


def normal_game(seed: int, steps: int):
    state, _ = new_game(4, seed, random_map=True)
    for k in range(steps):
        d = decisions(state)[0]
        apply_in_place(state, d.seat, choose_action(view(state, d.seat), "normal", k))
    return state


def test_evaluation_terms_add_up_to_the_relative_worth():
    state, _ = new_game(4, 3, random_map=True)
    rng = random.Random(1)
    i = 0
    while decisions(state):
        d = rng.choice(decisions(state))
        apply_in_place(state, d.seat, random_action(state, d.seat, rng))
        i += 1
        if i % 61 == 0:
            ev = Evaluator(state)
            terms = ev.terms(state, d.seat)
            assert set(terms) <= KEYS
            assert sum(terms.values()) == pytest.approx(ev.relative(state, d.seat))


def test_hint_is_a_legal_move_with_reasons_and_a_plan():
    state = normal_game(12, 150)
    seen_reasons = 0
    for _ in range(6):
        d = decisions(state)[0]
        h = hint(view(state, d.seat), 5, budget_s=60.0, iterations=6)
        assert isinstance(h, Hint) and h.level == "hard"
        assert h.action in legal_actions(state, d.seat)
        assert all(k in KEYS and isinstance(v, float) for k, v in h.reasons)
        mags = [abs(v) for k, v in h.reasons if k != "vp"]
        assert mags == sorted(mags, reverse=True)
        seen_reasons += bool(h.reasons)
        js = h.to_json()
        assert js["action"] == h.action.to_json() and js["level"] == "hard"
        if h.action.type in ("begin_move", "begin_grow"):
            assert h.plan
        apply_in_place(state, d.seat, h.action)
    assert seen_reasons >= 3


def test_hint_level_is_the_strongest_within_the_budget():
    assert level_for(None) == "hard" and level_for(1.0) == "hard"
    assert level_for(MIN_SEARCH_BUDGET_S / 2) == "normal"
    state = normal_game(13, 60)
    d = decisions(state)[0]
    h = hint(view(state, d.seat), 1, budget_s=0.05)
    assert h.level == "normal" and h.rollouts == 0
    assert h.action == choose_action(view(state, d.seat), "normal", 1)


def test_old_hint_imports_still_work():
    """bot/hint.py imports these names; they stay."""
    from engine.ai import search as ai_search
    from engine.ai.planner import PlannerPlayer
    from engine.ai.sampling import determinise

    assert callable(determinise) and PlannerPlayer and isinstance(ai_search.LAST_STATS, dict)


def test_hint_reasons_come_from_the_evaluation_the_search_scores_by(monkeypatch):
    """The search scores a rollout's end with ``search.leaf_evaluator`` and the hint's
    reasons are changes of that same evaluation's terms: weigh cards ten times more in it
    and the reason a Draw Cards hint gives for its cards grows ten times."""
    import dataclasses

    from engine import actions as A
    from engine.ai import search as ai_search
    from engine.ai.hints import reasons_for

    state = normal_game(14, 40)
    while decisions(state)[0].kind != "turn" or not state.turn_actions:
        d = decisions(state)[0]
        apply_in_place(state, d.seat, choose_action(view(state, d.seat), "normal", 3))
    seat = decisions(state)[0].seat
    v = view(state, seat)
    assert A.DrawCards() in legal_actions(state, seat)
    before = dict(reasons_for(v, A.DrawCards(), 7))
    w = ai_search.LEAF_WEIGHTS
    monkeypatch.setattr(ai_search, "LEAF_WEIGHTS", dataclasses.replace(
        w, card=tuple(10 * x for x in w.card)))
    after = dict(reasons_for(v, A.DrawCards(), 7))
    assert before["cards"] > 0
    assert after["cards"] == pytest.approx(10 * before["cards"], rel=0.02)
    end = ai_search.leaf_evaluator(state)
    assert end.w.card == tuple(10 * x for x in w.card)
