"""Compact text forms of actions and component ids (Discord limits values to 100 chars).

An action becomes ``type:field:field``: hexes as labels, card lists as ``3.17.40``,
``None`` as ``-``. A component id is ``tempus:GAME:VERSION:OP[:ARG]`` for buttons and
``tempus-s:GAME:VERSION:INDEX:OP[:ARG]`` for selects (the index keeps ids unique).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields

from engine.actions import ACTION_TYPES, Action
from engine.hexgrid import label, parse_label

MAX_ID = 100

# Numbers are ASCII digits, at most 18 of them (within SQLite's 64-bit integers), so that
# every id these patterns match also parses: a forged id is either refused by its pattern
# or handled like any other (and then refused by the table service).
_NUM = r"[0-9]{1,18}"
BUTTON_RE = re.compile(
    rf"tempus:(?P<game>{_NUM}):(?P<ver>{_NUM}):(?P<op>[a-z_]+)(?::(?P<arg>.*))?")
SELECT_RE = re.compile(
    rf"tempus-s:(?P<game>{_NUM}):(?P<ver>{_NUM}):(?P<idx>{_NUM}):(?P<op>[a-z_]+)"
    r"(?::(?P<arg>.*))?")


def encode_action(action: Action) -> str:
    parts = [action.type]
    for f in fields(action):
        v = getattr(action, f.name)
        if v is None:
            parts.append("-")
        elif isinstance(v, tuple):
            parts.append(".".join(str(x) for x in v))
        elif f.name in action.hex_fields:
            parts.append(label(v))
        else:
            parts.append(str(v))
    return ":".join(parts)


#: joins the actions of one control that makes several steps ("move, and end the move")
STEPS_SEP = "+"


def encode_actions(actions: list[Action]) -> str:
    """Several actions made by one click, in order (:func:`decode_actions`)."""
    return STEPS_SEP.join(encode_action(a) for a in actions)


def decode_actions(text: str) -> list[Action]:
    """Inverse of :func:`encode_actions` (one action or several); ValueError on anything
    malformed, or on more than two steps (no control makes more)."""
    parts = text.split(STEPS_SEP)
    if len(parts) > 2:
        raise ValueError("too many steps")
    return [decode_action(p) for p in parts]


def decode_action(text: str) -> Action:
    """Inverse of :func:`encode_action`; raises ValueError on anything malformed."""
    head, *rest = text.split(":")
    cls = ACTION_TYPES.get(head)
    if cls is None:
        raise ValueError(f"unknown action {head!r}")
    fs = fields(cls)
    if len(rest) != len(fs):
        raise ValueError(f"{head} takes {len(fs)} values")
    kwargs: dict[str, object] = {}
    for f, raw in zip(fs, rest):
        if raw == "-":
            kwargs[f.name] = None
        elif f.name in cls.hex_fields:
            kwargs[f.name] = parse_label(raw)
        elif f.name in ("terrain", "mode"):
            kwargs[f.name] = raw
        elif f.name == "cards":
            kwargs[f.name] = tuple(int(x) for x in raw.split(".")) if raw else ()
        else:
            kwargs[f.name] = int(raw)
    return cls(**kwargs)


@dataclass(frozen=True, slots=True)
class ComponentId:
    game: int
    version: int
    op: str
    arg: str = ""
    index: int | None = None  # selects only

    def render(self) -> str:
        tail = f":{self.arg}" if self.arg else ""
        if self.index is None:
            out = f"tempus:{self.game}:{self.version}:{self.op}{tail}"
        else:
            out = f"tempus-s:{self.game}:{self.version}:{self.index}:{self.op}{tail}"
        if len(out) > MAX_ID:
            raise ValueError(f"component id too long ({len(out)} > {MAX_ID}): {out}")
        return out


def parse_component_id(custom_id: str) -> ComponentId | None:
    m = BUTTON_RE.fullmatch(custom_id)
    if m:
        return ComponentId(int(m["game"]), int(m["ver"]), m["op"], m["arg"] or "")
    m = SELECT_RE.fullmatch(custom_id)
    if m:
        return ComponentId(int(m["game"]), int(m["ver"]), m["op"], m["arg"] or "", int(m["idx"]))
    return None


def shown(text: str, n: int = 40) -> str:
    """Someone's input, safe to quote back in a refusal: printable, one line, short."""
    clean = "".join(c if c.isprintable() else " " for c in str(text)).replace("`", "'")
    clean = " ".join(clean.split())
    return clean if len(clean) <= n else clean[: n - 1] + "…"
