"""The side panel of the board image: status, whose turn, era track, players.

:func:`draw_static` draws what never changes (headings, era names and terrains) once
per cached base layer; :func:`draw_dynamic` draws the rest from a public view. It uses
only public fields of the view (counts, never card ids), so a seat's own view gives the
same picture as the spectator view (R-INFO-1, R-INFO-2).
"""

from __future__ import annotations

import math
from typing import Any

from PIL import Image, ImageDraw

from engine.content import CONTENT
from engine.hexgrid import label

from . import palette as P
from .fonts import draw_text, fit, font, wrap
from .geometry import BOARD_H, PANEL_W, PANEL_X
from .sprites import chip, cube, stack_bonus, terrain_swatch
from .terrain_art import LAKE, OPEN_SEA

PAD = 14
X0 = PANEL_X + PAD
X1 = PANEL_X + PANEL_W - PAD

HEADER_Y = 10
TOACT_Y = 62
TOACT_H = 70
ERA_Y = TOACT_Y + TOACT_H + 10
ERA_ROW = 21
ERA_ROWS_Y = ERA_Y + 20
PLAYERS_Y = ERA_ROWS_Y + ERA_ROW * len(CONTENT.eras) + 10
PLAYER_COLS_Y = PLAYERS_Y + 18
PLAYER_ROWS_Y = PLAYER_COLS_Y + 16
PLAYER_ROW = 44
KEY_Y = PLAYER_ROWS_Y + 5 * PLAYER_ROW + 8
KEY_ROW = 22
FOOTER_Y = BOARD_H - 48

#: Player table columns: (heading, x of the column centre).
COLUMNS = (("Actions", X0 + 150), ("Cards", X0 + 196), ("Supply", X0 + 242),
           ("Cities", X0 + 288), ("VP", X0 + 334))
CUBES_X = X0 + 262

PHASES = {
    "tiles": "placing map tiles",
    "tokens": "placing starting tokens",
    "actions": "Actions",
    "progress": "Progress phase",
    "over": "Game over",
}


def _heading(d: ImageDraw.ImageDraw, y: int, text: str) -> None:
    d.text((X0, y), text, font=font(12, True), fill=P.PANEL_MUTED)
    w = font(12, True).getlength(text)
    d.line([(X0 + w + 8, y + 7), (X1, y + 7)], fill=P.PANEL_RULE, width=1)


def draw_static(img: Image.Image) -> None:
    """Background, title, headings and the era names with their terrains."""
    d = ImageDraw.Draw(img)
    d.rectangle([PANEL_X, 0, PANEL_X + PANEL_W, BOARD_H], fill=P.PANEL_BG)
    d.line([(PANEL_X, 0), (PANEL_X, BOARD_H)], fill=P.OUTLINE, width=2)
    d.text((X0, HEADER_Y), "TEMPUS", font=font(24, True), fill=P.PANEL_INK)
    _heading(d, ERA_Y, "ERA TRACK")
    for i, era in enumerate(CONTENT.eras):
        y = ERA_ROWS_Y + i * ERA_ROW
        if i % 2 == 0:
            stripe = P.mix(P.PANEL_BG, P.BLACK, 0.035)
            d.rectangle([X0 - 4, y, X1 + 4, y + ERA_ROW - 1], fill=stripe)
        cy = y + ERA_ROW / 2
        d.text((X0 + 12, cy), str(i) if i else "", font=font(11), fill=P.PANEL_MUTED, anchor="mm")
        terrain_swatch(era.terrain).paste_on(img, X0 + 34, cy)
        d.text((X0 + 50, cy), era.name, font=font(13, True), fill=P.PANEL_INK, anchor="lm")
        note = CONTENT.terrain_names[era.terrain] if era.terrain else "start"
        if era.final:
            note += " \u00b7 end"
        d.text((X0 + 162, cy), note, font=font(12), fill=P.PANEL_MUTED, anchor="lm")
    _heading(d, PLAYERS_Y, "PLAYERS")
    for name, x in COLUMNS:
        d.text((x, PLAYER_COLS_Y + 6), name, font=font(11, True), fill=P.PANEL_MUTED,
               anchor="mm")
    _map_key(img, d)


