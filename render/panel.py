"""The panel below the map: status, whose turn, players, era track, map key, piles.

It is laid out in design units of a 550 px wide display (:mod:`render.layout`) and drawn
at the image's scale, so its text is at least 9 px high when Discord shows the image
550 px wide. :func:`static_panel` (headings, era names, the map key) is drawn once per
width and language and cached; :func:`draw_dynamic` draws the rest from a public view.
It reads only public fields of the view (counts, never card ids), so a seat's own view
gives the same picture as the spectator view (R-INFO-1, R-INFO-2). Every word comes from
:mod:`render.words`.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.content import CONTENT
from engine.hexgrid import label

from . import palette as P
from .fonts import draw_text, fit, text_width, wrap
from .layout import DESIGN_W, panel_height
from .moment import Ask, ask_for, moment
from .scene import Canvas, Scene
from .sprites import Sprite, chip, cube, stack_bonus, terrain_swatch
from .terrain_art import LAKE, OPEN_SEA
from .words import colour_name, era_name, names, terrain_name, word

PAD = 10
X1 = DESIGN_W - PAD
#: Vertical positions (design units from the top of the panel).
HEADER_Y = 15
BOX_Y0, BOX_Y1 = 27, 63
COLS_Y = 72
#: Players table (left column).
PLAYERS_X1 = 318
PLAYER_HEAD_Y = COLS_Y + 18
PLAYER_ROWS_Y = COLS_Y + 26
PLAYER_ROW = 28
NAME_X = PAD + 22
NAME_W = 80
#: Where the number columns (actions, cards, supply, cities left, VP) may go: right of
#: the longest colour name, left of the players table's edge (see :func:`columns`).
NUMS_X0, NUMS_X1 = 102, PLAYERS_X1 - 2
#: Narrowest number column, and the least space between two columns.
NUM_MIN_W, NUM_GAP = 24, 6
#: Era track (right column).
ERA_X0 = 332
ERA_ROWS_Y = COLS_Y + 14
ERA_ROW = 14
ERA_NAME_X = ERA_X0 + 30
CUBES_X = 452
KEY_Y = 248
FOOTER_Y = 282

_COLUMN_KEYS = ("col.actions", "col.cards", "col.supply", "col.cities", "col.vp")


class Pen:
    """Draws on ``img`` in panel design units: ``(x, y)`` from the panel's top left."""

    def __init__(self, img: Canvas, scale: float, top: int = 0) -> None:
        self.img = img
        self.s = scale
        self.top = top
        # a scene records the same shapes ImageDraw would draw (render.scene)
        self.draw: ImageDraw.ImageDraw | Scene = \
            ImageDraw.Draw(img) if isinstance(img, Image.Image) else img

    def xy(self, x: float, y: float) -> tuple[float, float]:
        return x * self.s, self.top + y * self.s

    def px(self, size: float) -> int:
        """Font size in image pixels for ``size`` design units."""
        return max(1, round(size * self.s))

    def r(self, radius: float) -> float:
        """A sprite radius in image pixels, to the half pixel (fewer cached sprites)."""
        return round(radius * self.s * 2) / 2

    def text(self, x: float, y: float, t: str, size: float, fill: P.RGB = P.PANEL_INK,
             bold: bool = False, anchor: str = "la") -> None:
        draw_text(self.img, self.xy(x, y), t, self.px(size), fill, bold, anchor)

    def width(self, t: str, size: float, bold: bool = False) -> float:
        """Width of ``t`` in design units."""
        return text_width(t, self.px(size), bold) / self.s

    def fit(self, t: str, size: float, width: float, bold: bool = False) -> str:
        return fit(t, self.px(size), width * self.s, bold)

    def wrap(self, t: str, size: float, width: float, bold: bool = False) -> list[str]:
        return wrap(t, self.px(size), width * self.s, bold)

    def line(self, x0: float, y0: float, x1: float, y1: float, fill: P.RGB,
             width: float = 1) -> None:
        self.draw.line([self.xy(x0, y0), self.xy(x1, y1)], fill=fill,
                       width=max(1, round(width * self.s)))

    def box(self, x0: float, y0: float, x1: float, y1: float, fill: P.RGB,
            outline: P.RGB | None = None, radius: float = 0) -> None:
        pts = [self.xy(x0, y0), self.xy(x1, y1)]
        if radius:
            self.draw.rounded_rectangle(pts, radius=radius * self.s, fill=fill,
                                        outline=outline)
        else:
            self.draw.rectangle(pts, fill=fill, outline=outline)

    def sprite(self, sp: Sprite, x: float, y: float) -> None:
        sp.paste_on(self.img, *self.xy(x, y))


