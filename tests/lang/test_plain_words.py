"""Words a player reads: numbers in the reader's format, and no rule ids.

Rule ids (``R-OPT-1``, ``R-CARD-SAN``) are the project's bookkeeping: tests and code
comments name them, players read what a rule does."""

from __future__ import annotations

import re

import pytest

from bot.client.commands.answers import _skill
from bot.history.ratings import Skill
from games.tempus.hint import REASON_KEYS, reasons_text
from lang import i18n
from lang.i18n import using
from lang.messages import decimal, t

RULE_ID = re.compile(r"\bR-[A-Z]+(-[A-Z0-9]+)?\b")
#: a number written with a decimal point: "25.8", "-2.5", "+1.5"
POINT = re.compile(r"\d\.\d")
#: the same with a comma, as Polish writes it
COMMA = re.compile(r"\d,\d")


@pytest.mark.parametrize("lang", i18n.languages())
def test_no_message_names_a_rule_by_its_id(lang: str) -> None:
    found = [key for key in i18n.message_keys() if RULE_ID.search(i18n.lookup(key, lang))]
    assert found == []


def _shown_numbers() -> list[str]:
    """Messages that show fractional numbers, filled in the current language."""
    skill = Skill(25.83, 5.27, 3)
    reasons = [{"key": k, "value": v} for k, v in zip(sorted(REASON_KEYS), (1.5, -0.25, 2.0))]
    return [
        t("leaderboard.row", rank=1, name="ada", games=3, wins=1, **_skill(skill)),
        t("stats.rating", rated=3, **_skill(skill)),
        t("stats.vp", avg=decimal(8.0)),
        t("result.rating.change", name="ada", before=decimal(Skill().ordinal),
          after=decimal(skill.ordinal)),
        reasons_text(reasons),
    ]


def test_polish_numbers_use_a_decimal_comma() -> None:
    """"25,8 ± 10,5", "8,0", "0,0 → 10,0": never "25.8" in Polish (Babel's format for pl);
    English keeps its point."""
    with using("pl"):
        polish = _shown_numbers()
    with using("en"):
        english = _shown_numbers()
    for text in polish:
        assert not POINT.search(text), text
        assert COMMA.search(text), text
    for text in english:
        assert POINT.search(text) and not COMMA.search(text), text
    assert "25,8" in polish[1] and "10,5" in polish[1]


def test_no_polish_template_writes_a_decimal_point() -> None:
    pl = i18n.catalogue()["pl"].messages
    assert [k for k, v in pl.items() if POINT.search(v)] == []


def test_polish_hex_word_names_nothing_else() -> None:
    """A hex is "pole" (as the Polish rulebook calls it), so no terrain or era may be
    named with it: "0 pionów na polach „pola uprawne”" read as nonsense."""
    from engine.content import CONTENT

    pl = i18n.catalogue()["pl"].messages
    names = [pl[f"terrain.{x}"] for x in CONTENT.terrain_names]
    names += [pl[f"era.{i}"] for i in range(len(CONTENT.eras))]
    assert [n for n in names if re.search(r"\bpol(e|a|u|em|ach|ami)?\b", n.lower())] == []
    assert "**Pole**" in pl["rules.glossary"]
