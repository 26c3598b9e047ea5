"""Never ask a question with one possible answer: a turn message's "Build city…" or
"Attack…" with one possible choice is a button that names it and makes it (the attack's
with both strengths before cards, R-COMBAT-6/7), and a card menu with one possible play
offers that play as a button, not a select of one; so do one token move, one source's
destinations and one hex to grow on; two choices still open the menu or the select."""

from __future__ import annotations

import pytest

from engine import actions as A
from engine import apply
from engine.legal import legal_actions
from games.controls import ACT, MAX_LABEL, MENU, Button, Option, Select
from games.tempus import panels
from games.tempus.codec import decode_action
from lang import i18n
from tests.bot.positions import BLUE_FAR
from tests.engine.helpers import H, card, make_state
from tests.games.tempus.test_panels import SEATS

#: Red holds 2 tokens on E5 (one city of value 2 possible) next to Blue's 2 on F5 (one
#: possible attack)
ONE = {"E5": (0, 2), "F5": (1, 2), **BLUE_FAR}
#: and 2 more on G5, which can be a city too and attack F5 as well
TWO = {**ONE, "G5": (0, 2)}


def _buttons(tokens, hands=None):  # type: ignore[no-untyped-def]
    state = make_state(tokens=tokens, hands=hands or {}, markers=1)
    panel = panels.public_panel(state, SEATS[:3])
    return state, panel, [b for b in panel.controls() if isinstance(b, Button)]


def test_one_city_site_and_one_attack_are_buttons_that_act() -> None:
    state, panel, buttons = _buttons(ONE)
    legal = legal_actions(state, 0)
    acts = {decode_action(b.arg): b for b in buttons if b.op == ACT}
    build, attack = A.BuildCity(H("E5"), 2), A.Attack(H("E5"), H("F5"))
    assert [a for a in legal if isinstance(a, (A.BuildCity, A.Attack))] == [attack, build]
    assert acts[build].label == "🏰 Build a city of value 2 on E5"
    assert acts[build].style == "success"
    assert acts[attack].label == "⚔️ Attack F5 from E5: you 2 vs Blue 2 (grassland), before cards"
    assert acts[attack].style == "danger"
    assert not [b for b in buttons if b.op == MENU and b.arg in ("city", "attack")]
    # the tie rule the target menu showed is said above the prompt, which lists the buttons
    assert panel.text.startswith("Strength before cards is shown on the attack button; "
                                 "ties go to the defender.\n")
    assert acts[build].label in panel.text.splitlines()[-1]


def test_an_attack_on_a_city_names_its_owner_and_value() -> None:
    state = make_state(tokens={"E5": (0, 3), **BLUE_FAR}, cities={"F5": (1, 2)}, markers=1)
    panel = panels.public_panel(state, SEATS[:3])
    (button,) = [b for b in panel.controls() if isinstance(b, Button) and b.op == ACT
                 and isinstance(decode_action(b.arg), A.Attack)]
    assert button.label == "⚔️ Attack Blue's city on F5 from E5: you 3 vs 2, before cards"


def test_two_choices_still_open_the_menus() -> None:
    state, panel, buttons = _buttons(TWO)
    menus = {b.arg: b.label for b in buttons if b.op == MENU}
    assert menus["city"] == "🏰 Build city…" and menus["attack"] == "⚔️ Attack…"
    assert not [b for b in buttons if b.op == ACT
                and isinstance(decode_action(b.arg), (A.BuildCity, A.Attack))]
    assert not panel.text.startswith("Strength")
    city = panels.menu(state, 0, "city")
    (select,) = [r for r in city.rows if isinstance(r, Select)]
    assert [o.label for o in select.options] == ["Build a city of value 2 on E5",
                                                "Build a city of value 2 on G5"]


