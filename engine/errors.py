"""Typed errors for illegal actions; their messages are meant for players.

Each refusal carries a stable ``code`` and its ``params`` (:mod:`engine.refusals`), so a
front end can say it in the player's language; ``str(exc)`` is the English message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self


class Refusal(Exception):
    """Why a request was refused: ``code`` (a key of :data:`engine.refusals.REFUSALS`, or
    ``""`` for a message without one) and ``params``; the message is the English text."""

    code: str = ""
    params: Mapping[str, Any] = {}

    @classmethod
    def because(cls, code: str, /, **params: Any) -> Self:
        """The refusal ``code`` with ``params``, its message the English template filled in."""
        from .refusals import english

        exc = cls(english(code, params))
        exc.code = code
        exc.params = dict(params)
        return exc


class IllegalAction(Refusal, ValueError):
    """The action breaks a rule. The message says what is wrong and what would be right."""


class NotYourDecision(IllegalAction):
    """The seat does not owe a decision now, or not this kind of decision."""
