"""No button leads nowhere: every private menu a turn message opens offers something that
can be done, and nothing the panels offer is refused by the engine (Sanitation only on
hexes where it can matter, rules 3)."""

from __future__ import annotations

import contextlib

from engine import actions as A
from engine.game import decisions
from engine.legal import legal_actions
from games.controls import MENU, Button, Select
from games.tempus import panels
from games.tempus.help_text import card_plays
from tests.bot.helpers import normalise, random_states, reachable
from tests.games.tempus.test_panels import SEATS


def test_every_menu_a_turn_message_opens_leads_to_an_action() -> None:
    """"Play a card…" is shown whenever the hand holds cards (its size is public, which
    cards are not): when none can be played now, the private menu says so in one line and
    offers what the turn message offers instead, never a lone Back."""
    opened = nothing_to_play = 0
    for seed in (4, 9):
        for state in random_states(seed, 4, every=2):
            for d in decisions(state):
                if d.kind in panels.HAND_KINDS or state.phase == "tiles":
                    continue
                panel = panels.public_panel(state, SEATS[: state.num_players])
                for b in panel.controls():
                    if not (isinstance(b, Button) and b.op == MENU):
                        continue
                    sub = panels.menu(state, d.seat, b.arg)
                    assert reachable(state, d.seat, sub), (b.arg, sub.text)
                    opened += 1
                    if b.arg == "cards" and not card_plays(legal_actions(state, d.seat)):
                        assert panels.t("menu.no_card_play") in sub.text
                        nothing_to_play += 1
    assert opened > 50 and nothing_to_play > 5


def test_nothing_the_panels_offer_is_refused_by_the_engine() -> None:
    """Every action reachable through a decision's buttons, selects and menus is legal
    now: e.g. Sanitation is offered only on the hexes the engine accepts."""
    sanitation = 0
    for seed in (3, 8):
        for state in random_states(seed, 3, every=3):
            if state.phase == "tiles":
                continue
            for d in decisions(state):
                if d.kind in panels.HAND_KINDS:
                    panel = panels.secret_panel(state, d.seat)
                else:
                    panel = panels.public_panel(state, SEATS[: state.num_players])
                got = {normalise(a) for a in reachable(state, d.seat, panel)}
                legal = {normalise(a) for a in legal_actions(state, d.seat)}
                assert got <= legal, sorted(map(str, got - legal))[:5]
                sanitation += sum(isinstance(a, A.PlaySanitation) for a in got)
    assert sanitation, "no Sanitation was offered: the test would not catch a wrong hex"


def test_a_card_menu_without_a_decision_offers_no_dead_button() -> None:
    """The hand seen outside one's turn has no Back-only menu either."""
    for state in random_states(5, 3, every=7):
        for seat in range(state.num_players):
            with contextlib.suppress(panels.MenuError):
                sub = panels.menu(state, seat, "cards")
                controls = sub.controls()
                assert not controls or reachable(state, seat, sub), sub.text
                assert not any(isinstance(c, Select) and not c.options for c in controls)
