"""`/tempus status` text built from views (games/tempus/describe.py)."""

from __future__ import annotations

import pytest

from bot.store import SeatRow
from engine import view
from games.tempus.describe import status_text
from lang.i18n import using
from lang.messages import t
from tests.engine.helpers import make_state

SEATS = [SeatRow(i, 100 + i, None, f"P{i}") for i in range(3)]


def _status(rules_version: int, opt1: bool | None, lang: str = "en") -> str:
    options = None if opt1 is None else {"protection_counts_cities": opt1}
    state = make_state(rules_version=rules_version, options=options)
    with using(lang):
        return status_text(7, view(state, None), SEATS)


#: Red on 4 token hexes, Blue on 3 token hexes, Yellow on 1 token hex plus 3 lone cities
HELD = {"B2": (0, 1), "B3": (0, 1), "B4": (0, 1), "B5": (0, 1),
        "H2": (1, 1), "H3": (1, 1), "H4": (1, 1), "L11": (2, 1)}
YELLOW_CITIES = {"D9": (2, 2), "F9": (2, 2), "H9": (2, 3)}


def _safe_status(rules_version: int, opt1: bool | None, lang: str = "en") -> str:
    options = None if opt1 is None else {"protection_counts_cities": opt1}
    state = make_state(rules_version=rules_version, options=options, tokens=HELD,
                       cities=YELLOW_CITIES)
    with using(lang):
        return status_text(7, view(state, None), SEATS)


def test_r_combat_2_status_names_who_cannot_be_attacked_plainly() -> None:
    """Not "Cities do not protect: …" in every status: who cannot be attacked now and
    why, and only when someone cannot. Rules 1 (games stored before the revised rulings)
    and R-OPT-1 count a hex with only a city; rules 2 counts token hexes only."""
    plain = _safe_status(2, False)
    assert "Cannot be attacked now (tokens on 3 or fewer hexes): Blue and Yellow." in plain
    for old in (_safe_status(1, None), _safe_status(2, True)):  # Yellow holds 4 hexes
        assert "Cannot be attacked now (tokens or cities on 3 or fewer hexes): Blue." in old
    assert "Cities" not in plain and "protect" not in plain
    assert "Nie można teraz zaatakować (piony na najwyżej 3 polach): Niebieski i " \
        in _safe_status(2, False, "pl")
    # nobody protected: nothing said
    state = make_state(tokens={**HELD, "H5": (1, 1), "J2": (2, 1), "J3": (2, 1),
                               "J4": (2, 1)})
    assert "attacked" not in status_text(7, view(state, None), SEATS)


def test_the_lobby_says_the_protection_rule_plainly() -> None:
    for key in ("lobby.opt1.off", "lobby.opt1.on"):
        assert t(key).startswith("A player ") and "Cities" not in t(key)


@pytest.mark.parametrize("lang", ("en", "pl"))
def test_status_is_in_plain_words(lang: str) -> None:
    """A newcomer reads the status without the bot's bookkeeping: no rules version, no
    rule id, no unexplained star, no "era Starting box", no "0 markers left"."""
    import re

    for version, opt1 in ((1, None), (2, False), (2, True)):
        text = _status(version, opt1, lang)
        assert "Rules version" not in text and "Wersja zasad" not in text
        assert not re.search(r"R-[A-Z]+-", text) and "★" not in text
        assert "era Starting box" not in text and "epoka: Pole startowe" not in text
    state = make_state(markers=0)
    with using(lang):
        text = status_text(7, view(state, None), SEATS)
        assert t("status.markers.none") in text and t("status.start_mark") in text
    assert not re.search(r"\b0 (action )?markers?\b|znaczniki akcji: 0", text)


def test_the_setup_status_does_not_speak_of_used_markers() -> None:
    """During the setup no action marker was used: the status says the actions come later,
    not "every action marker used this round" (a wrong phase)."""
    from engine.setup import new_game

    state, _ = new_game(3, 5, random_map=False)
    assert state.phase == "tiles"
    text = status_text(7, view(state, None), SEATS)
    assert t("status.markers.none") not in text
    assert text.count(t("status.markers.setup")) == 3
    assert " VP" not in text and "victory points" in text
