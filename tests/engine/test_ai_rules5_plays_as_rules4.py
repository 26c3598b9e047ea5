"""Rules 5 (R-INFO-4) changes no computer player's decision.

Under rules 5 a Move or Growth that no card could extend no longer ends by itself while
the hand holds cards; every level ends it at once (:mod:`engine.ai.spent_steps`), which is
what rules 4 did for it. So a traced game played under rules 5, with those ends made but
not counted, is the rules-4 game decision by decision: the same fingerprint as recorded
under rules 4 (``data/ai-decisions-rules4.json``, recorded before rules 5 existed), hints
and the search's statistics included.
"""

import json
from pathlib import Path

import pytest

from tests.engine.decision_trace import GAMES, trace

RULES4 = json.loads((Path(__file__).parent / "data" / "ai-decisions-rules4.json")
                    .read_text(encoding="utf-8"))
#: every level, table size and map kind once (the slower traces of the same code stay in
#: test_ai_decisions_unchanged.py)
CHOSEN = ("normal3", "normal5", "normal4-placed-map", "planner-normal3", "hard-normal3",
          "normal3-hints")


@pytest.mark.parametrize("game", [g for g in GAMES if g.name in CHOSEN],
                         ids=lambda g: g.name)
def test_r_info_4_rules_5_plays_the_rules_4_game(game) -> None:  # type: ignore[no-untyped-def]
    assert trace(game, rules_version=5, skip_spent=True) == RULES4[game.name]
