"""Image descriptions and /tempus describe: public facts only, within Discord's limit.

R-INFO-1, R-INFO-2: the alt text and the position in words are built from the public
view; they never name a card, so they cannot name a hidden one.
"""

from __future__ import annotations

import re

import pytest

from engine import actions as A
from engine import apply, view
from engine.content import CONTENT
from engine.hexgrid import NUM_HEXES, label
from engine.state import State
from render.alt_text import MAX_ALT, board_alt_text, describe_position
from render.terrain_art import OPEN_SEA
from render.terrain_layer import hex_kinds
from render.words import card_type_name
from tests.engine.helpers import H, make_state
from tests.render.helpers import game, states
from tests.render.test_no_leak import _scramble

LANGS = ("en", "pl")
CARD_NAMES = {lang: {card_type_name(k, lang).lower() for k in CONTENT.card_types}
              for lang in LANGS}

#: random games with face-down attack cards and secret progress choices among their
#: positions (random players rarely attack: most games have no fight with cards)
SECRET_GAMES = ((3, 1), (4, 2), (5, 3), (4, 7), (4, 10), (4, 31), (4, 37), (5, 38))


def _with_secrets() -> list[State]:
    """Positions where players hold cards, with face-down attack cards and secret
    progress choices among them."""
    out, combat, progress = [], 0, 0
    for players, seed in SECRET_GAMES:
        for i, state in states(game(players, seed)):
            c = state.combat
            if c is not None and c.attack_cards and c.defend_cards is None:
                if combat < 4:
                    combat += 1
                    out.append(state)
            elif state.progress_choices and any(state.progress_choices.values()):
                if progress < 4:
                    progress += 1
                    out.append(state)
            elif i % 60 == 0 and sum(len(p.hand) for p in state.players) >= 6:
                out.append(state)
    assert combat and progress, "no position with secret cards in these games"
    return out


