"""Panels become valid discord.py components whose ids the persistent items recognise."""

from __future__ import annotations

import contextlib
import json

import pytest

from bot.publish.components import Controls, component_rows, make_view
from bot.store import SeatRow
from engine.game import decisions
from engine.legal import legal_actions
from games.controls import Button, Option, Panel, Select
from games.custom_ids import ComponentId, parse_component_id
from games.tempus import panels
from games.tempus.codec import decode_action, encode_action
from games.tempus.panels import with_help
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


def test_component_ids_parse_back() -> None:
    b = ComponentId(123, 45, "act", "move_token:C4:C5")
    s = ComponentId(123, 45, "menu", "dest", 2)
    assert parse_component_id(b.render()) == b
    assert parse_component_id(s.render()) == s
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


def _panels() -> list[Panel]:
    """Public panels of random games, their private menus, and panels with every kind of
    control: empty labels and descriptions, long ones cut, each style."""
    out: list[Panel] = []
    for state in random_states(8, 3, every=4):
        out.append(with_help(panels.public_panel(state, SEATS[:3])))
        for d in decisions(state):
            for spec in ("hand", "cards", "attack", "city", "terrain"):
                with contextlib.suppress(Exception):  # specs that do not apply now
                    out.append(panels.menu(state, d.seat, spec, 99))
    long = "x" * 120
    out.append(Panel("t", rows=[
        (Button("", "help"), Button(long, "act", "a", "primary"),
         Button("ok", "join", "", "success"), Button("no", "cancel", "", "danger")),
        Select("", "menu", "dest", (Option(long, "v" * 120, long), Option("b", "2")),
               min_values=0, max_values=2),
        Select(long * 2, "cards", "k", (Option("a", "1", ""),))]))
    return out


def test_component_rows_are_the_payload_of_the_view() -> None:
    """The turn message's components as plain JSON are what discord.py makes of the same
    panel as a view, key for key (so what players see and click is unchanged)."""
    seen = 0
    for panel in _panels():
        view = make_view(panel, 99, 7)
        rows = component_rows(panel, 99, 7)
        assert (rows is None) == (view is None)
        if view is not None:
            assert json.dumps(rows) == json.dumps(view.to_components())
            seen += 1
    assert seen > 20
    assert component_rows(None, 1, 1) is None and component_rows(Panel("t"), 1, 1) is None


def test_component_rows_refuse_what_a_view_refuses() -> None:
    six = Panel("t", rows=[tuple(Button(str(i), "act", str(i)) for i in range(6))])
    rows = Panel("t", rows=[(Button("a", "act", "a"),)] * 6)
    for panel in (six, rows):
        with pytest.raises(ValueError):
            make_view(panel, 1, 1)
        with pytest.raises(ValueError):
            component_rows(panel, 1, 1)


def test_views_register_nothing_with_discord_py() -> None:
    """discord.py keeps a view (and its items, per message, for as long as the process
    runs) only if it is dispatchable: ours never are, their clicks go by id."""
    for panel in _panels():
        view = make_view(panel, 99, 7)
        if view is not None:
            assert isinstance(view, Controls) and not view.is_dispatchable()
            assert view.timeout is None
