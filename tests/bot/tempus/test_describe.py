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


def test_status_names_the_rules_version() -> None:
    assert "Rules version 1;" in _status(1, None)
    assert "Rules version 2;" in _status(2, False)
