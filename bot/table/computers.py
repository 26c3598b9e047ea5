"""Computer players: one task per game lets computer seats act until a person must decide.

:class:`Computers` owns those tasks. A computer's move goes through the commit path like
a person's (:meth:`bot.table.commit.Commits.apply`); its outcomes are held back while the
same seat goes on acting (:meth:`bot.table.announce.Announcer.hold`).

It also answers, at once, the decisions a person owes that have a single possible answer
(:mod:`bot.table.forced`): after each move (:meth:`Computers.answer_forced`, merged into
that move's announcement) and in its task for the rest (an undo, a seat changing hands).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
from collections.abc import Callable
from typing import Any

from bot.runtime.worker_pool import Offloader
from bot.store import ACTIVE
from bot.table.announce import Announcer
from bot.table.catch_up import CatchUp
from bot.table.clocks import Clocks
from bot.table.commit import Commits
from bot.table.forced import forced_action, forced_step
from bot.table.model import (
    Outcome,
    StorageRefusal,
    Table,
    TableError,
    public,
)
from bot.timing.computer_pace import wait_after_thinking
from games.port import Rules

log = logging.getLogger(__name__)

#: forced answers in a row at most (each is a move: the game moves on, so this is only a
#: guard against a loop)
MAX_FORCED = 64


def acts_on(rules: Rules, state: Any, seat: int) -> bool:
    """Whether ``seat`` alone acts next: its outcome so far is held back and announced
    with its next (:meth:`bot.table.announce.Announcer.hold`)."""
    return set(rules.to_act(state)) == {seat}


class Computers:
    def __init__(self, commits: Commits, announcer: Announcer, catch_up: CatchUp,
                 clocks: Clocks, owns: Callable[[int | None], bool], offloader: Offloader, *,
                 delay: float, budget_s: float | None) -> None:
        self.commits = commits
        self.announcer = announcer
        self.catch_up = catch_up
        self.clocks = clocks
        self.owns = owns
        self.offloader = offloader
        #: seconds a computer waits before each move (people can follow)
        self.delay = delay
        #: thinking time of a computer move (None: the level's own)
        self.budget_s = budget_s
        #: per game: the computer players' task (dropped when it ends)
        self.tasks: dict[int, asyncio.Task[None]] = {}

    def busy(self, game_id: int) -> bool:
        """Whether a computer of the game is thinking or about to."""
        task = self.tasks.get(game_id)
        return task is not None and not task.done()

    def kick(self, table: Table) -> None:
        """Let the game's computer seats act if one owes a decision (in a task of its own)."""
        if table.game.status != ACTIVE or not (any(s.is_ai for s in table.seats)
                                               or table.covering or forced_step(table)):
            return
        if not self.owns(table.game.guild_id):
            return  # the owner's computer players play it
        task = self.tasks.get(table.id)
        if task is not None and not task.done():
            return
        self.tasks[table.id] = asyncio.create_task(self._loop(table),
                                                   name=f"tempus-ai-{table.id}")

    def stop(self, game_id: int) -> None:
        """The game ended: its computers stop."""
        task = self.tasks.pop(game_id, None)
        if task:
            task.cancel()

    @staticmethod
    def _seat(table: Table) -> int | None:
        if table.game.status != ACTIVE or table.state is None:
            return None
        rules = table.port.rules
        for s in rules.to_act(table.state):
            if table.seats[s].is_ai:
                return s
        key = rules.turn_key(table.state)
        for s in rules.to_act(table.state):
            if table.covering.get(s) == key:
                return s
        forced = forced_step(table)
        return forced[0] if forced is not None else None

    async def answer_forced(self, table: Table, outcome: Outcome | None = None
                            ) -> Outcome | None:
        """Answer every decision people owe now that has a single possible answer
        (:mod:`bot.table.forced`), each a move of its own, said in the log; returns
        ``outcome`` (the move that led here) merged with them, announced as one. The
        caller holds the game's lock."""
        actor = outcome.actor if outcome is not None else None
        for _ in range(MAX_FORCED):
            step = forced_step(table)
            if step is None:
                break
            seat, action = step
            # a refusal (the store, or another process moved on) leaves it to this task,
            # once it can; what was done is announced meanwhile
            try:
                answered = await self.commits.apply(table, seat, action, person=False)
            except TableError as exc:
                log.warning("game %s: seat %s's single answer waits: %s", table.id, seat, exc)
                break
            with public(table):
                table.port.show.tell_forced(answered.lines, seat, action)
            if outcome is None:
                outcome = answered
            else:
                outcome = outcome.merge(answered)
                outcome.actor = actor  # who acted (and is at the table) is still who acted
                if actor is not None and actor < len(table.seats):
                    outcome.mention = [u for u in outcome.mention
                                       if u != table.seats[actor].user_id]
        return outcome

    async def _loop(self, table: Table) -> None:
        """Let computer seats act until a person must decide; one announcement per run of
        one seat's actions."""
        failures = waits = 0
        try:
            while True:
                async with table.lock:
                    seat = self._seat(table)
                    if seat is None:
                        self.announcer.flush(table.id)
                        break
                    state, version = table.state, table.version
                    forced = forced_action(table, seat)
                assert state is not None
                asked = asyncio.get_running_loop().time()
                try:
                    action = (forced if forced is not None
                              else await self._think(table, state, seat, version))
                    if self.delay and forced is None:
                        # the pause holds the thinking: an answer's timing does not
                        # depend on how long a search over the hand took (R-INFO-4)
                        thought = asyncio.get_running_loop().time() - asked
                        await asyncio.sleep(wait_after_thinking(self.delay, thought))
                    async with table.lock:
                        if table.since.get(seat, version + 1) > version:
                            continue  # the position changed under us: think again
                        try:
                            outcome = await self.commits.apply(
                                table, seat, action, person=False,
                                draft=functools.partial(acts_on, table.port.rules, seat=seat))
                        except StorageRefusal:
                            raise
                        except TableError as exc:
                            if exc.key == "error.stale":  # changed in another process
                                await self.catch_up(table)
                                continue
                            log.error("game %s: computer seat %s chose %s: %s", table.id,
                                      seat, action.to_json(), exc)
                            assert table.state is not None
                            fallback = table.port.computers.random_action(
                                table.state, seat, version)
                            outcome = await self.commits.apply(table, seat, fallback,
                                                               person=False)
                        if forced is not None:
                            with public(table):
                                table.port.show.tell_forced(outcome.lines, seat, forced)
                        merged = await self.answer_forced(table, outcome)
                        assert table.state is not None and merged is not None
                        outcome = merged
                        self.announcer.hold(
                            outcome, more=acts_on(table.port.rules, table.state, seat))
                    failures = 0
                    waits = 0
                except StorageRefusal as exc:
                    # the store cannot take the move now: wait for it as long as it takes
                    # (the move was not kept, so thinking again is right)
                    waits += 1
                    log.warning("game %s: computer seat %s waits for the storage: %s",
                                table.id, seat, exc)
                    await asyncio.sleep(min(30.0, 0.25 * 2 ** min(waits, 7)))
                except Exception:
                    failures += 1
                    log.exception("game %s: computer seat %s failed (%d in a row)", table.id,
                                  seat, failures)
                    if failures >= 5:
                        raise
                    await asyncio.sleep(0.5 * failures)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: computer player loop gave up", table.id)
        finally:
            self.announcer.flush(table.id)
            if self.tasks.get(table.id) is asyncio.current_task():
                del self.tasks[table.id]  # a waiting game keeps no finished task

    async def _think(self, table: Table, state: Any, seat: int, version: int) -> Any:
        players = table.port.computers
        level = (table.seats[seat].level or self.clocks.cover_level(table, seat)
                 or players.random_level)
        # one-way, so that nothing about the game seed (hence the deck order) reaches an AI
        digest = hashlib.sha256(f"{table.game.options.get('seed', 0)}:{version}:{seat}".encode())
        seed = int.from_bytes(digest.digest()[:4], "big") % 2**31
        if level == players.random_level:
            return players.random_action(state, seat, seed)
        try:
            out = await self.offloader.run(players.think, table.port.rules.view(state, seat),
                                           level, seed, self.budget_s)
            return players.parse(out)
        except Exception:
            log.exception("game %s: computer seat %s failed to think", table.id, seat)
            return players.random_action(state, seat, seed)

    async def wait(self) -> None:
        """Wait for the computers thinking now (a move of theirs may start others)."""
        busy = [t for t in self.tasks.values() if not t.done()]
        if busy:
            await asyncio.gather(*busy, return_exceptions=True)

    def running(self) -> bool:
        """Whether a computer of any game is thinking."""
        return any(not t.done() for t in self.tasks.values())

    async def close(self) -> None:
        tasks = list(self.tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.tasks.clear()
