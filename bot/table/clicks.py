"""A click on a control (button or select of a :class:`~games.controls.Panel`): dispatched by
its op (:class:`~games.controls.Op`) through one table of handlers, each a short adapter
from the click to a use case and its :class:`~bot.table.model.Reply`.

Adding a button: an op in :class:`~games.controls.Op`, its use case, one entry in
:meth:`Clicks.handlers`, and the panel that shows it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.table.lessons import Lessons
from bot.table.lobby import Lobby
from bot.table.model import Reply, TableError
from bot.table.play import Play
from bot.table.presence import Presence
from bot.table.recaps import Recaps
from bot.table.seats import Seats
from bot.table.sync import Sync
from bot.table.tables import Tables
from games.controls import Op, Panel, shown
from lang import i18n
from lang.messages import t


@dataclass(frozen=True)
class Click:
    """One use of a control: who, on which game's controls made at ``version``, the op's
    argument and the values chosen in a select."""

    game_id: int
    version: int
    user_id: int
    name: str
    arg: str
    values: list[str] | None
    can_manage: bool


Handler = Callable[[Click], Awaitable[Reply]]
#: (game, person) -> the person's link to the game's live page, in words (bot/web)
BoardLink = Callable[[int, int], Awaitable[str]]


class Clicks:
    def __init__(self, tables: Tables, lobby: Lobby, play: Play, seats: Seats, sync: Sync,
                 owns: Callable[[int | None], bool], recaps: Recaps,
                 presence: Presence | None = None, lessons: Lessons | None = None) -> None:
        self.tables = tables
        self.presence = presence or Presence()
        self.owns = owns
        self.lobby = lobby
        self.play = play
        self.seats = seats
        self.sync = sync
        self.recaps = recaps
        #: the live pages' links (set when they are on, bot/web)
        self.board_link: BoardLink | None = None
        self.lessons = lessons
        self.handlers: dict[Op, Handler] = {
            Op.JOIN: self._join,
            Op.LEAVE: self._leave,
            Op.ADDBOT: self._add_ai,
            Op.START: self._start,
            Op.CANCEL: self._cancel,
            Op.QUIT: self._quit,
            Op.UNDO: self._undo,
            Op.HELP: self._help,
            Op.RECAP: self._recap,
            Op.REMATCH: self._rematch,
            Op.MENU: self._menu,
            Op.ACT: self._act,
            Op.CARDS: self._cards,
            Op.MUTE: self._mute,
            Op.BOARD: self._board,
            Op.LESSON: self._lesson,
            Op.LESSON_LEAVE: self._lesson_leave,
            Op.LESSON_TABLE: self._lesson_table,
        }

    async def use(self, game_id: int, version: int, user_id: int, name: str, op: str,
                  arg: str, values: list[str] | None = None, *,
                  can_manage: bool = False) -> Reply:
        """One use of a control. A click refused as stale is tried once more if the game
        had changed in another process (this process's copy was behind); a game of another
        process is brought up to date before its menus are shown."""
        try:
            handler = self.handlers[Op(op)]
        except ValueError:
            raise TableError("error.bad_choice", reason=shown(op)) from None
        click = Click(game_id, version, user_id, name, arg, values, can_manage)
        if Op(op).of_lesson:  # its number is a lesson's, not a game's: no table is used
            return await handler(click)
        cached = self.tables.cached(game_id)
        if cached is not None and not self.owns(cached.game.guild_id) \
                and not await self.sync.refresh(game_id):
            await self.sync.clock_of_foreign_game(cached)
        # whoever uses a game's controls is at its table for a while: no pings meanwhile
        self.presence.seen(game_id, user_id)
        try:
            return await handler(click)
        except TableError as exc:
            if exc.key != "error.stale" or not await self.sync.refresh(game_id):
                raise
        return await handler(click)

    # ------------------------------------------------------------------ the lobby
    async def _join(self, c: Click) -> Reply:
        return Reply(outcome=await self.lobby.join(c.game_id, c.user_id, c.name))

    async def _leave(self, c: Click) -> Reply:
        return Reply(outcome=await self.lobby.leave(c.game_id, c.user_id))

    async def _add_ai(self, c: Click) -> Reply:
        """The lobby's "add a computer": the level chosen in its menu (an older lobby's
        button chooses none: the level the table gets by default)."""
        level = c.values[0] if c.values else (c.arg or None)
        return Reply(outcome=await self.lobby.add_ai(c.game_id, c.user_id, level))

    async def _start(self, c: Click) -> Reply:
        return Reply(outcome=await self.lobby.start(c.game_id, c.user_id))

    async def _cancel(self, c: Click) -> Reply:
        return Reply(outcome=await self.lobby.cancel(c.game_id, c.user_id,
                                                     can_manage=c.can_manage))

    async def _rematch(self, c: Click) -> Reply:
        return await self.lobby.rematch(c.game_id, c.user_id, c.name)

    # ------------------------------------------------------------------ a lesson
    def _lessons(self) -> Lessons:
        if self.lessons is None:
            raise TableError("lesson.none")
        return self.lessons

    async def _lesson(self, c: Click) -> Reply:
        return await self._lessons().click(c.game_id, c.version, c.user_id, c.arg)

    async def _lesson_leave(self, c: Click) -> Reply:
        return await self._lessons().leave(c.game_id, c.user_id)

    async def _lesson_table(self, c: Click) -> Reply:
        """After the lesson: a real table in the channel it was asked for in, the learner
        and two computers of the level for newcomers, ready to start."""
        lessons = self._lessons()
        row = await lessons.owned(c.game_id, c.user_id)
        if row.channel_id is None:
            raise TableError("lesson.no_channel")
        outcome = await self.lobby.create(row.guild_id, row.channel_id, c.user_id, c.name,
                                          game=row.game, seats=3,
                                          extra={"locale": i18n.current()})
        table = await self.tables.get(outcome.game_id)
        level = table.port.lessons.newcomer_level() if table.port.lessons else None
        for _ in range(2):
            outcome = await self.lobby.add_ai(outcome.game_id, c.user_id, level)
        reply = await lessons.end_page(row, t("lesson.table_opened", game=outcome.game_id,
                                              channel=row.channel_id))
        reply.outcome = outcome
        return reply

    # ------------------------------------------------------------------ a running game
    async def _quit(self, c: Click) -> Reply:
        outcome = await self.seats.leave_game(c.game_id, c.user_id)
        return Reply(text=t("leave.done", game=c.game_id), outcome=outcome)

    async def _undo(self, c: Click) -> Reply:
        outcome = await self.play.undo(c.game_id, c.user_id, c.version)
        return Reply(text=outcome.lines[0], outcome=outcome)

    async def _help(self, c: Click) -> Reply:
        """The "?" button: help for whoever clicks, privately."""
        panel, version = await self.play.help(c.game_id, c.user_id)
        return Reply(menu=panel, version=version)

    async def _recap(self, c: Click) -> Reply:
        """ "What happened?": a recap for whoever clicks, privately."""
        panel, version = await self.recaps.for_user(c.game_id, c.user_id)
        return Reply(menu=panel, version=version)

    async def _menu(self, c: Click) -> Reply:
        spec = f"{c.arg}:{c.values[0]}" if c.values else c.arg
        panel, now = await self.play.menu(c.game_id, c.user_id, spec, c.version)
        return Reply(menu=panel, version=now)

    async def _mute(self, c: Click) -> Reply:
        """The turn message's mute button: no pings for the clicker in this turn."""
        table = await self.tables.get(c.game_id)
        if table.state is None or table.seat_of(c.user_id) is None:
            raise TableError("error.not_seated", game=c.game_id)
        turn = table.port.rules.turn_key(table.state)
        # kept before it is confirmed: a restart must not bring this turn's pings back
        await self.tables.storage.set_turn_mute(c.game_id, c.user_id, turn)
        self.presence.mute(c.game_id, c.user_id, turn)
        return Reply(menu=Panel(t("mute.done", game=c.game_id)), version=table.version)

    async def _board(self, c: Click) -> Reply:
        """The turn message's "🗺️ Board": the clicker's link to the live page, privately
        (their seat's while they play it, else one to watch)."""
        if self.board_link is None:
            raise TableError("web.off")
        table = await self.tables.get(c.game_id)
        return Reply(menu=Panel(await self.board_link(c.game_id, c.user_id)),
                     version=table.version)

    async def _act(self, c: Click) -> Reply:
        text = c.values[0] if c.values else c.arg
        show = (await self.tables.get(c.game_id)).port.show
        try:
            actions = show.decode(text)
        except ValueError:
            raise TableError("error.bad_choice", reason=shown(text)) from None
        if len(actions) == 1:
            outcome = await self.play.act(c.game_id, c.user_id, actions[0], c.version)
        else:  # a step and the end of its action ("... and stop moving"): one click
            outcome = await self.play.act_many(c.game_id, c.user_id, actions, c.version)
        return Reply(text=t("ack.done", what=show.steps_label(actions)), outcome=outcome)

    async def _cards(self, c: Click) -> Reply:
        show = (await self.tables.get(c.game_id)).port.show
        try:
            show.cards_action(c.arg, ())
        except (KeyError, ValueError):
            raise TableError("error.bad_choice", reason=shown(c.arg)) from None
        bad = [v for v in c.values or () if not (v.isascii() and v.isdigit() and len(v) < 6)]
        if bad:
            raise TableError("error.bad_choice", reason=shown(bad[0]))
        action = show.cards_action(c.arg, tuple(sorted(int(v) for v in c.values or ())))
        outcome = await self.play.act(c.game_id, c.user_id, action, c.version)
        return Reply(text=t("ack.done", what=show.action_label(action)), outcome=outcome)
