"""Computer players cannot see hidden information (R-INFO-1..3).

The API takes a seat's view, not the state, so a computer player never receives other
hands, face-down cards or the deck order. These tests check that structure from both
sides: changing only hidden information in the state leaves the seat's view -- and so
its decision -- unchanged at every level; and the determinisation sampler fills the
gaps only with cards the seat has not seen, respecting every public count.
"""

import inspect
import random

import pytest

from engine import apply_in_place, decisions, new_game, view
from engine.ai import ALL_LEVELS, choose_action
from engine.ai.sampling import determinise, known_cards, unseen_cards
from engine.content import CONTENT
from engine.simulate import random_action
from engine.state import State
from tests.engine.test_properties import cards_in_play, hide_and_reshuffle

HARD = {"budget_s": 60.0, "iterations": 6}  # the iteration cap binds: deterministic


def positions(n: int, seed: int, every: int, limit: int) -> list[State]:
    """Positions of a random game, including combats, discards and progress phases."""
    state, _ = new_game(n, seed, random_map=seed % 2 == 0)
    rng = random.Random(seed)
    out = []
    step = 0
    while decisions(state) and step < limit:
        if step % every == 0 or state.combat is not None or state.phase == "progress":
            out.append(state.copy())
        d = rng.choice(decisions(state))
        apply_in_place(state, d.seat, random_action(state, d.seat, rng))
        step += 1
    return out


def varied_positions(per_kind: int = 2) -> list[State]:
    """A few positions for each kind of decision (secret cards, discards, moves ...)."""
    by_kind: dict[str, list[State]] = {}
    for seed in (5, 6, 7):
        for state in positions(4, seed, every=1, limit=900):
            kind = decisions(state)[0].kind
            if len(by_kind.setdefault(kind, [])) < per_kind:
                by_kind[kind].append(state)
    return [s for group in by_kind.values() for s in group]


def test_api_takes_a_view_not_a_state():
    """The only game input of choose_action is the view dict."""
    params = list(inspect.signature(choose_action).parameters)
    assert params[:4] == ["view", "level", "seed", "budget_s"]
    state, _ = new_game(3, 1, random_map=True)
    with pytest.raises(ValueError):
        choose_action(view(state, None), "normal", 0)  # the spectator view has no seat


@pytest.mark.parametrize("level", ALL_LEVELS)
def test_decision_unchanged_by_other_hands_and_deck_order(level):
    """R-INFO-1/2/3: re-dealing every secret the seat may not know (other hands, deck
    order, face-down attack cards, others' progress choices) gives an equal view and
    the same action for the same seed."""
    rng = random.Random(11)
    checked = 0
    kinds = set()
    for state in varied_positions():
        for d in decisions(state)[:2]:
            kinds.add(d.kind)
            other = hide_and_reshuffle(state, d.seat, rng)
            assert other.deck != state.deck or len(state.deck) < 2
            mine, theirs = view(state, d.seat), view(other, d.seat)
            assert mine == theirs
            kw = HARD if level == "hard" else {}
            a = choose_action(mine, level, seed=99, **kw)
            b = choose_action(theirs, level, seed=99, **kw)
            assert a == b
            checked += 1
    assert {"attack_cards", "defend_cards", "progress_cards", "turn", "move"} <= kinds


def test_sampler_keeps_known_cards_and_public_counts():
    """The determinisation never deals the seat's own (or any seen) card to someone
    else, keeps every public count, and its view equals the original view."""
    rng = random.Random(3)
    for n in (3, 5):
        for state in positions(n, 40 + n, every=23, limit=900):
            for seat in range(n):
                v = view(state, seat)
                det = determinise(v, rng)
                known = known_cards(v)
                assert det.players[seat].hand == state.players[seat].hand
                # R-INFO-1: the pile is face down; what the seat saw there stays, the
                # rest (others' hand-limit discards) is sampled from unseen cards
                assert len(det.discard) == len(state.discard)
                seen = [c for c, w in zip(state.discard, state.discard_seen) if w in (-1, seat)]
                assert sorted(c for c, w in zip(det.discard, det.discard_seen)
                              if w in (-1, seat)) == sorted(seen)
                assert not (set(det.discard) - set(seen)) & known
                for i, p in enumerate(det.players):
                    assert len(p.hand) == len(state.players[i].hand)
                    if i != seat:
                        assert not set(p.hand) & known
                assert not set(det.deck) & known
                assert len(det.deck) == len(state.deck)
                if det.combat is not None and state.combat is not None:
                    assert len(det.combat.attack_cards or []) == len(
                        state.combat.attack_cards or [])
                assert sorted(det.progress_choices) == sorted(state.progress_choices)
                assert sorted(cards_in_play(det)) == list(range(len(CONTENT.cards)))
                assert len(det.tile_stack) == len(state.tile_stack)
                assert view(det, seat) == v
                assert set(unseen_cards(v)) == set(range(len(CONTENT.cards))) - known


def test_sampler_varies_what_it_cannot_know():
    """Different samples deal the unseen cards differently (the sampler really samples)."""
    state = positions(4, 8, every=1000, limit=400)[-1]
    v = view(state, 0)
    hands = {tuple(determinise(v, random.Random(k)).players[1].hand) for k in range(8)}
    if state.players[1].hand:
        assert len(hands) > 1


def test_hint_unchanged_by_other_hands_and_deck_order():
    """R-INFO-1/2/3: the hint (action, reasons, plan) reads only the seat's view, so
    re-dealing every secret gives the same hint for the same seed."""
    from engine.ai import hint

    rng = random.Random(12)
    checked = 0
    for state in varied_positions(per_kind=1):
        d = decisions(state)[0]
        other = hide_and_reshuffle(state, d.seat, rng)
        mine, theirs = view(state, d.seat), view(other, d.seat)
        assert mine == theirs
        a = hint(mine, 7, budget_s=60.0, iterations=4)
        b = hint(theirs, 7, budget_s=60.0, iterations=4)
        assert a.to_json() == b.to_json()
        checked += 1
    assert checked >= 5


def test_ladder_and_hint_take_views_only():
    """The ladder gives each seat only its view, as the tournament does; the hint's only
    game input is the view."""
    import inspect

    from engine.ai import hint
    from engine.ai.ladder import play_ladder_game

    assert list(inspect.signature(hint).parameters)[:3] == ["view", "seed", "budget_s"]
    src = inspect.getsource(play_ladder_game)
    assert "choose_action(v," in src and "v = view(state, d.seat)" in src
