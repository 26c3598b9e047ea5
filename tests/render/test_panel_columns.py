"""The players table says "Cities left" (the number of cities not yet built,
as against "cities built" in /tempus status and the final post), and its headings never
run into each other, in any language."""

from __future__ import annotations

import pytest
from PIL import Image

from render.panel import NAME_X, NUMS_X0, NUMS_X1, Pen, columns
from render.words import word

LANGS = ("en", "pl")


def test_the_cities_column_says_cities_left() -> None:
    assert columns("en")[1][3] == ("Cities left",)
    assert " ".join(columns("pl")[1][3]) == "Miasta w zapasie"
    assert word("col.cities", "en") == "Cities left"


@pytest.mark.parametrize("lang", LANGS)
def test_column_headings_do_not_overlap(lang: str) -> None:
    pen = Pen(Image.new("RGB", (550, 1)), 1.0)
    centres, heads = columns(lang)
    spans = []
    for x, lines in zip(centres, heads):
        assert 1 <= len(lines) <= 2
        w = max(pen.width(line, 10, True) for line in lines)
        spans.append((x - w / 2, x + w / 2))
    assert spans[0][0] >= NUMS_X0 - 0.5 and spans[-1][1] <= NUMS_X1 + 0.5
    for (_, right), (left, _) in zip(spans, spans[1:]):
        assert left - right >= 4, (lang, spans)
    # the longest colour name (bold, 12) ends left of the first column
    longest = max(pen.width(word(f"colour.{s}", lang), 12, True) for s in range(5))
    assert NAME_X + longest < spans[0][0]
