"""How long a decision may take: the pace a table is played at, and when to remind.

A table chooses its pace when it opens (``/tempus new pace:``) and the host may change it
(``/tempus table pace``). Each pending decision gets ``seconds`` from the moment the seat began
to owe it; the player is reminded at half the time and again ``warn_before`` seconds before
the deadline; at the deadline a computer decides for the seat. A deadline that passed while
the bot was down is moved to ``grace`` seconds after the start-up (and announced).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

MINUTE, HOUR = 60.0, 3600.0


@dataclass(frozen=True)
class Pace:
    name: str
    #: time per decision (None: no deadlines at all)
    seconds: float | None
    #: the second reminder comes this long before the deadline
    warn_before: float = 0.0
    #: after a restart, a deadline that passed meanwhile fires this long after start-up
    grace: float = 0.0


PACES: dict[str, Pace] = {
    "live": Pace("live", 3 * MINUTE, warn_before=1 * MINUTE, grace=1 * MINUTE),
    "daily": Pace("daily", 24 * HOUR, warn_before=2.4 * HOUR, grace=10 * MINUTE),
    "relaxed": Pace("relaxed", 72 * HOUR, warn_before=7.2 * HOUR, grace=10 * MINUTE),
    "none": Pace("none", None),
}
DEFAULT_PACE = "daily"
#: reminder stages: 1 at half time, 2 shortly before the deadline
HALF, LAST = 1, 2


class Due(StrEnum):
    """What a pending decision's clock does next (the kind of its scheduler entry)."""

    REMIND = "remind"
    DEADLINE = "deadline"
    #: the person has not acted a few minutes after being asked: tell them (bot.timing.nudges)
    NUDGE = "nudge"


class UnknownPace(ValueError):
    pass


def pace(name: str | None) -> Pace:
    """The pace called ``name`` (None: the default); UnknownPace if there is none."""
    key = (name or DEFAULT_PACE).strip().lower()
    if key not in PACES:
        raise UnknownPace(key)
    return PACES[key]


def reminder_times(started_at: float, due_at: float, p: Pace) -> dict[int, float]:
    """When each reminder of a decision is due. Measured back from the deadline, so a
    deadline moved by a change of pace or a restart keeps sensible reminders; a reminder
    that would come before the previous one (or before the start) is left out."""
    length = due_at - started_at
    out: dict[int, float] = {}
    if length <= 0:
        return out
    half = due_at - length / 2
    out[HALF] = half
    last = due_at - p.warn_before
    if p.warn_before > 0 and last > half:
        out[LAST] = last
    return out


def next_event(started_at: float, due_at: float, reminded: int, p: Pace
               ) -> tuple[float, Due]:
    """The next thing to happen for a pending decision: ``(when, Due.REMIND)`` for the next
    reminder not yet sent, else ``(due_at, Due.DEADLINE)``."""
    for stage, when in sorted(reminder_times(started_at, due_at, p).items()):
        if stage > reminded:
            return when, Due.REMIND
    return due_at, Due.DEADLINE


def reminder_stage(started_at: float, due_at: float, now: float, p: Pace) -> int:
    """The latest reminder stage whose time has come at ``now`` (0: none yet). A reminder
    missed while the bot was down is folded into the later one: only one is sent."""
    stage = 0
    for s, when in reminder_times(started_at, due_at, p).items():
        if when <= now:
            stage = max(stage, s)
    return stage
