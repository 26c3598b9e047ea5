"""A small fake Discord (REST + gateway) on 127.0.0.1 for end-to-end tests of the real bot.

The unchanged bot (discord.py 2.7) is pointed at this server with ``discord.http.Route.BASE``
and ``DiscordWebSocket.DEFAULT_GATEWAY``. The fake plays one guild with text channels (or,
with ``guilds={guild_id: channel_ids, ...}``, several guilds, each with its own channels) and
a few users, sends interactions (slash commands, autocomplete, button and select clicks)
over the gateway, and records everything the bot sends: channel messages, thread messages,
DMs, ephemeral replies, with their attachments.

It refuses what real Discord refuses, answering as Discord does (status, JSON ``code``),
and :meth:`FakeDiscord.check` raises if the bot did something it could have known was
wrong: a message over Discord's limits (length, rows, buttons, select options, custom ids,
labels, attachment count, size and alt text), an interaction answered after 3 s, twice, or
with a callback type its interaction type does not allow, an interaction token used after
15 minutes, a deferred reply filled by a follow-up message (deprecated by Discord; counted
in :attr:`FakeDiscord.deferral_followups`), an invalid command registration, or a request
to an endpoint the fake does not implement. Refusals the bot cannot foresee (a closed DM,
thread creation denied, an archived thread, a 429) are answered but are not errors; every
non-2xx answer is in :attr:`failures`.

Knobs (constructor arguments, also of :func:`running`):

- ``post_limit``/``post_per`` (5 per 5 s), ``edit_limit``/``edit_per`` (5 per 5 s),
  ``shared_edits`` (False: edits have their own bucket per channel), ``global_limit``/
  ``global_per`` (50 per 1 s, not applied to interaction endpoints), ``webhook_limit``/
  ``webhook_per`` (5 per 2 s per interaction token), ``rate_limits`` (False turns them off),
  ``strict_rate_limits`` (True makes any 429 a :meth:`check` failure). See
  :mod:`tests.bot.fake_ratelimit` for which of these Discord documents.
- ``fail_next(channel_id, status=500|429, count=1, route="post"|"edit"|"any")``: force the
  next answers to writes in a channel (a 429 is a ``shared`` one, as if another bot had
  filled the channel's limit; discord.py sleeps and retries both).
- ``advance(seconds)``: move the fake's clock (:meth:`now`) forward, so tests can expire
  interaction tokens (15 min) and auto-archive threads without sleeping.
- ``fail_callbacks(count, status=500)``: answer the next interaction acknowledgements with
  ``status`` (Discord failing; the interaction's 3 seconds keep running).
- ``deny_threads(channel_id)``: creating threads in that channel answers 403 (50013).
- ``dm_channel(uid)``: the DM channel with a user, to send slash commands from a DM (refused
  by :meth:`slash` if the registered command is not offered in DMs).
- ``person_thread(parent_id, uid)``: a public thread a person started (to play in it).
- ``archive_thread(thread_id, locked=False, tell=True)``: archive a thread now (edits there
  are refused with 50083, a post unarchives it unless locked: then 160005); ``tell=False``
  sends no THREAD_UPDATE. The bot may unarchive a thread it is a member of (PATCH the
  channel with ``archived: false``; a locked one only if it started it), else 403 50013;
  ``leave_thread_as_bot(thread_id)`` takes that away; :attr:`unarchived` lists them.
  ``delete_thread(thread_id, tell=True)``: writes there answer
  10003 Unknown Channel (THREAD_DELETE unless ``tell=False``).
- ``shards`` (1): the shard count ``GET /gateway/bot`` recommends.
- ``enable_activities(in_threads=True)``: the application has an Activity (the EMBEDDED
  flag, 1 << 17, in its flags): a click may be answered with ``LAUNCH_ACTIVITY`` (type 12,
  its body checked against Discord's API description), which opens an instance in the
  click's channel (:attr:`activity_instances`) with the clicker in it; ``in_threads=False``
  refuses it in threads (400, 50039). Without it, type 12 is a misuse.
  Enabling them makes the app's Entry Point command (type 4, "launch"), which a bulk
  overwrite of the global commands may not drop (400, 50240).
  ``authorize(uid)`` is what the Embedded App SDK's authorize step gives ``uid``: a
  one-time code, which ``POST /oauth2/token`` (with :attr:`client_secret`) exchanges for
  an access token; ``GET /users/@me`` with that token is the person (with the bot's token,
  the bot), ``GET /applications/{id}/activity-instances/{instance}`` the instance.
- ``guilds``: several guilds, ``{guild_id: (channel_id, ...)}`` (then ``guild_id`` and
  ``channel_ids`` are ignored as arguments: :attr:`guild_id` is the first guild and
  :attr:`channel_ids` every guild's channels, in order); :meth:`guild_of` says whose a
  channel (or thread) is. Helper: :func:`spread_guilds`.

The global limit is one bucket for the bot, whatever token a request carries: every token
the fake accepts authenticates the same bot user, and Discord counts the global limit per
bot (a sharded bot's processes share its one token and so its 50 requests per second). Tests
give processes different tokens only to tell who posted what (:attr:`Message.token`).

Sharded gateway sessions, as Discord does them (developers/topics/gateway, "Sharding"): any
number of websocket sessions at once, each identifying with ``shard: [id, count]`` (none:
``[0, 1]``). A session gets READY for its shard, listing its guilds, and for each of them
GUILD_CREATE and every event of the guild (interactions in its channels, THREAD_*,
CHANNEL_UPDATE, MESSAGE_UPDATE): the guilds with ``(guild_id >> 22) % count == id``, and
no other; interactions in DMs go to shard 0. The newest session of a shard receives its
events; :attr:`Interaction.shard` and :attr:`routed` say where each event went,
:attr:`identified` lists every IDENTIFY's shard.

Measures: :meth:`posts`, :meth:`edits`, :meth:`max_writes_5s`, :meth:`rate_limited`, and the
raw :attr:`writes` (every accepted write with its time and channel).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import itertools
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, WSMsgType, web

from tests.bot.discord_spec import problems as spec_problems
from tests.bot.fake_commands import available_in, command_problems
from tests.bot.fake_ratelimit import (
    EDIT,
    POST,
    Fault,
    Limits,
    RateLimiter,
    Refusal,
    Write,
    loop_time,
    too_many,
)

API = "/api/v10"
EPHEMERAL = 64
MAX_CONTENT = 2000
MAX_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_OPTIONS = 25
MAX_CUSTOM_ID = 100
MAX_LABEL = 80
MAX_OPTION_TEXT = 100
MAX_PLACEHOLDER = 150
#: how often (seconds of the fake's clock) idle threads are looked for, to archive them
ARCHIVE_LOOK_S = 1.0
MAX_ATTACHMENT = 10 * 1024 * 1024
MAX_ATTACHMENTS = 10
MAX_ALT_TEXT = 1024
MAX_FILENAME = 1024
MAX_CHOICES = 25
MAX_MODAL_TITLE = 45
#: an interaction must be answered this soon (seconds); its token lives this long
ACK_DEADLINE = 3.0
TOKEN_LIFETIME = 15 * 60.0
#: callback types Discord accepts per interaction type (developers/interactions/
#: receiving-and-responding, "Interaction Callback Type": 6 and 7 only for components, 8
#: only for autocomplete, 9 not for modal submits; 12 for commands, components and modal
#: submits of an app with Activities, see LAUNCHES)
ALLOWED_CALLBACKS = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}
LAUNCHES = {2, 3, 5}
#: the command type of an app's Entry Point (developers/interactions/application-commands)
ENTRY_POINT = 4
#: the application flag of an app with Activities (developers/resources/application)
EMBEDDED = 1 << 17
INTERACTION_NAMES = {2: "APPLICATION_COMMAND", 3: "MESSAGE_COMPONENT",
                     4: "APPLICATION_COMMAND_AUTOCOMPLETE", 5: "MODAL_SUBMIT"}
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
PUBLIC_THREAD, PRIVATE_THREAD = 11, 12
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
CREATE_THREADS = CREATE_PUBLIC_THREADS | CREATE_PRIVATE_THREADS
#: permission bits: view, send, embed, attach, history, application commands, threads
MEMBER_PERMS = ((1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31)
                | CREATE_THREADS | SEND_MESSAGES_IN_THREADS)
MANAGE_CHANNELS = 1 << 4
TIMESTAMP = "2026-11-23T00:00:00+00:00"


@dataclass(frozen=True)
class UserOption:
    """A slash-command option that names a user (``player=UserOption(12)``)."""

    id: int


@dataclass(frozen=True)
class Forged:
    """An option value no Discord client would send (outside the declared type, choices or
    range), sent anyway: for defence-in-depth tests of the bot's own checks."""

    value: Any


class DiscordLimit(Exception):
    """The bot sent something real Discord would refuse (a test failure)."""


class CommandUnavailable(AssertionError):
    """A person tried a slash command Discord would not offer them there (a test mistake,
    or a registration that leaves the command out of this channel)."""


@dataclass
class Attachment:
    filename: str
    data: bytes
    #: alt text (``attachments[].description``), up to 1024 characters
    description: str | None = None
    id: int = 0


@dataclass
class Message:
    """A message the bot sent (or edited), as the fake stores it."""

    id: int
    channel_id: int
    content: str
    components: list[dict[str, Any]]
    attachments: list[Attachment]
    flags: int = 0
    #: "channel", "dm" or "ephemeral" (thread messages are "channel" in the thread's id)
    where: str = "channel"
    #: for DMs and ephemeral replies: the only user who sees it
    to_user: int | None = None
    interaction_id: int | None = None
    mentions: list[int] = field(default_factory=list)
    created: float = field(default_factory=loop_time)
    edits: int = 0
    #: the thread started from this message, if any (same id as the message)
    thread_id: int | None = None
    #: the bot token that posted it through the channel route (``Bot`` stripped), or, for
    #: an interaction's reply or follow-up, the token of the gateway session the
    #: interaction went to: tests give each bot process its own token to tell who posted
    token: str | None = None

    @property
    def public(self) -> bool:
        return self.where == "channel"

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for row in self.components for c in row.get("components", [])
                if "custom_id" in c]

    def controls(self) -> list[dict[str, Any]]:
        return [c for row in self.components for c in row.get("components", [])]