def _heading(pen: Pen, x0: float, x1: float, y: float, text: str) -> None:
    pen.text(x0, y, text, 10, P.PANEL_MUTED, True, "lm")
    w = pen.width(text, 10, True)
    pen.line(x0 + w + 6, y, x1, y, P.PANEL_RULE)


def _key_items(lang: str) -> list[tuple[str | None, str]]:
    items: list[tuple[str | None, str]] = [(t, terrain_name(t, lang)) for t in "GFWHM"]
    items += [(LAKE, terrain_name(LAKE, lang)), (OPEN_SEA, terrain_name(OPEN_SEA, lang))]
    items.append((None, word("key.stack_limit", lang)))
    return items


def _split(text: str) -> tuple[str, ...]:
    """``text`` in two lines, broken at the space nearest its middle (as it is if none),
    never after a one-letter word (Polish typography: "Miasta / w zapasie")."""
    spaces = [i for i, c in enumerate(text) if c == " "]
    spaces = [i for i in spaces if i > 1 and text[i - 2] != " "] or spaces
    if not spaces:
        return (text,)
    i = min(spaces, key=lambda k: abs(2 * k - len(text)))
    return text[:i], text[i + 1:]


@lru_cache(maxsize=8)
def columns(lang: str = "en") -> tuple[tuple[float, ...], tuple[tuple[str, ...], ...]]:
    """The centres of the players table's number columns and their headings (one or two
    lines each) in ``lang``: each column as wide as its heading, the space left shared
    out between them. A heading too long for one line (Polish "Miasta w zapasie") is
    broken in two, the widest first, until the table fits."""
    pen = Pen(Image.new("RGB", (DESIGN_W, 1)), 1.0)
    heads: list[tuple[str, ...]] = [(word(k, lang),) for k in _COLUMN_KEYS]

    def width(lines: tuple[str, ...]) -> float:
        return max(NUM_MIN_W, *(pen.width(x, 10, True) for x in lines))

    room = NUMS_X1 - NUMS_X0 - NUM_GAP * (len(heads) - 1)
    while sum(map(width, heads)) > room:
        k = max((i for i, h in enumerate(heads) if len(h) == 1 and " " in h[0]),
                key=lambda i: width(heads[i]), default=None)
        if k is None:
            break  # nothing left to break: the widest column may touch its neighbour
        heads[k] = _split(heads[k][0])
    widths = [width(h) for h in heads]
    gap = NUM_GAP + max(0.0, room - sum(widths)) / (len(heads) - 1)
    centres, x = [], float(NUMS_X0)
    for w in widths:
        centres.append(x + w / 2)
        x += w + gap
    return tuple(centres), tuple(heads)


