"""A computer's steps held back to be announced with its next one (bot.table.announce,
``Outcome.fill``): their position (turn panel, public view) is built only for what is
announced, and whatever is announced has it."""

from __future__ import annotations

import random

import pytest

from bot.store.sqlite import SqliteStorage
from bot.table.announce import Announcer
from bot.table.model import Outcome, OutcomeKind
from bot.table.outcomes import Outcomes
from bot.table.service import TableService
from engine.game import to_act
from tests.bot.helpers import CollectSink

HOST = 100


def _outcome(version: int, actor: int | None, line: str) -> Outcome:
    return Outcome(1, 10, None, version, OutcomeKind.PLAY, [line], actor=actor)


def _draft(version: int, actor: int, line: str, filled: list[int]) -> Outcome:
    o = _outcome(version, actor, line)

    def fill(target: Outcome) -> None:
        filled.append(version)
        target.turn_key = f"position {version}"
    o.fill = fill
    return o


@pytest.mark.asyncio
async def test_a_held_step_merged_into_the_next_is_never_filled_in() -> None:
    sink, filled = CollectSink(), []
    announcer = Announcer(sink, lambda guild_id: True)
    announcer.hold(_draft(2, 1, "a", filled), more=True)
    announcer.hold(_draft(3, 1, "b", filled), more=True)
    announcer.hold(_outcome(4, 1, "c"), more=False)  # the seat's last step: complete
    await announcer.drain()
    assert [(o.version, o.lines) for o in sink.outcomes] == [(4, ["a", "b", "c"])]
    assert filled == [] and sink.outcomes[0].fill is None


@pytest.mark.asyncio
async def test_a_held_step_announced_alone_is_filled_in_first() -> None:
    sink, filled = CollectSink(), []
    announcer = Announcer(sink, lambda guild_id: True)
    announcer.hold(_draft(2, 1, "a", filled), more=True)
    announcer.hold(_draft(3, 1, "b", filled), more=True)
    announcer.flush(1)  # the computers stopped: what was held goes out as it is
    await announcer.drain()
    assert filled == [3]  # the newest part's position, once
    assert [(o.version, o.lines, o.turn_key) for o in sink.outcomes] == [
        (3, ["a", "b"], "position 3")]


@pytest.mark.asyncio
async def test_computer_steps_build_a_position_only_for_what_is_announced() -> None:
    """A game of one person and two computers: every announced outcome carries its
    panel and public view, of the position after it; the computers' steps that were
    merged into their next one built none (most of a computer's turn)."""
    sink = CollectSink()
    svc = TableService(await SqliteStorage.open(":memory:"), sink, ai_delay=0,
                       seed_source=lambda: 5)
    built: list[int] = []
    position = Outcomes.position

    def counting(self: Outcomes, table, outcome) -> None:  # type: ignore[no-untyped-def]
        built.append(outcome.version)
        position(self, table, outcome)
    svc.outcomes.position = counting.__get__(svc.outcomes)  # type: ignore[method-assign]
    try:
        g = (await svc.lobby.create(1, 10, HOST, "Ann", seats=3)).game_id
        for _ in range(2):
            await svc.add_ai(g, HOST, "random")
        await svc.start(g, HOST)
        rng = random.Random(2)
        moves = 0
        for _ in range(40):
            await svc.idle()
            table = await svc.tables.get(g)
            assert table.state is not None
            if HOST not in [table.seats[s].user_id for s in to_act(table.state)]:
                break
            await svc.act(g, HOST, rng.choice(await svc.play.legal(g, HOST)), table.version)
            moves += 1
        await svc.idle()
        table = await svc.tables.get(g)
        played = [o for o in sink.outcomes if o.kind == OutcomeKind.PLAY]
        assert moves > 5 and played
        for o in played:
            assert o.fill is None and o.panel is not None and o.public_view is not None
        # the newest announcement shows the table as it stands
        assert played[-1].version == table.version
        assert played[-1].turn_key and played[-1].public_view["turn"] == table.state.turn  # type: ignore[index,union-attr]
        commits = table.version - sink.outcomes[0].version
        # one position per announcement, none for the steps merged away
        assert len(built) <= len(sink.outcomes) < commits
    finally:
        await svc.close()
        await svc.storage.close()


@pytest.mark.asyncio
async def test_listeners_get_each_step_once_in_commit_order_and_build_no_position() -> None:
    """The live pages hear of every step as it is committed (a computer's run step by
    step), each once, while the thread gets the run as one message; nothing is filled in
    for them."""
    sink, filled = CollectSink(), []
    announcer = Announcer(sink, lambda guild_id: True)
    heard: list[tuple[int, list[str]]] = []
    announcer.listeners.append(lambda o: heard.append((o.version, list(o.lines))))
    announcer.hold(_draft(2, 1, "a", filled), more=True)
    announcer.hold(_draft(3, 1, "b", filled), more=True)
    announcer.hold(_draft(4, 2, "c", filled), more=True)  # another seat: 2-3 go out
    announcer.enqueue(_outcome(5, None, "d"))  # a person's move: 4 goes out with it
    announcer.notice(_outcome(6, None, "e"))
    announcer.flush(1)
    await announcer.drain()
    assert heard == [(2, ["a"]), (3, ["b"]), (4, ["c"]), (5, ["d"]), (6, ["e"])]
    assert [(o.version, o.lines) for o in sink.outcomes] == [
        (3, ["a", "b"]), (5, ["c", "d"]), (6, ["e"])]
    # the run 2-3 announced alone (for the thread), once; nothing for the pages
    assert filled == [3]
