"""The planner's numbers are data, and the tuning that finds them is repeatable."""

from __future__ import annotations

import dataclasses
import json
import math

import pytest

from engine.ai import tune
from engine.ai.planner import (
    BASE_SETTINGS,
    SETTINGS,
    SETTINGS_FILE,
    PlannerSettings,
    load_settings,
    settings_from,
)


def test_zero_parameters_give_the_hand_set_numbers():
    theta = dict.fromkeys(tune.parameter_names(), 0.0)
    assert tune.apply_parameters(theta, BASE_SETTINGS) == BASE_SETTINGS


def test_level_and_tilt_multiply_a_schedule():
    """A level multiplies every era by exp(level); a tilt the first era by exp(tilt),
    the last by exp(-tilt) and the ones between by a straight line in the exponent."""
    s = tune.apply_parameters({"grow.level": 0.2, "grow.tilt": 0.5, "rival.level": -0.1},
                              BASE_SETTINGS)
    old, new = BASE_SETTINGS.weights.grow, s.weights.grow
    assert new[0] == pytest.approx(old[0] * math.exp(0.7), abs=1e-4)
    assert new[-1] == pytest.approx(old[-1] * math.exp(-0.3), abs=1e-4)
    mid = len(old) // 2
    assert new[mid] / old[mid] == pytest.approx(
        math.exp(0.2 + 0.5 * (1 - 2 * mid / (len(old) - 1))), rel=1e-3)
    assert s.weights.rival == pytest.approx(BASE_SETTINGS.weights.rival * math.exp(-0.1),
                                            abs=1e-4)
    assert s.weights.hex == BASE_SETTINGS.weights.hex  # untouched


def test_tactics_parameters_move_normal_s_other_numbers():
    """Card-type extras move additively (some are zero or negative); the other tactics
    are multiplied, a tuple as a whole."""
    s = tune.apply_parameters({"card_type.GOV": 0.5, "tactics.site_rival.level": 0.1,
                               "tactics.city_waste.level": -0.2}, BASE_SETTINGS)
    old, new = BASE_SETTINGS.tactics, s.tactics
    assert new.card_type_extra["GOV"] == pytest.approx(
        old.card_type_extra["GOV"] + 0.5 * tune.CARD_TYPE_STEP)
    assert new.card_type_extra["LEA"] == old.card_type_extra["LEA"]
    assert new.site_rival == pytest.approx(tuple(v * math.exp(0.1) for v in old.site_rival),
                                           abs=1e-4)
    assert new.city_waste == pytest.approx(old.city_waste * math.exp(-0.2), abs=1e-4)
    assert new.draw_choice == old.draw_choice


def test_tactics_reach_the_player():
    """A card's worth to the planner moves with its type's extra: the tactics reach the
    player's choices, not only the file."""
    import random

    from engine.ai.evaluate import Evaluator
    from engine.ai.planner import PlannerPlayer
    from engine.ai.tactics import CARDS
    from engine.setup import new_game

    state, _ = new_game(4, 7, random_map=True)
    seat, kind = 0, "LEA"
    card = next(c for c in range(len(CARDS)) if CARDS[c].type == kind)
    more = tune.apply_parameters({f"card_type.{kind}": 1.0}, BASE_SETTINGS)
    base_player = PlannerPlayer(random.Random(1), settings=BASE_SETTINGS)
    more_player = PlannerPlayer(random.Random(1), settings=more)
    ev = Evaluator(state, BASE_SETTINGS.weights)
    assert more_player.card_worth(state, seat, ev, card) == pytest.approx(
        base_player.card_worth(state, seat, ev, card) + tune.CARD_TYPE_STEP)


def test_settings_round_trip_through_json(tmp_path):
    s = tune.apply_parameters({"card.level": 0.3, "flight_card_bonus.level": -0.2,
                               "card_type.EDU": 0.4, "tactics.site_rival.level": 0.2},
                              BASE_SETTINGS)
    path = tmp_path / "planner.json"
    path.write_text(json.dumps({"about": "test", **dataclasses.asdict(s)}))
    assert load_settings(path) == s
    assert load_settings(tmp_path / "absent.json") == BASE_SETTINGS


