"""What one page shows: a table seen through a link, as the JSON the page draws.

Built from what the link's reader may know, through the game's port only
(:class:`games.port.Web`): a watching link gets the public view, a seat's link that seat's
view (its hand) and its choices from its legal actions. The same table and the same
reader give the same bytes, so a watching page's state cannot tell the unseen cards apart
(``Rules.twin``: the hands and the deck dealt anew give the very same bytes).
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from bot.store import ACTIVE, FINISHED, SeatRow
from bot.table.model import Table, locale_of, undo_seat
from bot.web.links import Link
from games.port import BoardSvg, Web
from lang import i18n
from lang.messages import t

#: the page's own words (buttons, headings, what it says while it connects)
UI_KEYS = ("hand", "log", "players", "undo", "watching", "connecting", "offline", "sending",
           "cancel", "tap", "selected", "zoom_in", "zoom_out", "fit", "not_yours", "no_cards",
           "done", "lobby", "title", "you")
#: the page fills these in itself
PLACEHOLDERS = {"game": "{game}", "colour": "{colour}", "hex": "{hex}"}


class PageError(Exception):
    """A request the page's server refuses: ``status`` (HTTP) and its words."""

    def __init__(self, status: int, key: str, **kwargs: Any) -> None:
        super().__init__(key)
        self.status = status
        self.key = key
        self.kwargs = kwargs

    def text(self) -> str:
        return t(self.key, **self.kwargs)


@dataclass(frozen=True)
class Viewer:
    """Who looks at a game's page: a seat's person, or anyone with a watching link; in the
    language of the person the link was made for."""

    game_id: int
    seat: int | None
    user_id: int
    lang: str


def web_of(table: Table) -> Web:
    web = table.port.web
    if web is None:  # a game without a page: as if it were not played here
        raise PageError(404, "web.error.game", game=table.id)
    return web


def seat_to_show(table: Table, user_id: int) -> int | None:
    """The seat whose page ``user_id`` gets (a link from the Board button, or the
    Activity): theirs while they play it or once the game ended; else None, to watch."""
    seat = table.seat_of(user_id)
    if seat is None or table.game.status not in (ACTIVE, FINISHED) or table.seats[seat].left:
        return None
    return seat


def viewer_of(table: Table, link: Link) -> Viewer:
    """The viewer a link makes of ``table``; a seat's link only while the person it was
    made for holds the seat (not once it changed hands, nor once they left it)."""
    web_of(table)
    if link.seat is not None:
        seats = table.seats
        if link.seat >= len(seats) or seats[link.seat].user_id != link.user_id \
                or seats[link.seat].left:
            raise PageError(403, "web.error.seat")
    lang = i18n.user_locale(link.user_id, locale_of(table))
    return Viewer(table.id, link.seat, link.user_id, lang)


_MENTION = re.compile(r"<@!?([0-9]{1,20})>")


def without_mentions(lines: list[str], seats: list[SeatRow]) -> list[str]:
    """The lines with Discord's mention markup (``<@id>``, which a page cannot show) as
    the seated person's name (``…`` for someone not seated)."""
    names = {s.user_id: s.name for s in seats if s.user_id is not None}
    return [_MENTION.sub(lambda m: names.get(int(m[1]), "…"), line) for line in lines]


@cache
def ui_words(lang: str) -> dict[str, str]:
    with i18n.using(lang):
        words = {k: t(f"web.page.{k}", **PLACEHOLDERS) for k in UI_KEYS}
        words["gone"] = t("web.error.seat")
        words["cards"] = t("btn.cards")
        words["recap"] = t("btn.recap")
        return words


def may_decide(table: Table, seat: int | None) -> bool:
    """Whether ``seat`` owes a decision it may take itself now (as the table service
    would let it: not left, not on autopilot)."""
    if seat is None or table.game.status != ACTIVE or table.state is None:
        return False
    s = table.seats[seat]
    return seat in table.since and not s.left and s.autopilot is None


def board_of(table: Table, lang: str, last_move: tuple[int, ...] | None) -> BoardSvg | None:
    if table.state is None:
        return None
    public = table.port.rules.view(table.state, None)
    return web_of(table).board_svg(public, last_move, lang)


#: a seat's legal actions as the table service gives them (``service.play.legal``)
Legal = Callable[[int, int], Awaitable[list[Any]]]


async def page_state(table: Table, viewer: Viewer, legal: Legal, *, log: list[str],
                     last_move: tuple[int, ...] | None,
                     board: BoardSvg | None = None) -> dict[str, Any]:
    """What ``viewer``'s page shows of ``table`` now (its map layer aside: the caller sends
    it when the page does not have it); ``board``: the table's board, if made already."""
    rules, web = table.port.rules, web_of(table)
    state = table.state
    out: dict[str, Any] = {"v": table.version, "game": table.id, "status": table.game.status,
                           "seat": viewer.seat, "ui": ui_words(viewer.lang), "log": log,
                           "board": None, "page": None, "choices": None, "undo": False}
    if state is None:
        return out
    if board is None:
        board = board_of(table, viewer.lang, last_move)
    assert board is not None
    out["board"] = {"key": board.map_key, "box": list(board.box), "pieces": board.pieces}
    view = rules.view(state, viewer.seat)
    with i18n.using(viewer.lang):
        names = table.port.media.seat_names(table.seats)
    out["page"] = web.page(view, names, viewer.lang)
    if viewer.seat is not None:
        if may_decide(table, viewer.seat):
            actions = await legal(table.id, viewer.user_id)
            state = table.state  # (the same unless the table moved on meanwhile)
            assert state is not None
            out["choices"] = web.choices(state, viewer.seat, actions, viewer.lang)
        out["undo"] = undo_seat(table) == viewer.seat
    return out


def encode(data: Any) -> bytes:
    """Compact JSON, the same bytes for the same data (UTF-8: no escapes for words)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
