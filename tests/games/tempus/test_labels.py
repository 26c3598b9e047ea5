"""The names of game content in the bot's texts, and the ``random`` computer level."""

from __future__ import annotations

import random

import pytest

from engine.actions import Action
from engine.content import CONTENT
from engine.game import apply_in_place, decisions
from engine.legal import legal_actions
from engine.setup import new_game
from engine.simulate import random_action as engine_random_action
from engine.state import State
from games.tempus import labels
from games.tempus.computer_levels import random_action
from lang import i18n
from lang.messages import t


@pytest.mark.parametrize("lang", i18n.languages())
def test_content_names_are_the_catalogue_texts_in_the_current_language(lang: str) -> None:
    """The names come from render's words; they are the catalogue's, in the current language
    (lakes and the open sea are both named as the sea)."""
    with i18n.using(lang):
        for seat in range(len(CONTENT.colours)):
            assert labels.colour_name(seat) == t(f"colour.{seat}")
        for era in range(len(CONTENT.eras)):
            assert labels.era_name(era) == t(f"era.{era}")
        for letter in CONTENT.terrain_names:
            assert labels.terrain_name(letter) == t(f"terrain.{letter}")
        for other in (None, "lake", "sea"):
            assert labels.terrain_name(other) == t("terrain.sea")
        for card, c in enumerate(CONTENT.cards):
            assert labels.card_type_name(card) == t(f"card.{c.type}.name")
            assert labels.card_text(card) == t(f"card.{c.type}.text")
            assert labels.card_name(card) == (
                f"{t(f'card.{c.type}.name')} ({labels.terrain_name(c.terrain)})")


def _by_type_first(state: State, seat: int, seed: int) -> Action:
    """The ``random`` level as it has always picked: an action type, then an action of it."""
    rng = random.Random(seed)
    by_type: dict[str, list[Action]] = {}
    for a in legal_actions(state, seat):
        by_type.setdefault(a.type, []).append(a)
    return rng.choice(by_type[rng.choice(sorted(by_type))])


def test_the_random_level_picks_as_it_always_has() -> None:
    """Over random positions of random games and many seeds, the same action for a seed."""
    checked = 0
    for game in range(6):
        state, _ = new_game(3 + game % 3, game, random_map=bool(game % 2))
        rng = random.Random(game)
        for step in range(1500):
            ds = decisions(state)
            if not ds:
                break
            if step % 11 == 0:
                for d in ds:
                    for seed in (0, 1, -1, step, *(rng.randrange(2**63) for _ in range(3))):
                        assert random_action(state, d.seat, seed) == \
                            _by_type_first(state, d.seat, seed)
                        checked += 1
            apply_in_place(state, ds[0].seat, engine_random_action(state, ds[0].seat, rng))
    assert checked > 500


def test_names_an_action_knows_every_label_of_the_game_not_only_those_possible_now() -> None:
    """A label typed by hand (any case, any spacing) is recognised as an action of the
    game, in the asker's language or in English; words that name no action, or an action
    on a hex off the board, are not."""
    from engine import actions as A
    from games.tempus.labels import action_label, names_an_action
    from tests.bot.helpers import random_states

    labels = set()
    for state in random_states(3, 3, every=5):
        for seat in range(3):
            labels.update(action_label(a) for a in legal_actions(state, seat))
    assert len(labels) > 50
    assert all(names_an_action(x) for x in labels), [x for x in labels
                                                     if not names_an_action(x)][:3]
    assert names_an_action("  attack   f5 FROM e5 ")
    assert names_an_action(action_label(A.Occupy(1)))
    assert names_an_action("Attack with Leader (forest), education (FARMLAND)")
    assert names_an_action("Defend with no cards")
    for nonsense in ("", "attack", "attack the blue one", "Attack Z99 from E5",
                     "Build a city on E5", "hello", "Attack with all my might",
                     "Play Magic (forest): one more token moves", "The city counts as moon"):
        assert not names_an_action(nonsense), nonsense
    with i18n.using("pl"):
        assert names_an_action("Atak na F5 z E5") and names_an_action("Wprowadź 2 piony")
        assert names_an_action("Attack F5 from E5")  # English is understood everywhere
        assert names_an_action(action_label(A.DrawCards()))
        assert not names_an_action("Atak na Z99 z E5")
        polish = {action_label(a) for state in random_states(4, 3, every=7)
                  for seat in range(3) for a in legal_actions(state, seat)}
        assert polish and all(names_an_action(x) for x in polish)


def test_a_computer_is_named_in_the_readers_language() -> None:
    """A computer seat added on a Polish server is stored as "Komputer 1, średni"; an
    English reply names it "Computer 1, normal", never one line in two languages
    ("🏆 Yellow (Komputer 1, średni) wins")."""
    from bot.store import SeatRow
    from games.tempus.labels import record_names, seat_names
    from games.tempus.result_post import _who
    from lang import i18n

    with i18n.using("pl"):
        stored = i18n.render("ai.name", None, n=1, level=i18n.render("level.normal"))
    assert stored == "Komputer 1, średni"
    seats = [SeatRow(0, 7, None, "ann"), SeatRow(1, None, "normal", stored)]
    with i18n.using("en"):
        assert seat_names(seats) == ["ann", "Computer 1, normal"]
        assert record_names([{"name": "ann", "kind": "human"},
                             {"name": stored, "kind": "ai:normal"}])[1] == "Computer 1, normal"
        assert _who(1, seat_names(seats)) == "Blue (Computer 1, normal)"
    with i18n.using("pl"):
        assert seat_names(seats)[1] == stored
    from engine.views import view
    from games.tempus.describe import status_text
    from tests.engine.helpers import make_state

    three = [*seats, SeatRow(2, 9, None, "cy")]
    with i18n.using("en"):
        text = status_text(1, view(make_state(), None), three)
    assert "Blue (Computer 1, normal)" in text and "Komputer" not in text
