"""Issue 26: R-CARD-SAN (revised 2026-11-25) under rules 3. A Sanitation raise on a hex
where the player has no token lapses at the end of the action it was played in if none
of the player's tokens stands there then; Sanitation is offered (and accepted) only on
a hex the player holds or can still enter in the action under way. Rules 1 and 2 keep
their behaviour, so stored games replay as they were played."""

import pytest

from engine import IllegalAction, apply, legal_actions
from engine.actions import (
    Attack,
    BeginMove,
    CommitAttackCards,
    DrawCards,
    EndMove,
    EndTurn,
    MoveToken,
    Occupy,
    PlayReligion,
    PlaySanitation,
)
from engine.movement import destinations
from engine.rules import RULES_VERSION, SANITATION_LAPSES_FROM
from engine.setup import start_turn
from engine.state import State
from engine.turn import sanitation_hexes
from tests.engine.helpers import H, card, make_state, play, tokens_of

BLUE_FAR = {"K2": (1, 1), "K4": (1, 1), "K6": (1, 1), "K8": (1, 1)}
CITY_BUILDING = 3


def offered(s: State, seat: int = 0) -> set[int]:
    return {a.hex for a in legal_actions(s, seat) if isinstance(a, PlaySanitation)}


def red(hand: list[int], rules_version: int = RULES_VERSION, **kw) -> State:
    """Red: one token on E5 and two on C3 (Starting box: limit 2, move 1, distance 1)."""
    return make_state(tokens={"E5": (0, 1), "C3": (0, 2), **BLUE_FAR}, hands={0: hand},
                      rules_version=rules_version, **kw)


def test_rules_3_is_the_current_rules():
    assert RULES_VERSION >= SANITATION_LAPSES_FROM == 3


def test_r_card_san_raise_on_an_empty_hex_lapses_with_the_action():
    """R-CARD-SAN (revised 2026-11-25): Red raises the empty F5 during a Move but does
    not enter it: at the end of that Move the raise is gone. The loophole (raise an
    empty hex, do something else, fill it a turn later with one token too many) is
    closed."""
    san = card("SAN", "G")
    s = red([san])
    s, _ = play(s, 0, BeginMove())
    f5 = H("F5")
    assert f5 in destinations(s, 0, H("E5")) and f5 in offered(s)
    s, _ = play(s, 0, PlaySanitation(san, f5))
    assert s.bonus[f5] == 1 and s.bonus_seat[f5] == 0 and s.stack_limit(0, f5) == 3
    s, _ = play(s, 0, MoveToken(H("C3"), H("C4")))  # moves elsewhere
    if s.stage == "move":
        s, _ = play(s, 0, EndMove())
    assert s.bonus[f5] == 0 and s.bonus_seat[f5] == -1 and s.stack_limit(0, f5) == 2


def test_r_card_san_raise_played_between_actions_lapses_after_an_idea_action():
    """R-CARD-SAN: played before the action (the Move Red might take), then Red draws
    cards instead: the raise lapses with that action."""
    san = card("SAN", "G")
    s = red([san])
    f5 = H("F5")
    s, _ = play(s, 0, PlaySanitation(san, f5))
    assert s.bonus[f5] == 1
    s, _ = play(s, 0, DrawCards())
    assert s.bonus[f5] == 0 and s.bonus_seat[f5] == -1


def test_r_card_san_raise_on_an_entered_hex_stays():
    """R-CARD-SAN: a raise on the hex the player moves into stays after the action (until
    a token leaves), as before."""
    san = card("SAN", "G")
    s = red([san])
    f5 = H("F5")
    s, _ = play(s, 0, BeginMove(), PlaySanitation(san, f5), MoveToken(H("E5"), f5))
    if s.stage == "move":
        s, _ = play(s, 0, EndMove())
    assert s.owner[f5] == 0 and s.bonus[f5] == 1 and s.stack_limit(0, f5) == 3


def test_r_card_san_raise_after_the_last_action_lapses_with_the_turn():
    """R-CARD-SAN: with no action left only held hexes are offered; a raise there stays
    past the end of the turn."""
    san = card("SAN", "G")
    s = red([san, card("SAN", "F")], markers=1)
    s, _ = play(s, 0, DrawCards())
    assert s.turn_actions == 0
    assert offered(s) == {H("E5"), H("C3")}
    with pytest.raises(IllegalAction, match="lapse") as exc:
        apply(s, 0, PlaySanitation(san, H("F5")))
    assert exc.value.code == "sanitation.no_use"
    s, _ = play(s, 0, PlaySanitation(san, H("C3")), EndTurn())
    assert s.bonus[H("C3")] == 1 and s.bonus_seat[H("C3")] == 0


