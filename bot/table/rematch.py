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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.store import FINISHED, LOBBY, SeatRow
from bot.timing.pace import PACES
from lang.messages import t

if TYPE_CHECKING:
    from bot.table.service import Reply, TableService

#: the op of the rematch button (its custom id is ``tempus:GAME:VERSION:rematch``)
REMATCH = "rematch"
#: lobby options written by a rematch
REMATCH_OF, INVITED = "rematch_of", "invited"
#: options that belong to one game, not to the table: a rematch never copies them
PER_GAME = frozenset({"seed", "start_player", "rules_version", REMATCH_OF, INVITED})
#: options :meth:`TableService.create` takes as arguments of their own
ARGUMENTS = frozenset({"max_seats", "random_map", "protection_counts_cities", "pace"})


def lobby_options(options: dict[str, Any]) -> dict[str, Any]:
    """The ``extra`` options of a rematch: all of the old game's lobby options (hints,
    locale, and any other that ``/tempus new`` stores) except those :data:`PER_GAME`
    and those passed as arguments of their own (:data:`ARGUMENTS`)."""
    return {k: v for k, v in options.items() if k not in PER_GAME | ARGUMENTS}


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


async def rematch(service: TableService, game_id: int, user_id: int, name: str) -> Reply:
    """Open the rematch of finished game ``game_id`` (or join it, if it is open)."""
    from bot.table.service import Reply, TableError  # the table service imports this module

    storage = service.storage
    old = await storage.game(game_id)
    if old is None:
        raise TableError("error.no_game")
    if old.status != FINISHED:
        raise TableError("error.rematch_not_over", game=game_id)
    seats = await storage.seats(game_id)
    if user_id not in {s.user_id for s in seats if s.user_id is not None}:
        raise TableError("error.rematch_not_player", game=game_id)
    current = await storage.open_game_in_channel(old.channel_id)
    if current is not None:
        if current.status == LOBBY and current.options.get(REMATCH_OF) == game_id:
            outcome = await service.join(current.id, user_id, name)
            return Reply(text=t("rematch.joined", game=current.id), outcome=outcome)
        raise TableError("error.rematch_busy", game=current.id)
    invited = [[s.user_id, s.name] for s in seats
               if s.user_id is not None and s.user_id != user_id]
    o = old.options
    outcome = await service.create(
        old.guild_id, old.channel_id, user_id, name, seats=len(seats),
        random_map=bool(o.get("random_map", True)),
        protection_counts_cities=bool(o.get("protection_counts_cities", False)),
        # a pace no longer offered (renamed since) falls back to the default
        pace_name=o["pace"] if o.get("pace") in PACES else None,
        # opened inside a thread: played right there, as the old game was
        in_thread=old.thread_id is not None and old.thread_id == old.channel_id,
        extra={**lobby_options(o), REMATCH_OF: game_id, INVITED: invited})
    new_id = outcome.game_id
    for s in seats:
        if s.user_id is None:
            outcome = await service.add_ai(new_id, user_id, s.ai_level)
    names = ", ".join(n for _, n in invited)
    line = (t("rematch.created", old=game_id, game=new_id, invited=names) if invited
            else t("rematch.created_alone", old=game_id, game=new_id))
    return Reply(text=line, outcome=outcome)
