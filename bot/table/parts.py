"""The parts of the table service, handed to each use case as one bundle.

Each part owns its state (the loaded tables, the clocks, the announcer's queues, the
computers' tasks); a use case owns none and keeps only this reference, so the use cases
share one list of what they may call instead of each repeating it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.store import Storage
from bot.table.announce import Announcer
from bot.table.catch_up import CatchUp
from bot.table.clocks import Clocks
from bot.table.commit import Commits
from bot.table.computers import Computers
from bot.table.outcomes import Outcomes
from bot.table.tables import Tables
from bot.table.tips import TipsOfFirstGames


@dataclass(frozen=True, eq=False)
class Parts:
    storage: Storage
    tables: Tables
    commits: Commits
    catch_up: CatchUp
    outcomes: Outcomes
    announcer: Announcer
    clocks: Clocks
    computers: Computers
    #: does this process own the game of that server (bot.table.model.Ownership)
    owns: Callable[[int | None], bool]
    #: the tips of people's first games (None: none are shown)
    tips: TipsOfFirstGames | None = None


class UseCase:
    """A use case's access to the parts: ``self.storage``, ``self.tables`` ... read
    through to the one bundle (nothing of their state is copied here)."""

    def __init__(self, parts: Parts) -> None:
        self.parts = parts

    @property
    def storage(self) -> Storage:
        return self.parts.storage

    @property
    def tables(self) -> Tables:
        return self.parts.tables

    @property
    def commits(self) -> Commits:
        return self.parts.commits

    @property
    def catch_up(self) -> CatchUp:
        return self.parts.catch_up

    @property
    def outcomes(self) -> Outcomes:
        return self.parts.outcomes

    @property
    def announcer(self) -> Announcer:
        return self.parts.announcer

    @property
    def clocks(self) -> Clocks:
        return self.parts.clocks

    @property
    def computers(self) -> Computers:
        return self.parts.computers

    def owns(self, guild_id: int | None) -> bool:
        return self.parts.owns(guild_id)

    @property
    def tips(self) -> TipsOfFirstGames | None:
        return self.parts.tips
