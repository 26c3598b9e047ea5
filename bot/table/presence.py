"""Who is at which table now: each person's last click in each game, and the turns they
muted (:mod:`bot.timing.presence` decides what that means for a ping).

:class:`Presence` owns this state. Clicks are kept in memory only: after a restart everyone
counts as away until they click again (at worst one ping too many). A mute is a promise
("no more pings or reminders in this turn"), so it is also stored (``turn_mutes``) before
the bot confirms it, and put back when the game is loaded again (:meth:`restore`).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.timing.presence import AT_TABLE_S, at_table, wants_ping
from bot.timing.time_source import Clock, SystemClock


class Presence:
    def __init__(self, clock: Clock | None = None, at_table_s: float = AT_TABLE_S) -> None:
        """``at_table_s``: how long after a click a person counts as at the table."""
        self.clock: Clock = clock or SystemClock()
        self.at_table_s = at_table_s
        #: (game, person) -> when they last used the game's controls (clock seconds)
        self._seen: dict[tuple[int, int], float] = {}
        #: (game, person) -> the turn (key text) whose pings they muted
        self._muted: dict[tuple[int, int], str] = {}

    def seen(self, game_id: int, user_id: int) -> None:
        """The person used one of the game's controls (or its commands) just now."""
        self._seen[(game_id, user_id)] = self.clock.now()

    def last_seen(self, game_id: int, user_id: int) -> float | None:
        """When the person last used the game's controls (None: not lately, as far as
        this process knows)."""
        return self._seen.get((game_id, user_id))

    def here(self, game_id: int, user_id: int) -> bool:
        """Whether the person is at the table now."""
        return at_table(self._seen.get((game_id, user_id)), self.clock.now(),
                        self.at_table_s)

    def mute(self, game_id: int, user_id: int, turn: str) -> None:
        """No pings for the person in ``turn`` (the game's current turn, key text)."""
        self._muted[(game_id, user_id)] = turn

    def restore(self, game_id: int, mutes: dict[int, str]) -> None:
        """The game's stored mutes (person -> turn), after a restart or a reload; a mute
        made in this process meanwhile is newer and stays."""
        for user_id, turn in mutes.items():
            self._muted.setdefault((game_id, user_id), turn)

    def muted(self, game_id: int, user_id: int, turn: str) -> bool:
        return self._muted.get((game_id, user_id)) == turn

    def to_ping(self, game_id: int, users: Iterable[int], turn: str) -> list[int]:
        """Of ``users`` (who owe a decision in ``turn``), the ones to notify."""
        now = self.clock.now()
        return [u for u in users
                if wants_ping(self._seen.get((game_id, u)), now,
                              self._muted.get((game_id, u)), turn, self.at_table_s)]

    def forget(self, game_id: int) -> None:
        """The game is over or unloaded for good: nothing of it is kept."""
        for key in [k for k in (*self._seen, *self._muted) if k[0] == game_id]:
            self._seen.pop(key, None)
            self._muted.pop(key, None)

    def forget_idle(self) -> int:
        """Drop the clicks too old to matter (memory per waiting game); returns how many."""
        now = self.clock.now()
        old = [k for k, when in self._seen.items() if now - when >= self.at_table_s]
        for k in old:
            del self._seen[k]
        return len(old)
