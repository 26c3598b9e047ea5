"""The ``normal`` computer player: one-step lookahead over whole actions.

For each decision it lists the candidate choices, scores each by the position it leads
to (:class:`~engine.ai.evaluate.Evaluator`, relative to the rivals) and picks the best.
Multi-step actions are planned greedily: a Move is scored by moving tokens one at a
time to the best hex until no further move helps; a Growth likewise. Attacks are scored
by their chance of winning against the defender's possible cards; secret card choices
(attack, defence, progress) play the cheapest set of cards that is worth its chance.

It reads only what the seat may know (own hand, public board and counts), so running
it on any determinisation of a view gives the same answer.

:meth:`NormalPlayer.ranked` returns all scored candidates, which the search player
(:mod:`engine.ai.search`) uses as its prior and candidate list.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection
from dataclasses import dataclass, field

from .. import actions as A
from ..combat import attack_targets, leader_cards, max_occupy
from ..content import CONTENT, TERRAINS
from ..game import DecisionKind as K
from ..game import decision_for
from ..hexgrid import NEIGHBOURS, NUM_HEXES, distance, neighbour
from ..legal import legal_actions
from ..movement import Reach, destinations
from ..progress import new_era_index
from ..setup import TILE_CELLS, legal_tile_centres, start_token_hexes
from ..state import State
from ..turn import city_sites, grow_hexes, religion_targets, sanitation_at_occupy
from .evaluate import DEFAULT_WEIGHTS, Evaluator, Snapshot, Weights, progress_prize
from .spent_steps import end_of_spent_step
from .tactics import (
    CARDS,
    beat_chance,
    contribution,
    contributions,
    ordered_useful,
    progress_contribution,
    sample_sums,
    unseen_for,
)

Scored = list[tuple[float, A.Action]]

#: how much a hex of each terrain is worth when choosing where to start (R-SETUP-5)
SITE_TERRAIN = {"G": 1.0, "F": 0.7, "H": 0.5, "W": 0.45, "M": 0.1}
CARD_TYPE_EXTRA = {"LEA": 0.3, "REL": 0.25, "FOR": 0.15, "WEA": 0.15, "HEA": 0.05,
                   "TRA": 0.0, "SAN": 0.0, "EDU": -0.05, "GOV": -0.1}


@dataclass(frozen=True, slots=True)
class Tactics:
    """The numbers ``normal``'s choices use besides the position's evaluation."""

    #: what a card of each type is worth on top of an ordinary card
    card_type_extra: dict[str, float] = field(default_factory=lambda: dict(CARD_TYPE_EXTRA))
    #: extra worth of a card whose background is the next era's terrain (R-PROG-3)
    next_terrain_card: float = 0.1
    #: Idea (R-DRAW): worth of each card drawn beyond its keep (a choice of cards to keep)
    draw_choice: float = 0.05
    #: per token a city takes beyond its value (R-CITY: keep big cities for big stacks)
    city_waste: float = 0.35
    #: starting sites (R-SETUP-5): weight of the neighbours' terrain
    site_neighbour: float = 0.5
    #: starting sites: cost of a rival's hex at distance 2, 3 and 4
    site_rival: tuple[float, float, float] = (1.2, 0.5, 0.15)
    #: starting sites: cost of a second start token on a hex already chosen
    site_stack: float = 2.0


DEFAULT_TACTICS = Tactics()


class NormalPlayer:
    """Heuristic player; ``samples`` sets how many random hands card estimates use."""

    def __init__(self, rng: random.Random, weights: Weights = DEFAULT_WEIGHTS,
                 samples: int = 32, move_width: int = 8,
                 tactics: Tactics = DEFAULT_TACTICS) -> None:
        self.rng = rng
        self.w = weights
        self.t = tactics
        self.samples = samples
        self.move_width = move_width
        self._ev: Evaluator | None = None
        #: fight outcomes scored in the current decision (see :meth:`_win_state`)
        self._fight_memo: dict[tuple[int, int, int], float] = {}
        #: the snapshot of the position the current decision is made in: its worth,
        #: its moves, its growth and its fights are all scored from it
        self._root_snap: Snapshot | None = None
        #: the cards the seat has not seen, in the current decision
        self._pool: list[int] | None = None
        #: next step of the greedy Move / Growth plans scored at the start of the turn,
        #: by position; :meth:`act` replays them instead of re-scoring every step
        self._planned: dict[tuple, A.Action] = {}
        self._handlers: dict[str, Callable[[State, int], Scored]] = {
            K.PLACE_TILE: self._place_tile,
            K.PLACE_START_TOKEN: self._start_token,
            K.TURN: self._turn,
            K.MOVING: self._moving,
            K.GROWING: self._growing,
            K.NAME_CITY_TERRAIN: self._city_terrain,
            K.ATTACK_CARDS: self._attack_cards,
            K.DEFEND_CARDS: self._defend_cards,
            K.OCCUPY: self._occupy,
            K.DISCARDING: self._discard,
            K.PROGRESS_CARDS: self._progress_cards,
        }

    # ------------------------------------------------------------------ entry points
    def act(self, state: State, seat: int) -> A.Action:
        spent = end_of_spent_step(state, seat)
        if spent is not None:
            return spent
        if state.stage in ("move", "grow") and state.steps_left > 0 and state.turn == seat:
            planned = self._planned.get(self._board_key(state, seat))
            if planned is not None and self._still_legal(state, seat, planned):
                return planned
        ranked = self.ranked(state, seat)
        return ranked[0][1]

    @staticmethod
    def _still_legal(state: State, seat: int, action: A.Action) -> bool:
        """Cheap re-check of a remembered step (the plan may be from another position
        that merely looks the same)."""
        if isinstance(action, A.MoveToken):
            return (state.stage == "move" and state.owner[action.src] == seat
                    and state.count[action.src] - state.touched.get(action.src, 0) > 0
                    and action.dst in destinations(state, seat, action.src))
        if isinstance(action, A.GrowToken):
            return state.stage == "grow" and action.hex in grow_hexes(state, seat)
        return False

    @staticmethod
    def _board_key(state: State, seat: int) -> tuple:
        return (seat, state.stage, tuple(state.owner), tuple(state.count), tuple(state.bonus),
                tuple(state.bonus_seat), tuple(sorted(state.touched.items())))

    def ranked(self, state: State, seat: int) -> Scored:
        """Scored legal candidates, best first (never empty while ``seat`` must act)."""
        d = decision_for(state, seat)
        if d is None:
            raise ValueError(f"seat {seat} has no decision to make")
        self._fight_memo.clear()  # fights are scored anew for each decision
        self._root_snap = None
        self._pool = None
        out = self._handlers[d.kind](state, seat)
        if not out:  # cannot happen for a well-formed state; stay safe
            out = [(0.0, a) for a in legal_actions(state, seat)]
        out.sort(key=lambda x: -x[0])
        return out

    # ------------------------------------------------------------------ helpers
    def evaluator(self, state: State) -> Evaluator:
        """One evaluator per player, refreshed when the era or the map changes (its
        constants cost as much as a few evaluations to build)."""
        ev = self._ev
        if ev is None:
            ev = self._ev = Evaluator(state, self.w)
        else:
            ev.check(state)
        return ev

    def card_worth(self, state: State, seat: int, ev: Evaluator, card: int) -> float:
        info = CARDS[card]
        w = ev.card + self.t.card_type_extra.get(info.type, 0.0)
        if info.terrain == ev.next_terrain:
            w += self.t.next_terrain_card
        if info.type == "REL" and state.players[seat].supply <= 0:
            w -= 0.2
        return max(0.05, w)

    def worths(self, state: State, seat: int, ev: Evaluator) -> dict[int, float]:
        return {c: self.card_worth(state, seat, ev, c) for c in state.players[seat].hand}

    # ------------------------------------------------------------------ setup
    def _place_tile(self, state: State, seat: int) -> Scored:
        terrain = state.terrain
        first = all(t is None for t in terrain)
        tile = CONTENT.tile(state.tile_stack[0])
        centre_mid = (CONTENT.rows // 2) * CONTENT.columns + CONTENT.columns // 2
        out: Scored = []
        for h in legal_tile_centres(terrain):
            cells = TILE_CELLS[h]
            assert cells is not None
            cellset = set(cells)
            if first:
                touch = -distance(h, centre_mid)
            else:
                touch = sum(1 for x in cells for n in NEIGHBOURS[x]
                            if n not in cellset and terrain[n] is not None)
            for r in range(6):
                # ring entry i lands in direction (i + r) % 6 around the centre
                score = float(touch)
                for i, ter in enumerate(tile.ring):
                    x = neighbour(h, (i + r) % 6)
                    if x is None:
                        continue
                    for n in NEIGHBOURS[x]:
                        if n not in cellset and terrain[n] == ter == "G":
                            score += 0.3
                score += self.rng.random() * 0.2
                out.append((score, A.PlaceTile(h, r)))
        return out

    def _site_score(self, state: State, seat: int, h: int) -> float:
        terrain = state.terrain
        ter = terrain[h]
        assert ter is not None
        s = SITE_TERRAIN[ter] * 1.5
        for n in NEIGHBOURS[h]:
            t = terrain[n]
            if t is None:
                continue
            free = state.owner[n] < 0
            s += self.t.site_neighbour * SITE_TERRAIN[t] * (1.0 if free else 0.2)
            for m in NEIGHBOURS[n]:
                tm = terrain[m]
                if tm is not None and m != h:
                    s += 0.06 * SITE_TERRAIN[tm]
        for x in range(NUM_HEXES):
            o = state.owner[x]
            if o >= 0 and o != seat:
                dd = distance(h, x)
                if dd <= 4:
                    s -= self.t.site_rival[max(dd, 2) - 2]
        return s

    def _start_token(self, state: State, seat: int) -> Scored:
        placed = state.start_hexes
        out: Scored = []
        for h in start_token_hexes(state, seat):
            s = self._site_score(state, seat, h)
            if h in placed:
                s -= self.t.site_stack  # three hexes beat a stack: more points and growth spots
            s += self.rng.random() * 0.05
            out.append((s, A.PlaceStartToken(h)))
        return out

    # ------------------------------------------------------------------ the turn
    def _turn(self, state: State, seat: int) -> Scored:
        self._planned.clear()  # plans are for this turn only
        ev = self.evaluator(state)
        root = self._root_snapshot(state, ev)
        base = ev.rel(ev.values(state, root), seat)
        worth = self.worths(state, seat, ev)
        out: Scored = []
        main_gain = 0.0
        if state.turn_actions > 0:
            era = state.era(seat)
            p = state.players[seat]
            # Idea (R-DRAW): cards up to the hand limit are worth their keep
            k = len(p.hand)
            draw_v = base + ev.hand_value(k + era.draw, era.limit) - ev.hand_value(k, era.limit)
            draw_v += self.t.draw_choice * era.draw  # a choice of cards to keep is worth a little
            out.append((draw_v, A.DrawCards()))
            grow_v, grow_steps = self._grow_plan(state, seat, ev, era.growth, root)
            if grow_v is not None:
                out.append((grow_v, A.BeginGrow()))
                self._remember_grow(state, seat, grow_steps)
            move_v, move_steps = self._move_plan(state, seat, ev, era.move, root, base)
            if move_v is not None:
                self._remember_moves(state, seat, move_steps)
            out.append((move_v if move_v is not None else base - 0.01, A.BeginMove()))
            for h, v in city_sites(state, seat):
                out.append((self._city_value(state, seat, ev, h, v), A.BuildCity(h, v)))
            for src, dst in attack_targets(state, seat):
                val, _ = self._attack_value(state, seat, ev, src, dst, worth, None)
                out.append((val, A.Attack(src, dst)))
            main_gain = max(v for v, _ in out) - base
        else:
            out.append((base, A.EndTurn()))
        after = base + main_gain  # where the turn ends up without free plays
        # Leader (R-CARD-LEA): a free attack, taken when worth more than the card
        leaders = leader_cards(state, seat)
        if leaders:
            card = min(leaders, key=lambda c: worth[c])
            for src, dst in attack_targets(state, seat):
                val, _ = self._attack_value(state, seat, ev, src, dst, worth, card)
                out.append((after + (val - base) - worth[card], A.Attack(src, dst, card)))
        # Religion (R-CARD-REL)
        rels = [c for c in state.players[seat].hand if CARDS[c].type == "REL"]
        if rels:
            card = min(rels, key=lambda c: worth[c])
            for t, own in religion_targets(state, seat):
                gain = self._religion_gain(state, seat, ev, t, own, base)
                out.append((after + gain - worth[card], A.PlayReligion(card, t, own)))
        # Sanitation (R-CARD-SAN) to grow on a full grassland hex
        if state.turn_actions > 0:
            sans = [c for c in state.players[seat].hand if CARDS[c].type == "SAN"]
            if sans:
                card = min(sans, key=lambda c: worth[c])
                best = self._sanitation_for_growth(state, seat, ev)
                if best is not None:
                    san_hex, san_worth = best
                    out.append((max(after, san_worth) - worth[card] + 0.01,
                                A.PlaySanitation(card, san_hex)))
        return out

    def _religion_gain(self, state: State, seat: int, ev: Evaluator, t: int, own: int,
                       base: float) -> float:
        s = state.copy()
        victim = s.owner[t]
        before = ((victim, s.count[t]), (s.owner[own], s.count[own]))
        s.count[t] -= 1
        if s.count[t] == 0:
            s.owner[t] = -1
        s.players[victim].supply += 1
        s.count[own] += 1
        s.players[seat].supply -= 1
        # the converted position's snapshot, exactly as a fresh pass would build it
        snap = ev.after(s, self._root_snapshot(state, ev), (t, own), before)
        return ev.rel(ev.values(s, snap), seat) - base

    def _sanitation_for_growth(self, state: State, seat: int,
                               ev: Evaluator) -> tuple[int, float] | None:
        """A full own grassland hex whose extra room makes Growth worth more."""
        if state.players[seat].supply <= 0:
            return None
        era = state.era(seat)
        if len(grow_hexes(state, seat)) >= era.growth:
            return None
        best: tuple[int, float] | None = None
        for h in range(NUM_HEXES):
            if state.owner[h] == seat and state.terrain[h] == "G" and (
                    state.count[h] >= state.stack_limit(seat, h)):
                saved = state.bonus[h], state.bonus_seat[h]
                state.bonus[h] = state.raise_for(seat, h) + 1  # as Sanitation would
                state.bonus_seat[h] = seat
                v = self._grow_plan(state, seat, ev, era.growth)[0]
                state.bonus[h], state.bonus_seat[h] = saved
                if v is not None and (best is None or v > best[1]):
                    best = (h, v)
        return best

    def _city_value(self, state: State, seat: int, ev: Evaluator, h: int, v: int) -> float:
        s = state.copy()
        n = s.count[h]
        s.count[h] = 0
        s.owner[h] = -1
        s.bonus[h] = 0
        s.bonus_seat[h] = -1
        s.players[seat].supply += n
        s.players[seat].cities.remove(v)
        s.city_owner[h] = seat
        s.city_value[h] = v
        val = ev.relative(s, seat)
        # keep the big cities for big stacks: a value below the tokens spent wastes some
        return val - self.t.city_waste * (n - v)

    # ------------------------------------------------------------------ move / grow plans
    def _best_move(self, state: State, seat: int, ev: Evaluator, touched: dict[int, int],
                   snap: Snapshot | None = None) -> tuple[float, int, int] | None:
        """The single best token move from the current position (value, src, dst)."""
        moves = self._scored_moves(state, seat, ev, touched, snap)
        return max(moves) if moves else None

    def _scored_moves(self, state: State, seat: int, ev: Evaluator, touched: dict[int, int],
                      snap: Snapshot | None = None) -> list[tuple[float, int, int]]:
        """Every considered token move with the worth of the position it leads to
        (``snap``, if given, is the position's snapshot).

        Destinations are pre-sorted by a cheap guess and only the best
        ``self.move_width`` per source are scored in full (sea travel offers dozens)."""
        out: list[tuple[float, int, int]] = []
        owner, count = state.owner, state.count
        if snap is None:
            snap = ev.snapshot(state)
        width = self.move_width
        reach = Reach(state, seat)
        # a destination's guess does not depend on the source: one per hex and call
        guesses: dict[int, float] = {}

        def minus_guess(d: int) -> float:
            g = guesses.get(d)
            if g is None:
                g = guesses[d] = -self._guess(state, ev, seat, d)
            return g

        for src in range(NUM_HEXES):
            if owner[src] != seat or count[src] - touched.get(src, 0) <= 0:
                continue
            dsts: Collection[int] = reach.destinations(src)
            if len(dsts) > width:
                dsts = sorted(dsts, key=minus_guess)[:width]
            for dst in dsts:
                before = ((seat, count[src]), (owner[dst], count[dst]))
                count[src] -= 1
                if count[src] == 0:
                    owner[src] = -1
                owner[dst] = seat
                count[dst] += 1
                v = ev.rel(ev.changed(state, snap, (src, dst), before), seat)
                owner[src], count[src] = before[0]
                owner[dst], count[dst] = before[1]
                out.append((v, src, dst))
        return out

    @staticmethod
    def _guess(state: State, ev: Evaluator, seat: int, dst: int) -> float:
        """A cheap first guess of how good a destination is (for pruning only)."""
        g = 0.3 * ev.is_next[dst] + 0.25 * ev.is_grass[dst]
        if state.owner[dst] < 0:
            g += ev.hexval[dst]
        for x in NEIGHBOURS[dst]:
            o = state.owner[x]
            if o >= 0 and o != seat:
                g -= 0.2 * state.count[x]
        return g

    def _move_plan(self, state: State, seat: int, ev: Evaluator, steps: int,
                   snap: Snapshot | None = None, cur: float | None = None
                   ) -> tuple[float | None, list[tuple[int, int]]]:
        """Greedy: move the best token while a move improves the position (``snap`` and
        ``cur``, if given, are the position's snapshot and relative worth)."""
        s = state.copy()
        touched: dict[int, int] = dict(state.touched) if state.stage == "move" else {}
        if cur is None:
            cur = ev.relative(s, seat)
        if snap is None:
            snap = ev.snapshot(s)
        plan: list[tuple[int, int]] = []
        #: the hexes the last step changed and their (owner, count) before it
        last: tuple[tuple[int, ...], tuple[tuple[int, int], ...]] | None = None
        for _ in range(steps):
            if last is not None:  # the position after the last step, from the one before
                snap = ev.after(s, snap, *last)
            best = self._best_move(s, seat, ev, touched, snap)
            if best is None or best[0] <= cur + 1e-6:
                break
            cur, src, dst = best
            last = (src, dst), ((seat, s.count[src]), (s.owner[dst], s.count[dst]))
            s.count[src] -= 1
            if s.count[src] == 0:
                s.owner[src] = -1
            s.owner[dst] = seat
            s.count[dst] += 1
            touched[dst] = touched.get(dst, 0) + 1
            plan.append((src, dst))
        return (cur if plan else None), plan

    def _remember_moves(self, state: State, seat: int, steps: list[tuple[int, int]]) -> None:
        s = state.copy()
        s.stage = "move"
        s.touched = {}
        for src, dst in steps:
            self._planned[self._board_key(s, seat)] = A.MoveToken(src, dst)
            s.count[src] -= 1
            if s.count[src] == 0:
                s.owner[src] = -1
            s.owner[dst] = seat
            s.count[dst] += 1
            s.touched[dst] = s.touched.get(dst, 0) + 1

    def _remember_grow(self, state: State, seat: int, steps: list[int]) -> None:
        s = state.copy()
        s.stage = "grow"
        s.touched = {}
        for h in steps:
            self._planned[self._board_key(s, seat)] = A.GrowToken(h)
            s.count[h] += 1
            s.owner[h] = seat
            s.touched[h] = 1

    def _grow_values(self, state: State, seat: int, ev: Evaluator,
                     snap: Snapshot | None = None) -> list[tuple[float, int]]:
        """(relative worth, hex) of growing one token on each hex where one may grow
        (``snap``, if given, is the position's snapshot)."""
        if snap is None:
            snap = ev.snapshot(state)
        out = []
        p = state.players[seat]
        for h in grow_hexes(state, seat):
            before = ((seat, state.count[h]),)
            state.count[h] += 1
            p.supply -= 1
            out.append((ev.rel(ev.changed(state, snap, (h,), before), seat), h))
            state.count[h] -= 1
            p.supply += 1
        return out

    def _grow_plan(self, state: State, seat: int, ev: Evaluator, steps: int,
                   snap: Snapshot | None = None) -> tuple[float | None, list[int]]:
        """Greedy: grow on the best hex, step by step (``snap``, if given, is the
        position's snapshot)."""
        s = state.copy()
        if state.stage != "grow":
            s.touched = {}
        plan: list[int] = []
        cur = 0.0
        if snap is None:
            snap = ev.snapshot(s)
        #: the hex the last step changed and its (owner, count) before it
        last: tuple[tuple[int, ...], tuple[tuple[int, int], ...]] | None = None
        for _ in range(steps):
            if last is not None:  # the position after the last step, from the one before
                snap = ev.after(s, snap, *last)
            options = self._grow_values(s, seat, ev, snap)
            if not options:
                break
            cur, h = max(options)
            last = (h,), ((seat, s.count[h]),)
            s.count[h] += 1
            s.players[seat].supply -= 1
            s.touched[h] = 1
            plan.append(h)
        return (cur if plan else None), plan

    def _moving(self, state: State, seat: int) -> Scored:
        ev = self.evaluator(state)
        root = self._root_snapshot(state, ev)
        base = ev.rel(ev.values(state, root), seat)
        out: Scored = [(base, A.EndMove())]
        if state.steps_left > 0:
            moves = sorted(self._scored_moves(state, seat, ev, state.touched, root),
                           reverse=True)
            out += [(v, A.MoveToken(src, dst)) for v, src, dst in moves[:8]]
        worth = self.worths(state, seat, ev)
        tras = [c for c in state.players[seat].hand if CARDS[c].type == "TRA"]
        if tras and state.steps_left <= 0:
            card = min(tras, key=lambda c: worth[c])
            best = self._best_move(state, seat, ev, state.touched, root)
            if best is not None:
                out.append((best[0] - worth[card], A.PlayTransport(card)))
        rels = [c for c in state.players[seat].hand if CARDS[c].type == "REL"]
        if rels:
            card = min(rels, key=lambda c: worth[c])
            for t, own in religion_targets(state, seat):
                gain = self._religion_gain(state, seat, ev, t, own, base)
                out.append((base + gain - worth[card] + 0.02, A.PlayReligion(card, t, own)))
        return out

    def _growing(self, state: State, seat: int) -> Scored:
        ev = self.evaluator(state)
        root = self._root_snapshot(state, ev)
        base = ev.rel(ev.values(state, root), seat)
        out: Scored = [(base - 0.001, A.EndGrow())]
        if state.steps_left > 0:
            out += [(v, A.GrowToken(h)) for v, h in self._grow_values(state, seat, ev, root)]
        worth = self.worths(state, seat, ev)
        heas = [c for c in state.players[seat].hand if CARDS[c].type == "HEA"]
        if heas and state.steps_left <= 0 and grow_hexes(state, seat):
            card = min(heas, key=lambda c: worth[c])
            v = self._grow_plan(state, seat, ev, 1, root)[0]
            if v is not None:
                out.append((v - worth[card], A.PlayHealthCare(card)))
        sans = [c for c in state.players[seat].hand if CARDS[c].type == "SAN"]
        if sans and state.steps_left > 0 and not grow_hexes(state, seat):
            card = min(sans, key=lambda c: worth[c])
            best = self._sanitation_for_growth(state, seat, ev)
            if best is not None:
                out.append((best[1] - worth[card], A.PlaySanitation(card, best[0])))
        return out

    # ------------------------------------------------------------------ combat
    def _win_state(self, state: State, seat: int, ev: Evaluator, src: int,
                   dst: int) -> float:
        """Worth after winning the attack from ``src`` on ``dst`` and moving in the best
        number of tokens (R-COMBAT-8). A stack's hex is re-scored around the two hexes
        only (:meth:`Evaluator.changed`); the answer is kept for the decision."""
        key = (0, src, dst)
        memo = self._fight_memo
        if key in memo:
            return memo[key]
        if state.city_owner[dst] >= 0:
            memo[key] = v = self._win_state_full(state, seat, ev, src, dst)
            return v
        snap = self._root_snapshot(state, ev)
        owner, count = state.owner, state.count
        d, cd, a0 = owner[dst], count[dst], count[src]
        before = ((seat, a0), (d, cd))
        state.players[d].supply += cd
        owner[dst], count[dst] = -1, 0
        best = ev.rel(ev.changed(state, snap, (src, dst), before), seat)
        most = min(a0, state.stack_limit(seat, dst))
        for k in range(1, most + 1):
            count[src] = a0 - k
            owner[src] = seat if a0 > k else -1
            count[dst], owner[dst] = k, seat
            best = max(best, ev.rel(ev.changed(state, snap, (src, dst), before), seat))
        owner[src], count[src] = seat, a0
        owner[dst], count[dst] = d, cd
        state.players[d].supply -= cd
        memo[key] = best
        return best

    def _win_state_full(self, state: State, seat: int, ev: Evaluator, src: int,
                        dst: int) -> float:
        s = state.copy()
        d = s.owner[dst] if s.owner[dst] >= 0 else s.city_owner[dst]
        if s.city_owner[dst] >= 0:
            s.players[d].cities.append(s.city_value[dst])
            s.city_owner[dst] = -1
            s.city_value[dst] = 0
        else:
            s.players[d].supply += s.count[dst]
            s.count[dst] = 0
            s.owner[dst] = -1
        snap = ev.snapshot(s)
        best = ev.rel(ev.values(s, snap), seat)
        most = min(s.count[src], s.stack_limit(seat, dst))
        for _ in range(most):
            before = ((seat, s.count[src]), (s.owner[dst], s.count[dst]))
            s.count[src] -= 1
            if s.count[src] == 0:
                s.owner[src] = -1
            s.count[dst] += 1
            s.owner[dst] = seat
            # one token more moved in: the same snapshot a fresh pass would build
            snap = ev.after(s, snap, (src, dst), before)
            best = max(best, ev.rel(ev.values(s, snap), seat))
        return best

    def _lose_state(self, state: State, seat: int, ev: Evaluator, src: int) -> float:
        """Worth after losing an attack from ``src`` (one token back to the supply)."""
        key = (1, src, src)
        memo = self._fight_memo
        if key in memo:
            return memo[key]
        snap = self._root_snapshot(state, ev)
        owner, count = state.owner, state.count
        a0 = count[src]
        count[src] = a0 - 1
        if a0 == 1:
            owner[src] = -1
        state.players[seat].supply += 1
        v = ev.rel(ev.changed(state, snap, (src,), ((seat, a0),)), seat)
        state.players[seat].supply -= 1
        owner[src], count[src] = seat, a0
        memo[key] = v
        return v

    def _root_snapshot(self, state: State, ev: Evaluator) -> Snapshot:
        """The snapshot of the position the current decision is made in (``state`` must
        be that position, unchanged)."""
        if self._root_snap is None:
            self._root_snap = ev.snapshot(state)
        return self._root_snap

    def _attack_value(self, state: State, seat: int, ev: Evaluator, src: int, dst: int,
                      worth: dict[int, float], leader: int | None
                      ) -> tuple[float, tuple[int, ...]]:
        """Expected worth of attacking ``dst`` from ``src`` and the cards to commit."""
        city = state.city_owner[dst] >= 0
        d = state.city_owner[dst] if city else state.owner[dst]
        terrain = None if city else state.terrain[dst]
        a0 = state.count[src]
        d0 = state.city_value[dst] if city else state.count[dst]
        hand = [c for c in state.players[seat].hand if c != leader]
        return self._attack_choice(state, seat, ev, src, dst, d, terrain, a0, d0, hand, worth)

    def _attack_choice(self, state: State, seat: int, ev: Evaluator, src: int, dst: int,
                       d: int, terrain: str | None, a0: int, d0: int, hand: list[int],
                       worth: dict[int, float]) -> tuple[float, tuple[int, ...]]:
        options = self._attack_options(state, seat, ev, src, dst, d, terrain, a0, d0, hand,
                                       worth)
        return max(options, key=lambda x: x[0])

    def _attack_options(self, state: State, seat: int, ev: Evaluator, src: int, dst: int,
                        d: int, terrain: str | None, a0: int, d0: int, hand: list[int],
                        worth: dict[int, float]) -> list[tuple[float, tuple[int, ...]]]:
        """Expected worth of committing each prefix of the useful attack cards.

        The defender is assumed to add every helpful card of a random hand of its size
        (pessimistic: it may hold back)."""
        pool = self._unseen(state, seat)
        k = len(state.players[d].hand)
        dscore = contributions(terrain, True)
        dsamples = sample_sums(pool, k, dscore, self.rng, self.samples)
        ascore = contributions(terrain, False)
        useful = ordered_useful(hand, ascore, worth)
        v_win = self._win_state(state, seat, ev, src, dst)
        v_lose = self._lose_state(state, seat, ev, src)
        out = []
        strength = a0
        cost = 0.0
        for j in range(len(useful) + 1):
            if j:
                strength += ascore[useful[j - 1]]
                cost += worth[useful[j - 1]]
            p = beat_chance(strength, [d0 + x for x in dsamples], strictly=True)
            out.append((p * v_win + (1 - p) * v_lose - cost, tuple(sorted(useful[:j]))))
        return out

    def _unseen(self, state: State, seat: int) -> list[int]:
        """:func:`unseen_for` of the decision's position (every attack target asks)."""
        if self._pool is None:
            self._pool = unseen_for(state, seat)
        return self._pool

    def _attack_cards(self, state: State, seat: int) -> Scored:
        c = state.combat
        assert c is not None
        ev = self.evaluator(state)
        worth = self.worths(state, seat, ev)
        a0 = state.count[c.src]
        d0 = state.city_value[c.dst] if c.city else state.count[c.dst]
        hand = list(state.players[seat].hand)
        options = self._attack_options(state, seat, ev, c.src, c.dst, c.defender, c.terrain,
                                       a0, d0, hand, worth)
        return [(v, A.CommitAttackCards(cards)) for v, cards in options]

    def _defend_cards(self, state: State, seat: int) -> Scored:
        c = state.combat
        assert c is not None and c.attack_cards is not None
        ev = self.evaluator(state)
        worth = self.worths(state, seat, ev)
        hand = list(state.players[seat].hand)
        a0 = state.count[c.src]
        d0 = state.city_value[c.dst] if c.city else state.count[c.dst]
        k = len(c.attack_cards)  # public count; the cards themselves are face down
        pool = unseen_for(state, seat)
        ascore = contributions(c.terrain, False)
        likely = [x for x in pool if ascore[x] > 0] or pool
        asamples = [a0 + x for x in sample_sums(likely, k, ascore, self.rng, self.samples)]
        # what holding is worth: the attacker loses a token; losing costs the hex
        hold = state.copy()
        hold.count[c.src] -= 1
        if hold.count[c.src] == 0:
            hold.owner[c.src] = -1
        v_hold = ev.relative(hold, seat)
        lose = state.copy()
        if c.city:
            lose.city_owner[c.dst] = -1
            lose.city_value[c.dst] = 0
        else:
            lose.players[seat].supply += lose.count[c.dst]
            lose.count[c.dst] = 0
            lose.owner[c.dst] = -1
        v_lose = ev.relative(lose, seat)
        dscore = {x: contribution(x, c.terrain, True) for x in hand}
        useful = ordered_useful(hand, dscore, worth)
        out: Scored = []
        strength = d0
        cost = 0.0
        for j in range(len(useful) + 1):
            if j:
                strength += dscore[useful[j - 1]]
                cost += worth[useful[j - 1]]
            # ties go to the defender (R-COMBAT-7)
            p = sum(1 for a in asamples if strength >= a) / len(asamples)
            out.append((p * v_hold + (1 - p) * v_lose - cost,
                        A.DefendCards(tuple(sorted(useful[:j])))))
        return out

    def _city_terrain(self, state: State, seat: int) -> Scored:
        c = state.combat
        assert c is not None
        hand = state.players[seat].hand
        pool = unseen_for(state, seat)
        k = len(state.players[c.attacker].hand)
        out: Scored = []
        for t in TERRAINS:
            mine = sum(contribution(x, t, True) for x in hand)
            samples = sample_sums(pool, k, contributions(t, False), self.rng, 16, best_of=3)
            theirs = sum(samples) / len(samples)
            out.append((mine - theirs, A.NameCityTerrain(t)))
        return out

    def _occupy(self, state: State, seat: int) -> Scored:
        c = state.combat
        assert c is not None
        ev = self.evaluator(state)
        out: Scored = []
        s = state.copy()
        for n in range(max_occupy(state) + 1):
            if n:
                s.count[c.src] -= 1
                if s.count[c.src] == 0:
                    s.owner[c.src] = -1
                s.count[c.dst] += 1
                s.owner[c.dst] = seat
            out.append((ev.relative(s, seat), A.Occupy(n)))
        sans = [x for x in state.players[seat].hand if CARDS[x].type == "SAN"]
        if sans and sanitation_at_occupy(state) and s.count[c.src] > 0:
            # R-CARD-SAN / R-COMBAT-8: one more token may move in after a Sanitation
            worth = self.worths(state, seat, ev)
            card = min(sans, key=lambda x: worth[x])
            s.count[c.src] -= 1
            if s.count[c.src] == 0:
                s.owner[c.src] = -1
            s.count[c.dst] += 1
            s.owner[c.dst] = seat
            out.append((ev.relative(s, seat) - worth[card], A.PlaySanitation(card, c.dst)))
        return out

    # ------------------------------------------------------------------ cards
    def _discard(self, state: State, seat: int) -> Scored:
        ev = self.evaluator(state)
        worth = self.worths(state, seat, ev)
        owed = state.discards[seat]
        hand = sorted(state.players[seat].hand, key=lambda c: (worth[c], c))
        cheapest = tuple(sorted(hand[:owed]))
        out: Scored = [(0.0, A.Discard(cheapest))]
        if owed < len(hand):
            alt = tuple(sorted(hand[1:owed + 1]))
            out.append((-0.1, A.Discard(alt)))
        return out

    def _progress_cards(self, state: State, seat: int) -> Scored:
        """R-PROG-2/3: the cheapest set of cards worth its chance of winning the era."""
        ev = self.evaluator(state)
        worth = self.worths(state, seat, ev)
        new = new_era_index(state)
        terrain = CONTENT.eras[new].terrain
        prize = progress_prize(new)
        if CONTENT.eras[new].final:
            # the game ends after this phase: a kept card only counts in a tie (R-END-3)
            worth = {c: 0.05 for c in worth}
        n = state.num_players
        base = [0] * n
        for h in range(NUM_HEXES):
            o = state.owner[h]
            if o >= 0 and state.terrain[h] == terrain:
                base[o] += state.count[h]
            co = state.city_owner[h]
            if co >= 0:
                base[co] += CONTENT.city_progress
        pool = unseen_for(state, seat)
        pscore = {c: progress_contribution(c, terrain) for c in pool}
        submitted = [s for s in state.progress_choices if s != seat]
        hidden_played = len(pool) - len(state.deck) - sum(
            len(state.players[s].hand) for s in range(n) if s != seat)
        per_submitted = hidden_played / len(submitted) if submitted else 0.0
        samples = []
        rng = self.rng
        for _ in range(self.samples):
            best_other = 0
            for o in range(n):
                if o == seat:
                    continue
                if o in submitted:
                    k = int(per_submitted + rng.random())
                    add = sum(pscore[x] for x in rng.sample(pool, min(k, len(pool))))
                else:
                    k = len(state.players[o].hand)
                    cand = rng.sample(pool, min(k, len(pool)))
                    full = sum(pscore[x] for x in cand)
                    rivals = max(base[x] for x in range(n) if x != o)
                    add = full if base[o] + full >= rivals else 0
                best_other = max(best_other, base[o] + add)
            samples.append(best_other)
        hand = state.players[seat].hand
        mscore = {c: progress_contribution(c, terrain) for c in hand}
        useful = ordered_useful(hand, mscore, worth)
        out: Scored = []
        pts = base[seat]
        cost = 0.0
        for j in range(len(useful) + 1):
            if j:
                pts += mscore[useful[j - 1]]
                cost += worth[useful[j - 1]]
            p = beat_chance(pts, samples, strictly=False)  # ties advance too (R-PROG-5)
            out.append((p * prize - cost, A.ProgressCards(tuple(sorted(useful[:j])))))
        return out
