"""Combat: R-COMBAT-1..11, R-CARD-FOR, R-CARD-WEA, R-CARD-LEA; rulebook examples A and B."""

import pytest

from engine import IllegalAction, apply, decisions, legal_actions, view
from engine.actions import (
    Attack,
    CommitAttackCards,
    DefendCards,
    DrawCards,
    NameCityTerrain,
    Occupy,
)
from engine.state import C_DEFEND
from tests.engine.helpers import H, card, make_state, play, tokens_of

# Blue (seat 1) holds 4 far-away hexes so that it is not protected (R-COMBAT-2).
BLUE_FAR = {"K2": (1, 1), "K4": (1, 1), "K6": (1, 1), "K8": (1, 1)}


def test_example_a_r_combat_5_6_7_8():
    """Rulebook example A: 3 Red tokens attack 2 Blue tokens on farmland. Red plays one
    card face down; Blue answers with Fortification (grassland) and Transport (forest):
    2 + 2 = 4. Red reveals Weapons (farmland): 3 + 1 + 1 = 5. Red wins."""
    wea_f = card("WEA", "F")
    for_g, tra_w = card("FOR", "G"), card("TRA", "W")
    s = make_state(tokens={"E5": (0, 3), "F5": (1, 2), **BLUE_FAR}, terrain={"F5": "F"},
                   hands={0: [wea_f], 1: [for_g, tra_w]})
    s, _ = play(s, 0, Attack(H("E5"), H("F5")))
    assert decisions(s)[0].kind == "attack_cards" and decisions(s)[0].seat == 0
    s, _ = play(s, 0, CommitAttackCards((wea_f,)))
    assert s.combat.step == C_DEFEND
    # R-INFO-2: Blue sees how many, not which
    v = view(s, 1)
    assert v["combat"]["attack_cards"] is None and v["combat"]["attack_card_count"] == 1
    s, events = play(s, 1, DefendCards((for_g, tra_w)))
    result = next(e for e in events if e.kind == "combat_cards")
    assert (result.data["attack"], result.data["defence"]) == (5, 4)
    assert s.count[H("F5")] == 0 and s.players[1].supply == 16 - 4  # back to supply
    assert decisions(s)[0].kind == "occupy"
    assert {a.count for a in legal_actions(s, 0)} == {0, 1, 2}  # stack limit 2
    s, _ = play(s, 0, Occupy(2))
    assert tokens_of(s, 0) == {"E5": 1, "F5": 2}
    assert sorted(s.discard) == sorted([wea_f, for_g, tra_w])  # R-COMBAT-10


def test_example_b_city_r_combat_4_6_7():
    """Rulebook example B: 3 Red tokens attack Blue's city of 2. Blue names forest. Red
    plays 2 cards face down, Blue 1 face up: Fortification (forest) = 3, total 5. Red
    reveals Education (forest) +1 and Leader (farmland) +0: total 4. Blue wins."""
    edu_w, lea_f, for_w = card("EDU", "W"), card("LEA", "F"), card("FOR", "W")
    s = make_state(tokens={"E5": (0, 3), **BLUE_FAR}, cities={"F5": (1, 2)},
                   hands={0: [edu_w, lea_f], 1: [for_w]})
    s, _ = play(s, 0, Attack(H("E5"), H("F5")))
    assert decisions(s)[0].kind == "name_city_terrain" and decisions(s)[0].seat == 1
    with pytest.raises(IllegalAction, match="not your turn"):
        apply(s, 0, CommitAttackCards(()))
    s, _ = play(s, 1, NameCityTerrain("W"))
    s, _ = play(s, 0, CommitAttackCards((edu_w, lea_f)))
    s, events = play(s, 1, DefendCards((for_w,)))
    result = next(e for e in events if e.kind == "combat_cards")
    assert (result.data["attack"], result.data["defence"]) == (4, 5)
    assert s.city_owner[H("F5")] == 1  # the city stands
    assert tokens_of(s, 0) == {"E5": 2} and s.players[0].supply == 14  # R-COMBAT-9