@lru_cache(maxsize=8)
def static_panel(width: int, lang: str = "en") -> Image.Image:
    """Background, headings, era names and terrains, the map key (``width`` px wide).
    Cached: copy or paste it, never draw on it."""
    img = Image.new("RGB", (width, panel_height(width)), P.PANEL_BG)
    pen = Pen(img, width / DESIGN_W)
    pen.draw.line([(0, 0), (width, 0)], fill=P.OUTLINE, width=max(2, round(pen.s * 1.5)))
    pen.text(PAD, HEADER_Y, word("title", lang), 14, P.PANEL_INK, True, "lm")
    # players table headings
    _heading(pen, PAD, PLAYERS_X1, COLS_Y, word("players", lang))
    centres, heads = columns(lang)
    for x, lines in zip(centres, heads):
        ys = (PLAYER_HEAD_Y,) if len(lines) == 1 else (PLAYER_HEAD_Y - 7, PLAYER_HEAD_Y + 3)
        for y, line in zip(ys, lines):
            pen.text(x, y, line, 10, P.PANEL_MUTED, True, "mm")
    # era track: number, terrain, name
    _heading(pen, ERA_X0, X1, COLS_Y, word("era_track", lang))
    for i, era in enumerate(CONTENT.eras):
        y = ERA_ROWS_Y + i * ERA_ROW
        if i % 2 == 0:
            pen.box(ERA_X0 - 3, y, X1 + 3, y + ERA_ROW - 1, P.mix(P.PANEL_BG, P.BLACK, 0.035))
        cy = y + ERA_ROW / 2
        if i:
            pen.text(ERA_X0 + 6, cy, str(i), 10, P.PANEL_MUTED, False, "mm")
        pen.sprite(terrain_swatch(era.terrain, pen.r(5.5)), ERA_X0 + 20, cy)
        name = pen.fit(era_name(i, lang), 10, CUBES_X - ERA_NAME_X - 4, True)
        pen.text(ERA_NAME_X, cy, name, 10, P.PANEL_INK, True, "lm")
    # map key: which pattern is which terrain, for readers who cannot tell colours apart
    pen.line(PAD, KEY_Y - 4, X1, KEY_Y - 4, P.PANEL_RULE)
    x, y = PAD, KEY_Y + 7
    for kind, name in _key_items(lang):
        w = 16 + pen.width(name, 10) + 12
        if x + w > X1 + 12 and x > PAD:
            x, y = PAD, y + 14
        if kind is None:
            pen.sprite(stack_bonus(1, 0.8 * pen.s), x + 11, y)
            pen.text(x + 24, y, name, 10, P.PANEL_INK, False, "lm")
            w += 10
        else:
            pen.sprite(terrain_swatch(kind, pen.r(5.5)), x + 6, y)
            pen.text(x + 14, y, name, 10, P.PANEL_INK, False, "lm")
        x += w
    pen.line(PAD, FOOTER_Y - 4, X1, FOOTER_Y - 4, P.PANEL_RULE)
    return img


def _status(v: dict[str, Any], lang: str) -> tuple[str, str]:
    ended = moment(v).ended_round
    if ended is not None:  # a past moment: the round that had just ended, as said with it
        return word("status.ended", lang, n=ended), ""
    phase = v["phase"]
    if phase in ("tiles", "tokens"):
        return word("status.setup", lang), word(f"phase.{phase}", lang)
    era = word("status.era", lang, n=v["era_number"])
    if phase == "actions":
        return era, word("status.round", lang, n=v["action_round"])
    return era, word(f"phase.{phase}", lang) if phase in ("progress", "over") else ""


def status_line(v: dict[str, Any], lang: str = "en") -> str:
    """``Era 6 · Action round 2`` (also used by the image descriptions)."""
    big, small = _status(v, lang)
    return big + (word("dot_sep", lang) + small if small else "")


def ask_text(ask: Ask, lang: str) -> str:
    """What an :class:`~render.moment.Ask` asks, in the image's words."""
    kind = ask.kind
    if kind == "place_tile":
        return word("decision.place_tile", lang, tile=ask.tile)
    if kind == "place_start_token":
        return word("decision.place_start_token", lang, n=ask.count)
    if kind in ("move", "grow", "move_none", "grow_none", "discard"):
        # none left: only a card (Transport, Health care) could add one, or the step ends
        return word(f"decision.{kind}", lang, count=ask.count or 0)
    if kind in ("name_city_terrain", "occupy") and ask.hex is not None:
        return word(f"decision.{kind}", lang, hex=label(ask.hex))
    if kind in ("turn", "turn_done", "progress_cards", "attack_cards", "defend_cards"):
        return word(f"decision.{kind}", lang)
    return word("decision.other", lang)


def decision_text(v: dict[str, Any], dec: dict[str, Any], lang: str) -> str:
    """What a decision asks, from its kind and the public view (not the engine's
    English prompt): its :class:`~render.moment.Ask`, worded."""
    return ask_text(ask_for(v, int(dec["seat"]), str(dec["kind"])), lang)


def to_act_lines(v: dict[str, Any], lang: str = "en") -> list[tuple[list[int], str]]:
    """Decisions grouped by what is asked: ``([seats], "Red, Blue: what")``, from the
    moment (:func:`render.moment.moment`) that the bot's messages word too."""
    m = moment(v)
    if v["phase"] == "over":
        winners = list(m.winners)
        if not winners:
            return [([], word("phase.over", lang))]
        key = "winner" if len(winners) == 1 else "winners"
        return [(winners, word(key, lang, names=names(winners, lang)))]
    return [(list(a.seats), word("who_what", lang, who=names(list(a.seats), lang),
                                 what=ask_text(a, lang)))
            for a in m.asks]


