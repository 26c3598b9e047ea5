"""Announcing outcomes on Discord: a thread per game, one turn message per turn, DMs.

Runs after the action is committed (the table service's per-game queue). The shape of a
table in Discord (DESIGN.md, "The table in a channel"):

* the **lobby** is a message in the channel, edited as seats change;
* at the start a public **thread** is opened on the lobby message and the game is played
  there; the channel gets one line with a link to it (and, at the end, the result). If the
  bot may not create threads, the game is played in the channel and the host is told once;
* a **turn message** (board image, the turn's event lines, the prompt and its controls) is
  posted when a turn or phase begins and edited in place by the steps of that turn;
* every channel write goes through the channel's :class:`~bot.outbox.ChannelOutbox`, which
  paces itself to Discord's buckets and coalesces the turn message's pending edits: the
  newest board and every event line of the turn arrive, in order.

Everything posted is built from the outcome's views and texts; DMs carry only the receiving
seat's own view. A DM that cannot be delivered never stops the game: the player is told in
the game's thread (without any detail) to use ``/tempus hand``.
"""

from __future__ import annotations

import contextlib
import io
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from . import history, images, results
from .components import make_view
from .describe import board_alt_text, hand_text
from .messages import t
from .offload import Offloader, Superseded
from .outbox import Outboxes
from .storage import Storage
from .table import Outcome
from .ui import Panel

log = logging.getLogger(__name__)

MAX_CONTENT = 2000
THREAD_NAME_MAX = 100
#: minutes of inactivity before Discord hides the thread (the longest Discord offers)
THREAD_ARCHIVE_MINUTES = 10080


def _alt(view: dict[str, Any], changed: list[str]) -> str:
    """The board picture in words (render's description, else a short one of our own)."""
    return images.board_alt(view, changed) or board_alt_text(view, changed)


