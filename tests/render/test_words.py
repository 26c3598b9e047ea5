"""Every word in an image comes from render.words (so it can be translated).

The strong test draws boards, crops and hands in a made-up language whose every word is
a marker like ``§12§``, records every text drawn (panel text and every ImageDraw.text
call, sprites included), and checks that nothing but markers, hex labels, digits and
symbols was drawn: any English written straight into a render module would show up.
"""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import ImageDraw

from engine import view
from engine.content import CONTENT
from render import board, hand, panel, sprites, words
from render.alt_text import board_alt_text, describe_position
from render.fonts import recording, wrap
from render.hand import CARD_W, TEXT_SIZE, card_image, render_hand
from render.positions import last_move_of, move_targets
from tests.render.helpers import game, states

MARK = re.compile(r"§\d+§")
HEX_LABEL = re.compile(r"\b[A-M](1[0-2]|[1-9])\b")
RENDER = Path(board.__file__).parent


@pytest.fixture
def marker_language() -> Iterator[str]:
    table: dict[str, words.Text] = {}
    for i, (key, value) in enumerate(words.WORDS["en"].items()):
        fields = "".join(f" {{{f}}}" for f in _fields(value))
        marked = f"§{i}§{fields}"
        table[key] = (marked, marked, marked) if isinstance(value, tuple) else marked
    words.WORDS["qq"] = table
    yield "qq"
    del words.WORDS["qq"]


def _fields(value: words.Text) -> list[str]:
    forms = value if isinstance(value, tuple) else (value,)
    return sorted({f for form in forms for _, f, _, _ in string.Formatter().parse(form) if f})


def _left_over(text: str) -> str:
    """What is left of a drawn text once markers and hex labels are taken out."""
    return "".join(c for c in HEX_LABEL.sub("", MARK.sub("", text)) if c.isalpha())


def _positions() -> list[tuple[dict, tuple[int, ...], tuple[int, ...] | None, int]]:
    """Views of every kind of moment: tiles, tokens, actions, combat, progress, end."""
    out = []
    seen: set[str] = set()
    for players, seed, random_map in ((3, 4, False), (4, 2, True), (5, 3, True)):
        record = game(players, seed, random_map)
        for i, state in states(record):
            kind = (state.phase, state.stage, state.combat is not None,
                    bool(state.discards), bool(state.progress_choices))
            if str(kind) in seen and i % 97:
                continue
            seen.add(str(kind))
            last = last_move_of(record.moves[i - 1][1]) if i else None
            seat = state.turn
            out.append((view(state, None), move_targets(state), last, seat))
            out.append((view(state, seat), (), last, seat))
    return out


def test_no_english_is_drawn_outside_the_words_module(marker_language: str) -> None:
    drawn: list[str] = []
    original = ImageDraw.ImageDraw.text

    def spy(self, xy, text, *args, **kwargs):  # type: ignore[no-untyped-def]
        drawn.append(str(text))
        return original(self, xy, text, *args, **kwargs)

    board.palette()  # built from an English sample image, never shown: not recorded
    for cache in (panel.static_panel, hand.card_face, sprites.chip, sprites.cube,
                  sprites.badge, sprites.stack_bonus, sprites.swords):
        cache.cache_clear()
    ImageDraw.ImageDraw.text = spy  # type: ignore[method-assign]
    try:
        with recording() as panel_text:
            for v, targets, last, seat in _positions():
                board.board_image(v, targets, last, lang=marker_language)
                owned = [h for h, o in enumerate(v["owner"]) if o == seat]
                if owned:
                    board.crop_image(v, tuple(owned[:1]), tuple(targets[:3]),
                                     lang=marker_language)
                if v["seat"] is not None:
                    hand.hand_image(v, marker_language)
            hand.hand_image(_positions()[0][0], marker_language)  # a spectator's notice
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]
    texts = drawn + [t for t, _ in panel_text]
    assert len(texts) > 500 and any(MARK.search(t) for t in texts)
    leaks = sorted({t for t in texts if _left_over(t)})
    assert not leaks, f"text drawn without render.words: {leaks[:10]}"


def test_descriptions_use_the_words_module_too(marker_language: str) -> None:
    for v, _, _, _ in _positions()[::3]:
        for text in [board_alt_text(v, None, marker_language),
                     *describe_position(v, marker_language)]:
            assert not _left_over(text), text


#: Calls whose text arguments would be drawn (or measured for drawing).
_TEXT_CALLS = {"text", "draw_text", "_text", "wrap", "fit", "width", "text_width"}
_ANCHOR = re.compile(r"^[lmrs][atmsbd]$")


def _literals(node: ast.AST) -> Iterator[ast.Constant]:
    """String constants in ``node``, except the keys given to ``word(...)``."""
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "word":
        return
    if isinstance(node, ast.Constant):
        yield node
    for child in ast.iter_child_nodes(node):
        yield from _literals(child)


