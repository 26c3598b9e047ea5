"""Slash-command option values checked against what each command declares.

Discord's clients only send values of an option's declared type, within its declared
choices and range, but discord.py passes on whatever arrives (``seats: 99``, ``map:
"moon"``, text where a number is expected). Every command is checked here before it runs,
so a forged request gets a clear refusal instead of an internal error or a silently
changed value (defence in depth; the table service validates the game itself).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import AppCommandOptionType
from discord.app_commands import Command, Namespace, Parameter

from games.controls import shown
from lang import i18n
from lang.messages import t

#: the longest text any of our options needs (suggestion values are at most 100 characters)
MAX_TEXT = 100

_NUMERIC = (AppCommandOptionType.integer, AppCommandOptionType.number)
#: Discord's integers are within +-2**53
MAX_INT = 2**53


def refusal(command: Command[Any, ..., Any], namespace: Namespace) -> str | None:
    """Why the options of an invocation of ``command`` are not acceptable (None: they are)."""
    for param in command.parameters:
        value = getattr(namespace, param.display_name, None)
        if value is None:
            if param.required:
                return t("error.bad_command")
            continue
        allowed = _problem(param, value)
        if allowed is not None:
            return t("error.bad_option", option=param.display_name,
                     value=quoted(value), allowed=allowed)
    return None


def quoted(value: Any) -> str:
    """An option's value as the person sent it, never Python's text for an object: a user,
    role or channel option without its "resolved" entry reaches the command as a
    ``discord.Object`` (its id is what was sent), anything else not plain as "?"."""
    if isinstance(value, str | int | float | bool):
        text = str(value)
    elif isinstance(getattr(value, "id", None), int):
        text = str(value.id)
    else:
        text = "?"
    return shown(text) or '""'


def _problem(param: Parameter, value: Any) -> str | None:
    kind = param.type
    if kind == AppCommandOptionType.string:
        # for text, min_value and max_value are lengths (app_commands.Range[str, ...])
        limit = int(param.max_value or MAX_TEXT)
        if not isinstance(value, str):
            return t("error.bad_option.text_type")
        if not int(param.min_value or 0) <= len(value) <= limit:
            return t("error.bad_option.text", max=limit)
    elif kind == AppCommandOptionType.integer:
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_INT:
            return _range(param) or t("error.bad_option.int")
    elif kind == AppCommandOptionType.number:
        if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
            return _range(param) or t("error.bad_option.number")
    elif kind == AppCommandOptionType.boolean:
        if not isinstance(value, bool):
            return t("error.bad_option.bool")
    elif kind == AppCommandOptionType.user:
        # Discord sends a user id with its "resolved" user; discord.py hands on the bare
        # value when that is missing
        return None if isinstance(value, discord.abc.User) else t("error.bad_option.user")
    else:  # roles, channels, attachments ...: resolved objects, never plain values
        return t("error.bad_option.object") if isinstance(value, str | int | float) else None
    if param.choices and value not in {c.value for c in param.choices}:
        return t("error.bad_option.choices", choices=", ".join(_choice(c) for c in param.choices))
    if kind in _NUMERIC:
        lo, hi = param.min_value, param.max_value
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            return _range(param)
    return None


def _range(param: Parameter) -> str | None:
    lo, hi = param.min_value, param.max_value
    if param.choices:
        return t("error.bad_option.choices", choices=", ".join(_choice(c) for c in param.choices))
    if lo is not None and hi is not None:
        return t("error.bad_option.range", min=lo, max=hi)
    if lo is not None:
        return t("error.bad_option.min", min=lo)
    if hi is not None:
        return t("error.bad_option.max", max=hi)
    return None


def _choice(c: Any) -> str:
    """A choice as the user's client shows it: its catalogue name in the current language
    (choices of bot.client.translator.ls), else its name."""
    key = getattr(getattr(c, "_locale_name", None), "extras", {}).get("key")
    return t(key) if key and i18n.has(key) else str(c.name)
