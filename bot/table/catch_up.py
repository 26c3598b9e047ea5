"""Catching up: bringing a loaded game up to what another process committed to it (the
other side of the commit path), step by step when possible, announced like local changes
by the game's owner.

:class:`CatchUp` keeps no state. The sync use case (:mod:`bot.table.sync`) calls it when it
hears of a change; the computer players when their move was refused as stale.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import fields
from typing import Any

from bot.store import ACTIVE, CANCELLED, FINISHED, LOBBY, ActionRow, Storage
from bot.table.announce import Announcer
from bot.table.clocks import Clocks
from bot.table.model import (
    Outcome,
    Table,
    next_since,
    public,
)
from bot.table.outcomes import Outcomes
from bot.table.tables import Tables
from lang.messages import t

log = logging.getLogger(__name__)


class CatchUp:
    def __init__(self, storage: Storage, tables: Tables, clocks: Clocks, outcomes: Outcomes,
                 announcer: Announcer, owns: Callable[[int | None], bool]) -> None:
        self.storage = storage
        self.tables = tables
        self.clocks = clocks
        self.outcomes = outcomes
        self.announcer = announcer
        self.owns = owns

    async def __call__(self, table: Table) -> bool:
        """Bring ``table`` (lock held) up to the stored game: the new log entries one by
        one when that is all that changed (announced like local ones), else a full reload
        announced as the position. Returns whether anything changed."""
        game = await self.storage.game(table.id)
        if game is None or game.version <= table.version:
            return False
        owned = self.owns(game.guild_id)
        seats = await self.storage.seats(table.id)
        rows = (await self.storage.actions(table.id))[table.log_len:]
        outcome: Outcome | None = None
        stepwise = (table.state is not None and table.game.status == ACTIVE
                    and seats == table.seats and bool(rows)
                    and [r.version for r in rows]
                    == list(range(table.version + 1, game.version + 1)))
        if stepwise:
            try:
                for row in rows:
                    step = self._replay_step(table, row, announce=owned)
                    if step is not None:
                        outcome = step if outcome is None else outcome.merge(step)
            except Exception:
                log.exception("game %s: catching up step by step failed; reloading", table.id)
                stepwise = False
        if stepwise:
            table.game = game
        else:
            fresh = await self.tables.load(game)
            for f in fields(Table):
                if f.name != "lock":
                    setattr(table, f.name, getattr(fresh, f.name))
            outcome = None
            if owned and game.status == LOBBY:
                outcome = self.outcomes.lobby(table, "")
                outcome.lines = []
            elif owned and game.status == CANCELLED:
                outcome = self.outcomes.cancelled(table, [])
            elif owned and table.state is not None:
                outcome = self.outcomes.play(table, table.state, [], actor=None)
        # the clocks and covered seats as stored with the change (a covered seat whose
        # person acted in the other process is no longer covered there)
        await self.clocks.rearm(table)
        if outcome is not None:
            self.announcer.enqueue(outcome)
        return True

    def _replay_step(self, table: Table, row: ActionRow, *, announce: bool) -> Outcome | None:
        """Apply one stored log entry made elsewhere to ``table``; its outcome if
        ``announce``."""
        before = table.state
        assert before is not None and row.version is not None
        rules, show = table.port.rules, table.port.show
        if rules.is_undo(row.action):
            table.state = table.timeline.undo(row.seat)
            _, undone = table.moves.pop()
            events: list[Any] = []
            action: Any | None = None
        else:
            action = rules.action_from_json(row.action)
            table.state, events = rules.apply(before, row.seat, action)
            table.timeline.record(before, row.seat, action, events, table.state)
            table.moves.append((row.seat, action))
        table.game.version = row.version
        table.game.status = FINISHED if rules.is_over(table.state) else ACTIVE
        table.log_len += 1
        table.since = next_since(rules, table.since, table.state, row.seat, row.version)
        if not announce:
            return None
        if action is None:
            outcome = self.outcomes.play(table, None, [], actor=row.seat)
            with public(table):
                outcome.lines = [t("undo.done", colour=show.seat_name(row.seat),
                                   what=show.action_label(undone))]
        else:
            outcome = self.outcomes.play(table, before, events, actor=row.seat)
            outcome.last_move = show.last_move(action)
        return outcome
