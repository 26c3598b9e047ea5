"""Whether a person is at the table: who needs a ping and who does not (pure functions).

A person who used the game's controls a few minutes ago is watching it: their turn message
names them without pinging them, and a secret choice waits for them on the turn message
instead of arriving by DM. Someone away gets one notification per decision they owe. A
person may also mute the pings of the current turn (the turn message's button).
"""

from __future__ import annotations

from typing import Final

#: how long after their last click a person still counts as at the table (seconds), unless
#: the operator sets another window (``TEMPUS_AT_TABLE_S``, bot.operator.settings)
AT_TABLE_S: Final = 5 * 60.0


def at_table(last_seen: float | None, now: float, window: float = AT_TABLE_S) -> bool:
    """Whether someone whose last click in the game was at ``last_seen`` (None: never,
    as far as this process knows) is at the table at ``now``: it was less than ``window``
    seconds ago (a window of 0: nobody ever is)."""
    return last_seen is not None and 0.0 <= now - last_seen < window


def wants_ping(last_seen: float | None, now: float, muted_turn: str | None,
               turn: str, window: float = AT_TABLE_S) -> bool:
    """Whether to notify a person who owes a decision in ``turn``: they are away (see
    :func:`at_table`) and have not muted the pings of that turn (``muted_turn``: the turn
    they muted, if any)."""
    return not at_table(last_seen, now, window) and muted_turn != turn
