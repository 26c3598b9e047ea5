"""Discord's rules for registering application commands, for :mod:`tests.bot.fake_discord`.

Taken from developers/interactions/application-commands ("Application Command Naming",
"Application Command Option Structure", the 8000-character warning) and the OpenAPI
description (``ApplicationCommandUpdateRequest`` and the option schemas in
discord/discord-api-spec). :func:`command_problems` lists everything wrong with a bulk
overwrite body; Discord refuses the whole request with 400 if the list is not empty.

:func:`available_in` says whether a registered command is offered in a guild channel or in
the bot's DMs (``contexts``, or the deprecated ``dm_permission``); guild commands are never
offered in DMs.
"""

from __future__ import annotations

import unicodedata
from typing import Any

#: developers/reference#locales
LOCALES = frozenset((
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
    "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi",
    "th", "zh-CN", "ja", "zh-TW", "ko"))
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, NUMBER = 1, 2, 3, 4, 10
OPTION_TYPES = range(1, 12)
CHAT_INPUT = 1
MAX_COMMANDS = 130  # PUT body maxItems (100 chat input + 15 user + 15 message)
MAX_CHAT_INPUT = 100
MAX_OPTIONS = 25
MAX_CHOICES = 25
MAX_TOTAL = 8000
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
#: Devanagari and Thai blocks (``\p{sc=Deva}``, ``\p{sc=Thai}``), marks included
_SCRIPTS = ((0x0900, 0x097F), (0xA8E0, 0xA8FF), (0x11B00, 0x11B5F), (0x0E00, 0x0E7F))


