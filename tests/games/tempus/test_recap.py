"""The recap ("What happened?"): from a scripted stretch of a game it names each player's
moves, the fight with the cards revealed, growth, the new city and the changes in victory
points, in English and Polish, and marks each change; the window of a seated person
(their previous decision) and of a spectator (a round's start); the text's limit."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from engine import actions as A
from engine import apply, decisions, legal_actions, new_game, view
from engine.events import Event, visible
from engine.record import Record
from engine.simulate import play_game
from engine.state import State
from games.controls import RECAP, Button, Panel
from games.tempus.labels import card_name
from games.tempus.recap import (
    TEXT_LIMIT,
    Fight,
    Progress,
    RecapError,
    RoundStart,
    Since,
    Turn,
    collect,
    recap_lines,
    recap_of,
    recap_panel,
    window,
    with_recap,
    worth_asking,
)
from lang.i18n import using
from render.recap import Mark
from tests.engine.helpers import H, card, make_state

NAMES = ["ada", "brian", "cleo", "Computer 1", "Computer 2"]
WEAPONS, FORT = card("WEA", "G"), card("FOR", "F")


def scripted() -> tuple[dict[str, Any], list[list[Event]], State]:
    """Red (ada) has ended her turn. Blue moves E5 -> F5 and ends her turn (rules 4: with
    Fortification in hand it does not end by itself); Yellow attacks Blue's token on F5 from
    G5 with Weapons (grassland) against Fortification (farmland), wins 5 to 3 and moves 2
    tokens in; Green grows on C8; Purple builds a city of value 2 on H9. Returns
    the public view before, each move's public events, and the state after."""
    s = make_state(5, tokens={"C3": (0, 2), "E5": (1, 3), "J9": (1, 1), "K9": (1, 1),
                              "L10": (1, 1), "G5": (2, 3), "C8": (3, 1), "H9": (4, 3)},
                   hands={1: [FORT], 2: [WEAPONS]}, turn=1,
                   rules_version=4)  # rules 5 only adds Blue's "stop moving", which says nothing
    before = view(s, None)
    told: list[list[Event]] = []
    for seat, action in [
        (1, A.BeginMove()), (1, A.MoveToken(H("E5"), H("F5"))), (1, A.EndTurn()),
        (2, A.Attack(H("G5"), H("F5"))), (2, A.CommitAttackCards((WEAPONS,))),
        (1, A.DefendCards((FORT,))), (2, A.Occupy(2)), (2, A.EndTurn()),
        (3, A.BeginGrow()), (3, A.GrowToken(H("C8"))),
        (4, A.BuildCity(H("H9"), 2)),
    ]:
        s, events = apply(s, seat, action)
        told.append(visible(events, None))
    assert s.turn == 0  # Red's turn again
    return before, told, s


def _recap() -> Any:
    before, told, s = scripted()
    return recap_of(Since.decision(0), 5, before, told, view(s, None))


def test_the_scripted_recap_holds_each_players_turn() -> None:
    r = _recap()
    turns = [i for i in r.items if isinstance(i, Turn)]
    assert [x.seat for x in turns] == [1, 2, 3, 4]
    blue, yellow, green, purple = turns
    assert blue.moves == [("E5", "F5")]
    assert yellow.fights == [Fight(2, 1, "G5", "F5", False, 1, 3, False, None, (WEAPONS,),
                                   (FORT,), 5, 3, 2, 1, 2)]
    assert green.grown == ["C8"]
    assert purple.cities == [("H9", 2)]
    # Blue gained F5 and lost it; Yellow took it; Green grew on a hex it held; Purple's
    # three tokens on H9 became a city of value 2 (a hex: 1 point; the city: 2)
    assert r.points_before == [1, 4, 1, 1, 1]
    assert r.points_now == [1, 4, 2, 1, 2]
    assert set(r.marks) == {(Mark.MOVE, H("E5"), H("F5")), (Mark.FIGHT, H("G5"), H("F5")),
                            (Mark.GROW, H("C8"), 1), (Mark.CITY, H("H9"))}


