"""The score breakdown (engine/score_breakdown.py) against the engine's own final count:
R-END-2 (hexes with tokens except mountains, city values, 3 for Flight) and R-END-3
(ties: cards in hand, then cities on the board, then a shared win)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import view
from engine.content import CONTENT
from engine.progress import finish_game
from engine.score_breakdown import CARDS, CITIES, breakdown
from engine.simulate import play_game
from engine.state import OVER
from tests.engine.helpers import H, make_state


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(3, 5), seed=st.integers(0, 10**6), random_map=st.booleans())
def test_breakdown_sums_equal_the_engine_final_scores_r_end_2_r_end_3(n, seed, random_map):
    """Random legal play to the end: every seat's sources add up to the engine's score,
    the ranking picks the engine's winners, and any seat's view gives the same numbers
    as the spectator view (the breakdown needs nothing secret)."""
    state, _ = play_game(n, seed, random_map=random_map)
    assert state.phase == OVER
    b = breakdown(view(state, None))
    assert [s.total for s in b.scores] == state.scores
    assert [s.hex_points + s.city_points + s.flight for s in b.scores] == state.scores
    assert list(b.winners) == state.winners
    assert {b.order[0], *b.winners} == set(b.winners)
    for s in b.scores:
        assert all(state.terrain[h] != "M" and state.owner[h] == s.seat for h in s.hexes)
        assert all(state.terrain[h] == "M" for h in s.mountain_hexes)
        assert s.flight == (3 if state.players[s.seat].era >= CONTENT.flight else 0)
        assert s.cards == len(state.players[s.seat].hand)
    assert b.ranks[b.order[0]] == 1 and sorted(b.ranks) == list(b.ranks[s] for s in b.order)
    for seat in range(n):
        assert breakdown(view(state, seat)) == b
    if b.tie_break is not None:
        assert b.tie_break.winners == b.winners


def _finished(**kw):
    """A hand-made position counted as the game's end by the engine itself."""
    state = make_state(**kw)
    finish_game(state, [])
    return state


def test_sources_mountains_cities_flight_r_end_2():
    state = _finished(
        terrain={"C3": "M"},
        tokens={"C3": (0, 2), "D4": (0, 3), "F5": (0, 1), "H6": (1, 1)},
        cities={"E8": (0, 3), "G9": (0, 2), "J9": (1, 4)},
        eras={0: CONTENT.flight, 1: 9},
    )
    b = breakdown(view(state, None))
    red, blue = b.scores[0], b.scores[1]
    assert red.hexes == (H("D4"), H("F5")) and red.mountain_hexes == (H("C3"),)
    assert red.cities == ((H("E8"), 3), (H("G9"), 2))
    assert red.flight == 3 and red.total == 2 + 5 + 3 == state.scores[0]
    assert blue.total == 1 + 4 == state.scores[1] and blue.flight == 0
    assert b.winners == (0,) and b.tie_break is None and b.ranks == (1, 2, 3)


def test_tie_broken_by_cards_in_hand_r_end_3():
    state = _finished(tokens={"C3": (0, 1), "D5": (0, 1), "F3": (1, 1), "G5": (1, 1)},
                      hands={0: [0], 1: [1, 2]})
    b = breakdown(view(state, None))
    assert b.winners == (1,) == tuple(state.winners)
    tb = b.tie_break
    assert tb is not None and tb.tied == (0, 1) and tb.vp == 2
    assert tb.decided_by == CARDS and not tb.shared
    assert [(s.criterion, s.values) for s in tb.steps] == [(CARDS, ((0, 1), (1, 2)))]
    assert b.ranks == (2, 1, 3)


def test_tie_broken_by_cities_after_cards_r_end_3():
    state = _finished(tokens={"C3": (0, 1), "D5": (0, 1), "F3": (1, 1)},
                      cities={"J9": (0, 3), "C9": (1, 2), "E9": (1, 2)},
                      hands={0: [0], 1: [1], 2: [3, 4, 5]})
    b = breakdown(view(state, None))
    assert b.winners == (1,) == tuple(state.winners)
    tb = b.tie_break
    assert tb is not None and tb.tied == (0, 1) and tb.vp == 5 and tb.decided_by == CITIES
    assert [s.criterion for s in tb.steps] == [CARDS, CITIES]
    assert tb.steps[1].values == ((0, 1), (1, 2))


def test_full_tie_is_a_shared_win_r_end_3():
    state = _finished(tokens={"C3": (0, 1), "F3": (1, 1), "J3": (2, 1)},
                      hands={0: [0], 1: [1], 2: [2]})
    b = breakdown(view(state, None))
    assert b.winners == (0, 1, 2) == tuple(state.winners)
    assert b.ranks == (1, 1, 1)
    tb = b.tie_break
    assert tb is not None and tb.shared and tb.decided_by is None
    assert [s.criterion for s in tb.steps] == [CARDS, CITIES]
