"""The ``hard`` search's parts: its rollout horizon, its rollout cap, and the shortcuts
``normal`` takes to score moves and fights (each must give what the long way gives,
R-MOVE-2..7, R-COMBAT-8)."""

import random

from engine import decisions, new_game, view
from engine.ai import choose_action, search
from engine.ai.evaluate import FLIGHT, Evaluator
from engine.ai.normal import NormalPlayer, fights
from engine.ai.planner import PlannerPlayer
from engine.ai.sampling import determinise
from engine.combat import attack_targets
from engine.game import MOVING, TURN, apply_in_place
from engine.geography import geography
from engine.hexgrid import NEIGHBOURS, NUM_HEXES
from engine.legal import legal_actions
from engine.movement import can_end_on, destinations
from engine.simulate import random_action
from engine.state import MAIN, OVER, State


def positions(seed: int, games: int = 3, every: int = 7, normal: bool = False
              ) -> list[State]:
    """Positions (copies), every ``every`` actions, from random games or, with ``normal``,
    games of four ``normal`` players (they attack; random play rarely can)."""
    out = []
    rng = random.Random(seed)
    for g in range(games):
        state, _ = new_game(4, seed + g, random_map=True)
        step = 0
        while decisions(state):
            for d in decisions(state):
                action = (NormalPlayer(random.Random(step)).act(state, d.seat) if normal
                          else random_action(state, d.seat, rng))
                apply_in_place(state, d.seat, action)
                step += 1
                if step % every == 0:
                    out.append(state.copy())
    return out


def reference_destinations(state: State, seat: int, src: int) -> set[int]:
    """R-MOVE-2..7 spelt out with :func:`can_end_on` (what destinations() must equal)."""
    era = state.era(seat)
    out: set[int] = set()
    frontier, seen = [src], {src}
    for _ in range(era.distance):
        nxt = []
        for h in frontier:
            for n in NEIGHBOURS[h]:
                if n in seen or state.terrain[n] is None:
                    continue
                seen.add(n)
                if state.owner[n] not in (-1, seat):
                    continue
                if state.city_owner[n] >= 0:
                    if state.city_owner[n] == seat:
                        nxt.append(n)
                    continue
                nxt.append(n)
                if can_end_on(state, seat, n):
                    out.add(n)
        frontier = nxt
    geo = geography(state.terrain)
    for lake in geo.shore_lakes[src]:
        out.update(n for n in geo.lakeshores[lake] if n != src and can_end_on(state, seat, n))
    if era.sea and src in geo.coastal:
        out.update(n for n in geo.coastal if n != src and can_end_on(state, seat, n))
    return out


def test_destinations_equal_the_rules_spelt_out():
    checked = 0
    for state in positions(11):
        for seat in range(state.num_players):
            for src in range(NUM_HEXES):
                if state.owner[src] == seat:
                    assert destinations(state, seat, src) == reference_destinations(
                        state, seat, src)
                    checked += 1
    assert checked > 500


def test_fights_scored_as_changes_equal_the_full_evaluation():
    """normal scores a won or lost attack by re-scoring the hexes around it; the answer is
    the full evaluation's (R-COMBAT-8: the best number of tokens moved in)."""
    checked = 0
    for state in positions(23, games=1, every=2, normal=True):
        if state.phase == OVER:
            continue
        for seat in range(state.num_players):
            for src, dst in attack_targets(state, seat):
                p = NormalPlayer(random.Random(0))
                ev = p.evaluator(state)
                before = board(state)
                fast = fights.win_state(p, state, seat, ev, src, dst)
                assert board(state) == before  # the position is put back
                assert abs(fast - fights.win_state_full(state, seat, ev, src, dst)) < 1e-9
                lost = state.copy()
                lost.count[src] -= 1
                if lost.count[src] == 0:
                    lost.owner[src] = -1
                lost.players[seat].supply += 1
                full_lose = Evaluator(lost).relative(lost, seat)
                assert abs(fights.lose_state(p, state, seat, ev, src) - full_lose) < 1e-9
                assert board(state) == before
                checked += 1
        if checked >= 60:
            break
    assert checked > 20


def board(state: State) -> tuple:
    return (state.owner[:], state.count[:], [p.supply for p in state.players])


def _turn_position(last_era: bool = False) -> tuple[State, int]:
    """A fresh turn decision before era 8, or (``last_era``) in the last era, with a
    choice between several actions."""
    for state in positions(31, games=2, every=3):
        ds = decisions(state)
        era_fits = state.era_number == FLIGHT if last_era else state.era_number < 8
        if state.phase != OVER and era_fits and ds and ds[0].kind == TURN \
                and state.stage == MAIN and not state.acted and state.turn_actions \
                and len(legal_actions(state, ds[0].seat)) > 2:
            return state, ds[0].seat
    raise AssertionError("no turn decision found")


def test_rollout_horizons():
    """"turn" plays until this seat's next turn, after every rival has had one; "own"
    stops as soon as this seat's turn is over."""
    state, seat = _turn_position()
    for horizon, stop_seat in (("own", None), ("turn", seat)):
        s = determinise(view(state, seat), random.Random(1))
        end = search.Rollout(seat, random.Random(2), horizon=horizon).run(s)
        if end.phase == OVER or end.era_number != state.era_number:
            continue  # the era or the game ended on the way: no turn to stop at
        assert end.stage == MAIN and not end.acted
        if stop_seat is None:
            assert end.turn != seat
        else:
            assert end.turn == seat


