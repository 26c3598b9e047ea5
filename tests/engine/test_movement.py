"""The Move action: R-MOVE-1..9, R-CARD-TRA, R-ROUND-5."""

import pytest

from engine import IllegalAction, apply, decisions, legal_actions
from engine.actions import BeginMove, EndMove, EndTurn, MoveToken, PlayTransport
from engine.movement import destinations
from engine.state import MAIN, MOVE
from tests.engine.helpers import H, card, make_state, play, tokens_of

ROAD = 4  # Road building: move 1 token, distance 2
TRADE = 5  # Trade: move 2 tokens, distance 2
SEAFARING = 6


def dests(state, seat, src):
    return {f"{chr(65 + h % 13)}{h // 13 + 1}" for h in destinations(state, seat, src)}


def test_r_move_1_distance_and_token_count():
    """R-MOVE-1: up to `move` tokens, each up to `distance` hexes."""
    s = make_state(tokens={"E5": (0, 3)})
    assert dests(s, 0, H("E5")) == {"D4", "E4", "D5", "F5", "D6", "E6"}
    s = make_state(tokens={"E5": (0, 3)}, eras={0: ROAD})
    assert len(dests(s, 0, H("E5"))) == 18
    s, _ = play(s, 0, BeginMove(), MoveToken(H("E5"), H("E7")))
    assert s.stage == MAIN  # one token only in Road building: the move ends by itself
    assert tokens_of(s, 0) == {"E5": 2, "E7": 1}


def test_r_move_1_each_token_moves_once():
    """R-MOVE-1: a token that moved cannot move again in the same action."""
    s = make_state(tokens={"E5": (0, 1)}, eras={0: TRADE})
    s, _ = play(s, 0, BeginMove(), MoveToken(H("E5"), H("F5")))
    assert s.stage == MOVE
    with pytest.raises(IllegalAction, match="already moved"):
        apply(s, 0, MoveToken(H("F5"), H("G5")))
    assert not any(isinstance(a, MoveToken) for a in legal_actions(s, 0))


def test_r_move_2_blocked_by_other_players_tokens_and_cities():
    """R-MOVE-2: no entering or passing through another player's tokens or city."""
    s = make_state(tokens={"E5": (0, 1), "F5": (1, 1)}, cities={"D5": (2, 2)}, eras={0: ROAD})
    d = dests(s, 0, H("E5"))
    assert "F5" not in d and "D5" not in d
    assert "F4" in d and "G5" not in d  # G5 is 2 away only through Blue's F5
    s2 = make_state(land="B2:L11", tokens={"B5": (0, 1), "C5": (1, 1)},
                    sea=["B4", "B6", "C4", "C6"], eras={0: ROAD})
    assert "D5" not in dests(s2, 0, H("B5"))  # the only way is through Blue's tokens
    with pytest.raises(IllegalAction, match="Blue's tokens"):
        play(s, 0, BeginMove(), MoveToken(H("E5"), H("F5")))


def test_r_move_3_never_end_on_city_pass_own_city():
    """R-MOVE-3 (rulebook movement example): a token may pass through its own city
    (distance 2) but not another player's, and never ends on a city."""
    # corridor: B5 - C5 - D5 with sea around, a city on C5
    corridor = dict(land="B2:L11", sea=["B4", "C4", "B6", "C6", "D4", "D6"], eras={0: ROAD})
    own = make_state(tokens={"B5": (0, 1)}, cities={"C5": (0, 2)}, **corridor)
    assert "D5" in dests(own, 0, H("B5")) and "C5" not in dests(own, 0, H("B5"))
    other = make_state(tokens={"B5": (0, 1)}, cities={"C5": (1, 2)}, **corridor)
    assert "D5" not in dests(other, 0, H("B5"))
    with pytest.raises(IllegalAction, match="city"):
        play(own, 0, BeginMove(), MoveToken(H("B5"), H("C5")))


def test_r_move_4_stack_limit_at_end_pass_through_full_hex():
    """R-MOVE-4: pass through own full stacks; never end above the stack limit."""
    s = make_state(tokens={"B5": (0, 1), "C5": (0, 2)}, eras={0: ROAD},
                   sea=["B4", "C4", "B6", "C6", "D4", "D6"])
    assert s.stack_limit(0, H("C5")) == 3
    s.players[0].era = 4
    s.count[H("C5")] = 3
    s.players[0].supply -= 1
    d = dests(s, 0, H("B5"))
    assert "C5" not in d and "D5" in d


