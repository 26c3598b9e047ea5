"""The hand image: right size, one card per card in hand, empty hands and spectators."""

from __future__ import annotations

import random

from PIL import Image, ImageChops, ImageDraw, ImageStat

from engine import view
from engine.content import CONTENT
from render.encode import to_png
from render.fonts import draw_text, font, wrap
from render.hand import (
    BG,
    CARD_H,
    CARD_W,
    COLUMNS,
    GAP,
    HEADER_H,
    MARGIN,
    PLATE,
    TEXT_SIZE,
    card_face,
    card_image,
    hand_image,
    hand_palette,
    hand_size,
    prepare,
    render_hand,
)
from tests.render.helpers import close, open_png, quiet_state, rgb_at


def _with_hand(cards: list[int], seat: int = 1):
    state = quiet_state()
    held = set(cards)
    state.players[seat].hand = list(cards)
    state.deck = [c for c in state.deck if c not in held]
    return view(state, seat)


def _slot_is_card(img, k: int) -> bool:
    """Is there a card in grid slot ``k`` (probe the middle of its text plate)?"""
    x = MARGIN + (k % COLUMNS) * (CARD_W + GAP) + CARD_W / 2
    y = HEADER_H + (k // COLUMNS) * (CARD_H + GAP) + CARD_H / 2
    return not close(rgb_at(img, (x, y)), BG, 6)


def test_hand_shows_each_card() -> None:
    for n in (1, 2, 5, 7):
        cards = [c.id for c in CONTENT.cards][3: 3 + 7 * n: 7][:n]
        img = open_png(render_hand(_with_hand(cards)))
        assert img.size == hand_size(n)
        slots = COLUMNS * ((n + COLUMNS - 1) // COLUMNS)
        assert [_slot_is_card(img, k) for k in range(slots)] == [k < n for k in range(slots)]


def test_empty_hand() -> None:
    v = _with_hand([])
    img = open_png(render_hand(v))
    assert img.size == hand_size(0)


def test_spectator_view_gives_a_notice_not_an_error() -> None:
    state = quiet_state()
    img = open_png(render_hand(view(state, None)))
    assert img.size == hand_size(0)


def test_every_card_fits_its_text() -> None:
    for card in CONTENT.cards:
        img = card_image(card.id)
        assert img.size == (CARD_W, CARD_H)
        assert len(wrap(CONTENT.card_types[card.type].text, TEXT_SIZE, CARD_W - 44)) <= 4


def test_r_info_1_other_hands_do_not_change_my_hand_image() -> None:
    state = quiet_state()
    state.players[0].hand = [0, 10, 20]
    state.players[1].hand = [30, 40]
    state.deck = [c for c in state.deck if c not in (0, 10, 20, 30, 40)]
    mine = render_hand(view(state, 0))
    state.players[1].hand = [state.deck.pop(), state.deck.pop()]
    assert render_hand(view(state, 0)) == mine


def test_progress_choice_is_listed_for_its_owner() -> None:
    state = quiet_state()
    state.players[2].hand = [5]
    state.phase = "progress"
    state.progress_choices = {2: [6, 7]}
    v = view(state, 2)
    img = open_png(render_hand(v))
    assert img.size == hand_size(1, 1)


def test_every_hand_is_mapped_to_the_one_hand_palette() -> None:
    """A hand image is mapped to one palette made once per process, not an
    octree per image with zlib at level 6 (three boards' worth of a render worker). The
    flat colours come out as drawn (within the lookup's 6 bits a channel) and the rest
    stays close to the drawing."""
    palette = hand_palette().getpalette()
    for cards in ([0, 10, 20], [5, 17, 29, 41, 53], []):
        v = _with_hand(cards)
        img = open_png(render_hand(v))
        assert img.mode == "P" and img.getpalette() == palette
        assert close(rgb_at(img, (2, 2)), BG, 3)
        drawn = hand_image(v)
        if cards:  # the first card's text plate, right of its text
            assert close(rgb_at(img, (MARGIN + CARD_W - 16, HEADER_H + 132)), PLATE, 3)
        error = ImageStat.Stat(ImageChops.difference(img.convert("RGB"), drawn)).mean
        assert max(error) < 1.5, error


def _hands() -> list[tuple[dict, str]]:
    """Hands of every size, seat and era, with and without notes, in both languages."""
    rng = random.Random(3)
    state = quiet_state()
    out = []
    for k in range(24):
        seat = k % len(state.players)
        cards = rng.sample(range(len(CONTENT.cards)), rng.randrange(0, 9))
        state.players[seat].hand = cards
        state.players[seat].era = k % CONTENT.flight
        v = view(state, seat)
        if k % 3 == 0 and cards:
            v["my_progress_choice"] = cards[:2]
        out.append((v, "pl" if k % 4 == 1 else "en"))
    out.append((view(state, None), "en"))
    return out


def test_a_hand_put_together_from_mapped_parts_is_the_whole_hand_mapped() -> None:
    """render_hand maps each card's face once and draws only the header per hand: the
    bytes are those of the whole drawing mapped to the palette at once."""
    for v, lang in _hands():
        assert render_hand(v, lang) == to_png(hand_image(v, lang), hand_palette())
        again = render_hand(v, lang)  # from the kept parts
        assert again == to_png(hand_image(v, lang), hand_palette())


def test_the_header_text_is_drawn_as_pillow_draws_it() -> None:
    """The header's words come from the glyph masks kept by render.fonts: the same
    pixels as ImageDraw.text."""
    for text, size, bold, anchor in (("Blue's hand", 28, True, "lm"), ("5 / 7", 22, True, "rm"),
                                     ("Era II: draw 2, at most 7", 17, False, "lm"),
                                     ("Zagrane w postępie: Edukacja", 16, True, "lm")):
        a = Image.new("RGB", (400, 60), BG)
        ImageDraw.Draw(a).text((14, 30), text, font=font(size, bold), fill=(255, 255, 255),
                               anchor=anchor)
        b = Image.new("RGB", (400, 60), BG)
        draw_text(b, (14, 30), text, size, (255, 255, 255), bold=bold, anchor=anchor)
        assert a.tobytes() == b.tobytes(), text


def test_cards_of_one_look_share_their_picture() -> None:
    """Two cards of the same type on the same terrain are drawn once."""
    looks: dict[tuple[str, str], list[int]] = {}
    for c in CONTENT.cards:
        looks.setdefault((c.type, c.terrain), []).append(c.id)
    twins = next(ids for ids in looks.values() if len(ids) > 1)
    assert card_image(twins[0]) is card_image(twins[1])


def test_a_prepared_worker_draws_no_card_face_for_a_hand() -> None:
    """The worker's warm-up maps every card look (render.hand.prepare): hands drawn
    afterwards only put the kept tiles together."""
    prepare()
    drawn = card_face.cache_info().misses
    for cards in ([0, 10, 20, 30, 40, 50], list(range(1, 54, 9))):
        render_hand(_with_hand(cards))
    assert card_face.cache_info().misses == drawn
