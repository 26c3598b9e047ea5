"""A turn message's posts and edits without a discord.py ``Message`` made of the answer.

discord.py's ``send``/``edit`` methods build a ``discord.ui.View`` into components, send
the request, then parse Discord's answer into a ``Message`` (author, every component and
select option, attachments, flags) and register the view with the client. A turn
message's board is written about once per action, and of the answer the publisher only
needs a new message's id: the parsing and the view objects were a fifth of the bot's CPU
per action. These functions send the same requests through the same discord.py routes
(the webhook adapter for a click's token, ``client.http`` for the channel: the same
rate-limit buckets, retries, and errors raised), with the components as plain JSON
(:func:`bot.client.components.component_rows`) and the answer left as JSON.

Nothing is lost by not registering a view: the components are the same, and a click on
them reaches the application by its custom id (``bot.client.components``), as every
click does.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any, cast

import discord
from discord.http import handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import async_context


class Components:
    """Plain component rows where discord.py's message parameters take a view: they ask
    it only for its components and whether they are of the second kind (they are not)."""

    __discord_ui_view__ = True

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.rows = rows

    def to_components(self) -> list[dict[str, Any]]:
        return self.rows

    def has_components_v2(self) -> bool:
        return False


#: component rows, None for none, or MISSING to leave them as they are (an edit)
Rows = list[dict[str, Any]] | None


def _view(rows: Rows) -> Any:
    """What discord.py's ``view=`` is given for ``rows``."""
    return rows if rows is None or rows is MISSING else Components(rows)


async def edit_with_token(webhook: discord.Webhook, message_id: int | None, *,
                          content: str = MISSING,
                          attachments: Sequence[discord.File] = MISSING,
                          components: Rows = MISSING) -> None:
    """Edit a message with an interaction's token: its original response (``message_id``
    None, as ``Interaction.edit_original_response``) or one of its follow-ups (as
    ``Webhook.edit_message``). ``webhook`` is the interaction's ``followup``; None
    components take the message's controls off; what is not given stays as it is."""
    previous = getattr(webhook._state, "allowed_mentions", None)
    with handle_message_parameters(content=content, attachments=attachments,
                                   view=_view(components), allowed_mentions=None,
                                   previous_allowed_mentions=previous) as params:
        adapter = async_context.get()
        assert webhook.token is not None
        if message_id is None:
            await adapter.edit_original_interaction_response(
                webhook.id, webhook.token, session=webhook.session, proxy=webhook.proxy,
                proxy_auth=webhook.proxy_auth, payload=params.payload,
                multipart=params.multipart, files=params.files)
        else:
            await adapter.edit_webhook_message(
                webhook.id, webhook.token, message_id, session=webhook.session,
                proxy=webhook.proxy, proxy_auth=webhook.proxy_auth, payload=params.payload,
                multipart=params.multipart, files=params.files, thread_id=None,
                with_components=bool(components))


async def post_with_token(webhook: discord.Webhook, content: str, *,
                          files: Sequence[discord.File],
                          allowed_mentions: discord.AllowedMentions,
                          components: list[dict[str, Any]] | None) -> int:
    """A follow-up message with an interaction's token (as ``followup.send(wait=True)``);
    its id."""
    previous = getattr(webhook._state, "allowed_mentions", None)
    with handle_message_parameters(content=content, files=files,
                                   view=_view(components) if components is not None
                                   else MISSING,
                                   allowed_mentions=allowed_mentions,
                                   previous_allowed_mentions=previous) as params:
        adapter = async_context.get()
        assert webhook.token is not None
        data = await adapter.execute_webhook(
            webhook.id, webhook.token, session=webhook.session, proxy=webhook.proxy,
            proxy_auth=webhook.proxy_auth, payload=params.payload,
            multipart=params.multipart, files=params.files, thread_id=None, wait=True,
            with_components=components is not None)
    return int(cast(dict[str, Any], data)["id"])


async def edit_in_channel(client: discord.Client, channel_id: int, message_id: int, *,
                          content: str, attachments: Sequence[discord.File],
                          components: Rows) -> None:
    """Edit one of the bot's messages through the channel's route (as
    ``PartialMessage.edit``)."""
    with handle_message_parameters(content=content, attachments=attachments,
                                   view=_view(components), allowed_mentions=None,
                                   previous_allowed_mentions=client.allowed_mentions
                                   ) as params:
        await client.http.edit_message(channel_id, message_id, params=params)


async def post_in_channel(client: discord.Client, channel_id: int, content: str, *,
                          files: Sequence[discord.File],
                          allowed_mentions: discord.AllowedMentions,
                          components: list[dict[str, Any]] | None) -> int:
    """A new message through the channel's route (as ``Messageable.send``, which sends
    an empty list of components for none); its id."""
    with handle_message_parameters(content=content, tts=False, files=files,
                                   nonce=secrets.randbits(64),
                                   allowed_mentions=allowed_mentions,
                                   previous_allowed_mentions=client.allowed_mentions,
                                   mention_author=None,
                                   view=_view(components)) as params:
        data = await client.http.send_message(channel_id, params=params)
    return int(data["id"])
