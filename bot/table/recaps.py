"""Recaps: "What happened?" for whoever asks, privately (the words and the model in
:mod:`games.tempus.recap`, the picture in :mod:`render.recap`).

A use case that changes nothing: it reads the game's stored moves (the table's log, which
a restart loads back from the store) and replays them in a worker (``offloader``: a
replay of a long game is milliseconds of CPU the event loop should not spend).
"""

from __future__ import annotations

from bot.runtime.worker_pool import Offloader
from bot.table.model import Table, TableError, record_of
from bot.table.parts import Parts, UseCase
from engine.record import Record
from engine.state import ACTIONS, OVER, PROGRESS
from games.controls import Panel
from games.tempus.recap import Recap, RecapError, Since, collect, recap_panel


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
        seat = table.seat_of(user_id)
        if seat is not None:
            # missed deadlines in a row: the computer played those turns for the person
            row = table.clock.get(seat)
            covered = row.strikes if row is not None and not table.seats[seat].is_ai else 0
            recap = await self._collect(record, Since.decision(seat, covered))
        elif state.phase in (ACTIONS, PROGRESS, OVER):
            recap = await self._collect(record, Since.round_start(state.era_number))
            if recap.empty and state.era_number > 1:
                recap = await self._collect(record, Since.round_start(state.era_number - 1))
        else:  # the map and the starting tokens are being placed
            recap = await self._collect(record, Since.game_start())
        return recap_panel(recap, _names(table)), version

    async def _collect(self, record: Record, since: Since) -> Recap:
        try:
            return await self.offloader.run(collect, record, since)
        except RecapError as exc:
            raise TableError(exc.key, **exc.kwargs) from None


def _names(table: Table) -> list[str]:
    return [s.name for s in table.seats]
