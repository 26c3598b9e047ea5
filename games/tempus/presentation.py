"""Tempus as the table shows it (games.port.Presentation): the words and controls of its
panels, events and refusals, from the modules beside this one."""

from __future__ import annotations

from games.tempus.labels import colour_name


class TempusPresentation:
    """games.port.Presentation for Tempus."""

    def seat_name(self, seat: int) -> str:
        return colour_name(seat)
