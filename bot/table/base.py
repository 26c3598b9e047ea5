"""What every part of :class:`bot.table.service.TableService` shares: its state, declared once.

The service is split along its jobs into mixins (lobby, play, seats, clock, computers,
other processes, announcing), each in its own module and each a subclass of this base;
``TableService`` puts them together with loading and resuming. A part calls the others'
methods through ``self`` (e.g. play stores the turn clocks the clock part plans); each
module's docstring says what it is for.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from bot.runtime.keyed_lock import KeyedLocks
from bot.runtime.worker_pool import Offloader
from bot.store import Storage
from bot.table.model import Outcome, SetAside, Sink, Table
from bot.timing.turn_clock import TurnClock


class TableBase:
    storage: Storage
    sink: Sink | None
    ai_delay: float
    ai_budget_s: float | None
    offloader: Offloader
    _seed: Callable[[], int]
    #: the games loaded in this process, by id
    _tables: dict[int, Table]
    #: channel (or thread) id -> its open game's id (autocomplete speed)
    _by_channel: dict[int, int]
    #: per game: held while it is loaded from the store (loads of different games overlap)
    _load_locks: KeyedLocks
    #: per game: outcomes waiting for the sink, and the task handing them over
    _outboxes: dict[int, asyncio.Queue[Outcome]]
    _publishers: dict[int, asyncio.Task[None]]
    #: set by close(): no new announcement starts (stored ones are announced at restart)
    _closing: bool
    _tasks: set[asyncio.Task[Any]]
    #: per game: the computer players' task
    _ai_tasks: dict[int, asyncio.Task[None]]
    #: per game: a computer's outcome kept back while the same seat goes on acting
    _held: dict[int, Outcome]
    turnclock: TurnClock | None
    _reminders_on: dict[int, bool]
    owns: Callable[[int | None], bool]
    set_aside: dict[int, SetAside]
