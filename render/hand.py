"""The hand image for a seat's DM: that player's cards, large enough to read on a phone.

Each card shows its type (name and icon), its effect text (from ``data/tempus/cards.json``)
and its background terrain, both as the card's patterned background and as a labelled
tag, since the background decides combat and progress points (R-COMBAT-6, R-PROG-3).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.content import CONTENT
from engine.views import VIEW_FORMAT

from . import palette as P
from .encode import build_palette, to_png
from .fonts import draw_text, fit, font, wrap
from .icons import card_icon
from .sprites import chip, terrain_swatch
from .terrain_art import fill_of, motif_sprite
from .words import (
    DEFAULT_LANG,
    card_type_name,
    card_type_text,
    colour_name,
    era_name,
    terrain_name,
    word,
)

WIDTH = 720
MARGIN = 14
GAP = 12
COLUMNS = 2
CARD_W = (WIDTH - 2 * MARGIN - (COLUMNS - 1) * GAP) // COLUMNS
CARD_H = 244
HEADER_H = 86
EMPTY_H = 120
NOTE_H = 30

TITLE_SIZE = 26
TEXT_SIZE = 20
TEXT_LINE = 25
BG: P.RGB = (52, 58, 68)
PLATE: P.RGB = (255, 253, 246)
MUTED: P.RGB = (200, 206, 216)
EMPTY_OUTLINE: P.RGB = (120, 128, 140)


def hand_size(cards: int, notes: int = 0) -> tuple[int, int]:
    """Pixel size of a hand image with ``cards`` cards and ``notes`` extra note lines."""
    body = EMPTY_H if cards == 0 else math.ceil(cards / COLUMNS) * (CARD_H + GAP)
    return WIDTH, HEADER_H + notes * NOTE_H + body + MARGIN


@lru_cache(maxsize=2)
def _rounded_mask(size: tuple[int, int], radius: int) -> Image.Image:
    ss = 4
    m = Image.new("L", (size[0] * ss, size[1] * ss), 0)
    ImageDraw.Draw(m).rounded_rectangle([0, 0, size[0] * ss - 1, size[1] * ss - 1],
                                        radius=radius * ss, fill=255)
    return m.reduce(ss)


@lru_cache(maxsize=8)
def _card_background(terrain: str) -> Image.Image:
    """The card's background terrain as a patterned texture (hexes of that terrain)."""
    img = Image.new("RGB", (CARD_W, CARD_H), fill_of(terrain))
    r = 36.0
    sprite = motif_sprite(terrain, r)
    w = math.sqrt(3) * r
    half = sprite.size[0] // 2
    for row in range(-1, int(CARD_H / (1.5 * r)) + 2):
        for col in range(-1, int(CARD_W / w) + 2):
            x = col * w + (row & 1) * w / 2
            y = row * 1.5 * r
            img.paste(sprite, (round(x) - half, round(y) - half), sprite)
    return img


def card_image(card: int, lang: str = DEFAULT_LANG) -> Image.Image:
    """One card, ``CARD_W`` x ``CARD_H`` RGBA with rounded corners."""
    info = CONTENT.cards[card]
    return card_face(info.type, info.terrain, lang)


@lru_cache(maxsize=8)
def card_face(kind: str, background: str, lang: str = DEFAULT_LANG) -> Image.Image:
    """The face of a card of type ``kind`` on ``background`` terrain: two cards of the
    same type and terrain look alike, whatever their ids. Few are kept: a hand is put
    together from :func:`_card_tile`, mapped to the palette once per look."""
    terrain = terrain_name(background, lang)
    title = card_type_name(kind, lang)
    text = card_type_text(kind, lang)
    img = _card_background(background).convert("RGBA")
    d = ImageDraw.Draw(img)
    inset = 10
    # title plate: icon and name
    tint = P.mix(fill_of(background), P.WHITE, 0.6)
    d.rounded_rectangle([inset, inset, CARD_W - inset, inset + 52], radius=10, fill=tint,
                        outline=P.OUTLINE, width=2)
    icon = card_icon(kind, 38)
    img.alpha_composite(icon, (inset + 8, inset + 7))
    title = fit(title, TITLE_SIZE, CARD_W - 2 * inset - 64, bold=True)
    d.text((inset + 56, inset + 27), title, font=font(TITLE_SIZE, True), fill=P.PANEL_INK,
           anchor="lm")
    # effect text
    top = inset + 60
    bottom = CARD_H - inset - 40
    d.rounded_rectangle([inset, top, CARD_W - inset, bottom], radius=10, fill=PLATE,
                        outline=P.OUTLINE, width=2)
    lines = wrap(text, TEXT_SIZE, CARD_W - 2 * inset - 24)
    size = TEXT_SIZE
    if len(lines) > 4:  # never with the shipped texts; shrink rather than overflow
        size = TEXT_SIZE - 3
        lines = wrap(text, size, CARD_W - 2 * inset - 24)[:5]
    y = top + 10
    for line in lines:
        d.text((inset + 12, y), line, font=font(size), fill=P.PANEL_INK)
        y += TEXT_LINE if size == TEXT_SIZE else TEXT_LINE - 4
    # background terrain tag
    tag = word("card.background", lang, terrain=terrain, Terrain=terrain.capitalize())
    tw = font(17, True).getlength(tag)
    d.rounded_rectangle([inset, CARD_H - inset - 32, inset + tw + 46, CARD_H - inset],
                        radius=8, fill=tint, outline=P.OUTLINE, width=2)
    sw = terrain_swatch(background, 10)
    img.alpha_composite(sw.image, (inset + 18 - sw.anchor[0], CARD_H - inset - 16 - sw.anchor[1]))
    d.text((inset + 34, CARD_H - inset - 16), tag, font=font(17, True), fill=P.PANEL_INK,
           anchor="lm")
    d.rounded_rectangle([0, 0, CARD_W - 1, CARD_H - 1], radius=14, outline=P.OUTLINE, width=3)
    img.putalpha(_rounded_mask((CARD_W, CARD_H), 14))
    return img