def test_the_scripted_recap_in_english() -> None:
    with using("en"):
        text = "\n".join(recap_lines(_recap(), NAMES))
    assert text.splitlines()[0] == "**What happened since your last move** (round 1, turn 1)"
    assert "**Blue** (brian): moved 1 token (E5→F5)." in text
    with using("en"):
        weapons, fort = card_name(WEAPONS), card_name(FORT)
    assert (f"**Yellow** (cleo): attacked Blue's 1 token on F5 from G5 with 3 tokens — "
            f"Yellow revealed {weapons}, Blue answered with {fort}: 5 against 3 — Yellow "
            "won; Blue lost 1 token (Yellow moved 2 tokens in).") in text
    assert "**Green** (Computer 1): grew 1 token (C8)." in text
    assert "**Purple** (Computer 2): built a city of value 2 on H9." in text
    assert text.splitlines()[-1] == ("Victory points now: Red 1, Blue 4, Yellow 2 (+1), "
                                     "Green 1, Purple 2 (+1).")


def test_a_recap_during_the_setup_names_no_turn() -> None:
    """The setup comes before the first action round (R-SETUP-5): a recap made then says
    so in its heading instead of "round 1, turn 0"."""
    s, _ = new_game(3, 5, random_map=True)
    before, told = view(s, None), []
    placing = decisions(s)[0].seat
    while decisions(s)[0].seat == placing:  # the start player's three starting tokens
        s, events = apply(s, placing, legal_actions(s, placing)[0])
        told.append(visible(events, None))
    r = recap_of(Since.decision((placing + 2) % 3), 2, before, told, view(s, None))
    for lang, setup in (("en", "(setup)"), ("pl", "(przygotowanie gry)")):
        with using(lang):
            head = recap_lines(r, NAMES)[0]
        assert head.endswith(setup) and "0" not in head, head


def test_the_scripted_recap_in_polish() -> None:
    with using("pl"):
        text = "\n".join(recap_lines(_recap(), NAMES))
        weapons, fort = card_name(WEAPONS), card_name(FORT)
    assert text.splitlines()[0].startswith("**Co się wydarzyło od twojego ostatniego ruchu**")
    assert "**Niebieski** (brian): przesunięte piony: 1 (E5→F5)." in text
    assert f"karty ataku (Żółty): {weapons}; obrona (Niebieski): {fort}; siła 5 przeciw 3" \
        in text
    assert "wygrywa Żółty; Niebieski traci 1 pion (Żółty wprowadza 2 piony)" in text
    assert "nowe miasto o wartości 2 na H9" in text
    assert text.splitlines()[-1] == ("Punkty zwycięstwa teraz: Czerwony 1, Niebieski 4, "
                                     "Żółty 2 (+1), Zielony 1, Fioletowy 2 (+1).")


def test_a_window_begun_during_a_fight_takes_the_fight_from_the_board() -> None:
    """Blue, the defender, answered: her window starts after her defence, with the fight's
    end to tell; the fight's start comes from the public view (never its face-down
    cards)."""
    before, told, s = scripted()
    state = make_state(5, tokens={"C3": (0, 2), "E5": (1, 3), "J9": (1, 1), "K9": (1, 1),
                                  "L10": (1, 1), "G5": (2, 3), "C8": (3, 1), "H9": (4, 3)},
                       hands={1: [FORT], 2: [WEAPONS]}, turn=1, rules_version=4)
    for seat, action in [(1, A.BeginMove()), (1, A.MoveToken(H("E5"), H("F5"))),
                         (1, A.EndTurn()), (2, A.Attack(H("G5"), H("F5"))),
                         (2, A.CommitAttackCards((WEAPONS,)))]:
        state, _ = apply(state, seat, action)
    mid = view(state, None)
    assert mid["combat"]["attack_cards"] is None  # face down: not in a spectator's view
    r = recap_of(Since.decision(0), 5, mid, told[5:], view(s, None))
    fight = next(i for i in r.items if isinstance(i, Turn)).fights[0]
    assert (fight.attacker, fight.defender, fight.src, fight.dst) == (2, 1, "G5", "F5")
    assert fight.attack_cards == (WEAPONS,) and fight.winner == 2  # from the reveal
    assert (Mark.FIGHT, H("G5"), H("F5")) in r.marks