def name_problem(name: Any, where: str) -> str | None:
    """``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lowercase where a lowercase
    variant exists (CHAT_INPUT command and option names)."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        return f"{where}: name {name!r} must be 1-32 characters"
    for ch in name:
        cp = ord(ch)
        ok = (ch in "-_'" or unicodedata.category(ch)[0] in "LN"
              or any(lo <= cp <= hi for lo, hi in _SCRIPTS))
        if not ok:
            return f"{where}: name {name!r} has {ch!r}, not allowed in command names"
        if ch.lower() != ch:
            return f"{where}: name {name!r} must be lowercase"
    return None


def _text_problem(value: Any, lo: int, hi: int, what: str) -> str | None:
    if not isinstance(value, str) or not lo <= len(value) <= hi:
        return f"{what} {value!r} must be {lo}-{hi} characters"
    return None


def _localised(node: dict[str, Any], key: str, where: str, check: Any) -> list[str]:
    """Problems of ``<key>_localizations``: known locales, same rule as the field itself."""
    loc = node.get(f"{key}_localizations")
    if loc is None:
        return []
    if not isinstance(loc, dict):
        return [f"{where}: {key}_localizations must be a dictionary"]
    out = []
    for locale, text in loc.items():
        if locale not in LOCALES:
            out.append(f"{where}: {key}_localizations has unknown locale {locale!r}")
        problem = check(text, f"{where} [{locale}]")
        if problem:
            out.append(problem)
    return out


def _describe(text: Any, where: str) -> str | None:
    problem = _text_problem(text, 1, 100, "description")
    return f"{where}: {problem}" if problem else None


def _choice_name(text: Any, where: str) -> str | None:
    problem = _text_problem(text, 1, 100, "choice name")
    return f"{where}: {problem}" if problem else None


def _longest(node: dict[str, Any], key: str) -> int:
    texts = [node.get(key) or ""] + list((node.get(f"{key}_localizations") or {}).values())
    return max(len(str(t)) for t in texts)


def _size(node: dict[str, Any]) -> int:
    """Characters counted towards the 8000 limit: names, descriptions, choice values."""
    n = _longest(node, "name") + _longest(node, "description")
    for c in node.get("choices") or []:
        n += _longest(c, "name") + len(str(c.get("value", "")))
    return n + sum(_size(o) for o in node.get("options") or [])


def _options(options: Any, where: str, *, top: bool, in_group: bool) -> list[str]:
    if options is None:
        return []
    if not isinstance(options, list):
        return [f"{where}: options must be a list"]
    out: list[str] = []
    kinds = [o.get("type") for o in options if isinstance(o, dict)]
    subs = [k for k in kinds if k in (SUB_COMMAND, SUB_COMMAND_GROUP)]
    if len(options) > MAX_OPTIONS:
        # a command holds at most 25 subcommands and groups, a group 25 subcommands
        what = "subcommands and groups" if subs else "options"
        out.append(f"{where}: {len(options)} {what} (at most {MAX_OPTIONS})")
    names = [o.get("name") for o in options if isinstance(o, dict)]
    for dup in {n for n in names if names.count(n) > 1}:
        out.append(f"{where}: option name {dup!r} used twice")
    if subs and len(subs) != len(kinds):
        out.append(f"{where}: subcommands and groups cannot be mixed with other options")
    if in_group and any(k != SUB_COMMAND for k in kinds):
        out.append(f"{where}: a subcommand group may hold only subcommands")
    seen_optional = False
    for o in options:
        if not isinstance(o, dict):
            out.append(f"{where}: an option must be an object")
            continue
        here = f"{where} > {o.get('name')!r}"
        kind = o.get("type")
        # JSON's true or 3.0 is not an option type, though Python finds them in the range
        if not isinstance(kind, int) or isinstance(kind, bool) or kind not in OPTION_TYPES:
            out.append(f"{here}: unknown option type {kind!r}")
            continue
        out += [p for p in (name_problem(o.get("name"), here),
                            _describe(o.get("description"), here)) if p]
        out += _localised(o, "name", here, name_problem)
        out += _localised(o, "description", here, _describe)
        if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
            if not top and kind == SUB_COMMAND_GROUP:
                out.append(f"{here}: groups can only be nested one level")
            if not top and not in_group:
                out.append(f"{here}: subcommands can only sit in a command or a group")
            if o.get("required"):
                out.append(f"{here}: a subcommand cannot be required")
            out += _options(o.get("options"), here, top=False,
                            in_group=kind == SUB_COMMAND_GROUP)
            continue
        if o.get("options"):
            out.append(f"{here}: only subcommands and groups have options")
        if o.get("required"):
            if seen_optional:
                out.append(f"{here}: required options must come before optional ones")
        else:
            seen_optional = True
        out += _option_values(o, kind, here)
    return out


def _option_values(o: dict[str, Any], kind: int, here: str) -> list[str]:
    out: list[str] = []
    choices = o.get("choices")
    if choices is not None:
        if kind not in (STRING, INTEGER, NUMBER):
            out.append(f"{here}: only string, integer and number options have choices")
        if len(choices) > MAX_CHOICES:
            out.append(f"{here}: {len(choices)} choices (at most {MAX_CHOICES})")
        if o.get("autocomplete"):
            out.append(f"{here}: autocomplete cannot be set together with choices")
        for c in choices:
            p = _choice_name(c.get("name"), here)
            if p:
                out.append(p)
            out += _localised(c, "name", here, _choice_name)
            v = c.get("value")
            if kind == STRING and (not isinstance(v, str) or len(v) > 100):
                out.append(f"{here}: choice value {v!r} must be a string of at most 100")
            if kind == INTEGER and (not isinstance(v, int) or isinstance(v, bool)):
                out.append(f"{here}: choice value {v!r} must be an integer")
    if o.get("autocomplete") and kind not in (STRING, INTEGER, NUMBER):
        out.append(f"{here}: only string, integer and number options autocomplete")
    if ("min_length" in o or "max_length" in o) and kind != STRING:
        out.append(f"{here}: min_length/max_length only for string options")
    if kind == STRING:
        lo, hi = o.get("min_length"), o.get("max_length")
        if lo is not None and not 0 <= lo <= 6000 or hi is not None and not 1 <= hi <= 6000:
            out.append(f"{here}: min_length 0-6000, max_length 1-6000")
    if ("min_value" in o or "max_value" in o) and kind not in (INTEGER, NUMBER):
        out.append(f"{here}: min_value/max_value only for integer and number options")
    lo, hi = o.get("min_value"), o.get("max_value")
    if lo is not None and hi is not None and lo > hi:
        out.append(f"{here}: min_value {lo} above max_value {hi}")
    return out


def command_problems(body: Any, *, guild: bool = False) -> list[str]:
    """Everything Discord would refuse in a bulk overwrite (``PUT .../commands``) body."""
    if not isinstance(body, list):
        return ["the body must be a list of commands"]
    out: list[str] = []
    if len(body) > MAX_COMMANDS:
        out.append(f"{len(body)} commands (at most {MAX_COMMANDS})")
    chat = [c for c in body if isinstance(c, dict) and c.get("type", CHAT_INPUT) == CHAT_INPUT]
    if len(chat) > MAX_CHAT_INPUT:
        out.append(f"{len(chat)} slash commands (at most {MAX_CHAT_INPUT})")
    keys = [(c.get("type", CHAT_INPUT), c.get("name")) for c in body if isinstance(c, dict)]
    for dup in {k for k in keys if keys.count(k) > 1}:
        out.append(f"command {dup[1]!r} registered twice")
    for c in body:
        if not isinstance(c, dict):
            out.append("a command must be an object")
            continue
        out += _command(c, guild)
    return out


def _command(c: dict[str, Any], guild: bool) -> list[str]:
    where = f"/{c.get('name')}"
    kind = c.get("type", CHAT_INPUT)
    if kind not in (1, 2, 3, 4):
        return [f"{where}: unknown command type {kind!r}"]
    out: list[str] = []
    if kind == CHAT_INPUT:
        out += [p for p in (name_problem(c.get("name"), where),
                            _describe(c.get("description"), where)) if p]
        out += _localised(c, "name", where, name_problem)
        out += _localised(c, "description", where, _describe)
        out += _options(c.get("options"), where, top=True, in_group=False)
        if _size(c) > MAX_TOTAL:
            out.append(f"{where}: {_size(c)} characters of names, descriptions and values "
                       f"(at most {MAX_TOTAL})")
    else:
        p = _text_problem(c.get("name"), 1, 32, "name")
        if p:
            out.append(f"{where}: {p}")
        if c.get("options"):
            out.append(f"{where}: only slash commands have options")
        if c.get("description"):
            out.append(f"{where}: user and message commands have an empty description")
    contexts = c.get("contexts")
    if contexts is not None and (not isinstance(contexts, list) or not contexts
                                 or len(set(contexts)) != len(contexts)
                                 or any(x not in (GUILD, BOT_DM, PRIVATE_CHANNEL)
                                        for x in contexts)):
        out.append(f"{where}: contexts {contexts!r} must be distinct values of 0, 1, 2")
    types = c.get("integration_types")
    if types is not None and (not isinstance(types, list) or not types
                              or any(x not in (0, 1) for x in types)):
        out.append(f"{where}: integration_types {types!r} must be values of 0, 1")
    perms = c.get("default_member_permissions")
    if perms is not None and not str(perms).isdigit():
        out.append(f"{where}: default_member_permissions must be a number string")
    return out


def available_in(command: dict[str, Any], *, dm: bool, guild_command: bool) -> bool:
    """Whether Discord offers ``command`` in a DM with the bot (``dm``) or a guild channel.

    ``contexts`` and ``dm_permission`` only apply to global commands; guild commands are only
    ever offered in their guild."""
    if guild_command:
        return not dm
    contexts = command.get("contexts")
    if contexts is not None:
        return (BOT_DM if dm else GUILD) in contexts
    if dm:
        return command.get("dm_permission") is not False
    return True
