"""R-INFO-4 (rules 5): the flow of play says nothing of a hand beyond its size.

For two positions that differ only in which unseen cards one hand holds (same size; see
:mod:`tests.engine.info_twins`), every public action is legal in both and leads to the
same decisions (seat and kind) and the same public events. Checked over random games of 3,
4 and 5 seats; the same check finds the leak in games played under rules 4, where a Move
ended by itself unless the hand held Transport and a Growth unless it held Sanitation or
Health care.
"""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import apply
from engine.actions import BeginGrow, BeginMove, EndGrow, EndMove, GrowToken, MoveToken
from engine.state import GROW, MAIN, MOVE
from tests.engine.helpers import H, card, make_state, play
from tests.engine.info_twins import divergences

SETTINGS = settings(max_examples=9, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(players=st.sampled_from([3, 4, 5]), seed=st.integers(0, 10**6))
def test_r_info_4_twins_decide_alike_under_rules_5(players: int, seed: int) -> None:
    found, checked = divergences(players, seed, rules_version=5)
    assert checked > 100
    assert not found, found[:5]


def test_r_info_4_the_same_check_finds_the_leak_under_rules_4() -> None:
    kinds = set()
    for players, seed in ((3, 1), (4, 2), (5, 3)):
        found, _ = divergences(players, seed, rules_version=4)
        kinds |= {(d.after, d.what) for d in found}
    assert ("move_token", "decisions") in kinds
    assert ("begin_grow", "decisions") in kinds or ("grow_token", "decisions") in kinds


WEAPONS, TRANSPORT, HEALTH = card("WEA", "G"), card("TRA", "G"), card("HEA", "G")


def _moved_last_token(hand: list[int], rules_version: int = 5):
    s = make_state(tokens={"E5": (0, 2)}, hands={0: hand} if hand else {},
                   rules_version=rules_version)
    s, _ = play(s, 0, BeginMove())
    s.steps_left = 1
    return play(s, 0, MoveToken(H("E5"), H("E6")))[0]


def test_r_info_4_a_spent_move_waits_for_its_player_whatever_the_hand() -> None:
    for hand in ([WEAPONS], [TRANSPORT]):
        s = _moved_last_token(hand)
        assert s.stage == MOVE and s.turn == 0, hand
        s, _ = apply(s, 0, EndMove())
        assert s.stage == MAIN


def test_r_info_4_an_empty_hand_ends_the_move_by_itself() -> None:
    assert _moved_last_token([]).stage != MOVE


def test_games_under_rules_4_still_end_the_move_without_transport() -> None:
    assert _moved_last_token([WEAPONS], rules_version=4).stage != MOVE
    assert _moved_last_token([TRANSPORT], rules_version=4).stage == MOVE


def test_r_info_4_a_spent_growth_waits_for_its_player_whatever_the_hand() -> None:
    for hand in ([WEAPONS], [HEALTH]):
        s = make_state(tokens={"E5": (0, 1), "G5": (0, 1)}, hands={0: hand})
        s, _ = play(s, 0, BeginGrow(), GrowToken(H("E5")))
        assert s.stage == GROW, hand
        s, _ = apply(s, 0, EndGrow())
        assert s.stage == MAIN
    s = make_state(tokens={"E5": (0, 1), "G5": (0, 1)}, hands={0: [WEAPONS]}, rules_version=4)
    s, _ = play(s, 0, BeginGrow(), GrowToken(H("E5")))
    assert s.stage != GROW  # rules 4: no Health care, so it ended and told the table


def test_r_info_4_a_growth_with_an_empty_supply_ends_by_itself() -> None:
    s = make_state(tokens={"E5": (0, 1)}, hands={0: [HEALTH]})
    s.players[0].supply = 0
    s, _ = play(s, 0, BeginGrow())
    assert s.stage != GROW  # the supply is public: nothing could grow whatever the hand