@dataclass
class Thread:
    """A thread channel the bot created (type 11 public, 12 private)."""

    id: int
    parent_id: int
    name: str
    type: int
    auto_archive_duration: int
    created: float
    last_activity: float
    owner_id: int
    message_id: int | None = None
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    rate_limit_per_user: int = 0
    message_count: int = 0
    #: whether the bot is a member of the thread (it is of those it started)
    bot_member: bool = True
    #: the people the bot added to the thread (Add Thread Member): who sees a private one
    members: set[int] = field(default_factory=set)


@dataclass
class Interaction:
    """One interaction the fake sent, and what the bot answered."""

    id: int
    token: str
    user_id: int
    kind: int  # 2 command, 3 component, 4 autocomplete
    sent_at: float
    channel_id: int = 0
    original_id: int | None = None
    original_used: bool = False
    message_id: int | None = None  # the message whose component was used
    acked_at: float | None = None
    response_type: int | None = None
    ephemeral: bool = False
    choices: list[dict[str, Any]] | None = None
    replies: list[Message] = field(default_factory=list)
    acked: asyncio.Event = field(default_factory=asyncio.Event)
    replied: asyncio.Event = field(default_factory=asyncio.Event)
    #: the token was invalidated (not answered within 3 s)
    invalid: bool = False
    #: a modal the bot opened (callback type 9)
    modal: dict[str, Any] | None = None
    #: the gateway shard the interaction was sent to (None: no session had it), and the
    #: token that session identified with
    shard: int | None = None
    bot_token: str | None = None

    def text(self) -> str:
        return "\n".join(m.content for m in self.replies)


@dataclass
class Session:
    """One gateway websocket; ``shard`` is (id, count) once it has identified."""

    ws: web.WebSocketResponse
    shard: tuple[int, int] | None = None
    seq: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def open(self) -> bool:
        return self.shard is not None and not self.ws.closed

    def has_guild(self, guild_id: int) -> bool:
        assert self.shard is not None
        return shard_of(guild_id, self.shard[1]) == self.shard[0]


def shard_of(guild_id: int, count: int) -> int:
    """Discord's formula: the shard that receives a guild's events."""
    return (guild_id >> 22) % count


def spread_guilds(channel_ids: tuple[int, ...], guilds: int, *, shard_count: int = 2
                  ) -> dict[int, tuple[int, ...]]:
    """``guilds`` guilds whose ids fall on the ``shard_count`` shards in turn (guild k on
    shard k % shard_count), with ``channel_ids`` dealt out over them round-robin (so each
    shard has as many channels as the others, give or take one guild's worth)."""
    if not 1 <= guilds <= len(channel_ids):
        raise ValueError(f"{guilds} guilds for {len(channel_ids)} channels")
    ids = [((shard_count + k) << 22) + 1000 for k in range(guilds)]
    assert all(shard_of(g, shard_count) == k % shard_count for k, g in enumerate(ids))
    return {g: tuple(channel_ids[k::guilds]) for k, g in enumerate(ids)}


