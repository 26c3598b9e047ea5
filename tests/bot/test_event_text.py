"""Engine events in the bot's words: every kind rendered from kind and data in English and
Polish, public discards never named (R-INFO-1), unknown kinds fall back to the engine."""

from __future__ import annotations

import random

import pytest

from bot import i18n
from bot.event_text import RENDER, decision_text, event_text, waiting_text
from engine.events import Event
from engine.game import apply_in_place, decisions
from engine.setup import new_game
from engine.simulate import random_action
from engine.views import view
from tests.bot.positions import combat_positions


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
    return out


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
    discards = [e for e in EVENTS if e.kind == "discard"]
    assert discards
    from bot.labels import card_type_name

    for e in discards:
        for lang in ("en", "pl"):
            with i18n.using(lang):
                text = event_text(e)
                assert not any(card_type_name(c) in text for c in e.data["cards"]), text


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