def test_the_one_choice_labels_in_polish() -> None:
    with i18n.using("pl"):
        _, panel, buttons = _buttons(ONE)
        labels = {b.label for b in buttons if b.op == ACT}
        assert "🏰 Zbuduj miasto o wartości 2 na E5" in labels
        assert "⚔️ Atak na F5 z E5: siła 2 do 2 bez kart (Niebieski, łąka)" in labels
        assert panel.text.startswith("Na przycisku ataku widać siłę bez kart; remis "
                                     "wygrywa obrońca.\n")
        state = make_state(tokens={"E5": (0, 3), **BLUE_FAR}, cities={"F5": (1, 2)},
                           markers=1)
        labels = {b.label for b in panels.public_panel(state, SEATS[:3]).controls()
                  if isinstance(b, Button)}
        assert "⚔️ Atak na miasto F5 (Niebieski) z E5: siła 3 do 2 bez kart" in labels


def test_the_longest_one_choice_labels_fit_a_button() -> None:
    """Discord refuses a button label over 80 characters: the longest colour, terrain,
    hexes and numbers still fit, in every language."""
    for lang in i18n.languages():
        with i18n.using(lang):
            colours = [panels.colour_name(s) for s in range(5)]
            terrains = [panels.terrain_name(k) for k in "GFWHM"]
            for key in ("only.attack", "only.attack_city", "only.city", "only.move",
                        "only.grow"):
                for c in colours:
                    for ter in terrains:
                        text = panels.t(key, dst="M12", src="L12", hex="M12", att=99, dfn=99,
                                        value=99, owner=c, terrain=ter)
                        assert len(text) <= MAX_LABEL, (lang, text)


def test_a_card_menu_with_one_play_offers_it_as_a_button() -> None:
    lea = card("LEA", "G")
    state = make_state(tokens=ONE, hands={0: [lea]}, markers=1)
    menu = panels.menu(state, 0, "cards")
    assert not [r for r in menu.rows if isinstance(r, Select)]
    play, back = menu.controls()
    assert isinstance(play, Button) and play.op == ACT
    assert decode_action(play.arg) == A.Attack(H("E5"), H("F5"), lea)
    assert play.label == "🎴 Attack F5 from E5 with Leader (grassland) (no action used)"
    assert (back.op, back.arg) == (MENU, "close")
    # two plays: "which card?"
    state = make_state(tokens=ONE, hands={0: [lea, card("GOV", "G")]}, markers=1)
    (select,) = [r for r in panels.menu(state, 0, "cards").rows if isinstance(r, Select)]
    assert select.op == ACT and len(select.options) == 2


#: Red's one token on E5, hemmed in by Blue on five sides: its only move is to F5
HEMMED = {"E5": (0, 1), **{h: (1, 1) for h in ("D4", "D5", "D6", "E4", "E6")}}


def _in(action, tokens):  # type: ignore[no-untyped-def]
    """Red's Move or Grow action begun in a position of ``tokens``, and its public panel."""
    state, _ = apply(make_state(tokens=tokens, markers=1), 0, action)
    return state, panels.public_panel(state, SEATS[:3])


def _acts(panel):  # type: ignore[no-untyped-def]
    return {decode_action(b.arg): b for b in panel.controls()
            if isinstance(b, Button) and b.op == ACT}


def test_one_possible_move_is_a_button_that_makes_it() -> None:
    state, panel = _in(A.BeginMove(), HEMMED)
    move = A.MoveToken(H("E5"), H("F5"))
    assert [a for a in legal_actions(state, 0) if isinstance(a, A.MoveToken)] == [move]
    assert not [r for r in panel.rows if isinstance(r, Select)]
    assert _acts(panel)[move].label == "👣 Move a token E5 → F5"
    assert _acts(panel)[move].style == "primary"
    assert A.EndMove() in _acts(panel)


def test_one_source_shows_its_destinations_at_once() -> None:
    """Not "from where?" with one answer and then a private menu: the destinations of the
    only source that can move are the public select, and choosing one moves."""
    state, panel = _in(A.BeginMove(), {"E5": (0, 1), **BLUE_FAR})
    (select,) = [r for r in panel.rows if isinstance(r, Select)]
    assert select.op == ACT and select.placeholder == "Move a token from E5 to… (D4–F5)"
    moves = {decode_action(o.value) for o in select.options}
    assert moves == {a for a in legal_actions(state, 0) if isinstance(a, A.MoveToken)}
    assert [o.label for o in select.options] == ["D4", "D5", "D6", "E4", "E6", "F5"]
    assert not [b for b in panel.controls() if b.op == MENU]