def test_render_modules_pass_no_word_literals_to_drawing_calls() -> None:
    """A quick static check beside the runtime one: no string literal with letters is
    handed to a text-drawing call in any render module (words.py holds the words)."""
    found = []
    for path in sorted(RENDER.glob("*.py")):
        if path.name == "words.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else \
                getattr(node.func, "id", "")
            if name not in _TEXT_CALLS:
                continue
            for arg in node.args:
                for lit in _literals(arg):
                    if isinstance(lit.value, str) and re.search(r"[A-Za-z]{2,}", lit.value) \
                            and not _ANCHOR.match(lit.value):
                        found.append(f"{path.name}:{node.lineno}: {lit.value!r}")
    assert not found, found


def test_polish_has_every_word_with_the_same_fields() -> None:
    en, pl = words.WORDS["en"], words.WORDS["pl"]
    assert set(en) == set(pl), sorted(set(en) ^ set(pl))
    for key, value in en.items():
        other = pl[key]
        assert isinstance(value, tuple) == isinstance(other, tuple), key
        if isinstance(other, tuple):
            assert len(other) == 3, key  # Polish: one, few, many
        # the same fields (a capitalised field may be used in its lower-case form)
        allowed = set(_fields(value)) | {f.lower() for f in _fields(value)} | {"n"}
        assert set(_fields(other)) <= allowed, key


def test_plural_forms() -> None:
    assert [words.plural_index(n, "en") for n in (0, 1, 2, 5)] == [1, 0, 1, 1]
    pl = {n: words.plural_index(n, "pl") for n in (0, 1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 112)}
    assert pl == {0: 2, 1: 0, 2: 1, 4: 1, 5: 2, 11: 2, 12: 2, 14: 2, 21: 2, 22: 1, 25: 2,
                  112: 2}
    assert words.word("decision.discard", "pl", count=3) == "odrzuć 3 karty"
    assert words.word("decision.discard", "en", count=1) == "discard 1 card"
    assert words.word("decision.discard", "xx", count=2) == "discard 2 cards"  # fallback
    with pytest.raises(ValueError):
        words.word("decision.discard", "en")


def test_english_content_words_come_from_the_data_files() -> None:
    assert words.era_name(3) == CONTENT.eras[3].name
    assert words.terrain_name("W") == CONTENT.terrain_names["W"]
    assert words.card_type_text("EDU") == CONTENT.card_types["EDU"].text
    assert words.colour_name(0) == CONTENT.colours[0]
    assert words.colour_letter(0, "pl") == "C"


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_every_card_fits_its_text(lang: str) -> None:
    for kind in CONTENT.card_types:
        assert len(wrap(words.card_type_text(kind, lang), TEXT_SIZE, CARD_W - 44)) <= 4, kind
    assert card_image(CONTENT.cards[0].id, lang).size[0] == CARD_W


def test_polish_images_differ_from_english() -> None:
    record = game(4, 2)
    state = states(record, 200)[1][1]
    v = view(state, None)
    assert board.render_board(v, lang="pl") != board.render_board(v)
    seat = state.turn
    own = view(state, seat)
    if own["players"][seat].get("hand"):
        assert render_hand(own, "pl") != render_hand(own)


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_owners_letters_cannot_be_read_as_digits(lang: str) -> None:
    """The letter on a stack sits beside its count: at phone size a "Ż" or a "Z" reads as
    "2" (a one-token stack looked like "2 1"), an "O" as "0", an "I" or "l" as "1". Each
    colour's mark is one character, none of those, and different from every other's."""
    confusable = set("0123456789ZzŻżŹźOoÓóIl|")
    marks = [words.colour_letter(seat, lang) for seat in range(len(CONTENT.colours))]
    assert len(set(marks)) == len(marks), marks
    for mark in marks:
        assert len(mark) == 1 and mark not in confusable, (lang, mark)


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_every_word_fills_in_as_the_plural_aware_formatter_does(lang: str) -> None:
    """Words without a plural form are filled in by Python's own formatting (the quick
    way): the same text as the plural-aware formatter gives, for every word."""
    from render.words import WORDS, _Formatter, word

    checked = 0
    for key, template in WORDS[lang].items():
        if not isinstance(template, str):
            continue
        names = {n for _, n, _, _ in string.Formatter().parse(template) if n}
        for value in (7, 1, "Ann"):
            kwargs = {n: value for n in names}
            try:
                expected = _Formatter(lang).format(template, **kwargs)
            except (ValueError, TypeError):  # a word where a number is wanted
                continue
            assert word(key, lang, **kwargs) == expected, key
            checked += 1
    assert checked > 50
