"""Private menus that were sent (DMs, ephemeral replies), so they can be retired.

A private menu is made for one person's decision at one game version. Once that decision
has passed (the person made it elsewhere, the clock made it for them, a computer took the
seat, someone else got the seat, the game ended) its buttons could only be refused, so the
publisher edits it to say it is no longer current, without controls.

Kept **in memory only**: after a restart the list is empty and menus sent before it stay
as they were; that is harmless, since any use of them is refused as stale by the version
check of the table service. Ephemeral replies can only be edited for 15 minutes (the
interaction token's life), so they are forgotten after that.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass

from .storage import SeatRow

log = logging.getLogger(__name__)

#: an interaction token lives 15 minutes; stop a little before
EPHEMERAL_LIFE = 14 * 60.0
MAX_CONTENT = 2000

Edit = Callable[[], Awaitable[None]]


@dataclass
class _Menu:
    game_id: int
    user_id: int
    version: int
    #: retires the message (edit its text, remove its controls)
    retire: Edit
    expires: float | None


def current(seats: Sequence[SeatRow], since: Mapping[int, int], user_id: int,
            version: int) -> bool:
    """Whether a menu made for ``user_id`` at ``version`` still belongs to a decision they
    owe: they hold a seat that a person plays, it owes a decision, and has owed it since
    ``version`` or earlier."""
    for s in seats:
        if s.user_id == user_id and not s.is_ai:
            return s.seat in since and since[s.seat] <= version
    return False


class PrivateMenus:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._menus: dict[int, _Menu] = {}  # by message id
        self._clock = clock

    def remember(self, message_id: int, game_id: int, user_id: int, version: int,
                 retire: Edit, *, ephemeral: bool = False) -> None:
        """A menu was sent (or edited in place to a newer one: it replaces the old)."""
        expires = self._clock() + EPHEMERAL_LIFE if ephemeral else None
        self._menus[message_id] = _Menu(game_id, user_id, version, retire, expires)

    def forget(self, message_id: int) -> None:
        """The menu was used and already says what happened."""
        self._menus.pop(message_id, None)

    def take(self, message_id: int) -> _Menu | None:
        """Take the menu out while it is being used (see :meth:`put_back`)."""
        return self._menus.pop(message_id, None)

    def put_back(self, message_id: int, menu: _Menu) -> None:
        """The use was refused: the menu is as it was."""
        self._menus.setdefault(message_id, menu)

    def stale(self, game_id: int, seats: Sequence[SeatRow], since: Mapping[int, int]
              ) -> list[Edit]:
        """Take out the game's menus that are no longer current; returns their retirers.
        Ephemeral menus past their editable life are dropped silently."""
        now = self._clock()
        out: list[Edit] = []
        for mid, m in list(self._menus.items()):
            if m.expires is not None and m.expires < now:
                del self._menus[mid]
            elif m.game_id == game_id and not current(seats, since, m.user_id, m.version):
                del self._menus[mid]
                out.append(m.retire)
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

    def __len__(self) -> int:
        return len(self._menus)


def retirer(edit: Callable[..., Awaitable[object]], content: str, marker: str) -> Edit:
    """An :data:`Edit` that replaces the message text by ``content`` plus ``marker`` and
    removes its controls (attachments such as the hand picture stay)."""
    text = f"{content[: MAX_CONTENT - len(marker) - 2]}\n\n{marker}"

    async def retire() -> None:
        await edit(content=text, view=None)
    return retire
