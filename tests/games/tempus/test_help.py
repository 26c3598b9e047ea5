"""/tempus help (and the "?" button): a paragraph for every decision kind, in English and
Polish, built from the asking seat's view only."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from engine import game as G
from engine.game import decisions
from engine.views import view
from games.tempus.help_text import help_for_user, help_text
from lang import i18n
from tests.bot.positions import ALL_KINDS, by_kind, shuffle_hidden


def test_positions_cover_every_decision_kind() -> None:
    assert set(ALL_KINDS) == set(G.HANDLERS)
    assert set(by_kind()) == set(ALL_KINDS)


@pytest.mark.parametrize("lang", ["en", "pl"])
@pytest.mark.parametrize("kind", ALL_KINDS)
def test_help_for_every_decision_kind(kind: str, lang: str) -> None:
    state, seat = by_kind()[kind]
    with i18n.using(lang):
        text = help_text(state, seat)
    title, body, rules = text.split("\n")
    assert title.startswith("**Help: " if lang == "en" else "**Pomoc: ")
    assert rules.startswith("Rules: `/tempus help topic:" if lang == "en"
                            else "Zasady: `/tempus pomoc temat:")
    assert len(body) >= 80 and len(text) <= 2000  # one short paragraph, one Discord message
    assert "{" not in text and "}" not in text
    if lang == "pl":
        with i18n.using("en"):
            assert help_text(state, seat) != text


def test_help_turn_names_the_options_and_why() -> None:
    state, seat = by_kind()[G.TURN]
    with i18n.using("en"):
        text = help_text(state, seat)
    assert "**Move**" in text and "**Draw cards**" in text
    assert f"Round {state.era_number} of 10" in text
    assert "progress phase" in text


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_help_reads_only_the_askers_view(kind: str) -> None:
    """R-INFO: the same view gives the same help whatever the hidden cards are."""
    state, seat = by_kind()[kind]
    other = shuffle_hidden(state, seat, seed=5)
    assert other.to_json() != state.to_json(), "the hidden cards differ"
    assert view(other, seat) == view(state, seat)
    assert help_text(other, seat) == help_text(state, seat)
    assert help_text(view(state, seat), seat) == help_text(state, seat)
    with pytest.raises(ValueError):
        help_text(view(state, None), seat)  # a spectator's (or another seat's) view


def test_help_outside_a_decision() -> None:
    state, seat = by_kind()[G.TURN]
    waiting = next(s for s in range(state.num_players)
                   if s not in {d.seat for d in decisions(state)})
    table = SimpleNamespace(id=7, state=state, seat_of=lambda uid: {1: seat, 2: waiting}.get(uid))
    with i18n.using("en"):
        assert help_for_user(table, 2).startswith("Nothing to decide for you now")
        assert "watching game #7" in help_for_user(table, 3)
        lobby = SimpleNamespace(id=8, state=None, seat_of=lambda uid: None)
        assert "has not started" in help_for_user(lobby, 1)
        # someone seated in the lobby is not told to take a seat
        seated = SimpleNamespace(id=8, state=None, seat_of=lambda uid: 0)
        text = help_for_user(seated, 1)
        assert "has not started" in text and "you have a seat" in text
        assert "Take a seat" not in text
    with i18n.using("pl"):
        assert help_for_user(table, 2).startswith("Teraz nie masz nic do zdecydowania")


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_help_occupy_mentions_sanitation_at_the_move_in(lang: str) -> None:
    """R-CARD-SAN / R-COMBAT-8 (rules 2): the move-in help names the Sanitation play and
    what it gains (one more token); without the card, or under rules 1, it says nothing."""
    from tests.bot.positions import won_fight
    from tests.engine.helpers import card

    san = card("SAN", "H")
    with i18n.using(lang):
        text = help_text(won_fight(2, [san]), 0)
        plain = help_text(won_fight(2, [card("EDU", "G")]), 0)
        old = help_text(won_fight(1, [san]), 0)
        name = i18n.lookup("card.SAN.name")
    assert name in text and name not in plain and name not in old
    assert "R-CARD-SAN" not in text  # players read what it does, not the rule's id
    assert "F5" in text and ("up to 4 tokens" if lang == "en" else "do 4 pionów") in text


def test_a_long_list_of_hexes_says_how_many_more_in_words() -> None:
    """"Good hexes now: A9, C8, C9, D7, D8 and 17 more", never a bare "(+17)"."""
    from games.tempus.help_text import MAX_HEXES, hex_list

    text = hex_list(range(40, 40 + MAX_HEXES + 17))
    assert text.endswith(" and 17 more") and "(+" not in text
    with i18n.using("pl"):
        assert hex_list(range(40, 40 + MAX_HEXES + 17)).endswith(" i 17 innych pól")
    state, seat = by_kind()[G.PLACE_START_TOKEN]
    assert "(+" not in help_text(state, seat)
