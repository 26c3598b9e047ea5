"""The lesson's script: chapters of steps, each the learner's one click in a real game.

A :class:`Step` names the click the lesson asks for (``do``: one or more engine actions,
as one control of the real game may make a step and the end of its action), the other
choices it offers beside it (``tempt``: legal or not; the engine's verdict on them is
what the learner is told), what the scripted computers do after it (``after``), the hexes
its picture marks and the rules it teaches (ids of ``RULES.md``). A step without ``do``
is a page to read. The words are the catalogue's ``lesson.step.<key>`` (what, why, the
rule in one sentence) and ``lesson.step.<key>.hint`` (what to try after a wrong choice).

Nothing here decides what is legal: ``tests/games/tempus/test_lesson.py`` applies every
step to its position with the engine and checks that each ``do`` is accepted and each
``tempt`` refused or different.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine import actions as A
from engine.state import State
from games.tempus.lesson.positions import (
    BLUE,
    LEARNER,
    YELLOW,
    H,
    card,
    first_round,
    position,
)

Click = tuple[A.Action, ...]
Moves = tuple[tuple[int, A.Action], ...]


@dataclass(frozen=True)
class Step:
    key: str
    #: the rule ids (RULES.md) this step teaches
    rules: tuple[str, ...]
    #: the learner's click: the engine actions it makes, in order (empty: a page to read)
    do: Click = ()
    #: the other choices offered: each is applied to the position to tell the learner
    #: what the rules say of it (refused, or allowed but not this step's lesson)
    tempt: tuple[Click, ...] = ()
    #: the scripted computers' actions after the learner's click, in order
    after: Moves = ()
    #: the hexes the step's picture marks
    marks: tuple[str, ...] = ()

    @property
    def reading(self) -> bool:
        return not self.do


@dataclass(frozen=True)
class Chapter:
    key: str
    #: the chapter's first position (a fresh copy at each call)
    start: Callable[[], State]
    steps: tuple[Step, ...]


def _turn(seat: int, *actions: A.Action) -> Moves:
    return tuple((seat, a) for a in actions)


def _then(*moves: Moves) -> Moves:
    return tuple(m for part in moves for m in part)


# the cards of the later chapters, named once
EDU_F = card("EDU", "F")
LEA_H, WEA_H = card("LEA", "H"), card("WEA", "H")
REL_W, FOR_F, TRA_W, SAN_F = card("REL", "W"), card("FOR", "F"), card("TRA", "W"), card("SAN", "F")
TRA_F = card("TRA", "F")
EDU_H_BLUE = card("EDU", "H")
WEA_W_YELLOW = card("WEA", "W")
GOV_F, TRA_G, SAN_H, HEA_G, REL_G = (card("GOV", "F"), card("TRA", "G"), card("SAN", "H"),
                                     card("HEA", "G"), card("REL", "G"))
WEA_G, LEA_F, FOR_G = card("WEA", "G"), card("LEA", "F"), card("FOR", "G")
FOR_W, WEA_F = card("FOR", "W"), card("WEA", "F")
EDU_W, EDU_G = card("EDU", "W"), card("EDU", "G")
LEA_W_FINAL, REL_H, GOV_H = card("LEA", "W"), card("REL", "H"), card("GOV", "H")
FOR_H, SAN_H2 = card("FOR", "H"), card("SAN", "H", 1)

# ------------------------------------------------------------------ 1: the first round
FIRST_ROUND = Chapter("first_round", first_round, (
    Step("welcome", ("R-ROUND-1", "R-ROUND-2", "R-ERA-1"), marks=("C4", "C5")),
    Step("move", ("R-ROUND-2", "R-MOVE-1"),
         do=(A.BeginMove(),),
         tempt=((A.DrawCards(),), (A.Attack(H("C5"), H("B6")),))),
    Step("lake", ("R-MOVE-6", "R-MOVE-5"),
         do=(A.MoveToken(H("C4"), H("F5")),),
         tempt=((A.MoveToken(H("C4"), H("D5")),), (A.MoveToken(H("C5"), H("E5")),)),
         after=_then(_turn(BLUE, A.DrawCards(), A.EndTurn()),
                     _turn(YELLOW, A.BeginGrow(), A.GrowToken(H("A8")))),
         marks=("C4", "F5")),
    Step("grow", ("R-GROW-1",),
         do=(A.BeginGrow(),),
         tempt=((A.BeginMove(),),)),
    Step("grow_where", ("R-GROW-1", "R-GROW-3"),
         do=(A.GrowToken(H("F5")),),
         tempt=((A.GrowToken(H("C5")),), (A.GrowToken(H("E5")),)),
         after=_then(_turn(BLUE, A.BeginMove(), A.MoveToken(H("G2"), H("G3")), A.EndMove(),
                           A.EndTurn()),
                     _turn(YELLOW, A.DrawCards(), A.EndTurn())),
         marks=("F5", "C5")),
    Step("draw", ("R-DRAW-1", "R-CARD-1"),
         do=(A.DrawCards(), A.EndTurn()),
         tempt=((A.BeginGrow(),),),
         after=_then(_turn(BLUE, A.DrawCards(), A.EndTurn()),
                     _turn(YELLOW, A.BeginMove(), A.MoveToken(H("B9"), H("B10")),
                           A.EndMove(), A.EndTurn()))),
    Step("progress", ("R-PROG-2", "R-PROG-3", "R-CARD-EDU", "R-PROG-5", "R-ERA-3"),
         do=(A.ProgressCards((EDU_F,)),),
         tempt=((A.ProgressCards(()),),),
         after=_then(_turn(BLUE, A.ProgressCards(())),
                     _turn(YELLOW, A.ProgressCards((TRA_F,))))),
    Step("advanced", ("R-ERA-3", "R-ROUND-4", "R-PROG-1")),
))

# ------------------------------------------------------------------ 2: cards and a city
# the same game goes on: round 2, Blue begins (the start player moved on, R-ROUND-4)
ROUND_TWO_OPENING = _then(
    _turn(BLUE, A.BeginMove(), A.MoveToken(H("H2"), H("H3")), A.EndMove(), A.EndTurn()),
    _turn(YELLOW, A.BeginGrow(), A.GrowToken(H("B10"))),
)


def _round_two() -> State:
    """Chapter 1's game where it stopped, once Blue and Yellow have taken their first
    turns of round 2 (their moves are the engine's, as everywhere)."""
    from engine import apply

    state = _end_of(FIRST_ROUND)
    for seat, action in ROUND_TWO_OPENING:
        state, _ = apply(state, seat, action)
    return state


CARDS_AND_CITY = Chapter("cards_and_city", _round_two, (
    Step("draw_two", ("R-DRAW-1", "R-ERA-1"),
         do=(A.DrawCards(), A.EndTurn()),
         tempt=((A.BuildCity(H("C5"), 3),),),
         after=_then(_turn(BLUE, A.DrawCards(), A.EndTurn()),
                     _turn(YELLOW, A.DrawCards(), A.EndTurn()))),
    Step("hand_limit", ("R-DRAW-2",),
         do=(A.DrawCards(),),
         tempt=((A.BeginMove(),),)),
    Step("discard", ("R-DRAW-2", "R-CARD-3"),
         do=(A.Discard((FOR_F,)), A.EndTurn()),
         tempt=((A.Discard((FOR_F, REL_W)),),),
         after=_then(_turn(BLUE, A.BeginMove(), A.MoveToken(H("H3"), H("H2")), A.EndMove(),
                           A.EndTurn()),
                     _turn(YELLOW, A.BeginMove(), A.MoveToken(H("A8"), H("B8")), A.EndMove(),
                           A.EndTurn()))),
    Step("city", ("R-CITY-1", "R-CITY-2", "R-CITY-3", "R-CITY-4"),
         do=(A.BuildCity(H("C5"), 2), A.EndTurn()),
         tempt=((A.BuildCity(H("C5"), 3),), (A.BuildCity(H("D5"), 2),)),
         marks=("C5", "F5")),
    Step("progress_two", ("R-PROG-1", "R-PROG-3", "R-PROG-5"),
         do=(A.ProgressCards((LEA_H, WEA_H)),),
         tempt=((A.ProgressCards(()),),),
         after=_then(_turn(BLUE, A.ProgressCards((EDU_H_BLUE,))),
                     _turn(YELLOW, A.ProgressCards(())))),
    Step("cards_and_city_done", ("R-PROG-5", "R-ROUND-4")),
))

# ------------------------------------------------------------------ 3: what cards do
CARD_POWERS = Chapter("card_powers", lambda: position(
    tokens={"C5": (LEARNER, 2), "F5": (LEARNER, 2), "E3": (LEARNER, 1), "D3": (LEARNER, 1),
            "E2": (LEARNER, 1),
            "G3": (BLUE, 2), "H2": (BLUE, 1), "F2": (BLUE, 1), "H3": (BLUE, 1),
            "B9": (YELLOW, 2), "B10": (YELLOW, 2), "A8": (YELLOW, 1)},
    cities={"B7": (LEARNER, 2)},
    hands={LEARNER: [GOV_F, TRA_G, SAN_H, HEA_G, REL_G], BLUE: [FOR_H], YELLOW: []},
    eras={LEARNER: 2, BLUE: 2, YELLOW: 1}, round_number=4), (
    Step("government", ("R-CARD-GOV", "R-CARD-1"),
         do=(A.PlayGovernment(GOV_F, "double"),),
         tempt=((A.PlayGovernment(GOV_F, "pass"),),)),
    Step("transport", ("R-CARD-TRA", "R-MOVE-8"),
         do=(A.BeginMove(), A.PlayTransport(TRA_G)),
         tempt=((A.BeginMove(), A.MoveToken(H("C5"), H("C4"))),)),
    Step("transport_first", ("R-CARD-TRA", "R-MOVE-1"),
         do=(A.MoveToken(H("D3"), H("C4")),),
         tempt=((A.MoveToken(H("D3"), H("D4")),),),
         marks=("D3", "C4")),
    Step("transport_second", ("R-CARD-TRA", "R-MOVE-2"),
         do=(A.MoveToken(H("F5"), H("E5")), A.EndMove()),
         tempt=((A.MoveToken(H("E3"), H("F2")),),),
         marks=("F5", "E5")),
    Step("sanitation", ("R-CARD-SAN", "R-GROW-3"),
         do=(A.PlaySanitation(SAN_H, H("C5")),),
         tempt=((A.BeginGrow(), A.GrowToken(H("C5"))),),
         marks=("C5",)),
    Step("health_care", ("R-CARD-HEA", "R-ERA-1"),
         do=(A.BeginGrow(), A.PlayHealthCare(HEA_G)),
         tempt=((A.BeginGrow(), A.GrowToken(H("E3"))),)),
    Step("grow_raised", ("R-CARD-SAN", "R-GROW-2"),
         do=(A.GrowToken(H("C5")),),
         tempt=((A.GrowToken(H("D3")),),),
         marks=("C5", "C4", "F5")),
    Step("grow_two", ("R-GROW-2", "R-CARD-HEA"),
         do=(A.GrowToken(H("C4")),),
         tempt=((A.GrowToken(H("C5")),),),
         marks=("C4", "F5")),
    Step("grow_three", ("R-CARD-HEA",),
         do=(A.GrowToken(H("F5")), A.EndGrow()),
         tempt=((A.GrowToken(H("E5")),),),
         marks=("F5",)),
    Step("religion", ("R-CARD-REL", "R-COMBAT-2"),
         do=(A.PlayReligion(REL_G, H("F2"), H("E2")), A.EndTurn()),
         tempt=((A.Attack(H("E2"), H("F2")),), (A.PlayReligion(REL_G, H("G3"), H("E3")),)),
         marks=("F2", "E2")),
    Step("card_powers_done", ("R-CARD-1", "R-CARD-2")),
))

# ------------------------------------------------------------------ 4: a fight
FIGHTS = Chapter("fights", lambda: position(
    tokens={"C5": (LEARNER, 2), "D5": (LEARNER, 2), "E5": (LEARNER, 3), "E3": (LEARNER, 2),
            "F5": (BLUE, 1), "F6": (BLUE, 2), "G5": (BLUE, 2), "E6": (BLUE, 1),
            "H5": (BLUE, 1),
            "B6": (YELLOW, 3), "B9": (YELLOW, 2), "B10": (YELLOW, 2), "A8": (YELLOW, 2),
            "B8": (YELLOW, 1)},
    cities={"C6": (LEARNER, 2)},
    hands={LEARNER: [WEA_G, LEA_F, FOR_G], BLUE: [FOR_W], YELLOW: [WEA_F]},
    eras={LEARNER: 3, BLUE: 3, YELLOW: 3}, markers={LEARNER: 1, BLUE: 1, YELLOW: 1},
    round_number=6), (
    Step("attack", ("R-COMBAT-1", "R-COMBAT-2", "R-COMBAT-3"),
         do=(A.Attack(H("E5"), H("F5")),),
         tempt=((A.Attack(H("E3"), H("F5")),), (A.Attack(H("C5"), H("B6")),)),
         marks=("E5", "F5")),
    Step("attack_cards", ("R-COMBAT-5", "R-COMBAT-6", "R-CARD-WEA", "R-INFO-2"),
         do=(A.CommitAttackCards((WEA_G,)),),
         tempt=((A.CommitAttackCards((FOR_G,)),),),
         after=_turn(BLUE, A.DefendCards((FOR_W,))),
         marks=("E5", "F5")),
    Step("occupy", ("R-COMBAT-7", "R-COMBAT-8", "R-COMBAT-10"),
         do=(A.Occupy(2),),
         tempt=((A.Occupy(3),), (A.Occupy(0),)),
         marks=("E5", "F5")),
    Step("leader", ("R-CARD-LEA", "R-COMBAT-11", "R-COMBAT-2"),
         do=(A.Attack(H("F5"), H("E6"), LEA_F),),
         tempt=((A.Attack(H("F5"), H("E6")),),),
         marks=("F5", "E6")),
    Step("leader_cards", ("R-COMBAT-5", "R-COMBAT-6"),
         do=(A.CommitAttackCards(()),),
         tempt=((A.CommitAttackCards((FOR_G,)),),),
         marks=("F5", "E6")),
    Step("leader_occupy", ("R-COMBAT-8", "R-COMBAT-2"),
         do=(A.Occupy(1), A.EndTurn()),
         tempt=((A.Occupy(2),),),
         after=_then(_turn(BLUE, A.DrawCards(), A.EndTurn()),
                     _turn(YELLOW, A.Attack(H("B6"), H("C5")),
                           A.CommitAttackCards((WEA_F,)))),
         marks=("E6", "F6", "G5", "H5")),
    Step("defend", ("R-COMBAT-5", "R-COMBAT-6", "R-COMBAT-7", "R-COMBAT-9", "R-CARD-FOR"),
         do=(A.DefendCards((FOR_G,)),),
         tempt=((A.DefendCards(()),),),
         marks=("B6", "C5")),
    Step("fights_done", ("R-COMBAT-9", "R-COMBAT-10")),
))

# ------------------------------------------------------------------ 5: the end
THE_END = Chapter("the_end", lambda: position(
    tokens={"C5": (LEARNER, 3), "C4": (LEARNER, 2), "F4": (LEARNER, 4), "E3": (LEARNER, 3),
            "C3": (LEARNER, 1),
            "F2": (BLUE, 3), "G2": (BLUE, 3), "H2": (BLUE, 3), "G3": (BLUE, 2),
            "H3": (BLUE, 1), "F6": (BLUE, 1),
            "B9": (YELLOW, 4), "A8": (YELLOW, 3), "B8": (YELLOW, 2), "B6": (YELLOW, 2)},
    cities={"C6": (LEARNER, 3), "E2": (LEARNER, 4), "B10": (YELLOW, 4), "H5": (BLUE, 3)},
    hands={LEARNER: [FOR_H, SAN_H2, EDU_W], BLUE: [EDU_G], YELLOW: [REL_H]},
    eras={LEARNER: 9, BLUE: 9, YELLOW: 8}, markers={LEARNER: 1, BLUE: 0, YELLOW: 0},
    round_number=10), (
    Step("last_move", ("R-MOVE-1", "R-ERA-1"),
         do=(A.BeginMove(),),
         tempt=((A.DrawCards(),),)),
    Step("last_token", ("R-END-2", "R-MOVE-5"),
         do=(A.MoveToken(H("C3"), H("D3")), A.EndMove(), A.EndTurn()),
         tempt=((A.MoveToken(H("C4"), H("C3")),),),
         marks=("C3", "D3")),
    Step("final_progress", ("R-PROG-1", "R-PROG-3", "R-PROG-5", "R-ERA-4", "R-END-1"),
         do=(A.ProgressCards((FOR_H, SAN_H2, EDU_W)),),
         tempt=((A.ProgressCards((EDU_W,)),), (A.ProgressCards((FOR_H, SAN_H2)),)),
         after=_then(_turn(BLUE, A.ProgressCards((EDU_G,))),
                     _turn(YELLOW, A.ProgressCards(()))),
         marks=("F4", "F2", "G2")),
    Step("score", ("R-END-2", "R-END-3", "R-ERA-4")),
))

CHAPTERS: tuple[Chapter, ...] = (FIRST_ROUND, CARDS_AND_CITY, CARD_POWERS, FIGHTS, THE_END)


def _end_of(chapter: Chapter) -> State:
    """The position after the last step of ``chapter`` (its clicks and the computers')."""
    from engine import apply

    state = chapter.start()
    for step in chapter.steps:
        for action in step.do:
            state, _ = apply(state, LEARNER, action)
        for seat, action in step.after:
            state, _ = apply(state, seat, action)
    return state
