"""Rematch: the button on a result opens a new lobby with the same options and people.

Same options means every lobby option of the old game (:func:`lobby_options`): seats, map,
pace, the table option R-OPT-1, hints, language, whether it is played in a thread of its
own; only what belongs to one game (its seed, start player, rules version) is new, so the
rematch is played under the current rules.

The person who clicks becomes the host and takes the first seat; the computer seats come
back at their levels; every other person of the old game is invited: a free seat is kept
for each of them until they click **Join** (on the lobby, or the rematch button again),
so nobody else can take their place. The host may still start with fewer people, or
fill an absent person's seat with a computer.

This module holds those rules; :meth:`bot.table.lobby.Lobby.rematch` opens the lobby.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from bot.store import FINISHED, LOBBY, GameRow, SeatRow
from bot.table.model import TableError
from bot.timing.pace import PACES
from games import registry
from games.controls import Op
from lang.messages import t

#: the op of the rematch button (its custom id is ``tempus:GAME:VERSION:rematch``)
REMATCH = Op.REMATCH
#: lobby options written by a rematch
REMATCH_OF, INVITED = "rematch_of", "invited"
#: options that belong to one game, not to the table: a rematch never copies them
PER_GAME = frozenset({"seed", "start_player", "rules_version", REMATCH_OF, INVITED})
#: options :meth:`bot.table.lobby.Lobby.create` takes as arguments of their own (and the
#: game's own table options, its ``Rules.default_options``)
ARGUMENTS = frozenset({"max_seats", "pace"})


def lobby_options(options: dict[str, Any], own: Collection[str] = ()) -> dict[str, Any]:
    """The ``extra`` options of a rematch: all of the old game's lobby options (hints,
    locale, and any other that ``/tempus new`` stores) except those :data:`PER_GAME`,
    those passed as arguments of their own (:data:`ARGUMENTS`) and the game's own
    (``own``, passed as its options)."""
    return {k: v for k, v in options.items()
            if k not in PER_GAME and k not in ARGUMENTS and k not in own}


def pending(options: dict[str, Any], seats: Sequence[SeatRow]) -> list[tuple[int, str]]:
    """Invited people who have not taken their seat yet: ``(user_id, name)``."""
    seated = {s.user_id for s in seats}
    return [(int(u), str(n)) for u, n in options.get(INVITED, []) if int(u) not in seated]


def join_refusal(game_id: int, options: dict[str, Any], seats: Sequence[SeatRow],
                 user_id: int) -> tuple[str, dict[str, Any]] | None:
    """Why ``user_id`` may not join a rematch lobby (every free seat is kept for an
    invited person), as a message key and its values; None if they may."""
    waiting = pending(options, seats)
    if not waiting or any(u == user_id for u, _ in waiting):
        return None
    free = int(options["max_seats"]) - len(seats)
    if free > len(waiting):
        return None
    return "error.seat_reserved", {"game": game_id,
                                   "names": ", ".join(n for _, n in waiting)}


def lobby_lines(options: dict[str, Any], seats: Sequence[SeatRow]) -> list[str]:
    """The lobby's lines for the seats kept for invited people (numbered after the
    seated ones)."""
    return [t("lobby.invited", n=len(seats) + i + 1, name=name)
            for i, (_, name) in enumerate(pending(options, seats))]


def invitation_line(options: dict[str, Any], seats: Sequence[SeatRow]) -> str | None:
    """The rematch lobby's line that mentions the invited people who have not joined yet
    (a real mention: the lobby's first post pings them, see :func:`mentioned`)."""
    waiting = pending(options, seats)
    if REMATCH_OF not in options or not waiting:
        return None
    return t("rematch.invite", old=options[REMATCH_OF],
             people=", ".join(f"<@{u}>" for u, _ in waiting))


def mentioned(options: dict[str, Any], seats: Sequence[SeatRow]) -> list[int]:
    """Whom the lobby message may ping: the invited people still to join."""
    return [u for u, _ in pending(options, seats)] if REMATCH_OF in options else []


@dataclass(frozen=True)
class Opening:
    """How the rematch of a finished game opens: the arguments of ``Lobby.create`` (the
    clicker hosts and takes the first seat), the computer seats to add, who is invited."""

    arguments: dict[str, Any]
    computers: list[str | None]
    invited: list[str]

    def line(self, old: int, new: int) -> str:
        """The clicker's answer: the new lobby and whom it invites."""
        if self.invited:
            return t("rematch.created", old=old, game=new, invited=", ".join(self.invited))
        return t("rematch.created_alone", old=old, game=new)


def check(old: GameRow | None, game_id: int) -> GameRow:
    """The finished game to play again (TableError: none, or not over)."""
    if old is None:
        raise TableError("error.no_game")
    if old.status != FINISHED:
        raise TableError("error.rematch_not_over", game=game_id)
    return old


def check_player(seats: Sequence[SeatRow], game_id: int, user_id: int) -> None:
    """Only a person who played the game opens its rematch."""
    if user_id not in {s.user_id for s in seats if s.user_id is not None}:
        raise TableError("error.rematch_not_player", game=game_id)


def is_rematch_of(current: GameRow, game_id: int) -> bool:
    """Whether the channel's open game ``current`` is the lobby of ``game_id``'s rematch (a
    click then joins it; any other open game makes the channel busy)."""
    return current.status == LOBBY and current.options.get(REMATCH_OF) == game_id


def opening(old: GameRow, seats: Sequence[SeatRow], user_id: int) -> Opening:
    """The rematch of ``old`` (played in ``seats``) opened by ``user_id``."""
    people = [s for s in seats if s.user_id is not None and s.user_id != user_id]
    invited = [[s.user_id, s.name] for s in people]
    o = old.options
    try:
        own = registry.game(old.kind).rules.default_options()
    except registry.UnknownGame:
        raise TableError("error.rematch_none", game=old.id) from None
    arguments: dict[str, Any] = dict(
        game=old.kind, seats=len(seats),
        # the game's own options as the old game had them (its defaults where it had none),
        # of their defaults' kind (a row written by hand, or long ago, may hold 0 or null)
        options={k: _like(v, o.get(k, v)) for k, v in own.items()},
        # a pace no longer offered (renamed since) falls back to the default
        pace_name=o["pace"] if o.get("pace") in PACES else None,
        # opened inside a thread: played right there, as the old game was
        in_thread=old.thread_id is not None and old.thread_id == old.channel_id,
        extra={**lobby_options(o, own), REMATCH_OF: old.id, INVITED: invited})
    return Opening(arguments, [s.ai_level for s in seats if s.user_id is None],
                   [s.name for s in people])


def _like(default: Any, value: Any) -> Any:
    """``value`` as the kind of ``default`` (a yes/no or a number), else as it is."""
    if isinstance(default, bool):
        return bool(value)
    if isinstance(default, (int, float)) and isinstance(value, (int, float)):
        return type(default)(value)
    return value
