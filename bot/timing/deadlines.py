"""The turn clocks of one game, worked out from who owes a decision (pure functions).

A seat has a clock (:class:`~bot.store.DeadlineRow`) while its **person** owes a decision
and the table has a pace: from ``since`` (the game version since which the seat owes it,
see :func:`bot.table.model.next_since`) it runs from ``started_at`` to ``due_at``. Seats played by
a computer (computer players, autopilot, a seat the computer covers after a missed
deadline) have no clock. A row also carries the seat's **strikes** (deadlines missed in a
row), so a seat that owes nothing keeps a row while it has strikes, and, while a computer
covers the seat's turn after a missed deadline, that turn (``covering``): a restart, or
another process, then knows the seat is covered (no fresh deadline, no second strike).

The table service calls :func:`plan` before every commit and stores the result in the same
transaction as the change; :func:`repace` when the host changes the pace; :func:`restart`
when the bot starts again.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace

from bot.store import DeadlineRow, SeatRow
from bot.timing.pace import LAST, Pace, reminder_stage

Rows = dict[int, DeadlineRow]


#: seats a computer covers after a missed deadline -> the turn covered (the game's
#: Rules.turn_key); a plain collection of seats: covered, turn not recorded
Covering = Mapping[int, str] | Collection[int]


def _turn(computer: Covering, seat: int, since: Mapping[int, int]) -> str | None:
    """The turn a computer covers for ``seat`` (to store with its row), if any."""
    if seat in since and isinstance(computer, Mapping):
        return computer.get(seat)
    return None


def _clocked(seat: int, seats: Sequence[SeatRow], computer: Covering) -> bool:
    """Whether the seat's person decides (so a clock runs for them)."""
    return seat < len(seats) and not seats[seat].is_ai and seat not in computer


def _idle(row: DeadlineRow | None, seat: int, covering: str | None = None
          ) -> DeadlineRow | None:
    """What is left of a clock when its seat owes nothing, or a computer covers it: its
    strikes and the turn covered, if any."""
    strikes = row.strikes if row is not None else 0
    if not strikes and covering is None:
        return None
    return DeadlineRow(seat, strikes=strikes, covering=covering)


def covered(rows: Mapping[int, DeadlineRow], since: Mapping[int, int], key: str) -> dict[int, str]:
    """The seats the stored ``rows`` say a computer covers in the turn ``key`` (the
    current one) while they owe a decision; a cover of an earlier turn is over."""
    return {s: r.covering for s, r in rows.items()
            if r.covering is not None and r.covering == key and s in since}


def plan(old: Mapping[int, DeadlineRow], since: Mapping[int, int], seats: Sequence[SeatRow],
         p: Pace, now: float, *, person: int | None = None,
         computer: Covering = (), told: Collection[int] = ()) -> Rows:
    """The clocks after a change: a decision owed since the same version keeps its clock,
    a new one starts now with the full pace. ``person``: a seat whose person has just
    decided themselves (their strikes end). ``computer``: seats a computer covers now
    (their rows keep the turn covered). ``told``: seats whose person this change notifies
    of their new decision (away from the table): no nudge for it (bot.timing.nudges)."""
    out: Rows = {}
    for seat in sorted({*old, *since}):
        row = old.get(seat)
        if person == seat and row is not None:
            row = replace(row, strikes=0)
        if seat in since and _clocked(seat, seats, computer) and p.seconds is not None:
            if row is not None and row.since == since[seat] and row.due_at is not None:
                out[seat] = row
            else:
                out[seat] = DeadlineRow(seat, since[seat], now, now + p.seconds, 0,
                                        row.strikes if row else 0, nudged=seat in told)
        else:
            idle = _idle(row, seat, _turn(computer, seat, since))
            if idle is not None:
                out[seat] = idle
    return out


def repace(old: Mapping[int, DeadlineRow], since: Mapping[int, int], seats: Sequence[SeatRow],
           p: Pace, now: float, *, computer: Covering = ()) -> Rows:
    """The clocks under a new pace: each pending decision is due ``started + new pace``
    but at least half the new pace from now (a shorter pace never fires at once);
    reminders whose time has passed are not sent late."""
    out: Rows = {}
    for seat in sorted({*old, *since}):
        row = old.get(seat)
        if seat in since and _clocked(seat, seats, computer) and p.seconds is not None:
            started = row.started_at if row is not None and row.since == since[seat] \
                and row.started_at is not None else now
            due = max(started + p.seconds, now + p.seconds / 2)
            same = row is not None and row.since == since[seat]
            out[seat] = DeadlineRow(seat, since[seat], started, due,
                                    reminder_stage(started, due, now, p),
                                    row.strikes if row else 0,
                                    nudged=same and row is not None and row.nudged)
        else:
            idle = _idle(row, seat, _turn(computer, seat, since))
            if idle is not None:
                out[seat] = idle
    return out


def restart(old: Mapping[int, DeadlineRow], since: Mapping[int, int], seats: Sequence[SeatRow],
            p: Pace, now: float, *, computer: Covering = ()
            ) -> tuple[Rows, list[int]]:
    """The clocks after a restart, and the seats whose deadline passed while the bot was
    down: those are due ``grace`` after now (announced; no more reminders), so they fire
    once, shortly after start-up. A pending decision without a clock (a game from before
    the turn clock) gets one starting now. ``computer``: the seats a computer still
    covers (see :func:`covered`): they stay covered, with no clock and the same strikes."""
    out: Rows = {}
    late: list[int] = []
    for seat in sorted({*old, *since}):
        row = old.get(seat)
        if seat in since and _clocked(seat, seats, computer) and p.seconds is not None:
            if row is None or row.due_at is None or row.started_at is None:
                out[seat] = DeadlineRow(seat, since[seat], now, now + p.seconds, 0,
                                        row.strikes if row else 0)
            elif row.due_at <= now:
                out[seat] = replace(row, since=since[seat], due_at=now + p.grace,
                                    reminded=LAST)
                late.append(seat)
            else:
                # the stored 'since' may be newer than the one rebuilt from the log (an
                # autopilot that ended): the decision is the same, keep its clock
                out[seat] = replace(row, since=since[seat])
        else:
            idle = _idle(row, seat, _turn(computer, seat, since))
            if idle is not None:
                out[seat] = idle
    return out, late


def pending(rows: Mapping[int, DeadlineRow]) -> list[DeadlineRow]:
    """The clocks that run now (a decision with a deadline), by seat."""
    return [r for _, r in sorted(rows.items()) if r.due_at is not None]
