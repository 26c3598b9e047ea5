"""engine.ai.hint: the strongest level's move with reasons from the evaluation the
computer players choose by, as machine-readable keys and numbers."""

import random

import pytest

from engine import apply_in_place, decisions, legal_actions, new_game, view
from engine.ai import choose_action, hint
from engine.ai.evaluate import Evaluator
from engine.ai.hints import MIN_SEARCH_BUDGET_S, Hint, level_for
from engine.simulate import random_action

KEYS = {"endings", "vp", "board", "cities", "threat", "growth", "city_ready", "frontier", "cards",
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
        mags = [abs(v) for k, v in h.reasons if k not in ("vp", "endings")]
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


def _positions(seed: int, where):
    """Positions of a game of four ``normal`` players where ``where(state)`` holds: (state,
    seat to act)."""
    state, _ = new_game(4, seed, random_map=True)
    k = 0
    while decisions(state):
        d = decisions(state)[0]
        if where(state, d):
            yield state.copy(), d.seat
        apply_in_place(state, d.seat, choose_action(view(state, d.seat), "normal", k))
        k += 1


def test_the_fitted_values_parts_add_up_to_it():
    """A hint explains a turn the fitted value chose by that value's parts: they are all
    of it (with its constant), for every seat, in every era it covers."""
    from engine.ai import search as ai_search

    value = ai_search.LEAF_VALUE
    assert value is not None
    seen = set()
    for state, _ in _positions(31, lambda s, d: s.phase != "over"):
        if len(seen) > 40 and state.era_number in seen:
            continue
        ev = ai_search.leaf_evaluator(state)
        for seat in range(state.num_players):
            whole = value.value(ev, state, seat)
            parts = value.contributions(ev, state, seat)
            if whole is None:
                assert parts is None
                continue
            assert parts is not None and set(parts) <= KEYS - {"vp", "score"}
            const = value.eras[state.era_number][-1]
            assert sum(parts.values()) + const == pytest.approx(whole, abs=1e-9)
        seen.add(state.era_number)
    assert set(range(1, 10)) <= seen


def test_a_turn_searched_by_the_fitted_value_is_explained_by_it(monkeypatch):
    """In the era before the last a searched turn's rollouts are scored by the fitted
    value, so the hint's reasons are that value's parts (weigh everything ten times more
    in it and the reasons grow ten times), not the static terms; a planner's turn of an
    earlier era keeps the static terms."""
    import dataclasses

    from engine import actions as A
    from engine.ai import search as ai_search
    from engine.ai.hints import reasons_for

    def era9_turn(s, d):
        return d.kind == "turn" and s.era_number == 9 and s.turn_actions > 0

    state, seat = next(_positions(32, era9_turn))
    assert ai_search.turn_scoring(state) is ai_search.TurnScoring.FITTED
    v = view(state, seat)
    h = hint(v, 3, budget_s=60.0)
    assert h.candidates > 1  # searched
    assert h.reasons == reasons_for(v, h.action, 3, fitted=True)
    assert h.reasons != reasons_for(v, h.action, 3)

    value = ai_search.LEAF_VALUE
    assert value is not None and A.DrawCards() in legal_actions(state, seat)
    before = dict(reasons_for(v, A.DrawCards(), 7, fitted=True))
    static = reasons_for(v, A.DrawCards(), 7)
    eras = {e: (*(10 * c for c in coef[:-1]), coef[-1]) for e, coef in value.eras.items()}
    monkeypatch.setattr(ai_search, "LEAF_VALUE", dataclasses.replace(value, eras=eras))
    after = dict(reasons_for(v, A.DrawCards(), 7, fitted=True))
    big = [k for k, x in before.items() if k != "vp" and abs(x) >= 0.2]
    assert big and before.get("cards", 0.0) != 0.0
    for k in big:
        assert after[k] == pytest.approx(10 * before[k], rel=0.05, abs=0.06), k
    assert reasons_for(v, A.DrawCards(), 7) == static  # the static terms do not move

    def early_turn(s, d):
        return d.kind == "turn" and s.era_number == 3 and s.turn_actions > 0

    state, seat = next(_positions(33, early_turn))
    v = view(state, seat)
    h = hint(v, 3, budget_s=60.0)
    assert h.candidates == 0  # the planner's own choice
    assert h.reasons == reasons_for(v, h.action, 3)


def test_a_last_round_turn_chosen_by_games_played_to_the_end_says_so():
    """In the last era's last rounds the search plays its rollouts to the end of the game;
    when that made it leave the planner's first choice, the hint leads with ``endings``:
    the points the move gained in those games over the first choice."""
    from engine.ai import search as ai_search

    def last_rounds(s, d):
        return d.kind == "turn" and s.turn_actions > 0 and ai_search.runs_to_the_end(s)

    found = 0
    for state, seat in _positions(21, last_rounds):
        assert ai_search.turn_scoring(state) is ai_search.TurnScoring.ENDINGS
        h = hint(view(state, seat), 5, budget_s=60.0)
        chose = ai_search.LAST_STATS.get("chose", 0)
        keys = [k for k, _ in h.reasons]
        if not chose:
            assert "endings" not in keys
            continue
        gain = ai_search.LAST_STATS["candidates"][chose][3][0]
        assert keys[0] == "endings" and h.reasons[0][1] == pytest.approx(gain, abs=0.01)
        assert gain > 0
        found += 1
    assert found >= 1


def test_the_scoring_a_hint_explains_by_is_the_rollouts_own():
    """The rollouts start after the candidate, its marker used: a turn taken with one
    marker more than the last rounds' leaves rollouts that run to the end, and the hint
    judges the scoring from there too."""
    from engine import actions as A
    from engine.ai import search as ai_search
    from engine.ai.hints import _chosen

    def one_above(s, d):
        return (d.kind == "turn" and s.turn_actions > 0 and s.era_number >= 10
                and sum(p.markers for p in s.players) == 2 * s.num_players + 1)

    state, seat = next(_positions(21, one_above))
    assert A.DrawCards() in legal_actions(state, seat)
    assert ai_search.turn_scoring(state) is not ai_search.TurnScoring.ENDINGS
    after = _chosen(state, seat, A.DrawCards())
    assert ai_search.turn_scoring(after) is ai_search.TurnScoring.ENDINGS
