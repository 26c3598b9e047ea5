"""Tempus's live page through the port: every choice it lists is legal (its steps apply in
order), every legal action is reachable on it, and what a page sends back is checked."""

from __future__ import annotations

import pytest

from engine import actions as A
from engine.game import apply, apply_in_place, decisions, to_act
from engine.legal import legal_actions
from engine.state import State
from engine.views import view
from games.registry import game
from tests.bot.helpers import random_states

WEB = game("tempus").web
assert WEB is not None


def _first_steps(c: dict) -> set:  # type: ignore[type-arg]
    out = set()
    for option in [*c["pairs"], *c["spots"], *c["buttons"]]:
        actions = WEB.actions({"steps": option["steps"]})
        out |= set(actions)
    return out


def _with_fights(seed: int) -> list[State]:
    """Every third position of a random game, and the fights its seats could start there
    followed to their end (random play seldom attacks)."""
    out: list[State] = []
    for i, state in enumerate(random_states(seed, 3)):
        if i % 3 == 0:
            out.append(state)
        if state.phase != "actions":
            continue
        for seat in to_act(state):
            for attack in [a for a in legal_actions(state, seat) if isinstance(a, A.Attack)]:
                fight = state.copy()
                apply_in_place(fight, seat, attack)
                while fight.combat is not None and decisions(fight):
                    out.append(fight.copy())
                    d = decisions(fight)[0]
                    options = legal_actions(fight, d.seat)
                    # the attacker with every card, the defender with none: a won fight
                    pick = options[0] if d.kind == "defend_cards" else options[-1]
                    apply_in_place(fight, d.seat, pick)
    kinds = {d.kind for s in out for d in decisions(s)}
    assert {"attack_cards", "defend_cards", "occupy"} <= kinds, kinds
    return out


@pytest.mark.parametrize("seed", [2, 5])
def test_every_listed_choice_is_legal_and_every_legal_action_reachable(seed: int) -> None:
    for state in _with_fights(seed):
        for seat in to_act(state):
            legal = legal_actions(state, seat)
            c = WEB.choices(state, seat, legal, "en")
            assert c is not None
            for option in [*c["pairs"], *c["spots"], *c["buttons"]]:
                s = state
                for action in WEB.actions({"steps": option["steps"]}):
                    s, _ = apply(s, seat, action)  # raises if the page listed an illegal step
                assert option["label"]
            reachable = _first_steps(c)
            for a in legal:
                if isinstance(a, (A.CommitAttackCards, A.DefendCards, A.ProgressCards,
                                  A.Discard)):
                    cards = c["cards"]
                    assert cards is not None and set(a.cards) <= set(cards["cards"])
                    assert cards["min"] <= len(a.cards) <= cards["max"]
                    # in the order the Discord's card selects send them too
                    assert WEB.actions({"decision": cards["decision"],
                                        "cards": list(a.cards)}) == [
                        type(a)(tuple(sorted(a.cards)))]
                else:
                    assert a in reachable, a


def test_a_seat_with_nothing_to_decide_has_no_choices() -> None:
    state = next(iter(random_states(4, 3)))
    idle = next(s for s in range(3) if s not in to_act(state))
    assert WEB.choices(state, idle, legal_actions(state, idle), "en") is None


def test_the_page_holds_its_own_hand_only() -> None:
    for state in random_states(5, 3, every=40):
        names = ["Ann", "Bob", "Cy"]
        assert WEB.page(view(state, None), names, "en")["hand"] is None
        for seat in range(3):
            hand = WEB.page(view(state, seat), names, "pl")["hand"]
            assert [c["id"] for c in hand] == list(state.players[seat].hand)


@pytest.mark.parametrize("data", [
    {}, {"steps": []}, {"steps": "end_turn"}, {"steps": ["x"] * 4}, {"steps": [3]},
    {"steps": ["nothing"]}, {"steps": ["move_token:A1"]}, {"cards": [1], "decision": "turn"},
    {"cards": [True], "decision": "discard"}, {"cards": list(range(20)), "decision": "discard"},
    {"cards": "1", "decision": "discard"}, [],
])
def test_malformed_page_requests_are_refused(data: object) -> None:
    with pytest.raises(ValueError):
        WEB.actions(data)  # type: ignore[arg-type]
