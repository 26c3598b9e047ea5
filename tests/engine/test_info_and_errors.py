"""Hidden information in views (R-INFO-1..3), illegal actions leave the state unchanged,
R-ROUND-2 (passing only with Government), R-CITY-4, and the rule-coverage check."""

import json
import re
from pathlib import Path

import pytest

from engine import IllegalAction, apply, new_game, view
from engine.actions import (
    Attack,
    BeginMove,
    BuildCity,
    CommitAttackCards,
    DefendCards,
    Discard,
    EndMove,
    EndTurn,
    MoveToken,
    Occupy,
    PlaceStartToken,
    PlaceTile,
    ProgressCards,
    action_from_json,
)
from engine.progress import progress_points, victory_points
from tests.engine.helpers import H, card, make_state, play

BLUE_FAR = {"K2": (1, 1), "K4": (1, 1), "K6": (1, 1), "K8": (1, 1)}


def test_r_info_1_hands_only_to_owner():
    """R-INFO-1: hand contents only in the owner's view; sizes public; the discard pile
    is face down (only its size is public, and the cards everyone saw revealed)."""
    wea = card("WEA", "G")
    s = make_state(tokens={"E5": (0, 1)}, hands={0: [wea], 1: [card("EDU", "F")]})
    s.discard = [card("EDU", "G"), card("TRA", "W")]
    s.discard_seen = [-1, 1]  # a revealed card; a card seat 1 discarded face down
    mine, theirs, spectator = view(s, 0), view(s, 1), view(s, None)
    assert mine["players"][0]["hand"] == [wea]
    assert "hand" not in theirs["players"][0] and theirs["players"][0]["hand_size"] == 1
    assert "hand" not in spectator["players"][0] and "hand" not in spectator["players"][1]
    assert "discard" not in spectator and spectator["deck_size"] == len(s.deck)
    assert spectator["discard_size"] == 2 and spectator["revealed_cards"] == [card("EDU", "G")]
    assert "my_discarded_cards" not in spectator
    assert mine["my_discarded_cards"] == [] and theirs["my_discarded_cards"] == [
        card("TRA", "W")]


def test_r_info_2_face_down_attack_cards():
    """R-INFO-2: the attacker's face-down cards are secret until the defender answered."""
    wea = card("WEA", "G")
    s = make_state(tokens={"E5": (0, 3), "F5": (1, 1), **BLUE_FAR},
                   hands={0: [wea], 1: [card("FOR", "G")]})
    s, _ = play(s, 0, Attack(H("E5"), H("F5")), CommitAttackCards((wea,)))
    assert view(s, 0)["combat"]["attack_cards"] == [wea]
    for seat in (1, 2, None):
        v = view(s, seat)
        assert v["combat"]["attack_cards"] is None and v["combat"]["attack_card_count"] == 1
    s, _ = play(s, 1, DefendCards(()))
    assert view(s, None)["combat"]["attack_cards"] == [wea]  # revealed


def test_r_info_2_progress_choices_secret():
    s = make_state(tokens={"C3": (0, 1), "E7": (1, 1), "K9": (2, 1)},
                   hands={0: [card("EDU", "G")], 1: [card("EDU", "F")]})
    for p in s.players:
        p.markers = 0
    s.players[2].markers = 1
    s.turn = 2
    s, _ = play(s, 2, BeginMove())  # one token, one step: the move waits for it
    s, _ = play(s, 2, EndMove())
    s, _ = play(s, 0, ProgressCards((card("EDU", "G"),)))
    v1 = view(s, 1)
    assert v1["progress_submitted"] == [0, 2] and "my_progress_choice" not in v1
    assert all("hand" not in p for i, p in enumerate(v1["players"]) if i != 1)
    assert "progress_choices" not in v1
    assert view(s, 0)["my_progress_choice"] == [card("EDU", "G")]


