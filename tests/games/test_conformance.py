"""Every registered game behind the port (games.port), played at random through it alone,
as the host plays it: OpenSpiel's random-simulation test for our port.

For each game: random games end; someone owes a decision until the end and only they
are asked; every action listed as legal applies (a sample of them at each step, on a
copy: the position itself never changes); actions, states and the log survive their
stored JSON; the log replays to the same position; and the views hide what they must:
a twin of the position with everything a seat cannot see dealt anew gives that seat
(and a spectator) the very same view.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import registry
from games.port import Game, Refused

#: a random game this long has gone wrong (Tempus ends in a few hundred steps)
MAX_STEPS = 5_000
#: legal actions tried on a copy at each step, besides the one played
TRIED = 4


def _json(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def play_randomly(game: Game, players: int, seed: int) -> None:
    rules = game.rules
    rng = random.Random(seed)
    options = {**rules.default_options(), "seed": seed}
    started = rules.start(players, options)
    state = started.state
    replayed_from = rules.first_state(started.options, players)
    assert _json(replayed_from.to_json()) == _json(state.to_json())
    log: list[tuple[int, dict[str, object]]] = []
    for step in range(MAX_STEPS):
        if rules.is_over(state):
            break
        deciding = rules.to_act(state)
        assert deciding, f"step {step}: nobody owes a decision in a running game"
        assert sorted({d.seat for d in rules.decisions(state)}) == sorted(set(deciding))
        for seat in range(players):
            d = rules.decision_for(state, seat)
            assert (d is not None) == (seat in deciding)
        if step % 7 == 0:  # views: what a seat cannot see changes nothing it is shown
            for seat in [None, *range(players)]:
                twin = rules.twin(state, seat, rng.randrange(2**31))
                assert _json(rules.view(twin, seat)) == _json(rules.view(state, seat)), \
                    f"step {step}: the view of seat {seat} tells its twin apart"
        seat = rng.choice(deciding)
        legal = rules.legal_actions(state, seat)
        assert legal, f"step {step}: seat {seat} owes a decision with no legal answer"
        before = _json(state.to_json())
        for action in rng.sample(legal, min(TRIED, len(legal))):
            try:
                rules.apply(state, seat, action)
            except Refused as exc:  # pragma: no cover - the failure says which
                pytest.fail(f"step {step}: listed action {action} refused: {exc.reason}")
        assert _json(state.to_json()) == before, "apply changed the position it was given"
        action = rng.choice(legal)
        stored = json.loads(_json(action.to_json()))
        assert rules.action_from_json(stored) == action
        assert not rules.is_undo(stored)
        state, events = rules.apply(state, seat, action)
        assert all(e.private_to is None or 0 <= e.private_to < players for e in events)
        log.append((seat, stored))
    else:
        pytest.fail(f"no end after {MAX_STEPS} steps")
    # the stored log replays to the same position, and so does the stored snapshot
    replay = rules.first_state(started.options, players)
    for seat, stored in log:
        rules.apply_in_place(replay, seat, rules.action_from_json(stored))
    assert _json(replay.to_json()) == _json(state.to_json())
    snapshot = rules.state_from_json(json.loads(_json(state.to_json())))
    assert _json(snapshot.to_json()) == _json(state.to_json())
    assert rules.to_act(state) == []


@pytest.mark.parametrize("name", registry.names())
def test_every_game_is_registered_under_its_name(name: str) -> None:
    game = registry.game(name)
    assert game.name == name
    assert game.rules.min_players <= game.rules.max_players
    assert game.computers.default_level() in game.computers.levels()
    assert game.computers.random_level in game.computers.levels()


@pytest.mark.parametrize("name", registry.names())
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_games_through_the_port(name: str, data: st.DataObject) -> None:
    game = registry.game(name)
    players = data.draw(st.integers(game.rules.min_players, game.rules.max_players),
                        label="players")
    seed = data.draw(st.integers(0, 2**31 - 1), label="seed")
    play_randomly(game, players, seed)


def test_a_stored_name_no_game_has_is_refused() -> None:
    with pytest.raises(registry.UnknownGame):
        registry.game("chess")


def test_the_check_finds_a_view_that_leaks() -> None:
    """A game whose public view shows the draw pile fails the conformance test."""
    tempus = registry.game("tempus")

    class Leaky:
        def __init__(self, rules: object) -> None:
            self._rules = rules

        def __getattr__(self, name: str) -> object:
            return getattr(self._rules, name)

        def view(self, state: object, seat: int | None) -> dict[str, object]:
            return {**tempus.rules.view(state, seat), "deck": list(state.deck)}  # type: ignore[attr-defined]

    leaky = Game("tempus", Leaky(tempus.rules), tempus.show, tempus.computers,  # type: ignore[arg-type]
                 tempus.records, tempus.media)
    with pytest.raises(AssertionError, match="tells its twin apart"):
        play_randomly(leaky, 3, 7)
