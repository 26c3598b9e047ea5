"""Growth, Idea and Build City actions and the action rounds:
R-GROW-1..5, R-DRAW-1..4, R-CITY-1..4, R-ROUND-1/2/5, R-CARD-1..3."""

import pytest

from engine import IllegalAction, apply, decisions, legal_actions
from engine.actions import (
    Attack,
    BeginGrow,
    BeginMove,
    BuildCity,
    Discard,
    DrawCards,
    EndGrow,
    EndTurn,
    GrowToken,
    PlayHealthCare,
)
from engine.state import DISCARD, GROW, MAIN
from tests.engine.helpers import H, card, make_state, play, tokens_of

AGRICULTURE = 2


def test_r_grow_1_only_own_grassland():
    """R-GROW-1: new tokens go on grassland hexes already holding own tokens."""
    s = make_state(tokens={"E5": (0, 1), "G5": (0, 1)}, terrain={"G5": "F"},
                   eras={0: AGRICULTURE}, hands={0: [card("SAN", "G")]})
    s, _ = play(s, 0, BeginGrow())
    assert {a.hex for a in legal_actions(s, 0) if isinstance(a, GrowToken)} == {H("E5")}
    with pytest.raises(IllegalAction, match="grassland"):
        apply(s, 0, GrowToken(H("G5")))
    with pytest.raises(IllegalAction, match="grassland"):
        apply(s, 0, GrowToken(H("C3")))
    s, _ = play(s, 0, GrowToken(H("E5")))
    assert tokens_of(s, 0) == {"E5": 2, "G5": 1} and s.players[0].supply == 13


def test_r_grow_2_one_per_hex():
    """R-GROW-2: at most one new token per hex, whatever the growth number."""
    s = make_state(tokens={"E5": (0, 1)}, eras={0: AGRICULTURE}, hands={0: [card("SAN", "G")]})
    s, _ = play(s, 0, BeginGrow(), GrowToken(H("E5")))
    with pytest.raises(IllegalAction, match="one per hex"):
        apply(s, 0, GrowToken(H("E5")))
    s2 = make_state(tokens={"E5": (0, 1)}, eras={0: AGRICULTURE})
    s2, _ = play(s2, 0, BeginGrow(), GrowToken(H("E5")))
    assert tokens_of(s2, 0) == {"E5": 2} and s2.turn == 1  # growth and turn ended


def test_r_grow_1_growth_number():
    """The era's growth number caps the new tokens (1 in the Starting box)."""
    s = make_state(tokens={"E5": (0, 1), "G5": (0, 1)}, hands={0: [card("SAN", "G")]})
    s, _ = play(s, 0, BeginGrow(), GrowToken(H("E5")))
    # R-INFO-4: with cards in hand the player ends the spent Growth
    assert s.stage == GROW and tokens_of(s, 0) == {"E5": 2, "G5": 1}
    with pytest.raises(IllegalAction, match="no more tokens may grow"):
        apply(s, 0, GrowToken(H("G5")))
    s, _ = apply(s, 0, EndGrow())
    assert s.stage == MAIN


def test_r_grow_3_stack_limit():
    """R-GROW-3: the stack limit applies."""
    s = make_state(tokens={"E5": (0, 2)}, hands={0: [card("SAN", "F")]})
    s, _ = play(s, 0, BeginGrow())
    with pytest.raises(IllegalAction, match="stack limit"):
        apply(s, 0, GrowToken(H("E5")))


def test_r_grow_4_empty_supply():
    """R-GROW-4: with no tokens in supply nothing is placed (the action is still allowed)."""
    s = make_state(tokens={"E5": (0, 1)})
    s.players[0].supply = 0
    s, events = play(s, 0, BeginGrow())
    assert tokens_of(s, 0) == {"E5": 1} and s.players[0].markers == 2 and s.turn == 1


