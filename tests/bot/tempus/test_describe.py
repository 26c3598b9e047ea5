"""`/tempus status` text built from views (bot/tempus/describe.py)."""

from __future__ import annotations

import pytest

from bot.store import SeatRow
from bot.tempus.describe import status_text
from engine import view
from lang.i18n import using
from lang.messages import t
from tests.engine.helpers import make_state

SEATS = [SeatRow(i, 100 + i, None, f"P{i}") for i in range(3)]


def _status(rules_version: int, opt1: bool | None, lang: str = "en") -> str:
    options = None if opt1 is None else {"protection_counts_cities": opt1}
    state = make_state(rules_version=rules_version, options=options)
    with using(lang):
        return status_text(7, view(state, None), SEATS)


@pytest.mark.parametrize("lang", ("en", "pl"))
def test_r_combat_2_status_states_the_protection_rule_that_applies(lang: str) -> None:
    """Rules 1 (games stored before the revised rulings) counted cities; rules 2 counts
    token hexes only; rules 2 with R-OPT-1 counts cities again. The status line says which."""
    with using(lang):
        rules1, off, on = (t("status.protection.rules1"), t("lobby.opt1.off"),
                           t("lobby.opt1.on"))
    old = _status(1, None, lang)
    assert rules1 in old and off not in old and on not in old
    plain = _status(2, False, lang)
    assert off in plain and rules1 not in plain and on not in plain
    chosen = _status(2, True, lang)
    assert on in chosen and rules1 not in chosen and off not in chosen
    # the three texts really differ (a rules-1 game must not read as "only token hexes")
    assert len({rules1, off, on}) == 3


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
