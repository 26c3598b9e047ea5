"""Colours of every image, chosen to survive colour-blindness and greyscale.

Terrain fills step in lightness (farmland lightest, forest darkest) and each terrain also
has its own pattern (see :mod:`render.terrain_art`), so the map reads without colour.
Player colours are the Okabe-Ito colour-blind-safe set; every piece also carries the
player's letter.
"""

from __future__ import annotations

from engine.content import CONTENT

RGB = tuple[int, int, int]

#: Terrain fill colours, by terrain letter (``None`` is not a key: see SEA/LAKE).
TERRAIN_FILL: dict[str, RGB] = {
    "F": (243, 222, 143),  # farmland: wheat, lightest
    "G": (169, 213, 127),  # grassland: light green
    "M": (184, 179, 173),  # mountains: stone grey
    "H": (205, 160, 104),  # hills: tan
    "W": (92, 150, 88),  # forest: dark green, darkest
}
#: Pattern ink per terrain: a darker shade of the fill.
TERRAIN_INK: dict[str, RGB] = {
    "F": (190, 150, 60),
    "G": (78, 140, 52),
    "M": (78, 72, 68),
    "H": (128, 84, 40),
    "W": (30, 78, 38),
}
SEA: RGB = (62, 124, 186)
SEA_INK: RGB = (150, 192, 230)
SEA_GRID: RGB = (94, 148, 204)
LAKE: RGB = (150, 214, 222)
LAKE_INK: RGB = (56, 150, 166)
LAND_GRID: RGB = (60, 56, 48)
COAST: RGB = (28, 32, 40)
FRAME: RGB = (24, 40, 62)

#: Okabe-Ito colours for the engine's colour names (data/tempus/game.json).
PLAYER_RGB: dict[str, RGB] = {
    "Red": (213, 94, 0),
    "Blue": (0, 114, 178),
    "Yellow": (240, 228, 66),
    "Green": (0, 158, 115),
    "Purple": (204, 121, 167),
}
_FALLBACK: tuple[RGB, ...] = ((230, 159, 0), (86, 180, 233), (120, 120, 120))

# Panel and card chrome.
PANEL_BG: RGB = (246, 241, 230)
PANEL_INK: RGB = (34, 34, 38)
PANEL_MUTED: RGB = (112, 106, 98)
PANEL_RULE: RGB = (206, 196, 178)
PANEL_ACCENT: RGB = (255, 244, 200)
WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)
OUTLINE: RGB = (22, 22, 26)
ATTACK: RGB = (232, 32, 48)
HIGHLIGHT: RGB = (255, 255, 255)


def player_rgb(seat: int) -> RGB:
    name = CONTENT.colours[seat] if seat < len(CONTENT.colours) else ""
    return PLAYER_RGB.get(name, _FALLBACK[seat % len(_FALLBACK)])


def _luminance(c: RGB) -> float:
    def lin(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(v) for v in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_on(c: RGB) -> RGB:
    """Black or white, whichever contrasts more with background ``c`` (WCAG ratio)."""
    lum = _luminance(c)
    return BLACK if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else WHITE


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved a fraction ``t`` towards ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def key_colours() -> tuple[RGB, ...]:
    """Flat colours that must survive palette quantisation exactly."""
    players = [player_rgb(s) for s in range(len(CONTENT.colours))]
    shades = [mix(c, BLACK, 0.35) for c in players]
    return (
        *players, *shades, *TERRAIN_FILL.values(), *TERRAIN_INK.values(), SEA, SEA_INK,
        LAKE, LAKE_INK, FRAME, COAST, OUTLINE, WHITE, BLACK, ATTACK, PANEL_BG, PANEL_INK,
        PANEL_MUTED, PANEL_RULE, PANEL_ACCENT,
    )
