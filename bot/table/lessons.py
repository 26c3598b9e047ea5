"""``/tempus learn``: a person's lesson, page by page.

The lesson itself is the game's (:class:`games.port.Lessons`): numbered pages, each with
the coach's words, a board and the choices. Here is what the host adds: one lesson per
person, stored with the page they are at (so it outlives a restart and can be left and
resumed), whose controls carry the lesson's number and the page's (a click on an older
page shows the page the lesson is at), "leave" and, at its end, a real table.

A lesson is nobody's table: it takes no game's lock, touches no clock, announces nothing
and pings nobody; its pages go to the person who clicked, in place of the page clicked.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.store import LessonRow
from bot.table.model import Reply, TableError
from bot.table.parts import UseCase
from games import registry
from games.controls import Button, Op, Panel, with_button
from games.port import LessonPage
from games.port import Lessons as GameLessons
from lang.messages import t

#: a lesson control's argument that shows the page the lesson is at (after leaving it)
RESUME = "resume"
RUNNING, LEFT, FINISHED = "running", "left", "finished"


@dataclass(frozen=True)
class Shown:
    """A lesson's page as a front end shows it: the controls' numbers (the lesson's and
    the page's), the panel, the game that draws its picture, and where the lesson was
    shown last (its private thread and message; none: a private reply)."""

    lesson_id: int
    step: int
    panel: Panel
    game: str
    thread_id: int | None
    message_id: int | None
    #: the lesson had been begun before (it goes on where it was)
    resumed: bool = False

    def reply(self) -> Reply:
        return Reply(page=self.panel, version=self.step, page_game=self.game)


def lessons_of(game: str) -> GameLessons:
    found = registry.game(game).lessons
    if found is None:
        raise TableError("lesson.none")
    return found


class Lessons(UseCase):
    async def open(self, user_id: int, guild_id: int | None, channel_id: int | None,
                   game: str = registry.DEFAULT) -> Shown:
        """The person's lesson: new at its first page, or where they left it."""
        lessons_of(game)
        before = await self.storage.lesson(user_id)
        row = await self.storage.start_lesson(user_id, before.game if before else game,
                                              guild_id, channel_id)
        return self._shown(row, lessons_of(row.game).page(row.step),
                           resumed=before is not None and before.step > 0)

    async def placed(self, user_id: int, thread_id: int | None,
                     message_id: int | None) -> None:
        """The lesson's page was posted there (a private thread's message, or neither: a
        private reply)."""
        await self.storage.set_lesson_place(user_id, thread_id, message_id)

    async def owned(self, lesson_id: int, user_id: int) -> LessonRow:
        """Lesson ``lesson_id`` if it is ``user_id``'s (a click in someone else's lesson
        is refused: it would move their lesson on)."""
        row = await self.storage.lesson_by_id(lesson_id)
        if row is None or row.user_id != user_id:
            raise TableError("lesson.not_yours")
        return row

    async def of_user(self, user_id: int) -> LessonRow | None:
        return await self.storage.lesson(user_id)

    async def click(self, lesson_id: int, version: int, user_id: int, arg: str) -> Reply:
        """A choice on a page (:data:`games.controls.Op.LESSON`): the game's answer, stored
        as the page the lesson is at. A click on a page that is not the lesson's now (an
        older message, a second click), or on a lesson left, shows the page it is at."""
        row = await self.owned(lesson_id, user_id)
        lessons = lessons_of(row.game)
        if row.status == LEFT or arg == RESUME or version != row.step:
            if row.status == LEFT:
                await self.storage.set_lesson_step(user_id, row.step, row.step, RUNNING)
            return self._shown(row, lessons.page(row.step)).reply()
        page = lessons.answer(row.step, arg)
        status = FINISHED if page.finished else RUNNING
        if (page.step, status) != (row.step, row.status) and not \
                await self.storage.set_lesson_step(user_id, row.step, page.step, status):
            # another click moved the lesson first: show where it is
            now = await self.owned(lesson_id, user_id)
            return self._shown(now, lessons.page(now.step)).reply()
        return self._shown(row, page).reply()

    async def leave(self, lesson_id: int, user_id: int) -> Reply:
        """Leave the lesson where it is: its page is kept for ``/tempus learn`` or the
        "resume" button."""
        row = await self.owned(lesson_id, user_id)
        await self.storage.set_lesson_step(user_id, row.step, row.step, LEFT)
        pages = lessons_of(row.game).pages
        panel = Panel(t("lesson.left", n=min(row.step + 1, pages - 1), steps=pages - 1),
                      [(Button(t("lesson.btn.resume"), Op.LESSON, RESUME, "primary"),)])
        return Reply(page=panel, version=row.step, page_game=row.game)

    async def end_page(self, row: LessonRow, line: str) -> Reply:
        """The lesson's end page again, with ``line`` above it (a table was opened)."""
        page = lessons_of(row.game).page(lessons_of(row.game).pages - 1)
        shown = self._shown(row, page)
        shown.panel.text = f"{line}\n{shown.panel.text}"
        return shown.reply()

    def _shown(self, row: LessonRow, page: LessonPage, *, resumed: bool = False) -> Shown:
        panel = page.panel
        if page.finished:
            panel = with_button(panel, Button(t("lesson.btn.table"), Op.LESSON_TABLE,
                                              style="success"))
        else:
            panel = with_button(panel, Button(t("lesson.btn.leave"), Op.LESSON_LEAVE,
                                              style="danger"))
        return Shown(row.id, page.step, panel, row.game, row.thread_id, row.message_id,
                     resumed)