def test_r_move_5_land_only_mountains_allowed():
    """R-MOVE-5: only land; mountains may be entered."""
    s = make_state(tokens={"E5": (0, 1)}, terrain={"F5": "M"}, sea=["D5"])
    d = dests(s, 0, H("E5"))
    assert "F5" in d and "D5" not in d
    with pytest.raises(IllegalAction, match="sea"):
        play(s, 0, BeginMove(), MoveToken(H("E5"), H("D5")))


def _lake_state(**kw):
    # A lake of two hexes in the middle of the land: F6, G6.
    return make_state(sea=["F6", "G6"], **kw)


def test_r_move_6_lake_travel_uses_whole_move():
    """R-MOVE-6 (rulebook movement example): from a lakeshore hex to any shore hex of the
    same lake; it ends the token's movement (no land steps before or after)."""
    s = _lake_state(tokens={"E6": (0, 1)}, eras={0: ROAD})
    d = dests(s, 0, H("E6"))
    assert {"H6", "G7", "H7"} <= d  # far shore of the lake, distance > 2 over land
    assert "I6" not in d  # one more land step after crossing: not allowed
    s, _ = play(s, 0, BeginMove(), MoveToken(H("E6"), H("H6")))
    assert tokens_of(s, 0) == {"H6": 1} and s.stage == MAIN


def test_r_move_6_lake_not_a_path_for_non_shore_tokens():
    s = _lake_state(tokens={"C6": (0, 1)}, eras={0: ROAD})
    assert "H6" not in dests(s, 0, H("C6"))


def test_r_move_7_sea_travel_from_seafaring():
    """R-MOVE-7: coastal to coastal from Seafaring on, not before."""
    before = make_state(tokens={"B5": (0, 1)}, eras={0: TRADE})
    assert "L10" not in dests(before, 0, H("B5"))
    after = make_state(tokens={"B5": (0, 1)}, eras={0: SEAFARING})
    d = dests(after, 0, H("B5"))
    assert "L10" in d and "F6" not in d  # inland hexes are not coastal


def test_r_move_9_board_edge_counts_as_coast():
    """R-MOVE-9: land on the board edge touches open sea even without a sea hex."""
    s = make_state(land="A1:M12", tokens={"A5": (0, 1)}, eras={0: SEAFARING})
    assert "M12" in dests(s, 0, H("A5"))


def test_r_move_8_transport_adds_a_token_r_card_tra():
    """R-MOVE-8 / R-CARD-TRA: Transport lets one more token move in the same action."""
    tra = card("TRA", "G")
    s = make_state(tokens={"E5": (0, 2)}, hands={0: [tra]})
    s, _ = play(s, 0, BeginMove(), MoveToken(H("E5"), H("F5")))
    assert s.stage == MOVE  # holding Transport, the move waits
    with pytest.raises(IllegalAction, match="Transport"):
        apply(s, 0, MoveToken(H("E5"), H("D5")))
    s, _ = play(s, 0, PlayTransport(tra), MoveToken(H("E5"), H("D5")))
    assert tokens_of(s, 0) == {"F5": 1, "D5": 1}
    assert tra in s.discard
    assert s.turn == 1  # nothing left to move or play: move and turn end by themselves


def test_r_move_8_transport_works_for_lake_moves():
    tra = card("TRA", "F")
    s = _lake_state(tokens={"E6": (0, 2)}, hands={0: [tra]})
    s, _ = play(s, 0, BeginMove(), PlayTransport(tra), MoveToken(H("E6"), H("H6")),
                MoveToken(H("E6"), H("H7")))
    assert tokens_of(s, 0) == {"H6": 1, "H7": 1}


def test_r_round_5_fruitless_move_uses_marker():
    """R-ROUND-5: a Move with no token moved is allowed and uses the marker."""
    s = make_state(tokens={"E5": (0, 1)}, hands={0: [card("TRA", "G"), card("SAN", "G")]})
    markers = s.players[0].markers
    s, _ = play(s, 0, BeginMove(), EndMove())
    assert s.players[0].markers == markers - 1 and tokens_of(s, 0) == {"E5": 1}
    assert decisions(s)[0].seat == 0  # holds Sanitation: may still play it, then end turn
    assert EndTurn() in legal_actions(s, 0)
