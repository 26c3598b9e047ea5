"""While the map is laid and the starting tokens placed, the board posted with the turn
message outlines where the tile (its centre) or the token may go (R-SETUP-4, R-SETUP-5)."""

from __future__ import annotations

import pytest

from engine import actions as A
from engine.legal import legal_actions
from engine.setup import new_game
from games.tempus import panels
from tests.bot.table.test_table import _close, _service, _three
from tests.games.tempus.test_panels import SEATS


def test_the_tile_panel_outlines_every_possible_centre() -> None:
    state, _ = new_game(3, 5, random_map=False)
    assert state.phase == "tiles"
    centres = {a.centre for a in legal_actions(state, state.turn) if isinstance(a, A.PlaceTile)}
    assert set(panels.public_panel(state, SEATS[:3]).highlight) == centres


@pytest.mark.asyncio
async def test_the_posted_token_board_outlines_the_legal_hexes() -> None:
    svc, sink = await _service()
    try:
        g = await _three(svc)  # a random map: the starting tokens come first
        await svc.idle()
        table = await svc.tables.get(g)
        state = table.state
        assert state is not None and state.phase == "tokens"
        (seat,) = set(table.since)
        hexes = {a.hex for a in legal_actions(state, seat) if isinstance(a, A.PlaceStartToken)}
        last = sink.outcomes[-1]
        assert last.panel is not None and set(last.panel.highlight) == hexes
        assert set(last.highlight) == hexes, "the posted board outlines them"
    finally:
        await _close(svc)
