"""Every game the bot can run, by the name stored with each table (``games.game``).

A game is a folder under ``games/`` whose module has ``GAME``, a :class:`games.port.Game`;
it is listed here once. The host imports this registry, never a game's folder: a game's
module is imported the first time a table of it is used, so the host's code depends on the
port alone (the import contracts in ``pyproject.toml`` hold it to that).
"""

from __future__ import annotations

import functools
import importlib

from games.port import Game

#: name (as stored) -> the module that defines its ``GAME``; the first is the default
GAMES: dict[str, str] = {
    "tempus": "games.tempus",
}
#: the game a table plays unless it says otherwise (also the stored column's default)
DEFAULT = next(iter(GAMES))


class UnknownGame(LookupError):
    """A stored game names no registered game (a row written by a newer version)."""


@functools.cache
def game(name: str = DEFAULT) -> Game:
    """The game called ``name``."""
    module = GAMES.get(name)
    if module is None:
        raise UnknownGame(name)
    found = importlib.import_module(module).GAME
    if not isinstance(found, Game) or found.name != name:
        raise TypeError(f"{module}.GAME is not the game {name!r}")
    return found


def game_of(state: object) -> Game:
    """The game ``state`` is a position of (among the registered games)."""
    for name in GAMES:
        found = game(name)
        if found.rules.owns(state):
            return found
    raise UnknownGame(type(state).__name__)


def names() -> tuple[str, ...]:
    return tuple(GAMES)
