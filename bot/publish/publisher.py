"""Announcing outcomes on Discord: a thread per game, one turn message per turn, DMs.

Runs after the action is committed (the table service's per-game queue). The shape of a
table in Discord (DESIGN.md, "The table in a channel"):

* the **lobby** is a message in the channel, edited as seats change;
* at the start a public **thread** is opened on the lobby message and the game is played
  there; the channel gets one line with a link to it (and, at the end, the result). If the
  bot may not create threads, the game is played in the channel and the host is told once;
* a **turn message** (board image, the event lines, the prompt and its controls) is posted
  when a person's turn begins a new round (or phase), or someone away from the table must
  be pinged, and edited in place by everything else: the steps of that turn, the next
  turns of people at the table in the same round, and computers' turns, which never open
  a message of their own (:meth:`DiscordPublisher._opens`);
* every channel write goes through the channel's :class:`~bot.publish.outbox.ChannelOutbox`, which
  paces itself to Discord's buckets and coalesces the turn message's pending edits: the
  newest board and every event line of the turn arrive, in order.

Everything posted is built from the outcome's views and texts. The jobs around the turn
message live in modules of their own: each person's hand and private choices by DM
(:mod:`bot.publish.hand_dms`, only the receiving seat's own view), old controls taken off
(:mod:`bot.publish.old_controls`), the posts at the end (:mod:`bot.publish.final_post`).

Turn-clock reminders go by DM to the one who owes the decision, with a link to the turn
message (falling back to a mention in the game's thread); private menus that no longer
belong to a pending decision are edited to say so (:mod:`bot.publish.private_menus`).
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Final

import discord

from bot.publish.carriers import Carrier, Carriers
from bot.publish.components import component_rows, make_view
from bot.publish.final_post import post_final
from bot.publish.hand_dms import HandDMs
from bot.publish.lost_threads import LostThreads
from bot.publish.message_writes import Rows, edit_in_channel, post_in_channel
from bot.publish.old_controls import TIDY_POLL, OldControls
from bot.publish.outbox import CARRIED, EDIT, POST, Outboxes
from bot.publish.private_menus import PrivateMenus
from bot.publish.request_pace import BACKGROUND, NORMAL, URGENT, GlobalPace, priority
from bot.publish.text_fit import fit
from bot.runtime.worker_pool import Offloader, Superseded
from bot.store import SeatRow, Storage
from bot.table.model import Outcome, OutcomeKind, Reminder
from games import registry
from lang import i18n
from lang.messages import t

log = logging.getLogger(__name__)

THREAD_NAME_MAX = 100
#: minutes of inactivity before Discord hides the thread (the longest Discord offers)
THREAD_ARCHIVE_MINUTES: Final = 10080


@dataclass
class TurnMessage:
    """What the game's turn message shows, and what it should show."""

    game_id: int
    channel_id: int  # where the game is played (its thread, or the channel)
    message_id: int | None = None
    key: str | None = None
    lines: list[str] = field(default_factory=list)
    #: how many of ``lines`` the message shows (the rest is still to be written)
    shown_lines: int = 0
    #: the newest outcome still to show (None once shown: a waiting game keeps no board
    #: data here), and the version the message shows now
    outcome: Outcome | None = None
    shown: int = -1
    #: the game's language (for notices about the game when no outcome is pending)
    locale: str | None = None
    #: the round the message was opened in (None: not opened by this process)
    round: str | None = None
    #: counts the messages opened: a write drawn for an older one is not written
    serial: int = 0
    #: who the open message pings when it is posted (the people away it asks to act), as
    #: long as no post has delivered those pings yet
    mention: list[int] = field(default_factory=list)
    #: who it pings whatever they owe then (it tells them what a computer did for them)
    told: list[int] = field(default_factory=list)

    def open(self, o: Outcome, unshown: list[str]) -> None:
        """A new turn message for ``o``, beginning with ``unshown`` (lines the one before
        never showed). Pings the one before had yet to deliver (opened, but replaced
        before it was posted) are carried over with ``o``'s: whoever of them still owes a
        decision when it is posted is pinged (:func:`owing`), nobody's ping is lost."""
        self.message_id, self.round, self.serial = None, o.round_key, self.serial + 1
        self.mention = list(dict.fromkeys([*self.mention, *o.mention]))
        self.told = list(dict.fromkeys([*self.told, *o.told]))
        self.lines, self.shown_lines = [*unshown, *o.lines], 0