def raise_owner(v: dict[str, Any], h: int) -> int:
    """Whose stack limit the Sanitation raise on hex ``h`` is (R-CARD-SAN): under rules 2
    only the card player's (``bonus_seat``); -1 under rules 1 (the raise belonged to the
    hex, for whoever stood on it) or when there is no raise."""
    if v["bonus"][h] <= 0 or int(v.get("rules_version", 1)) < 2:
        return -1
    seats = v.get("bonus_seat")
    return seats[h] if seats is not None else -1


def combat_line(v: dict[str, Any], lang: str = "en") -> str | None:
    c = v.get("combat")
    if not c:
        return None
    text = word("combat", lang, attacker=colour_name(c["attacker"], lang), dst=label(c["dst"]),
                defender=colour_name(c["defender"], lang), src=label(c["src"]))
    if c.get("terrain"):
        text += word("combat.terrain", lang, terrain=terrain_name(c["terrain"], lang))
    # Only counts: the attacker's own view holds the card ids, the public one does not.
    n = c.get("attack_card_count")
    if n is None and c.get("attack_cards") is not None:
        n = len(c["attack_cards"])
    if n is not None:
        text += word("combat.cards", lang, count=n)
    return text


def piles_line(v: dict[str, Any], lang: str = "en") -> str:
    text = word("piles", lang, deck=v["deck_size"], discard=v["discard_size"])
    if v["phase"] == "tiles":
        text += word("piles.tiles", lang, n=v["tiles_left"])
        if v.get("current_tile") is not None:
            text += word("piles.placing", lang, tile=v["current_tile"])
    return text


#: Pixel offsets of a tile's ring (E, SE, SW, W, NW, NE) for hexes of radius 1.
_RING = ((math.sqrt(3), 0.0), (math.sqrt(3) / 2, 1.5), (-math.sqrt(3) / 2, 1.5),
         (-math.sqrt(3), 0.0), (-math.sqrt(3) / 2, -1.5), (math.sqrt(3) / 2, -1.5))


def _tile_preview(pen: Pen, tile_id: int, cx: float, cy: float, r: float = 6.5) -> None:
    """The tile to place (R-SETUP-4), unrotated: its centre and ring from the east."""
    try:
        tile = CONTENT.tile(tile_id)
    except KeyError:
        return
    pen.sprite(terrain_swatch(tile.centre, pen.r(r)), cx, cy)
    for (dx, dy), t in zip(_RING, tile.ring):
        pen.sprite(terrain_swatch(t, pen.r(r)), cx + dx * r, cy + dy * r)


def _to_act_box(pen: Pen, v: dict[str, Any], lang: str) -> None:
    pen.box(6, BOX_Y0, DESIGN_W - 6, BOX_Y1, P.PANEL_ACCENT, P.PANEL_RULE, 6)
    ended = moment(v).ended_round
    head = (word("game_over", lang) if v["phase"] == "over"
            else word("status.ended", lang, n=ended) if ended is not None
            else word("to_act", lang))
    mid = (BOX_Y0 + BOX_Y1) / 2
    pen.text(PAD + 4, mid, head, 10, P.PANEL_MUTED, True, "lm")
    x_text = PAD + 4 + pen.width(head, 10, True) + 10
    right: float = X1 - 4
    if v["phase"] == "tiles" and v.get("current_tile") is not None:
        _tile_preview(pen, v["current_tile"], X1 - 20, mid)
        right = X1 - 44
    lines = to_act_lines(v, lang)
    if len(lines) > 2:
        more = word("more", lang, n=len(lines) - 2)
        pen.text(right, mid, more, 10, P.PANEL_MUTED, True, "rm")
        right -= pen.width(more, 10, True) + 8
    shown = lines[:2]
    rows: list[tuple[list[int], str]] = []
    for seats, what in shown:
        x = x_text + (20 * len(seats) + 4 if len(seats) <= 2 else 0)
        room = 2 if len(shown) == 1 else 1
        parts = pen.wrap(what, 12, right - x, True)
        if len(parts) > room:
            parts = parts[: room - 1] + [pen.fit(" ".join(parts[room - 1:]), 12, right - x,
                                                 True)]
        rows += [(seats if k == 0 else [], p) for k, p in enumerate(parts)]
    y = mid - 7 * (len(rows) - 1)
    for seats, text in rows:
        x = x_text
        if seats and len(seats) <= 2:  # a chip per seat; more seats are named only
            for s in seats:
                pen.sprite(chip(s, pen.r(9), lang), x + 9, y)
                x += 20
            x += 4
        elif not seats and len(rows) > 1 and rows[0][0] and len(rows[0][0]) <= 2:
            x += 20 * len(rows[0][0]) + 4
        pen.text(x, y, text, 12, P.PANEL_INK, True, "lm")
        y += 14


