"""The slash commands registered with Discord at start-up (``TEMPUS_SYNC_COMMANDS``).

As discord.py's ``CommandTree.sync`` does it (the tree's commands, translated, in one bulk
overwrite of the application's global commands), with one difference: an application whose
Activity is enabled has an Entry Point command ("Launch", type 4) that Discord made and
that discord.py does not know. A bulk overwrite without it is refused (400, 50240), which
would stop the bot at its next start once the operator enabled the Activity; so it is read
back and sent along unchanged.
"""

from __future__ import annotations

import logging
from typing import Any

from discord import app_commands

log = logging.getLogger(__name__)

#: the command type of an Entry Point (developers/interactions/application-commands)
ENTRY_POINT = 4
#: what Discord adds to a command it returns, which a request does not carry
READ_ONLY = ("application_id", "version", "guild_id")


async def sync_commands(tree: app_commands.CommandTree[Any], *, activity: bool) -> int:
    """Overwrite the global commands with the tree's (and the Entry Point, with an
    ``activity``); how many were registered."""
    client = tree.client
    app_id = client.application_id
    if app_id is None:
        raise app_commands.MissingApplicationID
    translator = tree.translator
    commands = tree.get_commands()
    if translator is not None:
        payload = [await c.get_translated_payload(tree, translator) for c in commands]
    else:
        payload = [c.to_dict(tree) for c in commands]
    if activity:
        existing = await client.http.get_global_commands(app_id)
        for command in existing:
            if command.get("type") == ENTRY_POINT:
                payload.append({k: v for k, v in command.items() if k not in READ_ONLY})
    data = await client.http.bulk_upsert_global_commands(app_id, payload=payload)
    return len(data)
