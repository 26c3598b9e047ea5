"""The hard player's planner keeps the cards that decide Flight (R-ERA-4, R-PROG-3)."""

from __future__ import annotations

import random

from engine.ai.normal import NormalPlayer
from engine.ai.planner import FINAL_TERRAIN, FLIGHT_CARD_BONUS, KEEP_FOR_FLIGHT_FROM, PlannerPlayer
from engine.game import DISCARDING, decision_for
from engine.state import DISCARD
from tests.engine.helpers import card, make_state

OTHER = next(t for t in "GFW" if t != FINAL_TERRAIN)


def _discard_position(era_number: int):
    """Red must discard one of six cards: a Government card on the final era's terrain
    (the card ``normal`` values least) or a Transport card on another terrain."""
    keep, spare = card("GOV", FINAL_TERRAIN), card("TRA", OTHER)
    state = make_state(3, tokens={"C3": (0, 2), "H8": (1, 2), "K3": (2, 2)},
                       hands={0: [keep, spare, card("LEA", OTHER), card("WEA", OTHER),
                                  card("FOR", OTHER), card("HEA", OTHER)]})
    state.era_number = era_number
    state.stage, state.discards = DISCARD, {0: 1}  # after an Idea action (R-DRAW-2)
    assert decision_for(state, 0).kind == DISCARDING
    return state, keep, spare


def test_planner_keeps_the_card_that_scores_in_the_last_progress_phase():
    """R-PROG-3 + R-ERA-4: late in the game a card with the final era's background is
    worth a progress point in the phase that decides Flight, so the planner discards the
    Transport card, where ``normal`` throws the Government card away."""
    state, keep, spare = _discard_position(KEEP_FOR_FLIGHT_FROM + 1)
    assert NormalPlayer(random.Random(1)).act(state, 0).cards == (keep,)
    assert PlannerPlayer(random.Random(1)).act(state, 0).cards == (spare,)


def test_planner_values_education_and_final_terrain_cards_only_late():
    """R-CARD-EDU, R-PROG-3: a card gains FLIGHT_CARD_BONUS per point it would score in
    the last progress phase (Education on the final terrain: two), from
    KEEP_FOR_FLIGHT_FROM on and not before; other cards are valued as ``normal`` does."""
    state, keep, spare = _discard_position(KEEP_FOR_FLIGHT_FROM)
    planner, normal = PlannerPlayer(random.Random(1)), NormalPlayer(random.Random(1))
    cases = {keep: 1, spare: 0, card("EDU", OTHER): 1, card("EDU", FINAL_TERRAIN): 2}
    for era, bonus in ((KEEP_FOR_FLIGHT_FROM, FLIGHT_CARD_BONUS),
                       (KEEP_FOR_FLIGHT_FROM - 1, 0.0)):
        state.era_number = era
        ev = planner.evaluator(state)
        for c, points in cases.items():
            extra = planner.card_worth(state, 0, ev, c) - normal.card_worth(state, 0, ev, c)
            assert abs(extra - bonus * points) < 1e-9, (era, c)
