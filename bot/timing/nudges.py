"""When a person who owes a decision is told of it although they seemed to be at the table
(pure functions).

Being at the table is a guess made when a decision is asked (:mod:`bot.timing.presence`: a
click in the last few minutes): a person who walked away right after their click is not
pinged for the next decision, which arrives as a silent edit or without a mention. So
whoever owes a decision and has not used the game's controls for ``NUDGE_S`` after it
became theirs gets then the one notification an away player gets (a ping in the game's
thread, a DM for a secret choice): the **nudge**. It is sent at most once per decision
(``DeadlineRow.nudged``, stored with the clock, so a restart neither repeats nor forgets
it), never to someone who was told when it was asked, and not when a reminder of the
decision comes first anyway (a live table's half-time reminder is due sooner).
"""

from __future__ import annotations

from typing import Final

from bot.store import DeadlineRow
from bot.timing.pace import Pace, reminder_times

#: how long a person may leave a decision of theirs untouched before they are told of it
#: (AsyncTI4 nudges after ten minutes for the same reason; a turn here is shorter)
NUDGE_S: Final = 5 * 60.0


def nudge_at(row: DeadlineRow, p: Pace, last_seen: float | None = None,
             after: float = NUDGE_S) -> float | None:
    """When to tell the person owing ``row``'s decision of it: ``after`` seconds after it
    became theirs, or after their last click in the game (``last_seen``) if that came
    later (someone still clicking is at the table). None: no nudge for it (told already,
    no decision running, or a reminder is due first: it tells them)."""
    if row.nudged or row.started_at is None or row.due_at is None or row.reminded > 0:
        return None
    start = row.started_at if last_seen is None else max(row.started_at, last_seen)
    when = start + after
    first = min(reminder_times(row.started_at, row.due_at, p).values(), default=row.due_at)
    if when >= first:
        return None
    return when
