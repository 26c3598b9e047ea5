"""Readable names for cards, terrains, eras, colours, hexes and actions, in the current
language (built on the message catalogue; the English names in ``data/`` match it).

The names of game content (colours, terrains, eras, card types) are the ones drawn in the
images: :mod:`render.words` holds them, in every language; here they are in the current one.
"""

from __future__ import annotations

import re
import string
from functools import cache
from typing import Any

from engine import actions as A
from engine.content import CONTENT
from engine.hexgrid import label, parse_label
from lang import i18n
from lang.messages import t
from render import words


def terrain_name(letter: str | None) -> str:
    """A land terrain's name; anything else (None, a lake) is named as the sea."""
    kind = letter if letter in CONTENT.terrain_names else "sea"
    return words.terrain_name(kind, i18n.current())


def era_name(index: int) -> str:
    """The era track row ``index`` (0 = the Starting box, 10 = Flight)."""
    return words.era_name(index, i18n.current())


def colour_name(seat: int) -> str:
    """A seat's colour, which is also how messages name the player."""
    return words.colour_name(seat, i18n.current())


def card_type_name(card: int) -> str:
    return words.card_type_name(CONTENT.cards[card].type, i18n.current())


def card_name(card: int) -> str:
    return f"{card_type_name(card)} ({terrain_name(CONTENT.cards[card].terrain)})"


def card_text(card: int) -> str:
    return words.card_type_text(CONTENT.cards[card].type, i18n.current())


def card_list(cards: tuple[int, ...] | list[int]) -> str:
    return ", ".join(card_name(c) for c in cards) if cards else t("act.no_cards")


def action_label(action: A.Action) -> str:
    """A short sentence for ``action`` (select options, autocomplete, acknowledgements)."""
    kw: dict[str, Any] = {}
    for name in ("src", "dst", "hex", "centre", "target", "own"):
        if hasattr(action, name):
            kw[name] = label(getattr(action, name))
    for name in ("rotation", "value", "count"):
        if hasattr(action, name):
            kw[name] = getattr(action, name)
    if hasattr(action, "card"):
        kw["card"] = card_name(action.card)
    if hasattr(action, "cards"):
        kw["cards"] = card_list(action.cards)
    if isinstance(action, A.NameCityTerrain):
        kw["terrain"] = terrain_name(action.terrain)
    if isinstance(action, A.Attack) and action.leader is not None:
        return t("act.attack_leader", card=card_name(action.leader), **kw)
    if isinstance(action, A.PlayGovernment):
        return t(f"act.play_government.{action.mode}", **kw)
    if hasattr(action, "cards") and not action.cards and i18n.has(f"act.{action.type}.none"):
        # "Attack with no cards", not "Attack with cards: no cards"
        return t(f"act.{action.type}.none", **kw)
    return t(f"act.{action.type}", **kw)


def steps_label(actions: list[A.Action]) -> str:
    """The words for what one control makes: one action, or a step and the end of its
    action ("Move a token E5 → F5. Stop moving")."""
    if len(actions) == 1:
        return action_label(actions[0])
    return t("ack.two_steps", first=action_label(actions[0]), second=action_label(actions[1]))


#: the fields of an action label that name a hex (``action_label``'s ``kw``)
_HEX_FIELDS = ("src", "dst", "hex", "centre", "target", "own")
#: the fields that name a card, a list of cards, a terrain
_NAME_FIELDS = ("card", "cards", "terrain")


def _label_keys() -> list[str]:
    """The catalogue keys :func:`action_label` words actions with."""
    keys = i18n.message_keys()
    return [k for kind in A.ACTION_TYPES for k in keys
            if k == f"act.{kind}" or k.startswith(f"act.{kind}.")] + ["act.attack_leader"]


@cache
def _label_patterns(lang: str) -> tuple[re.Pattern[str], ...]:
    """Each action label of ``lang`` as a pattern: its words as they are, a hex, a card, a
    list of cards or a terrain where one goes (a named group, checked by
    :func:`names_an_action`), a number where a number goes."""
    out = []
    for key in _label_keys():
        parts, named = [], set()
        for literal, name, spec, _ in string.Formatter().parse(i18n.lookup(key, lang)):
            parts.append(re.escape(re.sub(r"\s+", " ", literal)).replace(r"\ ", r"\s+"))
            if name is None:
                continue
            if spec and "|" in spec:  # {count:token|tokens}: one of the plural forms
                parts.append("(?:" + "|".join(map(re.escape, spec.split("|"))) + ")")
            elif name in ("rotation", "value", "count"):
                parts.append(r"\d{1,2}")
            elif name in _HEX_FIELDS + _NAME_FIELDS and name not in named:
                named.add(name)
                parts.append(rf"(?P<{name}>.+?)")
            else:
                parts.append(".+?")
        out.append(re.compile("".join(parts), re.IGNORECASE))
    return tuple(out)


@cache
def _names(lang: str) -> tuple[frozenset[str], frozenset[str], str]:
    """Every card's name, every terrain's name and "no cards", in ``lang``, lower case."""
    with i18n.using(lang):
        cards = frozenset(card_name(c).lower() for c in range(len(CONTENT.cards)))
        terrains = frozenset(terrain_name(k).lower() for k in CONTENT.terrain_names)
        return cards, terrains, t("act.no_cards").lower()


def _fits(lang: str, field: str, text: str) -> bool:
    """Whether ``text`` can stand in an action label's ``field`` (``lang``'s words)."""
    if field in _HEX_FIELDS:
        try:
            parse_label(text)
        except ValueError:
            return False
        return True
    cards, terrains, no_cards = _names(lang)
    value = text.lower()
    if field == "card":
        return value in cards
    if field == "cards":
        return value == no_cards or all(c.strip() in cards for c in value.split(","))
    return value in terrains


def names_an_action(text: str) -> bool:
    """Whether ``text`` is worded like an action of the game (in the current language or
    in English), with hexes of the board and the game's cards and terrains, whether or not
    that action is possible now: a label typed by hand, or one from an earlier turn."""
    wanted = " ".join(text.split())
    for lang in dict.fromkeys((i18n.current(), i18n.SOURCE)):
        for pattern in _label_patterns(lang):
            m = pattern.fullmatch(wanted)
            if m is not None and all(_fits(lang, field, value)
                                     for field, value in m.groupdict().items()):
                return True
    return False


#: the number in a computer seat's stored name ("Computer 2, hard", "Komputer 2, trudny")
_SEAT_NUMBER = re.compile(r"\d+")


def computer_name(stored: str, level: str | None) -> str:
    """A computer seat's name in the current language: the name is stored in the language
    of the server it was added on, and a reply in another language ("🏆 Yellow (Computer
    1, normal) wins" for an English client on a Polish server) must not mix two."""
    number = _SEAT_NUMBER.search(stored)
    if number is None or not level or not i18n.has(f"level.{level}"):
        return stored
    return t("ai.name", n=int(number.group()), level=t(f"level.{level}"))


def seat_names(seats: Any) -> list[str]:
    """Who plays each seat (``SeatRow`` rows), computers named in the current language."""
    return [computer_name(s.name, s.ai_level) if s.user_id is None else s.name
            for s in seats]


def record_names(players: list[dict[str, Any]]) -> list[str]:
    """Who played each seat of a game record (``{"name", "kind"}``; ``kind`` ``ai:LEVEL``
    for a computer), computers named in the current language."""
    out = []
    for p in players:
        kind = str(p.get("kind", ""))
        name = str(p.get("name", ""))
        out.append(computer_name(name, kind[3:]) if kind.startswith("ai:") else name)
    return out