def _card_list(cards: list[int], lang: str) -> str:
    return word("list_sep", lang).join(
        word("card.in_list", lang, name=card_type_name(CONTENT.cards[c].type, lang),
             terrain=terrain_name(CONTENT.cards[c].terrain, lang)) for c in cards)


def _notes(view: dict[str, Any], seat: int, lang: str = DEFAULT_LANG) -> list[str]:
    """Cards of this seat that are out of the hand but still secret to others."""
    notes = []
    chosen = view.get("my_progress_choice")
    if chosen:
        notes.append(word("hand.progress_note", lang, cards=_card_list(chosen, lang)))
    combat = view.get("combat")
    if (combat and combat.get("attacker") == seat and combat.get("attack_cards")
            and combat.get("defend_cards") is None):
        notes.append(word("hand.combat_note", lang,
                          cards=_card_list(combat["attack_cards"], lang)))
    return notes


@dataclass(frozen=True)
class _Hand:
    """What a hand image shows: whose it is, their cards and the notes above them."""

    seat: int | None
    player: dict[str, Any] | None
    cards: list[int]
    notes: list[str]

    @property
    def size(self) -> tuple[int, int]:
        return hand_size(len(self.cards), len(self.notes))

    @property
    def top(self) -> int:
        """Where the cards begin (below the header and the notes)."""
        return HEADER_H + len(self.notes) * NOTE_H


def _hand(view: dict[str, Any], lang: str) -> _Hand:
    if view.get("format") != VIEW_FORMAT:
        raise ValueError(f"unsupported view format {view.get('format')!r}")
    seat = view.get("seat")
    player = view["players"][seat] if seat is not None else None
    cards: list[int] = list(player.get("hand", [])) if player else []
    notes = _notes(view, seat, lang) if seat is not None else []
    return _Hand(seat, player, cards, notes)


