"""The computer players decide exactly as they did before they were made faster.

``tests/engine/data/ai-decisions.json`` holds fingerprints of whole games (every
decision of every seat, hints and the search's statistics; see
:mod:`tests.engine.decision_trace`) recorded before the speed-ups of ``normal`` and the
planner (caches per position, precomputed tables, in-place trials). Any change of a
single decision anywhere in a game changes its fingerprint. If a deliberate change of
play is ever made, re-record with ``python -m tests.engine.decision_trace >
tests/engine/data/ai-decisions.json`` and say why in the commit.
"""

import json
from pathlib import Path

import pytest

from tests.engine.decision_trace import GAMES, trace

FIXTURE = Path(__file__).parent / "data" / "ai-decisions.json"
RECORDED = json.loads(FIXTURE.read_text(encoding="utf-8"))


def test_every_traced_game_has_a_fingerprint():
    assert sorted(RECORDED) == sorted(g.name for g in GAMES)


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_same_decisions_as_recorded(game):
    assert trace(game) == RECORDED[game.name]
