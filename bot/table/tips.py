"""The tips of a person's first games: in each of their first two games, the first time a
kind of decision is theirs, the turn message says one sentence about it (the game's
:meth:`games.port.Lessons.tip`), named for them (no mention: a tip pings nobody).

At most one tip per person per turn: the tip stays on the turn message while that
decision waits, and a second kind of decision in the same turn gets none (its tip comes
the next time that kind is theirs). A person switches them off with ``/tempus tips``.
What a person has had is stored (``user_settings.tips_seen``), so a tip is never shown
twice, across games and restarts.

A part that owns its state: each person's tips as read from the store, the tip shown to
each person in each game's current turn, and the writes under way.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import replace

from bot.store import LessonStore, Tips
from bot.table.model import Experience, Table
from bot.table.newcomers import people_of
from lang.messages import t

log = logging.getLogger(__name__)

#: a person's first games: those played while they had finished fewer than this many
FIRST_GAMES = 2


class TipsOfFirstGames:
    def __init__(self, storage: LessonStore) -> None:
        self.storage = storage
        #: each person's tips as stored (read when a game of theirs is loaded or started)
        self._people: dict[int, Tips] = {}
        #: (game, person) -> the turn, the kind of decision and the line of the tip shown
        self._shown: dict[tuple[int, int], tuple[str, str, str]] = {}
        self._writes: set[asyncio.Task[None]] = set()

    async def know(self, table: Table) -> None:
        """Read the tips of the people at ``table`` who are in their first games (their
        experience must be known: bot.table.newcomers.know)."""
        first = [u for u in people_of(table)
                 if table.people.get(u, Experience(FIRST_GAMES)).finished < FIRST_GAMES]
        if first:
            self._people.update(await self.storage.tips(first))

    async def switch(self, user_id: int, on: bool) -> str:
        """``/tempus tips on|off``: the person's tips on or off, from now on."""
        await self.storage.set_tips(user_id, on)
        if user_id in self._people:
            self._people[user_id] = replace(self._people[user_id], on=on)
        return t("tips.on" if on else "tips.off")

    def lines(self, table: Table, deciding: list[int]) -> list[str]:
        """The tip lines of the turn message for the seats ``deciding`` (at most one per
        person per turn); a tip shown for the first time is stored as had."""
        state = table.state
        lessons = table.port.lessons
        if state is None or lessons is None:
            return []
        rules = table.port.rules
        turn = rules.turn_key(state)
        out = []
        for seat in deciding:
            row = table.seats[seat]
            user = row.user_id
            if user is None or row.is_ai or row.left:
                continue
            tips = self._people.get(user)
            if tips is None or not tips.on:
                continue
            decision = rules.decision_for(state, seat)
            shown = self._shown.get((table.id, user))
            if shown is not None and shown[0] == turn:
                if decision is not None and shown[1] == decision.kind:
                    out.append(shown[2])  # the same tip while the decision waits
                continue  # one tip per turn
            tip = lessons.tip(state, seat)
            if tip is None or tip.kind in tips.seen:
                continue
            line = t("tip.line", name=row.name, tip=tip.text)
            self._shown[(table.id, user)] = (turn, tip.kind, line)
            self._people[user] = replace(tips, seen=tips.seen | {tip.kind})
            self._store(user, tip.kind)
            out.append(line)
        return out

    def _store(self, user_id: int, kind: str) -> None:
        async def write() -> None:
            try:
                await self.storage.see_tip(user_id, kind)
            except Exception:  # a tip shown twice is no harm: never stop a game for it
                log.warning("could not store that %s had the tip %s", user_id, kind,
                            exc_info=True)
        try:
            task = asyncio.get_running_loop().create_task(write())
        except RuntimeError:  # no loop: nothing to store it with (a synchronous caller)
            return
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    def forget(self, game_id: int) -> None:
        """The game is over or unloaded: its turns' tips are no longer needed."""
        for key in [k for k in self._shown if k[0] == game_id]:
            del self._shown[key]

    async def close(self) -> None:
        """Wait for the writes under way."""
        while self._writes:
            with contextlib.suppress(Exception):
                await asyncio.gather(*self._writes)
