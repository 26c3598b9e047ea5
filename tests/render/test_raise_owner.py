"""R-CARD-SAN (revised, rules 2): a Sanitation raise is only the card player's, so the
board draws its plate in that player's colour with their letter and the description
names them; under rules 1 the raise belonged to the hex (a neutral plate, no name)."""

from __future__ import annotations

import pytest

from engine import view
from engine.actions import PlaySanitation
from engine.rules import LEGACY_RULES_VERSION, RULES_VERSION
from engine.state import State
from render import palette as P
from render.alt_text import describe_position
from render.board import board_image, board_layout_of
from render.geometry import K, hex_centre
from tests.engine.helpers import H, card, make_state, play

SAN = card("SAN", "H")


def _raised(rules_version: int) -> State:
    """Blue (seat 1) raises the empty hex F6 next to its stack on F5; Red is on E5."""
    s = make_state(tokens={"E5": (0, 2), "F5": (1, 2)}, hands={1: [SAN]}, turn=1,
                   rules_version=rules_version)
    s, _ = play(s, 1, PlaySanitation(SAN, H("F6")))
    assert s.bonus[H("F6")] == 1
    return s


def _plate_pixels(state: State, rgb: P.RGB) -> int:
    """Pixels of colour ``rgb`` in the box of the plate on F6."""
    v = view(state, None)
    img = board_image(v)
    sx, sy = board_layout_of(v).shift
    cx, cy = hex_centre(H("F6"))
    x, y = cx + 16 * K + sx, cy + 18 * K + sy
    box = img.crop((round(x - 14 * K), round(y - 7 * K), round(x + 14 * K), round(y + 7 * K)))
    return sum(1 for p in box.getdata() if max(abs(a - b) for a, b in zip(p, rgb)) <= 12)


def test_r_card_san_plate_in_the_raisers_colour() -> None:
    blue = P.player_rgb(1)
    new = _raised(RULES_VERSION)
    assert new.bonus_seat[H("F6")] == 1
    assert _plate_pixels(new, blue) > 60  # a Blue plate
    assert _plate_pixels(_raised(LEGACY_RULES_VERSION), blue) < 5  # the neutral plate
    assert _plate_pixels(_raised(LEGACY_RULES_VERSION), P.WHITE) > 60


@pytest.mark.parametrize(("lang", "raised", "neutral"), [
    ("en", "F6 grassland: Blue's stack limit +1.", "F6 grassland: stack limit +1."),
    ("pl", "F6 (łąka): Niebieski: limit stosu +1.", "F6 (łąka): limit stosu +1."),
])
def test_r_card_san_description_names_whose_limit_rose(lang: str, raised: str,
                                                         neutral: str) -> None:
    new = describe_position(view(_raised(RULES_VERSION), None), lang)
    old = describe_position(view(_raised(LEGACY_RULES_VERSION), None), lang)
    assert any(raised in line for line in new), new
    assert any(neutral in line for line in old), old
    assert not any(neutral in line for line in new)
