"""The page's HTTP server (aiohttp): the static page, its state, its stream, its actions.

Routes (every ``/api`` one needs ``Authorization: Bearer <token>``, see
:mod:`bot.web.links`):

- ``GET /``, ``GET /static/app.js``, ``/static/app.css``: the page (plain files, sent
  gzipped to a browser that takes it);
- ``GET /api/state``: ``{"map": ..., "state": ...}``, what the page shows now (the map
  layer unless ``map`` names the one the page has; 204 if ``v`` is the game's version);
- ``GET /api/stream?v=N&map=KEY``: Server-Sent Events, one ``data:`` line per change (the
  map layer only when it is not ``KEY``), at once if the game is past version ``N``;
- ``POST /api/act`` ``{"v": N, "steps": [...]}`` or ``{"v": N, "decision": ..., "cards":
  [...]}``: a seat's choice, made at version ``N``, through the same table service as a
  click (``service.play``: the same checks, stored before it is answered, announced in
  Discord as any click);
- ``POST /api/undo`` ``{"v": N}``: the seat's last step taken back, as the Undo button;
- ``GET /api/activity``: ``{"client_id": ...}``, the application the page is an Activity of
  (404 when the Activity is off), and ``POST /api/activity`` ``{"code": ..., "instance":
  ...}``: inside Discord, the link the person would have had, once Discord confirmed who
  they are and where the Activity runs (:mod:`bot.web.activity`; no Authorization).

Refusals are JSON ``{"error": "..."}`` in the reader's language with a plain status (401:
no valid link, 403: not this link's to do, 404: no such game here, 409: the game refused
it or moved on, 413: too large, 429: too many requests, 503: Discord did not answer).
Every answer carries a content security policy that lets the page run only its own script
and style, and talk only to this server; only Discord's clients may frame the page, and only
when it is an Activity. No answer sets a cookie. Tokens are never logged: they travel in a
header or a body, and nothing here writes either to a log.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import ipaddress
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.store import LOBBY
from bot.table.model import Stale, TableError
from bot.table.service import TableService
from bot.web.activity import SignIn, well_formed
from bot.web.hub import Hub, Page
from bot.web.limits import RateLimit
from bot.web.links import BadLink, Link, Links
from bot.web.pages import PageError, Viewer, seat_to_show, viewer_of, web_of, without_mentions
from lang import i18n
from lang.messages import t

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
#: the files the page is made of, by the path it asks for (``vendor/``: Discord's Embedded
#: App SDK, built from its npm package by tools/discord_sdk/build.sh, loaded by the page
#: only inside Discord)
FILES = {"/": "index.html", "/static/app.js": "app.js", "/static/app.css": "app.css",
         "/static/activity.js": "activity.js",
         "/static/vendor/discord-embedded-app-sdk.mjs": "vendor/discord-embedded-app-sdk.mjs"}
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".mjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
#: the largest body an action may have (a choice is a few hundred bytes)
MAX_BODY = 8 * 1024
#: streams one link may keep open (a person's phone and computer, a reload)
STREAMS_PER_LINK = 4
#: what a request's link said: its reader's language, and the link itself
LANG = web.RequestKey("lang", str)
LINK = web.RequestKey("link", Link)
#: sign-ins inside Discord (each costs three calls to Discord's API, one of them with the
#: bot's token, inside the bot's own 50 a second): per sender (Discord's proxy speaks for
#: many people, so it is generous) and over all of them (a tenth of the bot's limit)
SENDER_SIGN_INS_PER_S, SENDER_SIGN_IN_BURST = 2.0, 20.0
SIGN_INS_PER_S, SIGN_IN_BURST = 5.0, 30.0
#: seconds between a stream's keep-alive comments (proxies close idle connections)
KEEP_ALIVE_S = 20.0
_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'")
CSP = _CSP + "; frame-ancestors 'none'"
#: the page as Discord opens an Activity: in Discord's frame, whose ancestors differ by
#: client (web, desktop, phones) and are not all documented, so it may be framed. That
#: gives a framing site nothing: such a page ignores any link in its address and knows its
#: person only through Discord's authorization, which only Discord's frame can give.
ACTIVITY_CSP = _CSP
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}


@dataclass(frozen=True)
class StaticFile:
    body: bytes
    gzipped: bytes
    etag: str
    content_type: str


def load_static(folder: Path = STATIC) -> dict[str, StaticFile]:
    out = {}
    for route, name in FILES.items():
        body = (folder / name).read_bytes()  # (a file missing: the bot does not start)
        out[route] = StaticFile(body, gzip.compress(body, 9, mtime=0),
                                '"' + hashlib.sha256(body).hexdigest()[:20] + '"',
                                TYPES[Path(name).suffix])
    return out


def _lang_of(request: web.Request) -> str:
    """The reader's language before a link says whose page it is (Accept-Language)."""
    first = request.headers.get("Accept-Language", "").split(",")[0].split(";")[0].strip()
    return i18n.normalize(first[:20] or None)


