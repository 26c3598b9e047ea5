"""A position's worth to a seat, fitted to how self-play games of the planner ended.

The search (:mod:`.search`) scores the end of a rollout that stops before the game's end.
The static evaluation (:class:`.evaluate.Evaluator`) was tuned to rank the result of one
action, not a position a round later; this value was fitted to the question the search
asks of such a position: how far ahead of the best rival will this seat finish, and will
it win? For each era it is a linear function of the evaluation's terms
(:meth:`.evaluate.Evaluator.terms`, this seat's minus its rivals' mean), of the
evaluation's worth against the best and the mean rival, and of the victory points now,
fitted by least squares (a small ridge) to ``clip(score - best rival's, ±CLIP) + WIN x
(share of the win)`` at the start of each of the planner's turns in games of the planner
against three ``normal`` players (:func:`.tune.leaf_positions`).

The numbers are data, ``data/ai/leaf.json``, written by
``python -m engine.ai tune --fit-leaf FILE --games N --seed S``. Like the evaluation it
reads only public facts (the board, supplies, eras, hand sizes), so it gives the same
answer on every determinisation of a view.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..progress import all_victory_points
from ..state import OVER, State
from .evaluate import Evaluator

#: the evaluation's terms (:meth:`Evaluator.terms`) the value reads, seat minus rivals' mean
TERMS = ("board", "cities", "threat", "growth", "city_ready", "frontier", "cards",
         "actions_left", "supply", "progress_race")
#: every feature, in the order of a model's coefficients (the constant last)
FEATURES = (*TERMS, "worth_best", "worth_mean", "vp_best", "vp_mean", "markers", "const")
#: the target: the margin over the best rival, clipped, plus this many points for a win
CLIP = 10.0
WIN = 3.0
#: ridge penalty (on every coefficient but the constant), against collinear features
RIDGE = 3.0
LEAF_FILE = Path(__file__).resolve().parents[2] / "data" / "ai" / "leaf.json"


def _position(state: State, ev: Evaluator
              ) -> tuple[list[float], list[dict[str, float]], list[int]]:
    """Every seat's worth, evaluation terms and victory points in ``state``."""
    snap = ev.snapshot(state)
    worth = ev.finish(state, snap)  # one pass over the board for every seat's terms
    terms = [ev.terms(state, s, (snap, worth)) for s in range(state.num_players)]
    return worth, terms, all_victory_points(state)


def features(ev: Evaluator, state: State, seat: int) -> tuple[float, ...]:
    """``seat``'s features in ``state``, a game in progress (:data:`FEATURES`, the
    constant 1.0 last)."""
    worth, terms, vp = _position(state, ev)
    rivals = [s for s in range(state.num_players) if s != seat]
    out = [terms[seat][k] - sum(terms[s][k] for s in rivals) / len(rivals) for k in TERMS]
    out.append(worth[seat] - max(worth[s] for s in rivals))
    out.append(worth[seat] - sum(worth[s] for s in rivals) / len(rivals))
    out.append(vp[seat] - max(vp[s] for s in rivals))
    out.append(vp[seat] - sum(vp[s] for s in rivals) / len(rivals))
    out.append(float(state.players[seat].markers))
    out.append(1.0)
    return tuple(out)


def target(margin: float, win: float) -> float:
    """What the value predicts, from a finished game: ``margin`` over the best rival and
    ``win``, this seat's share of the win (0 when it lost)."""
    return max(-CLIP, min(CLIP, margin)) + WIN * win


