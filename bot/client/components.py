"""Where clicks on our components go.

Every button and select carries a custom id ``tempus:GAME:VERSION:OP[:ARG]`` (see
:mod:`games.custom_ids`), which says all a click needs: the application's
``on_interaction`` hands every component interaction whose id parses, and whose message
carries a control of that id and type, to :func:`dispatch` (so a click works on any
message the bot ever sent, also after a restart). Nothing is registered with discord.py
for a message (the components are made by :mod:`bot.publish.components`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from games.custom_ids import ComponentId, parse_component_id

Handler = Callable[[discord.Interaction[Any], ComponentId, list[str] | None], Awaitable[None]]

def dispatched(interaction: discord.Interaction[Any]) -> ComponentId | None:
    """The click's parsed id if the interaction is one of ours (its id parses and the
    message carries a control of that id and type); None for anything else (a forged id,
    a control that never existed), which the application answers with a refusal."""
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    cid = parse_component_id(custom_id)
    if cid is None or interaction.message is None:
        return None
    kind = data.get("component_type")
    for row in interaction.message.components:
        for c in getattr(row, "children", [row]):
            if getattr(c, "custom_id", None) == custom_id and c.type.value == kind:
                return cid
    return None


async def dispatch(interaction: discord.Interaction[Any], cid: ComponentId,
                   handler: Handler) -> None:
    """Hand a click that :func:`dispatched` accepted (``cid``, its parsed id) to
    ``handler``, with the values chosen for a select."""
    data: Any = interaction.data or {}
    values = ([str(v) for v in data.get("values", [])]
              if data.get("component_type") == discord.ComponentType.select.value else None)
    await handler(interaction, cid, values)