def test_two_sources_still_ask_from_where_and_a_menu_with_one_destination_is_a_button() -> None:
    state, panel = _in(A.BeginMove(), {**HEMMED, "H5": (0, 1)})
    (select,) = [r for r in panel.rows if isinstance(r, Select)]
    assert (select.op, select.arg) == (MENU, "dest")
    assert [o.value for o in select.options] == ["E5", "H5"]
    # E5 can go to F5 only: that move or back, not "to where?" with one answer
    menu = panels.menu(state, 0, "dest:E5")
    assert not [r for r in menu.rows if isinstance(r, Select)]
    move, back = menu.controls()
    assert isinstance(move, Button) and (move.op, move.label) == (ACT, "👣 Move a token E5 → F5")
    assert decode_action(move.arg) == A.MoveToken(H("E5"), H("F5"))
    assert (back.op, back.arg) == (MENU, "close")
    assert menu.image == "crop" and menu.focus == (H("E5"),) and menu.highlight == (H("F5"),)
    # H5 has six destinations: the select, as before
    (dests,) = [r for r in panels.menu(state, 0, "dest:H5").rows if isinstance(r, Select)]
    assert dests.op == ACT and len(dests.options) == 6


def test_one_hex_to_grow_on_is_a_button_and_two_keep_the_select() -> None:
    state, panel = _in(A.BeginGrow(), {"E5": (0, 1), **BLUE_FAR})
    assert not [r for r in panel.rows if isinstance(r, Select)]
    assert _acts(panel)[A.GrowToken(H("E5"))].label == "🌱 Grow a token on E5"
    assert A.EndGrow() in _acts(panel)
    _, panel = _in(A.BeginGrow(), {"E5": (0, 1), "G5": (0, 1), **BLUE_FAR})
    (select,) = [r for r in panel.rows if isinstance(r, Select)]
    assert select.op == ACT and [o.label for o in select.options] == ["E5", "G5"]
    assert not [b for b in _acts(panel) if isinstance(b, A.GrowToken)]


def test_the_one_move_and_grow_labels_in_polish() -> None:
    with i18n.using("pl"):
        _, panel = _in(A.BeginMove(), HEMMED)
        assert _acts(panel)[A.MoveToken(H("E5"), H("F5"))].label == "👣 Przesuń pion E5 → F5"
        _, panel = _in(A.BeginGrow(), {"E5": (0, 1), **BLUE_FAR})
        assert _acts(panel)[A.GrowToken(H("E5"))].label == "🌱 Nowy pion na E5"
        _, panel = _in(A.BeginMove(), {"E5": (0, 1), **BLUE_FAR})
        (select,) = [r for r in panel.rows if isinstance(r, Select)]
        assert select.placeholder == "Przesuń pion z E5 na… (D4–F5)"


def test_the_turn_prompt_lists_the_buttons_unambiguously() -> None:
    """The one-attack label has commas in it: the prompt's list separates the buttons with a
    mark no label contains, so each label can be read off whole, in every language."""
    for lang in i18n.languages():
        with i18n.using(lang):
            _, panel, buttons = _buttons(ONE, {0: [card("EDU", "W")]})
            labels = [b.label for b in buttons if b.op in (ACT, MENU)]
            prompt = panel.text.splitlines()[-1]
            listed = prompt[prompt.index(labels[0]):].removesuffix(".")
            assert any("," in label for label in labels), labels
            assert listed.split(panels.t("prompt.options_sep")) == labels, listed
    _, panel, _ = _buttons(ONE)
    assert panel.text.endswith("Here: 👣 Move · 🃏 Draw cards · ⚔️ Attack F5 from E5: you 2 "
                               "vs Blue 2 (grassland), before cards · 🏰 Build a city of value "
                               "2 on E5 · 🌱 Grow: no room on your hexes, uses the marker."), \
        panel.text