def test_only_public_facts_are_taken() -> None:
    before, told, s = scripted()
    with pytest.raises(ValueError):
        recap_of(Since.decision(0), 5, view(s, 0), told, view(s, None))
    secret = Event("draw_private", "You drew X.", 0, private_to=0, data={"cards": [1]})
    with pytest.raises(ValueError):
        recap_of(Since.decision(0), 5, before, [*told, [secret]], view(s, None))


# ------------------------------------------------------------------ the window
def test_the_window_of_a_seat() -> None:
    # seats of each move: Red's turn, Blue's, Yellow's, then Red again in her turn
    movers = [0, 0, 1, 1, 2, 0, 0]
    assert window(movers, 0) == (2, 5)  # Blue's and Yellow's moves, not her own turn
    assert window(movers, 1) == (4, 7)
    assert window(movers[:5], 0) == (2, 5)
    assert window([1, 2], 0) == (0, 2)  # never decided: from the start
    assert window([0, 1, 0], 0) == (1, 2)
    assert window([], 0) == (0, 0)
    assert window([0, 0], 0) == (0, 0)


def test_the_button_shows_only_after_others_played() -> None:
    moves = [(0, A.BeginMove()), (1, A.DrawCards())]
    assert worth_asking(moves, [0])
    assert worth_asking(moves, [1])  # Blue, in her first turn: Red played before it
    assert not worth_asking(moves[:1], [0])  # only Red has played: nothing new for her
    assert not worth_asking([], [0])
    assert worth_asking(moves[:1], [0, 1])  # any person deciding now


def test_the_button_goes_in_the_last_row_if_there_is_room() -> None:
    with using("en"):
        panel = with_recap(Panel("x", [(Button("a", "act", "1"),)]))
    assert panel.rows[-1][-1] == Button("⏪ What happened?", RECAP, "", "secondary")  # type: ignore[index]
    full = Panel("x", [tuple(Button(str(i), "act", str(i)) for i in range(5))] * 5)
    assert with_recap(full) is full


# ------------------------------------------------------------------ whole games
def _game(players: int = 4, seed: int = 2) -> Record:
    return play_game(players, seed)[1]


def test_a_spectator_gets_the_round_since_its_start() -> None:
    record = _game()
    r = collect(record, Since.round_start(3))
    assert isinstance(r.items[0], RoundStart) and r.items[0].round == 3
    assert r.round == 3
    # the window is the log after the move that began round 3
    state, _ = record.new_state()
    from engine.game import apply_in_place
    for i, (seat, action) in enumerate(record.moves):
        if any(e.kind == "era" and e.data["era_number"] == 3
               for e in apply_in_place(state, seat, action)):
            assert r.first == i + 1
            break
    assert r.count == len(record.moves) - r.first
    assert any(isinstance(i, Progress) for i in r.items)
    assert [i.round for i in r.items if isinstance(i, RoundStart)] == list(range(3, 11))
    with pytest.raises(RecapError):
        collect(dataclasses.replace(record, moves=record.moves[:r.first - 1]),
                Since.round_start(3))


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_a_long_recap_fits_and_keeps_the_newest_in_full(lang: str) -> None:
    record = _game(5, 3)
    r = collect(record, Since.round_start(1))
    with using(lang):
        lines = recap_lines(r, NAMES)
        whole = [*recap_lines(r, NAMES, limit=10**6)]
        omitted = "pominięto" if lang == "pl" else "not shown"
    text = "\n".join(lines)
    assert len(text) <= TEXT_LIMIT
    assert omitted in lines[1]  # the oldest steps gave way
    assert lines[-1] == whole[-1] and lines[-2] == whole[-2]  # the newest, in full
    assert len(whole) > len(lines)


