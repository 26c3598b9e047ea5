"""The revised rulings (R-CARD-SAN, R-COMBAT-2 with R-OPT-1 in test_combat,
R-INFO-1 / R-COMBAT-10 / R-DRAW-2) and rules versions: games stored before the revision
replay under the rules they were played under (rules 1).
"""

import json
from pathlib import Path

import pytest

from engine import IllegalAction, NotYourDecision, apply, legal_actions, new_game, view, visible
from engine.actions import (
    Attack,
    BeginGrow,
    BeginMove,
    CommitAttackCards,
    DefendCards,
    Discard,
    DrawCards,
    EndGrow,
    GrowToken,
    MoveToken,
    Occupy,
    PlayReligion,
    PlaySanitation,
)
from engine.ai.sampling import determinise, known_cards, unseen_cards
from engine.ai.tactics import unseen_for
from engine.combat import max_occupy
from engine.events import card_name
from engine.movement import destinations
from engine.record import Record, ReplayError, replay
from engine.rules import LEGACY_RULES_VERSION, RULES_VERSION, check_rules, stored_rules
from engine.setup import start_turn
from engine.state import OVER, State
from engine.turn import grow_hexes, religion_targets
from tests.engine.helpers import H, card, make_state, play, tokens_of

DATA = Path(__file__).parent / "data"
PRINTING, INDUSTRY, CITY_BUILDING = 7, 8, 3
#: rules 2 (issue 15); rules 3 (issue 26) also lets a raise on a hex not held lapse
RULES_2 = 2
BLUE_FAR = {"K2": (1, 1), "K4": (1, 1), "K6": (1, 1), "K8": (1, 1)}


def next_turn(s: State, seat: int) -> State:
    """The same position, ``seat`` to act with one fresh action (markers permitting)."""
    s = s.copy()
    s.players[seat].markers = max(s.players[seat].markers, 1)
    start_turn(s, seat)
    return s


# ---------------------------------------------------------------- R-CARD-SAN
def _raised_then_left(rules_version: int) -> State:
    """Red raises E5 twice (limit 3 + 2), grows it to 5, then a token leaves."""
    san1, san2 = card("SAN", "G"), card("SAN", "F")
    s = make_state(tokens={"E5": (0, 3), "C9": (0, 1)}, hands={0: [san1, san2]},
                   eras={0: PRINTING}, rules_version=rules_version)
    s, _ = play(s, 0, PlaySanitation(san1, H("E5")), PlaySanitation(san2, H("E5")))
    assert s.stack_limit(0, H("E5")) == 5
    s, _ = play(s, 0, BeginGrow(), GrowToken(H("E5")))
    if s.stage == "grow":
        s, _ = play(s, 0, EndGrow())
    s = next_turn(s, 0)
    s, _ = play(s, 0, BeginGrow(), GrowToken(H("E5")))
    if s.stage == "grow":
        s, _ = play(s, 0, EndGrow())
    assert s.count[H("E5")] == 5
    s = next_turn(s, 0)
    s, _ = play(s, 0, BeginMove(), MoveToken(H("E5"), H("F5")))
    assert s.count[H("E5")] == 4
    return s


def test_r_card_san_whole_raise_gone_when_a_token_leaves_even_after_era_rise():
    """R-CARD-SAN (revised): once a token leaves, the whole raise is gone; the tokens
    above the limit stay, and a later, higher era limit (Industry: 4) brings no raise
    back: nothing may be added to the 4 tokens (move, growth, Religion)."""
    s = _raised_then_left(RULES_VERSION)
    assert s.bonus[H("E5")] == 0 and s.stack_limit(0, H("E5")) == 3
    assert tokens_of(s, 0)["E5"] == 4  # the excess token stays
    s.players[0].era = INDUSTRY
    s = next_turn(s, 0)
    assert s.stack_limit(0, H("E5")) == 4
    assert H("E5") not in grow_hexes(s, 0)
    s.owner[H("D5")], s.count[H("D5")] = 1, 1  # an enemy token next to E5 for Religion
    s.players[1].supply -= 1
    rel = card("REL", "G")
    s.players[0].hand.append(rel)
    s.deck.remove(rel)
    assert all(own != H("E5") for _, own in religion_targets(s, 0))
    with pytest.raises(IllegalAction, match="stack limit"):
        apply(s, 0, PlayReligion(rel, H("D5"), H("E5")))
    s, _ = play(s, 0, BeginMove())
    assert H("E5") not in destinations(s, 0, H("F5"))
    with pytest.raises(IllegalAction, match="stack limit of 4"):
        apply(s, 0, MoveToken(H("F5"), H("E5")))
    assert MoveToken(H("F5"), H("E5")) not in legal_actions(s, 0)


