"""``Evaluator.after`` builds exactly the snapshot a fresh ``Evaluator.snapshot`` would
(every sum of floats to the last bit): the computer players use it instead of a fresh
pass after a token moves, grows or a fight is won, and their decisions depend on those
last bits wherever two choices tie (test_ai_decisions_unchanged.py)."""

import random

from engine.ai.evaluate import Evaluator, Snapshot
from engine.ai.normal import NormalPlayer
from engine.content import CONTENT
from engine.game import apply_in_place, decisions
from engine.hexgrid import NUM_HEXES
from engine.setup import new_game
from engine.state import State

FIELDS = ("base", "hv", "hs", "fs", "presence", "prog", "grass", "grass_room", "ready",
          "frontier", "fgrass", "protected", "extra", "att_bonus")


def positions(seed: int, every: int = 25):
    """Positions of a game of four ``normal`` players, every ``every`` decisions."""
    state, _ = new_game(4, seed, random_map=True)
    player = NormalPlayer(random.Random(seed))
    step = 0
    while decisions(state):
        for d in decisions(state):
            apply_in_place(state, d.seat, player.act(state, d.seat))
            step += 1
            if step % every == 0 and state.phase != "over":
                yield state.copy()


def random_change(state: State, rng: random.Random) -> tuple[tuple[int, ...], tuple]:
    """Change the owners and counts of one to three land hexes the way moves, growth,
    fights and conversions do (tokens of a seat leave one hex, tokens of some seat
    arrive on another, a hex is emptied), plus a supply; returns the hexes and their
    earlier (owner, count)."""
    land = [h for h in range(NUM_HEXES)
            if state.terrain[h] is not None and state.city_owner[h] < 0]
    hexes = tuple(rng.sample(land, rng.choice((1, 2, 2, 3))))
    before = tuple((state.owner[h], state.count[h]) for h in hexes)
    for h in hexes:
        kind = rng.random()
        if kind < 0.3 or state.owner[h] < 0 and kind < 0.6:
            state.owner[h] = rng.randrange(state.num_players)
            state.count[h] = rng.randint(1, 4)
        elif kind < 0.6:
            state.count[h] += 1
        else:
            state.count[h] -= 1 if state.count[h] > 1 else state.count[h]
            if state.count[h] == 0:
                state.owner[h] = -1
    state.players[rng.randrange(state.num_players)].supply += rng.choice((-1, 0, 1))
    return hexes, before


def fields(snap: Snapshot) -> dict:
    out = {f: getattr(snap, f) for f in FIELDS}
    # a stack size whose count went down to 0 may stay as a 0 (it counts as absent)
    out["ready"] = [{c: k for c, k in r.items() if k} for r in snap.ready]
    return out


def same(a: Snapshot, b: Snapshot) -> bool:
    return fields(a) == fields(b)


def test_after_is_the_fresh_snapshot_to_the_last_bit():
    rng = random.Random(7)
    checked = flips = 0
    for seed in (1, 2):
        for root in positions(seed):
            ev = Evaluator(root)
            snap = ev.snapshot(root)
            for _ in range(12):
                state = root.copy()
                hexes, before = random_change(state, rng)
                fresh = ev.snapshot(state)
                built = ev.after(state, snap, hexes, before)
                assert same(built, fresh), (seed, hexes, before)
                assert ev.values(state, built) == ev.values(state)
                checked += 1
                flips += built.protected != snap.protected
    assert checked > 200
    assert flips > 0  # the protection of R-COMBAT-2 changed in some of them
    assert CONTENT.protected_max_hexes >= 1