def test_r_grow_5_health_care_r_card_hea():
    """R-GROW-5 / R-CARD-HEA: Health care adds one token; still one per hex."""
    hea = card("HEA", "G")
    s = make_state(tokens={"E5": (0, 1), "G5": (0, 1)}, hands={0: [hea]})
    s, _ = play(s, 0, BeginGrow(), GrowToken(H("E5")))
    assert s.stage == GROW
    s, _ = play(s, 0, PlayHealthCare(hea), GrowToken(H("G5")))
    assert tokens_of(s, 0) == {"E5": 2, "G5": 2} and hea in s.discard
    s2 = make_state(tokens={"E5": (0, 1)}, hands={0: [hea]})
    s2, _ = play(s2, 0, BeginGrow(), PlayHealthCare(hea), GrowToken(H("E5")))
    assert tokens_of(s2, 0) == {"E5": 2} and s2.turn == 1  # one hex: one token, growth over


def test_r_round_5_empty_growth_allowed():
    """R-ROUND-5: growth with no grassland is a legal, fruitless action."""
    s = make_state(tokens={"E5": (0, 1)}, default_terrain="F")
    assert BeginGrow() in legal_actions(s, 0)
    s, _ = play(s, 0, BeginGrow())
    assert s.players[0].markers == 2 and tokens_of(s, 0) == {"E5": 1}


def test_r_draw_1_draw_count_and_r_draw_4_play_at_once():
    """R-DRAW-1: draw the era's number; R-DRAW-4: a drawn Leader can attack at once."""
    lea = card("LEA", "G")
    s = make_state(tokens={"E5": (0, 2), "F5": (1, 1), "B2": (1, 1), "B4": (1, 1),
                           "B6": (1, 1)}, eras={0: 1})
    s.deck.remove(lea)
    s.deck.append(lea)  # the top card
    s, events = play(s, 0, DrawCards())
    assert len(s.players[0].hand) == 2 and lea in s.players[0].hand
    assert s.stage == MAIN and s.turn == 0  # may still attack with the Leader
    assert Attack(H("E5"), H("F5"), lea) in legal_actions(s, 0)
    assert any(e.private_to == 0 for e in events)


def test_r_draw_2_discard_down_to_limit_r_card_3():
    """R-DRAW-2: over the limit, discard at once, choosing; R-CARD-3: no effect."""
    hand = [card("EDU", "G"), card("EDU", "F"), card("FOR", "W"), card("FOR", "H"),
            card("WEA", "G")]
    s = make_state(tokens={"E5": (0, 1)}, hands={0: hand}, eras={0: 1})
    s, _ = play(s, 0, DrawCards())
    assert s.stage == DISCARD and s.discards == {0: 2}
    assert decisions(s)[0].kind == "discard"
    with pytest.raises(IllegalAction, match="exactly 2"):
        apply(s, 0, Discard((hand[0],)))
    s, _ = play(s, 0, Discard((hand[0], hand[1])))
    assert len(s.players[0].hand) == 5 and s.discard[-2:] == [hand[0], hand[1]]
    assert s.discard_seen[-2:] == [0, 0]  # face down: only seat 0 saw them (R-INFO-1)


def test_r_draw_3_reshuffle_and_both_empty():
    """R-DRAW-3: an empty deck takes the shuffled discard pile; with both empty, draw what
    there is."""
    s = make_state(tokens={"E5": (0, 1)}, eras={0: 1})
    s.discard = s.deck[1:]
    s.discard_seen = [-1] * len(s.discard)
    s.deck = s.deck[:1]
    s, events = play(s, 0, DrawCards())
    assert len(s.players[0].hand) == 2 and any(e.kind == "reshuffle" for e in events)
    assert len(s.deck) + len(s.discard) == 52
    s2 = make_state(tokens={"E5": (0, 1)}, eras={0: 1})
    s2.deck = s2.deck[:1]
    s2, _ = play(s2, 0, DrawCards())
    assert len(s2.players[0].hand) == 1


def test_r_city_1_all_tokens_removed_value_at_most_count():
    """R-CITY-1: all tokens go back; value at most the tokens removed."""
    s = make_state(tokens={"E5": (0, 4)}, eras={0: 8})
    assert {a.value for a in legal_actions(s, 0) if isinstance(a, BuildCity)} == {2, 3, 4}
    s, _ = play(s, 0, BuildCity(H("E5"), 3))
    assert s.count[H("E5")] == 0 and s.city_owner[H("E5")] == 0 and s.city_value[H("E5")] == 3
    assert s.players[0].supply == 16 and s.players[0].cities == [2, 2, 2, 3, 3, 4, 4]
    s2 = make_state(tokens={"E5": (0, 2)})
    with pytest.raises(IllegalAction, match="needs at least 3"):
        apply(s2, 0, BuildCity(H("E5"), 3))