def fit(lines: list[str], tail: str = "", limit: int = MAX_CONTENT) -> str:
    """Join lines, dropping the oldest ones if the message would be too long."""
    body = list(lines)
    while True:
        text = "\n".join([*body, tail] if tail else body)
        if len(text) <= limit or not body:
            return text[:limit]
        drop = max(1, len(body) // 4)
        body = [t("post.more", n=drop), *body[drop + (1 if body[0].startswith("(…") else 0):]]


@dataclass
class TurnMessage:
    """What the game's turn message shows, and what it should show."""

    game_id: int
    channel_id: int  # where the game is played (its thread, or the channel)
    message_id: int | None = None
    key: str | None = None
    lines: list[str] = field(default_factory=list)
    #: the newest outcome to show, and the version the message shows now
    outcome: Outcome | None = None
    shown: int = -1
    #: older turn messages whose controls must come off
    retire: list[int] = field(default_factory=list)


class DiscordPublisher:
    def __init__(self, client: discord.Client, storage: Storage, offloader: Offloader,
                 *, outboxes: Outboxes | None = None, period: float = 5.0) -> None:
        self.client = client
        self.storage = storage
        self.offloader = offloader
        self.outboxes = outboxes or Outboxes(on_trouble=self._trouble, period=period)
        self._turns: dict[int, TurnMessage] = {}
        self._lobbies: dict[int, int] = {}
        self._dm_failed: set[int] = set()
        self._dm_channels: dict[int, discord.abc.Messageable] = {}
        #: called when a game moves into its thread: (game id, thread id)
        self.on_thread: Callable[[int, int], Awaitable[None]] | None = None
        #: called with (outcome, seconds from commit to the board posted); for benchmarks
        self.on_posted: Callable[[Outcome, float], None] | None = None

    async def channel(self, channel_id: int) -> discord.abc.Messageable:
        ch = self.client.get_channel(channel_id)
        if ch is None:
            ch = await self.client.fetch_channel(channel_id)
        assert isinstance(ch, discord.abc.Messageable)
        return ch

    def _partial(self, channel_id: int, message_id: int) -> discord.PartialMessage:
        ch = self.client.get_partial_messageable(channel_id)
        return ch.get_partial_message(message_id)

    async def publish(self, o: Outcome) -> None:
        if o.kind == "lobby":
            self._lobby(o)
            return
        game = await self.storage.game(o.game_id)
        if o.kind == "start" and game is not None and game.thread_id is None:
            await self._open_thread(o)
            game = await self.storage.game(o.game_id)
        play = game.play_channel_id if game is not None else o.channel_id
        if o.kind == "cancel":
            await self._cancel(o, play)
            return
        turn = await self._turn(o.game_id, play)
        if o.turn_key != turn.key or o.kind == "resume":
            if turn.message_id is not None:
                turn.retire.append(turn.message_id)
            turn.message_id, turn.key, turn.lines = None, o.turn_key, list(o.lines)
        else:
            turn.lines += o.lines
        turn.outcome = o
        self.outboxes.submit(play, lambda: self._sync(turn), key=f"turn:{o.game_id}")
        await self._dms(play, o)
        if o.finished:
            self._final(o, play)

    # ------------------------------------------------------------------ lobby and thread
    def _lobby(self, o: Outcome) -> None:
        assert o.panel is not None
        panel = o.panel

        async def write() -> bool:
            view = make_view(panel, o.game_id, o.version)
            old = self._lobbies.get(o.game_id)
            if old is None:
                game = await self.storage.game(o.game_id)
                old = game.panel_message_id if game else None
            if old is not None:
                try:
                    await self._partial(o.channel_id, old).edit(content=panel.text, view=view)
                    return False
                except discord.NotFound:
                    log.info("game %s: lobby message %s gone, posting anew", o.game_id, old)
            ch = await self.channel(o.channel_id)
            msg = await ch.send(panel.text, view=view,
                                allowed_mentions=discord.AllowedMentions.none())
            self._lobbies[o.game_id] = msg.id
            await self.storage.set_panel_message(o.game_id, msg.id)
            return False

        self.outboxes.submit(o.channel_id, write, key=f"lobby:{o.game_id}")

    async def _open_thread(self, o: Outcome) -> None:
        """Open the game's thread on the lobby message; the channel gets the start line
        (or, without permission, the host is told why the game stays in the channel)."""
        await self.outboxes[o.channel_id].drain()  # the lobby message exists by now
        game = await self.storage.game(o.game_id)
        lobby = self._lobbies.get(o.game_id) or (game.panel_message_id if game else None)
        name = t("thread.name", game=o.game_id)[:THREAD_NAME_MAX]
        thread: discord.Thread | None = None
        try:
            ch = await self.channel(o.channel_id)
            if lobby is not None and isinstance(ch, discord.TextChannel):
                thread = await ch.get_partial_message(lobby).create_thread(
                    name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES)
            elif isinstance(ch, discord.TextChannel):
                thread = await ch.create_thread(
                    name=name, type=discord.ChannelType.public_thread,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES)
        except discord.Forbidden:
            thread = None
        except discord.HTTPException as exc:
            log.warning("game %s: could not open a thread: %s", o.game_id, exc)
            thread = None
        if thread is None:
            host = game.host_id if game else 0
            self._post(o.channel_id, t("thread.denied", host=host, game=o.game_id),
                       mention=[host])
            return
        await self.storage.set_thread(o.game_id, thread.id)
        if self.on_thread is not None:
            await self.on_thread(o.game_id, thread.id)
        self._lobbies.pop(o.game_id, None)
        if lobby is not None:
            self._retire(o.channel_id, lobby, content=t("lobby.started_in", game=o.game_id,
                                                        thread=thread.id))
        self._post(o.channel_id, t("thread.start_line", game=o.game_id, thread=thread.id))

    async def _cancel(self, o: Outcome, play: int) -> None:
        turn = await self._turn(o.game_id, play)
        if turn.message_id is not None:
            self._retire(play, turn.message_id)
            turn.message_id = None
        lobby = self._lobbies.pop(o.game_id, None)
        if lobby is not None:
            self._retire(o.channel_id, lobby)
        self._post(play, "\n".join(o.lines))

    # ------------------------------------------------------------------ turn message
    async def _turn(self, game_id: int, play: int) -> TurnMessage:
        turn = self._turns.get(game_id)
        if turn is None or turn.channel_id != play:
            game = await self.storage.game(game_id)
            turn = TurnMessage(game_id, play)
            if game is not None and game.turn_key is not None:
                # after a restart: the stored turn message, if the game is still in it
                turn.message_id, turn.key = game.panel_message_id, game.turn_key
                turn.shown = game.announced_version or -1
            self._turns[game_id] = turn
        return turn

    async def _sync(self, turn: TurnMessage) -> bool:
        """One write that brings the turn message closer to the newest outcome: post the
        new turn message, edit it, or take the controls off an old one."""
        o = turn.outcome
        assert o is not None and o.public_view is not None
        key = turn.key
        if turn.message_id is None or turn.shown < o.version:
            try:  # only the newest board of a game is drawn (render.latest)
                png = await self.offloader.latest(("board", o.game_id), images.board_png,
                                                  o.public_view, o.highlight, o.last_move)
            except Superseded:
                return True
            prompt = o.panel.text if o.panel else ""
            content = fit(turn.lines, prompt)
            files = [discord.File(io.BytesIO(png), filename="board.png",
                                  description=_alt(o.public_view, o.lines))] if png else []
            view = make_view(o.panel, o.game_id, o.version)
            if turn.message_id is None:
                mentions = discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(u) for u in o.mention])
                ch = await self.channel(turn.channel_id)
                kwargs: dict[str, Any] = {"files": files, "allowed_mentions": mentions}
                if view is not None:
                    kwargs["view"] = view
                msg = await ch.send(content, **kwargs)
                if turn.key != key:  # a new turn began while this one was being posted
                    turn.retire.append(msg.id)
                    return True
                turn.message_id = msg.id
            else:
                try:
                    await self._partial(turn.channel_id, turn.message_id).edit(
                        content=content, attachments=files, view=view)
                except discord.NotFound:  # deleted by someone: post it anew next time
                    turn.message_id = None
                    return True
            turn.shown = o.version
            await self.storage.set_turn_message(o.game_id, turn.message_id, turn.key,
                                                o.version)
            if self.on_posted is not None:
                self.on_posted(o, time.perf_counter() - o.committed_at)
            return bool(turn.retire) or (turn.outcome is not None
                                         and turn.outcome.version > turn.shown)
        if turn.retire:
            old = turn.retire.pop(0)
            await self._strip(turn.channel_id, old)
            return bool(turn.retire)
        return False

    async def _strip(self, channel_id: int, message_id: int, content: str | None = None
                     ) -> None:
        """Take the controls off an old message (it stays as the story of its turn)."""
        kwargs: dict[str, Any] = {"view": None}
        if content is not None:
            kwargs["content"] = content
        with contextlib.suppress(discord.NotFound, discord.Forbidden):
            await self._partial(channel_id, message_id).edit(**kwargs)

    def _retire(self, channel_id: int, message_id: int, content: str | None = None) -> None:
        async def write() -> bool:
            await self._strip(channel_id, message_id, content)
            return False

        self.outboxes.submit(channel_id, write)

    def _post(self, channel_id: int, content: str, *, mention: list[int] | None = None,
              files: Callable[[], list[discord.File]] | None = None) -> None:
        """A one-off message (a notice, the start line, the result): never coalesced."""
        async def write() -> bool:
            ch = await self.channel(channel_id)
            allowed = discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(u) for u in mention or []])
            await ch.send(content, files=files() if files else [], allowed_mentions=allowed)
            return False

        self.outboxes.submit(channel_id, write)

    async def _trouble(self, channel_id: int, exc: BaseException) -> None:
        log.warning("channel %s: Discord is refusing posts (%s)", channel_id, exc)

    # ------------------------------------------------------------------ the end
    def _final(self, o: Outcome, play: int) -> None:
        """The result (bot/results.py): in full with the score chart, the final board, the
        record and the Rematch button in the game's thread, and shorter with the final
        board in the channel (when the game had a thread of its own). Results and ratings
        are stored first (bot/history.py)."""
        assert o.public_view is not None and o.record is not None
        record = o.record
        post: list[Any] = []

        async def made() -> Any:
            if not post:
                try:
                    changes = await history.record_finished(self.storage, o.game_id,
                                                            run=self.offloader.run)
                except Exception:
                    log.exception("game %s: results and ratings could not be stored",
                                  o.game_id)
                    changes = {}
                post.append(await self.offloader.run(
                    results.final_post_job, o.game_id, record, [s.name for s in o.seats],
                    [s.user_id for s in o.seats], changes))
            return post[0]

        def files(p: Any, names: tuple[str, ...] | None = None) -> list[discord.File]:
            return [discord.File(io.BytesIO(f.data), filename=f.filename,
                                 description=f.description)
                    for f in p.files if names is None or f.filename.endswith(names)]

        async def thread_post() -> bool:
            p = await made()
            ch = await self.channel(play)
            kwargs: dict[str, Any] = {"files": files(p),
                                      "allowed_mentions": discord.AllowedMentions.none()}
            view = make_view(p.panel, o.game_id, o.version) if p.panel else None
            if view is not None:
                kwargs["view"] = view
            await ch.send(p.text, **kwargs)
            return False

        self.outboxes.submit(play, thread_post)
        if play != o.channel_id:
            async def channel_post() -> bool:
                p = await made()
                ch = await self.channel(o.channel_id)
                text = fit([*p.channel_text.splitlines(), t("end.thread", thread=play)])
                await ch.send(text, files=files(p, ("-board.png",)) or files(p, (".png",)),
                              allowed_mentions=discord.AllowedMentions.none())
                return False

            self.outboxes.submit(o.channel_id, channel_post)

    # ------------------------------------------------------------------ direct messages
    async def _dms(self, play: int, o: Outcome) -> None:
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
                self._post(play, t("dm.failed", user=user_id), mention=[user_id])

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

    async def drain(self) -> None:
        await self.outboxes.drain()

    async def close(self) -> None:
        await self.outboxes.close()