def _card_at(k: int, top: int) -> tuple[int, int]:
    """The top left corner of the ``k``-th card."""
    return MARGIN + (k % COLUMNS) * (CARD_W + GAP), top + (k // COLUMNS) * (CARD_H + GAP)


def _draw_top(img: Image.Image, hand: _Hand, lang: str) -> None:
    """The header (whose hand, how many cards, the era) and the notes, on ``img`` from
    its top row: nothing of it reaches below :attr:`_Hand.top`."""
    d = ImageDraw.Draw(img)
    if hand.seat is None:
        d.text((MARGIN, 28), word("hand.spectator", lang), font=font(26, True), fill=P.WHITE,
               anchor="lm")
    else:
        player, seat, cards = hand.player, hand.seat, hand.cards
        assert player is not None  # the seat's, as seat is not None
        chip(seat, 17, lang).paste_on(img, MARGIN + 18, 30)
        draw_text(img, (MARGIN + 44, 30), word("hand.title", lang, name=colour_name(seat, lang)),
                  28, P.WHITE, bold=True, anchor="lm")
        era = CONTENT.eras[min(player["era"], CONTENT.flight - 1)]
        draw_text(img, (WIDTH - MARGIN, 30),
                  word("hand.count", lang, n=len(cards), limit=era.limit), 22, P.WHITE,
                  bold=True, anchor="rm")
        line = word("hand.era", lang, era=era_name(player["era"], lang), draw=era.draw,
                    limit=era.limit)
        draw_text(img, (MARGIN, 64), fit(line, 17, WIDTH - 2 * MARGIN), 17, MUTED,
                  anchor="lm")
    y = HEADER_H
    for note in hand.notes:
        line = fit(note, 16, WIDTH - 2 * MARGIN, bold=True)
        draw_text(img, (MARGIN, y + NOTE_H / 2 - 4), line, 16, P.PANEL_ACCENT, bold=True,
                  anchor="lm")
        y += NOTE_H


def hand_image(view: dict[str, Any], lang: str = DEFAULT_LANG) -> Image.Image:
    """The hand of ``view["seat"]`` as an RGB image (see :func:`render_hand`)."""
    hand = _hand(view, lang)
    img = Image.new("RGB", hand.size, BG)
    _draw_top(img, hand, lang)
    y = hand.top
    if not hand.cards:
        d = ImageDraw.Draw(img)
        d.rounded_rectangle([MARGIN, y, WIDTH - MARGIN, y + EMPTY_H - 10], radius=14,
                            outline=EMPTY_OUTLINE, width=3)
        d.text((WIDTH / 2, y + 40), word("hand.empty", lang), font=font(26, True),
               fill=P.WHITE, anchor="mm")
        d.text((WIDTH / 2, y + 78), word("hand.empty_hint", lang), font=font(18),
               fill=MUTED, anchor="mm")
        return img
    for k, card in enumerate(hand.cards):
        ci = card_image(card, lang)
        img.paste(ci, _card_at(k, y), ci)
    return img


#: flat colours of the hand image besides the board's key colours (render.palette)
HAND_KEY: tuple[P.RGB, ...] = (BG, PLATE, MUTED, EMPTY_OUTLINE)


@lru_cache(maxsize=1)
def hand_palette() -> Image.Image:
    """The 256 colours every hand image is mapped to, computed once per process: the
    flat colours exactly, then the cards (every card type on every background terrain it
    comes with), then the header's player chips.

    A palette computed for each image (octree) and zlib at level 6 made a hand cost three
    times a board (~15 ms of a render worker); with this one the image is
    mapped by lookup and deflated by ISA-L (render.encode), ~4 ms."""
    # one card of each look: the same type on the same terrain is drawn alike
    looks = {(c.type, c.terrain): c.id for c in CONTENT.cards}
    cards = Image.new("RGB", (CARD_W * len(looks), CARD_H), BG)
    for k, card in enumerate(looks.values()):
        face = card_image(card)
        cards.paste(face, (k * CARD_W, 0), face)
    header = Image.new("RGB", (60 * len(CONTENT.colours), 60), BG)
    for seat in range(len(CONTENT.colours)):
        chip(seat, 17).paste_on(header, 30 + 60 * seat, 30)
    return build_palette(cards, header, (*HAND_KEY, *P.key_colours()))


def render_hand(view: dict[str, Any], lang: str = DEFAULT_LANG) -> bytes:
    """PNG of the hand of ``view["seat"]`` (a seat's own view, ``engine.view(state, seat)``).

    An empty hand gives a small "No cards in hand" image; a spectator view (seat None)
    gives a short notice instead of failing. ``lang``: the language of the words in it.
    """
    return to_png(hand_mapped(view, lang))


def _mapped(img: Image.Image) -> Image.Image:
    return img.quantize(palette=hand_palette(), dither=Image.Dither.NONE)


def hand_mapped(view: dict[str, Any], lang: str = DEFAULT_LANG) -> Image.Image:
    """:func:`hand_image` mapped to :func:`hand_palette`, pixel for pixel, put together
    from parts mapped once: each card's face on the background (:func:`_card_tile`),
    then only the header and notes are drawn and mapped for each hand. The mapping looks
    every pixel up on its own (no dithering), so mapping the parts is mapping the whole;
    a hand was drawn whole and mapped whole before, about four times the work."""
    hand = _hand(view, lang)
    if not hand.cards:
        return _mapped(hand_image(view, lang))
    top = Image.new("RGB", (WIDTH, hand.top), BG)
    _draw_top(top, hand, lang)
    head = _mapped(top)
    img = Image.new("P", hand.size, _background_index())
    img.putpalette(head.getpalette() or [])
    img.paste(head, (0, 0))
    for k, card in enumerate(hand.cards):
        info = CONTENT.cards[card]
        img.paste(_card_tile(info.type, info.terrain, lang), _card_at(k, hand.top))
    return img


@lru_cache(maxsize=1)
def _background_index() -> int:
    """The palette entry of the hand's background colour."""
    index = _mapped(Image.new("RGB", (1, 1), BG)).getpixel((0, 0))
    assert isinstance(index, int)
    return index


def prepare(lang: str = DEFAULT_LANG) -> None:
    """Map every card look's tile in ``lang`` now (a worker process's start: its first
    hands then cost what every later one does, a few hundred microseconds)."""
    for kind, background in dict.fromkeys((c.type, c.terrain) for c in CONTENT.cards):
        _card_tile(kind, background, lang)


@lru_cache(maxsize=96)
def _card_tile(kind: str, background: str, lang: str) -> Image.Image:
    """A card's face on the hand's background, mapped to the palette (83 kB a look:
    36 looks per language)."""
    face = card_face(kind, background, lang)
    tile = Image.new("RGB", face.size, BG)
    tile.paste(face, (0, 0), face)
    return _mapped(tile)
