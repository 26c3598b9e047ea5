"""Compact JSON text of what the bot stores: state snapshots, actions, options.

The snapshot is written with every accepted action, and the standard library's encoder
took about 6 % of the bot's event-loop time under load (the load bench at 1,000
games). orjson, already pinned for discord.py (its "speed" extra), writes the same text as
``json.dumps(obj, separators=(",", ":"))`` about nine times faster: the same separators
and key order, integer keys as strings (``OPT_NON_STR_KEYS``), the same integers. What
differs reads back the same: text outside ASCII is written as UTF-8 rather than ``\\u``
escapes, a large float as ``1e20`` rather than ``1e+20``; a value orjson refuses (an
integer beyond 64 bits) is written by the standard library instead. (A float that is not
a number would become ``null``; nothing the bot stores holds one.)
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def compact(obj: Any) -> str:
    """``obj`` as compact JSON text."""
    try:
        return orjson.dumps(obj, option=_OPTIONS).decode()
    except TypeError:  # orjson.JSONEncodeError: e.g. an integer past 64 bits
        return json.dumps(obj, separators=(",", ":"))
