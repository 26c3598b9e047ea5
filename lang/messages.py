"""Every sentence the bot says: ``t("key", name=value)``, in the current language.

The words are not in Python: they live in gettext catalogues, so that a translator can
add a language without reading code (:mod:`lang.i18n` loads them; Babel manages them).

* ``lang/locale/tempus.pot``: the English source. Each entry's ``msgctxt`` is the key
  used in code, its ``msgid`` the English text, ``#.`` lines a note for translators.
* ``lang/locale/pl/LC_MESSAGES/tempus.po``: Polish, one ``msgstr`` per key.

Placeholders are Python's ``{name}``. A number that decides a word's form is written
``{n:card|cards}``: the forms follow the ``Plural-Forms`` header of the language's
catalogue (English one|other; Polish one|few|many: ``{n:karta|karty|kart}`` gives
1 karta, 2 karty, 5 kart, 22 karty, 25 kart).

**Adding a message** (a new sentence for the code to say)::

    python -m lang.tool add error.example "You cannot do {what} now."

appends the key to the template and to every language's catalogue (untranslated), then
write the Polish in ``lang/locale/pl/LC_MESSAGES/tempus.po`` (or
``python -m lang.tool set pl error.example "..."``)::

    msgctxt "error.example"
    msgid "You cannot do {what} now."
    msgstr "Nie możesz teraz zrobić: {what}."

and use it: ``t("error.example", what=...)``. Editing the files by hand works just as
well. ``python -m pytest tests/lang/test_i18n.py`` fails if a key used in code is missing,
if a language lacks a message or has it marked fuzzy, or if the placeholders or plural
forms of a translation differ from the English. Changing an English text: edit the
``msgid`` in the template and run ``python -m lang.tool update`` (Babel's update): the
translations of changed texts become fuzzy until a translator checks them.
**Adding a language**: ``python -m lang.tool init de`` (Babel's init), translate,
done: the tests cover every language found under ``lang/locale``.

Game content (terrain, era, card and colour names) keeps its English in ``data/`` and its
translations here (``terrain.G``, ``era.3``, ``card.EDU.name``, ``colour.0``); a test
checks that the two Englishes agree.
"""

from __future__ import annotations

from typing import Any

from babel.numbers import format_decimal

from lang import i18n


def t(key: str, /, **kwargs: Any) -> str:
    """The catalogue text for ``key`` in the current language with ``kwargs`` filled in."""
    return i18n.render(key, None, **kwargs)


def t_in(lang: str | None, key: str, /, **kwargs: Any) -> str:
    """Like :func:`t`, in ``lang`` (a catalogue language or a Discord locale)."""
    return i18n.render(key, i18n.normalize(lang) if lang else None, **kwargs)


def decimal(value: float, digits: int = 1) -> str:
    """``value`` with ``digits`` decimals in the current language's format (Babel):
    ``25.8`` in English, ``25,8`` in Polish; never Python's own ``f"{x:.1f}"``, which
    always writes a point."""
    pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
    return format_decimal(value, format=pattern, locale=i18n.current())


def join_steps(steps: list[str]) -> str:
    """Sentences joined by "; " as one sentence: each after the first starts in lower case
    (``Move a token C3 → D3; stop moving``), unless it starts with an abbreviation."""
    out = steps[:1]
    for s in steps[1:]:
        lower = s[:1].lower() + s[1:] if s[1:2].islower() else s
        out.append(lower)
    return "; ".join(out)


def join_names(names: list[str]) -> str:
    """``A, B and C`` in the current language."""
    if len(names) <= 1:
        return "".join(names)
    return t("list.and", first=", ".join(names[:-1]), last=names[-1])


#: topics of ``/tempus help topic:...`` (``rules.<topic>`` is the text, ``rules.topic.<topic>``
#: its name)
RULE_TOPICS = ("overview", "setup", "turn", "move", "grow", "attack", "city", "draw", "cards",
               "progress", "end", "commands", "glossary", "shuffle")


def rule_text(topic: str) -> str:
    """A rules topic plus the list of topics, in the current language."""
    topic = topic if topic in RULE_TOPICS else "overview"
    names = ", ".join(t(f"rules.topic.{x}") for x in RULE_TOPICS)
    return "\n\n".join([t(f"rules.{topic}"), t("rules.topics", topics=names)])