def test_r_city_2_not_mountains_not_adjacent():
    """R-CITY-2: not on mountains, not next to any city."""
    s = make_state(tokens={"E5": (0, 2), "H5": (0, 2)}, terrain={"E5": "M"},
                   cities={"I5": (1, 2)})
    with pytest.raises(IllegalAction, match="mountains"):
        apply(s, 0, BuildCity(H("E5"), 2))
    with pytest.raises(IllegalAction, match="next to a city"):
        apply(s, 0, BuildCity(H("H5"), 2))
    assert not any(isinstance(a, BuildCity) for a in legal_actions(s, 0))


def test_r_city_3_needs_two_tokens_and_a_fitting_city():
    """R-CITY-3: at least 2 tokens; no fitting unused city, no city."""
    s = make_state(tokens={"E5": (0, 1), "G5": (0, 2)})
    with pytest.raises(IllegalAction):
        apply(s, 0, BuildCity(H("E5"), 2))
    s.players[0].cities = [3, 4]
    assert not any(isinstance(a, BuildCity) for a in legal_actions(s, 0))
    with pytest.raises(IllegalAction, match="no unused city of value 2"):
        apply(s, 0, BuildCity(H("G5"), 2))


def test_r_round_1_markers_and_r_round_2_order():
    """R-ROUND-1: markers from the own era; R-ROUND-2: seat order from the start player,
    players with markers left keep going."""
    s = make_state(tokens={"B3": (0, 1), "F5": (1, 1), "K9": (2, 1)},
                   eras={0: 3, 1: 0, 2: 0}, start_player=1, turn=1)
    assert [p.markers for p in s.players] == [4, 3, 3]
    order = []
    while s.era_number == 1:
        seat = s.turn
        order.append(seat)
        s, _ = play(s, seat, BeginMove(), *([] if s.stage != "move" else []))
        if s.stage == "move":
            s, _ = play(s, seat, legal_actions(s, seat)[0])  # end the move
        if s.era_number == 1 and s.turn == seat and s.turn_actions == 0:
            s, _ = play(s, seat, EndTurn())
    assert order == [1, 2, 0, 1, 2, 0, 1, 2, 0, 0]
    assert s.start_player == 2  # R-ROUND-4: the start player marker passed on


def test_r_card_1_cards_only_on_own_turn_or_when_asked():
    """R-CARD-1: outside their turn players cannot play cards for effects."""
    rel = card("REL", "G")
    s = make_state(tokens={"E5": (0, 1), "F5": (1, 1)}, hands={1: [rel]})
    from engine.actions import PlayReligion

    with pytest.raises(IllegalAction, match="not your turn"):
        apply(s, 1, PlayReligion(rel, H("E5"), H("F5")))


def test_r_card_2_played_cards_are_discarded():
    """R-CARD-2: a card played for its effect goes to the discard pile."""
    hea = card("HEA", "W")
    s = make_state(tokens={"E5": (0, 1), "G5": (0, 1)}, hands={0: [hea]})
    s, _ = play(s, 0, BeginGrow(), PlayHealthCare(hea), GrowToken(H("E5")), GrowToken(H("G5")))
    assert s.discard == [hea] and hea not in s.players[0].hand


def test_end_grow_explicit():
    hea = card("HEA", "W")
    s = make_state(tokens={"E5": (0, 1), "G5": (0, 1)}, hands={0: [hea]})
    s, _ = play(s, 0, BeginGrow(), EndGrow())
    assert tokens_of(s, 0) == {"E5": 1, "G5": 1} and s.turn == 0  # a card in hand
    s, _ = play(s, 0, EndTurn())
    assert s.turn == 1


def test_action_after_action_rejected():
    s = make_state(tokens={"E5": (0, 1)}, hands={0: [card("SAN", "G")]})
    s, _ = play(s, 0, DrawCards())
    with pytest.raises(IllegalAction, match="already taken your action"):
        apply(s, 0, BeginMove())
