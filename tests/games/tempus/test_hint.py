"""/tempus hint: the strongest computer player's move for your seat, legal for every
decision kind, explained in English and Polish, and computed from your view only: the
same view gives the same hint whatever the hidden cards (other hands, deck order,
face-down cards) are."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot.runtime.worker_pool import Offloader
from engine import actions as A
from engine import game as G
from engine.actions import action_from_json
from engine.game import apply, decisions
from engine.legal import legal_actions
from engine.state import State
from engine.views import view
from games.tempus.hint import REASON_KEYS, hint_for_user, hint_text, seed_for, think
from lang import i18n
from tests.bot.positions import ALL_KINDS, by_kind, shuffle_hidden

#: the search stops after this many rollouts (long before the time budget): deterministic
ITERATIONS = 24
BUDGET = 60.0


def quick(v: dict[str, Any], seed: int = 3) -> dict[str, Any]:
    return think(v, seed, BUDGET, ITERATIONS)


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_hint_is_legal_and_explained(kind: str) -> None:
    state, seat = by_kind()[kind]
    v = view(state, seat)
    result = quick(v)
    action = action_from_json(result["action"])
    assert action in legal_actions(state, seat)
    s = state
    s, _ = apply(s, seat, action)
    for step in result["plan"]:  # the spelled-out Move / Grow steps are legal in turn
        s, _ = apply(s, seat, action_from_json(step))
    for lang, head in (("en", "**Hint:** "), ("pl", "**Podpowiedź:** ")):
        with i18n.using(lang):
            text = hint_text(v, result)
        lines = text.split("\n")
        assert lines[0].startswith(head) and len(lines) in (3, 4)
        assert "{" not in text and len(text) <= 2000


def _table(state: State, *, hints: bool = True, seed: int = 99, version: int = 12,
           left: int | None = None) -> Any:
    seats = {100 + s: s for s in range(state.num_players)}
    return SimpleNamespace(id=1, state=state, version=version,
                           game=SimpleNamespace(options={"seed": seed, "hints": hints}),
                           seat_of=seats.get,
                           seats=[SimpleNamespace(left=s == left)
                                  for s in range(state.num_players)])


@pytest.mark.parametrize("kind", [G.TURN, G.MOVING, G.ATTACK_CARDS, G.DEFEND_CARDS,
                                  G.DISCARDING, G.PROGRESS_CARDS])
def test_same_view_same_hint_whatever_the_hidden_cards(kind: str) -> None:
    """Two states that differ only in what the seat cannot see give the same hint."""
    state, seat = by_kind()[kind]
    other = shuffle_hidden(state, seat, seed=11)
    assert other.to_json() != state.to_json()
    assert view(other, seat) == view(state, seat)
    assert quick(view(other, seat)) == quick(view(state, seat))


@pytest.mark.asyncio
async def test_the_command_path_uses_only_the_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """``/tempus hint`` builds the seat's view itself: states differing in hidden cards give
    the same reply (the search capped so that it does not depend on the clock)."""
    import games.tempus.hint as hint_module

    monkeypatch.setattr(hint_module, "think",
                        lambda v, seed, budget: think(v, seed, BUDGET, ITERATIONS))
    state, seat = by_kind()[G.TURN]
    other = shuffle_hidden(state, seat, seed=3)
    pool = Offloader(0)
    uid = 100 + seat
    a = await hint_for_user(_table(state), uid, pool)
    b = await hint_for_user(_table(other), uid, pool)
    assert a == b and a.startswith("**Hint:** ")


@pytest.mark.asyncio
async def test_hints_off_spectators_and_nothing_to_decide() -> None:
    state, seat = by_kind()[G.TURN]
    pool = Offloader(0)
    waiting = next(s for s in range(state.num_players)
                   if s not in {d.seat for d in decisions(state)})
    with i18n.using("en"):
        assert "off" in await hint_for_user(_table(state, hints=False), 100 + seat, pool)
        assert "no seat" in await hint_for_user(_table(state), 999, pool)
        assert "nothing to decide" in await hint_for_user(_table(state), 100 + waiting, pool)
        # who left the game: a computer plays the seat and its cards are nobody's to see,
        # so no hint (made from the seat's view, its hand) even while the seat decides
        gone = await hint_for_user(_table(state, left=seat), 100 + seat, pool)
        assert gone.startswith("You left game #1") and "Hint" not in gone, gone
    with i18n.using("pl"):
        assert "wyłączone" in await hint_for_user(_table(state, hints=False), 100 + seat, pool)


def test_seed_is_per_position_and_one_way() -> None:
    assert seed_for(5, 10, 1) == seed_for(5, 10, 1)
    assert len({seed_for(5, 10, 1), seed_for(5, 11, 1), seed_for(5, 10, 2),
                seed_for(6, 10, 1)}) == 4


@pytest.mark.asyncio
async def test_hint_runs_in_a_worker_process() -> None:
    """The bot runs hints in the computer players' worker processes: think() and its
    result must cross a process boundary."""
    state, seat = by_kind()[G.MOVING]
    pool = Offloader(1)
    try:
        result = await pool.run(think, view(state, seat), 1, BUDGET, ITERATIONS)
    finally:
        pool.close()
    assert action_from_json(result["action"]) in legal_actions(state, seat)
    assert isinstance(action_from_json(result["action"]), A.MoveToken | A.EndMove
                      | A.PlayTransport | A.PlayReligion | A.PlaySanitation)


def test_the_reasons_come_from_the_evaluation_in_the_players_words() -> None:
    """The hint says why in the player's words, from the evaluation the move came from
    (engine.ai.hints: how the move changes the evaluation's terms), with numbers in the
    reader's format; a key without words is left out rather than shown raw."""
    state, seat = by_kind()[G.TURN]
    v = view(state, seat)
    result = quick(v)
    assert result["level"] in ("hard", "normal")
    keys = [r["key"] for r in result["reasons"]]
    assert keys and set(keys) <= set(REASON_KEYS), keys
    forged = {**result, "reasons": [{"key": "vp", "value": 1.5},
                                    {"key": "threat", "value": -0.25},
                                    {"key": "no_such_term", "value": 9.0}]}
    with i18n.using("en"):
        text = hint_text(v, forged)
    assert ("for it — victory points now (about 1.5 victory points); against it — safety "
            "from attack (about 0.2 victory points)") in text
    assert "no_such_term" not in text and "9.0" not in text
    with i18n.using("pl"):
        text = hint_text(v, forged)
    assert "punkty zwycięstwa teraz (około 1,5 punktu zwycięstwa)" in text


def test_the_reasons_are_in_a_players_words() -> None:
    """What speaks for the move and what against it, each with what it is worth in
    victory points: not "presence on the board +1.4; room to grow -0.6"."""
    from games.tempus.hint import reasons_text

    reasons = [{"key": "board", "value": 1.4}, {"key": "growth", "value": -0.6}]
    assert reasons_text(reasons) == (
        "How the computer players judge it: for it — presence on the board (about 1.4 "
        "victory points); against it — room to grow (about 0.6 victory points).")
    with i18n.using("pl"):
        assert reasons_text(reasons) == (
            "Jak oceniają to gracze komputerowi: za — obecność na planszy (około 1,4 punktu "
            "zwycięstwa); przeciw — miejsce na nowe piony (około 0,6 punktu zwycięstwa).")


def test_the_search_is_told_in_a_players_words() -> None:
    """Not "best of 5 candidates in 300 simulated continuations": what the numbers are."""
    from lang.messages import t

    assert t("hint.search", n=5, rollouts=300) == (
        "The computer tried 5 choices, playing the rest of the game out 300 times in its "
        "head; this one did best.")
