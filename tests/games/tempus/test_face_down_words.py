"""R-INFO-1 / R-DRAW-2 (revised): a card discarded for the hand limit goes face down. Its
name must appear in no public text: the board's alt text (with the event lines that say
what changed), the position in words, `/tempus status`, the public event lines, the turn
message. A known card is put face down in a position where nothing else public could
name it, and each text is searched for its name; the owner's private line, which does
name it, shows that the search would find it."""

from __future__ import annotations

import pytest

from bot.store import SeatRow
from engine import view, visible
from engine.actions import Discard, DrawCards
from engine.content import CONTENT
from engine.events import Event
from engine.state import SEEN_BY_ALL, State
from games.tempus import panels
from games.tempus.describe import status_text
from games.tempus.event_text import event_lines
from games.tempus.labels import card_type_name
from lang.i18n import using
from render.alt_text import board_alt_text, describe_position
from tests.engine.helpers import card, make_state, play

SEATS = [SeatRow(i, 100 + i, None, f"P{i}") for i in range(3)]
REL = card("REL", "H")


def _discarded() -> tuple[State, list[Event]]:
    """Red (Writing: hand limit 5) draws over the limit and discards the Religion (hills)
    face down. No other Religion card is in any hand or revealed."""
    hand = [card("EDU", "G"), card("EDU", "F"), card("FOR", "W"), card("FOR", "H"), REL]
    s = make_state(tokens={"E5": (0, 1), "K5": (1, 1)}, hands={0: hand, 1: [], 2: []},
                   eras={0: 1})
    # no other Religion is drawn (whichever end the deck is drawn from)
    others = [c for c in s.deck if card_type_of(c) != "REL"]
    s.deck = others[:3] + [c for c in s.deck if card_type_of(c) == "REL"] + others[3:]
    s, ev1 = play(s, 0, DrawCards())
    drawn = s.players[0].hand[5:]
    assert all(card_type_of(c) != "REL" for c in drawn)
    s, ev2 = play(s, 0, Discard((REL, card("EDU", "G"))))
    i = s.discard.index(REL)
    assert s.discard_seen[i] == 0 and s.discard_seen[i] != SEEN_BY_ALL
    assert REL not in s.players[0].hand
    return s, ev1 + ev2


def card_type_of(c: int) -> str:
    return CONTENT.cards[c].type


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_r_info_1_no_public_text_names_a_face_down_discard(lang: str) -> None:
    s, events = _discarded()
    with using(lang):
        name = card_type_name(REL).lower()
        public_lines = event_lines(visible(events, None))
        private = event_lines([e for e in events if e.private_to == 0])
        texts = {
            "events": " ".join(public_lines),
            "panel": panels.public_panel(s, SEATS).text,
        }
        for seat in (None, 0, 1):  # the spectator, the discarding seat, another seat
            v = view(s, seat)
            texts[f"status {seat}"] = status_text(1, v, SEATS)
            texts[f"alt {seat}"] = board_alt_text(v, public_lines, lang)
            texts[f"describe {seat}"] = " ".join(describe_position(v, lang))
    assert name in " ".join(private).lower(), "the search would find the name"
    assert any("2" in line for line in public_lines), public_lines  # "discards 2 cards"
    for what, text in texts.items():
        assert name not in text.lower(), (what, text)