def test_r_combat_1_adjacent_only_and_targets():
    """R-COMBAT-1: from an own hex to an adjacent hex with another player's tokens or city."""
    s = make_state(tokens={"E5": (0, 2), "G5": (1, 1), **BLUE_FAR}, sea=["F5"])
    with pytest.raises(IllegalAction, match="not next to"):
        apply(s, 0, Attack(H("E5"), H("G5")))  # across water
    with pytest.raises(IllegalAction, match="no other player's"):
        apply(s, 0, Attack(H("E5"), H("E4")))
    with pytest.raises(IllegalAction, match="no tokens"):
        apply(s, 0, Attack(H("F4"), H("G5")))
    assert not any(isinstance(a, Attack) for a in legal_actions(s, 0))


def test_r_combat_2_protection_three_token_hexes_and_a_city():
    """R-COMBAT-2 (revised): only hexes with the player's tokens count, so three token
    hexes and a city are protected; a fourth token hex is not."""
    s = make_state(tokens={"E5": (0, 2), "F5": (1, 1), "K2": (1, 1), "K4": (1, 1)},
                   cities={"K8": (1, 2)})
    assert s.presence(1) == 3
    with pytest.raises(IllegalAction, match="protected"):
        apply(s, 0, Attack(H("E5"), H("F5")))
    assert not any(isinstance(a, Attack) for a in legal_actions(s, 0))
    s.owner[H("K6")], s.count[H("K6")] = 1, 1
    s.players[1].supply -= 1
    s2, _ = apply(s, 0, Attack(H("E5"), H("F5")))  # 4 hexes with tokens
    assert s2.combat is not None


def test_r_opt_1_city_counts_for_protection():
    """R-OPT-1: with the designer's ruling a hex with only a city counts, so three token
    hexes and a city are not protected (four hexes)."""
    s = make_state(tokens={"E5": (0, 2), "F5": (1, 1), "K2": (1, 1), "K4": (1, 1)},
                   cities={"K8": (1, 2)}, options={"protection_counts_cities": True})
    assert s.presence(1) == 4
    s2, _ = apply(s, 0, Attack(H("E5"), H("F5")))
    assert s2.combat is not None
    assert Attack(H("E5"), H("F5")) in legal_actions(s, 0)
    # two token hexes and a city: still protected under R-OPT-1
    s.owner[H("K4")], s.count[H("K4")] = -1, 0
    with pytest.raises(IllegalAction, match="protected"):
        apply(s, 0, Attack(H("E5"), H("F5")))


def test_r_combat_2_rules_1_counted_cities():
    """R-COMBAT-2 under rules 1 (games started before the revision): a city counted."""
    s = make_state(tokens={"E5": (0, 2), "F5": (1, 1), "K2": (1, 1), "K4": (1, 1)},
                   cities={"K8": (1, 2)}, rules_version=1)
    s2, _ = apply(s, 0, Attack(H("E5"), H("F5")))
    assert s2.combat is not None


def test_r_combat_3_fewer_tokens_may_attack_and_r_combat_9():
    """R-COMBAT-3: attacking from a smaller stack is allowed; R-COMBAT-9: the attacker
    loses exactly one token (here its only one)."""
    s = make_state(tokens={"E5": (0, 1), "F5": (1, 3), **BLUE_FAR})
    s, _ = play(s, 0, Attack(H("E5"), H("F5")), CommitAttackCards(()))
    assert tokens_of(s, 0) == {} and s.players[0].supply == 16
    assert s.count[H("F5")] == 3


def test_r_combat_7_tie_defender_wins():
    """R-COMBAT-7: a tie is won by the defender."""
    s = make_state(tokens={"E5": (0, 2), "F5": (1, 2), **BLUE_FAR})
    s, events = play(s, 0, Attack(H("E5"), H("F5")), CommitAttackCards(()))
    assert s.count[H("F5")] == 2 and tokens_of(s, 0) == {"E5": 1}