def _sender(request: web.Request) -> str:
    """Who sent a request: the address that reached the reverse proxy in front (the last
    ``X-Forwarded-For`` hop it added) when the request came from a proxy on this host or
    network, else the address connected."""
    remote = request.remote or ""
    try:
        local = ipaddress.ip_address(remote).is_private
    except ValueError:
        local = False
    hops = request.headers.get("X-Forwarded-For", "")
    if local and hops:
        return hops.split(",")[-1].strip()[:64]
    return remote


def answer(data: dict[str, Any], status: int = 200) -> web.Response:
    """JSON as the page reads it (words as they are: no escapes)."""
    return web.json_response(data, status=status,
                             dumps=lambda d: json.dumps(d, ensure_ascii=False))


def refusal(status: int, text: str, **extra: Any) -> web.Response:
    return answer({"error": text, **extra}, status)


class WebServer:
    """The aiohttp application of the pages, on the table service's parts."""

    def __init__(self, service: TableService, links: Links, hub: Hub, *,
                 limit: RateLimit | None = None, activity: SignIn | None = None) -> None:
        self.service = service
        self.links = links
        self.hub = hub
        self.limit = limit or RateLimit()
        #: the page as a Discord Activity (None: off, the page only opens from links)
        self.activity = activity
        self.sign_ins = RateLimit(SIGN_INS_PER_S, SIGN_IN_BURST)
        self.senders = RateLimit(SENDER_SIGN_INS_PER_S, SENDER_SIGN_IN_BURST)
        self.static = load_static()
        self.streams: dict[bytes, int] = {}
        self.app = web.Application(middlewares=[self._guard], client_max_size=MAX_BODY)
        self.app.router.add_get("/", self._file)
        self.app.router.add_get("/static/{name}", self._file)
        self.app.router.add_get("/static/vendor/{name}", self._file)
        self.app.router.add_get("/api/state", self._state)
        self.app.router.add_get("/api/stream", self._stream)
        self.app.router.add_post("/api/act", self._act)
        self.app.router.add_post("/api/undo", self._undo)
        self.app.router.add_get("/api/recap", self._recap)
        self.app.router.add_get("/api/activity", self._activity_app)
        self.app.router.add_post("/api/activity", self._activity_sign_in)

    # ------------------------------------------------------------------ every request
    @web.middleware
    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                     ) -> web.StreamResponse:
        """Security headers on every answer; every refusal as words, never a trace."""
        try:
            response = await handler(request)
        except PageError as exc:
            with i18n.using(request.get(LANG) or _lang_of(request)):
                response = refusal(exc.status, exc.text())
        except web.HTTPRequestEntityTooLarge:
            with i18n.using(request.get(LANG) or _lang_of(request)):
                response = refusal(413, t("web.error.too_big"))
        except web.HTTPException as exc:
            response = refusal(exc.status, exc.reason)
        except Exception:
            log.exception("web: %s %s failed", request.method, request.path)
            with i18n.using(request.get(LANG) or _lang_of(request)):
                response = refusal(500, t("error.internal"))
        if not response.prepared:  # (a stream sent its headers itself)
            response.headers.update(SECURITY_HEADERS)
            # (Discord opens an Activity's page with a frame id; a link's page never has one)
            if self.activity is not None and request.path == "/" \
                    and "frame_id" in request.query:
                response.headers["Content-Security-Policy"] = ACTIVITY_CSP
                del response.headers["X-Frame-Options"]
            if request.path.startswith("/api/"):
                response.headers["Cache-Control"] = "no-store"
        return response

    def _link(self, request: web.Request) -> Link:
        """The request's verified link, within its rate limit."""
        auth = request.headers.get("Authorization", "")
        scheme, _, token = auth.partition(" ")
        if scheme.lower() != "bearer":
            raise PageError(401, "web.error.link")
        try:
            link = self.links.check(token.strip())
        except BadLink as exc:
            raise PageError(401, exc.key) from None
        if not self.limit.allow(link.mac):
            raise PageError(429, "web.error.rate")
        return link

    async def _viewer(self, request: web.Request) -> Viewer:
        link = self._link(request)
        try:
            table = await self.service.tables.get(link.game_id)
        except TableError:
            raise PageError(404, "web.error.game", game=link.game_id) from None
        viewer = viewer_of(table, link)
        request[LANG] = viewer.lang
        request[LINK] = link
        return viewer

    # ------------------------------------------------------------------ the page
    async def _file(self, request: web.Request) -> web.Response:
        route = "/" if request.path == "/" else request.path
        f = self.static.get(route)
        if f is None:
            raise web.HTTPNotFound()
        headers = {"ETag": f.etag, "Cache-Control": "no-cache", "Vary": "Accept-Encoding",
                   "Content-Type": f.content_type}
        if request.headers.get("If-None-Match") == f.etag:
            return web.Response(status=304, headers=headers)
        if "gzip" in request.headers.get("Accept-Encoding", ""):
            headers["Content-Encoding"] = "gzip"
            return web.Response(body=f.gzipped, headers=headers)
        return web.Response(body=f.body, headers=headers)

    async def _state(self, request: web.Request) -> web.Response:
        """What the page shows now; ``?v=N``: nothing (204) if the game is still at N,
        ``&map=KEY``: without the map layer if the page has it (a page that cannot keep
        a stream open asks this way every few seconds)."""
        viewer = await self._viewer(request)
        table = await self.service.tables.get(viewer.game_id)
        if request.query.get("v") == str(table.version):
            return web.Response(status=204)
        message = await self.hub.message(table, viewer, request.query.get("map", "")[:200])
        response = web.Response(body=message, content_type="application/json",
                                charset="utf-8")
        if "gzip" in request.headers.get("Accept-Encoding", ""):
            response.enable_compression(web.ContentCoding.gzip)
        return response

    async def _recap(self, request: web.Request) -> web.Response:
        """"What happened?" for the link's person, as the button in Discord answers it:
        since their previous decision if they play, else since the round began; words
        from the public log only, in their language."""
        viewer = await self._viewer(request)
        with i18n.using(viewer.lang):
            try:
                panel, version = await self.service.recaps.for_user(viewer.game_id,
                                                                     viewer.user_id)
            except TableError as exc:
                return refusal(409, str(exc))
        seats = (await self.service.tables.get(viewer.game_id)).seats
        lines = without_mentions(panel.text.split("\n"), seats)
        return answer({"v": version, "lines": lines})

    async def _stream(self, request: web.Request) -> web.StreamResponse:
        viewer = await self._viewer(request)
        link: Link = request[LINK]
        try:
            since = int(request.query.get("v", "-1"))
        except ValueError:
            since = -1
        map_key = request.query.get("map", "")[:200]
        if self.streams.get(link.mac, 0) >= STREAMS_PER_LINK:
            raise PageError(429, "web.error.pages")
        table = await self.service.tables.get(viewer.game_id)
        try:
            page = self.hub.open(viewer, since, map_key)
        except OverflowError:
            raise PageError(503, "web.error.pages") from None
        self.streams[link.mac] = self.streams.get(link.mac, 0) + 1
        response = web.StreamResponse(headers={
            **SECURITY_HEADERS, "Content-Type": "text/event-stream; charset=utf-8",
            "Cache-Control": "no-store, no-transform", "X-Accel-Buffering": "no"})
        try:
            await response.prepare(request)
            # at once, so the page knows its stream gets through (a proxy that holds a
            # stream back until it ends would keep a page waiting: it then asks instead)
            await response.write(b": open\n\n")
            if since != table.version:  # moved on before the stream opened
                await self.hub.send_now(page, table)
            await self._pump(response, page)
        except ConnectionResetError:
            pass  # the page went away (found at the next write: a change or a keep-alive)
        finally:
            self.hub.leave(page)
            left = self.streams.get(link.mac, 1) - 1
            if left > 0:
                self.streams[link.mac] = left
            else:
                self.streams.pop(link.mac, None)
        return response

    async def _pump(self, response: web.StreamResponse, page: Page) -> None:
        while True:
            try:
                await asyncio.wait_for(page.ready.wait(), KEEP_ALIVE_S)
            except TimeoutError:
                await response.write(b": keep-alive\n\n")
                continue
            data = page.take()
            if not data:
                return  # the server is stopping
            gone = data == b'{"gone":true}'
            # nothing of a written state stays with a waiting page (a page idles for hours)
            await response.write(b"".join((b"data: ", data, b"\n\n")))
            del data
            if gone:
                return

    # ------------------------------------------------------------------ acting
    async def _json(self, request: web.Request) -> Any:
        if request.content_length is not None and request.content_length > MAX_BODY:
            raise web.HTTPRequestEntityTooLarge(max_size=MAX_BODY,
                                                actual_size=request.content_length)
        if request.content_type != "application/json":
            raise PageError(400, "web.error.body")
        raw = await request.read()
        try:
            return json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            raise PageError(400, "web.error.body") from None

    async def _body(self, request: web.Request) -> tuple[dict[str, Any], int]:
        data = await self._json(request)
        version = data.get("v") if isinstance(data, dict) else None
        if type(version) is not int or not 0 <= version < 2 ** 53:
            raise PageError(400, "web.error.body")
        return data, version

    async def _seat(self, request: web.Request) -> tuple[Viewer, dict[str, Any], int]:
        viewer = await self._viewer(request)
        if viewer.seat is None:
            raise PageError(403, "web.error.watching")
        data, version = await self._body(request)
        # whoever acts on their page is at the table, as a click says (no pings meanwhile)
        self.service.presence.seen(viewer.game_id, viewer.user_id)
        return viewer, data, version

    async def _act(self, request: web.Request) -> web.Response:
        viewer, data, version = await self._seat(request)
        table = await self.service.tables.get(viewer.game_id)
        try:
            actions = web_of(table).actions(data)
        except ValueError:
            raise PageError(400, "web.error.body") from None
        play = self.service.play

        async def once() -> None:
            if len(actions) == 1:
                await play.act(viewer.game_id, viewer.user_id, actions[0], version)
            else:
                await play.act_many(viewer.game_id, viewer.user_id, actions, version)

        with i18n.using(viewer.lang):
            try:
                await self._retried(viewer.game_id, once)
            except TableError as exc:
                return refusal(409, str(exc), stale=isinstance(exc, Stale))
            table = await self.service.tables.get(viewer.game_id)
            return answer({"ok": True, "v": table.version,
                           "done": table.port.show.steps_label(actions)})

    async def _undo(self, request: web.Request) -> web.Response:
        viewer, _, version = await self._seat(request)

        async def once() -> None:
            await self.service.play.undo(viewer.game_id, viewer.user_id, version)

        with i18n.using(viewer.lang):
            try:
                await self._retried(viewer.game_id, once)
            except TableError as exc:
                return refusal(409, str(exc), stale=isinstance(exc, Stale))
        table = await self.service.tables.get(viewer.game_id)
        return web.json_response({"ok": True, "v": table.version})

    async def _retried(self, game_id: int, once: Callable[[], Awaitable[None]]) -> None:
        """As a click: refused as stale, tried once more if another process had changed
        the game (this process's copy was behind)."""
        try:
            await once()
        except Stale:
            if not await self.service.sync.refresh(game_id):
                raise
            await once()

    # ------------------------------------------------------------------ inside Discord
    async def _activity_app(self, request: web.Request) -> web.Response:
        """The application whose Activity the page is (the SDK needs its id)."""
        if self.activity is None:
            raise PageError(404, "web.activity.error.off")
        with i18n.using(_lang_of(request)):
            words = {"signing_in": t("web.activity.signing_in"),
                     "declined": t("web.activity.declined"),
                     "outside": t("web.activity.outside"),
                     "offline": t("web.activity.error.unreachable")}
        return answer({"client_id": str(self.activity.client_id), "words": words})

    async def _activity_sign_in(self, request: web.Request) -> web.Response:
        """The page opened inside Discord: the link its person gets, once Discord confirmed
        who they are and where the Activity runs. Changes nothing."""
        if self.activity is None:
            raise PageError(404, "web.activity.error.off")
        data = await self._json(request)
        asked = well_formed(data.get("code"), data.get("instance")) \
            if isinstance(data, dict) else None
        if asked is None:  # (before any limit is spent: junk costs nobody a sign-in)
            raise PageError(400, "web.activity.error.request")
        # each sign-in asks Discord three things: per sender, then over all of them (so
        # that nobody's flood makes Discord limit the bot)
        if not self.senders.allow(_sender(request)) \
                or not self.sign_ins.allow("all"):
            raise PageError(429, "web.activity.error.busy")
        opening = await self.activity.opening(*asked)
        try:
            game_id = await self.service.tables.last_game_in_channel(opening.channel_id)
            table = await self.service.tables.get(game_id)
        except TableError:
            raise PageError(404, "web.activity.error.no_game") from None
        if opening.guild_id is not None and table.game.guild_id != opening.guild_id:
            raise PageError(404, "web.activity.error.no_game")
        web_of(table)  # (a game without a page: as if none were played here)
        if table.game.status == LOBBY or table.state is None:
            raise PageError(409, "web.activity.error.lobby", game=table.id)
        seat = seat_to_show(table, opening.user_id)
        token = self.links.token(table.id, seat, opening.user_id)
        log.info("activity: game %s opened in Discord by %s (%s)", table.id, opening.user_id,
                 "watching" if seat is None else f"seat {seat}")
        return web.json_response({"token": token, "game": table.id, "seat": seat})
