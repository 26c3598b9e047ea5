"""Announcing outcomes on Discord: the channel post, hands by DM, the final scores.

Runs in the table service's per-game queue, after the action is committed. Everything
posted is built from the outcome's views and texts; DMs carry only the receiving seat's
own view. A DM that cannot be delivered never stops the game: the player is told in the
channel (without any detail) to use ``/tempus hand``.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import time
from collections.abc import Callable
from typing import Any

import discord

from . import images
from .components import make_view
from .describe import final_lines, hand_text
from .messages import t
from .offload import Offloader
from .storage import Storage
from .table import Outcome
from .ui import Panel

log = logging.getLogger(__name__)

MAX_CONTENT = 2000


def fit(lines: list[str], tail: str = "", limit: int = MAX_CONTENT) -> str:
    """Join lines, dropping the oldest ones if the message would be too long."""
    body = list(lines)
    while True:
        text = "\n".join([*body, tail] if tail else body)
        if len(text) <= limit or not body:
            return text[:limit]
        drop = max(1, len(body) // 4)
        body = [t("post.more", n=drop), *body[drop + (1 if body[0].startswith("(…") else 0):]]


class DiscordPublisher:
    def __init__(self, client: discord.Client, storage: Storage, offloader: Offloader) -> None:
        self.client = client
        self.storage = storage
        self.offloader = offloader
        self._panel_messages: dict[int, int] = {}
        self._dm_failed: set[int] = set()
        self._dm_channels: dict[int, discord.abc.Messageable] = {}
        self._background: set[asyncio.Task[None]] = set()
        #: called with (outcome, seconds from commit to the board posted); for benchmarks
        self.on_posted: Callable[[Outcome, float], None] | None = None

    async def channel(self, channel_id: int) -> discord.abc.Messageable:
        ch = self.client.get_channel(channel_id)
        if ch is None:
            ch = await self.client.fetch_channel(channel_id)
        assert isinstance(ch, discord.abc.Messageable)
        return ch

    async def publish(self, o: Outcome) -> None:
        channel = await self.channel(o.channel_id)
        if o.kind == "lobby":
            await self._lobby(channel, o)
            return
        if o.kind == "cancel":
            await self._retire_panel(channel, o.game_id)
            await channel.send("\n".join(o.lines))
            return
        try:
            await self._board_post(channel, o)
        finally:  # hands and secret menus go out even if the board could not be posted
            await self._dms(channel, o)
        if o.finished:
            await self._final(channel, o)

    # ------------------------------------------------------------------ channel
    async def _lobby(self, channel: discord.abc.Messageable, o: Outcome) -> None:
        assert o.panel is not None
        view = make_view(o.panel, o.game_id, o.version)
        old = await self._panel_message_id(o.game_id)
        if old is not None:
            try:
                msg = channel.get_partial_message(old)  # type: ignore[attr-defined]
                await msg.edit(content=o.panel.text, view=view)
                return
            except discord.HTTPException:
                log.info("game %s: lobby message %s gone, posting anew", o.game_id, old)
        msg = await channel.send(o.panel.text, view=view,
                                 allowed_mentions=discord.AllowedMentions.none())
        await self._remember_panel(o.game_id, msg.id)

    async def _board_post(self, channel: discord.abc.Messageable, o: Outcome) -> None:
        assert o.public_view is not None
        png = await self.offloader.run(images.board_png, o.public_view, o.highlight,
                                       o.last_move)
        prompt = o.panel.text if o.panel else ""
        content = fit(o.lines, prompt)
        files = [discord.File(io.BytesIO(png), filename="board.png")] if png else []
        mentions = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(u) for u in o.mention])
        msg = await channel.send(content, files=files, view=make_view(o.panel, o.game_id,
                                                                       o.version),
                                 allowed_mentions=mentions)
        # only now take the controls off the previous board: if the post failed, they
        # stay usable (or are refused as stale with a clear message)
        await self._retire_panel(channel, o.game_id)
        if self.on_posted is not None:
            self.on_posted(o, time.perf_counter() - o.committed_at)
        await self._remember_panel(o.game_id, msg.id, o.version)

    async def _retire_panel(self, channel: discord.abc.Messageable, game_id: int) -> None:
        """Take the controls off the previous board: they are stale now."""
        old = await self._panel_message_id(game_id)
        if old is None:
            return
        self._panel_messages.pop(game_id, None)

        async def strip() -> None:
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old).edit(view=None)  # type: ignore

        task = asyncio.create_task(strip())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _panel_message_id(self, game_id: int) -> int | None:
        if game_id in self._panel_messages:
            return self._panel_messages[game_id]
        game = await self.storage.game(game_id)
        return game.panel_message_id if game else None

    async def _remember_panel(self, game_id: int, message_id: int,
                              version: int | None = None) -> None:
        self._panel_messages[game_id] = message_id
        await self.storage.set_panel_message(game_id, message_id, version)

    async def _final(self, channel: discord.abc.Messageable, o: Outcome) -> None:
        assert o.public_view is not None and o.record is not None
        data = json.dumps(o.record, indent=1).encode()
        lines = final_lines(o.game_id, o.public_view, o.seats)
        await channel.send("\n".join([*lines, t("end.record")]),
                           file=discord.File(io.BytesIO(data),
                                             filename=f"tempus-game-{o.game_id}.json"),
                           allowed_mentions=discord.AllowedMentions.none())

    # ------------------------------------------------------------------ direct messages
    async def _dms(self, channel: discord.abc.Messageable, o: Outcome) -> None:
        for seat in sorted({*o.hand_views, *o.secret_panels}):
            user_id = o.seats[seat].user_id
            if user_id is None:
                continue
            panel = o.secret_panels.get(seat)
            hand_view = o.hand_views.get(seat) or (panel.image_view if panel else None)
            ok = await self.send_hand(user_id, o.game_id, o.version, hand_view,
                                      o.private_lines.get(seat, []), panel)
            if ok:
                self._dm_failed.discard(user_id)
            elif user_id not in self._dm_failed:
                self._dm_failed.add(user_id)
                await channel.send(t("dm.failed", user=user_id),
                                   allowed_mentions=discord.AllowedMentions(users=True))

    async def send_hand(self, user_id: int, game_id: int, version: int,
                        hand_view: dict[str, Any] | None, news: list[str],
                        panel: Panel | None) -> bool:
        """DM a hand (text and picture) and, if owed, the secret choice; False if refused."""
        lines = [t("hand.drawn", what=n) for n in news]
        if panel is not None:
            lines.append(t("secret.intro", game=game_id, prompt=panel.text))
        elif hand_view is not None:
            lines.append(hand_text(game_id, hand_view))
        files = []
        if hand_view is not None:
            png = await self.offloader.run(images.hand_png, hand_view)
            if png:
                files.append(discord.File(io.BytesIO(png), filename="hand.png"))
        view = make_view(panel, game_id, version)
        try:
            dm = await self._dm_channel(user_id)
            kwargs: dict[str, Any] = {"files": files}
            if view is not None:
                kwargs["view"] = view
            await dm.send(fit(lines), **kwargs)
        except (discord.Forbidden, discord.NotFound):
            return False
        except discord.HTTPException as exc:
            log.warning("game %s: DM to %s failed: %s", game_id, user_id, exc)
            return False
        return True

    async def _dm_channel(self, user_id: int) -> discord.abc.Messageable:
        ch = self._dm_channels.get(user_id)
        if ch is None:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            ch = await user.create_dm()
            self._dm_channels[user_id] = ch
        return ch
