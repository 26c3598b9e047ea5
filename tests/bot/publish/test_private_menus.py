"""Private menus: which are still current, retiring the others with the right
words, ephemeral ones forgotten when Discord no longer lets them be edited, and DM menus
stored so that a restart still retires the ones whose decision passed."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.publish.private_menus import (
    EPHEMERAL_LIFE,
    PrivateMenus,
    Retirer,
    current,
    retirer,
)
from bot.store import SeatRow
from bot.store.sqlite import SqliteStorage
from lang import i18n
from lang.messages import t

ANN, BOB, CY = 100, 101, 102
SEATS = [SeatRow(0, ANN, None, "Ann"), SeatRow(1, BOB, None, "Bob"),
         SeatRow(2, None, "random", "Computer")]


class Edits:
    """Records the edits of messages, by message id."""

    def __init__(self) -> None:
        self.done: dict[int, dict[str, Any]] = {}

    def message(self, message_id: int, channel_id: int) -> Any:
        """A sent message (its ``edit`` is bound to it, like discord.py's)."""
        edits = self

        class Message:
            id = message_id
            channel = SimpleNamespace(id=channel_id)

            async def edit(self, **kwargs: Any) -> None:
                edits.done[message_id] = kwargs
        return Message()

    # the client's part used after a restart
    def get_partial_messageable(self, channel_id: int, /, **_: Any) -> Any:
        return SimpleNamespace(get_partial_message=lambda mid: self.message(mid, channel_id))


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _dm(menus: PrivateMenus, edits: Edits, mid: int, game: int, user: int, version: int,
        content: str = "Choose", *, lang: str = "en") -> None:
    with i18n.using(lang):
        msg = edits.message(mid, 9000 + user)
        menus.remember(mid, game, user, version, retirer(msg.edit, content, t("menu.expired")))


def test_a_menu_is_current_while_its_person_owes_that_decision() -> None:
    assert current(SEATS, {0: 5}, ANN, 5) and current(SEATS, {0: 5}, ANN, 7)
    assert not current(SEATS, {0: 6}, ANN, 5), "a newer decision: made before it"
    assert not current(SEATS, {1: 5}, ANN, 5), "Ann owes nothing"
    assert not current(SEATS, {2: 5}, CY, 5), "not seated"
    auto = [SeatRow(0, ANN, None, "Ann", autopilot="normal"), *SEATS[1:]]
    assert not current(auto, {0: 5}, ANN, 5), "a computer plays Ann's seat"


@pytest.mark.asyncio
async def test_stale_menus_are_retired_with_words_that_say_why() -> None:
    """The decision passed (neutral words: never 'you made it'), the time ran out (the
    computer decided), the seat is on autopilot, the seat went to someone else; a
    current menu and another game's stay; a failed edit is skipped."""
    edits = Edits()
    menus = PrivateMenus()
    _dm(menus, edits, 1, 7, ANN, 3, "Pick a card")
    _dm(menus, edits, 2, 7, BOB, 3)
    _dm(menus, edits, 3, 8, ANN, 3)  # another game
    assert await menus.retire_stale(7, SEATS, {0: 3, 1: 3}) == 0
    assert await menus.retire_stale(7, SEATS, {0: 4, 1: 3}) == 1
    assert edits.done[1] == {"content": f"Pick a card\n\n{t('menu.expired')}", "view": None}
    assert "made" not in t("menu.expired") and "you" not in t("menu.expired").lower()
    menus.timed_out(7, BOB)
    assert await menus.retire_stale(7, SEATS, {0: 4}) == 1
    assert edits.done[2]["content"].endswith(t("menu.expired_timeout"))
    assert "computer" in t("menu.expired_timeout")
    auto = [SeatRow(0, ANN, None, "Ann", autopilot="normal"), *SEATS[1:]]
    _dm(menus, edits, 4, 7, ANN, 5)
    assert await menus.retire_stale(7, auto, {0: 5}) == 1
    assert edits.done[4]["content"].endswith(t("menu.expired_computer"))
    _dm(menus, edits, 5, 7, BOB, 5)
    given = [SEATS[0], SeatRow(1, CY, None, "Cy"), SEATS[2]]
    assert await menus.retire_stale(7, given, {1: 5}) == 1
    assert edits.done[5]["content"].endswith(t("menu.expired_seat"))
    assert len(menus) == 1 and 3 not in edits.done  # game 8's menu stays

    async def refused(**_: Any) -> None:
        raise RuntimeError("Unknown Message")
    menus.remember(6, 8, BOB, 1, Retirer(refused, "x"))
    assert await menus.retire_stale(8, SEATS, {}) == 2  # one refused: skipped, not raised
    assert len(menus) == 0


@pytest.mark.asyncio
async def test_retired_words_follow_the_menus_language_and_fit_discord() -> None:
    edits = Edits()
    menus = PrivateMenus()
    _dm(menus, edits, 1, 7, ANN, 3, "x" * 3000, lang="pl")
    menus.timed_out(7, ANN)
    await menus.retire_stale(7, SEATS, {})
    with i18n.using("pl"):
        marker = t("menu.expired_timeout")
    assert edits.done[1]["content"].endswith(marker) and marker != t("menu.expired_timeout")
    assert len(edits.done[1]["content"]) <= 2000


@pytest.mark.asyncio
async def test_ephemeral_menus_are_forgotten_once_they_cannot_be_edited() -> None:
    clock = Clock()
    edits = Edits()
    menus = PrivateMenus(clock)
    menus.remember(1, 7, ANN, 3, retirer(edits.message(1, 50).edit, "a", "m"), ephemeral=True)
    menus.remember(2, 7, ANN, 3, retirer(edits.message(2, 50).edit, "b", "m"), ephemeral=True)
    clock.now = EPHEMERAL_LIFE - 1
    assert len(menus.stale(7, SEATS, {0: 3})) == 0 and len(menus) == 2
    assert await menus.retire_stale(7, SEATS, {}) == 2  # still editable: retired
    menus.remember(3, 7, ANN, 3, retirer(edits.message(3, 50).edit, "c", "m"), ephemeral=True)
    clock.now += EPHEMERAL_LIFE + 1
    assert await menus.retire_stale(7, SEATS, {}) == 0, "its token is dead: dropped silently"
    assert len(menus) == 0 and 3 not in edits.done


@pytest.mark.asyncio
async def test_a_used_menu_is_taken_out_and_put_back_if_refused() -> None:
    edits = Edits()
    menus = PrivateMenus()
    _dm(menus, edits, 1, 7, ANN, 3)
    taken = menus.take(1)
    assert taken is not None and len(menus) == 0
    assert await menus.retire_stale(7, SEATS, {}) == 0, "in use: not retired meanwhile"
    menus.put_back(1, taken)
    assert await menus.retire_stale(7, SEATS, {}) == 1
    _dm(menus, edits, 2, 7, ANN, 3)
    menus.forget(2)
    assert menus.take(2) is None and len(menus) == 0


@pytest.mark.asyncio
async def test_dm_menus_are_stored_and_retired_after_a_restart(tmp_path: Path) -> None:
    """DM menus are written to the store (ephemeral ones are not: Discord cannot edit
    them later anyway); a used one is dropped. After a restart the menus of this
    process's games are read back: those whose decision passed while the bot was down
    are retired at once (their text kept, in their language), the current one is kept
    and retired when its decision passes; another process's game is left to it."""
    db = str(tmp_path / "t.db")
    store = await SqliteStorage.open(db)
    games = [(await store.create_game(1, 10 + i, ANN, "Ann", {})).id for i in range(3)]
    g, mine_later, foreign = games
    edits = Edits()
    menus = PrivateMenus()
    menus.attach(store, edits)
    _dm(menus, edits, 11, g, ANN, 3, "Ann's choice", lang="pl")
    _dm(menus, edits, 12, g, BOB, 3, "Bob's choice")
    _dm(menus, edits, 13, mine_later, BOB, 4)
    _dm(menus, edits, 14, foreign, ANN, 1)
    _dm(menus, edits, 15, g, BOB, 3)
    menus.remember(16, g, ANN, 3, retirer(edits.message(16, 1).edit, "e", "m"), ephemeral=True)
    menus.take(15)  # used: it says itself what happened
    await menus.flush()
    assert sorted(r.message_id for r in await store.private_menus()) == [11, 12, 13, 14]
    row = (await store.private_menus(g))[0]
    assert (row.channel_id, row.user_id, row.version, row.content, row.locale) == (
        9000 + ANN, ANN, 3, "Ann's choice", "pl")
    await store.close()

    # the restart: a new process, nothing in memory; meanwhile Ann's decision passed
    store = await SqliteStorage.open(db)
    edits = Edits()
    after = PrivateMenus()
    after.attach(store, edits)
    positions = {g: (SEATS, {1: 3}), mine_later: (SEATS, {1: 4}), foreign: None}

    async def position(game_id: int) -> Any:
        return positions[game_id]
    assert await after.restore(position) == 1
    with i18n.using("pl"):
        assert edits.done[11] == {"content": f"Ann's choice\n\n{t('menu.expired')}",
                                  "view": None}
    assert set(edits.done) == {11} and len(after) == 2
    await after.flush()
    assert sorted(r.message_id for r in await store.private_menus()) == [12, 13, 14]
    # Bob's decision passes later: his restored menu is retired like any other
    assert await after.retire_stale(g, SEATS, {}) == 1
    assert edits.done[12]["content"] == f"Bob's choice\n\n{t('menu.expired')}"
    await after.flush()
    assert sorted(r.message_id for r in await store.private_menus()) == [13, 14]
    await store.close()


@pytest.mark.asyncio
async def test_a_secret_choice_is_never_asked_twice_by_dm(tmp_path: Path) -> None:
    """A DM for a secret decision is not sent when a DM menu for that decision (made at
    its version or later) is live in memory, or stored by the process before a restart."""
    from bot.publish.hand_dms import HandDMs, PendingHand

    store = await SqliteStorage.open(str(tmp_path / "t.db"))
    g = (await store.create_game(1, 10, ANN, "Ann", {})).id
    edits = Edits()
    menus = PrivateMenus()
    dms = HandDMs(Any, Any, menus, {}, lambda *a: None, storage=store)  # type: ignore[arg-type]
    asked = PendingHand(g, ANN, 0, "en", version=3)
    assert not await dms._asked(asked)
    _dm(menus, edits, 11, g, ANN, 3)
    assert await dms._asked(asked), "the live DM menu is that decision's"
    assert not await dms._asked(PendingHand(g, ANN, 0, "en", version=4)), "a newer decision"
    assert not await dms._asked(PendingHand(g, BOB, 0, "en", version=3)), "someone else's"

    # after a restart: nothing in memory, the stored row says it was asked
    stored = PrivateMenus()
    stored.attach(store, edits)
    _dm(stored, edits, 12, g, BOB, 5)
    await stored.flush()
    fresh = HandDMs(Any, Any, PrivateMenus(), {}, lambda *a: None,  # type: ignore[arg-type]
                    storage=store)
    assert await fresh._asked(PendingHand(g, BOB, 0, "en", version=5))
    assert not await fresh._asked(PendingHand(g, BOB, 0, "en", version=6))
    await store.close()