def test_r_card_san_offered_only_where_it_can_matter():
    """R-CARD-SAN (rules 3): offered on held hexes and on empty hexes Red's tokens can
    still enter in the action under way; a hex out of reach is refused."""
    san = card("SAN", "G")
    s = red([san])
    reach = destinations(s, 0, H("E5")) | destinations(s, 0, H("C3"))
    assert offered(s) == {H("E5"), H("C3")} | {h for h in reach if s.owner[h] < 0}
    assert sanitation_hexes(s, 0) == sorted(offered(s))
    far = H("H8")
    assert far not in offered(s)
    with pytest.raises(IllegalAction, match="lapse"):
        apply(s, 0, PlaySanitation(san, far))
    # during the Move: only what the tokens that have not moved yet can reach
    s, _ = play(s, 0, BeginMove())
    assert offered(s) == {H("E5"), H("C3")} | {h for h in reach if s.owner[h] < 0}
    # rules 2 offered every own or empty land hex without a city
    old = red([san], rules_version=2)
    assert far in offered(old) and len(offered(old)) > 3 * len(offered(s))


def test_r_card_san_rules_2_raise_on_an_empty_hex_lasted():
    """Rules 2 (games stored before issue 26): the raise on an empty hex outlived the
    action, so stored games replay as played."""
    san = card("SAN", "G")
    s = red([san], rules_version=2)
    far = H("H8")
    s, _ = play(s, 0, PlaySanitation(san, far), DrawCards())
    assert s.bonus[far] == 1 and s.bonus_seat[far] == 0


def test_r_card_san_raise_on_the_won_hex_lapses_when_nobody_moves_in_r_combat_8():
    """R-CARD-SAN / R-COMBAT-8: Sanitation on the emptied hex, then 0 tokens move in:
    the raise lapses with the fight."""
    san = card("SAN", "H")
    s = make_state(tokens={"E5": (0, 4), "F5": (1, 1), **BLUE_FAR}, hands={0: [san]},
                   eras={0: CITY_BUILDING})
    s, _ = play(s, 0, Attack(H("E5"), H("F5")), CommitAttackCards(()))
    assert s.combat is not None and s.combat.step == "occupy"
    s, _ = play(s, 0, PlaySanitation(san, H("F5")), Occupy(0))
    assert s.combat is None and s.bonus[H("F5")] == 0 and s.bonus_seat[H("F5")] == -1


def test_r_card_rel_uses_a_raise_played_before_in_the_same_turn():
    """R-CARD-REL: Sanitation played before, on that hex, in the same turn lets Religion
    add a token beyond the stack limit (rules 3: the hex is held, so it is offered)."""
    rel, san = card("REL", "W"), card("SAN", "W")
    s = make_state(tokens={"E5": (0, 2), "F5": (1, 1), **BLUE_FAR}, hands={0: [rel, san]})
    with pytest.raises(IllegalAction, match="stack limit"):
        apply(s, 0, PlayReligion(rel, H("F5"), H("E5")))
    s, _ = play(s, 0, PlaySanitation(san, H("E5")), PlayReligion(rel, H("F5"), H("E5")))
    assert tokens_of(s, 0)["E5"] == 3


def test_r_card_san_two_players_never_hold_raises_on_one_hex():
    """R-CARD-SAN: Red's raise on an empty hex it did not enter is gone before Blue's
    turn, so Blue's own raise there is the only one (no meeting of two raises)."""
    san_r, san_b = card("SAN", "G"), card("SAN", "F")
    s = make_state(tokens={"E5": (0, 1), "G5": (1, 1), **BLUE_FAR},
                   hands={0: [san_r], 1: [san_b]})
    f5 = H("F5")
    s, _ = play(s, 0, PlaySanitation(san_r, f5), DrawCards())
    while s.turn != 1:
        s = s.copy()
        start_turn(s, 1)
    assert s.bonus[f5] == 0
    s, _ = play(s, 1, BeginMove(), PlaySanitation(san_b, f5))
    assert s.bonus_seat[f5] == 1 and s.stack_limit(0, f5) == 2


def test_r_card_rel_also_uses_a_raise_standing_from_an_earlier_turn():
    """R-CARD-REL / R-CARD-SAN: the engine counts any raise of the player's that still
    stands on the hex (no token has left it since), not only one played in the same
    turn: a raise played on a held hex in an earlier turn still raises the limit.
    (RULES.md's R-CARD-REL wording names only the same-turn case; see the issue 26
    report.)"""
    rel, san = card("REL", "W"), card("SAN", "W")
    s = make_state(tokens={"E5": (0, 2), "F5": (1, 1), **BLUE_FAR}, hands={0: [rel, san]})
    s, _ = play(s, 0, PlaySanitation(san, H("E5")), DrawCards())
    s = s.copy()
    s.players[0].markers = max(1, s.players[0].markers)
    start_turn(s, 0)  # a later turn of Red's
    assert s.bonus[H("E5")] == 1
    s, _ = play(s, 0, PlayReligion(rel, H("F5"), H("E5")))
    assert tokens_of(s, 0)["E5"] == 3
