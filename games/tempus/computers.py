"""Tempus's computer players as the host asks for them (games.port.Computers)."""

from __future__ import annotations

from games.tempus import computer_levels


class TempusComputers:
    """games.port.Computers for Tempus."""

    def levels(self) -> tuple[str, ...]:
        return computer_levels.levels()

    def default_level(self) -> str:
        return computer_levels.default_level()