def owing(o: Outcome, users: list[int]) -> list[int]:
    """Those of ``users`` who owe a decision after ``o`` (a ping for a decision already
    made, by a computer or in another way, would only disturb)."""
    people = {o.seats[s].user_id for s in o.since if s < len(o.seats)}
    return [u for u in dict.fromkeys(users) if u in people]


class DiscordPublisher:
    def __init__(self, client: discord.Client, storage: Storage, offloader: Offloader,
                 *, outboxes: Outboxes | None = None, period: float = 5.0) -> None:
        self.client = client
        self.storage = storage
        self.offloader = offloader
        self.outboxes = outboxes or Outboxes(on_trouble=self._trouble, period=period)
        self._turns: dict[int, TurnMessage] = {}
        self._lobbies: dict[int, int] = {}
        #: each started game's play channel (its thread, or its channel without one)
        self._play: dict[int, int] = {}
        #: each game's newest seats and owed decisions (is a private choice still current?)
        self._latest: dict[int, tuple[list[SeatRow], dict[int, int]]] = {}
        self._background: set[asyncio.Task[Any]] = set()
        #: DM menus and ephemeral menus sent, to retire when their decision passes
        self.menus = PrivateMenus()
        #: the players' recent clicks, whose tokens write boards outside the global limit
        self.carriers = Carriers()
        self.dms = HandDMs(client, offloader, self.menus, self._latest,
                           lambda play, text, mention: self._post(play, text, mention=mention),
                           period=period, storage=storage)
        #: old turn messages and lobbies whose controls are to come off
        self.old_controls = OldControls(client, self.outboxes, self.carriers,
                                        lambda: self.pace)
        #: called when a game moves into its thread: (game id, thread id)
        self.on_thread: Callable[[int, int], Awaitable[None]] | None = None
        #: called with (outcome, seconds from commit to the board posted); for benchmarks
        self.on_posted: Callable[[Outcome, float], None] | None = None
        #: a game's thread was locked or deleted: the table service re-posts the position
        #: (now in the channel)
        self.on_left_thread: Callable[[int], Awaitable[None]] | None = None
        self.lost_threads = LostThreads(self._games_in, self._leave_thread)
        self.outboxes.on_refused = self._refused
        self.outboxes.on_archived = self._unarchive

    @property
    def pace(self) -> GlobalPace | None:
        """The client's global pacer (bot.publish.request_pace), if it has one."""
        pace = getattr(self.client, "global_pace", None)
        return pace if isinstance(pace, GlobalPace) else None

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
        """Post ``o`` in the game's language (DMs: in each person's, see :meth:`_dms`)."""
        with i18n.using(o.locale):
            await self._publish(o)

    async def _publish(self, o: Outcome) -> None:
        if o.kind == OutcomeKind.LOBBY:
            self._lobby(o)
            return
        if o.kind in (OutcomeKind.REMIND, OutcomeKind.NOTICE):
            await self._notice(o)
            return
        self._latest[o.game_id] = (o.seats, o.since)
        self._retire_menus(o)
        play = self._play.get(o.game_id)
        if play is None or o.kind in (OutcomeKind.START, OutcomeKind.CANCEL):
            # the number columns only: the snapshot is not decoded for every outcome
            game = await self.storage.game_ref(o.game_id)
            if o.kind == OutcomeKind.START and game is not None and game.thread_id is None:
                await self._open_thread(o)
                game = await self.storage.game_ref(o.game_id)
            play = game.play_channel_id if game is not None else o.channel_id
            if game is not None:
                # a started game's thread (or its channel, without one) never changes:
                # the store is not asked again for every move
                self._play[o.game_id] = play
        if o.kind == OutcomeKind.CANCEL:
            self._play.pop(o.game_id, None)
            await self._cancel(o, play)
            return
        turn = await self._turn(o.game_id, play)
        if self._waits_for_first(turn, o):
            # a computer begins a game of people: its lines open the first person's turn
            # message rather than a post that only says a computer is thinking
            turn.lines, turn.key, turn.locale = [*turn.lines, *o.lines], o.turn_key, o.locale
            self.dms.queue(play, o)
            return
        opens = self._opens(turn, o)
        if opens:
            if turn.message_id is not None:
                self.old_controls.tidy(play, turn.message_id, o.game_id)
            # lines the old turn message never showed (a notice just before a move, e.g.
            # a seat going on autopilot) open the new one instead of being lost
            unshown = turn.lines[turn.shown_lines:] if o.kind != OutcomeKind.RESUME else []
            turn.open(o, unshown)
        else:
            turn.lines += o.lines
        turn.key = o.turn_key
        turn.outcome, turn.locale = o, o.locale
        self.outboxes.submit(play, lambda: self._sync(turn), key=f"turn:{o.game_id}",
                             kind=lambda: self._sync_kind(turn))
        if self._urgency(o) == URGENT:
            # the game's board may be waiting for a render slot as a computer move's; it
            # draws the newest outcome when its turn comes, this one: a person waits on it
            self.offloader.promote(("board", o.game_id), URGENT)
        self.dms.queue(play, o)
        if o.finished:
            self._play.pop(o.game_id, None)
            post_final(o, play, storage=self.storage, offloader=self.offloader,
                       outboxes=self.outboxes, channel=self.channel, keep=self._keep)

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
            # a rematch's lobby pings the people it invites (o.mention); edits never ping
            # discord.py takes None for no view, which its overloads do not say
            msg = await ch.send(
                panel.text, view=view,  # type: ignore[arg-type]
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(u) for u in o.mention]))
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
        why = "thread.denied"
        try:
            ch = await self.channel(o.channel_id)
            if lobby is not None and isinstance(ch, discord.TextChannel):
                thread = await ch.get_partial_message(lobby).create_thread(
                    name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES)
            elif isinstance(ch, discord.TextChannel):
                thread = await ch.create_thread(
                    name=name, type=discord.ChannelType.public_thread,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES)
            else:  # a voice channel's chat, a forum post ...: no permission would help
                why = "thread.no_threads_here"
        except discord.Forbidden:
            thread = None
        except discord.HTTPException as exc:
            log.warning("game %s: could not open a thread: %s", o.game_id, exc)
            thread = None
        if thread is None:
            host = game.host_id if game else 0
            self._post(o.channel_id, t(why, host=host, game=o.game_id), mention=[host])
            return
        await self.storage.set_thread(o.game_id, thread.id)
        if self.on_thread is not None:
            await self.on_thread(o.game_id, thread.id)
        self._lobbies.pop(o.game_id, None)
        # the shuffle's commitment stands in the channel too, as in the thread's first post
        commitment = ([t("shuffle.commitment", commitment=game.seed_commitment)]
                      if game is not None and game.seed_commitment else [])
        if lobby is not None:
            # the lobby message itself now says where the game is: one message, not two
            self.old_controls.retire(o.channel_id, lobby, content="\n".join([t(
                "lobby.started_in", game=o.game_id, thread=thread.id), *commitment]))
        else:
            self._post(o.channel_id, "\n".join(
                [t("thread.start_line", game=o.game_id, thread=thread.id), *commitment]))

    async def _cancel(self, o: Outcome, play: int) -> None:
        turn = await self._turn(o.game_id, play)
        if turn.message_id is not None:
            self.old_controls.retire(play, turn.message_id)
            turn.message_id = None
        lobby = self._lobbies.pop(o.game_id, None)
        if lobby is not None:
            self.old_controls.retire(o.channel_id, lobby)
        self._post(play, "\n".join(o.lines))

    # ------------------------------------------------------------------ turn message
    @staticmethod
    def _opens(turn: TurnMessage, o: Outcome) -> bool:
        """Whether ``o`` opens a new turn message rather than editing the open one.

        A new message is what notifies (edits never do) and what moves the board to the
        bottom of the thread, so one is posted when a person must be pinged (away from the
        table), when a person's decision begins a new round, and after a restart. A
        computer's turn never opens one (no post only says a computer is thinking): it is
        told in the open message, and its lines stay there for the next one to carry if
        they were not shown (a game's first message is posted whoever begins: a table of
        computers is watched in one message). Everything else edits the open message in
        place."""
        if o.kind == OutcomeKind.RESUME or (turn.round is None and turn.message_id is None):
            return True  # the first message this process writes for the game
        if o.told:
            return True  # a notice to someone (time ran out): above what follows it
        if not o.waits_for_person:
            return False
        return bool(o.mention) or o.round_key != turn.round

    @staticmethod
    def _waits_for_first(turn: TurnMessage, o: Outcome) -> bool:
        """Whether ``o`` (no message written for the game yet) waits for the first
        person's turn: only computers act now, and people play the game (a table of
        computers is shown from its first move)."""
        return (o.kind != OutcomeKind.RESUME and not o.finished and turn.message_id is None
                and turn.round is None and not o.waits_for_person
                and any(not s.is_ai for s in o.seats))

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

    def _sync_kind(self, turn: TurnMessage) -> str | None:
        """What :meth:`_sync` will do next: post the new turn message or edit one, with a
        click's token or through the channel (for the outbox's buckets)."""
        if turn.outcome is None:
            return None
        if self._carrier(turn) is not None:
            return CARRIED
        return POST if turn.message_id is None else EDIT

    def _carrier(self, turn: TurnMessage) -> Carrier | None:
        """A click's token that may make the turn message's next write."""
        if turn.message_id is None:
            return self.carriers.for_post(turn.game_id, turn.channel_id)
        return self.carriers.for_edit(turn.game_id, turn.channel_id, turn.message_id)

    async def _sync(self, turn: TurnMessage) -> bool:
        """One write that brings the turn message closer to the newest outcome: post the
        new turn message, edit it, or take the controls off an old one."""
        o = turn.outcome
        if o is None or (turn.message_id is not None and turn.shown >= o.version):
            return False  # shown already (a rerun with nothing newer)
        # only the newest board of a game is drawn, and of the newest outcome when its
        # drawing starts: under load a board waits seconds for a render slot while the
        # computers play on, and the outcome of the time of asking would often be of a
        # turn that is over by then, drawn only to be thrown away. A board superseded
        # while it waits raises Superseded: the outbox runs this again with the newest
        async with self.offloader.newest(("board", turn.game_id),
                                         level=self._urgency(o)) as run:
            o = turn.outcome
            if o is None or (turn.message_id is not None and turn.shown >= o.version):
                return False
            assert o.public_view is not None
            serial = turn.serial
            media = registry.game(o.game_name).media
            png, alt = await run(media.board_png_and_alt, o.public_view, o.highlight,
                                 o.last_move, False, o.locale, o.lines)
        with i18n.using(o.locale):  # the outbox task has no language of its own
            # the picture in words is render's description (None: it failed, logged)
            return await self._write(turn, o, serial, png, alt)

    async def _write(self, turn: TurnMessage, o: Outcome, serial: int,
                     png: bytes | None, alt: str | None) -> bool:
        """Write ``o``'s turn message with its board ``png`` described by ``alt``, drawn
        while the open turn message was the ``serial``-th."""
        assert o.public_view is not None
        if turn.serial != serial:
            # a new message was opened while the board was drawn: ``turn.lines`` are its
            # lines now, and this board is of the one before; write the newest instead
            return True
        prompt = o.panel.text if o.panel else ""
        content = fit(turn.lines, prompt)
        # taken from here on: a new turn that begins while this is written must not
        # carry these lines again
        before, taken = turn.shown_lines, len(turn.lines)
        sending = turn.lines[before:taken]
        turn.shown_lines = taken
        files = [discord.File(io.BytesIO(png), filename="board.png",
                              description=alt)
                 ] if png else []
        components = component_rows(o.panel, o.game_id, o.version)
        carrier = self._carrier(turn)

        def wanted() -> bool:
            """Still the newest state (a newer one is written instead; if a new turn has
            begun meanwhile, this turn's lines open its message: while Discord's budget
            is short, quick computer turns share one message)."""
            return turn.outcome is o
        try:
            with priority(self._urgency(o), wanted):
                if turn.message_id is None:
                    pending, told = turn.mention, turn.told
                    mentions = discord.AllowedMentions(
                        everyone=False, roles=False,
                        users=[discord.Object(u) for u in
                               dict.fromkeys([*owing(o, pending), *told])])
                    # this post delivers them: a message opened while it is under way
                    # pings only its own (no second ping); if it fails, they are pending
                    turn.mention, turn.told = [], []
                    try:
                        posted = await self._send(turn, carrier, content, files=files,
                                                  allowed_mentions=mentions,
                                                  components=components)
                    except BaseException:
                        turn.mention = list(dict.fromkeys([*pending, *turn.mention]))
                        turn.told = list(dict.fromkeys([*told, *turn.told]))
                        raise
                    if turn.serial != serial:  # a new one was opened while this was posted
                        self.old_controls.tidy(turn.channel_id, posted, o.game_id)
                        return True
                    turn.message_id = posted
                else:
                    try:
                        await self._edit(turn, carrier, turn.message_id, content=content,
                                         attachments=files, components=components)
                    except discord.NotFound:  # deleted by someone: post it anew next time
                        turn.message_id = None
                        return True
        except Superseded:
            if turn.serial == serial:
                turn.shown_lines = before  # written with the newest state next
            else:  # a new turn began and left these lines to this message: carry them
                turn.lines = [*sending, *turn.lines]
            raise
        turn.shown = o.version
        await self.storage.set_turn_message(o.game_id, turn.message_id, turn.key,
                                            o.version)
        if self.on_posted is not None:
            self.on_posted(o, time.perf_counter() - o.committed_at)
        if turn.outcome is o:
            turn.outcome = None  # written: its views and panel need not stay in memory
            return False
        return turn.outcome is not None and turn.outcome.version > turn.shown

    async def _send(self, turn: TurnMessage, carrier: Carrier | None, content: str, *,
                    files: list[discord.File], allowed_mentions: discord.AllowedMentions,
                    components: Rows) -> int:
        """Post a new turn message, with a click's token if there is one; its id."""
        if carrier is None:
            return await post_in_channel(self.client, turn.channel_id, content, files=files,
                                         allowed_mentions=allowed_mentions,
                                         components=components)
        with self.carriers.carrying(turn.game_id, carrier):
            return await carrier.post(content, files=files, allowed_mentions=allowed_mentions,
                                      components=components)

    async def _edit(self, turn: TurnMessage, carrier: Carrier | None, message_id: int, *,
                    content: str, attachments: list[discord.File], components: Rows) -> None:
        if carrier is None:
            await edit_in_channel(self.client, turn.channel_id, message_id, content=content,
                                  attachments=attachments, components=components)
            return
        with self.carriers.carrying(turn.game_id, carrier):
            await carrier.edit(message_id, content=content, attachments=attachments,
                               components=components)

    @staticmethod
    def _urgency(o: Outcome) -> int:
        """How soon this board must go out: a person just acted or is now asked to
        (URGENT), or only computers are at it (NORMAL)."""
        people = {i for i, s in enumerate(o.seats) if s.user_id is not None and not s.is_ai}
        if (o.actor is not None and o.actor in people) or people & set(o.since):
            return URGENT
        return NORMAL

    def _spawn(self, coro: Awaitable[None], name: str) -> None:
        task = asyncio.ensure_future(coro)
        task.set_name(name)
        self._keep(task)

    def _keep(self, task: asyncio.Task[Any]) -> None:
        """Hold a background task until it is done (``drain`` waits for it)."""
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _retire_menus(self, o: Outcome) -> None:
        """Retire the game's private menus that are no longer current, in the background
        (their edits never hold up the board; a click on one is refused meanwhile)."""
        edits = self.menus.stale(o.game_id, o.seats, o.since)
        if not edits:
            return

        async def run() -> None:
            with priority(BACKGROUND):
                for edit in edits:
                    try:
                        await edit()
                    except Exception as exc:  # any refusal: the menu stays as it is
                        log.info("game %s: could not retire a private menu: %s",
                                 o.game_id, exc)
        self._spawn(run(), f"tempus-retire-{o.game_id}")

    def _post(self, channel_id: int, content: str, *, mention: list[int] | None = None,
              files: Callable[[], list[discord.File]] | None = None) -> None:
        """A one-off message (a notice, the start line, the result): never coalesced."""
        async def write() -> bool:
            ch = await self.channel(channel_id)
            allowed = discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(u) for u in mention or []])
            await ch.send(content, files=files() if files else [], allowed_mentions=allowed)
            return False

        self.outboxes.submit(channel_id, write, kind=POST)

    def notice(self, channel_id: int, content: str) -> None:
        """A one-off line in a channel or thread (e.g. the database broke under the bot)."""
        self._post(channel_id, content)

    # ------------------------------------------------------------------ lost threads
    def _games_in(self, channel_id: int) -> list[int]:
        """The started games played in ``channel_id`` now (as far as this process knows)."""
        games = {g for g, play in self._play.items() if play == channel_id}
        games |= {g for g, turn in self._turns.items() if turn.channel_id == channel_id}
        return sorted(games)

    async def _refused(self, channel_id: int, exc: BaseException) -> bool:
        """A write refused for good: a locked or deleted game thread moves its game out."""
        return await self.lost_threads.refused(channel_id, exc, self._thread_locked)

    async def _thread_locked(self, thread_id: int) -> bool | None:
        """Whether the thread is locked (None: it cannot be looked at)."""
        try:
            ch = await self.client.fetch_channel(thread_id)
        except discord.NotFound:
            return True  # deleted meanwhile: as good as locked
        except discord.HTTPException:
            return None
        if not isinstance(ch, discord.Thread):
            return None
        if not ch.locked:
            # only archived (a week idle): a post brings it back, an edit cannot
            for turn in list(self._turns.values()):
                if turn.channel_id == thread_id and turn.message_id is not None:
                    self.old_controls.tidy(thread_id, turn.message_id, turn.game_id)
                    turn.message_id = None
                    if turn.outcome is not None:
                        self._resync(turn)
        return ch.locked

    def _resync(self, turn: TurnMessage) -> None:
        self.outboxes.submit(turn.channel_id, lambda: self._sync(turn),
                             key=f"turn:{turn.game_id}", kind=lambda: self._sync_kind(turn))

    async def thread_changed(self, thread_id: int, *, locked: bool = False,
                             deleted: bool = False, archived: bool = False) -> None:
        """The gateway says a thread was locked, deleted or archived. A game's thread that
        is only archived (Discord does so after its archive duration without a message; a
        moderator may too) is brought back before the bot next writes there: edits in an
        archived thread are refused, and a game at the daily pace can stay quiet longer
        than that."""
        if locked or deleted:
            await self.lost_threads.gone(thread_id, "deleted" if deleted else "locked")
        elif archived and self._games_in(thread_id) \
                and not self.lost_threads.is_lost(thread_id):
            self.outboxes[thread_id].archived = True

    async def _unarchive(self, thread_id: int) -> bool:
        """Make an archived game thread active again (the bot is a member of the threads
        it opens, which is all Discord asks to unarchive one that is not locked); False if
        Discord refuses (the bot was removed from it, or it is locked): then a post brings
        it back, or the game moves to its channel (bot/publish/lost_threads.py)."""
        if self.lost_threads.is_lost(thread_id) or not self._games_in(thread_id):
            return False
        try:
            await self.client.http.edit_channel(thread_id, archived=False)
        except discord.HTTPException as exc:
            log.warning("thread %s: cannot unarchive it: %s", thread_id, exc)
            return False
        log.info("thread %s was archived: unarchived it to write there", thread_id)
        return True

    async def _leave_thread(self, game_id: int, thread_id: int, why: str) -> None:
        """Play ``game_id`` in its channel from now on: nothing more is written in the
        thread, the players are told once there, and the position is posted anew."""
        game = await self.storage.game_ref(game_id)
        if game is None:
            return
        channel = game.channel_id
        self.outboxes[thread_id].clear()
        self.old_controls.forget(thread_id)
        self._play[game_id] = channel
        old = self._turns.pop(game_id, None)
        # a turn message of its own in the channel (the stored one is in the thread)
        self._turns[game_id] = TurnMessage(game_id, channel, key=old.key if old else None,
                                           locale=old.locale if old else None)
        await self.storage.set_thread(game_id, None)
        seats = await self.storage.seats(game_id)
        people = sorted({s.user_id for s in seats if s.user_id is not None and not s.is_ai})
        locale = old.locale if old is not None else None
        with i18n.using(locale):
            key = "thread.lost.deleted" if why == "deleted" else "thread.lost.locked"
            text = t(key, game=game_id, thread=thread_id,
                     players=" ".join(f"<@{u}>" for u in people))
        self._post(channel, text, mention=people)
        if self.on_left_thread is not None:
            await self.on_left_thread(game_id)

    # ------------------------------------------------------------------ turn clock
    async def _notice(self, o: Outcome) -> None:
        """A reminder (by DM, else a mention in the game's thread) or a notice there."""
        try:
            game = await self.storage.game(o.game_id)
        except Exception:  # a damaged game's notice still reaches its channel
            game = None
        play = game.play_channel_id if game is not None else o.play_channel_id or o.channel_id
        if o.lines:
            self._post(play, "\n".join(o.lines), mention=o.mention)
        show = registry.game(o.game_name).show
        for r in o.reminders:
            link = await self.turn_link(o.game_id, o.guild_id, play)
            with i18n.using(i18n.user_locale(r.user_id, o.locale)):  # the person's language
                text = "\n".join([t(f"clock.remind_dm.{r.stage}", game=o.game_id,
                                    channel=play, colour=show.seat_name(r.seat),
                                    when=int(r.due_at), link=link),
                                  t("clock.remind_off_hint")])
            if not await self.dms.send(r.user_id, o.game_id, text):
                self._remind_in_thread(play, r, show.seat_name(r.seat))

    def _remind_in_thread(self, play: int, r: Reminder, seat_name: str) -> None:
        """The reminder as a mention in the game's thread: public, so in the game's
        language (the current one, see :meth:`publish`)."""
        self._post(play, t("clock.remind_public", user=r.user_id, colour=seat_name,
                           when=int(r.due_at)), mention=[r.user_id])

    async def turn_link(self, game_id: int, guild_id: int | None, play: int) -> str:
        """A link to the game's turn message (or to its thread, if there is none yet)."""
        turn = self._turns.get(game_id)
        message = turn.message_id if turn is not None and turn.channel_id == play else None
        if message is None:
            game = await self.storage.game(game_id)
            message = game.panel_message_id if game is not None and game.turn_key else None
        where = "@me" if guild_id is None else str(guild_id)
        tail = f"/{message}" if message is not None else ""
        return f"https://discord.com/channels/{where}/{play}{tail}"

    async def _trouble(self, channel_id: int, exc: BaseException) -> None:
        """Discord has refused this channel's writes several times in a row (the outbox goes
        on retrying): tell the people of the games played there, once per run, by DM, and
        how to play on meanwhile (``/tempus board`` brings the controls privately)."""
        log.warning("channel %s: Discord is refusing posts (%s)", channel_id, exc)
        for turn in [x for x in self._turns.values() if x.channel_id == channel_id]:
            try:
                seats = await self.storage.seats(turn.game_id)
            except Exception:
                log.exception("game %s: cannot read its seats", turn.game_id)
                continue
            for seat in seats:
                if seat.user_id is None:
                    continue
                try:
                    dm = await self.dms.channel(seat.user_id)
                    game_lang = turn.locale
                    with i18n.using(i18n.user_locale(seat.user_id, game_lang)):
                        text = t("notice.posts_refused", game=turn.game_id, channel=channel_id)
                    await dm.send(text)
                except discord.HTTPException as dm_exc:
                    log.warning("game %s: could not tell %s: %s", turn.game_id,
                                seat.user_id, dm_exc)

    async def drain(self) -> None:
        """Until everything queued so far is written (boards, DMs, menus; old controls
        too, unless Discord's global budget is short)."""
        while True:
            await self.outboxes.drain()
            await self.dms.outboxes.drain()
            tasks = list(self._background)
            if tasks:
                await asyncio.gather(*tasks, return_exceptions=True)
                continue
            if any(b.pending for b in (*self.outboxes.boxes(), *self.dms.outboxes.boxes())):
                continue
            # old controls come off only when the budget has room: wait for them only then
            pace = self.pace
            if not self.old_controls.waiting or (pace is not None and pace.busy()):
                return
            await asyncio.sleep(TIDY_POLL / 5)

    def forget_idle(self) -> int:
        """Drop the outboxes of channels and DMs with nothing going on, and clicks whose
        tokens have run out (bot.runtime.memory)."""
        return (self.outboxes.forget_idle() + self.dms.outboxes.forget_idle()
                + self.carriers.forget_idle())

    async def close(self) -> None:
        for task in self._background:
            task.cancel()
        await self.old_controls.close()
        await self.outboxes.close()
        await self.dms.outboxes.close()