def test_r_card_san_rules_1_kept_a_leftover_raise():
    """Rules 1 (games started before the revision) kept a raise equal to the excess,
    which the higher Industry limit turned into room for a fifth token."""
    s = _raised_then_left(LEGACY_RULES_VERSION)
    assert s.bonus[H("E5")] == 1
    s.players[0].era = INDUSTRY
    s = next_turn(s, 0)
    assert s.stack_limit(0, H("E5")) == 5 and H("E5") in grow_hexes(s, 0)


def _raised_by_red_entered_by_blue(rules_version: int) -> State:
    """Red raises the empty grassland G5 and does not enter it; Blue moves two tokens
    in (two turns)."""
    san = card("SAN", "W")
    s = make_state(tokens={"E5": (0, 1), "H5": (1, 2), "I7": (1, 1), **{
        "K2": (1, 1)}}, hands={0: [san]}, rules_version=rules_version)
    s, _ = play(s, 0, PlaySanitation(san, H("G5")))
    assert s.stack_limit(0, H("G5")) == 3
    for _ in range(2):
        s = next_turn(s, 1)
        s, _ = play(s, 1, BeginMove(), MoveToken(H("H5"), H("G5")))
    s = next_turn(s, 1)
    return s


def test_r_card_san_raise_is_the_card_players_own():
    """R-CARD-SAN (revised): Sanitation raises only the card player's limit: Blue, on a
    hex Red raised, keeps the normal limit (2): no third token by growth or move.
    (Rules 2: from rules 3 Red's raise on G5, which Red cannot enter, is not even
    offered, and one Red does not enter lapses with Red's action.)"""
    s = make_state(tokens={"E5": (0, 1)}, hands={0: [card("SAN", "W")]}, rules_version=RULES_2)
    s, _ = play(s, 0, PlaySanitation(card("SAN", "W"), H("G5")))
    assert s.stack_limit(0, H("G5")) == 3 and s.stack_limit(1, H("G5")) == 2
    s = _raised_by_red_entered_by_blue(RULES_2)
    assert tokens_of(s, 1)["G5"] == 2
    assert s.stack_limit(1, H("G5")) == 2 and s.bonus[H("G5")] == 0
    assert H("G5") not in grow_hexes(s, 1)
    s2, _ = play(s, 1, BeginGrow())
    assert GrowToken(H("G5")) not in legal_actions(s2, 1) if s2.stage == "grow" else True
    with pytest.raises(IllegalAction):
        apply(s2, 1, GrowToken(H("G5")))


def test_r_card_san_rules_1_raise_belonged_to_the_hex():
    """Rules 1: whoever stood on a raised hex used the raise (Blue may grow a third)."""
    s = _raised_by_red_entered_by_blue(LEGACY_RULES_VERSION)
    assert s.stack_limit(1, H("G5")) == 3 and H("G5") in grow_hexes(s, 1)


def _won_fight(rules_version: int, hands: list[int]) -> State:
    """Red (City building, limit 3) attacks from 4 tokens and wins; it is to move in."""
    s = make_state(tokens={"E5": (0, 4), "F5": (1, 1), **BLUE_FAR}, hands={0: hands},
                   eras={0: CITY_BUILDING}, rules_version=rules_version)
    s, _ = play(s, 0, Attack(H("E5"), H("F5")), CommitAttackCards(()))
    assert s.combat is not None and s.combat.step == "occupy"
    return s


def test_r_card_san_at_occupation_after_a_won_fight_r_combat_8():
    """R-CARD-SAN / R-COMBAT-8 (revised): Sanitation may be played for the move-in after
    a won fight: on the emptied hex only; then one more token may move in."""
    san = card("SAN", "H")
    s = _won_fight(RULES_VERSION, [san])
    assert max_occupy(s) == 3
    legal = legal_actions(s, 0)
    assert PlaySanitation(san, H("F5")) in legal
    assert [a for a in legal if isinstance(a, PlaySanitation)] == [PlaySanitation(san, H("F5"))]
    with pytest.raises(IllegalAction, match="only raise F5"):
        apply(s, 0, PlaySanitation(san, H("C3")))
    s, _ = play(s, 0, PlaySanitation(san, H("F5")))
    assert s.combat is not None and max_occupy(s) == 4
    assert Occupy(4) in legal_actions(s, 0)
    s, _ = play(s, 0, Occupy(4))
    assert tokens_of(s, 0) == {"F5": 4} and s.stack_limit(0, H("F5")) == 4


