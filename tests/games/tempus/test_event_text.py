"""Engine events in the bot's words: every kind rendered from kind and data in English and
Polish, public discards never named (R-INFO-1), unknown kinds fall back to the engine."""

from __future__ import annotations

import random

import pytest

from engine import actions as A
from engine import game as G
from engine.events import Event
from engine.game import apply_in_place, decisions
from engine.setup import new_game
from engine.simulate import random_action
from engine.views import view
from games.tempus.event_text import RENDER, decision_text, event_text, waiting_text
from lang import i18n
from tests.bot.positions import BLUE_FAR, combat_positions
from tests.engine.helpers import H, make_state


def game_events() -> list[Event]:
    out: list[Event] = []
    for seed, players, random_map in ((1, 4, True), (2, 3, False), (3, 5, True)):
        state, events = new_game(players, seed, random_map=random_map)
        out += events
        rng = random.Random(seed)
        while decisions(state):
            seat = rng.choice(decisions(state)).seat
            out += apply_in_place(state, seat, random_action(state, seat, rng))
    for state, seat in combat_positions().values():  # a city attack through to the end
        out += apply_in_place(state.copy(), seat, random_action(state, seat, random.Random(1)))
    out += lost_attack()
    return out


def lost_attack() -> list[Event]:
    """Red's 1 token attacks Blue's 2 on F5 without cards: the attack itself and its loss
    (random games do not always attack)."""
    state = make_state(tokens={"E5": (0, 1), "F5": (1, 2), **BLUE_FAR})
    events = apply_in_place(state, 0, A.Attack(H("E5"), H("F5")))
    while decisions(state) and state.combat is not None:
        d = decisions(state)[0]
        answer = A.CommitAttackCards(()) if d.kind == G.ATTACK_CARDS else A.DefendCards(())
        events += apply_in_place(state, d.seat, answer)
    assert any(e.kind == "combat_lost" for e in events)
    return events


EVENTS = game_events()


def test_the_games_show_almost_every_kind() -> None:
    seen = {e.kind for e in EVENTS}
    assert set(RENDER) - seen <= {"tile_removed"}  # a tile that fits nowhere is rare


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_every_event_renders_from_its_data(lang: str) -> None:
    """No event falls back to the engine's English text."""
    with i18n.using(lang):
        for e in EVENTS:
            text = event_text(e)
            assert text and "{" not in text, e
            if lang == "pl":
                assert text != e.text, (e.kind, e.text)


def test_english_rendering_says_what_the_engine_says() -> None:
    """The catalogue's English matches the engine's text for most kinds (same facts)."""
    with i18n.using("en"):
        same = sum(event_text(e) == e.text for e in EVENTS)
    assert same > len(EVENTS) // 2


def test_public_discard_never_names_the_cards() -> None:
    """R-INFO-1: cards discarded for the hand limit go face down; only the count is public."""
    from games.tempus.labels import card_type_name

    pairs = [(e, EVENTS[i + 1]) for i, e in enumerate(EVENTS[:-1]) if e.kind == "discard"]
    assert pairs
    for public, private in pairs:  # the cards go only to their owner
        assert private.kind == "discard_private" and private.private_to == public.seat
        assert len(private.data["cards"]) == public.data["count"]
        for lang in ("en", "pl"):
            with i18n.using(lang):
                text = event_text(public)
                assert not any(card_type_name(c) in text for c in private.data["cards"]), text
                assert all(card_type_name(c) in event_text(private)
                           for c in private.data["cards"])


def test_unknown_kinds_and_missing_data_fall_back() -> None:
    assert event_text(Event("new_kind", "Something new happened.")) == "Something new happened."
    assert event_text(Event("move_token", "Red moves.", 0, data={})) == "Red moves."


def test_decisions_in_words() -> None:
    state, seat = combat_positions()["defend_cards"]
    v = view(state, None)
    with i18n.using("pl"):
        assert waiting_text(v) == "Niebieski: odpowiedź kartami obrony"
    with i18n.using("en"):
        assert decision_text(decisions(state)[0], v) == "Blue: answer with defence cards"


def test_a_side_that_plays_no_cards_says_so_in_words() -> None:
    """Not "plays 0 cards face down", "reveals: no cards" ("odkrywa: bez kart"), but
    "plays no cards face down", "reveals no cards" ("nie odkrywa żadnej karty")."""
    from tests.engine.helpers import card

    weapons = card("WEA", "H")
    none = Event("attack_cards", "", 0, data={"count": 0})
    fight = Event("combat_cards", "", 0, data={"defender": 1, "defend_cards": [weapons],
                                                 "attack_cards": [], "attack": 2,
                                                 "defence": 4})
    quiet = Event("combat_cards", "", 0, data={"defender": 1, "defend_cards": [],
                                                 "attack_cards": [], "attack": 2,
                                                 "defence": 2})
    progress = Event("progress_reveal", "", 2, data={"cards": [], "points": 3})
    assert event_text(none) == "Red plays no cards face down."
    assert event_text(fight) == ("Blue answers with Weapons (hills); Red reveals no cards. "
                                 "Strength 2 against 4.")
    assert event_text(progress) == "Yellow reveals no cards: 3 progress points."
    with i18n.using("pl"):
        assert event_text(none) == "Czerwony nie zagrywa żadnej zakrytej karty."
        assert event_text(quiet) == ("Niebieski nie odpowiada żadną kartą; Czerwony nie "
                                     "odkrywa żadnej karty. Siła 2 przeciw 2.")
        assert event_text(progress) == "Żółty nie odkrywa żadnej karty; 3 punkty postępu."
