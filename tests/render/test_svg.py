"""The board as SVG: a well-formed document drawn from the picture's own marks and pieces,
the same for every seat's view as for the spectator's, in every language."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from engine.views import view
from render.board import board_marks, piece_places
from render.svg import SvgPen, board_svg, hit_layer, map_layer, pieces_layer, view_box
from tests.render.helpers import game, states

NS = "{http://www.w3.org/2000/svg}"


def _positions() -> list:  # type: ignore[type-arg]
    return [s for _, s in states(game(4, 7), every=60)]


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_document_is_well_formed_with_every_piece(lang: str) -> None:
    for state in _positions():
        v = view(state, None)
        doc = ET.fromstring(board_svg(v, lang=lang, hits=True))
        assert doc.tag == NS + "svg"
        x, y, w, h = view_box(v)
        assert doc.get("viewBox") == f"{x} {y} {w} {h}"
        pieces = doc.find(f"{NS}g[@class='pieces']")
        assert pieces is not None
        texts = [t.text for t in pieces.iter(NS + "text")]
        places = piece_places(v)
        # each piece: its number (count or city value) and its owner's letter
        assert len([t for t in texts if t and t.isdigit()]) == len(places)
        hits = doc.find(f"{NS}g[@class='hits']")
        assert hits is not None and len(hits) == 156


def test_marks_are_the_pictures() -> None:
    state = _positions()[3]
    v = view(state, None)
    marks = board_marks(v, (5, 6), (20, 21, 1))
    svg = pieces_layer(v, highlight=(5, 6), last_move=(20, 21, 1))
    doc = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{svg}</svg>')
    assert marks.arrows == ((20, 21, True),)
    swords = [t for t in doc.iter(NS + "text") if t.text == "\u2694"]
    assert len(swords) == 1, "an attack is marked with swords, not colour alone"


def test_a_seat_view_draws_the_spectators_board() -> None:
    for state in _positions():
        public = view(state, None)
        for seat in range(state.num_players):
            mine = view(state, seat)
            assert pieces_layer(mine) == pieces_layer(public)
            assert map_layer(mine["terrain"]) == map_layer(public["terrain"])


def test_the_pen_draws_imagedraws_shapes() -> None:
    pen = SvgPen()
    pen.polygon([(0, 0), (1, 0), (0, 1)], fill=(1, 2, 3), outline=(4, 5, 6), width=2)
    pen.rectangle([0, 0, 4, 2], fill=(255, 255, 255))
    pen.line([(0, 0), (3, 4)], fill=(0, 0, 0), width=1)
    pen.ellipse([0, 0, 10, 6], outline=(0, 0, 0), width=2)
    pen.arc([0, 0, 10, 10], 180, 360, fill=(9, 9, 9), width=1)
    doc = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{pen.text()}</svg>')
    assert [e.tag.removeprefix(NS) for e in doc] == ["polygon", "rect", "path", "ellipse",
                                                     "path"]
    assert doc[0].get("fill") == "#010203"


def test_the_tap_layer_names_each_hex() -> None:
    doc = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{hit_layer()}</svg>')
    labels = {p.get("data-label") for p in doc.iter(NS + "polygon")}
    assert {"A1", "C4", "M12"} <= labels