def test_r_card_san_not_at_occupation_under_rules_1():
    san = card("SAN", "H")
    s = _won_fight(LEGACY_RULES_VERSION, [san])
    assert not any(isinstance(a, PlaySanitation) for a in legal_actions(s, 0))
    with pytest.raises((IllegalAction, NotYourDecision)):
        apply(s, 0, PlaySanitation(san, H("F5")))


# ---------------------------------------------------------------- R-INFO-1 / R-DRAW-2
def _discarded_face_down() -> tuple[State, list, int]:
    """Red draws over the hand limit and discards a Religion (hills) face down."""
    rel_h = card("REL", "H")
    hand = [card("EDU", "G"), card("EDU", "F"), card("FOR", "W"), card("FOR", "H"), rel_h]
    s = make_state(tokens={"E5": (0, 1)}, hands={0: hand}, eras={0: 1})
    s, ev1 = play(s, 0, DrawCards())
    s, ev2 = play(s, 0, Discard((rel_h, card("EDU", "G"))))
    return s, ev1 + ev2, rel_h


def test_r_info_1_r_draw_2_hand_limit_discard_is_face_down():
    """R-INFO-1 / R-DRAW-2 (revised): a card discarded for the hand limit is named
    nowhere public: not in the spectator's or other seats' views, not in public events
    (only the number); its owner's view and private event name it."""
    s, events, rel_h = _discarded_face_down()
    name = card_name(rel_h)
    public = visible(events, None)
    assert any(e.kind == "discard" and e.data == {"count": 2} for e in public)
    assert name not in " ".join(e.text for e in public)
    assert all(rel_h not in e.data.get("cards", ()) for e in public)
    for seat in (None, 1, 2):
        v = view(s, seat)
        text = json.dumps(v)
        assert name not in text and '"discard":' not in text
        assert rel_h not in v["revealed_cards"] and v.get("my_discarded_cards", []) == []
        assert v["discard_size"] == 2
    mine = view(s, 0)
    assert sorted(mine["my_discarded_cards"]) == sorted([rel_h, card("EDU", "G")])
    private = [e for e in events if e.private_to == 0 and e.kind == "discard_private"]
    assert private and name in private[0].text


def test_r_combat_10_revealed_fight_cards_stay_public_in_the_log():
    """R-COMBAT-10 / R-INFO-1: fight cards go face down to the pile, but they were
    revealed: the event names them and every view's revealed log lists them."""
    wea, fort = card("WEA", "G"), card("FOR", "G")
    s = make_state(tokens={"E5": (0, 3), "F5": (1, 1), **BLUE_FAR},
                   hands={0: [wea], 1: [fort]})
    s, events = play(s, 0, Attack(H("E5"), H("F5")), CommitAttackCards((wea,)))
    s, ev = play(s, 1, DefendCards((fort,)))
    reveal = [e for e in visible(ev, None) if e.kind == "combat_cards"]
    assert reveal and card_name(wea) in reveal[0].text and card_name(fort) in reveal[0].text
    for seat in (None, 0, 1, 2):
        assert sorted(view(s, seat)["revealed_cards"]) == sorted([wea, fort])


def test_ai_sampling_treats_face_down_discards_as_unseen():
    """R-INFO-1 for computer players: another seat's face-down discard is an unseen card
    (it may be anywhere), while cards it saw revealed and its own discards are placed;
    the knowledge comes from the view's log, and tactics estimates agree."""
    s, _, rel_h = _discarded_face_down()
    wea, fort = card("WEA", "F"), card("FOR", "F")
    s.players[0].hand.append(wea)
    s.players[1].hand.append(fort)
    s.deck = [c for c in s.deck if c not in (wea, fort)]
    s.owner[H("F5")], s.count[H("F5")] = 1, 1
    for lab, (seat, n) in BLUE_FAR.items():
        s.owner[H(lab)], s.count[H(lab)] = seat, n
    s.players[1].supply -= 5
    s = next_turn(s, 0)
    s.count[H("E5")] = 3
    s.players[0].supply -= 2
    s, _ = play(s, 0, Attack(H("E5"), H("F5")), CommitAttackCards((wea,)))
    s, _ = play(s, 1, DefendCards((fort,)))
    v1 = view(s, 1)
    assert rel_h in unseen_cards(v1) and rel_h not in known_cards(v1)
    assert wea in known_cards(v1) and fort in known_cards(v1)
    assert rel_h in known_cards(view(s, 0))
    det = determinise(v1, __import__("random").Random(1))
    assert view(det, 1) == v1
    assert rel_h in unseen_for(det, 1) and wea not in unseen_for(det, 1)
    assert rel_h in unseen_for(s, 1) and rel_h not in unseen_for(s, 0)


