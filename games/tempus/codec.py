"""Tempus actions as compact text, for a control's argument or a select's value
(Discord limits both to 100 characters; the ids around them are games.custom_ids').

An action becomes ``type:field:field``: hexes as labels, card lists as ``3.17.40``,
``None`` as ``-``.
"""

from __future__ import annotations

from dataclasses import fields

from engine.actions import ACTION_TYPES, Action
from engine.hexgrid import label, parse_label


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
