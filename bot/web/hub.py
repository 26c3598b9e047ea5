"""The pages open on each game, and the pushes that bring them every change.

The table service's announcer hands every change as it is committed to :meth:`Hub.outcome`
(a listener beside its sink; a computer's steps one by one): the game is marked changed
and one task per game builds, for each page open on it, what that page shows now
(:mod:`bot.web.pages`) and hands it to the page's stream. States made for one reader are
shared by every page of the same reader (seat and language); a page that is still writing
an older state gets only the newest, so a slow phone never holds up the others nor piles
up states.

The game's log is the public lines of its outcomes (as its thread shows them), kept for
the last :data:`LOG_LINES`; the first page of a game that this process has not announced
since it started gets the lines of its stored record (``Media.public_log``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.table.model import Outcome, OutcomeKind, Table, TableError, locale_of, record_of
from bot.table.service import TableService
from bot.web.pages import Viewer, board_of, encode, page_state, without_mentions
from games.port import BoardSvg

log = logging.getLogger(__name__)

#: the lines of a game's log a page shows
LOG_LINES = 40
#: the steps looked back at for the board's last-move overlay
RECENT_STEPS = 12
#: seconds between looks at the store for games with pages that another process runs
FOREIGN_EVERY_S = 1.0
#: messages kept for the next page of the same reader (a reload, many watchers at once)
MESSAGES_KEPT = 256
#: games whose log and last move are remembered without a page open (least recent out)
REMEMBERED = 2_000


@dataclass(eq=False)
class Page:
    """One open page: its reader, the map it has, the newest state not yet written."""

    viewer: Viewer
    #: the key of the map layer the page has ("": none yet)
    map_key: str
    #: the version the page shows
    version: int
    pending: bytes | None = None
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    #: when the change now pending was committed (time.perf_counter; the bench's measure)
    committed_at: float = 0.0

    def offer(self, data: bytes, version: int, committed_at: float) -> None:
        self.pending = data
        self.version = version
        self.committed_at = committed_at
        self.ready.set()

    def take(self) -> bytes | None:
        data, self.pending = self.pending, None
        self.ready.clear()
        return data


@dataclass
class GameNews:
    """What a game's pages show besides the table: its recent lines, its last move."""

    #: (version, line): the newest lines of the game's log
    lines: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    #: whether the lines before this process's first outcome came from the record
    filled: bool = False
    committed_at: float = 0.0


