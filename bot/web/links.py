"""Personal and watching links: signed, bound to a game, a seat and a person, expiring.

A link is the page's address with a **token** after ``#``: a browser never sends what
follows ``#`` to a server, so the token reaches no access log, no proxy's log and no
``Referer``. The page sends it back in an ``Authorization`` header, and nothing else carries
authority: no cookie is set or read, so no other site can make a browser act (a form
posted from elsewhere carries no such header, and no cross-origin script may add it).

A token is ``payload.mac``: the payload (a format byte, the game, the seat or -1 for a
watching link, the person it was made for, its expiry in Unix seconds) and an HMAC-SHA256
of it under the bot's secret, both base64url. The secret is ``TEMPUS_WEB_SECRET``, else 32
random bytes made once and kept in the data directory (``web-secret`` beside the SQLite
file, readable by its owner only): links stay valid across restarts, and a forged or
altered token is refused. Whether the person still holds the seat is checked at every use
(:mod:`bot.web.pages`), so a seat that changed hands makes its old links useless.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

#: the payload's layout: format, game, seat (-1: watching), person, expiry
_LAYOUT = struct.Struct(">BqbqI")
_FORMAT = 1
#: what the MAC covers besides the payload, so no other use of the secret signs a link
_PURPOSE = b"tempus-web-link/1:"
#: bytes of the MAC kept (128 bits)
MAC_BYTES = 16
#: a token is never longer (anything longer is refused before decoding)
MAX_TOKEN = 120
SECRET_FILE = "web-secret"


class BadLink(Exception):
    """A token that is malformed, forged or expired; ``key`` is the words for it."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


@dataclass(frozen=True)
class Link:
    """What a verified token says: whose page of which game, until when."""

    game_id: int
    #: None: a watching link (the public view only)
    seat: int | None
    user_id: int
    expires: int
    #: the token's MAC, a key that names the link (rate limits), never logged
    mac: bytes

    @property
    def watching(self) -> bool:
        return self.seat is None


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Links:
    """Makes and checks links with one secret."""

    def __init__(self, secret: bytes, base_url: str, *, seat_hours: float = 72.0,
                 watch_hours: float = 24.0 * 30, now: Callable[[], float] = time.time) -> None:
        if len(secret) < 16:
            raise ValueError("the web secret must be at least 16 bytes")
        self._secret = secret
        self.base_url = base_url.rstrip("/") + "/"
        self.seat_hours = seat_hours
        self.watch_hours = watch_hours
        self._time = now

    def _mac(self, payload: bytes) -> bytes:
        return hmac.new(self._secret, _PURPOSE + payload, hashlib.sha256).digest()[:MAC_BYTES]

    def token(self, game_id: int, seat: int | None, user_id: int,
              hours: float | None = None) -> str:
        """A signed token for ``user_id``'s page of ``seat`` (None: a watching link)."""
        if hours is None:
            hours = self.watch_hours if seat is None else self.seat_hours
        expires = int(self._time() + hours * 3600)
        payload = _LAYOUT.pack(_FORMAT, game_id, -1 if seat is None else seat, user_id,
                               expires)
        return f"{_b64(payload)}.{_b64(self._mac(payload))}"

    def url(self, token: str) -> str:
        """The page's address with the token where browsers keep it to themselves."""
        return f"{self.base_url}#{token}"

    def check(self, token: str) -> Link:
        """The link a token stands for; :class:`BadLink` if it is malformed, forged
        (checked in constant time) or expired."""
        if not token or len(token) > MAX_TOKEN or token.count(".") != 1:
            raise BadLink("web.error.link")
        head, _, tail = token.partition(".")
        try:
            payload, mac = _unb64(head), _unb64(tail)
        except (ValueError, TypeError):
            raise BadLink("web.error.link") from None
        if len(payload) != _LAYOUT.size or not hmac.compare_digest(mac, self._mac(payload)):
            raise BadLink("web.error.link")
        fmt, game_id, seat, user_id, expires = _LAYOUT.unpack(payload)
        if fmt != _FORMAT:
            raise BadLink("web.error.link")
        if expires < self._time():
            raise BadLink("web.error.expired")
        return Link(game_id, None if seat < 0 else seat, user_id, expires, mac)


def load_secret(env_secret: str | None, folder: Path) -> bytes:
    """``TEMPUS_WEB_SECRET`` if set, else the one kept in ``folder`` (made there the first
    time, readable by its owner only)."""
    if env_secret:
        return env_secret.encode()
    path = folder / SECRET_FILE
    try:
        text = path.read_text(encoding="ascii").strip()
        if len(text) >= 32:
            return bytes.fromhex(text)
    except (FileNotFoundError, ValueError):
        pass
    folder.mkdir(parents=True, exist_ok=True)
    text = secrets.token_hex(32)
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(text + "\n")
    os.replace(tmp, path)
    return bytes.fromhex(text)
