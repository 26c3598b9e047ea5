"""People new to the game, as a table sees them: who has never finished a game (the
history's results, on any server) and who has been through the lesson
(``/tempus learn``).

A table of newcomers (nobody seated has finished a game) gets the game's level for
newcomers when a computer is added without a level (a ``normal`` computer beat newcomers
by far), and its lobby suggests that level first and the lesson to those who have neither
played nor learnt. The lobby reads this when its seats change (:func:`know`); the game's
tips for first games read it when the game is loaded (bot/table/tips.py).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.store import LessonStore
from bot.table.model import Experience, Table


def people_of(table: Table) -> list[int]:
    """The people seated (computers and empty seats aside), in seat order."""
    return [s.user_id for s in table.seats if s.user_id is not None and not s.is_ai]


async def know(storage: LessonStore, table: Table, also: Iterable[int] = ()) -> None:
    """Read the experience of the people seated at ``table`` (and of ``also``, about to
    sit) into ``table.people``."""
    people = list(dict.fromkeys([*people_of(table), *also]))
    if not people:
        return
    finished = await storage.finished_games(people)
    for user in people:
        lesson = await storage.lesson(user)
        table.people[user] = Experience(finished.get(user, 0),
                                        lesson is not None and lesson.finished)


def of_newcomers(table: Table) -> bool:
    """Somebody is seated and nobody seated is known to have finished a game."""
    people = people_of(table)
    return bool(people) and all(
        u in table.people and table.people[u].newcomer for u in people)


def suggested_level(table: Table) -> str:
    """The computer level the table gets unless it chooses another."""
    lessons = table.port.lessons
    if lessons is not None and of_newcomers(table):
        return lessons.newcomer_level()
    return table.port.computers.default_level()


def to_teach(table: Table) -> list[str]:
    """The names of the people seated who have neither finished a game nor the lesson."""
    if table.port.lessons is None:
        return []
    return [s.name for s in table.seats if s.user_id is not None and not s.is_ai
            and (e := table.people.get(s.user_id)) is not None and e.newcomer
            and not e.learnt]
