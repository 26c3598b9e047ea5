"""R-INFO-1 kept by the flow of play (rules 4): after the last action the turn ends by
itself only when the hand is empty. Whether a hand that holds cards could play one must
not show in what the table sees, so two hands of the same size, one with a playable card
and one without, leave the same public trail."""

from engine import apply, view
from engine.actions import BeginMove, EndMove, EndTurn
from engine.legal import legal_actions
from engine.rules import TURN_ENDS_ONLY_WITH_EMPTY_HAND_FROM
from tests.engine.helpers import card, make_state, play

#: Sanitation next to a hex Red holds can be played; Weapons never outside a fight
PLAYABLE, UNPLAYABLE = card("SAN", "G"), card("WEA", "G")


def _last_move(hand, rules_version=TURN_ENDS_ONLY_WITH_EMPTY_HAND_FROM):
    s = make_state(tokens={"E5": (0, 1), "K9": (1, 1)}, hands={0: hand} if hand else {},
                   markers=1, rules_version=rules_version)
    s.players[1].markers = 1
    return play(s, 0, BeginMove(), EndMove())


def test_r_info_1_with_cards_in_hand_the_player_ends_the_turn() -> None:
    for hand in ([PLAYABLE], [UNPLAYABLE]):
        s, events = _last_move(hand)
        assert s.turn == 0, hand  # still Red's: End turn (or a card) is theirs to choose
        assert any(isinstance(a, EndTurn) for a in legal_actions(s, 0))
        s, _ = apply(s, 0, EndTurn())
        assert s.turn == 1


def test_r_info_1_the_public_trail_does_not_depend_on_what_the_hand_holds() -> None:
    (a, ev_a), (b, ev_b) = _last_move([PLAYABLE]), _last_move([UNPLAYABLE])
    assert [e.text for e in ev_a] == [e.text for e in ev_b]
    pub_a, pub_b = view(a, None), view(b, None)
    assert pub_a["turn"] == pub_b["turn"] and pub_a["players"] == pub_b["players"]


def test_r_info_1_an_empty_hand_ends_the_turn_by_itself() -> None:
    s, _ = _last_move([])
    assert s.turn == 1  # nothing could be said by waiting: a hand's size is public


def test_games_stored_under_rules_3_keep_ending_the_turn_when_nothing_is_playable() -> None:
    s, _ = _last_move([UNPLAYABLE], rules_version=3)
    assert s.turn == 1
    s, _ = _last_move([PLAYABLE], rules_version=3)
    assert s.turn == 0
