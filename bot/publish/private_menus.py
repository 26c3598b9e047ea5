"""Private menus that were sent (DMs, ephemeral replies), so they can be retired.

A private menu is made for one person's decision at one game version. Once that decision
has passed (the person made it elsewhere, the clock made it for them, a computer took the
seat, someone else got the seat, the game ended) its buttons could only be refused, so the
publisher edits it to say it is no longer current (and why, as far as is known: a
computer deciding is never worded as if the person had), without controls.

**DM menus are stored** (table ``private_menus``, :meth:`PrivateMenus.attach`): each one
sent is written in the background (a lost write only leaves a menu whose use is refused
as stale by the table service's version check), and dropped when it is used or retired.
After a restart :meth:`PrivateMenus.restore` reads them back, retires the ones whose
decision passed while the bot was down, and keeps the rest to retire later as usual.

**Ephemeral replies are not stored**: Discord lets a bot edit them only through the
interaction's token, which dies after 15 minutes, so after a restart (or 15 minutes) they
cannot be edited at all; they are forgotten after :data:`EPHEMERAL_LIFE`. A click on one
is still refused as stale.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from bot.store import MenuRow, SeatRow, Storage
from lang import i18n
from lang.messages import t

log = logging.getLogger(__name__)

#: an interaction token lives 15 minutes; stop a little before
EPHEMERAL_LIFE = 14 * 60.0
MAX_CONTENT = 2000

Edit = Callable[[], Awaitable[None]]



class Stale(StrEnum):
    """Why a menu is no longer current (the line it gets, see :data:`MARKERS`)."""

    #: the decision passed (made elsewhere, or the game moved on)
    PASSED = "passed"
    #: the person's time ran out and a computer decided for them
    TIMED_OUT = "timed_out"
    #: a computer plays the seat now
    COMPUTER = "computer"
    #: the seat is someone else's now
    OTHER_PLAYER = "other"


MARKERS = {
    Stale.PASSED: "menu.expired",
    Stale.TIMED_OUT: "menu.expired_timeout",
    Stale.COMPUTER: "menu.expired_computer",
    Stale.OTHER_PLAYER: "menu.expired_seat",
}

#: (seats, owed decisions) of a game, None if another process owns it (see restore)
Position = tuple[Sequence[SeatRow], Mapping[int, int]]


class PartialClient(Protocol):
    """What :meth:`PrivateMenus.attach` needs of the Discord client."""

    def get_partial_messageable(self, id: int, /) -> Any: ...


class Retirer:
    """Retires one menu: its text kept, a line saying why it is no longer current added
    (in the language the menu was written in), its controls removed (attachments such as
    the hand picture stay). Called with no argument: the general line (``marker``)."""

    def __init__(self, edit: Callable[..., Awaitable[object]], content: str,
                 marker: str | None = None, *, channel_id: int | None = None,
                 locale: str | None = None) -> None:
        self.edit = edit
        self.content = content
        self.locale = locale or i18n.current()
        self.marker = marker
        #: the DM channel, if the menu is a DM (it is then stored); found from the
        #: message the edit belongs to when not given
        self.channel_id = channel_id if channel_id is not None else _channel_of(edit)

    def text(self, reason: Stale = Stale.PASSED) -> str:
        if reason == Stale.PASSED and self.marker is not None:
            marker = self.marker
        else:
            with i18n.using(self.locale):
                marker = t(MARKERS[reason])
        return f"{self.content[: MAX_CONTENT - len(marker) - 2]}\n\n{marker}"

    async def __call__(self, reason: Stale = Stale.PASSED) -> None:
        await self.edit(content=self.text(reason), view=None)


def _channel_of(edit: Callable[..., Awaitable[object]]) -> int | None:
    """The channel of the message whose ``edit`` this is (a bound ``Message.edit``)."""
    channel = getattr(getattr(edit, "__self__", None), "channel", None)
    cid = getattr(channel, "id", None)
    return cid if isinstance(cid, int) else None


def retirer(edit: Callable[..., Awaitable[object]], content: str, marker: str) -> Retirer:
    """A :class:`Retirer` for a menu showing ``content`` (``marker``: its general line)."""
    return Retirer(edit, content, marker)


@dataclass
class _Menu:
    game_id: int
    user_id: int
    version: int
    #: retires the message (edit its text, remove its controls)
    retire: Edit | Retirer
    expires: float | None
    #: the stored row (DM menus once storage is attached), else None
    row: MenuRow | None = None
    #: why it is no longer current, when that is known before it is retired
    reason: Stale = Stale.PASSED


def current(seats: Sequence[SeatRow], since: Mapping[int, int], user_id: int,
            version: int) -> bool:
    """Whether a menu made for ``user_id`` at ``version`` still belongs to a decision they
    owe: they hold a seat that a person plays, it owes a decision, and has owed it since
    ``version`` or earlier."""
    for s in seats:
        if s.user_id == user_id and not s.is_ai:
            return s.seat in since and since[s.seat] <= version
    return False


def why_stale(seats: Sequence[SeatRow], user_id: int, known: Stale = Stale.PASSED) -> Stale:
    """Why a menu of ``user_id`` is no longer current: a computer plays their seat now,
    the seat is someone else's, or the decision passed (``known``: how, if known)."""
    for s in seats:
        if s.user_id == user_id:
            return Stale.COMPUTER if s.is_ai else known
    return Stale.OTHER_PLAYER if seats else known