class FakeDiscord:
    """The server. ``await start()``, then point the bot at :attr:`api_base` / :attr:`gateway`."""

    def __init__(self, *, guild_id: int = 1000, channel_ids: tuple[int, ...] = (2000, 2001),
                 users: dict[int, str] | None = None, dm_closed: set[int] | None = None,
                 managers: set[int] | None = None, post_limit: int = 5,
                 post_per: float = 5.0, edit_limit: int = 5, edit_per: float = 5.0,
                 shared_edits: bool = False, global_limit: int = 50,
                 global_per: float = 1.0, webhook_limit: int = 5, webhook_per: float = 2.0,
                 rate_limits: bool = True, strict_rate_limits: bool = False,
                 shards: int = 1, guilds: dict[int, tuple[int, ...]] | None = None) -> None:
        if guilds is None:
            guilds = {guild_id: tuple(channel_ids)}
        if not guilds:
            raise ValueError("the fake needs at least one guild")
        #: every guild and its text channels
        self.guilds: dict[int, tuple[int, ...]] = {g: tuple(c) for g, c in guilds.items()}
        self._channel_guild = {c: g for g, cs in self.guilds.items() for c in cs}
        if len(self._channel_guild) != sum(len(cs) for cs in self.guilds.values()):
            raise ValueError("a channel belongs to two guilds")
        #: the first guild (the only one unless ``guilds`` was given)
        self.guild_id = next(iter(self.guilds))
        #: the shard count ``GET /gateway/bot`` recommends
        self.recommended_shards = shards
        #: every guild's text channels
        self.channel_ids = tuple(self._channel_guild)
        self.users = users or {11: "ada", 12: "brian", 13: "chen", 14: "dora", 15: "eve"}
        self.dm_closed = set(dm_closed or ())
        self.managers = set(managers or ())
        self.app_id = 900
        #: other users that are bots (``user.bot``), e.g. for a seat that cannot be given
        self.bots: set[int] = set()
        self.bot_user: dict[str, Any] = {"id": "901", "username": "tempus", "discriminator": "0",
                         "global_name": "Tempus", "avatar": None, "bot": True}
        self._ids = itertools.count(10_000_000)
        self.messages: dict[int, Message] = {}
        self.order: list[Message] = []
        #: the same messages by channel (a thread or DM channel is a channel): the load
        #: bench waits on a thousand games at once, and a scan of ``order`` per look is
        #: quadratic there
        self._by_channel: dict[int, list[Message]] = {}
        self.dm_channels: dict[int, int] = {}  # channel id -> user id
        self.threads: dict[int, Thread] = {}
        self.interactions: dict[int, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}
        #: global commands and each guild's commands, as registered
        self.commands: list[dict[str, Any]] = []
        self.commands_of_guild: dict[int, list[dict[str, Any]]] = {}
        self.errors: list[str] = []
        #: every non-2xx answer: (method, path, status, JSON code)
        self.failures: list[tuple[str, str, int, int | None]] = []
        #: deferred replies filled by a first follow-up message, which Discord documents
        #: as deprecated (edit the original response instead): each is also an error
        self.deferral_followups = 0
        #: threads the bot unarchived (PATCH archived=false), in order
        self.unarchived: list[int] = []
        #: REST requests received, by method and route (ids and tokens left out)
        self.requests: collections.Counter[str] = collections.Counter()
        #: gateway events sent: (name, data)
        self.dispatched: list[tuple[str, dict[str, Any]]] = []
        #: the newest gateway websocket (of any shard)
        self.ws: web.WebSocketResponse | None = None
        #: every gateway session so far, oldest first
        self.gateway_sessions: list[Session] = []
        #: the shard (id, count) of every IDENTIFY, in order
        self.identified: list[tuple[int, int]] = []
        self._shard_tokens: dict[int | None, str | None] = {}
        #: gateway events sent to a session: (name, shard id)
        self.routed: list[tuple[str, int]] = []
        self.ready = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.on_message: Callable[[Message], None] | None = None
        self.changed = asyncio.Condition()
        #: how many times anything changed, and when last (for "quiet" waits, loop time)
        self.changes = 0
        self.last_change = loop_time()
        #: gateway sessions identified so far (a restarted bot makes a new one)
        self.sessions = 0
        self.limiter = RateLimiter(Limits(
            post_limit=post_limit, post_per=post_per, edit_limit=edit_limit,
            edit_per=edit_per, shared_edits=shared_edits, global_limit=global_limit,
            global_per=global_per, webhook_limit=webhook_limit, webhook_per=webhook_per,
            enabled=rate_limits))
        self.strict_rate_limits = strict_rate_limits
        self.thread_denied: set[int] = set()
        #: threads deleted (delete_thread): every write there answers 10003
        self.deleted_channels: set[int] = set()
        #: statuses the next interaction callbacks are answered with (fail_callbacks)
        self.callback_faults: list[int] = []
        #: Activities: whether the app has one, and may launch it in threads; the
        #: instances launched, by id; one-time codes and access tokens, to whom they belong
        self.activities = False
        self.activities_in_threads = True
        self.activity_instances: dict[str, dict[str, Any]] = {}
        self.client_secret = "the-fake-apps-client-secret-0123"
        self.oauth_codes: dict[str, int] = {}
        self.access_tokens: dict[str, int] = {}
        self.revoked = 0
        self._offset = 0.0
        self._archive_looked = -ARCHIVE_LOOK_S
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ clock and knobs
    def now(self) -> float:
        """The fake's clock: the event loop's (:func:`~tests.bot.fake_ratelimit.loop_time`)
        plus everything :meth:`advance` added."""
        return loop_time() + self._offset

    def advance(self, seconds: float) -> None:
        """Move the fake's clock forward (interaction deadlines, token expiry, thread
        archiving and rate-limit windows all follow it)."""
        self._offset += seconds

    @property
    def guild_commands(self) -> list[dict[str, Any]]:
        """The first guild's commands, as registered."""
        return self.commands_of_guild.get(self.guild_id, [])

    def guild_of(self, channel_id: int) -> int | None:
        """The guild of a text channel or thread (None: a DM or an unknown channel)."""
        t = self.threads.get(channel_id)
        if t is not None:
            channel_id = t.parent_id
        return self._channel_guild.get(channel_id)

    def fail_next(self, channel_id: int, status: int = 500, count: int = 1, *,
                  route: str = POST, retry_after: float = 1.0) -> None:
        """Answer the next ``count`` writes (``route``: "post", "edit" or "any") to
        ``channel_id`` with ``status`` (500, or a 429 of scope ``shared``) instead: through
        the channel's routes or an interaction token's follow-ups and edits alike."""
        if route not in (POST, EDIT, "any"):
            raise ValueError(f"route {route!r}")
        self.limiter.faults.setdefault(channel_id, []).append(
            Fault(status, count, route, retry_after))

    def fail_callbacks(self, count: int = 1, status: int = 500) -> None:
        """Answer the next ``count`` interaction callbacks (acknowledgements) with
        ``status``: Discord's side failing; the interaction stays unanswered (its 3 s
        still run)."""
        self.callback_faults += [status] * count

    def leave_thread_as_bot(self, thread_id: int) -> None:
        """The bot is no longer a member of the thread (a moderator removed it) and has no
        Manage Threads: unarchiving it answers 403 Missing Permissions (50013)."""
        self.threads[thread_id].bot_member = False

    def deny_threads(self, channel_id: int, denied: bool = True) -> None:
        """Take (or give back) the permission to create threads in ``channel_id``: starting
        a thread there answers 403 Missing Permissions (50013)."""
        if denied:
            self.thread_denied.add(channel_id)
        else:
            self.thread_denied.discard(channel_id)
        if channel_id in self._channel_guild and self._connected():
            self._spawn(self._dispatch("CHANNEL_UPDATE", self._text_channel(channel_id)))

    def dm_channel(self, uid: int) -> int:
        """The id of the DM channel between the bot and ``uid`` (made on first use)."""
        cid = next((c for c, u in self.dm_channels.items() if u == uid), None)
        if cid is None:
            cid = self.next_id()
            self.dm_channels[cid] = uid
        return cid

    async def person_thread(self, parent_id: int, uid: int, name: str = "chat") -> int:
        """A public thread person ``uid`` started in ``parent_id`` (not on a message); the
        bot is told as Discord tells it (THREAD_CREATE). Returns the thread's id."""
        now = self.now()
        t = Thread(self.next_id(), parent_id, name, PUBLIC_THREAD, 1440, now, now, uid)
        self.threads[t.id] = t
        await self._dispatch("THREAD_CREATE", {**self._thread_json(t), "newly_created": True})
        await self._changed()
        return t.id

    async def archive_thread(self, thread_id: int, locked: bool = False, *,
                             tell: bool = True) -> None:
        """Archive (and lock) a thread as a moderator would; ``tell``: send THREAD_UPDATE
        (False: the bot learns it only from Discord's refusals, as after a missed event)."""
        t = self.threads[thread_id]
        t.archived, t.locked = True, locked
        if tell:
            await self._dispatch("THREAD_UPDATE", self._thread_json(t))
        await self._changed()

    async def delete_thread(self, thread_id: int, *, tell: bool = True) -> None:
        """Delete a thread as a moderator would: writes there answer 10003 Unknown Channel."""
        t = self.threads.pop(thread_id)
        self.deleted_channels.add(thread_id)
        if tell:
            await self._dispatch("THREAD_DELETE", {
                "id": str(t.id), "guild_id": str(self._channel_guild[t.parent_id]),
                "parent_id": str(t.parent_id), "type": t.type})
        await self._changed()

    # ------------------------------------------------------------------ measures
    def writes(self, channel_id: int | None = None) -> list[Write]:
        return [w for w in self.limiter.writes
                if channel_id is None or w.channel_id == channel_id]

    def public_writes(self, channel_id: int | None = None) -> list[Write]:
        """Writes to public messages (what every reader of the channel sees change),
        through the channel routes or an interaction's token alike."""
        return [w for w in self.writes(channel_id)
                if (m := self.messages.get(w.message_id)) is not None and m.public]

    def posts(self, channel_id: int, *, interactions: bool = False) -> int:
        """Messages the bot posted in a channel (through the channel route; with
        ``interactions``, interaction replies and follow-ups too)."""
        return sum(1 for w in self.writes(channel_id)
                   if w.kind == POST and (interactions or not w.interaction))

    def edits(self, channel_id: int, *, interactions: bool = False) -> int:
        return sum(1 for w in self.writes(channel_id)
                   if w.kind == EDIT and (interactions or not w.interaction))

    def max_writes_5s(self, channel_id: int | None = None, *, window: float = 5.0,
                      kinds: tuple[str, ...] = (POST, EDIT), interactions: bool = False
                      ) -> int:
        """The most writes (posts and edits through the channel routes, unless told
        otherwise) in any ``window`` seconds, in ``channel_id`` or the busiest channel."""
        return self.limiter.max_in_window(channel_id, window, kinds, interactions)

    def rate_limited(self, channel_id: int | None = None) -> int:
        """How many 429s the fake answered (to writes in ``channel_id``, or in all)."""
        return sum(1 for r in self.limiter.refusals
                   if channel_id is None or r.channel_id == channel_id)

    @property
    def refusals(self) -> list[Refusal]:
        return self.limiter.refusals

    # ------------------------------------------------------------------ server
    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}{API}"

    @property
    def gateway(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", API + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])

    async def stop(self) -> None:
        for session in self.gateway_sessions:
            if not session.ws.closed:
                await session.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
        for task in list(self._tasks):
            task.cancel()

    def check(self) -> None:
        """Fail the test if the bot broke a Discord rule or used an unknown endpoint."""
        errors = list(self.errors)
        if self.strict_rate_limits and self.limiter.refusals:
            errors.append(f"{len(self.limiter.refusals)} requests answered 429")
        if errors:
            raise DiscordLimit("; ".join(errors[:10]))

    def next_id(self) -> int:
        return next(self._ids)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ gateway
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=None, max_msg_size=0)
        await ws.prepare(request)
        session = Session(ws)
        self.gateway_sessions.append(session)
        self.ws = ws
        self.ready.clear()
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                break
            data = json.loads(msg.data)
            op = data.get("op")
            if op == 1:
                await ws.send_str(json.dumps({"op": 11}))
            elif op == 2:
                if not await self._identify(session, data.get("d") or {}):
                    break
            elif op == 6:  # resume: start over
                await ws.send_str(json.dumps({"op": 9, "d": False}))
            elif op in (3, 4, 8):
                pass
            else:
                self.errors.append(f"gateway op {op} not implemented")
        return ws

    async def _identify(self, session: Session, d: dict[str, Any]) -> bool:
        """READY for the session's shard, then its guild if the shard has it; False (and
        the socket closed with 4010 Invalid shard, as Discord does) for a bad shard."""
        shard = d.get("shard") or [0, 1]
        ok = (isinstance(shard, list) and len(shard) == 2
              and all(isinstance(x, int) for x in shard) and 0 <= shard[0] < shard[1])
        if not ok:
            self.errors.append(f"IDENTIFY with an invalid shard {shard!r}")
            await session.ws.close(code=4010, message=b"Invalid shard")
            return False
        session.shard = (shard[0], shard[1])
        self.identified.append(session.shard)
        self._shard_tokens[shard[0]] = str(d.get("token") or "").removeprefix("Bot ") or None
        mine = [g for g in self.guilds if session.has_guild(g)]
        await self._send(session, "READY", {
            "v": 10, "user": self.bot_user, "session_id": f"fake-session-{len(self.identified)}",
            "resume_gateway_url": self.gateway, "shard": list(session.shard),
            "guilds": [{"id": str(g), "unavailable": True} for g in mine],
            "application": {"id": str(self.app_id), "flags": self.app_flags},
        })
        for g in mine:
            await self._send(session, "GUILD_CREATE", self._guild(g))
        self.sessions += 1
        self.ready.set()
        await self._changed()
        return True

    def session_for(self, guild_id: int | None) -> Session | None:
        """The newest open session that receives events of ``guild_id`` (None: a DM,
        shard 0)."""
        for session in reversed(self.gateway_sessions):
            if not session.open():
                continue
            assert session.shard is not None
            if guild_id is None and session.shard[0] == 0 or (
                    guild_id is not None and session.has_guild(guild_id)):
                return session
        return None
    def _connected(self) -> bool:
        return any(s.open() for s in self.gateway_sessions)

    async def _dispatch(self, event: str, d: dict[str, Any]) -> int | None:
        """Send a gateway event to the session of its guild (``d["guild_id"]``; none: a DM,
        shard 0); dropped if no such session is connected (:attr:`dispatched` keeps every
        event either way). Returns the shard it went to."""
        self.dispatched.append((event, d))
        gid = d.get("guild_id")
        session = self.session_for(int(gid) if gid is not None else None)
        if session is None:
            return None
        await self._send(session, event, d)
        return session.shard[0] if session.shard is not None else None

    async def _send(self, session: Session, event: str, d: dict[str, Any]) -> None:
        if session.shard is not None:
            self.routed.append((event, session.shard[0]))
        if event in ("READY", "GUILD_CREATE"):
            self.dispatched.append((event, d))
        with contextlib.suppress(ConnectionResetError):
            await session.ws.send_str(json.dumps({"op": 0, "t": event, "s": next(session.seq),
                                                  "d": d}))

    def _text_channel(self, cid: int) -> dict[str, Any]:
        guild = self._channel_guild[cid]
        i = self.guilds[guild].index(cid)
        overwrites = []
        if cid in self.thread_denied:  # @everyone (the bot included) may not start threads
            overwrites.append({"id": str(guild), "type": 0, "allow": "0",
                               "deny": str(CREATE_THREADS)})
        return {"id": str(cid), "type": 0, "name": f"table-{i}", "position": i,
                "permission_overwrites": overwrites, "guild_id": str(guild),
                "nsfw": False, "parent_id": None, "default_auto_archive_duration": 1440}

    def _guild(self, guild_id: int) -> dict[str, Any]:
        gid = str(guild_id)
        self._archive_idle()
        return {
            "id": gid, "name": "Tempus club", "owner_id": "1", "icon": None, "features": [],
            "member_count": len(self.users) + 1, "large": False, "unavailable": False,
            "verification_level": 0, "default_message_notifications": 0,
            "explicit_content_filter": 0, "mfa_level": 0, "premium_tier": 0,
            "nsfw_level": 0, "preferred_locale": "en-US", "system_channel_flags": 0,
            "roles": [{"id": gid, "name": "@everyone", "permissions": str(MEMBER_PERMS),
                       "position": 0, "color": 0, "hoist": False, "managed": False,
                       "mentionable": False, "flags": 0}],
            "emojis": [], "stickers": [], "members": [], "voice_states": [], "presences": [],
            "threads": [self._thread_json(t) for t in self.threads.values()
                        if not t.archived and self.guild_of(t.id) == guild_id],
            "stage_instances": [], "guild_scheduled_events": [],
            "channels": [self._text_channel(c) for c in self.guilds[guild_id]],
        }

    def user(self, uid: int) -> dict[str, Any]:
        if str(uid) == self.bot_user["id"]:
            return dict(self.bot_user)
        out: dict[str, Any] = {"id": str(uid), "username": self.users.get(uid, f"user{uid}"),
               "discriminator": "0", "global_name": self.users.get(uid), "avatar": None}
        if uid in self.bots:
            out["bot"] = True
        return out

    # ------------------------------------------------------------------ threads
    def _thread_json(self, t: Thread) -> dict[str, Any]:
        return {
            "id": str(t.id), "type": t.type, "guild_id": str(self._channel_guild[t.parent_id]),
            "parent_id": str(t.parent_id), "name": t.name, "owner_id": str(t.owner_id),
            "last_message_id": None, "rate_limit_per_user": t.rate_limit_per_user,
            "flags": 0, "message_count": t.message_count, "member_count": 1,
            "total_message_sent": t.message_count,
            "thread_metadata": {"archived": t.archived, "archive_timestamp": TIMESTAMP,
                                "auto_archive_duration": t.auto_archive_duration,
                                "locked": t.locked, "invitable": t.invitable,
                                "create_timestamp": TIMESTAMP},
        }

    def threads_in(self, parent_id: int) -> list[Thread]:
        return [t for t in self.threads.values() if t.parent_id == parent_id]

    def _archive_idle(self) -> list[Thread]:
        """Archive threads idle for longer than their ``auto_archive_duration`` (an hour at
        least: looked at once a second of the fake's clock, not at every request, which
        with a thousand threads was a tenth of the load bench's own time)."""
        now = self.now()
        if now - self._archive_looked < ARCHIVE_LOOK_S:
            return []
        self._archive_looked = now
        done = []
        for t in self.threads.values():
            if not t.archived and now - t.last_activity > t.auto_archive_duration * 60:
                t.archived = True
                done.append(t)
        return done

    async def _archive_due(self) -> None:
        for t in self._archive_idle():
            await self._dispatch("THREAD_UPDATE", self._thread_json(t))

    def _app_permissions(self, channel_id: int) -> int:
        parent = self.threads[channel_id].parent_id if channel_id in self.threads else channel_id
        perms = MEMBER_PERMS
        if parent in self.thread_denied:
            perms &= ~CREATE_THREADS
        return perms

    # ------------------------------------------------------------------ sending interactions
    def _member(self, uid: int) -> dict[str, Any]:
        perms = str(MEMBER_PERMS | (MANAGE_CHANNELS if uid in self.managers else 0))
        return {"user": self.user(uid), "roles": [], "joined_at": "2026-01-01T00:00:00+00:00",
                "deaf": False, "mute": False, "flags": 0, "permissions": perms}

    def _channel_payload(self, channel_id: int) -> dict[str, Any]:
        """The ``channel`` object of an interaction sent from ``channel_id``."""
        if channel_id in self.dm_channels:
            return {"id": str(channel_id), "type": 1, "flags": 0, "last_message_id": None,
                    "recipients": [self.user(self.dm_channels[channel_id])]}
        if channel_id in self.threads:
            return self._thread_json(self.threads[channel_id])
        if channel_id in self._channel_guild:
            return self._text_channel(channel_id)
        raise AssertionError(f"channel {channel_id} does not exist in the fake")

    async def _interact(self, uid: int, kind: int, data: dict[str, Any], channel_id: int,
                        message: Message | None = None) -> Interaction:
        in_dm = channel_id in self.dm_channels
        guild = None if in_dm else self.guild_of(channel_id)
        if not in_dm and guild is None:
            raise AssertionError(f"channel {channel_id} does not exist in the fake")
        # (``ready`` is cleared while a new session has yet to identify: a restarted bot)
        await self.wait_for(lambda: self.ready.is_set() and self.session_for(guild), 10)
        await self._archive_due()
        channel = self._channel_payload(channel_id)
        iid = self.next_id()
        token = f"tok{iid}"
        inter = Interaction(iid, token, uid, kind, self.now(), channel_id)
        self.interactions[iid] = inter
        self.by_token[token] = inter
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(self.app_id), "type": kind, "token": token,
            "version": 1, "channel_id": str(channel_id), "channel": channel, "locale": "en-US",
            "app_permissions": str(self._app_permissions(channel_id)), "entitlements": [],
            "attachment_size_limit": MAX_ATTACHMENT,
            "authorizing_integration_owners": {"0": str(guild or self.guild_id)},
            "data": data,
        }
        if channel_id in self.dm_channels:
            payload["user"] = self.user(uid)
            payload["context"] = 1
        else:
            payload["guild_id"] = str(guild)
            payload["guild_locale"] = "en-US"
            payload["member"] = self._member(uid)
            payload["context"] = 0
        if message is not None:
            payload["message"] = message_json(self, message)
            inter.message_id = message.id
        inter.sent_at = self.now()
        inter.shard = await self._dispatch("INTERACTION_CREATE", payload)
        inter.bot_token = self._shard_tokens.get(inter.shard)
        return inter

    async def slash(self, uid: int, channel_id: int, sub: str, *, wait: bool = True,
                    **options: Any) -> Interaction:
        """``/tempus sub option=value ...`` by user ``uid``; returns once it is answered
        (unless ``wait`` is False). ``sub`` is the command path as typed: below ``/tempus``
        (``"new"``, ``"table addbot"`` for a subcommand of a group), or from another
        top-level command after a slash (``"/tempus-records show"``). Raises
        :class:`CommandUnavailable` for what Discord's client would not let the person send
        (unknown command, subcommand or option, a group or a command with subcommands
        without its subcommand, a missing required option, a value outside the registered
        choices or range, a command not offered in this channel)."""
        self._slash_allowed(channel_id)
        inter = await self._interact(uid, 2, self._command_data(sub, options, channel_id),
                                     channel_id)
        if wait:
            await self.wait_replied(inter)
        return inter

    async def autocomplete(self, uid: int, channel_id: int, sub: str, focused: str,
                           **options: Any) -> list[dict[str, Any]]:
        """The suggestions for option ``focused`` of the command path ``sub`` (as for
        :meth:`slash`) while ``options`` are typed."""
        self._slash_allowed(channel_id)
        data = self._command_data(sub, options, channel_id, focused=focused)
        inter = await self._interact(uid, 4, data, channel_id)
        await asyncio.wait_for(inter.acked.wait(), 10)
        return inter.choices or []

    def _slash_allowed(self, channel_id: int) -> None:
        self._archive_idle()
        t = self.threads.get(channel_id)
        if t is not None and t.archived:
            raise CommandUnavailable(f"thread {channel_id} is archived: Discord does not let "
                                     "people use commands there")

    def _registered(self, name: str, channel_id: int) -> tuple[dict[str, Any], bool]:
        dm = channel_id in self.dm_channels
        guild_cmds = [] if dm else self.commands_of_guild.get(self.guild_of(channel_id) or 0, [])
        for cmds, in_guild in ((guild_cmds, True), (self.commands, False)):
            for c in cmds:
                if c["name"] == name and c.get("type", 1) == 1:
                    if not available_in(c, dm=dm, guild_command=in_guild):
                        where = "a DM" if dm else "a guild channel"
                        raise CommandUnavailable(f"/{name} is not offered in {where}")
                    return c, in_guild
        raise CommandUnavailable(f"/{name} is not registered")

    def _command_data(self, sub: str, options: dict[str, Any], channel_id: int,
                      focused: str | None = None) -> dict[str, Any]:
        """The ``data`` of the interaction Discord sends for the command path ``sub``: the
        chosen subcommand (type 1) nested in its group (type 2), if any, nested in the
        top-level command, with the typed options innermost."""
        words = sub.split()
        top = words.pop(0).removeprefix("/") if sub.startswith("/") else "tempus"
        cmd, in_guild = self._registered(top, channel_id)
        spec, chain = cmd, []  # the group and subcommand options chosen, outermost first
        subs = (1, 2)  # option types SUB_COMMAND, SUB_COMMAND_GROUP
        for i, word in enumerate(words):
            found = next((o for o in spec.get("options") or [] if o["name"] == word
                          and o["type"] in subs), None)
            if found is None:
                raise CommandUnavailable(f"/{top} has no subcommand {' '.join(words[:i + 1])!r}")
            spec = found
            chain.append(found)
        path = " ".join(["/" + top, *words])
        if any(o["type"] in subs for o in spec.get("options") or []):
            # Discord offers only the leaves: a command or group with subcommands cannot run
            raise CommandUnavailable(f"{path} is not a command of its own: name its subcommand")
        known = {o["name"]: o for o in spec.get("options") or []}
        opts = []
        resolved: dict[str, Any] = {}
        for k, v in options.items():
            o = known.get(k)
            if o is None:
                raise CommandUnavailable(f"{path} has no option {k!r}")
            value, kind = _option_value(o, v, partial=k == focused)
            if isinstance(v, UserOption):  # a user option: the id plus "resolved" data
                resolved.setdefault("users", {})[str(v.id)] = self.user(v.id)
                member = {k2: x for k2, x in self._member(v.id).items() if k2 != "user"}
                resolved.setdefault("members", {})[str(v.id)] = member
            item: dict[str, Any] = {"name": k, "type": kind, "value": value}
            if k == focused:
                item["focused"] = True
            opts.append(item)
        if focused is not None and focused not in options:
            o = known.get(focused)
            if o is None or not o.get("autocomplete"):
                raise CommandUnavailable(f"{path} {focused} does not autocomplete")
            opts.append({"name": focused, "type": o["type"], "value": "", "focused": True})
        if focused is None:
            missing = [n for n, o in known.items() if o.get("required") and n not in options]
            if missing:
                raise CommandUnavailable(f"{path} needs {', '.join(missing)}")
        for node in reversed(chain):
            opts = [{"name": node["name"], "type": node["type"], "options": opts}]
        data: dict[str, Any] = {"id": cmd["id"], "name": top, "type": 1, "options": opts}
        if in_guild:
            data["guild_id"] = str(self.guild_of(channel_id))
        if resolved:
            data["resolved"] = resolved
        return data

    async def click(self, uid: int, message: Message, custom_id: str,
                    values: list[str] | None = None, *, wait: bool = True) -> Interaction:
        """Press a button (or choose ``values`` in a select) of ``message``."""
        if custom_id not in message.custom_ids():
            raise AssertionError(f"{custom_id} is not on message {message.id}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if values is not None:
            data = {"custom_id": custom_id, "component_type": 3, "values": values}
        inter = await self._interact(uid, 3, data, message.channel_id, message)
        if wait:
            await self.wait_replied(inter)
        return inter

    async def wait_replied(self, inter: Interaction, timeout: float = 30) -> None:
        """Until acknowledged and, for a deferred reply, the follow-up has come."""
        await asyncio.wait_for(inter.acked.wait(), timeout)
        if inter.response_type == 5:  # deferred with a message to come
            await asyncio.wait_for(inter.replied.wait(), timeout)

    # ------------------------------------------------------------------ what users see
    def channel_messages(self, channel_id: int) -> list[Message]:
        """Public messages of a text channel or a thread (pass the thread's id)."""
        return [m for m in self._by_channel.get(channel_id, ()) if m.public]

    def dms(self, uid: int) -> list[Message]:
        return [m for m in self.order if m.where == "dm" and m.to_user == uid]

    def seen_by(self, uid: int) -> list[Message]:
        return [m for m in self.order if m.public or m.to_user == uid]

    async def wait_for(self, pred: Callable[[], Any], timeout: float = 30) -> Any:
        async with self.changed:
            return await asyncio.wait_for(self.changed.wait_for(pred), timeout)

    async def wait_for_change(self, timeout: float = 30) -> None:
        """Wait until anything changes at the fake from now on."""
        since = self.changes
        await self.wait_for(lambda: self.changes > since, timeout)

    async def _changed(self) -> None:
        self.changes += 1
        self.last_change = loop_time()
        async with self.changed:
            self.changed.notify_all()

    # ------------------------------------------------------------------ REST
    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        method = request.method
        parts = path.strip("/").split("/")
        now = self.now()
        interaction_route = parts[0] in ("interactions", "webhooks")
        self.requests[route_name(method, parts)] += 1
        if not interaction_route:  # the global limit spares interaction endpoints
            refusal = self.limiter.check_global(now)
            if refusal is not None:
                body, headers = too_many(refusal, None, now)
                return self._answer(method, path, _json(body, 429), headers)
        bucket_headers: dict[str, str] = {}
        route, key, channel = _bucket_of(method, parts)
        if route is not None and key is not None:
            if channel is not None and route in (POST, EDIT):
                fault = self.limiter.fault(now, channel, route)
                if fault is not None:
                    return self._answer(method, path, *_forced(fault))
            inter = self.by_token.get(str(key)) if route == "webhook" else None
            if inter is not None:  # a follow-up or an edit with a token, in its channel
                fault = self.limiter.fault(now, inter.channel_id,
                                           POST if method == "POST" else EDIT)
                if fault is not None:
                    return self._answer(method, path, *_forced(fault))
            bucket, refusal = self.limiter.check_route(now, route, key, channel)
            if refusal is not None:
                body, headers = too_many(refusal, bucket, now)
                return self._answer(method, path, _json(body, 429), headers)
            if bucket is not None:
                bucket_headers = bucket.headers(now)
        try:
            resp = await self._route(request, method, parts)
        except DiscordLimit as exc:
            self.errors.append(f"{method} {path}: {exc}")
            resp = _error(50035, f"Invalid Form Body: {exc}", 400)
        return self._answer(method, path, resp, bucket_headers)

    def _answer(self, method: str, path: str, resp: web.Response,
                headers: dict[str, str]) -> web.Response:
        # discord.py retries a 429 only if it came through Discord's proxy ("Via")
        resp.headers["Via"] = "1.1 google"
        resp.headers.update(headers)
        if resp.status >= 300:
            code = None
            if isinstance(resp.body, bytes):  # (our errors: JSON bytes)
                with contextlib.suppress(Exception):
                    code = json.loads(resp.body)["code"]
            self.failures.append((method, path, resp.status, code))
        return resp

    async def _route(self, request: web.Request, method: str, parts: list[str]
                     ) -> web.Response:
        match (method, parts):
            case ("GET", ["users", "@me"]):
                scheme, _, token = request.headers.get("Authorization", "").partition(" ")
                if scheme == "Bearer":
                    uid = self.access_tokens.get(token)
                    if uid is None:
                        return _error(0, "401: Unauthorized", 401)
                    user = self.user(uid)
                    user.update(locale="en-US", mfa_enabled=False, flags=0, public_flags=0,
                                premium_type=0)
                    self._spec("UserPIIResponse", user)
                    return _json(user)
                return _json(self.bot_user)
            case ("POST", ["oauth2", "token"]):
                return await self._oauth_token(request)
            case ("POST", ["oauth2", "token", "revoke"]):
                form = await request.post()
                if form.get("client_id") != str(self.app_id) \
                        or form.get("client_secret") != self.client_secret:
                    return _json({"error": "invalid_client"}, 401)
                self.access_tokens.pop(str(form.get("token", "")), None)
                self.revoked += 1
                return _json({})
            case ("GET", ["applications", app, "activity-instances", iid]):
                scheme, _, token = request.headers.get("Authorization", "").partition(" ")
                if scheme != "Bot" or token not in self.bot_tokens:
                    return _error(0, "401: Unauthorized", 401)
                found = self.activity_instances.get(iid)
                if app != str(self.app_id) or found is None:
                    return _error(0, "404: Not Found", 404)
                self._spec("EmbeddedActivityInstance", found)
                return _json(found)
            case ("GET", ["oauth2", "applications", "@me"]):
                return _json({"id": str(self.app_id), "name": "Tempus", "icon": None,
                              "description": "", "rpc_origins": [], "bot_public": True,
                              "bot_require_code_grant": False, "owner": self.user(1),
                              "verify_key": "00", "flags": self.app_flags, "team": None,
                              "summary": ""})
            case ("GET", ["gateway"]):
                return _json({"url": self.gateway})
            case ("GET", ["gateway", "bot"]):
                # Get Gateway Bot (developers/topics/gateway): the recommended shard count
                # and the session start limit (reset_after in milliseconds)
                return _json({"url": self.gateway, "shards": self.recommended_shards,
                              "session_start_limit": {
                                  "total": 1000, "remaining": 1000 - len(self.identified),
                                  "reset_after": 86_400_000, "max_concurrency": 1}})
            case ("PUT", ["applications", _, "commands"]):
                return await self._register(request, guild=None)
            case ("PUT", ["applications", _, "guilds", gid, "commands"]):
                if int(gid) not in self.guilds:
                    return _error(50001, "Missing Access", 403)
                return await self._register(request, guild=int(gid))
            case ("GET", ["applications", _, "commands"]):
                return _json(self.commands)
            case ("GET", ["applications", _, "guilds", gid, "commands"]):
                return _json(self.commands_of_guild.get(int(gid), []))
            case ("GET", ["users", uid]):
                return _json(self.user(int(uid)))
            case ("POST", ["users", "@me", "channels"]):
                body = await request.json()
                recipient = int(body["recipient_id"])
                cid = self.dm_channel(recipient)
                return _json({"id": str(cid), "type": 1, "recipients": [self.user(recipient)],
                              "last_message_id": None})
            case ("GET", ["channels", cid]):
                return await self._get_channel(int(cid))
            case ("PATCH", ["channels", cid]):
                return await self._edit_thread(request, int(cid))
            case ("POST", ["channels", cid, "messages"]):
                return await self._channel_post(request, int(cid))
            case ("GET", ["channels", cid, "messages", mid]):
                msg = self.messages.get(int(mid))
                if msg is None or msg.channel_id != int(cid) or msg.where == "ephemeral":
                    return _error(10008, "Unknown Message", 404)
                return _json(message_json(self, msg))
            case ("PATCH", ["channels", cid, "messages", mid]):
                return await self._channel_edit(request, int(cid), int(mid))
            case ("POST", ["channels", cid, "messages", mid, "threads"]):
                return await self._start_thread(request, int(cid), int(mid))
            case ("POST", ["channels", cid, "threads"]):
                return await self._start_thread(request, int(cid), None)
            case ("PUT", ["channels", cid, "thread-members", uid]):
                return self._add_thread_member(int(cid), int(uid))
            case ("POST", ["interactions", iid, token, "callback"]):
                return await self._callback(request, int(iid), token)
            case ("POST", ["webhooks", _, token]):
                return await self._followup(request, token)
            case ("PATCH", ["webhooks", _, token, "messages", mid]):
                return await self._webhook_edit(request, token, mid)
            case ("GET", ["webhooks", _, token, "messages", mid]):
                inter, refused = self._token(token)
                if inter is None:
                    return refused
                target = inter.original_id if mid == "@original" else int(mid)
                if target is None or target not in self.messages:
                    return _error(10008, "Unknown Message", 404)
                return _json(message_json(self, self.messages[target]))
        self.errors.append(f"not implemented: {method} /{'/'.join(parts)}")
        return _error(0, "not implemented by the fake", 404)

    # ------------------------------------------------------------------ commands
    async def _register(self, request: web.Request, *, guild: int | None) -> web.Response:
        """Bulk overwrite the global commands (``guild`` None) or a guild's."""
        body = await request.json()
        entry = [c for c in self.commands if c.get("type") == ENTRY_POINT]
        if guild is None and entry and isinstance(body, list) \
                and not any(isinstance(c, dict) and c.get("type") == ENTRY_POINT for c in body):
            # Discord made it when Activities were enabled; an overwrite may not drop it
            self.errors.append("global commands overwritten without the Entry Point command")
            return _error(50240, "You cannot remove this app's Entry Point command in a bulk "
                                 "update operation.", 400)
        problems = command_problems(body, guild=guild is not None)
        if problems:
            scope = "guild" if guild is not None else "global"
            self.errors.append(f"{scope} command registration refused: "
                               + "; ".join(problems[:5]))
            return _json({"code": 50035, "message": "Invalid Form Body",
                          "errors": {"_errors": [{"code": "BASE_TYPE_INVALID",
                                                  "message": p} for p in problems]}}, 400)
        registered = [{**c, "id": str(c.get("id") or self.next_id()),
                       "application_id": str(self.app_id),
                       "version": "1", **({"guild_id": str(guild)} if guild is not None else {})}
                      for c in body]
        if guild is not None:
            self.commands_of_guild[guild] = registered
        else:
            self.commands = registered
        return _json(registered)

    # ------------------------------------------------------------------ channels
    async def _get_channel(self, c: int) -> web.Response:
        await self._archive_due()
        if c in self.dm_channels:
            return _json({"id": str(c), "type": 1,
                          "recipients": [self.user(self.dm_channels[c])]})
        if c in self._channel_guild:
            return _json(self._text_channel(c))
        if c in self.threads:
            return _json(self._thread_json(self.threads[c]))
        return _error(10003, "Unknown Channel", 404)

    async def _edit_thread(self, request: web.Request, cid: int) -> web.Response:
        """Modify Channel on a thread, ``archived`` only (developers/topics/threads,
        "Editing & Deleting Threads"): setting ``archived`` to false needs only that the
        bot is a member of the thread; of a locked one, that it started it (the fake's bot
        has no Manage Threads). Anything else is a request the fake does not implement."""
        await self._archive_due()
        if cid in self.deleted_channels:
            return _error(10003, "Unknown Channel", 404)
        t = self.threads.get(cid)
        body = await request.json()
        if t is None or set(body) != {"archived"} or body["archived"] is not False:
            self.errors.append(f"not implemented: PATCH /channels/{cid} {sorted(body)}")
            return _error(0, "not implemented by the fake", 404)
        bot = int(self.bot_user["id"])
        if not t.bot_member or (t.locked and t.owner_id != bot):
            return _error(50013, "Missing Permissions", 403)
        if t.archived:
            t.archived = False
            t.last_activity = self.now()  # unarchiving is activity
            await self._dispatch("THREAD_UPDATE", self._thread_json(t))
            self.unarchived.append(cid)
        await self._changed()
        return _json(self._thread_json(t))

    async def _start_thread(self, request: web.Request, cid: int, mid: int | None
                            ) -> web.Response:
        """Start Thread from Message / without Message (developers/resources/channel)."""
        if cid in self.threads or cid in self.dm_channels:
            return _error(50024, "Cannot execute action on this channel type", 400)
        if cid not in self._channel_guild:
            return _error(10003, "Unknown Channel", 404)
        source = None
        if mid is not None:
            source = self.messages.get(mid)
            if source is None or source.channel_id != cid or not source.public:
                return _error(10008, "Unknown Message", 404)
            if source.thread_id is not None:
                return _error(160004, "A thread has already been created for this message",
                              400)
        body = await request.json()
        kind = PUBLIC_THREAD if mid is not None else body.get("type") or PRIVATE_THREAD
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
            raise DiscordLimit(f"thread type {kind!r} cannot be started in a text channel")
        if cid in self.thread_denied:
            return _error(50013, "Missing Permissions", 403)
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= 100:
            raise DiscordLimit(f"thread name {name!r} must be 1-100 characters")
        duration = body.get("auto_archive_duration")
        if duration is None:
            duration = 1440  # the channel's default_auto_archive_duration
        if duration not in ARCHIVE_DURATIONS:
            raise DiscordLimit(f"auto_archive_duration {duration!r} not one of "
                               f"{ARCHIVE_DURATIONS}")
        slow = body.get("rate_limit_per_user")
        if slow is not None and not (isinstance(slow, int) and 0 <= slow <= 21600):
            raise DiscordLimit(f"rate_limit_per_user {slow!r} not within 0-21600")
        now = self.now()
        tid = mid if mid is not None else self.next_id()
        t = Thread(tid, cid, name.strip(), kind, duration, now, now, int(self.bot_user["id"]),
                   message_id=mid, invitable=bool(body.get("invitable", True)),
                   rate_limit_per_user=slow or 0)
        self.threads[tid] = t
        data = self._thread_json(t)
        await self._dispatch("THREAD_CREATE", {
            **data, "newly_created": True,
            "member": {"id": str(tid), "user_id": self.bot_user["id"],
                       "join_timestamp": TIMESTAMP, "flags": 0}})
        if source is not None:
            source.thread_id = tid
            await self._dispatch("MESSAGE_UPDATE", message_json(self, source))
        await self._changed()
        return _json(data, 201)

    def _add_thread_member(self, cid: int, uid: int) -> web.Response:
        """Add Thread Member (developers/resources/channel): the bot, a member of the
        thread, adds a person (no message, no mention). 204 No Content."""
        t = self.threads.get(cid)
        if t is None or cid in self.deleted_channels:
            return _error(10003, "Unknown Channel", 404)
        if t.archived:
            return _error(50083, "Thread is archived", 400)
        if not t.bot_member:
            return _error(50001, "Missing Access", 403)
        t.members.add(uid)
        return web.Response(status=204)

    def _writable(self, cid: int) -> web.Response | None:
        """Why a message cannot be posted in ``cid`` (None if it can)."""
        if cid in self.dm_channels:
            if self.dm_channels[cid] in self.dm_closed:
                return _error(50007, "Cannot send messages to this user", 403)
            return None
        if cid in self.threads:
            t = self.threads[cid]
            if t.archived and t.locked:
                return _error(160005, "Thread is locked", 400)
            return None
        if cid in self._channel_guild:
            return None
        return _error(10003, "Unknown Channel", 404)

    async def _channel_post(self, request: web.Request, cid: int) -> web.Response:
        await self._archive_due()
        refused = self._writable(cid)
        if refused is not None:
            return refused
        payload, files = await _read_body(request)
        t = self.threads.get(cid)
        if t is not None and t.archived:  # sending a message unarchives a thread
            t.archived = False
            await self._dispatch("THREAD_UPDATE", self._thread_json(t))
        msg = Message(self.next_id(), cid, "", [], [], created=self.now())
        if cid in self.dm_channels:
            msg.where, msg.to_user = "dm", self.dm_channels[cid]
        self._apply(msg, payload, files, new=True)
        msg.token = request.headers.get("Authorization", "").removeprefix("Bot ") or None
        msg.mentions = _mentions(msg.content, payload.get("allowed_mentions"))
        self._add(msg)
        self.limiter.record(Write(self.now(), cid, POST, msg.id, files=len(files)))
        await self._changed()
        return _json(message_json(self, msg))

    async def _channel_edit(self, request: web.Request, cid: int, mid: int) -> web.Response:
        await self._archive_due()
        if cid in self.deleted_channels:
            return _error(10003, "Unknown Channel", 404)
        msg = self.messages.get(mid)
        # ephemeral replies can only be edited through their interaction's webhook
        if msg is None or msg.channel_id != cid or msg.where == "ephemeral":
            return _error(10008, "Unknown Message", 404)
        t = self.threads.get(cid)
        if t is not None and t.archived:
            return _error(50083, "Thread is archived", 400)
        payload, files = await _read_body(request)
        self._apply(msg, payload, files)
        msg.edits += 1
        self.limiter.record(Write(self.now(), cid, EDIT, mid, files=len(files)))
        await self._changed()
        return _json(message_json(self, msg))

    # ------------------------------------------------------------------ interactions
    async def _callback(self, request: web.Request, iid: int, token: str) -> web.Response:
        inter = self.interactions.get(iid)
        if inter is None or inter.token != token or inter.invalid:
            return _error(10062, "Unknown interaction", 404)
        if self.callback_faults:
            status = self.callback_faults.pop(0)
            return _json({"code": 0, "message": f"{status}: forced by the test"}, status)
        if inter.acked.is_set():
            self.errors.append(f"interaction {iid} acknowledged twice")
            return _error(40060, "Interaction has already been acknowledged.", 400)
        now = self.now()
        if now - inter.sent_at > ACK_DEADLINE:
            inter.invalid = True  # Discord invalidates the token after the deadline
            self.errors.append(f"interaction {iid} answered {now - inter.sent_at:.1f} s "
                               "after it was sent (Discord allows 3 s)")
            return _error(10062, "Unknown interaction", 404)
        payload, files = await _read_body(request)
        rtype = int(payload.get("type") or 0)
        if rtype == 12:
            return await self._launch(inter, payload)
        if rtype not in ALLOWED_CALLBACKS.get(inter.kind, set()):
            raise DiscordLimit(f"callback type {rtype} is not valid for a "
                               f"{INTERACTION_NAMES.get(inter.kind, inter.kind)} interaction")
        data = payload.get("data") or {}
        resource: dict[str, Any] = {"type": rtype}
        flags = int(data.get("flags") or 0)
        if rtype == 8:
            choices = data.get("choices")
            if not isinstance(choices, list):
                raise DiscordLimit("an autocomplete result needs data.choices")
            if len(choices) > MAX_CHOICES:
                raise DiscordLimit(f"{len(choices)} autocomplete choices")
            for c in choices:
                if not 1 <= len(str(c.get("name", ""))) <= 100 or len(str(c["value"])) > 100:
                    raise DiscordLimit("autocomplete choice name or value over 100 characters")
            inter.choices = choices
        elif rtype == 9:
            inter.modal = _check_modal(data)
            inter.replied.set()
        elif rtype == 4:
            msg = self._store(self.next_id(), data, files, inter)
            resource["message"] = message_json(self, msg)
            inter.replied.set()
        elif rtype == 5:
            if flags & ~EPHEMERAL:
                raise DiscordLimit(f"a deferred reply may only carry the EPHEMERAL flag, "
                                   f"not {flags}")
            msg = self._store(self.next_id(), {"content": "", "flags": flags}, [], inter,
                              placeholder=True)
            inter.original_id = msg.id
            resource["message"] = message_json(self, msg)
        elif rtype == 6:
            if inter.message_id is not None:  # "@original" is now the clicked message
                inter.original_id, inter.original_used = inter.message_id, True
            inter.replied.set()
        elif rtype == 7:
            target = self.messages.get(inter.message_id or -1)
            if target is None:
                return _error(10008, "Unknown Message", 404)
            self._apply(target, data, files)
            target.edits += 1
            inter.original_id, inter.original_used = target.id, True
            self.limiter.record(Write(now, target.channel_id, EDIT, target.id, True,
                                      files=len(files)))
            inter.replied.set()
        inter.response_type = rtype
        inter.ephemeral = bool(flags & EPHEMERAL)
        inter.acked_at = now
        inter.acked.set()
        await self._changed()
        body = {"interaction": {"id": str(iid), "type": inter.kind,
                                "response_message_loading": rtype == 5,
                                "response_message_ephemeral": inter.ephemeral},
                "resource": resource}
        return _json(body)

    # ------------------------------------------------------------------ Activities
    @property
    def app_flags(self) -> int:
        return EMBEDDED if self.activities else 0

    def enable_activities(self, *, in_threads: bool = True) -> None:
        self.activities = True
        self.activities_in_threads = in_threads
        # enabling Activities in the developer portal makes the app's Entry Point command,
        # "Launch", which Discord itself handles (handler 2: it launches the Activity)
        if not any(c.get("type") == ENTRY_POINT for c in self.commands):
            self.commands.append({
                "id": str(self.next_id()), "application_id": str(self.app_id), "version": "1",
                "type": ENTRY_POINT, "name": "launch", "description": "", "handler": 2,
                "integration_types": [0, 1], "contexts": [0, 1, 2]})

    @property
    def bot_tokens(self) -> set[str]:
        """The tokens the bot may call with: those its sessions identified with (the
        tests' default one when no session has)."""
        return {t for t in self._shard_tokens.values() if t} or {"fake-token"}

    def activity_instance(self, channel_id: int, guild_id: int | None,
                          users: list[int]) -> str:
        """An instance of the app's Activity running in ``channel_id`` with ``users`` in
        it, as Discord keeps it (a launch makes one); its id."""
        launch = self.next_id()
        location_id = f"gc-{guild_id}-{channel_id}"
        iid = f"i-{launch}-{location_id}"
        self.activity_instances[iid] = {
            "application_id": str(self.app_id), "instance_id": iid, "launch_id": str(launch),
            "location": {"id": location_id, "kind": "gc", "channel_id": str(channel_id),
                         "guild_id": str(guild_id)},
            "users": [str(u) for u in users]}
        return iid

    def authorize(self, uid: int) -> str:
        """The one-time code the Embedded App SDK's authorize step gives ``uid``."""
        code = f"code{next(self._ids)}"
        self.oauth_codes[code] = uid
        return code

    def _spec(self, schema: str, body: Any) -> None:
        """A body that breaks Discord's API description is the test's (or fake's) error."""
        for problem in spec_problems(schema, body):
            self.errors.append(f"{schema}: {problem}")

    async def _launch(self, inter: Interaction, payload: dict[str, Any]) -> web.Response:
        """LAUNCH_ACTIVITY: the app's Activity opens in the click's channel."""
        self._spec("LaunchActivityInteractionCallbackRequest", payload)
        if not self.activities or inter.kind not in LAUNCHES:
            raise DiscordLimit(f"callback type 12 for a "
                               f"{INTERACTION_NAMES.get(inter.kind, inter.kind)} interaction "
                               f"of an app {'with' if self.activities else 'without'} "
                               "Activities")
        if inter.channel_id in self.threads and not self.activities_in_threads:
            return _error(50039, "Invalid Activity Action", 400)
        iid = self.activity_instance(inter.channel_id, self.guild_of(inter.channel_id),
                                     [inter.user_id])
        inter.response_type = 12
        inter.acked_at = self.now()
        inter.acked.set()
        inter.replied.set()
        await self._changed()
        resource = {"type": 12, "activity_instance": {"id": iid}}
        self._spec("LaunchActivityInteractionCallbackResponse", resource)
        return _json({"interaction": {"id": str(inter.id), "type": inter.kind,
                                      "activity_instance_id": iid,
                                      "response_message_loading": False,
                                      "response_message_ephemeral": False},
                      "resource": resource})

    async def _oauth_token(self, request: web.Request) -> web.Response:
        """The authorization code grant (developers/topics/oauth2), form-encoded."""
        form = await request.post()
        if form.get("client_id") != str(self.app_id) \
                or form.get("client_secret") != self.client_secret:
            return _json({"error": "invalid_client"}, 401)
        if form.get("grant_type") != "authorization_code":
            return _json({"error": "unsupported_grant_type"}, 400)
        uid = self.oauth_codes.pop(str(form.get("code", "")), None)
        if uid is None:
            return _json({"error": "invalid_grant",
                          "error_description": 'Invalid "code" in request.'}, 400)
        token = f"access{next(self._ids)}"
        self.access_tokens[token] = uid
        return _json({"access_token": token, "token_type": "Bearer", "expires_in": 604800,
                      "refresh_token": f"refresh{next(self._ids)}", "scope": "identify"})

    def _token(self, token: str) -> tuple[Interaction | None, web.Response]:
        """The interaction behind a webhook token, or Discord's answer when it is unusable."""
        inter = self.by_token.get(token)
        if inter is None or inter.invalid or not inter.acked.is_set():
            return None, _error(10015, "Unknown Webhook", 404)
        age = self.now() - inter.sent_at
        if age > TOKEN_LIFETIME:
            self.errors.append(f"interaction {inter.id} token used {age / 60:.1f} min after "
                               "the interaction (tokens last 15 min)")
            return None, _error(50027, "Invalid Webhook Token", 401)
        return inter, _json({})

    async def _followup(self, request: web.Request, token: str) -> web.Response:
        inter, refused = self._token(token)
        if inter is None:
            return refused
        payload, files = await _read_body(request)
        original = inter.original_id
        if original is not None and not inter.original_used:
            # the first follow-up of a deferred ("thinking") reply replaces the placeholder
            # (Discord still does it, but documents it as deprecated: "edit the original
            # response" is the way)
            self.deferral_followups += 1
            self.errors.append(f"interaction {inter.id}: a follow-up filled its deferred "
                               "reply (deprecated: edit the original response)")
            inter.original_used = True
            msg = self.messages[original]
            self._apply(msg, payload, files)
            if msg.public:  # the reply is written now: it pings now
                msg.mentions = _mentions(msg.content, payload.get("allowed_mentions"))
            self.limiter.record(Write(self.now(), msg.channel_id, EDIT, msg.id, True,
                                      files=len(files)))
        else:
            msg = self._store(self.next_id(), payload, files, inter)
        inter.replied.set()
        await self._changed()
        return _json(message_json(self, msg))

    async def _webhook_edit(self, request: web.Request, token: str, mid: str
                            ) -> web.Response:
        inter, refused = self._token(token)
        if inter is None:
            return refused
        target = inter.original_id if mid == "@original" else int(mid)
        msg = self.messages.get(target) if target is not None else None
        if msg is None or (msg not in inter.replies and msg.id != inter.original_id):
            return _error(10008, "Unknown Message", 404)
        if msg.channel_id in self.deleted_channels:
            return _error(10003, "Unknown Channel", 404)
        t = self.threads.get(msg.channel_id)
        if t is not None and t.archived:
            return _error(50083, "Thread is archived", 400)
        payload, files = await _read_body(request)
        self._apply(msg, payload, files)
        inter.original_used = inter.original_used or mid == "@original"
        msg.edits += 1
        if msg not in inter.replies:
            inter.replies.append(msg)
        self.limiter.record(Write(self.now(), msg.channel_id, EDIT, msg.id, True,
                                  files=len(files)))
        inter.replied.set()
        await self._changed()
        return _json(message_json(self, msg))

    # ------------------------------------------------------------------ messages
    def _store(self, mid: int, data: dict[str, Any], files: list[tuple[int, Attachment]],
               inter: Interaction, placeholder: bool = False) -> Message:
        flags = int(data.get("flags") or 0)
        msg = Message(mid, inter.channel_id, "", [], [], flags=flags,
                      interaction_id=inter.id, created=self.now(), token=inter.bot_token)
        if flags & EPHEMERAL:
            msg.where, msg.to_user = "ephemeral", inter.user_id
        if not placeholder:
            self._apply(msg, data, files, new=True)
            if msg.public:  # a public reply or follow-up pings like any new message
                msg.mentions = _mentions(msg.content, data.get("allowed_mentions"))
        self.limiter.record(Write(self.now(), msg.channel_id, POST, msg.id, True,
                                  files=len(files)))
        self._add(msg)
        inter.replies.append(msg)
        return msg

    def _add(self, msg: Message) -> None:
        self.messages[msg.id] = msg
        self.order.append(msg)
        self._by_channel.setdefault(msg.channel_id, []).append(msg)
        t = self.threads.get(msg.channel_id)
        if t is not None and msg.public:
            t.message_count += 1
            t.last_activity = self.now()
        if self.on_message is not None:
            self.on_message(msg)

    def _apply(self, msg: Message, data: dict[str, Any], files: list[tuple[int, Attachment]],
               new: bool = False) -> None:
        """Apply a create (``new``) or edit body to ``msg``; nothing changes if Discord
        would refuse it (:class:`DiscordLimit`)."""
        out = dataclasses.replace(msg, attachments=list(msg.attachments))
        if "content" in data and data["content"] is not None:
            out.content = str(data["content"])
        if "components" in data and data["components"] is not None:
            out.components = data["components"]
        if "flags" in data and data["flags"] is not None and new:
            out.flags = int(data["flags"])
        out.attachments = self._attachments(msg.attachments if not new else [],
                                            data.get("attachments"), files)
        _check_limits(out)
        if not (out.content or out.components or out.attachments
                        or data.get("embeds") or data.get("sticker_ids")):
            raise DiscordLimit("an empty message (no content, components, embeds or files)")
        for f in dataclasses.fields(Message):
            setattr(msg, f.name, getattr(out, f.name))

    def _attachments(self, old: list[Attachment], listed: Any,
                     files: list[tuple[int, Attachment]]) -> list[Attachment]:
        """The attachments after a create or edit: without an ``attachments`` array, uploads
        are appended; with one, exactly the listed ones remain (API v10): kept ones by
        their id, new ones by the index of their ``files[n]`` part."""
        uploads = dict(files)
        if listed is None:
            result = list(old) + [a for _, a in files]
        else:
            if not isinstance(listed, list):
                raise DiscordLimit("attachments must be a list")
            kept = {a.id: a for a in old}
            result = []
            for entry in listed:
                aid = int(entry["id"])
                if aid in uploads:
                    a = uploads[aid]
                    if entry.get("filename"):
                        a.filename = str(entry["filename"])
                    a.description = entry.get("description")
                elif aid in kept:
                    a = kept[aid]
                    if "description" in entry:
                        a.description = entry["description"]
                else:
                    raise DiscordLimit(f"attachment {aid} is neither an upload nor on the "
                                       "message")
                result.append(a)
        for a in result:
            if a.id == 0:
                a.id = self.next_id()
        return result


def _option_value(spec: dict[str, Any], v: Any, *, partial: bool) -> tuple[Any, int]:
    """The value and type to send for option ``spec``, as Discord's client would allow
    (a :class:`Forged` value is sent as it is, with the registered type)."""
    kind = spec["type"]
    name = spec["name"]
    if isinstance(v, Forged):
        return v.value, kind
    value: str | bool | int | float
    if isinstance(v, UserOption):
        ok, value = kind == 6, str(v.id)
    elif isinstance(v, bool):
        ok, value = kind == 5, v
    elif isinstance(v, int):
        ok, value = kind in (4, 10), v
    elif isinstance(v, float):
        ok, value = kind == 10, v
    else:
        ok, value = kind == 3, str(v)
    if not ok:
        raise CommandUnavailable(f"option {name!r} is of type {kind}, not {v!r}")
    if partial:  # being typed: autocomplete sees whatever is there so far
        return value, kind
    choices = spec.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise CommandUnavailable(f"option {name!r} must be one of the registered choices, "
                                 f"not {v!r}")
    lo, hi = spec.get("min_value"), spec.get("max_value")
    if kind in (4, 10) and (lo is not None and value < lo or hi is not None and value > hi):
        raise CommandUnavailable(f"option {name!r} must be within {lo}-{hi}, not {v!r}")
    lo, hi = spec.get("min_length"), spec.get("max_length")
    if kind == 3 and isinstance(value, str) and (lo is not None and len(value) < lo
                                                 or hi is not None and len(value) > hi):
        raise CommandUnavailable(f"option {name!r} must be {lo}-{hi} characters")
    return value, kind


def _check_modal(data: dict[str, Any]) -> dict[str, Any]:
    cid, title = data.get("custom_id") or "", data.get("title") or ""
    if not 1 <= len(cid) <= MAX_CUSTOM_ID:
        raise DiscordLimit(f"modal custom id {cid!r} missing or too long")
    if not 1 <= len(title) <= MAX_MODAL_TITLE:
        raise DiscordLimit(f"modal title {title!r} must be 1-{MAX_MODAL_TITLE} characters")
    if not 1 <= len(data.get("components") or []) <= MAX_ROWS:
        raise DiscordLimit("a modal needs 1-5 components")
    return data


def route_name(method: str, parts: list[str]) -> str:
    """A request's method and route with its ids and tokens left out (``PATCH
    webhooks/{id}/{token}/messages/{id}``): for counting requests by kind."""
    token = 2 if parts[0] in ("interactions", "webhooks") else -1
    return method + " " + "/".join("{token}" if i == token else "{id}" if p.isdigit() else p
                                   for i, p in enumerate(parts))


def _bucket_of(method: str, parts: list[str]) -> tuple[str | None, int | str | None,
                                                       int | None]:
    """(route, bucket key, channel id) of a request the fake rate-limits."""
    match (method, parts):
        case ("POST", ["channels", cid, "messages"]):
            return POST, int(cid), int(cid)
        case ("PATCH", ["channels", cid, "messages", _]):
            return EDIT, int(cid), int(cid)
        case ("POST" | "PATCH", ["webhooks", _, token, *_]):
            return "webhook", token, None
    return None, None, None


def _forced(fault: Fault) -> tuple[web.Response, dict[str, str]]:
    if fault.status == 429:
        r = Refusal(0.0, "forced", None, "shared", False, fault.retry_after)
        body, headers = too_many(r, None, 0.0, message="The resource is being rate limited.")
        return _json(body, 429), headers
    return _json({"code": 0, "message": f"{fault.status}: forced by the test"},
                 fault.status), {}


def _json(body: Any, status: int = 200) -> web.Response:
    # discord.py parses JSON only for exactly "application/json" (no charset)
    return web.Response(body=json.dumps(body).encode(), status=status,
                        headers={"Content-Type": "application/json"})


def _error(code: int, message: str, status: int) -> web.Response:
    return _json({"code": code, "message": message}, status)


async def _read_body(request: web.Request
                     ) -> tuple[dict[str, Any], list[tuple[int, Attachment]]]:
    """JSON or multipart (``payload_json`` + ``files[n]``); files come with their n."""
    if not request.can_read_body:
        return {}, []
    if request.content_type.startswith("multipart/"):
        payload: dict[str, Any] = {}
        files: list[tuple[int, Attachment]] = []
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                # discord.py sends the payload and the files side by side, never nested
                raise DiscordLimit("a multipart body nested in a multipart body")
            if part.name == "payload_json":
                payload = json.loads(await part.text())
                continue
            data = await part.read()
            m = re.fullmatch(r"files\[(\d+)\]", part.name or "")
            index = int(m.group(1)) if m else len(files)
            files.append((index, Attachment(part.filename or "file", bytes(data))))
        return payload, files
    return await request.json(), []


def _mentions(content: str, allowed: dict[str, Any] | None) -> list[int]:
    """Users actually pinged: mentioned in the text and allowed by ``allowed_mentions``."""
    named = [int(x) for x in re.findall(r"<@!?(\d+)>", content)]
    if allowed is None:
        return named
    users = allowed.get("users")
    parse = allowed.get("parse") or []
    if "users" in parse:
        return named
    if users:
        ok = {int(u) for u in users}
        return [u for u in named if u in ok]
    return []


def _check_limits(msg: Message) -> None:
    if len(msg.content) > MAX_CONTENT:
        raise DiscordLimit(f"content of {len(msg.content)} characters")
    if len(msg.components) > MAX_ROWS:
        raise DiscordLimit(f"{len(msg.components)} component rows")
    seen: set[str] = set()
    for row in msg.components:
        items = row.get("components", [])
        if row.get("type") != 1 or not 1 <= len(items) <= MAX_ROW_BUTTONS:
            raise DiscordLimit("an action row must hold 1-5 components")
        selects = [c for c in items if c.get("type") != 2]
        if selects and len(items) != 1:
            raise DiscordLimit("a select must be alone in its row")
        for c in items:
            cid = c.get("custom_id", "")
            if not cid or len(cid) > MAX_CUSTOM_ID:
                raise DiscordLimit(f"custom id {cid!r} missing or too long")
            if cid in seen:
                raise DiscordLimit(f"custom id {cid!r} used twice in one message")
            seen.add(cid)
            if c.get("type") == 2:
                if len(c.get("label") or "") > MAX_LABEL:
                    raise DiscordLimit("button label over 80 characters")
            else:
                opts = c.get("options", [])
                if not 1 <= len(opts) <= MAX_OPTIONS:
                    raise DiscordLimit(f"select with {len(opts)} options")
                if len(c.get("placeholder") or "") > MAX_PLACEHOLDER:
                    raise DiscordLimit("placeholder over 150 characters")
                lo, hi = c.get("min_values", 1), c.get("max_values", 1)
                if not 0 <= lo <= hi <= len(opts):
                    raise DiscordLimit(f"select min/max {lo}/{hi} with {len(opts)} options")
                values = [o["value"] for o in opts]
                if len(set(values)) != len(values):
                    raise DiscordLimit("select option values must be unique")
                for o in opts:
                    for key in ("label", "value", "description"):
                        if len(o.get(key) or "") > MAX_OPTION_TEXT:
                            raise DiscordLimit(f"select option {key} over 100 characters")
    if len(msg.attachments) > MAX_ATTACHMENTS:
        raise DiscordLimit(f"{len(msg.attachments)} attachments (at most {MAX_ATTACHMENTS})")
    for a in msg.attachments:
        if len(a.data) > MAX_ATTACHMENT:
            raise DiscordLimit(f"attachment {a.filename} of {len(a.data)} bytes")
        if not 1 <= len(a.filename) <= MAX_FILENAME:
            raise DiscordLimit(f"attachment filename of {len(a.filename)} characters")
        if a.description is not None and len(a.description) > MAX_ALT_TEXT:
            raise DiscordLimit(f"alt text of {len(a.description)} characters for "
                               f"{a.filename} (at most {MAX_ALT_TEXT})")


def message_json(fake: FakeDiscord, msg: Message) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": str(msg.id), "channel_id": str(msg.channel_id), "type": 0 if not
        msg.interaction_id else 20, "content": msg.content, "author": fake.bot_user,
        "timestamp": TIMESTAMP, "edited_timestamp": None, "tts": False,
        "mention_everyone": False, "mentions": [fake.user(u) for u in msg.mentions],
        "mention_roles": [], "attachments": [
            {"id": str(a.id), "filename": a.filename, "size": len(a.data),
             "url": f"https://cdn.fake/{msg.id}/{a.filename}",
             "proxy_url": f"https://cdn.fake/{msg.id}/{a.filename}",
             "content_type": "image/png" if a.filename.endswith(".png") else None,
             **({"description": a.description} if a.description is not None else {})}
            for a in msg.attachments],
        "embeds": [], "pinned": False, "flags": msg.flags, "components": msg.components,
        "application_id": str(fake.app_id),
    }
    guild = fake.guild_of(msg.channel_id)
    if guild is not None:
        out["guild_id"] = str(guild)
    if msg.thread_id is not None and msg.thread_id in fake.threads:
        out["thread"] = fake._thread_json(fake.threads[msg.thread_id])
    return out


@contextlib.asynccontextmanager
async def running(**kwargs: Any) -> Any:
    """A started fake. Tests run Discord's per-channel buckets and the interaction tokens'
    ten times faster (5 writes per 0.5 s, 5 per 0.2 s) unless they pass ``post_per``/
    ``edit_per``/``webhook_per`` (5.0, 5.0, 2.0: real time, as the bench does); the bot
    under test paces itself to the same periods (tests.bot.e2e)."""
    kwargs.setdefault("post_per", 0.5)
    kwargs.setdefault("edit_per", 0.5)
    kwargs.setdefault("webhook_per", 0.2)
    fake = FakeDiscord(**kwargs)
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()
