"""Panels as discord.py components, and the persistent items that receive clicks.

Every button and select carries a custom id ``tempus:GAME:VERSION:OP[:ARG]`` (see
:mod:`bot.tempus.codec`). The two :class:`discord.ui.DynamicItem` classes below match those ids
by regex, so a click works on any message the bot ever sent, also after a restart: they
are registered once with ``bot.add_dynamic_items`` and hold no state of their own.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.table.ui import MAX_BUTTONS_PER_ROW, MAX_ROWS, Button, Panel, Select
from bot.tempus.codec import BUTTON_RE, SELECT_RE, ComponentId, parse_component_id

Handler = Callable[[discord.Interaction[Any], ComponentId, list[str] | None], Awaitable[None]]

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}

#: the styles' values in Discord's JSON
_STYLE_VALUES = {name: style.value for name, style in _STYLES.items()}

#: set by the application at start-up: where clicks go
_handler: Handler | None = None


def set_handler(handler: Handler | None) -> None:
    global _handler
    _handler = handler


async def _dispatch(interaction: discord.Interaction[Any], custom_id: str,
                    values: list[str] | None) -> None:
    cid = parse_component_id(custom_id)
    if cid is None or _handler is None:
        return
    await _handler(interaction, cid, values)


def dispatched(interaction: discord.Interaction[Any]) -> bool:
    """Whether a component interaction reaches :func:`_dispatch`: discord.py hands it to
    our dynamic items only if its id parses and the message carries a control of that id
    and type. Anything else (a forged id, a control that never existed) is answered by the
    application with a refusal instead of being dropped."""
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    if parse_component_id(custom_id) is None or interaction.message is None:
        return False
    kind = data.get("component_type")
    for row in interaction.message.components:
        for c in getattr(row, "children", [row]):
            if getattr(c, "custom_id", None) == custom_id and c.type.value == kind:
                return True
    return False


class TempusButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=BUTTON_RE.pattern):
    def __init__(self, item: discord.ui.Button[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> TempusButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.custom_id, None)


class TempusSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=SELECT_RE.pattern):
    def __init__(self, item: discord.ui.Select[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> TempusSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.custom_id, list(self.item.values))


def make_view(panel: Panel | None, game_id: int, version: int) -> discord.ui.View | None:
    """The components of ``panel``; None when it has none."""
    if panel is None or not panel.rows:
        return None
    view = discord.ui.View(timeout=None)
    n_select = 0
    for row_index, row in enumerate(panel.rows):
        if isinstance(row, Select):
            item_s = TempusSelect(_select(row, game_id, version, n_select))
            item_s.row = row_index
            view.add_item(item_s)
            n_select += 1
            continue
        for b in row:
            item = TempusButton(_button(b, game_id, version))
            item.row = row_index
            view.add_item(item)
    return view


def component_rows(panel: Panel | None, game_id: int, version: int
                   ) -> list[dict[str, Any]] | None:
    """The components of ``panel`` as Discord's JSON, the very payload
    ``make_view(panel, game_id, version).to_components()`` gives, built without
    discord.py's view objects (a turn message's board is written several times a second
    per busy bot, and nothing of such a view is kept: clicks reach the dynamic items by
    their ids); None when it has none."""
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
