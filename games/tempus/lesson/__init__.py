"""Tempus's lesson (games.port.Lessons): a short scripted game that teaches the rules by
having the learner make each move (:mod:`~games.tempus.lesson.script`, played out by
:mod:`~games.tempus.lesson.coach` on the lesson's map and deck,
:mod:`~games.tempus.lesson.positions`), and the tips of a person's first games."""

from __future__ import annotations

from engine.game import decision_for
from engine.state import State
from games.port import LessonPage, Tip
from games.tempus import computer_levels
from games.tempus.lesson import coach
from lang import i18n
from lang.messages import t


def _page(p: coach.Page) -> LessonPage:
    return LessonPage(p.step, p.panel, p.finished)


class TempusLessons:
    """games.port.Lessons for Tempus."""

    pages = coach.PAGES

    def page(self, step: int) -> LessonPage:
        return _page(coach.page(step))

    def answer(self, step: int, choice: str) -> LessonPage:
        return _page(coach.answer(step, choice))

    def tip(self, state: State, seat: int) -> Tip | None:
        """One sentence on the kind of decision ``seat`` owes (``tip.<kind>``)."""
        decision = decision_for(state, seat)
        if decision is None or not i18n.has(f"tip.{decision.kind}"):
            return None
        return Tip(str(decision.kind), t(f"tip.{decision.kind}"))

    def newcomer_level(self) -> str:
        """``easy``: simple moves, for a person's first games (``normal`` beat newcomers
        by far)."""
        levels = computer_levels.levels()
        easy = computer_levels.Level.EASY
        return easy if easy in levels else computer_levels.default_level()
