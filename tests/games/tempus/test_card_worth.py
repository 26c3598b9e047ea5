"""Card menus of a fight or a progress phase show what each card would bring now, the
useful ones first; a card that would add nothing says so before it is chosen, and a hand
of one card is two buttons (play it or not), not a select of one (R-COMBAT-6, R-PROG-3)."""

from __future__ import annotations

from engine import actions as A
from engine import apply
from games.controls import ACT, CARDS, Button, Select
from games.tempus import panels
from games.tempus.codec import decode_action
from tests.bot.positions import BLUE_FAR
from tests.engine.helpers import H, card, make_state

EDU_FARM, WEA_GRASS = card("EDU", "F"), card("WEA", "G")


def _attacking(hand: list[int]):  # type: ignore[no-untyped-def]
    """Red attacks Blue's F5 (grassland) from E5 holding ``hand``."""
    state = make_state(tokens={"E5": (0, 2), "F5": (1, 2), **BLUE_FAR}, hands={0: hand},
                       markers=1)
    state, _ = apply(state, 0, A.Attack(H("E5"), H("F5")))
    return state


def test_useful_cards_come_first_and_a_card_worth_nothing_says_so() -> None:
    panel = panels.secret_panel(_attacking([EDU_FARM, WEA_GRASS]), 0)
    (select,) = [r for r in panel.rows if isinstance(r, Select)]
    assert [o.label for o in select.options] == [
        "Weapons (grassland) · +2 here", "Education (farmland) · worth nothing now"]
    assert [int(o.value) for o in select.options] == [WEA_GRASS, EDU_FARM]
    assert "None of your cards" not in panel.text


def test_one_card_is_two_buttons_and_the_useless_one_is_not_the_highlighted() -> None:
    state = _attacking([EDU_FARM])
    panel = panels.secret_panel(state, 0)
    assert not [r for r in panel.rows if isinstance(r, Select)], "no select of one"
    (row,) = panel.rows
    assert isinstance(row, tuple)
    play, none = row
    assert isinstance(play, Button) and isinstance(none, Button)
    assert play.label == "Play Education (farmland) · worth nothing now"
    assert play.op == ACT and decode_action(play.arg) == A.CommitAttackCards((EDU_FARM,))
    assert (none.op, none.arg) == (CARDS, "attack_cards")
    assert (play.style, none.style) == ("secondary", "primary")
    assert "None of your cards would add anything now" in panel.text
    apply(state, 0, decode_action(play.arg))  # the button's action is legal


def test_one_useful_card_is_the_highlighted_button() -> None:
    panel = panels.secret_panel(_attacking([WEA_GRASS]), 0)
    (row,) = panel.rows
    assert isinstance(row, tuple)
    assert row[0].label == "Play Weapons (grassland) · +2 here"
    assert (row[0].style, row[1].style) == ("primary", "secondary")


def test_a_hand_worth_nothing_now_highlights_playing_none() -> None:
    panel = panels.secret_panel(_attacking([EDU_FARM, card("EDU", "W")]), 0)
    (select,) = [r for r in panel.rows if isinstance(r, Select)]
    assert all(o.label.endswith("· worth nothing now") for o in select.options)
    (none,) = [b for r in panel.rows if isinstance(r, tuple) for b in r]
    assert (none.op, none.style) == (CARDS, "primary")
    assert "None of your cards would add anything now" in panel.text
    useful = panels.secret_panel(_attacking([EDU_FARM, WEA_GRASS]), 0)
    (none,) = [b for r in useful.rows if isinstance(r, tuple) for b in r]
    assert none.style == "secondary"


def test_the_card_worth_model_game_spends_no_card_for_nothing() -> None:
    """tests/bot/bench_card_worth.py: a newcomer who takes what the menu puts first spent
    cards worth nothing dozens of times in a random game; now never."""
    from tests.bot.bench_card_worth import run

    result = run(3, 3, 4200)
    assert result["worth_nothing_before_per_game"] > 5
    assert result["worth_nothing_after_per_game"] == 0


def _growing(tokens: dict[str, tuple[int, int]]):  # type: ignore[no-untyped-def]
    state = make_state(tokens={**tokens, **BLUE_FAR}, hands={0: [card("HEA", "G")]},
                       markers=1)
    state, _ = apply(state, 0, A.BeginGrow())
    return state


def test_a_card_play_that_changes_nothing_says_so() -> None:
    """Health care with no second grassland hex to grow on adds nothing: its button says
    "worth nothing now" and is not the highlighted one; with a second hex it is useful."""
    from engine.legal import legal_actions

    state = _growing({"E5": (0, 1)})
    (row, _back) = panels.cards_menu(state, 0, legal_actions(state, 0)).rows
    assert isinstance(row, tuple)
    assert row[0].label.endswith("· worth nothing now") and row[0].style == "secondary"
    state = _growing({"E5": (0, 1), "E7": (0, 1)})
    (row, _back) = panels.cards_menu(state, 0, legal_actions(state, 0)).rows
    assert isinstance(row, tuple)
    assert "worth nothing" not in row[0].label and row[0].style == "primary"


def test_one_card_with_more_places_than_a_select_holds_is_not_asked_which(
        monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """"Which card?" with one card (Sanitation, on many hexes) is a button opening its
    places, not a select of one."""
    from engine.legal import legal_actions
    from games.controls import MENU

    san = card("SAN", "G")
    state = make_state(tokens={"E5": (0, 1), "E7": (0, 1), **BLUE_FAR}, hands={0: [san]},
                       markers=1)
    monkeypatch.setattr(panels, "MAX_OPTIONS", 1)
    rows = panels.cards_menu(state, 0, legal_actions(state, 0)).rows
    assert not [r for r in rows if isinstance(r, Select)]
    assert rows[0][0].op == MENU and rows[0][0].arg == f"card:{san}"