# ---------------------------------------------------------------- rules versions
def _fixture(name: str) -> dict:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize(("name", "index"), [
    ("rules1-protection-counts-city.json", 219),  # an attack on 3 token hexes + cities
    ("rules1-sanitation-of-another-seat.json", 80),  # growth using another's raise
])
def test_old_stored_game_replays_under_its_old_rules(name, index):
    """Records made before the revision (record version 1, no rules version) replay
    under rules 1 and reach the stored final state; under the revised rules the same
    actions break at the move the old rulings allowed (R-COMBAT-2 / R-CARD-SAN)."""
    d = _fixture(name)
    assert d["version"] == 1 and "rules_version" not in d["options"]
    record = Record.from_json(d)
    assert record.rules_version == LEGACY_RULES_VERSION and record.options == {}
    state = replay(record)
    assert state.phase == OVER and state.rules_version == 1
    old = State.from_json(d["final_state"])  # a stored snapshot of state format 1
    assert old.rules_version == 1
    mine, theirs = state.to_json(), old.to_json()
    for key in ("discard_seen",):  # new bookkeeping: who saw each discarded card
        mine.pop(key), theirs.pop(key)
    assert mine == theirs
    record.rules_version = RULES_2  # the revision these records break under
    record.options = {}
    with pytest.raises(ReplayError) as exc:
        replay(record)
    assert exc.value.index == index
    # written out again, the record keeps its rules (now as a version 2 record)
    again = Record.from_json(json.loads(json.dumps(Record.from_json(d).to_json())))
    assert again.rules_version == 1 and replay(again) == state


def test_record_stores_rules_version_and_table_options():
    """R-OPT-1 is stored in the record (format version 2) and replays with it."""
    record = Record(num_players=3, seed=5, random_map=True,
                    options={"protection_counts_cities": True})
    d = record.to_json()
    assert d["version"] == 2
    assert d["options"]["rules_version"] == RULES_VERSION
    assert d["options"]["protection_counts_cities"] is True
    back = Record.from_json(d)
    assert back.options == {"protection_counts_cities": True}
    assert back.new_state()[0].cities_count_for_protection()
    assert Record(num_players=3, seed=5).to_json()["options"]["protection_counts_cities"] \
        is False
    del d["options"]["rules_version"]
    with pytest.raises(ValueError, match="rules_version"):
        Record.from_json(d)
    d["options"]["rules_version"] = 2
    d["options"]["protection_counts_cities"] = "yes"
    with pytest.raises(ValueError, match="true or false"):
        Record.from_json(d)


def test_new_game_rules_api():
    """new_game takes the rules version and the table options; both are public."""
    s, events = new_game(3, 1, random_map=True, options={"protection_counts_cities": True})
    assert s.rules_version == RULES_VERSION and s.options == {"protection_counts_cities": True}
    assert "R-OPT-1" in events[0].text
    v = view(s, None)
    assert v["rules_version"] == RULES_VERSION and v["options"]["protection_counts_cities"]
    s1, _ = new_game(3, 1, random_map=True, rules_version=1)
    assert s1.options == {} and s1.cities_count_for_protection()
    with pytest.raises(IllegalAction, match="rules version"):
        new_game(3, 1, rules_version=RULES_VERSION + 1)
    with pytest.raises(IllegalAction, match="unknown table option"):
        new_game(3, 1, options={"fog_of_war": True})
    with pytest.raises(IllegalAction, match="no table options"):
        new_game(3, 1, rules_version=1, options={"protection_counts_cities": True})
    assert check_rules(2, None) == {"protection_counts_cities": False}


def test_stored_rules_of_a_bot_options_mapping():
    """A stored game's flat options without a rules version are rules 1 (stored before
    versions existed); with one they give that version and the table options."""
    assert stored_rules({"seed": 3, "random_map": True}) == (1, {})
    assert stored_rules({"seed": 3, "rules_version": 2}) == (
        2, {"protection_counts_cities": False})
    assert stored_rules({"rules_version": 2, "protection_counts_cities": True}) == (
        2, {"protection_counts_cities": True})