class PrivateMenus:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._menus: dict[int, _Menu] = {}  # by message id
        self._clock = clock
        self._store: Storage | None = None
        self._client: PartialClient | None = None
        self._writes: collections.deque[Callable[[Storage], Awaitable[None]]] = \
            collections.deque()
        self._writer: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ storing
    def attach(self, storage: Storage, client: PartialClient) -> None:
        """Store DM menus from now on (``client``: edits them after a restart)."""
        self._store = storage
        self._client = client

    def _write(self, op: Callable[[Storage], Awaitable[None]]) -> None:
        """Queue a write; one task writes them in order, in the background."""
        if self._store is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a synchronous caller): nothing can be written
            log.warning("a private menu change was not stored (no event loop)")
            return
        self._writes.append(op)
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._drain(), name="tempus-menus-store")

    async def _drain(self) -> None:
        while self._writes and self._store is not None:
            op = self._writes.popleft()
            try:
                await op(self._store)
            except Exception as exc:  # a lost write: the menu is refused as stale anyway
                log.warning("could not store a private menu change: %s", exc)

    async def flush(self) -> None:
        """Until every queued write is done (tests, shutdown, before :meth:`restore`)."""
        while self._writer is not None and not self._writer.done():
            await asyncio.shield(self._writer)

    def _put(self, row: MenuRow | None) -> None:
        if row is not None:
            self._write(lambda store: store.put_private_menu(row))

    def _drop(self, rows: Sequence[MenuRow | None]) -> None:
        ids = [r.message_id for r in rows if r is not None]
        if ids:
            self._write(lambda store: store.drop_private_menus(ids))

    # ------------------------------------------------------------------ the menus
    def remember(self, message_id: int, game_id: int, user_id: int, version: int,
                 retire: Edit | Retirer, *, ephemeral: bool = False) -> None:
        """A menu was sent (or edited in place to a newer one: it replaces the old)."""
        expires = self._clock() + EPHEMERAL_LIFE if ephemeral else None
        row = None
        if not ephemeral and isinstance(retire, Retirer) and retire.channel_id is not None:
            row = MenuRow(message_id, retire.channel_id, game_id, user_id, version,
                          retire.content, retire.locale)
        old = self._menus.get(message_id)
        self._menus[message_id] = _Menu(game_id, user_id, version, retire, expires, row)
        if row is not None:
            self._put(row)
        elif old is not None:
            self._drop([old.row])

    def has_menu(self, game_id: int, user_id: int, version: int) -> bool:
        """Whether a DM menu of the person's, made at ``version`` or later, is live."""
        return any(m.game_id == game_id and m.user_id == user_id and m.version >= version
                   and m.expires is None for m in self._menus.values())

    def forget(self, message_id: int) -> None:
        """The menu was used and already says what happened."""
        menu = self._menus.pop(message_id, None)
        if menu is not None:
            self._drop([menu.row])

    def take(self, message_id: int) -> _Menu | None:
        """Take the menu out while it is being used (see :meth:`put_back`)."""
        menu = self._menus.pop(message_id, None)
        if menu is not None:
            self._drop([menu.row])
        return menu

    def put_back(self, message_id: int, menu: _Menu) -> None:
        """The use was refused: the menu is as it was."""
        if message_id not in self._menus:
            self._menus[message_id] = menu
            self._put(menu.row)

    def timed_out(self, game_id: int, user_id: int) -> None:
        """The person's time ran out in this game and a computer decides for them: their
        menus are retired saying so (not as if they had decided)."""
        for m in self._menus.values():
            if m.game_id == game_id and m.user_id == user_id:
                m.reason = Stale.TIMED_OUT

    def stale(self, game_id: int, seats: Sequence[SeatRow], since: Mapping[int, int]
              ) -> list[Edit]:
        """Take out the game's menus that are no longer current; returns their retirers.
        Ephemeral menus past their editable life are dropped silently."""
        now = self._clock()
        out: list[Edit] = []
        gone: list[MenuRow | None] = []
        for mid, m in list(self._menus.items()):
            if m.expires is not None and m.expires < now:
                del self._menus[mid]
            elif m.game_id == game_id and not current(seats, since, m.user_id, m.version):
                del self._menus[mid]
                gone.append(m.row)
                if isinstance(m.retire, Retirer):
                    out.append(functools.partial(m.retire, why_stale(seats, m.user_id,
                                                                     m.reason)))
                else:
                    out.append(m.retire)
        self._drop(gone)
        return out

    async def retire_stale(self, game_id: int, seats: Sequence[SeatRow],
                           since: Mapping[int, int]) -> int:
        """Retire the game's menus that are no longer current; a failed edit (the message
        deleted, the token expired, DMs closed) is skipped. Returns how many were tried."""
        edits = self.stale(game_id, seats, since)
        for edit in edits:
            try:
                await edit()
            except Exception as exc:  # any refusal: the menu stays as it is
                log.info("game %s: could not retire a private menu: %s", game_id, exc)
        return len(edits)

    # ------------------------------------------------------------------ after a restart
    async def restore(self, position: Callable[[int], Awaitable[Position | None]]) -> int:
        """Read back the DM menus stored before a restart: those of games this process
        runs (``position`` gives a game's seats and owed decisions, None for another
        process's game) are kept, and the ones whose decision passed meanwhile are
        retired now. Returns how many were retired."""
        if self._store is None or self._client is None:
            return 0
        await self.flush()
        client = self._client
        rows = await self._store.private_menus()
        by_game: dict[int, list[MenuRow]] = {}
        for row in rows:
            by_game.setdefault(row.game_id, []).append(row)
        retired = 0
        for game_id, menus in by_game.items():
            try:
                pos = await position(game_id)
            except Exception as exc:  # an unreadable game: its menus wait for next time
                log.warning("game %s: its private menus are not restored: %s", game_id, exc)
                continue
            if pos is None:
                continue  # another process's game: that process retires them
            for row in menus:
                if row.message_id in self._menus:
                    continue
                edit = client.get_partial_messageable(row.channel_id) \
                    .get_partial_message(row.message_id).edit
                self._menus[row.message_id] = _Menu(
                    row.game_id, row.user_id, row.version,
                    Retirer(edit, row.content, channel_id=row.channel_id, locale=row.locale),
                    None, row)
            retired += await self.retire_stale(game_id, *pos)
        return retired

    def __len__(self) -> int:
        return len(self._menus)