def test_nothing_happened() -> None:
    """The only player who has played asks: nothing to tell, no picture."""
    record = _game(3, 1)
    head = record.moves[:1]
    r = collect(dataclasses.replace(record, moves=head), Since.decision(head[0][0]))
    assert r.empty
    with using("en"):
        panel = recap_panel(r, NAMES)
    assert panel.text == "Nothing has happened since your last move." and panel.image is None


def test_the_panel_carries_the_picture() -> None:
    before, told, s = scripted()
    r = recap_of(Since.decision(0), 5, before, told, view(s, None))
    with using("en"):
        panel = recap_panel(r, NAMES)
    assert panel.image == "recap" and panel.image_view == view(s, None)
    assert panel.marks == r.marks and not panel.rows
    assert panel.alt == ["Marked on the board: 1 move (white arrows), 1 fight (red arrows, "
                         "crossed swords), 1 new token (plus signs), 1 new city (double "
                         "rings)."]


def test_a_recap_crosses_to_and_from_a_worker_process() -> None:
    """The replay runs in a worker process (bot/table/recaps.py): the record goes there,
    the recap or its refusal comes back, by pickle."""
    import pickle

    record = _game(3, 1)
    r = collect(record, Since.decision(0))
    assert pickle.loads(pickle.dumps(record)).moves == record.moves
    assert pickle.loads(pickle.dumps(r)) == r
    try:
        collect(dataclasses.replace(record, moves=record.moves[:5]), Since.round_start(4))
    except RecapError as exc:
        back = pickle.loads(pickle.dumps(exc))
        assert (back.key, back.kwargs) == ("recap.no_round", {"round": 4})
    else:
        raise AssertionError("round 4 has not begun after five moves")


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_a_cut_recap_keeps_every_fight_city_and_progress_phase(lang: str) -> None:
    """Steps give way to fit, but not a fight (the picture still marks it), a city or a
    progress phase: "(… 15 earlier steps not shown)" must not hide the only fight, even
    when it is the oldest step of the window."""
    from games.tempus.recap import Turn, _important, _item_line

    r = collect(_game(3, 2), Since.round_start(1))
    (fight,) = [x for x in r.items if isinstance(x, Turn) and x.fights][:1]
    r = dataclasses.replace(r, items=[fight, *(x for x in r.items if not _important(x))])
    with using(lang):
        lines = recap_lines(r, NAMES)
        assert _item_line(fight, NAMES, True) in lines or \
            _item_line(fight, NAMES, False) in lines
        omitted = "pominięto" if lang == "pl" else "not shown"
    assert len("\n".join(lines)) <= TEXT_LIMIT
    assert omitted in lines[1]


def test_a_turn_the_computer_played_for_the_reader_is_told() -> None:
    """A person whose time ran out comes back: the turn a computer played for them is in
    their recap, said first ("a computer played your last turn"), not skipped as if they
    had made it."""

    movers = [0, 1, 2, 0, 0, 1, 2]  # seat 0's last turn (moves 3-4) was the computer's
    assert window(movers, 0) == (5, 7)
    assert window(movers, 0, covered=1) == (1, 7)
    assert window([*movers, 0], 0, covered=1) == (1, 7), "their own steps now are known"
    record = _game(3, 5)
    movers = [s for s, _ in record.moves]
    seat = movers[-1]
    cut = dataclasses.replace(record, moves=record.moves[:len(movers) - 1])
    told = collect(cut, Since.decision(seat, covered=1))
    plain = collect(cut, Since.decision(seat))
    assert told.first < plain.first
    with using("en"):
        lines = recap_lines(told, NAMES)
        assert "a computer played your last turn for you" in lines[0]
        assert "computer" not in recap_lines(plain, NAMES)[0]



def test_an_empty_round_says_which_round() -> None:
    """"Nothing has happened since the start of round N" names the round, in every
    language (the line once showed its placeholder instead)."""
    from lang import i18n

    _, _, s = scripted()
    empty = recap_of(Since.round_start(3), 5, view(s, None), [], view(s, None))
    assert empty.empty
    for lang in i18n.languages():
        with using(lang):
            line = recap_lines(empty, [])[0]
        assert "{" not in line and "3" in line, (lang, line)
