"""Panels as discord.py components: the views and the plain JSON rows that go with a
post or an edit.

Each control's custom id (:mod:`games.custom_ids`) says all a click needs, so nothing is
registered with discord.py for a message: the views are :class:`Controls`, which
discord.py treats as views without anything of theirs to dispatch (it would otherwise
rebuild each clicked message as a view of items, some 60 objects for a menu, to find the
one clicked). Where the clicks go is the front end's (:mod:`bot.client.components`).
"""

from __future__ import annotations

from typing import Any

import discord

from games.controls import MAX_BUTTONS_PER_ROW, MAX_ROWS, Button, Panel, Select
from games.custom_ids import ComponentId

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
#: the styles' values in Discord's JSON
_STYLE_VALUES = {name: style.value for name, style in _STYLES.items()}


class Controls(discord.ui.View):
    """A message's controls as a discord.py view that registers nothing: discord.py's
    ``send`` and ``edit`` methods render its components and keep a view only if it is
    dispatchable; the clicks are dispatched by their ids (see the module's docstring)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        return False


def make_view(panel: Panel | None, game_id: int, version: int) -> discord.ui.View | None:
    """The components of ``panel`` for discord.py's ``send`` and ``edit`` methods; None
    when it has none."""
    if panel is None or not panel.rows:
        return None
    view = Controls()
    n_select = 0
    for row_index, row in enumerate(panel.rows):
        if isinstance(row, Select):
            item_s = _select(row, game_id, version, n_select)
            item_s.row = row_index
            view.add_item(item_s)
            n_select += 1
            continue
        for b in row:
            item = _button(b, game_id, version)
            item.row = row_index
            view.add_item(item)
    return view


def component_rows(panel: Panel | None, game_id: int, version: int
                   ) -> list[dict[str, Any]] | None:
    """The components of ``panel`` as Discord's JSON, the very payload
    ``make_view(panel, game_id, version).to_components()`` gives, built without
    discord.py's view objects (a busy bot writes a turn message's board several times a
    second, and nothing of such a view is kept: clicks go by their ids); None when it has
    none."""
    if panel is None or not panel.rows:
        return None
    if len(panel.rows) > MAX_ROWS:
        raise ValueError(f"{len(panel.rows)} rows of components (at most {MAX_ROWS})")
    rows: list[dict[str, Any]] = []
    n_select = 0
    for row in panel.rows:
        if isinstance(row, Select):
            rows.append({"type": 1, "components": [
                _select_json(row, game_id, version, n_select)]})
            n_select += 1
        elif row:
            if len(row) > MAX_BUTTONS_PER_ROW:
                raise ValueError(f"{len(row)} buttons in a row (at most {MAX_BUTTONS_PER_ROW})")
            rows.append({"type": 1, "components": [_button_json(b, game_id, version)
                                                    for b in row]})
    return rows


def _button_json(b: Button, game_id: int, version: int) -> dict[str, Any]:
    out: dict[str, Any] = {"type": 2, "style": _STYLE_VALUES.get(b.style, 2),
                           "disabled": False}
    label = b.label[:80]
    if label:
        out["label"] = label
    out["custom_id"] = ComponentId(game_id, version, b.op, b.arg).render()
    return out


def _select_json(s: Select, game_id: int, version: int, index: int) -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": 3, "custom_id": ComponentId(game_id, version, s.op, s.arg, index).render(),
        "min_values": s.min_values, "max_values": s.max_values, "disabled": False,
        "required": True}
    placeholder = s.placeholder[:150]
    if placeholder:
        out["placeholder"] = placeholder
    options = []
    for o in s.options:
        option: dict[str, Any] = {"label": o.label[:100], "value": o.value[:100],
                                  "default": False}
        if o.description[:100]:
            option["description"] = o.description[:100]
        options.append(option)
    out["options"] = options
    return out


def _button(b: Button, game_id: int, version: int) -> discord.ui.Button[Any]:
    cid = ComponentId(game_id, version, b.op, b.arg).render()
    return discord.ui.Button(label=b.label[:80], custom_id=cid,
                             style=_STYLES.get(b.style, discord.ButtonStyle.secondary))


def _select(s: Select, game_id: int, version: int, index: int) -> discord.ui.Select[Any]:
    cid = ComponentId(game_id, version, s.op, s.arg, index).render()
    options = [discord.SelectOption(label=o.label[:100], value=o.value[:100],
                                    description=o.description[:100] or None)
               for o in s.options]
    return discord.ui.Select(custom_id=cid, placeholder=s.placeholder[:150], options=options,
                             min_values=s.min_values, max_values=s.max_values)
