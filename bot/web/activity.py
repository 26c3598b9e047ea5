"""The live page as a Discord Activity: who opens it, and on which game, checked with Discord.

Inside Discord the page has no link. It runs the Embedded App SDK's ``authorize`` step and
sends the one-time code it got, with the Activity's instance id, to ``POST /api/activity``
(:mod:`bot.web.server`). Nothing the page says is believed; :class:`SignIn` asks Discord:

1. the code is exchanged for an access token with the application's client secret
   (``TEMPUS_ACTIVITY_SECRET``, which only this server holds) at ``/oauth2/token``;
2. the token says who the person is (``/users/@me``); it is used for nothing else, kept
   nowhere and never logged;
3. the instance (``/applications/{id}/activity-instances/{instance}``, with the bot's own
   token) says in which channel the Activity runs and who is in it: the person must be.

The access token is revoked right after its one question. Discord also offers to sign the
requests its proxy forwards (``X-Signature-Ed25519``); it documents that as optional and
its encoding inconsistently, so nothing here depends on it: the three answers above are
what is believed.

The game is the one of that channel (a game's thread, or the channel the game was started
in: its running game, else its last finished one), found anew at every opening, so an
Activity opened days later follows the game rather than a stale instance. The page then
gets the link the "🗺️ Board" button would have given the person (their seat's, or one to
watch), and goes on exactly as a page opened from a link.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from dataclasses import dataclass
from typing import Any

import aiohttp

from bot.web.pages import PageError

log = logging.getLogger(__name__)

#: what Discord's answers may take before the page is told to try again
TIMEOUT_S = 8.0
#: an authorization code and an instance id are short tokens of these characters
_CODE = re.compile(r"[A-Za-z0-9_\-.]{1,100}")
_INSTANCE = re.compile(r"[A-Za-z0-9_\-]{1,200}")
#: Discord asks API clients to say who they are so (developers/reference, "User Agent");
#: the bot passes discord.py's own
USER_AGENT = "DiscordBot (https://github.com/Rapptz/discord.py, 2)"


def well_formed(code: object, instance: object) -> tuple[str, str] | None:
    """A code and an instance id as Discord makes them (None: not; checked before any
    limit is spent or Discord is asked)."""
    if isinstance(code, str) and _CODE.fullmatch(code) and isinstance(instance, str) \
            and _INSTANCE.fullmatch(instance):
        return code, instance
    return None


@dataclass(frozen=True)
class Opening:
    """Who opened the Activity, and where (as Discord says)."""

    user_id: int
    channel_id: int
    guild_id: int | None


class SignIn:
    """Checks an Activity's opening with Discord's API at ``api_base`` (its ``/api/v10``
    root) for the application ``client_id``."""

    def __init__(self, *, client_id: int, client_secret: str, bot_token: str,
                 api_base: str, user_agent: str = USER_AGENT,
                 timeout_s: float = TIMEOUT_S) -> None:
        self.client_id = client_id
        self._secret = client_secret
        self._bot_token = bot_token
        self.api_base = api_base.rstrip("/")
        self.user_agent = user_agent
        self._timeout = aiohttp.ClientTimeout(total=timeout_s)
        self._session: aiohttp.ClientSession | None = None
        self._revoking: set[asyncio.Task[None]] = set()

    def __repr__(self) -> str:  # (the secrets never reach a log through a repr)
        return f"SignIn(client_id={self.client_id}, api_base={self.api_base!r})"

    async def close(self) -> None:
        if self._revoking:
            await asyncio.wait(self._revoking, timeout=2.0)
        if self._session is not None:
            await self._session.close()
            self._session = None

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=self._timeout,
                                                  headers={"User-Agent": self.user_agent})
        return self._session

    async def opening(self, code: str, instance: str) -> Opening:
        """Who opened the instance ``instance`` with the authorization ``code`` (both
        :func:`well_formed`); a :class:`PageError` with words for the page when Discord
        does not confirm it."""
        user_id = await self._person(code)
        where = await self._instance(instance)
        if str(user_id) not in where.get("users", []):
            raise PageError(403, "web.activity.error.not_in")
        location = where.get("location") or {}
        try:
            channel = int(location["channel_id"])
        except (KeyError, TypeError, ValueError):
            raise PageError(404, "web.activity.error.instance") from None
        guild = location.get("guild_id")
        return Opening(user_id, channel, int(guild) if guild else None)

    async def _person(self, code: str) -> int:
        form = {"client_id": str(self.client_id), "client_secret": self._secret,
                "grant_type": "authorization_code", "code": code}
        status, token = await self._call("POST", "/oauth2/token", data=form)
        if status == 401:  # the client itself refused: the operator's setting
            log.warning("activity: Discord refused the application's credentials "
                        "(TEMPUS_ACTIVITY_SECRET, the OAuth2 client secret, is wrong or "
                        "was reset): nobody can sign in inside Discord")
        access = token.get("access_token")
        if status != 200 or not isinstance(access, str):
            raise PageError(401, "web.activity.error.code")
        try:
            status, user = await self._call("GET", "/users/@me",
                                            headers={"Authorization": f"Bearer {access}"})
        finally:
            # the token was for this one question: it is not left valid at Discord
            self._revoking.add(asyncio.create_task(self._revoke(access)))
            for task in [t for t in self._revoking if t.done()]:
                self._revoking.discard(task)
        try:
            return int(user["id"])
        except (KeyError, TypeError, ValueError):
            raise PageError(401, "web.activity.error.code") from None

    async def _revoke(self, access: str) -> None:
        form = {"client_id": str(self.client_id), "client_secret": self._secret,
                "token": access, "token_type_hint": "access_token"}
        with contextlib.suppress(PageError):
            await self._call("POST", "/oauth2/token/revoke", data=form)

    async def _instance(self, instance: str) -> dict[str, Any]:
        status, found = await self._call(
            "GET", f"/applications/{self.client_id}/activity-instances/{instance}",
            headers={"Authorization": f"Bot {self._bot_token}"})
        if status in (401, 403):
            log.warning("activity: Discord refused the bot's look at its Activity's instances "
                        "(%s): is the bot's token of the application whose Activity this "
                        "is?", status)
        if status != 200 or not found:
            raise PageError(404, "web.activity.error.instance")
        return found

    async def _call(self, method: str, path: str, **kwargs: Any
                    ) -> tuple[int, dict[str, Any]]:
        """Discord's status and JSON body; a refusal other than the caller's to judge
        (4xx of the request itself) is Discord being unavailable."""
        try:
            async with self._http().request(method, self.api_base + path, **kwargs) as resp:
                body = await resp.json(content_type=None) if resp.content_length != 0 \
                    else None
                status = resp.status
        except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
            # (the path names no secret; the request's headers and form are not logged)
            log.warning("activity: Discord's %s %s failed: %s", method,
                        path.split("/activity-instances/")[0], type(exc).__name__)
            raise PageError(503, "web.activity.error.discord") from None
        if status == 429 or status >= 500:
            log.warning("activity: Discord answered %s to %s %s", status, method,
                        path.split("/activity-instances/")[0])
            raise PageError(503, "web.activity.error.discord")
        if status in (400, 401, 403, 404):
            return status, {}
        if status >= 300 or not isinstance(body, dict):
            raise PageError(503, "web.activity.error.discord")
        return status, body