def test_r_info_3_deck_order_and_seed_not_in_views():
    """R-INFO-3: nobody sees the draw pile's order (nor the seed that makes it)."""
    s, _ = new_game(4, seed=9, random_map=True)
    for seat in (None, 0, 1, 2, 3):
        v = view(s, seat)
        assert "deck" not in v and "seed" not in v and "tile_stack" not in v
        assert v["deck_size"] == 54
    t, _ = new_game(4, seed=9, random_map=True)
    t.deck = list(reversed(t.deck))
    assert view(s, None) == view(t, None)


def test_r_city_4_city_scores_progress_and_victory_points():
    """R-CITY-4: a city is worth 1 progress point and its value in victory points."""
    s = make_state(cities={"E5": (0, 4)}, tokens={"K9": (1, 1)})
    assert progress_points(s, 0, [], 1) == 1
    assert victory_points(s, 0) == 4


def test_r_round_2_no_passing_without_government():
    """R-ROUND-2: a player with a marker must act; ending the turn needs an action."""
    s = make_state(tokens={"E5": (0, 1)})
    with pytest.raises(IllegalAction, match="take your action first"):
        apply(s, 0, EndTurn())


ILLEGAL = [
    (PlaceTile(0, 0), "not your decision|must"),
    (PlaceStartToken(H("E5")), "must"),
    (MoveToken(H("E5"), H("F5")), "must"),
    (BuildCity(H("E5"), 2), "needs at least"),
    (Attack(H("E5"), H("G7")), "not next to"),
    (Occupy(1), "must"),
    (Discard(()), "must"),
    (ProgressCards(()), "must"),
    (BuildCity(999, 2), "not a hex"),
    (Occupy("x"), "must"),
]


@pytest.mark.parametrize("action,message", ILLEGAL)
def test_illegal_actions_rejected_state_unchanged(action, message):
    """Illegal actions of every kind raise a readable error and change nothing."""
    s = make_state(tokens={"E5": (0, 1), "F5": (1, 1)}, hands={0: [card("WEA", "G")]})
    before = json.dumps(s.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction, match=message):
        apply(s, 0, action)
    assert json.dumps(s.to_json(), sort_keys=True) == before


def test_wrong_seat_and_unknown_seat():
    s = make_state(tokens={"E5": (0, 1)})
    with pytest.raises(IllegalAction, match="not your turn.*Red"):
        apply(s, 1, BeginMove())
    with pytest.raises(IllegalAction, match="no seat 7"):
        apply(s, 7, BeginMove())


def test_action_json_round_trip_and_errors():
    for a in (Attack(H("C4"), H("D4"), 19), BuildCity(H("M12"), 3), ProgressCards((1, 2))):
        assert action_from_json(json.loads(json.dumps(a.to_json()))) == a
    assert Attack(H("C4"), H("D4")).to_json() == {"type": "attack", "src": "C4", "dst": "D4",
                                                  "leader": None}
    for bad in ({}, {"type": "fly"}, {"type": "attack", "src": "Z9", "dst": "C4"},
                {"type": "build_city", "hex": "C4"}):
        with pytest.raises(ValueError):
            action_from_json(bad)


def test_every_rule_id_is_named_by_a_test():
    """Each rule id of docs/rules.md appears in some test name or docstring."""
    rules = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
    ids = set(re.findall(r"\*\*(R-[A-Z]+-[A-Z0-9]+)", rules.read_text(encoding="utf-8")))
    assert len(ids) > 70
    text = "\n".join(p.read_text(encoding="utf-8") for p in Path(__file__).parent.glob("*.py"))
    text += "\n".join(p.read_text(encoding="utf-8")
                      for p in Path(__file__).parents[1].glob("*/*.py"))
    named = {i for i in ids if i in text or i.lower().replace("-", "_") in text}
    assert sorted(ids - named) == []


