"""Engine refusals in words of the current language.

The engine refuses an action with a stable code and plain parameters
(:mod:`engine.refusals`); its English message is for its own command line and logs. The
bot says it through the catalogue (``engine.<code>``), naming hexes, colours, cards,
decision kinds and action types the way the rest of the catalogue does. A refusal without
a code, or with a code the catalogue lacks, falls back to the engine's English: it is never
lost, only untranslated until its message is added (a test keeps that from happening).

:class:`Reason` renders lazily: a :class:`~bot.table.model.TableError` is shown in the
language of whoever reads it, which may not be the language current where it was raised.
"""

from __future__ import annotations

import logging
from typing import Any

from engine.content import CONTENT
from engine.errors import Refusal
from engine.hexgrid import NUM_HEXES, label
from engine.refusals import (
    ACTION,
    CARD,
    CARD_TYPE,
    HEX,
    HEXES,
    KIND,
    NUMBERS,
    SEAT,
    SEATS,
    param_kind,
)
from games.tempus.labels import card_name, colour_name
from lang import i18n
from lang.messages import join_names, t

log = logging.getLogger(__name__)


def _hex(value: Any) -> str:
    return label(value) if isinstance(value, int) and 0 <= value < NUM_HEXES else str(value)


def _value(name: str, value: Any) -> Any:
    """One parameter in the current language; numbers stay numbers (plural forms)."""
    kind = param_kind(name)
    if kind == HEX:
        return _hex(value)
    if kind == HEXES:
        return ", ".join(_hex(h) for h in value)
    if kind == SEAT:
        return colour_name(value)
    if kind == SEATS:
        return join_names([colour_name(s) for s in value])
    if kind == CARD:
        ok = isinstance(value, int) and 0 <= value < len(CONTENT.cards)
        return card_name(value) if ok else str(value)
    if kind == CARD_TYPE:
        return t(f"card.{value}.name") if value in CONTENT.card_types else str(value)
    if kind == KIND:
        return t(f"engine.kind.{value}")
    if kind == ACTION:
        return t(f"engine.action.{value}") if i18n.has(f"engine.action.{value}") else str(value)
    if kind == NUMBERS:
        return ", ".join(map(str, value)) or t("engine.none")
    return value


def refusal_text(exc: BaseException) -> str:
    """Why the engine refused, in the current language, without a closing full stop."""
    code = getattr(exc, "code", "") if isinstance(exc, Refusal) else ""
    params = exc.params if isinstance(exc, Refusal) else {}
    key = f"engine.{code}"
    if code and i18n.has(key):
        try:
            return t(key, **{k: _value(k, v) for k, v in params.items()})
        except (KeyError, IndexError, TypeError, ValueError):
            log.exception("refusal %s with params %r does not fit its message", code,
                          getattr(exc, "params", None))
    elif code:
        log.warning("refusal code %s has no catalogue message", code)
    return str(exc).rstrip(".")


class Reason:
    """A refusal rendered when formatted, in the language current at that moment."""

    __slots__ = ("exc",)

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc

    def __str__(self) -> str:
        return refusal_text(self.exc)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"Reason({self.exc!r})"

