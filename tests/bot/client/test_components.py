"""Panels become valid discord.py components whose ids the persistent items recognise."""

from __future__ import annotations

import pytest

from bot.client.components import TempusButton, TempusSelect, make_view
from bot.store import SeatRow
from bot.tempus import panels
from bot.tempus.codec import ComponentId, decode_action, encode_action, parse_component_id
from engine.game import decisions
from engine.legal import legal_actions
from tests.bot.helpers import random_states

SEATS = [SeatRow(i, 100 + i, None, f"P{i}") for i in range(5)]


def test_actions_round_trip_through_text() -> None:
    n = 0
    for state in random_states(4, 4, every=5):
        for d in decisions(state):
            for a in legal_actions(state, d.seat)[:40]:
                text = encode_action(a)
                assert len(text) <= 100
                assert decode_action(text) == a
                n += 1
    assert n > 500


@pytest.mark.parametrize("bad", ["", "nope", "move_token:C4", "move_token:Z99:C4",
                                 "occupy:x", "attack:C4:C5"])
def test_bad_action_text_is_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        decode_action(bad)


def test_component_ids_parse_back_and_match_the_templates() -> None:
    b = ComponentId(123, 45, "act", "move_token:C4:C5")
    s = ComponentId(123, 45, "menu", "dest", 2)
    assert parse_component_id(b.render()) == b
    assert parse_component_id(s.render()) == s
    assert TempusButton.__discord_ui_compiled_template__.fullmatch(b.render())
    assert not TempusButton.__discord_ui_compiled_template__.fullmatch(s.render())
    assert TempusSelect.__discord_ui_compiled_template__.fullmatch(s.render())
    with pytest.raises(ValueError):
        ComponentId(1, 1, "act", "x" * 100).render()


@pytest.mark.asyncio
async def test_views_serialise_for_every_public_panel() -> None:
    for state in random_states(8, 3, every=4):
        panel = panels.public_panel(state, SEATS[:3])
        view = make_view(panel, 99, 7)
        if view is None:
            continue
        rows = view.to_components()
        assert 1 <= len(rows) <= 5
        for row in rows:
            for comp in row["components"]:
                cid = parse_component_id(comp["custom_id"])
                assert cid is not None and cid.game == 99 and cid.version == 7
