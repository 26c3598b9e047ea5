"""One truth: what the board image (its "to act" box and status), the image's alt text
and the bot's messages (the turn message, the status's "waiting for") say about whose
turn it is and what is left to do all come from one description of the moment
(:func:`render.moment.moment` of the public view). Compared for every kind of decision,
refined by what is left of it; and a replayed past moment (``/tempus board at:round-N``)
is said the same way by the message, the image and its description.
"""

from __future__ import annotations

import random
import re

from bot.store import SeatRow
from engine import game as G
from engine.game import apply_in_place, decisions
from engine.setup import new_game
from engine.simulate import play_game, random_action
from engine.state import State
from engine.views import view
from games.tempus import panels
from games.tempus.describe import status_text
from games.tempus.event_text import waiting_text
from games.tempus.labels import colour_name
from games.tempus.media import view_at
from lang import i18n
from lang.messages import t
from render.alt_text import board_alt_text
from render.moment import ASK_KINDS, moment
from render.panel import _status, ask_text, to_act_lines
from render.words import names, word

#: the message's words for each question (the turn message's prompt)
PROMPT = {"place_tile": "prompt.place_tile", "place_start_token": "prompt.place_start_token",
          "turn": "prompt.turn", "turn_done": "prompt.turn_done", "move": "prompt.move",
          "move_none": "prompt.move_none", "grow": "prompt.grow",
          "grow_none": "prompt.grow_none", "name_city_terrain": "prompt.name_city_terrain",
          "attack_cards": "prompt.attack_cards", "defend_cards": "prompt.defend_cards",
          "occupy": "prompt.occupy", "discard": "prompt.discard",
          "progress_cards": "prompt.progress_cards"}


def _fixed(key: str) -> str:
    """The longest stretch of a catalogue text without a placeholder (what any wording
    of it contains)."""
    return max(re.split(r"\{[^}]*\}", i18n.lookup(key, "en")), key=len).strip()


#: the kinds every run must meet (move_none and grow_none come only with certain cards)
WANTED = {"turn_done", *(k.value for k in G.DecisionKind)}


def _positions(seeds: range) -> dict[str, list[State]]:
    """Positions of random games (the map placed by the players in every other one), a
    few per kind of question asked, until every wanted kind was met."""
    found: dict[str, list[State]] = {}
    for seed in seeds:
        if set(found) >= WANTED:
            break
        state, _ = new_game(3, seed, random_map=seed % 2 == 0)
        rng = random.Random(seed)
        while decisions(state):
            for a in moment(view(state, None)).asks:
                kept = found.setdefault(a.kind, [])
                if len(kept) < 3:
                    kept.append(state.copy())
            seat = rng.choice(decisions(state)).seat
            apply_in_place(state, seat, random_action(state, seat, rng))
    return found


def test_the_image_its_description_and_the_message_say_the_same_moment() -> None:
    people = [SeatRow(i, 100 + i, None, f"P{i}") for i in range(3)]
    found = _positions(range(1, 60))
    # every decision kind of the engine, and what is left of a turn once its action is done
    assert set(found) >= WANTED, WANTED - set(found)
    assert set(found) <= set(ASK_KINDS)
    with i18n.using("en"):
        for kind, states in found.items():
            for state in states:
                v = view(state, None)
                m = moment(v)
                # the image's box words each question of the moment, with its seats
                assert to_act_lines(v) == [
                    (list(a.seats), word("who_what", "en", who=names(list(a.seats), "en"),
                                         what=ask_text(a, "en"))) for a in m.asks]
                # its description says the same
                alt = board_alt_text(v)
                for a in m.asks:
                    assert ask_text(a, "en") in alt, (kind, alt)
                ask = m.asks[0]
                # the message: the same people, asked the same thing
                panel = panels.public_panel(state, people, v)
                assert _fixed(PROMPT[ask.kind]) in panel.text, (kind, panel.text)
                for s in ask.seats:
                    assert f"<@{100 + s}> ({colour_name(s)})" in panel.text
                # the status's "waiting for": the same question
                waiting = waiting_text(v)
                assert _fixed(f"decision.{ask.kind}") in waiting, (kind, waiting)


def test_after_the_action_no_one_is_told_to_choose_one() -> None:
    """The issue's case: the message said "your action is done" while the image said
    "choose an action"."""
    states = _positions(range(1, 60))["turn_done"]
    with i18n.using("en"):
        for state in states:
            v = view(state, None)
            seats = [SeatRow(i, 100 + i, None, f"P{i}") for i in range(3)]
            assert _fixed("prompt.turn_done") in panels.public_panel(state, seats, v).text
            assert word("decision.turn") not in board_alt_text(v)
            assert word("decision.turn_done") in board_alt_text(v)
            assert t("decision.turn", colour=colour_name(state.turn)) not in waiting_text(v)


def test_a_rounds_end_is_said_alike_by_the_message_the_image_and_its_description() -> None:
    _, record = play_game(3, 11)
    v, done = view_at(record.to_json(), 5)
    assert v is not None and done >= 5
    seats = [SeatRow(i, 100 + i, None, f"P{i}") for i in range(3)]
    with i18n.using("en"):
        ended = word("status.ended", "en", n=5)
        assert t("status.head.ended", game=1, round=5, rounds=10) in status_text(1, v, seats)
        assert _status(v, "en") == (ended, "")  # the image's status line
        alt = board_alt_text(v)
        assert ended in alt
        assert word("status.round", "en", n=1) not in alt  # not "Round 6, Turn 1"
        assert word("alt.to_act", "en", lines="x").split("x")[0] not in alt  # nobody asked
        assert moment(v).ended_round == 5 and moment(v).asks == ()
