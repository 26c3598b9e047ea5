"""The one commit path: every change a use case makes to a loaded game goes through
:meth:`Commits.commit`, in this order:

1. the change was decided (validated by the game's rules where it is a move) with the turn
   clocks it implies (:meth:`bot.table.clocks.Clocks.plan`);
2. it is **stored** in one transaction with those clocks, if the game is still at the
   version it was decided at (else :class:`~bot.table.model.Stale`, nothing changed);
3. the **cached table** is updated (version, then what the change says);
4. the **clocks** are kept and armed (:meth:`bot.table.clocks.Clocks.committed`);
5. its **outcome** is built for announcing (the caller queues it: at once, merged with
   the next, or held back for a computer's run).

The caller holds the game's lock. :meth:`Commits.apply` is a move (the rules' apply then the
path above), for people and computers alike.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from bot.store import ACTIVE, FINISHED, Storage, VersionConflict
from bot.table.clocks import Clocks, Rows, still_covered
from bot.table.model import (
    Outcome,
    Stale,
    StorageRefusal,
    Table,
    TableError,
    next_since,
)
from bot.table.outcomes import Outcomes
from games.port import Refused


def unchanged(table: Table) -> None:
    """Nothing more of the table changes than the commit path's fields."""
    return None


@dataclass
class Change:
    """A change to one loaded game, decided but not stored yet."""

    #: stores it (with the version check) and the given clocks in one transaction;
    #: returns the game's new version (raises VersionConflict when it is behind)
    write: Callable[[Rows], Awaitable[int]]
    #: the turn clocks stored with it (bot.table.clocks.Clocks.plan, .repace, .stopped)
    rows: Rows = None
    #: whether the game has clocks to keep and arm after it (a lobby has none)
    timed: bool = True
    #: who owes a decision after it, since when (None: as before)
    since: dict[int, int] | None = None
    #: the seats a computer covers after it (None: as before)
    covering: dict[int, str] | None = None
    #: the seats changed: read them back from the store once it is stored
    reseat: bool = False
    #: the rest of the cached table after it (state, log, status, options, host ...)
    update: Callable[[Table], None] = field(default=unchanged)


def lobby_change(write: Callable[[], Awaitable[int]],
                 update: Callable[[Table], None] = unchanged) -> Change:
    """A change to a lobby: stored by ``write`` (seats or options), the seats read back,
    no clocks (they start with the game)."""
    return Change(lambda rows: write(), timed=False, reseat=True, update=update)


class Commits:
    def __init__(self, storage: Storage, clocks: Clocks, outcomes: Outcomes) -> None:
        self.storage = storage
        self.clocks = clocks
        self.outcomes = outcomes

    async def commit(self, table: Table, change: Change,
                     outcome: Callable[[Table], Outcome]) -> Outcome:
        """Store ``change`` (lock held), update the cached table and its clocks; returns
        what ``outcome`` makes of the table after it."""
        try:
            version = await change.write(change.rows)
        except VersionConflict:
            raise Stale() from None
        table.game.version = version
        if change.reseat:
            table.seats = await self.storage.seats(table.id)
        change.update(table)
        if change.since is not None:
            table.since = change.since
        if change.covering is not None:
            table.covering = change.covering
        if change.timed:
            self.clocks.committed(table, change.rows)
        result = outcome(table)
        if change.timed:
            await self._told(table, result)
        return result

    async def _told(self, table: Table, outcome: Outcome) -> None:
        """The seats ``outcome`` notifies of their decision (a ping, a DM with a secret
        choice) have had the one notification of it: no nudge follows (the commit path
        of a move stored it with the clocks already; other changes, e.g. the start, are
        noted here)."""
        users = set(outcome.mention)
        for seat, row in list(table.clock.items()):
            if row.nudged or row.since is None or row.due_at is None \
                    or seat >= len(table.seats):
                continue
            if seat in outcome.secret_panels or table.seats[seat].user_id in users:
                try:
                    noted = await self.storage.set_nudged(table.id, seat, row.since)
                except StorageRefusal:  # at worst one notification too many
                    continue
                if noted:
                    table.clock[seat] = replace(row, nudged=True)

    async def apply(self, table: Table, seat: int, action: Any, *,
                    person: bool = True, draft: Callable[[Any], bool] | None = None
                    ) -> Outcome:
        """A move: validated by the game's rules, then committed. ``person``: the seat's person
        decided (not a computer), so their missed deadlines no longer count. ``draft``:
        whether, in the position after the move, its outcome will only be announced
        merged with a later one (:meth:`bot.table.outcomes.Outcomes.play`)."""
        before = table.state
        assert before is not None
        rules = table.port.rules
        try:
            new, events = rules.apply(before, seat, action)
        except Refused as exc:
            raise TableError("error.illegal", reason=exc.reason) from None
        status = FINISHED if rules.is_over(new) else ACTIVE
        since = next_since(rules, table.since, new, seat, table.version + 1)
        covering = still_covered(table, new, since)
        # who this move tells of a new decision (away from the table): decided once, here,
        # for the announcement and for the clocks (those told need no nudge later)
        fresh = [s for s, v in since.items() if v == table.version + 1 and s != seat]
        notify = self.outcomes.to_notify(table, fresh, rules.turn_key(new))
        rows = self.clocks.plan(table, since, person=seat if person else None,
                                computer=covering, over=status == FINISHED, told=notify)

        def moved(table: Table) -> None:
            table.game.status = status
            table.log_len += 1
            table.timeline.record(before, seat, action, events, new)
            table.state = new
            table.moves.append((seat, action))

        def told(table: Table) -> Outcome:
            outcome = self.outcomes.play(table, before, events, actor=seat,
                                         draft=draft is not None and draft(new), notify=notify)
            outcome.last_move = table.port.show.last_move(action)
            return outcome

        return await self.commit(table, Change(
            lambda rows: self.storage.append_action(
                table.id, table.version, table.log_len, seat, action.to_json(), new.to_json(),
                status, rows),
            rows, since=since, covering=covering, update=moved), told)
