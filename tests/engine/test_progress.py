"""Progress phase, era end, game end and scoring: R-PROG-1..6, R-ERA-3/4, R-ROUND-3/4,
R-END-1..3, R-CARD-EDU; the rulebook's progress example."""

import pytest

from engine import IllegalAction, apply, decisions
from engine.actions import BeginMove, Discard, EndMove, EndTurn, ProgressCards
from engine.content import CONTENT
from engine.progress import finish_game, progress_points, victory_points
from engine.state import ACTIONS, OVER, PROGRESS
from tests.engine.helpers import H, card, make_state, play

ROAD, TRADE, SEAFARING = 4, 5, 6


def _to_progress(s):
    """Red (seat 0) uses its last marker on an empty move; everyone else has none."""
    for i, p in enumerate(s.players):
        p.markers = 1 if i == 0 else 0
    # (with cards in hand the player ends the turn: R-INFO-1, rules 4)
    return play(s, 0, BeginMove(), EndMove(), *([EndTurn()] if s.players[0].hand else []))


def test_progress_example_r_prog_1_3_5_r_card_edu():
    """Rulebook progress example: Red in Trade, Blue in Road building. Blue catches up.
    New era Seafaring (forest). Red: 5 tokens on forest + 1 forest card = 6. Blue: 3 tokens
    on forest, 1 city, Education (forest) = 2 -> 6. Both advance to Seafaring."""
    wea_w, edu_w = card("WEA", "W"), card("EDU", "W")
    s = make_state(
        default_terrain="W",
        tokens={"C3": (0, 3), "C5": (0, 2), "I3": (1, 3), "K9": (2, 1)},
        terrain={"K9": "G"},
        cities={"I6": (1, 2)},
        hands={0: [wea_w], 1: [edu_w]},
        eras={0: TRADE, 1: ROAD, 2: ROAD},
    )
    s, events = _to_progress(s)
    assert s.phase == PROGRESS
    assert [p.era for p in s.players] == [TRADE, TRADE, TRADE]  # R-PROG-1
    assert {d.seat for d in decisions(s)} == {0, 1}  # Green has no cards: no choice
    assert CONTENT.eras[SEAFARING].terrain == "W"
    s, _ = play(s, 1, ProgressCards((edu_w,)))
    assert s.phase == PROGRESS  # waits for Red (R-PROG-2: simultaneous)
    s, events = play(s, 0, ProgressCards((wea_w,)))
    points = {e.seat: e.data["points"] for e in events if e.kind == "progress_reveal"}
    assert points == {0: 6, 1: 6, 2: 0}
    assert [p.era for p in s.players] == [SEAFARING, SEAFARING, TRADE]  # R-PROG-5 tie
    assert wea_w in s.discard and edu_w in s.discard  # R-PROG-4
    assert s.phase == ACTIONS and s.start_player == 1  # R-ROUND-4


def test_r_prog_3_points_tokens_not_hexes_and_cities():
    """R-PROG-3: 1 per token (not per hex) on the terrain, 1 per city, matching cards."""
    s = make_state(default_terrain="F", tokens={"C3": (0, 2), "E5": (0, 1)},
                   terrain={"E5": "G"}, cities={"H7": (0, 2), "K9": (0, 3)})
    edu_f = card("EDU", "F")
    assert progress_points(s, 0, [], 1) == 2 + 2
    assert progress_points(s, 0, [edu_f], 1) == 2 + 2 + 2
    assert progress_points(s, 0, [card("WEA", "G")], 1) == 4


def test_r_prog_6_first_era_new_era_is_writing_r_era_3_bonus():
    """R-PROG-6: in the first era the new era is Writing (farmland); R-ERA-3: advancing into
    Writing draws 2 cards."""
    s = make_state(default_terrain="F", tokens={"C3": (0, 2), "K9": (1, 1), "G7": (2, 1)},
                   terrain={"K9": "G", "G7": "G"})
    deck = len(s.deck)
    s, events = _to_progress(s)
    assert [p.era for p in s.players] == [1, 0, 0]
    assert len(s.players[0].hand) == 2 and len(s.deck) == deck - 2
    assert any(e.kind == "advance" and e.seat == 0 for e in events)


