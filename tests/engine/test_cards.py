"""Card effects: R-CARD-REL, R-CARD-SAN, R-CARD-GOV (others in test_combat, test_actions,
test_movement, test_progress)."""

import pytest

from engine import IllegalAction, apply, legal_actions
from engine.actions import (
    BeginGrow,
    BeginMove,
    DrawCards,
    EndTurn,
    GrowToken,
    MoveToken,
    PlayGovernment,
    PlayReligion,
    PlaySanitation,
)
from engine.state import MAIN, MOVE
from tests.engine.helpers import H, card, make_state, play, tokens_of

TRADE = 5


def test_r_card_rel_converts_adjacent_token():
    """R-CARD-REL: an adjacent enemy token goes home, one of mine comes onto my hex;
    protection (R-COMBAT-2) does not help against Religion."""
    rel = card("REL", "G")
    s = make_state(tokens={"E5": (0, 1), "F5": (1, 2)}, hands={0: [rel]})
    assert PlayReligion(rel, H("F5"), H("E5")) in legal_actions(s, 0)
    s, _ = play(s, 0, PlayReligion(rel, H("F5"), H("E5")))
    assert tokens_of(s, 0) == {"E5": 2} and tokens_of(s, 1) == {"F5": 1}
    assert s.players[1].supply == 15 and s.players[0].supply == 14
    assert s.turn == 0 and s.turn_actions == 1  # not an action


def test_r_card_rel_limits():
    """Not with an empty supply, not over the stack limit, only adjacent enemies."""
    rel = card("REL", "F")
    s = make_state(tokens={"E5": (0, 2), "F5": (1, 1), "H5": (1, 1)}, hands={0: [rel]})
    with pytest.raises(IllegalAction, match="stack limit"):
        apply(s, 0, PlayReligion(rel, H("F5"), H("E5")))
    with pytest.raises(IllegalAction, match="next to"):
        apply(s, 0, PlayReligion(rel, H("H5"), H("E5")))
    s.players[0].supply = 0
    with pytest.raises(IllegalAction, match="supply"):
        apply(s, 0, PlayReligion(rel, H("F5"), H("E5")))
    assert not any(isinstance(a, PlayReligion) for a in legal_actions(s, 0))


def test_r_card_rel_with_sanitation_and_move_converted_token():
    """R-CARD-REL ruling: with Sanitation at the same time the limit may be exceeded; the
    converted token is new and may move in the same Move action (Slovak example)."""
    rel, san = card("REL", "W"), card("SAN", "W")
    s = make_state(tokens={"E5": (0, 2), "F5": (1, 1), "K2": (0, 1)}, hands={0: [rel, san]},
                   eras={0: TRADE})
    s.players[0].era = 5
    s.count[H("E5")] = 3
    s.players[0].supply -= 1
    s, _ = play(s, 0, BeginMove(), MoveToken(H("K2"), H("K3")))
    assert s.stage == MOVE
    s, _ = play(s, 0, PlaySanitation(san, H("E5")), PlayReligion(rel, H("F5"), H("E5")))
    assert s.count[H("E5")] == 4
    s, _ = play(s, 0, MoveToken(H("E5"), H("F5")))
    assert tokens_of(s, 0) == {"E5": 3, "F5": 1, "K3": 1}


def test_r_card_san_raises_limit_until_a_token_leaves():
    """R-CARD-SAN: +1 on a hex (stackable); it lasts until a token leaves."""
    san1, san2 = card("SAN", "G"), card("SAN", "F")
    s = make_state(tokens={"E5": (0, 2), "G5": (0, 1)}, hands={0: [san1, san2]})
    s, _ = play(s, 0, PlaySanitation(san1, H("E5")), PlaySanitation(san2, H("E5")))
    assert s.stack_limit(0, H("E5")) == 4 and s.stage == MAIN
    s, _ = play(s, 0, BeginGrow(), GrowToken(H("E5")))
    assert s.count[H("E5")] == 3
    # A token leaves: the raised limit returns to normal (the extra token stays).
    s.turn = 0
    s.stage = MAIN
    s.turn_actions = 1
    s, _ = play(s, 0, BeginMove(), MoveToken(H("E5"), H("F5")))
    assert s.count[H("E5")] == 2 and s.stack_limit(0, H("E5")) == 2


def test_r_card_san_not_on_enemy_or_city():
    san = card("SAN", "H")
    s = make_state(tokens={"E5": (0, 1), "F5": (1, 1)}, cities={"H5": (0, 2)}, hands={0: [san]})
    for bad in ("F5", "H5"):
        with pytest.raises(IllegalAction, match="land hex without a city"):
            apply(s, 0, PlaySanitation(san, H(bad)))


def test_r_card_gov_double_turn():
    """R-CARD-GOV (a): the next action at once, using a second marker."""
    gov = card("GOV", "G")
    s = make_state(tokens={"E5": (0, 1)}, hands={0: [gov]})
    s, _ = play(s, 0, PlayGovernment(gov, "double"), DrawCards())
    assert s.turn == 0 and s.turn_actions == 1
    s, _ = play(s, 0, DrawCards())
    assert s.players[0].markers == 1 and s.turn_actions == 0


def test_r_card_gov_double_needs_a_marker():
    gov = card("GOV", "G")
    s = make_state(tokens={"E5": (0, 1)}, hands={0: [gov]}, markers=1)
    with pytest.raises(IllegalAction, match="no further action marker"):
        apply(s, 0, PlayGovernment(gov, "double"))


def test_r_card_gov_pass_keeps_marker_for_later():
    """R-CARD-GOV (b): pass this action round, keeping the marker for later in the era."""
    gov = card("GOV", "F")
    s = make_state(tokens={"B3": (0, 1), "F5": (1, 1), "K9": (2, 1)}, hands={0: [gov]})
    s, _ = play(s, 0, PlayGovernment(gov, "pass"))
    assert s.players[0].markers == 3 and s.turn == 1
    order = [0]
    while s.phase == "actions":
        seat = s.turn
        order.append(seat)
        s, _ = play(s, seat, DrawCards())
        while s.phase == "actions" and s.turn == seat and s.turn_actions == 0:
            if s.discards:
                s, _ = play(s, seat, legal_actions(s, seat)[0])
            elif EndTurn() in legal_actions(s, seat):
                s, _ = play(s, seat, EndTurn())
            else:
                break
    assert order.count(0) == 4 and order[-1] == 0  # the postponed marker is used last


def test_r_card_gov_pass_only_before_acting():
    gov = card("GOV", "W")
    s = make_state(tokens={"E5": (0, 1)}, hands={0: [gov, card("SAN", "G")]})
    s, _ = play(s, 0, DrawCards())
    with pytest.raises(IllegalAction, match="only before"):
        apply(s, 0, PlayGovernment(gov, "pass"))
