"""Every word drawn inside an image (and the image descriptions), looked up in one place.

The render modules never hold text: they call :func:`word` with a key and a language
(``lang``, threaded through :func:`render.board.render_board`,
:func:`render.hand.render_hand` and :func:`render.board.render_crop`).

The words themselves live in the project's gettext catalogues (``lang/locale``, one
source for every sentence the bot says and every word it draws; see :mod:`lang.messages`):
image words under ``image.<key>``, game content under its own keys (``colour.0``,
``terrain.G``, ``era.3``, ``card.EDU.name``, ``card.EDU.text``), whose English the tests
check against ``data/``. :data:`WORDS` is built from them once per process by the
catalogue reader (:mod:`lang.i18n`, a layer below this package). The names of game content
here are also the bot's (:mod:`games.tempus.labels` calls them in the current language).

A number that decides a word's form is written ``{n:token|tokens}`` (Polish:
``{n:pion|piony|pionów}``); pass the number as ``count``.
"""

from __future__ import annotations

import string
from typing import Any

from engine.content import CONTENT
from lang import i18n

Text = str | tuple[str, ...]
DEFAULT_LANG = "en"

#: image-word keys used by the render modules (catalogue key ``image.<key>``)
IMAGE_KEYS = (
    "title", "status.setup", "status.era", "status.round", "phase.tiles", "phase.tokens",
    "phase.progress", "phase.over", "start_player", "to_act", "game_over", "winner",
    "winners", "more", "list_sep", "decision.place_tile", "decision.place_start_token",
    "decision.turn", "decision.turn_done", "status.ended", "decision.move",
    "decision.grow", "decision.move_none", "decision.grow_none", "decision.discard",
    "decision.progress_cards", "decision.name_city_terrain", "decision.attack_cards",
    "decision.defend_cards", "decision.occupy", "decision.other", "who_what", "era_track",
    "next", "players", "col.actions", "col.cards", "col.supply", "col.cities", "col.vp",
    "player.start", "player.to_act", "player.cities", "player.no_cities", "dot_sep",
    "map_key", "key.stack_limit", "piles", "piles.tiles", "piles.placing", "combat",
    "combat.terrain", "combat.cards", "progress_chosen", "hand.spectator", "hand.title",
    "hand.count", "hand.era", "hand.progress_note", "hand.combat_note", "hand.empty",
    "hand.empty_hint", "card.background", "card.in_list", "alt.board", "alt.to_act",
    "alt.scores", "alt.score", "alt.changed", "alt.more", "desc.start", "desc.player",
    "desc.map", "desc.hex", "desc.empty", "desc.tokens", "desc.city", "desc.bonus",
    "desc.bonus_of", "desc.sea", "desc.no_land", "desc.piles", "desc.tiles", "alt.crop",
    "alt.targets", "alt.preview", "alt.hand", "alt.hand_empty", "alt.hex",
    *(f"letter.{i}" for i in range(len(CONTENT.colours))),
)


def catalogue_key(key: str) -> str:
    """The catalogue key of a word: game content under its own key, the rest ``image.``."""
    head, _, rest = key.partition(".")
    if head == "card" and rest in CONTENT.card_types:
        return f"card.{rest}.name"
    if head == "cardtext":
        return f"card.{rest}.text"
    if head in ("colour", "era", "terrain"):
        return key
    return f"image.{key}"


def _content_keys() -> list[str]:
    keys = [f"colour.{i}" for i in range(len(CONTENT.colours))]
    keys += [f"terrain.{t}" for t in (*CONTENT.terrain_names, "lake", "sea")]
    keys += [f"era.{i}" for i in range(len(CONTENT.eras))]
    keys += [f"{p}.{k}" for k in CONTENT.card_types for p in ("card", "cardtext")]
    return keys


def _load() -> dict[str, dict[str, Text]]:
    """``{lang: {word key: template}}`` for every catalogue language."""
    keys = [*IMAGE_KEYS, *_content_keys()]
    out: dict[str, dict[str, Text]] = {}
    for lang in i18n.languages():
        out[lang] = {k: i18n.lookup(catalogue_key(k), lang) for k in keys}
    return out


#: ``WORDS[lang][key]``; a key missing in a language falls back to English.
WORDS: dict[str, dict[str, Text]] = _load()


def plural_index(n: int, lang: str) -> int:
    """Which plural form a number takes, by the catalogue's ``Plural-Forms`` (English
    0 = one, 1 = other; Polish 0 = one, 1 = few (2-4, 22-24, ...), 2 = many)."""
    langs = i18n.catalogue()
    return langs[lang].plural_index(abs(n)) if lang in langs else (0 if abs(n) == 1 else 1)


class _Formatter(string.Formatter):
    """``{n:one|few|many}`` picks a plural form by ``n`` in ``lang``."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        if "|" in format_spec:
            forms = format_spec.split("|")
            return forms[min(plural_index(int(value), self.lang), len(forms) - 1)]
        return super().format_field(value, format_spec)


def _plural_fields(template: str) -> set[str]:
    return {name for _, name, spec, _ in string.Formatter().parse(template)
            if name and spec and "|" in spec}


def word(key: str, lang: str = DEFAULT_LANG, count: int | None = None, **fields: Any) -> str:
    """The text for ``key`` in ``lang`` with ``fields`` filled in (``count`` picks the
    plural form and is also available as ``{n}`` unless ``n`` is given)."""
    table = WORDS.get(lang) or WORDS[DEFAULT_LANG]
    value = table.get(key)
    if value is None:
        lang, value = DEFAULT_LANG, WORDS[DEFAULT_LANG][key]
    if isinstance(value, tuple):  # plural forms as a tuple (a test's made-up language)
        if count is None:
            raise ValueError(f"word {key!r} needs a count")
        value = value[min(plural_index(count, lang), len(value) - 1)]
    if count is not None:
        fields.setdefault("n", count)
    if "|" in value and _plural_fields(value) - set(fields):  # (a plural form has a "|")
        raise ValueError(f"word {key!r} needs a count")
    if not fields:
        return value
    if "|" not in value:  # no plural form: Python's own formatting, the same in C
        return value.format(**fields)
    return _Formatter(lang).format(value, **fields)


def colour_name(seat: int, lang: str = DEFAULT_LANG) -> str:
    key = f"colour.{seat}"
    if key not in WORDS[DEFAULT_LANG]:
        return f"{seat + 1}"
    return word(key, lang)


def colour_letter(seat: int, lang: str = DEFAULT_LANG) -> str:
    key = f"letter.{seat}"
    if key not in WORDS[DEFAULT_LANG]:
        return f"{seat + 1}"
    return word(key, lang)


def terrain_name(kind: str | None, lang: str = DEFAULT_LANG) -> str:
    """``kind``: a terrain letter, ``"lake"``, ``"sea"`` (None: open sea)."""
    return word(f"terrain.{kind or 'sea'}", lang)


def era_name(era: int, lang: str = DEFAULT_LANG) -> str:
    return word(f"era.{era}", lang)


def card_type_name(kind: str, lang: str = DEFAULT_LANG) -> str:
    return word(f"card.{kind}", lang)


def card_type_text(kind: str, lang: str = DEFAULT_LANG) -> str:
    return word(f"cardtext.{kind}", lang)


def names(seats: list[int], lang: str = DEFAULT_LANG) -> str:
    return word("list_sep", lang).join(colour_name(s, lang) for s in seats)
