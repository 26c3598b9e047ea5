"""The score chart: every player's era-track position and victory points across the eras.

Drawn with Pillow from a list of **public views** (the start of era 1, then the end of
each era; see :func:`engine.timeline.era_ends`). Only public numbers are read (each
player's era cube and victory points), never a hand. Players have the board's colours
and letters: cubes on the era-track plot, discs on the points plot, and the lines have a
dark edge so yellow reads on the light background.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from engine.content import CONTENT

from . import palette as P
from .encode import to_png
from .fonts import draw_text, fit, text_width
from .sprites import chip, cube, terrain_swatch
from .words import DEFAULT_LANG, colour_name, era_name

WIDTH, HEIGHT = 1000, 760
SS = 2  # lines are drawn at twice the size and reduced, for smooth edges
LEFT, RIGHT = 190, 40
TITLE_Y = 14
ERA_TOP, ERA_BOTTOM = 78, 340
VP_TOP, VP_BOTTOM = 400, 600
AXIS_Y = 616
LEGEND_Y = 660
LEGEND_ROW = 30
SPREAD = 15  # pixels between markers of players at the same point


@dataclass(frozen=True)
class ChartText:
    """The chart's words (English by default; the bot passes its catalogue's)."""

    title: str = ""
    era_track: str = "Era track"
    points: str = "Victory points"
    axis: str = "End of era"
    start: str = "start"
    vp: str = "VP"
    #: the language of the era and colour names (render.words)
    lang: str = DEFAULT_LANG


def _series(views: Sequence[dict[str, Any]]) -> tuple[list[list[int]], list[list[int]]]:
    """Per seat: the era cube position and the victory points at each view."""
    n = len(views[0]["players"])
    eras = [[int(v["players"][s]["era"]) for v in views] for s in range(n)]
    vps = [[int(v["players"][s]["victory_points"]) for v in views] for s in range(n)]
    return eras, vps


def _spread(values: list[list[int]], i: int) -> dict[int, float]:
    """Horizontal offsets at point ``i`` so that players at the same value sit side by
    side instead of on top of each other."""
    groups: dict[int, list[int]] = {}
    for s, row in enumerate(values):
        groups.setdefault(row[i], []).append(s)
    out: dict[int, float] = {}
    for seats in groups.values():
        for k, s in enumerate(seats):
            out[s] = (k - (len(seats) - 1) / 2) * SPREAD
    return out


def _vp_scale(vps: list[list[int]]) -> tuple[int, int]:
    """The top of the points axis and the step between its grid lines."""
    top = max(5, max(max(row) for row in vps))
    step = 1 if top <= 8 else 2 if top <= 16 else 5 if top <= 40 else 10
    return math.ceil(top / step) * step, step


def render_chart(views: Sequence[dict[str, Any]], names: Sequence[str] | None = None,
                 text: ChartText | None = None) -> bytes:
    """PNG of the chart. ``views``: public views, the first at the start of era 1, then
    one at the end of each era. ``names``: the people (or computers) in each seat."""
    if not views:
        raise ValueError("the chart needs at least one position")
    text = text or ChartText()
    n = len(views[0]["players"])
    names = list(names or [])
    eras, vps = _series(views)
    points = len(views)
    edge = 2.5 * SPREAD + 12  # room for five markers side by side at the first/last point
    x0, x1 = LEFT + edge, WIDTH - RIGHT - edge
    step_x = (x1 - x0) / max(1, points - 1)

    def x_at(i: int) -> float:
        return x0 + i * step_x if points > 1 else (x0 + x1) / 2

    last_era = len(CONTENT.eras) - 1

    def y_era(e: int) -> float:
        return ERA_BOTTOM - (ERA_BOTTOM - ERA_TOP) * e / last_era

    vp_top, vp_step = _vp_scale(vps)

    def y_vp(vp: int) -> float:
        return VP_BOTTOM - (VP_BOTTOM - VP_TOP) * vp / vp_top

    img = Image.new("RGB", (WIDTH * SS, HEIGHT * SS), P.PANEL_BG)
    d = ImageDraw.Draw(img)

    def line(pts: list[tuple[float, float]], fill: P.RGB, width: float) -> None:
        d.line([(x * SS, y * SS) for x, y in pts], fill=fill, width=round(width * SS),
               joint="curve")

    # grid
    for e in range(last_era + 1):
        if e % 2 == 0:
            y = y_era(e)
            h = (ERA_BOTTOM - ERA_TOP) / last_era / 2
            d.rectangle([LEFT * SS, (y - h) * SS, (WIDTH - RIGHT) * SS, (y + h) * SS],
                        fill=P.mix(P.PANEL_BG, P.BLACK, 0.035))
    for vp in range(0, vp_top + 1, vp_step):
        line([(LEFT, y_vp(vp)), (WIDTH - RIGHT, y_vp(vp))], P.PANEL_RULE, 1)
    for i in range(points):
        line([(x_at(i), ERA_TOP - 10), (x_at(i), ERA_BOTTOM + 10)], P.PANEL_RULE, 1)
        line([(x_at(i), VP_TOP - 10), (x_at(i), VP_BOTTOM)], P.PANEL_RULE, 1)
    line([(LEFT, VP_BOTTOM), (WIDTH - RIGHT, VP_BOTTOM)], P.PANEL_MUTED, 1.5)

    # lines: a dark edge under the player colour
    offsets_era = [_spread(eras, i) for i in range(points)]
    offsets_vp = [_spread(vps, i) for i in range(points)]
    era_pts = [[(x_at(i) + offsets_era[i][s], y_era(eras[s][i])) for i in range(points)]
               for s in range(n)]
    vp_pts = [[(x_at(i) + offsets_vp[i][s], y_vp(vps[s][i])) for i in range(points)]
              for s in range(n)]
    for s in reversed(range(n)):
        for pts in (era_pts[s], vp_pts[s]):
            if len(pts) > 1:
                line(pts, P.OUTLINE, 5)
                line(pts, P.player_rgb(s), 3)
    img = img.reduce(SS)

    # markers: the board's era cubes and player discs
    for s in reversed(range(n)):
        for x, y in era_pts[s]:
            cube(s, 14.0).paste_on(img, x, y)
        for x, y in vp_pts[s]:
            chip(s, 8.5).paste_on(img, x, y)

    # words
    draw_text(img, (LEFT, TITLE_Y), text.title, 22, P.PANEL_INK, bold=True)
    draw_text(img, (LEFT, ERA_TOP - 32), text.era_track.upper(), 12, P.PANEL_MUTED, bold=True)
    draw_text(img, (LEFT, VP_TOP - 30), text.points.upper(), 12, P.PANEL_MUTED, bold=True)
    for e, era in enumerate(CONTENT.eras):
        y = y_era(e)
        terrain_swatch(era.terrain, 7.0).paste_on(img, LEFT - 14, y)
        draw_text(img, (LEFT - 28, y), fit(era_name(e, text.lang), 12, LEFT - 40), 12, P.PANEL_INK,
                  anchor="rm")
    for vp in range(0, vp_top + 1, vp_step):
        draw_text(img, (LEFT - 10, y_vp(vp)), str(vp), 12, P.PANEL_INK, anchor="rm")
    for i in range(points):
        label = text.start if i == 0 else str(i)
        draw_text(img, (x_at(i), AXIS_Y), label, 12, P.PANEL_INK, anchor="mt")
    draw_text(img, ((x0 + x1) / 2, AXIS_Y + 20), text.axis, 12, P.PANEL_MUTED, anchor="mt")

    # legend: disc, colour, name, final points
    col_w = (WIDTH - LEFT - RIGHT) / min(n, 3)
    for s in range(n):
        row, col = divmod(s, 3)
        x = LEFT + col * col_w
        y = LEGEND_Y + row * LEGEND_ROW
        chip(s, 10.0).paste_on(img, x + 10, y)
        colour = colour_name(s, text.lang)
        who = f"{colour} \u00b7 {names[s]}" if s < len(names) else colour
        # the points always show: a long name gives way, never the score
        score = f"  {vps[s][-1]} {text.vp}"
        room = col_w - 40 - text_width(score, 14)
        label = fit(who, 14, room) + score
        draw_text(img, (x + 28, y), label, 14, P.PANEL_INK, anchor="lm")
    rows = (n + 2) // 3
    img = img.crop((0, 0, WIDTH, LEGEND_Y + rows * LEGEND_ROW))
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, img.size[0] - 1, img.size[1] - 1], outline=P.PANEL_RULE)
    return to_png(img.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE),
                  compress_level=6)
