"""The hand image: right size, one card per card in hand, empty hands and spectators."""

from __future__ import annotations

from PIL import ImageChops, ImageStat

from engine import view
from engine.content import CONTENT
from render.fonts import wrap
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
    card_image,
    hand_image,
    hand_palette,
    hand_size,
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
