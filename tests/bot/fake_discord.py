"""A small fake Discord (REST + gateway) on 127.0.0.1 for end-to-end tests of the real bot.

The unchanged bot (discord.py 2.7) is pointed at this server with ``discord.http.Route.BASE``
and ``DiscordWebSocket.DEFAULT_GATEWAY``. The fake plays one guild with text channels and
a few users, sends interactions (slash commands, autocomplete, button and select clicks)
over the gateway, and records everything the bot sends: channel messages, DMs, ephemeral
replies, with their attachments. It enforces Discord's limits (message length, rows,
buttons, select options, custom id and label lengths, attachment size) and records any
request to an endpoint it does not implement; :meth:`FakeDiscord.check` raises on both.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

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
MAX_ATTACHMENT = 10 * 1024 * 1024
MAX_CHOICES = 25
#: permission bits: view, send, embed, attach, history, application commands
MEMBER_PERMS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31)
MANAGE_CHANNELS = 1 << 4


@dataclass(frozen=True)
class UserOption:
    """A slash-command option that names a user (``player=UserOption(12)``)."""

    id: int


class DiscordLimit(Exception):
    """The bot sent something real Discord would refuse (a test failure)."""


@dataclass
class Attachment:
    filename: str
    data: bytes


@dataclass
class Message:
    """A message the bot sent (or edited), as the fake stores it."""

    id: int
    channel_id: int
    content: str
    components: list[dict[str, Any]]
    attachments: list[Attachment]
    flags: int = 0
    #: "channel", "dm" or "ephemeral"
    where: str = "channel"
    #: for DMs and ephemeral replies: the only user who sees it
    to_user: int | None = None
    interaction_id: int | None = None
    mentions: list[int] = field(default_factory=list)
    created: float = field(default_factory=time.perf_counter)
    edits: int = 0

    @property
    def public(self) -> bool:
        return self.where == "channel"

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for row in self.components for c in row.get("components", [])
                if "custom_id" in c]

    def controls(self) -> list[dict[str, Any]]:
        return [c for row in self.components for c in row.get("components", [])]


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

    def text(self) -> str:
        return "\n".join(m.content for m in self.replies)


class FakeDiscord:
    """The server. ``await start()``, then point the bot at :attr:`api_base` / :attr:`gateway`."""

    def __init__(self, *, guild_id: int = 1000, channel_ids: tuple[int, ...] = (2000, 2001),
                 users: dict[int, str] | None = None, dm_closed: set[int] | None = None,
                 managers: set[int] | None = None) -> None:
        self.guild_id = guild_id
        self.channel_ids = channel_ids
        self.users = users or {11: "ada", 12: "brian", 13: "chen", 14: "dora", 15: "eve"}
        self.dm_closed = set(dm_closed or ())
        self.managers = set(managers or ())
        self.app_id = 900
        self.bot_user = {"id": "901", "username": "tempus", "discriminator": "0",
                         "global_name": "Tempus", "avatar": None, "bot": True}
        self._ids = itertools.count(10_000_000)
        self.messages: dict[int, Message] = {}
        self.order: list[Message] = []
        self.dm_channels: dict[int, int] = {}  # channel id -> user id
        self.interactions: dict[int, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}
        self.commands: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.ws: web.WebSocketResponse | None = None
        self.ready = asyncio.Event()
        self._seq = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.on_message: Callable[[Message], None] | None = None
        self.changed = asyncio.Condition()
        #: how many times anything changed, and when last (for "quiet" waits)
        self.changes = 0
        self.last_change = time.perf_counter()
        #: gateway sessions identified so far (a restarted bot makes a new one)
        self.sessions = 0

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
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        if self.ws is not None and not self.ws.closed:
            await self.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def check(self) -> None:
        """Fail the test if the bot broke a Discord limit or used an unknown endpoint."""
        if self.errors:
            raise DiscordLimit("; ".join(self.errors[:10]))

    def next_id(self) -> int:
        return next(self._ids)

    # ------------------------------------------------------------------ gateway
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=None, max_msg_size=0)
        await ws.prepare(request)
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
                await self._dispatch("READY", {
                    "v": 10, "user": self.bot_user, "session_id": "fake-session",
                    "resume_gateway_url": self.gateway, "shard": [0, 1],
                    "guilds": [{"id": str(self.guild_id), "unavailable": True}],
                    "application": {"id": str(self.app_id), "flags": 0},
                })
                await self._dispatch("GUILD_CREATE", self._guild())
                self.sessions += 1
                self.ready.set()
                await self._changed()
            elif op == 6:  # resume: start over
                await ws.send_str(json.dumps({"op": 9, "d": False}))
            elif op in (3, 4, 8):
                pass
            else:
                self.errors.append(f"gateway op {op} not implemented")
        return ws

    async def _dispatch(self, event: str, d: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send_str(json.dumps({"op": 0, "t": event, "s": next(self._seq), "d": d}))

    def _guild(self) -> dict[str, Any]:
        gid = str(self.guild_id)
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
            "threads": [], "stage_instances": [], "guild_scheduled_events": [],
            "channels": [{"id": str(c), "type": 0, "name": f"table-{i}", "position": i,
                          "permission_overwrites": [], "guild_id": gid, "nsfw": False,
                          "parent_id": None}
                         for i, c in enumerate(self.channel_ids)],
        }

    def user(self, uid: int) -> dict[str, Any]:
        return {"id": str(uid), "username": self.users.get(uid, f"user{uid}"),
                "discriminator": "0", "global_name": self.users.get(uid), "avatar": None}

    # ------------------------------------------------------------------ sending interactions
    def _member(self, uid: int) -> dict[str, Any]:
        perms = str(MEMBER_PERMS | (MANAGE_CHANNELS if uid in self.managers else 0))
        return {"user": self.user(uid), "roles": [], "joined_at": "2026-01-01T00:00:00+00:00",
                "deaf": False, "mute": False, "flags": 0, "permissions": perms}

    async def _interact(self, uid: int, kind: int, data: dict[str, Any], channel_id: int,
                        message: Message | None = None) -> Interaction:
        await asyncio.wait_for(self.ready.wait(), 10)
        iid = self.next_id()
        token = f"tok{iid}"
        inter = Interaction(iid, token, uid, kind, time.perf_counter(), channel_id)
        self.interactions[iid] = inter
        self.by_token[token] = inter
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(self.app_id), "type": kind, "token": token,
            "version": 1, "channel_id": str(channel_id), "locale": "en-US",
            "app_permissions": str(MEMBER_PERMS), "entitlements": [],
            "attachment_size_limit": MAX_ATTACHMENT,
            "authorizing_integration_owners": {"0": str(self.guild_id)}, "data": data,
        }
        if channel_id in self.dm_channels:
            payload["user"] = self.user(uid)
            payload["channel"] = {"id": str(channel_id), "type": 1}
            payload["context"] = 1
        else:
            payload["guild_id"] = str(self.guild_id)
            payload["guild_locale"] = "en-US"
            payload["member"] = self._member(uid)
            payload["channel"] = {"id": str(channel_id), "type": 0, "guild_id":
                                  str(self.guild_id), "name": "table", "position": 0,
                                  "permission_overwrites": []}
            payload["context"] = 0
        if message is not None:
            payload["message"] = message_json(self, message)
            inter.message_id = message.id
        inter.sent_at = time.perf_counter()
        await self._dispatch("INTERACTION_CREATE", payload)
        return inter

    async def slash(self, uid: int, channel_id: int, sub: str, **options: Any) -> Interaction:
        """``/tempus sub option=value ...`` by user ``uid``; returns once it is answered."""
        inter = await self._interact(uid, 2, self._command_data(sub, options), channel_id)
        await self.wait_replied(inter)
        return inter

    async def autocomplete(self, uid: int, channel_id: int, sub: str, focused: str,
                           **options: Any) -> list[dict[str, Any]]:
        data = self._command_data(sub, options, focused=focused)
        inter = await self._interact(uid, 4, data, channel_id)
        await asyncio.wait_for(inter.acked.wait(), 10)
        return inter.choices or []

    def _command_data(self, sub: str, options: dict[str, Any], focused: str | None = None
                      ) -> dict[str, Any]:
        opts = []
        resolved: dict[str, Any] = {}
        for k, v in options.items():
            if isinstance(v, UserOption):  # a user option: the id plus "resolved" data
                resolved.setdefault("users", {})[str(v.id)] = self.user(v.id)
                member = {k2: x for k2, x in self._member(v.id).items() if k2 != "user"}
                resolved.setdefault("members", {})[str(v.id)] = member
                opts.append({"name": k, "type": 6, "value": str(v.id)})
                continue
            t = 5 if isinstance(v, bool) else 4 if isinstance(v, int) else 3
            o: dict[str, Any] = {"name": k, "type": t, "value": v}
            if k == focused:
                o["focused"] = True
            opts.append(o)
        if focused is not None and focused not in options:
            opts.append({"name": focused, "type": 3, "value": "", "focused": True})
        cmd = next((c for c in self.commands if c["name"] == "tempus"), None)
        data = {"id": cmd["id"] if cmd else "1", "name": "tempus", "type": 1,
                "options": [{"name": sub, "type": 1, "options": opts}]}
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
        return [m for m in self.order if m.channel_id == channel_id and m.public]

    def dms(self, uid: int) -> list[Message]:
        return [m for m in self.order if m.where == "dm" and m.to_user == uid]

    def seen_by(self, uid: int) -> list[Message]:
        return [m for m in self.order if m.public or m.to_user == uid]

    async def wait_for(self, pred: Callable[[], Any], timeout: float = 30) -> Any:
        async with self.changed:
            return await asyncio.wait_for(self.changed.wait_for(pred), timeout)

    async def _changed(self) -> None:
        self.changes += 1
        self.last_change = time.perf_counter()
        async with self.changed:
            self.changed.notify_all()

    # ------------------------------------------------------------------ REST
    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        method = request.method
        parts = path.strip("/").split("/")
        try:
            return await self._route(request, method, parts)
        except DiscordLimit as exc:
            self.errors.append(f"{method} {path}: {exc}")
            return _json({"code": 50035, "message": f"Invalid Form Body: {exc}"}, 400)

    async def _route(self, request: web.Request, method: str, parts: list[str]
                     ) -> web.StreamResponse:
        match (method, parts):
            case ("GET", ["users", "@me"]):
                return _json(self.bot_user)
            case ("GET", ["oauth2", "applications", "@me"]):
                return _json({"id": str(self.app_id), "name": "Tempus", "icon": None,
                              "description": "", "rpc_origins": [], "bot_public": True,
                              "bot_require_code_grant": False, "owner": self.user(1),
                              "verify_key": "00", "flags": 0, "team": None,
                              "summary": ""})
            case ("GET", ["gateway", *_]):
                return _json({"url": self.gateway})
            case ("PUT", ["applications", _, "commands"]):
                body = await request.json()
                self.commands = [{**c, "id": str(self.next_id()),
                                  "application_id": str(self.app_id), "version": "1"}
                                 for c in body]
                return _json(self.commands)
            case ("GET", ["applications", _, "commands"]):
                return _json(self.commands)
            case ("GET", ["users", uid]):
                return _json(self.user(int(uid)))
            case ("POST", ["users", "@me", "channels"]):
                body = await request.json()
                uid = int(body["recipient_id"])
                cid = next((c for c, u in self.dm_channels.items() if u == uid), None)
                if cid is None:
                    cid = self.next_id()
                    self.dm_channels[cid] = uid
                return _json({"id": str(cid), "type": 1, "recipients": [self.user(uid)],
                              "last_message_id": None})
            case ("GET", ["channels", cid]):
                c = int(cid)
                if c in self.dm_channels:
                    return _json({"id": cid, "type": 1,
                                  "recipients": [self.user(self.dm_channels[c])]})
                if c in self.channel_ids:
                    return _json({"id": cid, "type": 0, "guild_id": str(self.guild_id),
                                  "name": "table", "position": 0,
                                  "permission_overwrites": []})
                return _json({"code": 10003, "message": "Unknown Channel"}, 404)
            case ("POST", ["channels", cid, "messages"]):
                return await self._channel_post(request, int(cid))
            case ("PATCH", ["channels", cid, "messages", mid]):
                return await self._edit(request, int(mid))
            case ("POST", ["interactions", iid, token, "callback"]):
                return await self._callback(request, int(iid), token)
            case ("POST", ["webhooks", _, token]):
                return await self._followup(request, token)
            case ("PATCH", ["webhooks", _, token, "messages", mid]):
                inter = self.by_token.get(token)
                if inter is None:
                    return _json({"code": 10015, "message": "Unknown Webhook"}, 404)
                target = self._original(inter) if mid == "@original" else int(mid)
                if target is None:
                    return _json({"code": 10008, "message": "Unknown Message"}, 404)
                resp = await self._edit(request, target)
                if self.messages[target] not in inter.replies:
                    inter.replies.append(self.messages[target])
                inter.replied.set()
                return resp
            case ("GET", ["webhooks", _, token, "messages", "@original"]):
                inter = self.by_token.get(token)
                target = self._original(inter) if inter else None
                if target is None:
                    return _json({"code": 10008, "message": "Unknown Message"}, 404)
                return _json(message_json(self, self.messages[target]))
        self.errors.append(f"not implemented: {method} /{'/'.join(parts)}")
        return _json({"code": 0, "message": "not implemented by the fake"}, 404)

    def _original(self, inter: Interaction | None) -> int | None:
        if inter is None:
            return None
        return inter.original_id

    async def _callback(self, request: web.Request, iid: int, token: str) -> web.Response:
        inter = self.interactions.get(iid)
        if inter is None or inter.token != token:
            return _json({"code": 10062, "message": "Unknown interaction"}, 404)
        if inter.acked.is_set():
            self.errors.append(f"interaction {iid} acknowledged twice")
            return _json({"code": 40060, "message": "Interaction has already been "
                                                    "acknowledged."}, 400)
        payload, files = await _read_body(request)
        rtype = int(payload["type"])
        data = payload.get("data") or {}
        inter.response_type = rtype
        inter.acked_at = time.perf_counter()
        if inter.acked_at - inter.sent_at > 3:
            self.errors.append(f"interaction {iid} acknowledged after 3 s")
        resource: dict[str, Any] = {"type": rtype}
        flags = int(data.get("flags") or 0)
        inter.ephemeral = bool(flags & EPHEMERAL)
        original = self.next_id()
        if rtype == 8:
            choices = data.get("choices", [])
            if len(choices) > MAX_CHOICES:
                raise DiscordLimit(f"{len(choices)} autocomplete choices")
            for c in choices:
                if len(str(c["name"])) > 100 or len(str(c["value"])) > 100:
                    raise DiscordLimit("autocomplete choice over 100 characters")
            inter.choices = choices
        elif rtype == 4:
            msg = self._store(original, data, files, inter)
            resource["message"] = message_json(self, msg)
            inter.replied.set()
        elif rtype == 5:
            msg = self._store(original, {"content": "", "flags": flags}, [], inter)
            msg.content = ""
            inter.original_id = msg.id
            resource["message"] = message_json(self, msg)
        elif rtype == 6:
            if inter.message_id is not None:  # "@original" is now the clicked message
                inter.original_id, inter.original_used = inter.message_id, True
            inter.replied.set()
        elif rtype == 7 and inter.message_id in self.messages:
            self._apply(self.messages[inter.message_id], data, files, edit=True)
            inter.replied.set()
        else:
            self.errors.append(f"interaction response type {rtype} not implemented")
        inter.acked.set()
        await self._changed()
        body = {"interaction": {"id": str(iid), "type": inter.kind,
                                "response_message_loading": rtype == 5,
                                "response_message_ephemeral": inter.ephemeral},
                "resource": resource}
        return _json(body)

    async def _followup(self, request: web.Request, token: str) -> web.Response:
        inter = self.by_token.get(token)
        if inter is None:
            return _json({"code": 10015, "message": "Unknown Webhook"}, 404)
        payload, files = await _read_body(request)
        original = inter.original_id
        if original is not None and not inter.original_used:
            # the first follow-up of a deferred ("thinking") reply replaces the placeholder
            inter.original_used = True
            msg = self.messages[original]
            self._apply(msg, payload, files)
        else:
            msg = self._store(self.next_id(), payload, files, inter)
        inter.replied.set()
        await self._changed()
        return _json(message_json(self, msg))

    async def _channel_post(self, request: web.Request, cid: int) -> web.Response:
        if cid not in self.channel_ids and cid not in self.dm_channels:
            return _json({"code": 10003, "message": "Unknown Channel"}, 404)
        payload, files = await _read_body(request)
        if cid in self.dm_channels and self.dm_channels[cid] in self.dm_closed:
            return _json({"code": 50007, "message": "Cannot send messages to this user"}, 403)
        msg = Message(self.next_id(), cid, "", [], [])
        if cid in self.dm_channels:
            msg.where, msg.to_user = "dm", self.dm_channels[cid]
        self._apply(msg, payload, files)
        allowed = payload.get("allowed_mentions")
        msg.mentions = _mentions(msg.content, allowed)
        self._add(msg)
        await self._changed()
        return _json(message_json(self, msg))

    async def _edit(self, request: web.Request, mid: int) -> web.Response:
        msg = self.messages.get(mid)
        if msg is None:
            return _json({"code": 10008, "message": "Unknown Message"}, 404)
        payload, files = await _read_body(request)
        self._apply(msg, payload, files, edit=True)
        msg.edits += 1
        await self._changed()
        return _json(message_json(self, msg))

    def _store(self, mid: int, data: dict[str, Any], files: list[Attachment],
               inter: Interaction) -> Message:
        flags = int(data.get("flags") or 0)
        msg = Message(mid, inter.channel_id, "", [], [], flags=flags,
                      interaction_id=inter.id)
        if flags & EPHEMERAL:
            msg.where, msg.to_user = "ephemeral", inter.user_id
        self._apply(msg, data, files)
        self._add(msg)
        inter.replies.append(msg)
        return msg

    def _add(self, msg: Message) -> None:
        self.messages[msg.id] = msg
        self.order.append(msg)
        if self.on_message is not None:
            self.on_message(msg)

    def _apply(self, msg: Message, data: dict[str, Any], files: list[Attachment],
               edit: bool = False) -> None:
        if "content" in data and data["content"] is not None:
            msg.content = str(data["content"])
        if "components" in data and data["components"] is not None:
            msg.components = data["components"]
        if "flags" in data and data["flags"] is not None and not edit:
            msg.flags = int(data["flags"])
        if "attachments" in data and data["attachments"] is not None:
            keep_ids = {str(a.get("id")) for a in data["attachments"]}
            # new uploads are listed with ids 0..n-1 matching files[n]
            msg.attachments = [f for i, f in enumerate(files) if str(i) in keep_ids] or (
                files if not edit else [])
        elif files:
            msg.attachments = files
        _check_limits(msg)


def _json(body: Any, status: int = 200) -> web.Response:
    # discord.py parses JSON only for exactly "application/json" (no charset)
    return web.Response(body=json.dumps(body).encode(), status=status,
                        headers={"Content-Type": "application/json"})


async def _read_body(request: web.Request) -> tuple[dict[str, Any], list[Attachment]]:
    """JSON or multipart (``payload_json`` + ``files[n]``)."""
    if not request.can_read_body:
        return {}, []
    if request.content_type.startswith("multipart/"):
        payload: dict[str, Any] = {}
        files: list[Attachment] = []
        reader = await request.multipart()
        async for part in reader:
            if part.name == "payload_json":
                payload = json.loads(await part.text())  # type: ignore[union-attr]
            else:
                data = await part.read()  # type: ignore[union-attr]
                files.append(Attachment(part.filename or "file", bytes(data)))  # type: ignore
        return payload, files
    return await request.json(), []


def _mentions(content: str, allowed: dict[str, Any] | None) -> list[int]:
    """Users actually pinged: mentioned in the text and allowed by ``allowed_mentions``."""
    import re

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
    for a in msg.attachments:
        if len(a.data) > MAX_ATTACHMENT:
            raise DiscordLimit(f"attachment {a.filename} of {len(a.data)} bytes")


def message_json(fake: FakeDiscord, msg: Message) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": str(msg.id), "channel_id": str(msg.channel_id), "type": 0 if not
        msg.interaction_id else 20, "content": msg.content, "author": fake.bot_user,
        "timestamp": "2026-11-23T00:00:00+00:00", "edited_timestamp": None, "tts": False,
        "mention_everyone": False, "mentions": [fake.user(u) for u in msg.mentions],
        "mention_roles": [], "attachments": [
            {"id": str(i), "filename": a.filename, "size": len(a.data),
             "url": f"https://cdn.fake/{msg.id}/{a.filename}",
             "proxy_url": f"https://cdn.fake/{msg.id}/{a.filename}",
             "content_type": "image/png" if a.filename.endswith(".png") else None}
            for i, a in enumerate(msg.attachments)],
        "embeds": [], "pinned": False, "flags": msg.flags, "components": msg.components,
        "application_id": str(fake.app_id),
    }
    if msg.channel_id in fake.channel_ids:
        out["guild_id"] = str(fake.guild_id)
    return out


@contextlib.asynccontextmanager
async def running(**kwargs: Any) -> Any:
    fake = FakeDiscord(**kwargs)
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()