@dataclass(frozen=True)
class LeafValue:
    """Coefficients per era number (:data:`FEATURES` order)."""

    eras: dict[int, tuple[float, ...]]
    about: str = ""

    def value(self, ev: Evaluator, state: State, seat: int) -> float | None:
        """The fitted worth of ``state`` to ``seat``, or None when there is no model for its
        era or the game is over (the score itself is the worth then)."""
        coef = self.eras.get(state.era_number)
        if coef is None or state.phase == OVER:
            return None
        return sum(c * x for c, x in zip(coef, features(ev, state, seat), strict=True))

    def contributions(self, ev: Evaluator, state: State, seat: int) -> dict[str, float] | None:
        """:meth:`value` split by what it weighs, so that a hint can say why in the same
        numbers (without the constant, the parts add up to the value): each evaluation
        term's share (its own coefficient on this seat's lead over the rivals' mean in
        that term, plus the coefficients of the worth's leads over the best and the mean
        rival, which are sums of the terms), the victory points' lead as ``rivals`` (the
        lead over the rivals) and the markers left as ``actions_left``. None when
        :meth:`value` is None."""
        coef = self.eras.get(state.era_number)
        if coef is None or state.phase == OVER:
            return None
        c = dict(zip(FEATURES, coef, strict=True))
        worth, terms, vp = _position(state, ev)
        rivals = [s for s in range(state.num_players) if s != seat]
        best = max(rivals, key=lambda s: worth[s])  # the first of the best, as max() finds
        out: dict[str, float] = {}
        for k in terms[seat]:
            if k == "rivals":
                continue  # not part of a seat's worth (Evaluator.terms)
            lead_mean = terms[seat][k] - sum(terms[s][k] for s in rivals) / len(rivals)
            lead_best = terms[seat][k] - terms[best][k]
            out[k] = (c.get(k, 0.0) * lead_mean + c["worth_best"] * lead_best
                      + c["worth_mean"] * lead_mean)
        out["rivals"] = (c["vp_best"] * (vp[seat] - max(vp[s] for s in rivals))
                         + c["vp_mean"] * (vp[seat] - sum(vp[s] for s in rivals) / len(rivals)))
        out["actions_left"] = out.get("actions_left", 0.0) + c["markers"] * float(
            state.players[seat].markers)
        return out

    def to_json(self) -> dict[str, object]:
        return {"about": self.about, "features": list(FEATURES),
                "eras": {str(e): [round(c, 5) for c in coef]
                         for e, coef in sorted(self.eras.items())}}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> LeafValue:
        if data.get("features") != list(FEATURES):
            raise ValueError("leaf value file: its features are not this code's "
                             f"{', '.join(FEATURES)}; fit it again")
        eras = data.get("eras")
        if not isinstance(eras, dict):
            raise ValueError("leaf value file: no eras")
        return cls({int(e): tuple(float(c) for c in coef) for e, coef in eras.items()},
                   str(data.get("about", "")))


def load_leaf_value(path: Path = LEAF_FILE) -> LeafValue | None:
    """The shipped value, or None without the file (the search then scores every leaf
    with the static evaluation)."""
    if not path.exists():
        return None
    return LeafValue.from_json(json.loads(path.read_text(encoding="utf-8")))


def fit(rows: Sequence[tuple[int, Sequence[float], float]], ridge: float = RIDGE,
        about: str = "") -> LeafValue:
    """Least squares per era over ``(era, features, target)`` rows, with ``ridge`` added
    to the diagonal of every coefficient but the constant."""
    by_era: dict[int, list[tuple[Sequence[float], float]]] = {}
    for era, x, y in rows:
        by_era.setdefault(era, []).append((x, y))
    eras = {}
    for era, data in sorted(by_era.items()):
        k = len(FEATURES)
        a = [[0.0] * k for _ in range(k)]
        b = [0.0] * k
        for x, y in data:
            for i in range(k):
                xi = x[i]
                if xi == 0.0:
                    continue
                row = a[i]
                for j in range(k):
                    row[j] += xi * x[j]
                b[i] += xi * y
        for i in range(k - 1):
            a[i][i] += ridge
        eras[era] = tuple(_solve(a, b))
    return LeafValue(eras, about)


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting (``a`` symmetric positive
    definite here, but a feature that never varies in an era leaves a zero row: its
    coefficient is then 0)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[piv][col]) < 1e-12:
            continue
        m[col], m[piv] = m[piv], m[col]
        for r in range(n):
            if r != col and m[r][col] != 0.0:
                f = m[r][col] / m[col][col]
                m[r] = [vr - f * vc for vr, vc in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] if abs(m[i][i]) >= 1e-12 else 0.0 for i in range(n)]
