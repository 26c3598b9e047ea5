"""The live pages as a front end beside the Discord client, on the same table service.

Started by ``python -m bot`` only when ``TEMPUS_WEB_PORT`` and ``TEMPUS_WEB_URL`` are set
(:func:`beside`): once the bot has its table service and publisher, :meth:`WebFront.attach`

- starts the HTTP server (:mod:`bot.web.server`) on ``TEMPUS_WEB_HOST:TEMPUS_WEB_PORT``,
  for a TLS reverse proxy in front of it to serve at ``TEMPUS_WEB_URL``;
- hands every change the announcer is told of to the pages' hub
  (``Announcer.listeners``), which pushes it to the pages open on its game;
- puts the "🗺️ Board" button on turn messages (``Outcomes.board_button``) and answers it
  with the clicker's link (``Clicks.board_link``): their seat's page, or a watching one;
- adds the person's link to their hand message (``HandDMs.board_link``);
- with ``TEMPUS_ACTIVITY_SECRET``, and Activities enabled for the application in Discord's
  developer portal: serves the page as the application's Activity (:mod:`bot.web.activity`)
  and has the Board button launch it (``bot.launcher``, bot/client/activity_launch.py).

It needs nothing of Discord: the bot is reached through the attributes above.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.operator.settings import Settings
from bot.table.service import TableService
from bot.web.activity import USER_AGENT, SignIn
from bot.web.hub import Hub
from bot.web.links import Links, load_secret
from bot.web.pages import seat_to_show
from bot.web.server import WebServer
from lang.messages import t

log = logging.getLogger(__name__)


def data_folder(settings: Settings) -> Path:
    """Where the bot keeps the links' secret: ``TEMPUS_WEB_SECRET_DIR``, else beside its
    SQLite database (or the working folder for a PostgreSQL one or a database in
    memory)."""
    if settings.web_secret_dir:
        return Path(settings.web_secret_dir)
    db = settings.db
    if "://" in db or db in ("", ":memory:"):
        return Path.cwd()
    return Path(db).resolve().parent


class WebFront:
    def __init__(self, settings: Settings, *, links: Links | None = None) -> None:
        assert settings.web_port is not None and settings.web_url
        self.settings = settings
        self.links = links or Links(load_secret(settings.web_secret, data_folder(settings)),
                                    settings.web_url, seat_hours=settings.web_link_hours)
        self.service: TableService | None = None
        self.activity: SignIn | None = None
        self.hub: Hub | None = None
        self.server: WebServer | None = None
        self._runner: web.AppRunner | None = None
        #: the port it listens on (the one asked for, or the one given for port 0)
        self.port: int | None = None

    async def attach(self, bot: Any) -> None:
        """Serve the pages of ``bot``'s games (its ``service`` and ``publisher``)."""
        service: TableService = bot.service
        self.service = service
        self.hub = Hub(service)
        self.hub.start()
        self.activity = self._activity(bot)
        self.server = WebServer(service, self.links, self.hub, activity=self.activity)
        launcher = getattr(bot, "launcher", None)
        if self.activity is not None and launcher is not None:
            launcher.enabled = True
        service.announcer.listeners.append(self.hub.outcome)
        service.outcomes.board_button = True
        service.clicks.board_link = self.board_link
        dms = getattr(getattr(bot, "publisher", None), "dms", None)
        if dms is not None:
            dms.board_link = self.hand_link
        self._runner = web.AppRunner(self.server.app, access_log=None,
                                     handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.settings.web_host, self.settings.web_port)
        await site.start()
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1] if sockets else self.settings.web_port
        log.info("live pages on %s:%s for %s", self.settings.web_host, self.port,
                 self.links.base_url)

    def _activity(self, bot: Any) -> SignIn | None:
        """The Activity's sign-in, when the operator set it up (None: off, and why)."""
        secret = self.settings.activity_secret
        if not secret:
            return None
        flags = getattr(bot, "application_flags", None)
        app_id = getattr(bot, "application_id", None)
        if app_id is None or not getattr(flags, "embedded", False):
            log.warning("TEMPUS_ACTIVITY_SECRET is set but Activities are not enabled for "
                        "this application in Discord's developer portal (Activities > "
                        "Settings): the Board button gives links")
            return None
        return SignIn(client_id=int(app_id), client_secret=secret,
                      bot_token=str(bot.http.token),
                      api_base=self.settings.api_base or bot.api_base,
                      user_agent=getattr(bot.http, "user_agent", None) or USER_AGENT)

    async def close(self) -> None:
        if self.activity is not None:
            await self.activity.close()
        if self.hub is not None:
            await self.hub.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ------------------------------------------------------------------ links
    async def board_link(self, game_id: int, user_id: int) -> str:
        """The answer to the Board button, in the current language (the clicker's): their
        seat's link while they play it, else a link to watch."""
        assert self.service is not None
        table = await self.service.tables.get(game_id)
        seat = seat_to_show(table, user_id)
        if seat is not None:
            url = self.links.url(self.links.token(game_id, seat, user_id))
            return t("web.link", url=url, hours=round(self.links.seat_hours))
        return t("web.link_spectator", url=self.links.url(self.links.token(game_id, None,
                                                                           user_id)))

    def hand_link(self, game_id: int, user_id: int) -> str | None:
        """The line of a hand message that links to the person's page (None when they
        hold no seat of the game now)."""
        assert self.service is not None
        table = self.service.tables.cached(game_id)
        seat = None if table is None else table.seat_of(user_id)
        if table is None or seat is None or table.seats[seat].left:
            return None
        return t("web.hand_link", url=self.links.url(self.links.token(game_id, seat, user_id)))


def beside(settings: Settings) -> WebFront | None:
    """The live pages for a bot with these settings (None: not enabled)."""
    if settings.web_port is None or not settings.web_url:
        return None
    return WebFront(settings)