def _view_from_json(state, seat):
    """engine.views.view as it was built before: the state's whole JSON, secrets deleted."""
    from engine.content import CONTENT
    from engine.game import decisions
    from engine.progress import all_victory_points
    from engine.state import SEEN_BY_ALL
    from engine.views import VIEW_FORMAT

    d = state.to_json()
    del d["seed"]
    del d["shuffles"]
    d["format"] = VIEW_FORMAT
    d["seat"] = seat
    d["deck_size"] = len(d.pop("deck"))
    pile, seen = d.pop("discard"), d.pop("discard_seen")
    d["discard_size"] = len(pile)
    d["revealed_cards"] = [c for c, w in zip(pile, seen) if w == SEEN_BY_ALL]
    if seat is not None:
        d["my_discarded_cards"] = [c for c, w in zip(pile, seen) if w == seat]
    stack = d.pop("tile_stack")
    d["current_tile"] = stack[0] if stack and state.phase == "tiles" else None
    d["tiles_left"] = len(stack)
    points = all_victory_points(state)
    for i, p in enumerate(d["players"]):
        p["hand_size"] = len(p["hand"])
        p["colour"] = CONTENT.colours[i]
        p["victory_points"] = points[i]
        p["tokens_on_board"] = CONTENT.tokens_per_player - p["supply"]
        if i != seat:
            del p["hand"]
    combat = d["combat"]
    if (combat is not None and combat["attack_cards"] is not None
            and combat["defend_cards"] is None and seat != combat["attacker"]):
        combat["attack_card_count"] = len(combat["attack_cards"])
        combat["attack_cards"] = None
    choices = d.pop("progress_choices")
    d["progress_submitted"] = sorted(int(k) for k in choices)
    if seat is not None and str(seat) in choices:
        d["my_progress_choice"] = choices[str(seat)]
    d["decisions"] = [{"seat": x.seat, "kind": x.kind, "prompt": x.prompt}
                      for x in decisions(state)]
    return d


def _lists_in(value):
    if isinstance(value, list):
        yield value
        for x in value:
            yield from _lists_in(x)
    elif isinstance(value, dict):
        for x in value.values():
            yield from _lists_in(x)


def _check_views_key_for_key(state, seen):
    before = json.dumps(state.to_json())
    for seat in [None, *range(state.num_players)]:
        v, ref = view(state, seat), _view_from_json(state, seat)
        assert json.dumps(v) == json.dumps(ref)  # keys in the same order too
        assert v == ref
        seen["attack_card_count"] += "attack_card_count" in (v["combat"] or {})
        seen["my_progress_choice"] += "my_progress_choice" in v
        seen["my_discarded_cards"] += bool(v.get("my_discarded_cards"))
        seen["current_tile"] += v["current_tile"] is not None
        seen["hand"] += any(p.get("hand") for p in v["players"])
        for lst in _lists_in(v):
            lst.append(99)
    assert json.dumps(state.to_json()) == before


@pytest.mark.parametrize("rules_version", [1, 2, 3])
def test_views_are_the_state_json_less_its_secrets_key_for_key(rules_version):
    """R-INFO-1..3: every view, built from the state's fields, is exactly what the state's
    JSON less its secrets was (same keys in the same order, same values), and shares no
    list with the state (changing a view changes no state)."""
    import random

    from engine.game import apply_in_place, decisions
    from engine.simulate import random_action

    seen = dict.fromkeys(("attack_card_count", "my_progress_choice", "my_discarded_cards",
                          "current_tile", "hand"), 0)
    for seed in range(3):
        rng = random.Random(seed)
        state, _ = new_game(3 + seed % 3, seed, random_map=seed % 2 == 0,
                            rules_version=rules_version)
        while decisions(state):
            _check_views_key_for_key(state, seen)
            s = rng.choice(decisions(state)).seat
            apply_in_place(state, s, random_action(state, s, rng))
    # random play seldom fights with cards: the attacker's face-down cards, set up
    wea = card("WEA", "G")
    s = make_state(tokens={"E5": (0, 3), "F5": (1, 1), **BLUE_FAR},
                   hands={0: [wea], 1: [card("FOR", "G")]})
    s, _ = play(s, 0, Attack(H("E5"), H("F5")), CommitAttackCards((wea,)))
    _check_views_key_for_key(s, seen)
    assert all(seen.values()), seen