def test_the_attack_menu_says_the_strengths_in_natural_polish() -> None:
    """The target menu's descriptions as the one-attack button has them: "siła 2 do 2 bez
    kart (Niebieski, łąka)", never "przeciw Niebieski" (a colour name after "przeciw"
    would need the dative, which a name filled in cannot have)."""
    with i18n.using("pl"):
        state = make_state(tokens=TWO, markers=1)
        (select,) = [r for r in panels.menu(state, 0, "attack").rows if isinstance(r, Select)]
        assert [o.description for o in select.options] == [
            "siła 2 do 2 bez kart (Niebieski, łąka)"] * 2
        state = make_state(tokens={"E5": (0, 3), "G5": (0, 3), **BLUE_FAR},
                           cities={"F5": (1, 2)}, markers=1)
        (select,) = [r for r in panels.menu(state, 0, "attack").rows if isinstance(r, Select)]
        assert [o.description for o in select.options] == [
            "siła 3 do 2 bez kart (miasto: Niebieski; teren: łąka albo wskazany przez "
            "właściciela)"] * 2


def test_one_source_with_more_destinations_than_the_panel_holds_keeps_the_menu(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Sea travel may offer every coastal hex: destinations that need more selects than the
    public panel has room for stay in the private menu (which has one more select and says
    when it cuts), rather than being cut without a word."""
    monkeypatch.setattr(panels, "MAX_OPTIONS", 1)  # six destinations, six selects
    _, panel = _in(A.BeginMove(), {"E5": (0, 1), **BLUE_FAR})
    assert not [r for r in panel.rows if isinstance(r, Select)], "no select of one source"
    (button,) = [b for b in panel.controls() if isinstance(b, Button) and b.op == MENU
                 and b.arg.startswith("dest")]
    assert (button.arg, button.label[:22]) == ("dest:E5", "Move a token from… E5 ")


def test_a_select_of_one_is_never_built() -> None:
    """The third starting token with one hex left for it is a button naming the hex, not
    a select "(L11–L11)"; 26 choices are two selects of 13, not 25 and one."""
    one = [Option("L11", "token:L11", "forest")]
    rows, _ = panels.chunked_selects(one, lambda a, b: f"Place a starting token on… ({a}–{b})",
                                     MENU, "tile", 3)
    assert rows == [(Button("Place a starting token on… L11 · forest", MENU, "tile:token:L11",
                            "primary"),)]
    many = [Option(str(i), str(i)) for i in range(26)]
    rows, cut = panels.chunked_selects(many, lambda a, b: f"({a}–{b})", MENU, "x", 3)
    assert [len(r.options) for r in rows if isinstance(r, Select)] == [13, 13] and not cut
    act = A.PlaceStartToken(H("E5"))
    rows, _ = panels.chunked_selects([Option("E5", panels.encode_action(act))],
                                     lambda a, b: f"Place a starting token on… ({a}–{b})",
                                     ACT, "", 3)
    assert rows == [(Button("Place a starting token on… E5", ACT, panels.encode_action(act),
                            "primary"),)]


def test_no_panel_of_random_games_holds_a_select_of_one() -> None:
    """Whatever the position, a select always offers at least two answers: the public
    panels, the secret card choices and the card menus of random games."""
    from engine.game import decisions
    from tests.bot.helpers import random_states

    seen = 0
    for seed in (3, 8):
        for state in random_states(seed, 3, every=2):
            for d in decisions(state):
                found = [panels.public_panel(state, SEATS[:3])]
                if d.kind in panels.HAND_KINDS:
                    found.append(panels.secret_panel(state, d.seat))
                if d.kind == "turn":
                    found.append(panels.cards_menu(state, d.seat,
                                                   legal_actions(state, d.seat)))
                for panel in found:
                    for row in panel.rows:
                        if isinstance(row, Select):
                            seen += 1
                            assert len(row.options) > 1, (d.kind, row.placeholder)
    assert seen > 100
