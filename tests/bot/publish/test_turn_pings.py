"""Who a turn message pings: a message opened for someone away and replaced by a newer one
before it was posted hands its pings on (nobody's ping is lost), filtered to those who
still owe a decision; pings a post is delivering are not repeated by the next message."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot.publish.publisher import DiscordPublisher
from bot.store import SeatRow
from bot.table.model import Outcome, OutcomeKind
from games.controls import Panel

SEATS = [SeatRow(0, 11, None, "Ann"), SeatRow(1, 12, None, "Bob"), SeatRow(2, 13, None, "Cy")]


def _outcome(version: int, mention: list[int], since: dict[int, int]) -> Outcome:
    return Outcome(game_id=1, channel_id=10, guild_id=None, version=version,
                   kind=OutcomeKind.PLAY, lines=[f"line {version}"], play_channel_id=20,
                   turn_key=f"turn {version}", round_key="round 1", waits_for_person=True,
                   panel=Panel(f"prompt {version}"), seats=list(SEATS),
                   public_view={}, mention=mention, since=since)


class _Storage:
    async def game_ref(self, game_id: int) -> Any:
        return SimpleNamespace(play_channel_id=20, thread_id=20)

    async def game(self, game_id: int) -> None:
        return None

    async def set_turn_message(self, *args: Any) -> None:
        pass


class _Outboxes:
    """Keeps the writes asked for instead of running them (the test runs them)."""

    def submit(self, *args: Any, **kwargs: Any) -> None:
        pass


def _publisher() -> tuple[DiscordPublisher, list[list[int]]]:
    client = SimpleNamespace(global_pace=None)
    publisher = DiscordPublisher(client, _Storage(), SimpleNamespace(  # type: ignore[arg-type]
        promote=lambda *a: None), outboxes=_Outboxes())  # type: ignore[arg-type]
    publisher.dms = SimpleNamespace(queue=lambda *a: None)  # type: ignore[assignment]
    pinged: list[list[int]] = []
    return publisher, pinged


@pytest.mark.asyncio
async def test_a_replaced_turn_message_hands_on_its_pings() -> None:
    publisher, pinged = _publisher()
    during: list[Outcome] = []

    async def send(turn: Any, carrier: Any, content: str, **kwargs: Any) -> int:
        pinged.append([u.id for u in kwargs["allowed_mentions"].users])
        for o in during:  # a newer outcome arrives while this post is under way
            await publisher.publish(o)
        during.clear()
        return 1000 + len(pinged)
    publisher._send = send  # type: ignore[method-assign]

    # Ann away is asked (v1); before that message is posted Bob away is asked (v2): the
    # message of v2 replaces it and pings both, since both still owe a decision
    await publisher.publish(_outcome(1, [11], {0: 1}))
    await publisher.publish(_outcome(2, [12], {0: 1, 1: 2}))
    turn = publisher._turns[1]
    assert turn.outcome is not None and turn.outcome.version == 2
    await publisher._write(turn, turn.outcome, turn.serial, None, None)
    assert pinged == [[11, 12]], "Ann's ping is not lost with the message never posted"
    assert "line 1" in turn.lines, "nor are its lines"

    # Cy is asked (v3, a new message) and, before it is posted, Ann answers and Bob is
    # asked again (v4): only who still owes is pinged
    await publisher.publish(_outcome(3, [13], {0: 1, 1: 2, 2: 3}))
    await publisher.publish(_outcome(4, [12], {1: 4, 2: 3}))
    assert turn.outcome is not None
    await publisher._write(turn, turn.outcome, turn.serial, None, None)
    assert pinged[-1] == [13, 12]

    # a message posted pings once: a message opened while that post is under way pings
    # only its own people, not those again
    await publisher.publish(_outcome(5, [11], {0: 5, 1: 4}))
    during.append(_outcome(6, [13], {0: 5, 1: 4, 2: 6}))
    o5 = turn.outcome
    assert o5 is not None
    serial5 = turn.serial
    await publisher._write(turn, o5, serial5, None, None)
    assert pinged[-1] == [11]
    assert turn.outcome is not None and turn.outcome.version == 6
    await publisher._write(turn, turn.outcome, turn.serial, None, None)
    assert pinged[-1] == [13], "Ann was pinged by the message before: not twice"


@pytest.mark.asyncio
async def test_a_failed_post_keeps_its_pings_for_the_next_try() -> None:
    publisher, pinged = _publisher()
    fail = [True]

    async def send(turn: Any, carrier: Any, content: str, **kwargs: Any) -> int:
        pinged.append([u.id for u in kwargs["allowed_mentions"].users])
        if fail[0]:
            fail[0] = False
            raise ConnectionError("Discord did not answer")
        return 1000
    publisher._send = send  # type: ignore[method-assign]
    await publisher.publish(_outcome(1, [11], {0: 1}))
    turn = publisher._turns[1]
    assert turn.outcome is not None
    with pytest.raises(ConnectionError):
        await publisher._write(turn, turn.outcome, turn.serial, None, None)
    await publisher._write(turn, turn.outcome, turn.serial, None, None)
    assert pinged == [[11], [11]]


def test_merged_outcomes_ping_whom_either_would_if_they_still_owe() -> None:
    """An outcome held back (a computer's steps) merged into the next one keeps the
    earlier one's pings of people who still owe a decision."""
    a = _outcome(1, [11], {0: 1})
    assert a.merge(_outcome(2, [12], {0: 1, 1: 2})).mention == [11, 12]
    assert a.merge(_outcome(2, [], {0: 1})).mention == [11], "a computer's step after it"
    assert a.merge(_outcome(2, [12], {1: 2})).mention == [12], "Ann has answered"
