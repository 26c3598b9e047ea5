"""Property-based tests over random legal play (hypothesis), 3-5 players.

Invariants checked after every action: 16 tokens and 8 cities per player accounted for,
54 cards accounted for, one owner per hex, stack limits (with Sanitation: no token is
added to a hex beyond its owner's limit, R-CARD-SAN / R-MOVE-4 / R-GROW-3 / R-COMBAT-8),
views free of hidden information (R-INFO-1..3, the face-down discard pile included),
exact JSON round-trip; at the end: the game ended after Flight was reached (R-END-1) and
replaying the record gives the same state.
"""

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import apply_in_place, decisions, view
from engine.content import CONTENT
from engine.hexgrid import NUM_HEXES
from engine.record import Record, replay
from engine.rules import RULES_VERSION
from engine.simulate import random_action
from engine.state import OVER, State

SETTINGS = settings(max_examples=20, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


def cards_in_play(s: State) -> list[int]:
    cards = list(s.deck) + list(s.discard)
    for p in s.players:
        cards += p.hand
    if s.combat is not None and s.combat.defend_cards is None:  # not yet resolved
        cards += s.combat.attack_cards or []
    for chosen in s.progress_choices.values():
        cards += chosen
    return cards


def check_invariants(s: State, before: State | None = None) -> None:
    """``before``: the state one action earlier, for the stack-limit checks (R-CARD-SAN:
    tokens above the limit after a raise ended may stay, but none may be added; rules 2:
    no raise survives a token leaving its hex)."""
    for seat, p in enumerate(s.players):
        on_board = sum(s.count[h] for h in range(NUM_HEXES) if s.owner[h] == seat)
        assert on_board + p.supply == CONTENT.tokens_per_player
        built = [s.city_value[h] for h in range(NUM_HEXES) if s.city_owner[h] == seat]
        assert Counter(built + p.cities) == Counter(CONTENT.city_values)
    cards = cards_in_play(s)
    assert sorted(cards) == list(range(len(CONTENT.cards)))
    assert len(s.discard_seen) == len(s.discard)
    for h in range(NUM_HEXES):
        assert (s.owner[h] == -1) == (s.count[h] == 0)
        if s.count[h]:
            assert s.terrain[h] is not None and s.city_owner[h] == -1
            grew = before is None or before.owner[h] != s.owner[h] or \
                s.count[h] > before.count[h]
            if grew:
                assert s.count[h] <= s.stack_limit(s.owner[h], h), f"stack over limit at {h}"
        if s.bonus[h] and s.rules_version >= 2:  # R-CARD-SAN: a raise is one seat's own
            assert s.bonus_seat[h] >= 0 and s.owner[h] in (-1, s.bonus_seat[h])
            # ... and all of it is gone once a token leaves the hex (no leftover that a
            # later, higher era limit could turn into room)
            if before is not None and before.count[h] > 0:
                left = s.count[h] < before.count[h] or s.owner[h] != before.owner[h]
                assert not left, f"a raise of {s.bonus[h]} stayed on {h} after a token left"
        if s.city_owner[h] >= 0:
            assert s.terrain[h] not in (None, "M")


def hide_and_reshuffle(s: State, keep: int | None, rng: random.Random) -> State:
    """The same public position with every secret of everyone but ``keep`` re-dealt."""
    t = s.copy()
    t.seed = rng.randrange(10**9)
    pool = list(t.deck)
    for seat, p in enumerate(t.players):
        if seat != keep:
            pool += p.hand
    if t.combat is not None and t.combat.attack_cards is not None and t.combat.defend_cards \
            is None and keep != t.combat.attacker:
        pool += t.combat.attack_cards
    for seat, chosen in t.progress_choices.items():
        if seat != keep:
            pool += chosen
    # the discard pile is face down (R-INFO-1): only what ``keep`` saw stays put
    hidden = [i for i, w in enumerate(t.discard_seen) if w not in (-1, keep)]
    pool += [t.discard[i] for i in hidden]
    rng.shuffle(pool)
    for i in hidden:
        t.discard[i] = pool.pop()
    for seat, p in enumerate(t.players):
        if seat != keep:
            p.hand = [pool.pop() for _ in p.hand]
    if t.combat is not None and t.combat.attack_cards is not None and t.combat.defend_cards \
            is None and keep != t.combat.attacker:
        t.combat.attack_cards = [pool.pop() for _ in t.combat.attack_cards]
    for seat in list(t.progress_choices):
        if seat != keep:
            t.progress_choices[seat] = [pool.pop() for _ in t.progress_choices[seat]]
    t.tile_stack = rng.sample(t.tile_stack, len(t.tile_stack)) if len(t.tile_stack) > 1 \
        else t.tile_stack
    if t.tile_stack and s.tile_stack:
        # the current tile is public in the tile phase
        rest = [x for x in t.tile_stack if x != s.tile_stack[0]]
        t.tile_stack = [s.tile_stack[0], *rest]
    t.deck = pool
    return t


def check_views(s: State, rng: random.Random) -> None:
    """R-INFO-1..3: a view is identical whatever the hidden information is."""
    for keep in [None, *range(s.num_players)]:
        other = hide_and_reshuffle(s, keep, rng)
        assert view(s, keep) == view(other, keep)
        v = view(s, keep)
        text = json.dumps(v)
        assert '"seed"' not in text and '"deck"' not in text and '"discard":' not in text
        assert v["discard_size"] == len(s.discard)
        for i, p in enumerate(v["players"]):
            assert ("hand" in p) == (i == keep)


def run_game(n: int, seed: int, *, random_map: bool, rules_version: int = RULES_VERSION,
             options: dict[str, bool] | None = None) -> tuple[State, Record]:
    record = Record(num_players=n, seed=seed, random_map=random_map,
                    rules_version=rules_version, options=dict(options or {}))
    state, _ = record.new_state()
    rng = random.Random(seed)
    steps = 0
    while decisions(state):
        seat = rng.choice(decisions(state)).seat
        action = random_action(state, seat, rng)
        before = state.copy()
        apply_in_place(state, seat, action)
        record.moves.append((seat, action))
        check_invariants(state, before)
        if steps % 7 == 0:
            check_views(state, rng)
            again = State.from_json(json.loads(json.dumps(state.to_json())))
            assert again == state and again.to_json() == state.to_json()
        steps += 1
        assert steps < 5000
    return state, record


@SETTINGS
@given(n=st.integers(3, 5), seed=st.integers(0, 10**6), random_map=st.booleans(),
       rules=st.sampled_from([(3, False), (3, True), (2, False), (1, False)]))
def test_random_games_keep_invariants_and_end_r_end_1(n, seed, random_map, rules):
    """R-END-1, R-SETUP-1, R-INFO-1..3, R-CARD-SAN stack accounting, records replay;
    under the current rules with and without R-OPT-1, and under rules 1."""
    version, opt = rules
    options = {"protection_counts_cities": True} if opt else {}
    state, record = run_game(n, seed, random_map=random_map, rules_version=version,
                             options=options)
    assert state.rules_version == version and state.cities_count_for_protection() == (
        opt or version == 1)
    assert state.phase == OVER
    assert max(p.era for p in state.players) == CONTENT.flight
    assert state.era_number == CONTENT.flight  # one era per box: ten eras
    assert state.winners and len(state.scores) == n
    replayed = replay(Record.from_json(json.loads(json.dumps(record.to_json()))))
    assert replayed == state


@settings(max_examples=3, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6))
def test_every_legal_action_applies(seed):
    """Everything legal_actions lists is accepted by apply (R-ROUND-5: never stuck)."""
    from engine import apply, legal_actions

    state, _ = Record(num_players=4, seed=seed, random_map=True).new_state()
    rng = random.Random(seed)
    while decisions(state):
        seat = rng.choice(decisions(state)).seat
        acts = legal_actions(state, seat)
        assert acts, "a seat owes a decision but has no legal action"
        for a in rng.sample(acts, min(len(acts), 4)):
            apply(state, seat, a)  # must not raise
        apply_in_place(state, seat, random_action(state, seat, rng))