def _words_of(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


@pytest.mark.parametrize("lang", LANGS)
def test_r_info_1_descriptions_never_name_a_card(lang: str) -> None:
    held = 0
    for state in _with_secrets():
        for seat in (None, *range(state.num_players)):
            v = view(state, seat)
            if seat is not None:
                held += len(v["players"][seat]["hand"])  # the view does hold them
            texts = [board_alt_text(v, ["Red moved 1 token from C4 to D4."], lang),
                     *describe_position(v, lang)]
            text = _words_of(" ".join(texts))
            for name in CARD_NAMES[lang]:
                assert not re.search(rf"\b{re.escape(_words_of(name))}\b", text), (name, seat)
    assert held > 20


@pytest.mark.parametrize("lang", LANGS)
def test_r_info_1_descriptions_depend_only_on_public_facts(lang: str) -> None:
    for i, state in enumerate(_with_secrets()):
        public = view(state, None)
        other = view(_scramble(state, i), None)
        alt = board_alt_text(public, None, lang)
        assert board_alt_text(other, None, lang) == alt
        assert describe_position(other, lang) == describe_position(public, lang)
        for seat in range(state.num_players):
            own = view(state, seat)
            assert board_alt_text(own, None, lang) == alt
            assert describe_position(own, lang) == describe_position(public, lang)


def test_alt_text_says_whose_turn_the_scores_and_what_changed() -> None:
    state = states(game(4, 2), 150)[1][1]
    v = view(state, None)
    alt = board_alt_text(v, ["Blue grew 2 tokens on D5.", "Red attacked E6"])
    turn = CONTENT.colours[v["decisions"][0]["seat"]]
    assert f"To act: {turn}" in alt
    for s, p in enumerate(v["players"]):
        assert f"{CONTENT.colours[s]} {p['victory_points']}" in alt
    assert alt.endswith("Blue grew 2 tokens on D5. Red attacked E6.")
    assert "What changed" not in board_alt_text(v)
    assert "Punkty:" in board_alt_text(v, None, "pl")


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_alt_text_of_a_won_fight_ends_its_sentence_once(lang: str) -> None:
    """After a won attack the attacker decides how many tokens move in (R-COMBAT-8): the
    "to act" sentence names that decision and ends with one full stop, not "?."."""
    s = make_state(3, tokens={"G5": (2, 3), "F5": (1, 1), "J9": (1, 1), "K9": (1, 1),
                              "L10": (1, 1), "C3": (0, 2)}, turn=2)
    for action in (A.Attack(H("G5"), H("F5")), A.CommitAttackCards(())):  # 3 against 1
        s, _ = apply(s, 2, action)
    v = view(s, None)
    assert [d["kind"] for d in v["decisions"]] == ["occupy"]
    alt = board_alt_text(v, None, lang)
    assert "F5" in alt and "?." not in alt and ".." not in alt, alt


def test_alt_text_fits_discords_limit() -> None:
    v = view(states(game(5, 3), 1000)[1][1], None)
    assert len(board_alt_text(v)) <= MAX_ALT
    many = [f"Purple moved 3 tokens from {label(h)} to {label(h + 1)}." for h in range(120)]
    alt = board_alt_text(v, many)
    assert len(alt) <= MAX_ALT and alt.endswith("\u2026")
    assert "Purple moved 3 tokens from A1 to B1." in alt  # the first lines are kept
    huge = board_alt_text(v, ["x" * 5000])
    assert len(huge) == MAX_ALT and huge.endswith("x\u2026")
    assert board_alt_text(v, ["", "  "]) == board_alt_text(v)


def test_describe_lists_every_hex_that_is_not_open_sea() -> None:
    state = states(game(4, 2), 150)[1][1]
    v = view(state, None)
    lines = describe_position(v)
    kinds = hex_kinds(tuple(v["terrain"]))
    hex_lines = [line for line in lines if re.match(r"^[A-M]\d+ ", line)]
    expected = [label(h) for h in range(NUM_HEXES) if kinds[h] != OPEN_SEA]
    assert [line.split()[0] for line in hex_lines] == expected
    for h in range(NUM_HEXES):
        if v["owner"][h] >= 0 and v["count"][h] > 0:
            line = next(x for x in hex_lines if x.startswith(label(h) + " "))
            n = v["count"][h]
            assert f"{CONTENT.colours[v['owner'][h]]}, {n} token" in line
        if v["city_owner"][h] >= 0:
            line = next(x for x in hex_lines if x.startswith(label(h) + " "))
            assert f"city of value {v['city_value'][h]}" in line
    assert lines[-1] == "All other hexes are open sea."
    for s in range(state.num_players):
        assert any(line.startswith(f"{CONTENT.colours[s]}: era ") for line in lines)


def test_describe_before_any_land_and_at_the_end() -> None:
    record = game(3, 4, random_map=False)
    first, last = states(record)[0][1], states(record)[-1][1]
    assert describe_position(view(first, None))[-1] == "No land has been placed yet."
    end = describe_position(view(last, None))
    assert any(line.startswith("Winner") for line in end[:3])


@pytest.mark.parametrize("lang", LANGS)
def test_player_lines_use_action_markers_and_plural_forms(lang: str) -> None:
    """"Action markers left" (the glossary's word), and a number takes its
    plural form: never "1 cards" or "1 tokens" (nor "5 karty" in Polish)."""
    from tests.engine.helpers import card, make_state
    s = make_state(tokens={"E5": (0, 1)}, hands={0: [card("EDU", "G")], 1: []}, markers=1)
    s.players[0].supply = 1
    s.players[1].supply, s.players[1].markers = 5, 5
    s.players[1].hand = []
    lines = describe_position(view(s, None), lang)
    red, blue = lines[3], lines[4]
    if lang == "en":
        assert "1 action marker left, 1 card in hand, 1 token in supply" in red, red
        assert "5 action markers left, 0 cards in hand, 5 tokens in supply" in blue, blue
        assert not re.search(r"\b1 (cards|tokens|markers)\b", " ".join(lines))
    else:
        assert "1 znacznik akcji, 1 karta na ręce, 1 pion w zapasie" in red, red
        assert "5 znaczników akcji, 0 kart na ręce, 5 pionów w zapasie" in blue, blue