def _map_key(img: Image.Image, d: ImageDraw.ImageDraw) -> None:
    """Which pattern is which terrain, for readers who cannot tell the colours apart."""
    _heading(d, KEY_Y, "MAP KEY")
    cell = (X1 - X0) / 4
    items: list[tuple[str | None, str]] = [(t, CONTENT.terrain_names[t]) for t in "GFWHM"]
    items += [(LAKE, "lake"), (OPEN_SEA, "open sea"), (None, "stack limit")]
    for k, (kind, name) in enumerate(items):
        x = X0 + (k % 4) * cell
        y = KEY_Y + 20 + (k // 4) * KEY_ROW + KEY_ROW / 2
        if kind is None:
            stack_bonus(1).paste_on(img, x + 12, y)
            d.text((x + 28, y), name, font=font(11), fill=P.PANEL_INK, anchor="lm")
        else:
            terrain_swatch(kind, 9).paste_on(img, x + 9, y)
            d.text((x + 22, y), name, font=font(11), fill=P.PANEL_INK, anchor="lm")


def _status(v: dict[str, Any]) -> tuple[str, str]:
    phase = v["phase"]
    if phase in ("tiles", "tokens"):
        return "Setup", PHASES[phase]
    era = f"Era {v['era_number']}"
    if phase == "actions":
        return era, f"Action round {v['action_round']}"
    return era, PHASES.get(phase, phase)


def _to_act_lines(v: dict[str, Any]) -> list[tuple[list[int], str]]:
    """Decisions grouped by what is asked: ``([seats], "what")``."""
    if v["phase"] == "over":
        winners = v.get("winners") or []
        names = ", ".join(P.player_name(s) for s in winners)
        word = "Winner" if len(winners) == 1 else "Winners (shared)"
        return [(list(winners), f"{word}: {names}" if winners else "Game over")]
    groups: dict[str, list[int]] = {}
    for dec in v.get("decisions", []):
        seat = dec["seat"]
        prompt = dec["prompt"]
        prefix = f"{P.player_name(seat)}: "
        what = prompt[len(prefix):] if prompt.startswith(prefix) else prompt
        groups.setdefault(what, []).append(seat)
    names = P.player_name
    return [(seats, f"{', '.join(names(s) for s in seats)}: {what}")
            for what, seats in groups.items()]


def _combat_line(v: dict[str, Any]) -> str | None:
    c = v.get("combat")
    if not c:
        return None
    att, dfn = P.player_name(c["attacker"]), P.player_name(c["defender"])
    text = f"{att} attacks {label(c['dst'])} ({dfn}) from {label(c['src'])}"
    if c.get("terrain"):
        text += f", fighting on {CONTENT.terrain_names.get(c['terrain'], c['terrain'])}"
    # Only counts: the attacker's own view holds the card ids, the public one does not.
    n = c.get("attack_card_count")
    if n is None and c.get("attack_cards") is not None:
        n = len(c["attack_cards"])
    if n is not None:
        text += f"; {n} card{'s' if n != 1 else ''} face down"
    return text


#: Pixel offsets of a tile's ring (E, SE, SW, W, NW, NE) for hexes of radius 1.
_RING = ((math.sqrt(3), 0.0), (math.sqrt(3) / 2, 1.5), (-math.sqrt(3) / 2, 1.5),
         (-math.sqrt(3), 0.0), (-math.sqrt(3) / 2, -1.5), (math.sqrt(3) / 2, -1.5))


def _tile_preview(img: Image.Image, tile_id: int, cx: float, cy: float, r: float = 11) -> None:
    """The tile to place (R-SETUP-4), unrotated: its centre and ring from the east."""
    try:
        tile = CONTENT.tile(tile_id)
    except KeyError:
        return
    terrain_swatch(tile.centre, r).paste_on(img, cx, cy)
    for (dx, dy), t in zip(_RING, tile.ring):
        terrain_swatch(t, r).paste_on(img, cx + dx * r, cy + dy * r)


def draw_dynamic(img: Image.Image, v: dict[str, Any]) -> None:
    d = ImageDraw.Draw(img)

    def text(xy: tuple[float, float], t: str, size: int, fill: P.RGB = P.PANEL_INK,
             bold: bool = False, anchor: str = "la") -> None:
        draw_text(img, xy, t, size, fill, bold, anchor)

    big, small = _status(v)
    text((X1, HEADER_Y + 2), big, 18, bold=True, anchor="ra")
    text((X1, HEADER_Y + 26), small, 13, P.PANEL_MUTED, anchor="ra")
    start = v["start_player"]
    text((X0, HEADER_Y + 34), f"\u2605 start player: {P.player_name(start)}", 12,
         P.PANEL_MUTED)

    # whose turn
    d.rounded_rectangle([X0 - 4, TOACT_Y, X1 + 4, TOACT_Y + TOACT_H], radius=8,
                        fill=P.PANEL_ACCENT, outline=P.PANEL_RULE)
    text((X0 + 4, TOACT_Y + 6), "GAME OVER" if v["phase"] == "over" else "TO ACT", 11,
         P.PANEL_MUTED, bold=True)
    y = TOACT_Y + 22
    right = X1
    if v["phase"] == "tiles" and v.get("current_tile") is not None:
        _tile_preview(img, v["current_tile"], X1 - 30, TOACT_Y + TOACT_H / 2)
        right = X1 - 66
    lines = _to_act_lines(v)
    shown = lines[:2]
    for seats, what in shown:
        x = X0 + 4
        if len(seats) <= 2:  # a chip per seat; more seats are named in the text only
            for s in seats:
                chip(s, 9).paste_on(img, x + 10, y + 9)
                x += 20
            x += 4
        room = 2 if len(shown) == 1 else 1
        text_lines = wrap(what, 14, right - x, bold=True)
        if len(text_lines) > room:
            text_lines = text_lines[: room - 1] + [
                fit(" ".join(text_lines[room - 1:]), 14, right - x, bold=True)]
        for t in text_lines:
            text((x, y + 9), t, 14, bold=True, anchor="lm")
            y += 20
    if len(lines) > 2:
        text((X1, TOACT_Y + 6), f"+{len(lines) - 2} more", 11, P.PANEL_MUTED, True, "ra")

    # era cubes; mark the era the next progress phase is about
    players = v["players"]
    top = max((p["era"] for p in players), default=0)
    if v["phase"] in ("actions", "progress") and top + 1 < len(CONTENT.eras):
        ny = ERA_ROWS_Y + (top + 1) * ERA_ROW + ERA_ROW / 2
        text((CUBES_X + 2, ny), "\u25c2 next", 11, P.PANEL_MUTED, True, "lm")
    by_era: dict[int, list[int]] = {}
    for s, p in enumerate(players):
        by_era.setdefault(p["era"], []).append(s)
    for era, seats in by_era.items():
        cy = ERA_ROWS_Y + era * ERA_ROW + ERA_ROW / 2
        for k, s in enumerate(seats):
            cube(s).paste_on(img, CUBES_X + 10 + k * 19, cy)

    # players
    to_act = {dec["seat"] for dec in v.get("decisions", [])}
    for s, p in enumerate(players):
        y0 = PLAYER_ROWS_Y + s * PLAYER_ROW
        if s in to_act:
            d.rounded_rectangle([X0 - 4, y0 + 1, X1 + 4, y0 + PLAYER_ROW - 2], radius=6,
                                fill=P.PANEL_ACCENT, outline=P.PANEL_RULE)
        cy = y0 + 15
        chip(s, 12).paste_on(img, X0 + 12, cy)
        text((X0 + 30, cy), P.player_name(s), 15, bold=True, anchor="lm")
        sub = "\u2605 start" if s == start else ""
        if s in to_act:
            sub = (sub + " \u00b7 " if sub else "") + "to act"
        text((X0 + 30, cy + 18), sub, 11, P.PANEL_MUTED, anchor="lm")
        values = (p["markers"], p["hand_size"], p["supply"], len(p["cities"]),
                  p["victory_points"])
        for (_, x), value in zip(COLUMNS, values):
            vp = x == COLUMNS[-1][1]
            text((x, cy), str(value), 16 if vp else 15, P.PANEL_INK if value or vp
                 else P.PANEL_MUTED, True, "mm")
        cities = " ".join(str(c) for c in p["cities"]) or "none"
        text((COLUMNS[0][1] - 22, cy + 18), f"unused cities: {cities}", 11, P.PANEL_MUTED,
             anchor="lm")

    # footer: piles, combat, setup
    y = FOOTER_Y
    d.line([(X0, y - 6), (X1, y - 6)], fill=P.PANEL_RULE, width=1)
    piles = f"Draw pile {v['deck_size']} \u00b7 discard pile {v['discard_size']}"
    if v["phase"] == "tiles":
        piles += f" \u00b7 tiles left {v['tiles_left']}"
        if v.get("current_tile") is not None:
            piles += f" (placing tile {v['current_tile']})"
    text((X0, y), piles, 12)
    extra = _combat_line(v)
    if extra is None and v["phase"] == "progress" and v.get("progress_submitted"):
        names = ", ".join(P.player_name(s) for s in v["progress_submitted"])
        extra = f"Progress cards chosen: {names}"
    if extra:
        for k, t in enumerate(wrap(extra, 12, X1 - X0, bold=True)[:2]):
            text((X0, y + 17 + k * 15), t, 12, bold=True)
