"""Tempus's computer players as the host asks for them (games.port.Computers)."""

from __future__ import annotations

from typing import Any

from engine.actions import Action
from engine.state import State
from games.tempus import computer_levels


class TempusComputers:
    """games.port.Computers for Tempus."""

    #: the level that picks at random among the legal actions (also the fallback)
    random_level = computer_levels.RANDOM
    #: a level's choice from a seat's view (a module's function: it runs in a worker)
    think = staticmethod(computer_levels.think)

    def levels(self) -> tuple[str, ...]:
        return computer_levels.levels()

    def default_level(self) -> str:
        return computer_levels.default_level()

    def random_action(self, state: State, seat: int, seed: int) -> Action:
        return computer_levels.random_action(state, seat, seed)

    def parse(self, thought: dict[str, Any]) -> Action:
        """The action :attr:`think` returned (as JSON, to cross from the worker)."""
        return computer_levels.parse(thought)