def test_r_era_3_no_bonus_when_catching_up_and_bonus_discard():
    """R-ERA-3: catching up into Writing gives no cards; an advancing player over the limit
    discards."""
    hand = [card("EDU", "G"), card("EDU", "G", 1), card("FOR", "H"), card("FOR", "H", 1),
            card("HEA", "H")]
    s = make_state(default_terrain="F", tokens={"C3": (0, 2), "K9": (1, 1), "G7": (2, 1)},
                   terrain={"K9": "G", "G7": "G"}, eras={1: 1}, hands={2: hand})
    # Blue is in Writing already: Red and Green catch up to Writing without cards; the
    # new era is Agriculture (hills).
    s, _ = _to_progress(s)
    assert [p.era for p in s.players] == [1, 1, 1]
    assert len(s.players[0].hand) == 0
    s2 = make_state(default_terrain="F", tokens={"C3": (0, 2), "K9": (1, 1), "G7": (2, 1)},
                    terrain={"K9": "G", "G7": "G"}, hands={0: hand})
    s2, _ = _to_progress(s2)
    s2, _ = play(s2, 0, ProgressCards(()))
    assert s2.phase == PROGRESS and s2.discards == {0: 2}  # 7 cards, Writing limit 5
    with pytest.raises(IllegalAction):
        apply(s2, 1, Discard(()))
    s2, _ = play(s2, 0, Discard(tuple(hand[:2])))
    assert s2.phase == ACTIONS and len(s2.players[0].hand) == 5


def test_r_end_1_game_ends_after_flight_era_r_era_4_r_end_2():
    """R-END-1: the game ends at the end of the era in which someone reached Flight;
    R-END-2 / R-ERA-4: 1 per non-mountain hex, city values, 3 for Flight."""
    s = make_state(default_terrain="H", eras={0: 9, 1: 9, 2: 9},
                   tokens={"C3": (0, 3), "C5": (0, 1), "E7": (1, 2), "K9": (2, 1)},
                   terrain={"C5": "M", "K9": "G", "E7": "G"}, cities={"H3": (1, 4)})
    s, events = _to_progress(s)
    assert s.phase == OVER and [p.era for p in s.players] == [10, 9, 9]
    assert s.scores == [1 + 3, 1 + 4, 1]
    assert s.winners == [1]
    assert decisions(s) == []
    with pytest.raises(IllegalAction, match="over"):
        apply(s, 0, BeginMove())


def test_r_end_3_tie_breaks():
    """R-END-3: most cards in hand, then most cities on the board, then shared."""
    s = make_state(tokens={"C3": (0, 1), "E7": (1, 1), "K9": (2, 1)})
    s.players[1].hand = [card("EDU", "G")]
    finish_game(s, [])
    assert s.scores == [1, 1, 1] and s.winners == [1]
    s = make_state(tokens={"C3": (0, 2), "E7": (1, 1)}, cities={"K9": (2, 2)})
    s.owner[H("E9")] = 1
    s.count[H("E9")] = 1
    finish_game(s, [])
    assert s.scores == [1, 2, 2] and s.winners == [2]  # Yellow has a city
    s = make_state(tokens={"C3": (0, 1), "E7": (1, 1), "K9": (2, 1)})
    finish_game(s, [])
    assert s.winners == [0, 1, 2]
    assert victory_points(s, 0) == 1


def test_r_round_3_progress_after_all_markers():
    """R-ROUND-3: the progress phase comes when every marker is used."""
    s = make_state(tokens={"C3": (0, 1), "E7": (1, 1), "K9": (2, 1)},
                   hands={1: [card("EDU", "G")]})
    s.players[2].markers = 0
    s.players[1].markers = 1
    s.players[0].markers = 1
    s, _ = play(s, 0, BeginMove(), EndMove())
    assert s.phase == ACTIONS and s.turn == 1
    s, _ = play(s, 1, BeginMove(), EndMove(), EndTurn())  # a card in hand: ended by Blue
    assert s.phase == PROGRESS