class Hub:
    def __init__(self, service: TableService, *, max_pages: int = 5_000) -> None:
        self.service = service
        self.max_pages = max_pages
        self.pages: dict[int, set[Page]] = {}
        self.news: OrderedDict[int, GameNews] = OrderedDict()
        self._dirty: set[int] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._maps: OrderedDict[str, bytes] = OrderedDict()
        #: the messages made lately, by (game, version, seat, language, with the map)
        self._messages: OrderedDict[tuple[int, int, int | None, str, bool], bytes] = \
            OrderedDict()
        #: called with (game, seconds from commit to the push handed to its pages)
        self.on_push: Callable[[int, float], None] | None = None
        self._closed = False
        self._watch: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Watch the games that other processes run (several processes on PostgreSQL):
        their changes reach this process's pages within :data:`FOREIGN_EVERY_S`."""
        self._watch = asyncio.create_task(self._watch_foreign(), name="tempus-web-foreign")

    async def _watch_foreign(self) -> None:
        """A game another process owns is told of nothing here: its announcements are the
        owner's. For those with pages open here, the store is asked for changes (as a
        click here would) and the pages get them."""
        while not self._closed:
            await asyncio.sleep(FOREIGN_EVERY_S)
            for game_id in list(self.pages):
                try:
                    table = await self.service.tables.get(game_id)
                    if self.service.ownership(table.game.guild_id):
                        continue
                    await self.service.sync.refresh(game_id)
                    table = await self.service.tables.get(game_id)
                    if any(p.version < table.version for p in self.pages.get(game_id, ())):
                        self.changed(game_id)
                except TableError:
                    pass  # gone: its pages keep what they show
                except Exception:
                    log.exception("game %s: catching up for its pages failed", game_id)

    @property
    def open_pages(self) -> int:
        return sum(len(p) for p in self.pages.values())

    # ------------------------------------------------------------------ what happens
    def outcome(self, outcome: Outcome) -> None:
        """The announcer's listener: a change of a game (in commit order)."""
        if outcome.kind == OutcomeKind.REMIND:
            return  # a reminder by DM: nothing on the board changed
        news = self._news(outcome.game_id)
        if outcome.kind != OutcomeKind.LOBBY:
            news.lines.extend((outcome.version, line) for line in outcome.lines)
        news.committed_at = outcome.committed_at
        if outcome.game_id in self.pages:
            self.changed(outcome.game_id)

    def changed(self, game_id: int) -> None:
        """Push the game's state to its pages (once, however many changes came)."""
        if self._closed:
            return
        self._dirty.add(game_id)
        task = self._tasks.get(game_id)
        if task is None or task.done():
            self._tasks[game_id] = asyncio.create_task(self._push_loop(game_id),
                                                       name=f"tempus-web-{game_id}")

    def _news(self, game_id: int) -> GameNews:
        news = self.news.pop(game_id, None) or GameNews()
        self.news[game_id] = news
        if len(self.news) > REMEMBERED:
            for old in list(self.news)[: len(self.news) - REMEMBERED]:
                if old not in self.pages:
                    del self.news[old]
        return news

    # ------------------------------------------------------------------ pages
    def open(self, viewer: Viewer, version: int, map_key: str) -> Page:
        if self.open_pages >= self.max_pages:
            raise OverflowError("too many pages")
        page = Page(viewer, map_key, version)
        self.pages.setdefault(viewer.game_id, set()).add(page)
        return page

    def leave(self, page: Page) -> None:
        pages = self.pages.get(page.viewer.game_id)
        if pages is not None:
            pages.discard(page)
            if not pages:
                del self.pages[page.viewer.game_id]

    async def log_of(self, table: Table) -> list[str]:
        """The game's recent public lines (from its record the first time)."""
        news = self._news(table.id)
        if not news.filled and table.state is not None:
            version = table.version
            try:
                media = table.port.media
                names = media.seat_names(table.seats)
                lines = await self.service.offloader.run(
                    media.public_log, record_of(table).to_json(), names, locale_of(table))
            except Exception:  # a log it cannot replay: the page shows what comes next
                log.exception("game %s: no public log for its page", table.id)
                lines = []
            if not news.filled:
                news.filled = True
                later = [(v, line) for v, line in news.lines if v > version]
                news.lines.clear()
                news.lines.extend([*((version, line) for line in lines), *later])
        return [line for _, line in news.lines]

    @staticmethod
    def last_move(table: Table) -> tuple[int, ...] | None:
        """The overlay of the newest of the table's recent steps that has one (a turn ends
        with steps that have none: drawing, ending it); from the table itself, so that an
        undo takes it back and a computer's steps, pushed one by one, keep it."""
        show = table.port.show
        for _, action in reversed(table.moves[-RECENT_STEPS:]):
            overlay = show.last_move(action)
            if overlay is not None:
                return overlay
        return None

    def map_bytes(self, board: BoardSvg) -> bytes:
        """The JSON of a map layer (made once per map)."""
        data = self._maps.pop(board.map_key, None) or encode(board.map)
        self._maps[board.map_key] = data
        while len(self._maps) > 64:
            self._maps.popitem(last=False)
        return data

    async def message(self, table: Table, viewer: Viewer, map_key: str,
                      board: BoardSvg | None = None) -> bytes:
        """A page's message: ``{"map": ..., "state": ...}`` (the map layer only when the
        page's ``map_key`` is not the board's). Made once per reader (seat and language)
        and version: the pages of one reader share the very bytes."""
        if board is None:
            board = board_of(table, viewer.lang, self.last_move(table))
        with_map = board is not None and board.map_key != map_key
        key = (table.id, table.version, viewer.seat, viewer.lang, with_map)
        made = self._messages.pop(key, None)
        if made is None:
            lines = without_mentions(await self.log_of(table), table.seats)
            data = await page_state(table, viewer, self.service.play.legal, log=lines,
                                    last_move=self.last_move(table), board=board)
            map_json = self.map_bytes(board) if with_map and board is not None else b"null"
            made = b"".join((b'{"map":', map_json, b',"state":', encode(data), b"}"))
            if table.version != key[1]:  # moved on meanwhile: not kept under the old one
                return made
        self._messages[key] = made
        while len(self._messages) > MESSAGES_KEPT:
            self._messages.popitem(last=False)
        return made

    async def send_now(self, page: Page, table: Table) -> None:
        """Give a page the game as it is now (it opened behind)."""
        board = board_of(table, page.viewer.lang, self.last_move(table))
        message = await self.message(table, page.viewer, page.map_key, board)
        if board is not None:
            page.map_key = board.map_key
        page.offer(message, table.version, 0.0)

    # ------------------------------------------------------------------ pushing
    async def _push_loop(self, game_id: int) -> None:
        while game_id in self._dirty and not self._closed:
            self._dirty.discard(game_id)
            try:
                await self._push(game_id)
            except TableError:
                pass  # the game is gone (set aside, deleted): its pages keep what they show
            except Exception:
                log.exception("game %s: pushing to its pages failed", game_id)
        if self._tasks.get(game_id) is asyncio.current_task():
            del self._tasks[game_id]

    async def _push(self, game_id: int) -> None:
        pages = list(self.pages.get(game_id, ()))
        if not pages:
            return
        table = await self.service.tables.get(game_id)
        news = self._news(game_id)
        boards: dict[str, BoardSvg | None] = {}
        for page in pages:
            viewer = page.viewer
            if viewer.seat is not None and (
                    viewer.seat >= len(table.seats)
                    or table.seats[viewer.seat].user_id != viewer.user_id
                    or table.seats[viewer.seat].left):
                page.offer(b'{"gone":true}', table.version, news.committed_at)
                continue  # the seat changed hands: this page shows nothing more of it
            if viewer.lang not in boards:
                boards[viewer.lang] = board_of(table, viewer.lang, self.last_move(table))
            board = boards[viewer.lang]
            message = await self.message(table, viewer, page.map_key, board)
            if board is not None:
                page.map_key = board.map_key
            page.offer(message, table.version, news.committed_at)
        if self.on_push is not None and news.committed_at:
            self.on_push(game_id, time.perf_counter() - news.committed_at)

    async def close(self) -> None:
        self._closed = True
        tasks = list(self._tasks.values())
        if self._watch is not None:
            tasks.append(self._watch)
        for task in tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*tasks, return_exceptions=True)
        for pages in self.pages.values():
            for page in pages:
                page.offer(b"", -1, 0.0)  # wakes each stream, which ends
        self._tasks.clear()
