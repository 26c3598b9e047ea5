"""Every picture of a private menu carries a description (alt text) built from
the view it is drawn from: the map detail of the attack and move menus (what stands where,
the targets outlined), the tile preview, the asker's own hand."""

from __future__ import annotations

import asyncio

import pytest

from bot.client.app import panel_file
from bot.runtime.worker_pool import Offloader
from engine import actions as A
from engine import game as G
from engine.content import CONTENT
from engine.game import apply
from engine.hexgrid import label
from engine.legal import legal_actions
from engine.state import State
from games import registry
from games.tempus import panels
from lang.i18n import using
from render.words import card_type_name
from tests.bot.positions import by_kind
from tests.engine.helpers import H, card, make_state

MAX_ALT = 1024


def _described(panel: panels.Panel, lang: str = "en") -> str:
    async def go() -> str:
        off = Offloader(0)
        try:
            f = await panel_file(off, panel, lang, registry.game().media)
        finally:
            off.close()
        assert f is not None and f.filename == f"{panel.image}.png"
        assert f.description, "a private picture without a description"
        return f.description

    text = asyncio.run(go())
    assert len(text) <= MAX_ALT and "{" not in text
    return text


def _fight() -> State:
    """Red (3 tokens on E5, holding two cards) next to Blue's 1 token on F5."""
    far = {"K2": (1, 1), "K4": (1, 1), "K6": (1, 1), "K8": (1, 1)}
    return make_state(tokens={"E5": (0, 3), "F5": (1, 1), **far},
                      hands={0: [card("WEA", "F"), card("EDU", "W")]})


def _names_no_card(text: str, lang: str) -> None:
    for kind in CONTENT.card_types:
        assert card_type_name(kind, lang).lower() not in text.lower(), kind


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_attack_menu_picture_says_the_source_and_the_targets(lang: str) -> None:
    state = _fight()
    with using(lang):
        panel = panels.menu(state, 0, "attack")
    assert panel.image == "crop"
    text = _described(panel, lang)
    targets = [label(a.dst) for a in legal_actions(state, 0)
               if isinstance(a, A.Attack) and a.leader is None]
    assert targets == ["F5"]
    assert text.index("E5") < text.index("F5")  # the stack that attacks, then the target
    assert ("Outlined targets (1)" if lang == "en" else "Obrysowane cele (1)") in text
    assert ("Blue, 1 token" if lang == "en" else "Niebieski, 1 pion") in text
    _names_no_card(text, lang)  # R-INFO-1: built from the public view


def test_move_menu_picture_lists_every_destination() -> None:
    state, _ = apply(_fight(), 0, A.BeginMove())
    panel = panels.menu(state, 0, "dest:E5")
    text = _described(panel)
    dsts = {label(a.dst) for a in legal_actions(state, 0)
            if isinstance(a, A.MoveToken) and a.src == H("E5")}
    assert dsts and all(d in text for d in dsts)
    assert f"Outlined targets ({len(dsts)})" in text


def test_tile_preview_and_hand_pictures_are_described() -> None:
    state, seat = by_kind()[G.PLACE_TILE]
    place = next(a for a in legal_actions(state, seat) if isinstance(a, A.PlaceTile))
    panel = panels.menu(state, seat, f"tile:{label(place.centre)}:{place.rotation}")
    assert panel.image == "board" and panel.highlight
    text = _described(panel)
    assert text.startswith("Preview:") and all(label(h) in text for h in panel.highlight)
    hand = panels.menu(_fight(), 0, "hand")
    assert hand.image == "hand"
    mine = _described(hand)
    assert mine.startswith("Red's hand, 2 of") and card_type_name("WEA", "en") in mine
