"""The names of game content in the bot's texts, and the ``random`` computer level."""

from __future__ import annotations

import random

import pytest

from bot.tempus import labels
from bot.tempus.computer_levels import random_action
from engine.actions import Action
from engine.content import CONTENT
from engine.game import apply_in_place, decisions
from engine.legal import legal_actions
from engine.setup import new_game
from engine.simulate import random_action as engine_random_action
from engine.state import State
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
