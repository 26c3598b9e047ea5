"""Recaps: "What happened?" for whoever asks, privately. Which window of the game a recap
covers, its words and its picture are the game's (``Presentation.recap_windows``,
``collect_recap``, ``recap_panel``).

A use case that changes nothing: it reads the game's stored moves (the table's log, which
a restart loads back from the store) and replays them in a worker (``offloader``: a
replay of a long game is milliseconds of CPU the event loop should not spend).
"""

from __future__ import annotations

from typing import Any

from bot.runtime.worker_pool import Offloader
from bot.table.model import Table, TableError, record_of
from bot.table.parts import Parts, UseCase
from games.controls import Panel
from games.port import Declined


class Recaps(UseCase):
    def __init__(self, parts: Parts, offloader: Offloader) -> None:
        super().__init__(parts)
        self.offloader = offloader

    async def for_user(self, game_id: int, user_id: int) -> tuple[Panel, int]:
        """The "What happened?" button: since the asker's previous decision if they play
        in this game; for anyone else since the start of the current round (or of the one
        before, when this one has only just begun). Returns the reply and the version it
        describes."""
        table = await self.tables.get(game_id)
        state = table.state
        if state is None:
            raise TableError("error.not_active", game=game_id)
        version, record = table.version, record_of(table)
        show = table.port.show
        seat = table.seat_of(user_id)
        covered = 0
        if seat is not None:
            # missed deadlines in a row: the computer played those turns for the person
            row = table.clock.get(seat)
            covered = row.strikes if row is not None and not table.seats[seat].is_ai else 0
        recap: Any = None
        for since in show.recap_windows(state, seat, covered):
            try:
                recap = await self.offloader.run(show.collect_recap, record, since)
            except Declined as exc:
                raise TableError(exc.key, **exc.kwargs) from None
            if not show.recap_empty(recap):
                break
        return show.recap_panel(recap, _names(table)), version


def _names(table: Table) -> list[str]:
    return [s.name for s in table.seats]