def test_hard_leaves_move_steps_to_the_planner():
    assert search.BUDGET_SHARE[MOVING] == 0.0
    for state in positions(41, games=2, every=2):
        ds = decisions(state)
        if ds and ds[0].kind == MOVING:
            v = view(state, ds[0].seat)
            search.LAST_STATS.clear()
            a = choose_action(v, "hard", 3)
            assert not search.LAST_STATS  # no rollouts were played
            assert a == choose_action(v, "hard", 3)
            return
    raise AssertionError("no move step found")


def test_the_choice_of_action_is_searched_only_in_the_last_era():
    """Before the last era the planner's choice of action stands (no rollouts; the same
    action as the planner's); in the last era, whose rollouts run to the end of the game,
    it is searched."""
    state, seat = _turn_position()
    v = view(state, seat)
    search.LAST_STATS.clear()
    a = choose_action(v, "hard", 4)
    assert not search.LAST_STATS
    rng = random.Random("tempus-ai/hard/4")  # as the search draws its sample and policy
    root = determinise(v, rng)
    assert a == PlannerPlayer(random.Random(rng.random())).act(root, seat)
    state, seat = _turn_position(last_era=True)
    search.LAST_STATS.clear()
    choose_action(view(state, seat), "hard", 4)
    assert search.LAST_STATS["kind"] == TURN and search.LAST_STATS["rollouts"] > 0


def test_the_rollout_cap_binds_before_the_clock():
    """With the default cap and budget the search of a turn decision stops on the cap,
    so it is the same search on any machine (given a core for under 0.9 s)."""
    state, seat = _turn_position(last_era=True)
    v = view(state, seat)
    search.LAST_STATS.clear()
    a = search.search_action(v, 5, budget_s=60.0)
    stats = dict(search.LAST_STATS)
    if stats:  # more than one candidate
        assert stats["rollouts"] >= search.ROLLOUTS
        assert search.search_action(v, 5, budget_s=60.0) == a


def test_a_tournament_shared_out_between_processes_is_summarised_as_one():
    """Progress lines of two processes: one game per seed, a game played twice must have
    ended the same way, shared wins split (R-END-3)."""
    import dataclasses
    import json

    import pytest

    from engine.ai.tournament import GameResult, merge_progress, summarise

    def line(seed: int, winners: list[int], slots=(0, 1, 2, 3)) -> str:
        r = GameResult(seed, list(slots), winners, [20, 18, 18, 17],
                       {s: [0.5] for s in range(4)}, {s: [0.1] for s in range(4)}, 100)
        return json.dumps(dataclasses.asdict(r))

    results, twice = merge_progress([line(1, [0]), line(2, [1, 0]), line(1, [0]), ""])
    assert [r.seed for r in results] == [1, 2] and twice == 1
    out = summarise(["hard", "normal", "normal", "normal"], results, 1)
    assert out["games"] == 2 and out["game_seeds"] == [1, 2]
    assert out["win_share_per_level"]["hard"] == 0.75  # one win and one shared win
    assert out["think_cpu_time"]["hard"]["decisions"] == 2
    with pytest.raises(ValueError, match="ended differently"):
        merge_progress([line(1, [0]), line(1, [2])])


def test_a_set_of_cards_is_the_same_choice_in_any_order():
    """The rules list a set of cards in hand order, the players sorted: the search must
    not take the planner's best set of attack cards for an illegal one and play its
    second choice (it did, and committed no cards to its attacks)."""
    from engine import actions as A
    from engine.game import ATTACK_CARDS

    ranked = [(5.0, A.CommitAttackCards((36, 39))), (1.0, A.CommitAttackCards(()))]
    legal = [A.CommitAttackCards(s) for s in ((), (39,), (36,), (39, 36))]
    assert search._candidates(ranked, ATTACK_CARDS, legal)[0][1] == A.CommitAttackCards(
        (36, 39))
    assert search.same_choice(A.Discard((6, 2))) == search.same_choice(A.Discard((2, 6)))
    assert search.same_choice(A.Discard((6,))) != search.same_choice(
        A.CommitAttackCards((6,)))


def test_hard_without_its_search_is_the_planner(monkeypatch):
    """With no decision searched, ``hard`` plays every decision of a game as the planner
    would on the same sample of the view, card sets included."""
    from engine.game import ATTACK_CARDS, DEFEND_CARDS, NAME_CITY_TERRAIN, PROGRESS_CARDS

    monkeypatch.setattr(search, "SEARCH_FROM_ERA_BY_KIND", {TURN: FLIGHT + 1})
    monkeypatch.setattr(search, "WIDTH", {**search.WIDTH, **dict.fromkeys(
        (ATTACK_CARDS, DEFEND_CARDS, PROGRESS_CARDS, NAME_CITY_TERRAIN), 1)})
    state, _ = new_game(4, 701, random_map=True)
    step, card_sets = 0, 0
    while decisions(state):
        for d in decisions(state):
            v = view(state, d.seat)
            if d.seat == 0:
                hard = choose_action(v, "hard", seed=step, budget_s=100.0)
                rng = random.Random(f"tempus-ai/hard/{step}")
                root = determinise(v, rng)
                legal = legal_actions(root, 0)
                mine = legal[0] if len(legal) == 1 else PlannerPlayer(
                    random.Random(rng.random())).act(root, 0)
                assert hard == mine, (d.kind, hard, mine)
                card_sets += len(getattr(mine, "cards", ())) > 1
                action = mine
            else:
                action = choose_action(v, "normal", seed=step)
            apply_in_place(state, d.seat, action)
            step += 1
    assert card_sets > 0  # the game had decisions where the order could differ