def draw_dynamic(img: Canvas, v: dict[str, Any], top: int, lang: str = "en") -> None:
    """The parts that change, on the panel whose top edge is at ``top`` pixels."""
    pen = Pen(img, img.size[0] / DESIGN_W, top)
    big, small = _status(v, lang)
    x = PAD + pen.width(word("title", lang), 14, True) + 12
    pen.text(x, HEADER_Y, big, 13, P.PANEL_INK, True, "lm")
    if small:
        x += pen.width(big, 13, True)
        pen.text(x, HEADER_Y, word("dot_sep", lang) + small, 11, P.PANEL_MUTED, False, "lm")
    start = v["start_player"]
    pen.text(X1, HEADER_Y, word("start_player", lang, name=colour_name(start, lang)), 10,
             P.PANEL_MUTED, False, "rm")
    _to_act_box(pen, v, lang)

    # era cubes; mark the era the next progress phase is about
    players = v["players"]
    top_era = max((p["era"] for p in players), default=0)
    if v["phase"] in ("actions", "progress") and top_era + 1 < len(CONTENT.eras):
        ny = ERA_ROWS_Y + (top_era + 1) * ERA_ROW + ERA_ROW / 2
        pen.text(CUBES_X, ny, word("next", lang), 10, P.PANEL_MUTED, True, "lm")
    by_era: dict[int, list[int]] = {}
    for s, p in enumerate(players):
        by_era.setdefault(p["era"], []).append(s)
    for era, seats in by_era.items():
        cy = ERA_ROWS_Y + era * ERA_ROW + ERA_ROW / 2
        for k, s in enumerate(seats):
            pen.sprite(cube(s, pen.r(13.5), lang), CUBES_X + 7 + k * 15, cy)

    # players
    to_act = {dec["seat"] for dec in v.get("decisions", [])}
    for s, p in enumerate(players):
        y0 = PLAYER_ROWS_Y + s * PLAYER_ROW
        if s in to_act:
            pen.box(PAD - 4, y0, PLAYERS_X1 + 2, y0 + PLAYER_ROW - 2, P.PANEL_ACCENT,
                    P.PANEL_RULE, 5)
        cy = y0 + 9
        pen.sprite(chip(s, pen.r(9), lang), PAD + 9, cy + 3)
        pen.text(NAME_X, cy, pen.fit(colour_name(s, lang), 12, NAME_W, True), 12,
                 P.PANEL_INK, True, "lm")
        values = (p["markers"], p["hand_size"], p["supply"], len(p["cities"]),
                  p["victory_points"])
        for k, (x, value) in enumerate(zip(columns(lang)[0], values)):
            vp = k == len(values) - 1
            pen.text(x, cy, str(value), 13 if vp else 12,
                     P.PANEL_INK if value or vp else P.PANEL_MUTED, True, "mm")
        notes = []
        if s == start:
            notes.append(word("player.start", lang))
        if s in to_act:
            notes.append(word("player.to_act", lang))
        cities = " ".join(str(c) for c in p["cities"]) or word("player.no_cities", lang)
        notes.append(word("player.cities", lang, cities=cities))
        sub = pen.fit(word("dot_sep", lang).join(notes), 10, PLAYERS_X1 - NAME_X)
        pen.text(NAME_X, y0 + 21, sub, 10, P.PANEL_MUTED, False, "lm")

    # footer: piles, combat, progress choices made
    pen.text(PAD, FOOTER_Y + 6, piles_line(v, lang), 10, P.PANEL_INK, False, "lm")
    extra = combat_line(v, lang)
    if extra is None and v["phase"] == "progress" and v.get("progress_submitted"):
        extra = word("progress_chosen", lang, names=names(list(v["progress_submitted"]), lang))
    if extra:
        for k, t in enumerate(pen.wrap(extra, 10, X1 - PAD, True)[:2]):
            pen.text(PAD, FOOTER_Y + 20 + k * 13, t, 10, P.PANEL_INK, True, "lm")