def test_unknown_setting_is_refused():
    with pytest.raises(TypeError):
        settings_from({"weights": {"no_such_weight": 1.0}})
    with pytest.raises(TypeError):
        settings_from({"no_such_setting": 1})


def test_the_shipped_settings_are_the_file():
    """What the planner plays by is what ``data/ai/planner.json`` says (when there is one)."""
    assert isinstance(SETTINGS, PlannerSettings)
    if SETTINGS_FILE.exists():
        assert load_settings(SETTINGS_FILE) == SETTINGS
        data = json.loads(SETTINGS_FILE.read_text())
        assert data["about"].startswith("python -m engine.ai tune")


def test_average_of_the_last_iterations():
    lines = [json.dumps({"iteration": k, "theta": {"a": float(k), "b": 1.0}}) for k in range(5)]
    assert tune.average(lines, 2) == {"a": 3.5, "b": 1.0}


def test_one_tuning_iteration_is_logged_and_repeatable(tmp_path):
    """One SPSA iteration over one deal per side: a line with both sides' objectives and
    the moved parameters; the same seed gives the same line."""
    outs = []
    for name in ("a.jsonl", "b.jsonl"):
        out = tmp_path / name
        theta = tune.spsa(1, 1, 123_000, str(out), jobs=1)
        row = json.loads(out.read_text())
        assert row["iteration"] == 0
        assert set(row["theta"]) == set(tune.parameter_names())
        assert row["theta"] == {p: round(v, 5) for p, v in theta.items()}
        outs.append(row)
    assert outs[0] == outs[1]
    # a game ends with a margin within the clip and a win share in [0, 1]
    margin, win = tune.play_tuned((0, 123_000, dataclasses.asdict(BASE_SETTINGS)))
    assert -tune.CLIP <= margin <= tune.CLIP and 0.0 <= win <= 1.0


def test_best_rival_weight_is_additive_and_reaches_the_evaluation():
    """``rival_best`` is zero by hand (``normal`` weighs only the rivals' mean); the
    tuning moves it by steps, and the relative worth subtracts it times the leader."""
    from engine.ai.evaluate import Evaluator
    from engine.setup import new_game

    s = tune.apply_parameters({"rival_best": 1.5}, BASE_SETTINGS)
    assert BASE_SETTINGS.weights.rival_best == 0.0
    assert s.weights.rival_best == pytest.approx(1.5 * tune.ADDITIVE["rival_best"])
    state, _ = new_game(4, 7, random_map=True)
    ev = Evaluator(state, s.weights)
    plain = Evaluator(state, BASE_SETTINGS.weights)
    v = [3.0, 1.0, 7.0, 2.0]
    assert ev.rel(v, 0) == pytest.approx(plain.rel(v, 0) - s.weights.rival_best * 7.0)
    assert ev.rel(v, 2) == pytest.approx(plain.rel(v, 2) - s.weights.rival_best * 3.0)


def test_average_up_to_an_iteration():
    """``--write --until K``: the mean of the iterations that end with K, not the last."""
    lines = [json.dumps({"iteration": k, "theta": {"a": float(k)}}) for k in range(10)]
    assert tune.average(lines, 3, until=5) == {"a": 4.0}
    assert tune.average(lines, 3) == {"a": 8.0}


def test_a_run_over_the_weights_only():
    """``--parameters weights`` tunes the evaluation's schedules and scalars alone (how the
    shipped numbers were found): no tactics or card-type parameter is logged or moved."""
    weights = tune.parameter_names("weights")
    assert len(weights) == 2 * len(tune.SCHEDULES) + len(tune.SCALARS)
    assert not any(n.startswith(("tactics.", "card_type.")) for n in weights)
    assert set(weights) < set(tune.parameter_names())
    with pytest.raises(ValueError):
        tune.parameter_names("tactics")