def test_r_combat_6_fortification_attacker_only_terrain_and_weapons_both():
    """R-COMBAT-6 / R-CARD-FOR / R-CARD-WEA: Fortification gives the attacker only its
    terrain point; Weapons +1 to either side."""
    for_g, wea_w = card("FOR", "G"), card("WEA", "W")
    s = make_state(tokens={"E5": (0, 2), "F5": (1, 3), **BLUE_FAR},
                   hands={0: [for_g, wea_w]})  # F5 grassland
    s, events = play(s, 0, Attack(H("E5"), H("F5")), CommitAttackCards((for_g, wea_w)))
    result = next(e for e in events if e.kind == "combat_cards")
    assert (result.data["attack"], result.data["defence"]) == (2 + 1 + 1, 3)
    wea_g = card("WEA", "G")
    s = make_state(tokens={"E5": (0, 4), "F5": (1, 1), **BLUE_FAR},
                   hands={1: [wea_g, card("FOR", "H")]})
    s, _ = play(s, 0, Attack(H("E5"), H("F5")), CommitAttackCards(()))
    s, events = play(s, 1, DefendCards((wea_g, card("FOR", "H"))))
    result = next(e for e in events if e.kind == "combat_cards")
    assert result.data["defence"] == 1 + 2 + 2  # Weapons+terrain, Fortification 2


def test_r_combat_8_city_returns_and_occupy_within_stack_limit():
    """R-COMBAT-8: a lost city goes back to its owner; the winner moves 0..all tokens in,
    within the stack limit."""
    s = make_state(tokens={"E5": (0, 4), **BLUE_FAR}, cities={"F5": (1, 3)}, eras={0: 8})
    s, _ = play(s, 0, Attack(H("E5"), H("F5")), )
    s, _ = play(s, 1, NameCityTerrain("M"))
    s, _ = play(s, 0, CommitAttackCards(()))
    assert s.city_owner[H("F5")] == -1 and 3 in s.players[1].cities
    assert len(s.players[1].cities) == 8
    s.players[0].era = 2  # stack limit 2 for the occupation
    assert {a.count for a in legal_actions(s, 0)} == {0, 1, 2}
    with pytest.raises(IllegalAction, match="between 0 and 2"):
        apply(s, 0, Occupy(3))


def test_r_combat_11_leader_attack_is_not_an_action_r_card_lea():
    """R-COMBAT-11 / R-CARD-LEA: a Leader attack uses no marker, before or after the action."""
    lea = card("LEA", "G")
    s = make_state(tokens={"E5": (0, 3), "F5": (1, 1), **BLUE_FAR}, hands={0: [lea]})
    markers = s.players[0].markers
    s, _ = play(s, 0, Attack(H("E5"), H("F5"), lea), CommitAttackCards(()), Occupy(1))
    assert s.players[0].markers == markers and s.turn == 0 and s.turn_actions == 1
    assert lea in s.discard
    s, _ = play(s, 0, DrawCards())
    assert s.players[0].markers == markers - 1


def test_defender_without_cards_is_not_asked():
    s = make_state(tokens={"E5": (0, 3), "F5": (1, 1), **BLUE_FAR}, hands={0: [card("EDU", "G")]})
    s, _ = play(s, 0, Attack(H("E5"), H("F5")), CommitAttackCards(()))
    assert decisions(s)[0].kind == "occupy"


def test_attack_cards_must_be_in_hand():
    s = make_state(tokens={"E5": (0, 3), "F5": (1, 1), **BLUE_FAR})
    s, _ = play(s, 0, Attack(H("E5"), H("F5")))
    with pytest.raises(IllegalAction, match="not in your hand"):
        apply(s, 0, CommitAttackCards((card("WEA", "G"),)))
